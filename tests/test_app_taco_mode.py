"""Taco vs Burrito in the shared table app (``game.games.taco_vs_burrito.mode``): the lobby, keyboard play against bots in
simulation mode, the No Bueno race in the mapper, the mode seam."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from game.games.taco_vs_burrito import rules as tvb
from game.games.taco_vs_burrito.bots import make_bot
from game.games.taco_vs_burrito.buttons import RACE_S, TacoMapper, press_plan
from game.games.taco_vs_burrito.mode import GAME as MODE
from game.journal import Journal
from game.log import Table
from game.registry import GAMES, lobby_choices
from game.table.clock import SteppedClock
from game.table.loop import TableApp
from game.table.mode import GameMode, Mapper
from game.table.runner import STEP_S
from game.table.screens import draw
from game.table.sim import open_sim
from hardware.events import SeatEvent
from hardware.keyboard import default_keymap

KEYS = {v: k for k, v in default_keymap(4).items()}  # (panel, wired button) -> key
WIRED = {"LEFT": "SET", "RIGHT": "BRAWL", "PLAY": "WAR", "NO BUENO": "DUEL"}


def test_taco_vs_burrito_is_registered_through_the_modes_seam() -> None:
    """The registry finds ``game.games.taco_vs_burrito.mode.MODE`` under the rules' name, and it meets the protocols."""
    assert GAMES[tvb.name] is MODE
    assert isinstance(MODE, GameMode) and isinstance(MODE.mapper([1, 2]), Mapper)
    assert [label for (game, _), label in lobby_choices() if game == tvb.name][0] == "Taco vs Burrito: open meals"


@pytest.mark.parametrize("variant", range(len(MODE.variants)))
def test_every_lobby_choice_is_a_setup_the_rules_accept(variant: int) -> None:
    """Each TvB lobby choice journals a setup line the rules take, with the joined seat count."""
    table, _ = Table.start(MODE.setup(3, variant, seed=9))
    assert table.setup.seats == 3
    assert table.setup.options["variant"] in tvb.VARIANTS


def test_mapper_race_the_earliest_edge_wins_whatever_the_arrival_order() -> None:
    """Presses are judged only once RACE_S has passed after them: seat 3's later edge, handled first, loses."""
    m = TacoMapper([1, 2, 3])
    state = Table.start(MODE.setup(3, 0, seed=1))[0].state
    assert m.handle(SeatEvent(10.04, 3, "DUEL", "press"), state) == []
    assert m.handle(SeatEvent(10.00, 2, "DUEL", "press"), state) == []
    assert m.blocks(10.05) and m.oldest_pending() == 10.00
    assert m.due_sets(10.1) == []  # not judged yet: another press may still come in
    assert m.due_sets(10.04 + RACE_S) == [{"t": 10.00, "event": "block", "seat": 2}]
    assert m.race_note is not None and "seat 3 was 40 ms late: seat 2 won" in m.race_note[1]


def test_mapper_a_press_after_reaction_time_is_its_own_block() -> None:
    """A NO BUENO more than RACE_S after the winner answers it (a Si Bueno): both are written."""
    m = TacoMapper([1, 2, 3])
    state = Table.start(MODE.setup(3, 0, seed=1))[0].state
    m.handle(SeatEvent(10.0, 2, "DUEL", "press"), state)
    m.handle(SeatEvent(10.0 + RACE_S + 0.2, 3, "DUEL", "press"), state)
    out = m.due_sets(12.0)
    assert [(e["seat"], e["event"]) for e in out] == [(2, "block"), (3, "block")]


def _tap(rig: Any, app: TableApp, clock: SteppedClock, panel: int, button: str, hold_s: float = 0.08) -> None:
    kb = rig.panels.keyboard
    kb.key(KEYS[(panel, button)], True, clock())
    for _ in range(max(1, round(hold_s / STEP_S))):
        app.step(clock.advance(STEP_S))
    kb.key(KEYS[(panel, button)], False, clock())
    for _ in range(6):
        app.step(clock.advance(STEP_S))


