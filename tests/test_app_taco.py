"""Taco vs Burrito at the table: seat buttons, the No Bueno race, private hands, bots, the whole game at the pins."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path
from typing import Any

import pytest

from game.app.clock import SteppedClock
from game.app.runner import STEP_S
from game.app.sim import open_sim, press
from game.app.taco import (
    RACE_S,
    HandBrowser,
    PanelBots,
    SeatCursor,
    TacoTable,
    options_for,
    press_plan,
    run_demo,
)
from game.bots_taco import run_game
from game.journal import Journal
from game.log import Table
from game.rules import taco_vs_burrito as tvb
from hardware.events import SeatEvent

WIRED = {"LEFT": "SET", "RIGHT": "BRAWL", "PLAY": "WAR", "NO BUENO": "DUEL"}


def stacked(seats: int, extra: list[str] | None = None) -> list[str]:
    """A deck whose deal gives seat 1 [ingredient-3, no-bueno, crafty-crow, tummy-ache-2, hot-sauce-boss]."""
    hands = {1: ["ingredient-3", "no-bueno", "crafty-crow", "tummy-ache-2", "hot-sauce-boss"]}
    for s in range(2, seats + 1):
        hands[s] = ["no-bueno", "ingredient-1", "ingredient-2", "no-bueno", "food-fight"]
    deck = [hands[s][r] for r in range(5) for s in range(1, seats + 1)]
    return deck + (extra or ["ingredient-1"] * 20)


def make_table(tmp_path: Path, seats: int = 3, humans: int = 3, **kw: Any) -> tuple[TacoTable, SteppedClock]:
    clock = SteppedClock(100.0)
    table = TacoTable(journal=Journal(str(tmp_path / "j.db")), clock=clock, seats=seats,
                      seatmap={p: p for p in range(1, humans + 1)}, **kw)
    return table, clock


def with_deck(table: TacoTable, deck: list[str], variant: str = "open", window_ms: float = 3000.0) -> None:
    """Restart the table's game on a stacked deck (the live table normally shuffles with its seed)."""
    from game.journal import JournaledTable

    setup = {"event": "setup", "game": tvb.name, "seats": table.state.seats,
             "options": {"deck": deck, "variant": variant, "no_bueno_window_ms": window_ms}}
    table.live, _ = JournaledTable.new(table.journal, setup)


def tap(table: TacoTable, t: float, panel: int, name: str, hold: float = 0.05) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for action, at in (("press", t), ("release", t + hold)):
        out += table.browser.handle(SeatEvent(at, panel, WIRED[name], action), table.state)
    return out


def test_left_right_browse_the_hand_and_play_picks_then_confirms_the_meal(tmp_path: Path) -> None:
    """RIGHT moves the hand cursor, a PLAY tap picks the card, RIGHT chooses the option, PLAY confirms: one place."""
    table, _ = make_table(tmp_path)
    with_deck(table, stacked(3))
    assert tap(table, 1.0, 1, "RIGHT") == [] and table.browser.cursor(1).index == 1
    assert tap(table, 1.1, 1, "LEFT") == [] and table.browser.cursor(1).index == 0
    assert tap(table, 1.2, 1, "PLAY") == []  # picks ingredient-3
    assert table.browser.cursor(1).stage == "option"
    labels = [o.label for o in options_for(table.state, 1, "ingredient-3")]
    assert labels[0] == "my meal" and labels[-2:] == ["discard (trash)", "< back"]
    tap(table, 1.3, 1, "RIGHT")  # seat 2's meal
    events = tap(table, 1.4, 1, "PLAY")
    assert events == [{"t": 1.45, "event": "place", "seat": 1, "card": "ingredient-3", "meal": 2}]


