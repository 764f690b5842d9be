"""Taco vs Burrito at the table, through the shared app (``TableApp`` + ``game.games.taco_vs_burrito.mode``): seat buttons,
the No Bueno race, private hands, bots, and whole games at the mock pins."""

from __future__ import annotations

import copy
import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from game.cli import build_parser
from game.games.taco_vs_burrito import rules as tvb
from game.games.taco_vs_burrito.bots import run_game
from game.games.taco_vs_burrito.buttons import (
    RACE_S,
    HandBrowser,
    PanelBots,
    SeatCursor,
    options_for,
    press_plan,
    seat_screen_view,
)
from game.games.taco_vs_burrito.mode import GAME as MODE
from game.journal import Journal
from game.log import Table
from game.table.clock import SteppedClock
from game.table.loop import TableApp
from game.table.runner import STEP_S, run_demo
from game.table.sim import open_sim, press
from hardware.events import SeatEvent

WIRED = {"LEFT": "SET", "RIGHT": "BRAWL", "PLAY": "WAR", "NO BUENO": "DUEL"}
MakeApp = Callable[..., tuple[TableApp, SteppedClock, Any]]


def stacked(seats: int, extra: list[str] | None = None) -> list[str]:
    """A deck whose deal gives seat 1 [ingredient-3, no-bueno, crafty-crow, tummy-ache-2, hot-sauce-boss]."""
    hands = {1: ["ingredient-3", "no-bueno", "crafty-crow", "tummy-ache-2", "hot-sauce-boss"]}
    for s in range(2, seats + 1):
        hands[s] = ["no-bueno", "ingredient-1", "ingredient-2", "no-bueno", "food-fight"]
    deck = [hands[s][r] for r in range(5) for s in range(1, seats + 1)]
    return deck + (extra or ["ingredient-1"] * 20)


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[MakeApp]:
    """A TvB game in the shared app on MockFactory pins; ``deck`` stacks it. Closes everything afterwards."""
    opened: list[tuple[Any, Journal]] = []

    def make(seats: int = 3, *, deck: list[str] | None = None, variant: str = "open", window_ms: float = 3000.0,
             hands: str = "peek", bots: bool = False, seed: int = 0) -> tuple[TableApp, SteppedClock, Any]:
        clock = SteppedClock(100.0)
        rig = open_sim(clock, seats=4, devices=False)
        journal = Journal(str(tmp_path / f"j{len(opened)}.db"))
        opened.append((rig, journal))
        app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=list(range(1, seats + 1)),
                       mode=tvb.name)
        MODE.hands, MODE.bots_play_others = hands, bots
        options: dict[str, Any] = {"seed": seed, "variant": variant, "no_bueno_window_ms": window_ms}
        if deck is not None:
            options["deck"] = deck
        app.start({"event": "setup", "game": tvb.name, "seats": seats, "options": options})
        return app, clock, rig

    yield make
    for rig, journal in opened:
        rig.close()
        journal.close()
    MODE.hands, MODE.bots_play_others = "peek", False


def run(app: TableApp, clock: SteppedClock, seconds: float) -> None:
    end = clock() + seconds
    while clock() < end:
        app.step(clock.advance(STEP_S))


def tap(app: TableApp, t: float, panel: int, name: str, hold: float = 0.05) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for action, at in (("press", t), ("release", t + hold)):
        out += app.mapper.handle(SeatEvent(at, panel, WIRED[name], action), app.state)
    return out


def test_left_right_browse_the_hand_and_play_picks_then_confirms_the_meal(make_app: MakeApp) -> None:
    """RIGHT moves the hand cursor, a PLAY tap picks the card, RIGHT chooses the option, PLAY confirms: one place."""
    app, _, _ = make_app(deck=stacked(3))
    cursor = app.mapper.browser.cursor(1)
    assert tap(app, 1.0, 1, "RIGHT") == [] and cursor.index == 1
    assert tap(app, 1.1, 1, "LEFT") == [] and cursor.index == 0
    assert tap(app, 1.2, 1, "PLAY") == [] and cursor.stage == "option"  # picks ingredient-3
    labels = [o.label for o in options_for(app.state, 1, "ingredient-3")]
    assert labels[0] == "my meal" and labels[-2:] == ["discard (trash)", "< back"]
    tap(app, 1.3, 1, "RIGHT")  # seat 2's meal
    assert tap(app, 1.4, 1, "PLAY") == [{"t": 1.45, "event": "place", "seat": 1, "card": "ingredient-3", "meal": 2}]


def test_back_option_returns_to_the_hand_without_a_move(make_app: MakeApp) -> None:
    """The last option, '< back', un-picks the card: no event, the cursor is on the hand again."""
    app, _, _ = make_app(deck=stacked(3))
    tap(app, 1.0, 1, "PLAY")
    tap(app, 1.1, 1, "LEFT")  # wraps to '< back'
    assert tap(app, 1.2, 1, "PLAY") == []
    assert app.mapper.browser.cursor(1).stage == "hand"


