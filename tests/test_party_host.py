"""The table as host, through the real loop (MockFactory pins, SDL dummy drivers): names chosen in the lobby reach
the setup line, the screens and the announcer; how-to-play from the lobby; attract mode entered and left; house
settings changed in the table menu and kept across a restart; learning hints; device warnings from heartbeats."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from firmware_bridge.host.events import HeartbeatEvent, LinkEvent
from game.journal import Journal
from game.registry import GAMES
from game.table import settings as hs
from game.table.clock import SteppedClock
from game.table.loop import TableApp
from game.table.runner import STEP_S
from game.table.screens import render
from game.table.sim import open_sim, press


def step(app: TableApp, clock: SteppedClock, seconds: float) -> None:
    for _ in range(max(1, int(seconds / STEP_S))):
        app.step(clock.advance(STEP_S))


def tap(rig, app: TableApp, clock: SteppedClock, panel: int, button: str) -> None:
    press(rig, panel, button, True)
    step(app, clock, 0.1)
    press(rig, panel, button, False)
    step(app, clock, 0.1)


def hold(rig, app: TableApp, clock: SteppedClock, panel: int, button: str) -> None:
    press(rig, panel, button, True)
    step(app, clock, 1.0)  # past the 0.8 s hold
    press(rig, panel, button, False)
    step(app, clock, 0.1)


@pytest.fixture
def table(tmp_path: Path):
    clock = SteppedClock()
    rig = open_sim(clock, seats=4, devices=False)
    journal = Journal(str(tmp_path / "table.db"))
    made: list[TableApp] = []

    def make(settings: hs.HouseSettings | None = None, idle_s: float | None = None) -> TableApp:
        app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], use_referee=False,
                       settings=settings, settings_file=tmp_path / "settings.json", idle_s=idle_s)
        app.lobby_seed = 5
        app.open_lobby()
        made.append(app)
        return app

    yield rig, make, clock, tmp_path
    rig.close()
    journal.close()
    pygame.quit()


def test_names_and_colours_picked_on_the_buttons_reach_the_setup_line_screens_and_journal(table) -> None:
    rig, make, clock, _ = table
    app = make()
    for panel in (1, 2, 3):
        tap(rig, app, clock, panel, "BRAWL")  # join
    tap(rig, app, clock, 1, "SET")  # open panel 1's name card: first fun name and colour
    tap(rig, app, clock, 1, "WAR")  # next name
    tap(rig, app, clock, 1, "DUEL")  # done
    tap(rig, app, clock, 3, "SET")
    tap(rig, app, clock, 3, "DUEL")
    lobby = app.view(clock())
    assert lobby.screen == "lobby" and lobby.seats[0].name == "Guac" and lobby.seats[2].name == "Salsa"
    assert lobby.seats[0].colour != lobby.seats[2].colour
    assert app.lobby is not None and app.lobby.variant == 0  # the name buttons did not change the game
    tap(rig, app, clock, 2, "DUEL")  # start
    assert app.live is not None
    setup, _ = app.journal.load(app.live.game_id)
    assert setup["players"] == {"1": {"name": "Guac", "colour": "#FF5AA0"}, "3": {"name": "Salsa", "colour": "#3CC8FF"}}
    v = app.view(clock())
    assert [s.name for s in v.seats] == ["Guac", "", "Salsa"]
    assert not any("Seat 1 " in t or "Seat 3 " in t for t in v.ticker)
    render(v)  # the named cards draw


def test_the_announcer_says_the_names(table) -> None:
    """A say cue reaches the announcer with the setup line's names in (SDL dummy audio, real espeak-ng)."""
    from game.table.sound import Sound

    rig, make, clock, tmp = table
    sound = Sound.open(cache=tmp / "voice")
    assert sound is not None and sound.announcer is not None, "espeak-ng is missing: run tests/install-system-deps.sh"
    try:
        app = make()
        app.sound = sound
        app.start({"event": "setup", "game": "throw-throw-burrito", "seats": 3, "options": {"seed": 1},
                   "players": {"1": {"name": "Ana"}, "2": {"name": "Bob"}, "3": {"name": "Cy"}}})
        assert sound.announcer.wait(60)
        # Spoken, or dropped as stale: rendered more than STALE_S after the cue, as on a core busy with other tests,
        # a call is not spoken late. Either way it reached the announcer, and with the names in.
        said = [p for p in sound.announcer.spoken + sound.announcer.dropped if p.endswith("counts: 3, 2, 1, Burrito!")]
        assert said and said[0].split("! ")[1].split()[0] in ("Ana", "Bob", "Cy"), sound.announcer.spoken
        assert any(p == "Ana is hit!" for p in sound.announcer.loaded)  # rendered at start, with the names
    finally:
        sound.close()