def test_back_option_returns_to_the_hand_without_a_move(tmp_path: Path) -> None:
    """The last option, '< back', un-picks the card: no event, the cursor is on the hand again."""
    table, _ = make_table(tmp_path)
    with_deck(table, stacked(3))
    tap(table, 1.0, 1, "PLAY")
    tap(table, 1.1, 1, "LEFT")  # wraps to '< back'
    assert tap(table, 1.2, 1, "PLAY") == []
    assert table.browser.cursor(1).stage == "hand"


def test_play_out_of_turn_makes_no_move_and_says_whose_turn(tmp_path: Path) -> None:
    """Seat 2 tapping PLAY on seat 1's turn picks nothing and is told it is seat 1's turn."""
    table, _ = make_table(tmp_path)
    with_deck(table, stacked(3))
    assert tap(table, 1.0, 2, "PLAY") == []
    assert table.browser.cursor(2).stage == "hand"
    assert table.browser.notes[-1][1:] == (2, "seat 1's turn")


def test_holding_play_is_a_peek_on_the_shared_screen_and_picks_nothing(tmp_path: Path) -> None:
    """Peek mode: the shared screen shows seat 1's hand only while seat 1 holds PLAY; the hold picks no card."""
    table, clock = make_table(tmp_path, hands="peek")
    with_deck(table, stacked(3))
    b = table.browser
    assert table.view(clock()).hands == []
    b.handle(SeatEvent(1.0, 1, "WAR", "press"), table.state)
    b.handle(SeatEvent(1.8, 1, "WAR", "hold"), table.state)
    shown = table.view(clock()).hands
    assert [h.seat for h in shown] == [1] and shown[0].cards == table.state.hands[0]
    assert b.handle(SeatEvent(3.0, 1, "WAR", "release"), table.state) == []
    assert b.cursor(1).stage == "hand" and table.view(clock()).hands == []


def test_open_hands_mode_shows_every_hand_for_learning(tmp_path: Path) -> None:
    """Open hands: every seat's hand is on the shared screen, no peek needed."""
    table, clock = make_table(tmp_path, hands="open")
    v = table.view(clock())
    assert [h.seat for h in v.hands] == [1, 2, 3]
    assert [h.cards for h in v.hands] == table.state.hands


def test_secret_variant_shows_meals_face_down_on_the_shared_screen(tmp_path: Path) -> None:
    """Secret: once a card is in a meal, the shared screen shows a face-down card and no score."""
    table, clock = make_table(tmp_path)
    with_deck(table, stacked(3), variant="secret", window_ms=100)
    table.inject({"t": clock() + 0.1, "event": "place", "seat": 1, "card": "ingredient-3", "meal": 1})
    for _ in range(40):
        table.step(clock.advance(STEP_S))
    seat1 = table.view(clock()).seats[0]
    assert seat1.meal == [None] and seat1.score is None
    assert table.state.meals[0] == ["ingredient-3"]  # the referee's state has the card
    assert table.seat_screen(1, clock()).score == 3  # the owner may look at its own meal (Secret)


def _window(table: TacoTable, clock: SteppedClock) -> float:
    """Seat 1 places a card; returns the host time it was stamped. Steps until it waits in the block window."""
    t = clock() + 0.1
    table.inject({"t": t, "event": "place", "seat": 1, "card": "ingredient-3", "meal": 1})
    while table.state.phase != "window":
        table.step(clock.advance(STEP_S))
    return t


def test_no_bueno_race_is_won_by_the_earliest_edge_not_the_first_polled(tmp_path: Path) -> None:
    """Two NO BUENO presses 40 ms apart arrive latest-first: the earlier edge wins, the other is dropped as late."""
    table, clock = make_table(tmp_path)
    with_deck(table, stacked(3))
    t = _window(table, clock)
    table.seat_event(SeatEvent(t + 0.54, 3, "DUEL", "press"))  # polled first
    table.seat_event(SeatEvent(t + 0.50, 2, "DUEL", "press"))
    for _ in range(50):
        table.step(clock.advance(STEP_S))
    assert table.state.pending is not None and table.state.pending.chain == [2]
    assert "no-bueno" in table.state.hands[2] and table.state.hands[2].count("no-bueno") == 2
    assert "seat 3 was 40 ms late: seat 2 won the No Bueno race" in table.view(clock()).race


