"""Learning mode: a line at the bottom of the live screen saying what the buttons do right now.

For a table's first games (the lobby turns it on when the journal holds no finished game, and hold BRAWL in the
lobby toggles it). Each game gives its lines by screen name (``GameMode.hints``), because the screen is what players
see: a screen that already says what to press (the Duel pick, a battle setup, a turn) keeps its own line.
"""

from __future__ import annotations

from game.registry import GAMES
from game.table.present import View


def learning_hint(v: View) -> str | None:
    """The learning line for this view, or None when it already says what to press (or has nothing to teach)."""
    if v.hint:
        return None
    mode = GAMES.get(v.game)
    text = mode.hints.get(v.screen) if mode is not None else None
    return f"LEARNING: {text}" if text else None