def test_how_to_play_from_the_lobby(table) -> None:
    rig, make, clock, _ = table
    app = make()
    tap(rig, app, clock, 2, "SET")  # join
    hold(rig, app, clock, 2, "WAR")
    v = app.view(clock())
    assert v.screen == "howto" and v.extra["page"] == 0 and v.game == "throw-throw-burrito"
    tap(rig, app, clock, 4, "WAR")  # any panel turns the page
    assert app.view(clock()).extra["page"] == 1
    tap(rig, app, clock, 4, "BRAWL")
    tap(rig, app, clock, 4, "BRAWL")
    assert app.view(clock()).extra["page"] == 5  # wraps to the last page
    tap(rig, app, clock, 2, "DUEL")
    assert app.view(clock()).screen == "lobby" and app.live is None and 4 not in app.lobby.joined


def test_attract_mode_starts_when_idle_and_any_press_returns_to_the_lobby_doing_nothing_else(table) -> None:
    rig, make, clock, _ = table
    app = make(idle_s=30.0)
    step(app, clock, 20.0)
    assert app.view(clock()).screen == "lobby"
    step(app, clock, 11.0)
    assert app.host.attract.active and app.view(clock()).screen == "howto"
    step(app, clock, 6 * 7.0 + 1)  # six TTB pages, then the winners (none yet: skipped), then the bot demo
    v = app.view(clock())
    assert app.host.attract.demo is not None and v.banner.startswith("BOT DEMO")
    step(app, clock, 5.0)
    assert app.host.attract.demo.next > 0  # the demo game moves on
    render(v)
    tap(rig, app, clock, 3, "DUEL")
    assert not app.host.attract.active and app.view(clock()).screen == "lobby"
    assert app.lobby is not None and not app.lobby.joined  # the waking press joined nobody


def test_last_winners_come_from_the_journal_with_names(table) -> None:
    from game.table.attract import last_winners

    rig, make, clock, _ = table
    app = make()
    import json

    lines = GAMES["throw-throw-burrito"].demo_log()
    setup = json.loads(lines[0])
    setup["players"] = {"4": {"name": "Dee"}}
    gid = app.journal.start_game(setup)
    for i, line in enumerate(lines[1:], start=1):  # event numbers count from 1, as the table writes them
        app.journal.append(gid, i, json.loads(line))
    app.journal.mark_finished(gid)
    assert last_winners(app.journal) == ["Throw Throw Burrito: Dee"]


def test_house_settings_changed_in_the_menu_survive_a_restart_and_reach_the_next_setup(table) -> None:
    rig, make, clock, tmp = table
    app = make()
    app.menu_open = True
    app.menu_cursor = 2  # "House settings, switch game"
    tap(rig, app, clock, 1, "SET")
    assert app.view(clock()).screen == "settings"
    for _ in range(4):
        tap(rig, app, clock, 1, "WAR")  # down to the tie window
    assert app.view(clock()).options[app.host.menu_cursor].startswith("Tie window: 45 ms")
    tap(rig, app, clock, 1, "SET")
    for _ in range(4):
        tap(rig, app, clock, 1, "BRAWL")  # up to the volume
    tap(rig, app, clock, 1, "SET")
    assert app.host.changes == ["tie_window_ms=50", "volume=9"]
    tap(rig, app, clock, 1, "DUEL")
    assert app.host.menu_page == "main"
    # the table restarts: a new app reads the file the menu wrote
    saved, problems = hs.load(tmp / "settings.json")
    assert problems == [] and saved.tie_window_ms == 50 and saved.volume == 9
    app2 = make(settings=saved)
    for panel in (1, 2):
        tap(rig, app2, clock, panel, "SET")
    tap(rig, app2, clock, 1, "DUEL")
    assert app2.live is not None
    setup, _ = app2.journal.load(app2.live.game_id)
    assert setup["options"]["tie_window_ms"] == 50  # journaled: it changes play
    assert app2.state.tie_window == pytest.approx(0.05)


def test_switch_game_from_the_settings_page(table) -> None:
    rig, make, clock, _ = table
    app = make()
    app.start({"event": "setup", "game": "throw-throw-burrito", "seats": 4})
    first = app.live.game_id
    app.menu_open = True
    app.host.menu_page = "settings"
    app.host.menu_cursor = len(app.host.menu_items()) - 1
    tap(rig, app, clock, 1, "SET")
    assert app.requests == ["switch"]
    app.host.switch()  # what the runner does with the request
    assert app.live is None and app.lobby is not None and app.lobby.mode.name == "zombie-burrito"
    assert dict(app.journal.games())[first] is True  # the abandoned game stays in the journal, closed


