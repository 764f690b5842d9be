"""Game seats, panels and devices are one mapping: the referee, the lights and the screens agree on who sits where.

Each test drives the real input path: gpiozero MockFactory pins on the six-panel pin map, virtual badges and burritos
over a pty to the device host, the referee, the rules and the journal.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from game.journal import Journal
from game.table.clock import SteppedClock
from game.table.loop import TableApp
from game.table.seating import Seating
from game.table.sim import SimRig, open_sim, press
from hardware.events import SeatEvent
from hardware.pinmap import load_pinmap
from tests.test_app_loop import run


def six_panel_rig(clock: SteppedClock) -> SimRig:
    pinmap = load_pinmap(None, env={})
    assert pinmap.seats == 6
    return open_sim(clock, pinmap)


def edge(rig: SimRig, panel: int, button: str, down: bool) -> None:
    """Drive the pin, then give the expander's worker thread a moment of real time to read the chip."""
    press(rig, panel, button, down)
    time.sleep(0.02)


def tap(rig: SimRig, clock: SteppedClock, app: TableApp, panel: int, button: str, hold: float = 0.1) -> None:
    edge(rig, panel, button, True)
    run(app, clock, hold, speed=0)
    edge(rig, panel, button, False)
    run(app, clock, 0.1, speed=0)


def lobby_start(rig: SimRig, clock: SteppedClock, app: TableApp, panels: list[int], war_taps: int = 0) -> None:
    app.open_lobby()
    for p in panels:
        tap(rig, clock, app, p, "SET")
    for _ in range(war_taps):
        tap(rig, clock, app, panels[0], "WAR")
    tap(rig, clock, app, panels[0], "DUEL")
    assert app.live is not None, "DUEL did not start the game"


def test_seating_maps_game_seats_to_panels_and_ignores_badges_of_panels_not_in_the_game() -> None:
    """Badges are paired to panels; the referee needs game seats; a badge on a panel that did not join is ignored."""
    s = Seating((1, 2, 4, 5))
    assert [s.seat_of(p) for p in (1, 2, 3, 4, 5, 6)] == [1, 2, None, 3, 4, None]
    assert [s.panel_of(g) for g in (1, 2, 3, 4, 5)] == [1, 2, 4, 5, None]
    game, ignored = s.badges({f"badge-{p}": p for p in range(1, 7)})
    assert game == {"badge-1": 1, "badge-2": 2, "badge-4": 3, "badge-5": 4}
    assert ignored == {"badge-3": 3, "badge-6": 6}
    ev = SeatEvent(1.0, 4, "SET", "press")
    assert s.to_game(ev) == SeatEvent(1.0, 3, "SET", "press")
    assert s.to_game(SeatEvent(1.0, 6, "SET", "press")) is None


@pytest.mark.parametrize("game_taps", [0, 2], ids=["throw-throw-burrito", "zombie-burrito"])
def test_four_of_six_panels_start_a_game_with_the_referee_and_no_failsafe(tmp_path: Path, game_taps: int) -> None:
    """Fewer than six players: joining panels 1-4 and pressing DUEL starts the game (it crashed: badge-5 on seat 5)."""
    clock = SteppedClock()
    rig = six_panel_rig(clock)
    try:
        with Journal(str(tmp_path / "t.db")) as journal:
            app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=list(range(1, 7)),
                           devices=rig.host, device_map=rig.device_map)
            lobby_start(rig, clock, app, [1, 2, 3, 4], war_taps=game_taps)
            run(app, clock, 0.5, speed=0)
            assert app.error is None, app.error
            assert app.referee is not None and app.referee.seats == 4
            assert app.ignored_badges == {"badge-5": 5, "badge-6": 6}
    finally:
        rig.close()