def test_a_no_bueno_after_reaction_time_is_a_si_bueno(tmp_path: Path) -> None:
    """A press later than the race window after a block answers it: the chain grows (Si Bueno)."""
    table, clock = make_table(tmp_path)
    with_deck(table, stacked(3))
    t = _window(table, clock)
    table.seat_event(SeatEvent(t + 0.5, 2, "DUEL", "press"))
    table.seat_event(SeatEvent(t + 0.5 + RACE_S + 0.3, 3, "DUEL", "press"))
    while clock() < t + 1.3:
        table.step(clock.advance(STEP_S))
    assert table.state.pending is not None and table.state.pending.chain == [2, 3]


def test_the_countdown_runs_down_and_the_card_lands_when_it_ends(tmp_path: Path) -> None:
    """The window screen counts the block window down; when it reaches 0 the card resolves into the meal."""
    table, clock = make_table(tmp_path)
    with_deck(table, stacked(3), window_ms=1000)
    _window(table, clock)
    first = table.view(clock())
    assert first.screen == "window" and 0.8 < first.countdown <= 1.0
    for _ in range(30):
        table.step(clock.advance(STEP_S))
    later = table.view(clock())
    assert later.screen == "window" and later.countdown < first.countdown - 0.4
    for _ in range(40):
        table.step(clock.advance(STEP_S))
    assert table.state.meals[0] == ["ingredient-3"] and table.view(clock()).screen == "table"


def test_a_block_press_without_a_no_bueno_is_refused_and_not_journaled(tmp_path: Path) -> None:
    """A seat with no No Bueno slamming the button writes nothing; the journal keeps only legal moves."""
    table, clock = make_table(tmp_path)
    with_deck(table, ["ingredient-1"] * 40)
    table.inject({"t": clock() + 0.1, "event": "place", "seat": 1, "card": "ingredient-1", "meal": 1})
    for _ in range(12):
        table.step(clock.advance(STEP_S))
    table.seat_event(SeatEvent(clock(), 2, "DUEL", "press"))
    for _ in range(12):
        table.step(clock.advance(STEP_S))
    assert table.rejected and "without a no-bueno" in table.rejected[-1]
    _, events = table.journal.load(table.live.game_id)
    assert [e["event"] for e in events] == ["place"]


def _fold(obj_events: tuple[dict[str, Any], list[dict[str, Any]]]) -> dict[str, Any]:
    setup, events = obj_events
    table, _ = Table.start(setup)
    for e in events:
        table.apply(table.check(e))
    table.finish()
    return table.summary()


@pytest.mark.parametrize("seed", [3, 11])
def test_a_whole_game_is_played_at_the_mock_pins_and_the_journal_replays_it(tmp_path: Path, seed: int) -> None:
    """Three seats, every move made by button taps on MockFactory pins: the game ends, no press is refused,
    every move the players meant is what the journal holds, and the journal replays to the same end."""
    clock = SteppedClock(50.0)
    rig = open_sim(clock, seats=3, devices=False)
    try:
        table = TacoTable(journal=Journal(str(tmp_path / "j.db")), clock=clock, seats=3,
                          seatmap={1: 1, 2: 2, 3: 3}, seed=seed, window_ms=1500)
        bots = PanelBots(table, lambda p, b, d: press(rig, p, b, d), {1: "hard", 2: "normal", 3: "easy"}, seed=seed,
                         pace=0.3)
        for _ in range(60 * 600):
            now = clock.advance(STEP_S)
            bots.step(now)
            table.step(now, rig.panels.source)
            if table.over:
                break
        assert table.over, "the game did not end"
        assert table.rejected == []
        setup, events = table.journal.load(table.live.game_id)
        moves = [{k: v for k, v in e.items() if k != "t"} for e in events if e["event"] != "block"]
        assert moves == [m for _, m in bots.planned]
        assert _fold((setup, events)) == table.summary()
        assert table.journal.unfinished() == []
    finally:
        rig.close()


