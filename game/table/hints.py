"""Learning mode: a line at the bottom of the live screen saying what the buttons do right now.

For a table's first games (the lobby turns it on when the journal holds no finished game, and hold BRAWL in the
lobby toggles it). Keyed by the game and the screen being shown, because that is what players see: a screen that
already says what to press (the Duel pick, a Zombie Burrito battle setup, a Taco vs Burrito turn) keeps its own line.
"""

from __future__ import annotations

from game.table.present import View

HINTS: dict[tuple[str, str], str] = {
    ("throw-throw-burrito", "scoreboard"): "SET: I laid a set of 3   -   BRAWL / WAR / DUEL: I laid that battle set (2 points)",
    ("throw-throw-burrito", "battle"): "Fighters: on BURRITO!, grab a burrito and throw it at the other fighter",
    ("throw-throw-burrito", "countdown"): "On BURRITO!, go: pass cards (in a battle: grab a burrito and throw it)",
    ("throw-throw-burrito", "call"): "Caught a burrito? Press any button on your panel within 2 s",
    ("throw-throw-burrito", "round_end"): "Most points wins the round: SET and battle sets add, bruises take away",
    ("throw-throw-burrito", "tiebreak"): "A tie-break Duel: the two fighters throw, the first hit loses",
    ("throw-throw-burrito", "final"): "The final Duel: the first hit loses the game",
    ("zombie-burrito", "zb_board"): "SET: I laid an advantage set   -   WAR: Battle! (3 matching battle cards)",
    ("zombie-burrito", "zb_fight"): "Throw your team's burrito at the other team: hit = out, caught = the thrower is out",
    ("zombie-burrito", "countdown"): "Each team takes its own burrito: throw on BATTLE!",
    ("taco-vs-burrito", "taco_table"): "LEFT / RIGHT: browse your hand   -   PLAY: play it   -   hold PLAY: peek",
    ("taco-vs-burrito", "taco_window"): "Is that card against you? NO BUENO blocks it before the bar runs out",
}


def learning_hint(v: View) -> str | None:
    """The learning line for this view, or None when it already says what to press (or has nothing to teach)."""
    if v.hint:
        return None
    text = HINTS.get((v.game, v.screen))
    return f"LEARNING: {text}" if text else None