def test_non_neighbouring_panels_credit_the_hit_to_the_player_whose_badge_was_hit(tmp_path: Path) -> None:
    """Panels 1, 2, 4, 5 join: panel 4's player is game seat 3, and a hit on panel 4's badge bruises game seat 3."""
    clock = SteppedClock()
    rig = six_panel_rig(clock)
    try:
        with Journal(str(tmp_path / "t.db")) as journal:
            app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=list(range(1, 7)),
                           devices=rig.host, device_map=rig.device_map)
            lobby_start(rig, clock, app, [1, 2, 4, 5])
            assert app.seatmap == [1, 2, 4, 5]
            run(app, clock, 6.0, speed=0)  # the opening countdown
            tap(rig, clock, app, 4, "DUEL")  # panel 4 = game seat 3 declares a Duel...
            run(app, clock, 0.8, speed=0)
            tap(rig, clock, app, 4, "SET")  # ...picks itself
            tap(rig, clock, app, 4, "WAR")  # cursor to game seat 4 (panel 5)
            tap(rig, clock, app, 4, "SET")
            run(app, clock, 1.0, speed=0)
            b = app.state.battle
            assert app.error is None, app.error
            assert b is not None and b.fighters == {3, 4}
            t = clock() + 0.2
            for kind, dt in (("pickup", 0.0), ("launch", 0.3)):
                rig.virtual.emit("burrito-1", kind, at=t + dt)
            rig.virtual.emit("burrito-1", "impact", at=t + 0.7, peak_g=3.0)
            rig.virtual.emit("badge-4", "impact", at=t + 0.702, peak_g=2.5)  # the badge paired at panel 4
            run(app, clock, 4.0, until=lambda: app.state.battles[-1].loser is not None, speed=4)
            assert app.state.battles[-1].loser == 3
            assert app.state.rounds[0].bruises == [0, 0, 1, 0]
    finally:
        rig.close()


def test_a_set_taken_back_inside_the_challenge_window_does_not_freeze_the_journal(tmp_path: Path) -> None:
    """A SET hold 0.3 s after a call is a take-back, not a challenge; later events still reach the journal."""
    clock = SteppedClock()
    rig = open_sim(clock, seats=4)
    try:
        with Journal(str(tmp_path / "t.db")) as journal:
            app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4],
                           devices=rig.host, device_map=rig.device_map)
            app.start({"event": "setup", "game": "throw-throw-burrito", "seats": 4})
            run(app, clock, 6.0, speed=0)
            tap(rig, clock, app, 1, "DUEL")  # a Duel; two picks: seats 1 and 2
            run(app, clock, 0.8, speed=0)
            tap(rig, clock, app, 1, "SET")
            tap(rig, clock, app, 1, "WAR")
            tap(rig, clock, app, 1, "SET")
            run(app, clock, 1.0, speed=0)
            assert app.state.battle.fighters == {1, 2}
            t = clock() + 0.1
            rig.virtual.emit("burrito-1", "pickup", at=t)
            rig.virtual.emit("burrito-1", "launch", at=t + 0.3)
            rig.virtual.emit("burrito-1", "impact", at=t + 0.7, peak_g=3.0)
            rig.virtual.emit("badge-2", "impact", at=t + 0.702, peak_g=2.5)
            run(app, clock, 4.0, until=lambda: bool(app.referee._last_call), speed=4)
            assert app.state.battles[-1].loser == 2
            tap(rig, clock, app, 4, "SET")  # seat 4 lays a set 0.2 s after the call...
            tap(rig, clock, app, 4, "SET", hold=1.0)  # ...and at once holds SET to take it back
            assert not any(p.seat == 4 for p in app.mapper.pending), "the taken-back set is still pending"
            assert app.question is None, "a take-back was taken for a challenge"
            before = len(app.live.table.events)
            tap(rig, clock, app, 3, "SET")  # later events still get written
            run(app, clock, 2.5, speed=0)
            tap(rig, clock, app, 3, "BRAWL")
            run(app, clock, 1.0, speed=0)
            kinds = [e["event"] for e in app.live.table.events[before:]]
            assert kinds[:2] == ["set", "declare"], kinds
            assert app.state.rounds[0].sets[3] == 0
    finally:
        rig.close()


def test_the_menu_closes_and_stays_closed_after_back_or_restart(tmp_path: Path) -> None:
    """The chord's releases while the menu is open reach the chord tracker, so the menu does not reopen."""
    clock = SteppedClock()
    rig = open_sim(clock, devices=False)
    try:
        with Journal(str(tmp_path / "t.db")) as journal:
            app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], use_referee=False)
            app.start({"event": "setup", "game": "throw-throw-burrito", "seats": 4})
            for choice_taps, expect in ((0, []), (1, ["restart"])):
                edge(rig, 2, "BRAWL", True)
                edge(rig, 2, "WAR", True)
                run(app, clock, 5.3, speed=0)
                assert app.menu_open
                edge(rig, 2, "BRAWL", False)
                edge(rig, 2, "WAR", False)
                run(app, clock, 0.2, speed=0)
                for _ in range(choice_taps):
                    tap(rig, clock, app, 2, "WAR")
                tap(rig, clock, app, 2, "SET" if choice_taps else "DUEL")
                assert not app.menu_open and app.requests == expect
                if expect:
                    app.abandon()
                    app.requests.clear()
                for panel in (1, 2, 3):  # later presses and releases on any panel never reopen it
                    tap(rig, clock, app, panel, "SET")
                run(app, clock, 6.0, speed=0)
                assert not app.menu_open, "the menu reopened by itself"
                if expect:
                    app.start({"event": "setup", "game": "throw-throw-burrito", "seats": 4})
    finally:
        rig.close()


