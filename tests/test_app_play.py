"""``burrito-table play``: the lobby, keyboard seats, the sim controls, the menu chord, the command itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from game.journal import Journal
from game.table.clock import SteppedClock
from game.table.loop import TableApp
from game.table.runner import SimControls
from game.table.sim import open_sim, press
from tests.test_app_loop import run

ROOT = Path(__file__).resolve().parents[1]


def tap(rig, clock, app, panel: int, button: str, hold: float = 0.1) -> None:
    press(rig, panel, button, True)
    run(app, clock, hold, speed=0)
    press(rig, panel, button, False)
    run(app, clock, 0.1, speed=0)


def test_lobby_join_start_then_keyboard_seats_and_sim_throws_play_a_battle(tmp_path: Path) -> None:
    """Panels 2 and 4 join (a two-seat game), DUEL starts; keys press seat buttons; F9 throws a virtual hit."""
    clock = SteppedClock()
    rig = open_sim(clock, devices=False)
    try:
        with Journal(str(tmp_path / "t.db")) as journal:
            app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], use_referee=False)
            app.open_lobby()
            tap(rig, clock, app, 2, "SET")
            tap(rig, clock, app, 4, "WAR")
            assert app.view(clock()).screen == "lobby" and app.lobby.joined == {2, 4}
            tap(rig, clock, app, 4, "DUEL")
            assert app.live is not None and app.seatmap == [2, 4] and app.live.table.setup.seats == 2
            kb = rig.panels.keyboard
            kb.key("2", True)  # panel 2's SET key -> game seat 1
            run(app, clock, 0.1, speed=0)
            kb.key("2", False)
            run(app, clock, 2.0, speed=0)
            assert app.state.rounds[0].sets[0] == 1
            kb.key("v", True)  # panel 4's DUEL key -> game seat 2 declares a Duel (two players: no pick)
            run(app, clock, 0.1, speed=0)
            kb.key("v", False)
            run(app, clock, 1.0, speed=0)
            assert app.state.battle is not None and app.state.battle.fighters == {1, 2}
            controls = SimControls(app, rig, clock)
            controls.key("right")  # thrower seat 2
            controls.key("down")  # target seat 1
            controls.key("f9")
            run(app, clock, 2.0, speed=0)
            assert app.state.battles[-1].loser == 1 and app.state.rounds[0].bruises[0] == 1
    finally:
        rig.close()


def test_in_simulation_the_burrito_keys_and_a_learning_hint_are_both_on_screen_without_overlap() -> None:
    """The sim keys (F9 hit, F10 miss, F11 catch) go in the simulation band at the top, so a learning hint on the
    bottom line no longer replaces them; drawn at 720p and 1080p nothing overlaps. With device warnings in the top
    band, the keys take the bottom line when it is free."""
    from game.table.layout import check
    from game.table.runner import show_sim_keys
    from game.table.screens import sample_views

    keys = "burrito 1: seat 1 throws at seat 2   F9 hit  F10 miss  F11 catch   TAB/arrows choose"
    view = sample_views(4)["scoreboard"]
    view.game, view.banner = "throw-throw-burrito", "SIMULATION MODE - keys press the seat buttons"
    view.hint = "LEARNING: SET: I laid a set of 3"
    show_sim_keys(view, keys)
    assert view.hint == "LEARNING: SET: I laid a set of 3" and "F9 hit  F10 miss  F11 catch" in view.banner
    for size in ((1280, 720), (1920, 1080)):
        assert check(view, size) == [], size
    warned = sample_views(4)["scoreboard"]
    warned.banner, warned.extra["device_warnings"] = "DEVICES: badge-3 offline", ["badge-3 offline"]
    show_sim_keys(warned, keys)
    assert warned.banner == "DEVICES: badge-3 offline" and warned.hint == keys


def test_the_five_second_chord_opens_the_menu_and_restart_returns_to_the_lobby(tmp_path: Path) -> None:
    clock = SteppedClock()
    rig = open_sim(clock, devices=False)
    try:
        with Journal(str(tmp_path / "t.db")) as journal:
            app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], use_referee=False)
            app.start({"event": "setup", "game": "throw-throw-burrito", "seats": 4})
            press(rig, 3, "BRAWL", True)
            press(rig, 3, "WAR", True)
            run(app, clock, 4.5, speed=0)
            assert not app.menu_open
            run(app, clock, 0.7, speed=0)
            assert app.menu_open and app.view(clock()).screen == "menu"
            press(rig, 3, "BRAWL", False)
            press(rig, 3, "WAR", False)
            run(app, clock, 0.1, speed=0)
            tap(rig, clock, app, 3, "WAR")  # cursor -> "Restart"
            tap(rig, clock, app, 3, "SET")
            assert app.requests == ["restart"]
            game = app.live.game_id
            app.abandon()
            assert app.lobby is not None and app.lobby.resume is None and journal.unfinished() == []
            assert journal.games() == [(game, True)]  # the abandoned game stays in the journal
    finally:
        rig.close()


def test_play_command_starts_in_simulation_mode_headless_beside_an_unfinished_game_and_exits_cleanly(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    with Journal(str(db)) as journal:
        journal.start_game({"event": "setup", "game": "throw-throw-burrito", "seats": 3})
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    done = subprocess.run([sys.executable, "-m", "game", "play", "--sim", "--headless", "--journal", str(db),
                           "--max-frames", "30", "--no-web"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert done.returncode == 0, done.stderr[-1500:]


def test_play_rejects_a_bad_pin_map_with_one_line_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "pins.toml"
    bad.write_text("[table]\nseats = 99\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "game", "play", "--sim", "--headless", "--config", str(bad),
                           "--journal", str(tmp_path / "j.db")], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2 and "pins.toml" in done.stderr