def test_learning_hints_on_a_first_game_and_device_warnings_from_heartbeats(table) -> None:
    rig, make, clock, _ = table
    app = make()
    assert app.host.learning  # no finished game in the journal yet
    app.lobby = None  # as the loop does when the lobby starts a game
    app.start({"event": "setup", "game": "throw-throw-burrito", "seats": 4})
    v = app.view(clock())
    assert v.screen == "countdown" and v.hint.startswith("LEARNING: On BURRITO!, go")
    step(app, clock, 10.0)
    v = app.view(clock())
    assert v.screen == "scoreboard" and v.hint.startswith("LEARNING: SET: I laid a set of 3")
    app.device_event(HeartbeatEvent(t=clock(), device="badge-2", device_kind="badge", pending=0, gave_up=0,
                                    battery_pct=9))
    app.device_event(LinkEvent(t=clock(), device="burrito-1", device_kind="burrito", state="offline",
                               detail="no frame for 3.0 s"))
    app.device_map.badges["badge-2"] = 2
    v = app.view(clock())
    assert v.extra["device_warnings"] == ["burrito-1 offline", "badge-2 (seat 2) battery 9%"]
    render(v)
    app.device_event(LinkEvent(t=clock(), device="burrito-1", device_kind="burrito", state="online"))
    app.device_event(HeartbeatEvent(t=clock(), device="badge-2", device_kind="badge", pending=0, gave_up=0,
                                    battery_pct=80))
    assert "device_warnings" not in app.view(clock()).extra


def test_the_demo_speaks_its_calls_where_espeak_ng_is_installed(tmp_path: Path) -> None:
    """`burrito-table demo` with a display (Xvfb) and SDL's dummy audio: the announcer is espeak-ng and it speaks."""
    import os
    import shutil
    import subprocess
    import sys

    from tests.xdisplay import xvfb

    assert shutil.which("espeak-ng"), "espeak-ng is missing: run tests/install-system-deps.sh"
    with xvfb() as display:
        env = dict(os.environ, DISPLAY=display, SDL_AUDIODRIVER="dummy", XDG_CACHE_HOME=str(tmp_path / "cache"))
        env.pop("SDL_VIDEODRIVER", None)
        res = subprocess.run([sys.executable, "-m", "game", "demo", "--speed", "8", "--max-seconds", "12"],
                             capture_output=True, text=True, env=env, timeout=300)
    assert "announcer: espeak-ng" in res.stdout, res.stdout + res.stderr
    spoken = [line for line in res.stdout.splitlines() if "calls spoken" in line]
    assert spoken and int(spoken[0].split()[1]) >= 3, res.stdout
    assert any((tmp_path / "cache" / "burrito-table" / "voice").glob("*.wav"))  # the per-user cache was used


def test_throw_throw_burritos_battle_screens_say_the_names() -> None:
    """The battle, tie-break and final boxes and the winner line call named seats by name (cards are named too)."""
    from game.games.throw_throw_burrito.screens import sample_views, versus, who

    views = sample_views()
    battle = views["battle"]
    battle.seats[1].name = "Ana"
    assert versus(battle) == "Ana vs seat 4" and who(battle, 2) == "Ana"
    final = views["final"]
    final.seats[2].name = "Zoe"
    assert versus(final, "  vs  ") == "seat 1  vs  Zoe"
    render(battle)


def test_a_background_part_that_is_down_is_shown_in_the_top_band_until_it_is_back(table) -> None:
    """A supervised part (the phones' server, the announcer, the devices) that fails keeps the game going and is
    named on screen until its restarted loop has settled."""
    import threading

    from firmware_bridge import supervise

    rig, make, clock, _ = table
    app = make()
    app.lobby = None
    app.start({"event": "setup", "game": "throw-throw-burrito", "seats": 4})
    step(app, clock, 10.0)
    healthy = threading.Event()

    def loop(stop: threading.Event) -> None:
        if not healthy.is_set():
            raise OSError("address already in use")
        stop.wait()

    part = supervise.Supervised("phones", loop, backoff=(0.01, 0.01), log=None).start()
    try:
        assert part.wait_runs(2, 2.0)
        v = app.view(clock())
        assert v.extra["device_warnings"][0] == "phones down, restarting"
        assert v.banner.startswith("TABLE: phones down")
        render(v)
        healthy.set()
        for _ in range(200):
            if part.up:
                break
            threading.Event().wait(0.02)
        assert part.up
        assert "device_warnings" not in app.view(clock()).extra
    finally:
        part.stop()


def test_a_game_the_rules_refuse_to_start_leaves_the_lobby_behind_the_failsafe(table,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A setup the rules refuse (a name from a phone they do not take, say) shows the failsafe; carrying on goes back
    to the same lobby, and later presses never reach a game that is not there."""
    rig, make, clock, _ = table
    app = make()
    real = app.host.setup
    monkeypatch.setattr(app.host, "setup", lambda setup, seatmap: {**real(setup, seatmap), "seats": 99})
    for panel in (1, 2):
        tap(rig, app, clock, panel, "BRAWL")  # any button joins
    lobby = app.lobby
    assert lobby is not None and lobby.joined == {1, 2}
    tap(rig, app, clock, 1, "DUEL")  # start
    assert app.error is not None and app.live is None and app.lobby is lobby
    monkeypatch.setattr(app.host, "setup", real)
    tap(rig, app, clock, 1, "SET")  # carry on
    assert app.error is None and app.lobby is lobby and app.view(clock()).screen == "lobby"
    for button in ("WAR", "SET", "BRAWL"):
        tap(rig, app, clock, 2, button)
    assert app.error is None
    tap(rig, app, clock, 1, "DUEL")
    assert app.live is not None and app.error is None