def test_a_set_hold_with_nothing_to_take_back_challenges_the_call_and_counts_no_set(tmp_path: Path) -> None:
    """R11: a SET hold within 3 s of a call challenges it; the press that began it is not a set, and its release
    still reaches the button mapper (nothing waits for it)."""
    clock = SteppedClock()
    rig = open_sim(clock, seats=4)
    try:
        with Journal(str(tmp_path / "t.db")) as journal:
            app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4],
                           devices=rig.host, device_map=rig.device_map)
            app.start({"event": "setup", "game": "throw-throw-burrito", "seats": 4})
            run(app, clock, 6.0, speed=0)
            tap(rig, clock, app, 1, "DUEL")
            run(app, clock, 0.8, speed=0)
            for b in ("SET", "WAR", "SET"):
                tap(rig, clock, app, 1, b)
            run(app, clock, 1.0, speed=0)
            t = clock() + 0.1
            rig.virtual.emit("burrito-1", "pickup", at=t)
            rig.virtual.emit("burrito-1", "launch", at=t + 0.3)
            rig.virtual.emit("burrito-1", "impact", at=t + 0.7, peak_g=3.0)
            rig.virtual.emit("badge-2", "impact", at=t + 0.702, peak_g=2.5)
            run(app, clock, 4.0, until=lambda: bool(app.referee._last_call), speed=4)
            tap(rig, clock, app, 2, "SET", hold=1.0)
            assert app.question is not None and "challenges" in app.question.text
            assert not app.mapper.pending
            run(app, clock, 2.0, speed=0)
            assert app.state.rounds[0].sets == [0, 0, 0, 0]
    finally:
        rig.close()


def test_the_lights_of_game_seats_are_the_joined_panels(tmp_path: Path) -> None:
    """Panels 2 and 4 play: a cue for game seat 2 lights panel 4, and panel 2's light is game seat 1's."""
    clock = SteppedClock()
    rig = open_sim(clock, devices=False)
    try:
        with Journal(str(tmp_path / "t.db")) as journal:
            app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[2, 4], use_referee=False)
            lit: list[tuple[int, str]] = []
            rig.panels.lights.cue = lambda panel, cue: lit.append((panel, cue))
            app._light((2, 1, 3), "answer")
            assert lit == [(4, "answer"), (2, "answer")]
    finally:
        rig.close()


def test_a_set_released_while_the_menu_is_open_is_laid_and_blocks_nothing(tmp_path: Path) -> None:
    """The menu opens while panel 1's SET is down: its release goes to the menu, yet the set is laid and later
    events still reach the journal (a set waiting for a release it never sees would hold back every event)."""
    clock = SteppedClock()
    rig = open_sim(clock, devices=False)
    try:
        with Journal(str(tmp_path / "t.db")) as journal:
            app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], use_referee=False)
            app.start({"event": "setup", "game": "throw-throw-burrito", "seats": 4})
            run(app, clock, 1.0, speed=0)
            edge(rig, 2, "BRAWL", True)
            edge(rig, 2, "WAR", True)
            run(app, clock, 4.8, speed=0)
            edge(rig, 1, "SET", True)
            run(app, clock, 0.3, until=lambda: app.menu_open, speed=0)
            assert app.menu_open
            edge(rig, 1, "SET", False)
            edge(rig, 2, "BRAWL", False)
            edge(rig, 2, "WAR", False)
            run(app, clock, 0.2, speed=0)
            tap(rig, clock, app, 2, "DUEL")  # back to the game
            tap(rig, clock, app, 3, "BRAWL")
            run(app, clock, 2.0, speed=0)
            kinds = [e["event"] for e in app.live.table.events]  # the chord's first button alone called a Brawl
            assert kinds[-2:] == ["set", "declare"] and kinds.count("set") == 1
            assert not app.mapper.pending
    finally:
        rig.close()