def test_one_person_plays_a_whole_game_by_keyboard_against_bots(tmp_path: Path) -> None:
    """`play --sim`: keys press the mock pins; seat 1 joins, joins panels 2 and 3 for the bots, picks "vs bots",
    starts with DUEL, and plays every move with LEFT/RIGHT/PLAY keys; the bots play seats 2 and 3; the game ends,
    nothing is refused, and the journal replays to the same end."""
    clock = SteppedClock(20.0)
    rig = open_sim(clock, seats=4, devices=False)
    journal = Journal(str(tmp_path / "j.db"))
    app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], mode=tvb.name)
    app.lobby_seed = 4
    app.open_lobby()
    surface = pygame.Surface((640, 360))
    try:
        for panel in (1, 2, 3):
            _tap(rig, app, clock, panel, "SET")
        want = [i for i, (key, _) in enumerate(lobby_choices()) if key == (tvb.name, 4)][0]
        for _ in range(want):
            _tap(rig, app, clock, 1, "WAR")
        draw(surface, app.view(clock()))
        _tap(rig, app, clock, 1, "DUEL")
        assert app.live is not None and app.state.seats == 3 and sorted(app.mapper.bots) == [2, 3]
        me = make_bot("hard", 1, 5)
        frames = 0
        while not app.over and clock() < 20.0 + 900:
            app.step(clock.advance(STEP_S))
            frames += 1
            if frames % 20 == 0:
                draw(surface, app.view(clock()))
            st = app.state
            mine = (st.phase == "move" and st.turn == 1) or (st.phase == "choose" and st.fight.winner == 1)
            if mine and not app.buffer and not app.mapper.pending:
                plan = press_plan(st, app.mapper.browser.cursor(1), me.move(st))
                for name in plan:
                    _tap(rig, app, clock, 1, WIRED[name])
        assert app.over, "the game did not end"
        assert app.error is None and app.rejected == []
        setup, events = journal.load(app.live.game_id)
        assert {e["seat"] for e in events if e["event"] in ("place", "play", "discard")} == {1, 2, 3}
        table, _ = Table.start(setup)
        for e in events:
            table.apply(table.check(e))
        assert table.summary() == app.live.table.summary()
        draw(surface, app.view(clock()))
        assert app.view(clock()).screen == "taco_over"
    finally:
        rig.close()
        journal.close()


def test_a_bot_seat_ignores_its_panel(tmp_path: Path) -> None:
    """In "vs bots", a joined bot seat's buttons do not move its cards (the bot plays it)."""
    m = MODE.mapper([1, 2, 3])
    MODE.setup(3, 4)
    state = Table.start(MODE.setup(3, 4, seed=2))[0].state
    m.sync(state)
    assert sorted(m.bots) == [2, 3]
    assert 2 not in m.browser.seatmap.values() and 3 not in m.browser.seatmap.values()
    assert m.browser.seatmap == {1: 1}
    MODE.setup(3, 0)  # leave the shared mode object as the lobby would: no bots


def test_mapper_never_writes_a_judged_press_before_an_earlier_buffered_event() -> None:
    """A judged block at 10.0 is held back while the loop writes a buffered event stamped 9.5 (time order)."""
    m = TacoMapper([1, 2, 3])
    state = Table.start(MODE.setup(3, 0, seed=1))[0].state
    m.handle(SeatEvent(10.0, 2, "DUEL", "press"), state)
    assert m.due_sets(11.0, force_before=9.5) == []
    assert m.oldest_pending() == 10.0  # the rules' clock still waits for it
    assert m.due_sets(11.0) == [{"t": 10.0, "event": "block", "seat": 2}]
    assert m.oldest_pending() is None


def test_a_resumed_game_keeps_the_lobby_choices_the_setup_line_does_not_carry(tmp_path: Path) -> None:
    """"vs bots" and "open hands" live in the app, not in the rules' setup: the journal keeps them for a resume."""
    clock = SteppedClock(20.0)
    rig = open_sim(clock, seats=3, devices=False)
    journal = Journal(str(tmp_path / "j.db"))
    try:
        app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3], mode=tvb.name)
        app.start(MODE.setup(3, 4, seed=2))  # "vs bots (first seat plays)"
        app.step(clock.advance(STEP_S))
        assert sorted(app.mapper.bots) == [2, 3]
        game_id = app.live.game_id
        MODE.setup(3, 3)  # the lobby moves on ("learning: open hands", no bots) before the table restarts
        again = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3], mode=tvb.name)
        again.resume(game_id)
        again.step(clock.advance(STEP_S))
        assert MODE.bots_play_others and MODE.hands == "peek" and sorted(again.mapper.bots) == [2, 3]
    finally:
        MODE.setup(3, 0)  # leave the shared mode object as the lobby would: no bots
        rig.close()
        journal.close()