def test_play_out_of_turn_makes_no_move_and_says_whose_turn(make_app: MakeApp) -> None:
    """Seat 2 tapping PLAY on seat 1's turn picks nothing and is told it is seat 1's turn."""
    app, _, _ = make_app(deck=stacked(3))
    assert tap(app, 1.0, 2, "PLAY") == []
    assert app.mapper.browser.cursor(2).stage == "hand"
    assert app.mapper.notes[-1] == (1.05, "seat 2: seat 1's turn")


def test_holding_play_is_a_peek_on_the_shared_screen_and_picks_nothing(make_app: MakeApp) -> None:
    """Peek mode: the shared screen shows seat 1's hand only while seat 1 holds PLAY; the hold picks no card."""
    app, clock, _ = make_app(deck=stacked(3))
    m = app.mapper
    assert app.view(clock()).extra["taco"].hands == []
    m.handle(SeatEvent(1.0, 1, "WAR", "press"), app.state)
    m.handle(SeatEvent(1.8, 1, "WAR", "hold"), app.state)
    shown = app.view(clock()).extra["taco"].hands
    assert [h.seat for h in shown] == [1] and shown[0].cards == app.state.hands[0]
    assert m.handle(SeatEvent(3.0, 1, "WAR", "release"), app.state) == []
    assert m.browser.cursor(1).stage == "hand" and app.view(clock()).extra["taco"].hands == []


def test_open_hands_mode_shows_every_hand_for_learning(make_app: MakeApp) -> None:
    """Open hands: every seat's hand is on the shared screen, no peek needed."""
    app, clock, _ = make_app(hands="open")
    v = app.view(clock()).extra["taco"]
    assert [h.seat for h in v.hands] == [1, 2, 3] and [h.cards for h in v.hands] == app.state.hands


def test_secret_variant_shows_meals_face_down_on_the_shared_screen(make_app: MakeApp) -> None:
    """Secret: once a card is in a meal, the shared screen shows a face-down card and no score; the owner's own
    seat view shows its score."""
    app, clock, _ = make_app(deck=stacked(3), variant="secret", window_ms=100)
    app.inject({"t": clock() + 0.1, "event": "place", "seat": 1, "card": "ingredient-3", "meal": 1})
    run(app, clock, 0.6)
    seat1 = app.view(clock()).extra["taco"].seats[0]
    assert seat1.meal == [None] and seat1.score is None
    assert app.state.meals[0] == ["ingredient-3"]  # the referee's state has the card
    assert seat_screen_view(app.state, app.mapper.browser, 1, 10.0).score == 3
    assert seat_screen_view(app.state, app.mapper.browser, 2, 10.0).score == 0  # seat 2 sees its own empty meal


def _window(app: TableApp, clock: SteppedClock) -> float:
    """Seat 1 places a card; returns the host time it was stamped. Steps until it waits in the block window."""
    t = clock() + 0.1
    app.inject({"t": t, "event": "place", "seat": 1, "card": "ingredient-3", "meal": 1})
    while app.state.phase != "window":
        app.step(clock.advance(STEP_S))
    return t


def test_no_bueno_race_is_won_by_the_earliest_edge_not_the_first_polled(make_app: MakeApp) -> None:
    """Two NO BUENO presses 40 ms apart arrive latest-first: the earlier edge wins, the other is dropped as late."""
    app, clock, _ = make_app(deck=stacked(3))
    t = _window(app, clock)
    app.seat_event(SeatEvent(t + 0.54, 3, "DUEL", "press"))  # handled first
    app.seat_event(SeatEvent(t + 0.50, 2, "DUEL", "press"))
    run(app, clock, 1.0)
    assert app.state.pending is not None and app.state.pending.chain == [2]
    assert app.state.hands[2].count("no-bueno") == 2  # seat 3 kept both of its No Buenos
    assert "seat 3 was 40 ms late: seat 2 won the No Bueno race" in app.view(clock()).extra["taco"].race


def test_a_no_bueno_after_reaction_time_is_a_si_bueno(make_app: MakeApp) -> None:
    """A press later than the race window after a block answers it: the chain grows (Si Bueno)."""
    app, clock, _ = make_app(deck=stacked(3))
    t = _window(app, clock)
    app.seat_event(SeatEvent(t + 0.5, 2, "DUEL", "press"))
    app.seat_event(SeatEvent(t + 0.5 + RACE_S + 0.3, 3, "DUEL", "press"))
    run(app, clock, 1.5)
    assert app.state.pending is not None and app.state.pending.chain == [2, 3]


def test_the_countdown_runs_down_and_the_card_lands_when_it_ends(make_app: MakeApp) -> None:
    """The window screen counts the block window down; when it reaches 0 the card resolves into the meal."""
    app, clock, _ = make_app(deck=stacked(3), window_ms=1000)
    _window(app, clock)
    first = app.view(clock())
    assert first.screen == "taco_window" and 0.8 < first.extra["taco"].countdown <= 1.0
    run(app, clock, 0.5)
    later = app.view(clock())
    assert later.screen == "taco_window" and later.extra["taco"].countdown < first.extra["taco"].countdown - 0.4
    run(app, clock, 0.7)
    assert app.state.meals[0] == ["ingredient-3"] and app.view(clock()).screen == "taco_table"