def test_press_plans_reach_every_legal_move_through_the_browser(tmp_path: Path) -> None:
    """From states of seeded bot games, the taps ``press_plan`` gives for each legal move make exactly that move."""
    checked = 0
    snapshots: list[tvb.State] = []

    def keep(state: tvb.State, _ev: dict[str, Any]) -> None:
        if state.phase in ("move", "choose") and len(snapshots) < 60:
            import copy
            snapshots.append(copy.deepcopy(state))

    for seed in (1, 2):
        run_game(["normal", "easy", "hard"], seed, on_event=keep)
    for state in snapshots[::3]:
        seat = state.turn if state.phase == "move" else state.fight.winner  # type: ignore[union-attr]
        for start in (0, 2):
            for move in tvb.legal_moves(state)[::2]:
                browser = HandBrowser({seat: seat})
                browser.cursors[seat] = SeatCursor(seat, index=start)
                browser.sync(state)
                got: list[dict[str, Any]] = []
                t = 0.0
                for name in press_plan(state, browser.cursor(seat), move):
                    for action in ("press", "release"):
                        t += 0.1
                        got += browser.handle(SeatEvent(t, seat, WIRED[name], action), state)
                assert [{k: v for k, v in e.items() if k != "t"} for e in got] == [move]
                checked += 1
    assert checked > 50


def test_bots_fill_the_empty_seats_and_wait_for_the_person(tmp_path: Path) -> None:
    """Seat 1 is a person, seats 2 and 3 are bots: the bots move on their turns and the table waits on seat 1."""
    table, clock = make_table(tmp_path, humans=1, seed=5)
    assert sorted(table.bots) == [2, 3]
    with_deck(table, stacked(3))
    tap(table, clock(), 1, "PLAY")
    for e in tap(table, clock() + 0.1, 1, "PLAY"):
        table.inject(e)
    for _ in range(60 * 30):
        table.step(clock.advance(STEP_S))
    _, events = table.journal.load(table.live.game_id)
    movers = [e["seat"] for e in events if e["event"] in ("place", "play", "discard")]
    assert movers[:3] == [1, 2, 3]
    assert table.state.turn == 1 and movers.count(1) == 1  # seat 1 has not moved again: the table waits


def test_headless_demo_plays_a_whole_game_and_prints_standings() -> None:
    """`demo --game taco-vs-burrito` (run_demo): four bots at the mock pins play to the end; standings printed."""
    out = io.StringIO()
    args = argparse.Namespace(headless=True, seed=7, journal=None, size=None, speed=None, max_seconds=900)
    assert run_demo(args, out) == 0
    text = out.getvalue()
    assert "Standings" in text and "Winner: seat" in text
    assert "played its last card: the game is over" in text
    assert "presses refused" not in text


def test_a_bad_hands_mode_is_one_clear_error(tmp_path: Path) -> None:
    """hands='peak' (a typo) says which modes exist."""
    with pytest.raises(ValueError, match="hands: expected one of screens, peek, open, got 'peak'"):
        make_table(tmp_path, hands="peak")


def test_the_journal_holds_plain_json_moves(tmp_path: Path) -> None:
    """Moves are journaled as the issue 8 log contract's events (replayable by `burrito-table replay`)."""
    table, clock = make_table(tmp_path)
    with_deck(table, stacked(3), window_ms=100)
    table.inject({"t": clock() + 0.1, "event": "place", "seat": 1, "card": "ingredient-3", "meal": 1})
    for _ in range(30):
        table.step(clock.advance(STEP_S))
    _, events = table.journal.load(table.live.game_id)
    assert json.loads(json.dumps(events)) == [{"t": pytest.approx(events[0]["t"]), "event": "place", "seat": 1,
                                               "card": "ingredient-3", "meal": 1}]