def test_a_block_press_without_a_no_bueno_is_refused_and_not_journaled(make_app: MakeApp) -> None:
    """A seat with no No Bueno slamming the button writes nothing; the journal keeps only legal moves."""
    app, clock, _ = make_app(deck=["ingredient-1"] * 40)
    app.inject({"t": clock() + 0.1, "event": "place", "seat": 1, "card": "ingredient-1", "meal": 1})
    run(app, clock, 0.3)
    app.seat_event(SeatEvent(clock(), 2, "DUEL", "press"))
    run(app, clock, 0.5)
    assert app.rejected and "without a no-bueno" in app.rejected[-1]
    _, events = app.journal.load(app.live.game_id)  # type: ignore[union-attr]
    assert [e["event"] for e in events] == ["place"]


@pytest.mark.parametrize("seed", [3, 11])
def test_a_whole_game_is_played_at_the_mock_pins_and_the_journal_replays_it(make_app: MakeApp, seed: int) -> None:
    """Three seats, every move made by button taps on MockFactory pins: the game ends, no press is refused,
    every move the players meant is what the journal holds, and the journal replays to the same end."""
    app, clock, rig = make_app(seed=seed, window_ms=1500)
    bots = PanelBots(app, lambda p, b, d: press(rig, p, b, d), {1: "hard", 2: "normal", 3: "easy"}, seed=seed,
                     pace=0.3)
    while not app.over and clock() < 100.0 + 900:
        now = clock.advance(STEP_S)
        bots.step(now)
        app.step(now)
    assert app.over, "the game did not end"
    assert app.error is None and app.rejected == []
    setup, events = app.journal.load(app.live.game_id)  # type: ignore[union-attr]
    moves = [{k: v for k, v in e.items() if k != "t"} for e in events if e["event"] != "block"]
    assert moves == [m for _, m in bots.planned]
    table, _ = Table.start(setup)
    for e in events:
        table.apply(table.check(e))
    assert table.summary() == app.live.table.summary()  # type: ignore[union-attr]
    assert app.journal.unfinished() == []


def test_press_plans_reach_every_legal_move_through_the_browser() -> None:
    """From states of seeded bot games, the taps ``press_plan`` gives for each legal move make exactly that move."""
    checked = 0
    snapshots: list[tvb.State] = []

    def keep(state: tvb.State, _ev: dict[str, Any]) -> None:
        if state.phase in ("move", "choose") and len(snapshots) < 60:
            snapshots.append(copy.deepcopy(state))

    for seed in (1, 2):
        run_game(["normal", "easy", "hard"], seed, on_event=keep)
    for state in snapshots[::3]:
        seat = state.turn if state.phase == "move" else state.fight.winner  # type: ignore[union-attr]
        assert seat is not None
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


def test_bots_play_the_other_seats_and_wait_for_the_person(make_app: MakeApp) -> None:
    """"vs bots": seat 1 is a person, seats 2 and 3 are bots; they move on their turns and the table waits on 1."""
    app, clock, _ = make_app(deck=stacked(3), bots=True, seed=5)
    run(app, clock, 0.1)
    assert sorted(app.mapper.bots) == [2, 3]
    for e in tap(app, clock(), 1, "PLAY") + tap(app, clock() + 0.1, 1, "PLAY"):
        app.inject(e)
    run(app, clock, 30.0)
    _, events = app.journal.load(app.live.game_id)  # type: ignore[union-attr]
    movers = [e["seat"] for e in events if e["event"] in ("place", "play", "discard")]
    assert movers[:3] == [1, 2, 3]
    assert app.state.turn == 1 and movers.count(1) == 1  # seat 1 has not moved again: the table waits


def test_headless_demo_plays_a_whole_game_at_the_buttons_and_prints_standings() -> None:
    """`burrito-table demo --game taco-vs-burrito --headless`: four bots at the mock pins play to the end."""
    args = build_parser().parse_args(["demo", "--game", "taco-vs-burrito", "--headless", "--speed", "0", "--mute"])
    out = io.StringIO()
    assert run_demo(args, out) == 0
    text = out.getvalue()
    assert "Taco vs Burrito: four bots" in text
    assert "played its last card: the game is over" in text
    assert "Standings" in text and "Winner: seat" in text


def test_moves_are_journaled_as_the_log_contract_s_events(make_app: MakeApp) -> None:
    """Moves are journaled as the rules' log events (replayable by `burrito-table replay`), on table time."""
    app, clock, _ = make_app(deck=stacked(3), window_ms=100)
    app.inject({"t": clock() + 0.1, "event": "place", "seat": 1, "card": "ingredient-3", "meal": 1})
    run(app, clock, 0.5)
    _, events = app.journal.load(app.live.game_id)  # type: ignore[union-attr]
    assert events == [{"t": pytest.approx(0.1, abs=0.02), "event": "place", "seat": 1, "card": "ingredient-3",
                       "meal": 1}]
