"""The plugin seam, proved from outside: an example game (tests/plugins/quick_draw) that is not part of the project,
registered under the ``burrito_table.games`` entry-point group the way a maker's pip package would be, shows up in
the lobby, replays a log through the command line and plays at the table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from game import registry
from game.journal import Journal
from game.table.clock import SteppedClock
from game.table.loop import Lobby, TableApp
from game.table.runner import STEP_S
from game.table.sim import open_sim, press
from hardware.events import SeatEvent

PLUGINS = Path(__file__).parent / "plugins"
SETUP = {"event": "setup", "game": "quick-draw", "seats": 2, "options": {"rounds": 3, "seed": 5}}


def install_entry_point(site: Path) -> None:
    """What ``pip install`` of a package declaring the entry point leaves behind: a dist-info with entry_points.txt."""
    info = site / "quick_draw_example-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: quick-draw-example\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[burrito_table.games]\nquick-draw = quick_draw:GAME\n")


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    site = tmp_path / "site"
    install_entry_point(site)
    monkeypatch.syspath_prepend(str(PLUGINS))
    monkeypatch.syspath_prepend(str(site))
    registry.refresh()
    yield site
    monkeypatch.undo()
    registry.refresh()


def test_without_the_plugin_the_game_is_unknown() -> None:
    registry.refresh()
    assert "quick-draw" not in registry.GAMES
    with pytest.raises(registry.UnknownGame, match="quick-draw"):
        registry.game_for("quick-draw")


def test_the_plugin_is_found_through_its_entry_point_and_offered_in_the_lobby(plugin: Path) -> None:
    assert registry.game_for("quick-draw").title == "Quick Draw"
    labels = [label for _, label in registry.lobby_choices()]
    assert "Quick Draw: best of 3" in labels and "Quick Draw: best of 5" in labels
    assert list(registry.GAMES)[:3] == ["throw-throw-burrito", "zombie-burrito", "taco-vs-burrito"]
    lobby = Lobby(2, seed=1)
    lobby.seat_event(SeatEvent(0.0, 1, "SET", "press"))  # the first press joins
    for _ in range(labels.index("Quick Draw: best of 5")):
        lobby.seat_event(SeatEvent(0.0, 1, "WAR", "press"))  # WAR steps to the next game or variant
    assert lobby.mode.name == "quick-draw"
    assert lobby.view("").title == "Quick Draw" and lobby.view("").options == ["best of 3", "best of 5"]


def test_the_plugin_replays_a_log_through_the_command_line(plugin: Path, tmp_path: Path) -> None:
    log = tmp_path / "quick.jsonl"
    lines = [SETUP, {"event": "press", "t": 1.0, "seat": 1},  # false start: seat 2 wins round 1
             {"event": "press", "t": 20.0, "seat": 2}]  # after round 2's draw: seat 2 wins it, and best of 3
    log.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(plugin), str(PLUGINS), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-m", "game", "replay", str(log)], capture_output=True, text=True, env=env,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert "False start by seat 1: seat 2 wins round 1!" in out.stdout
    assert "Seat 2 wins the game!" in out.stdout and out.stdout.rstrip().endswith("Winner: seat 2")
    missing = subprocess.run([sys.executable, "-m", "game", "replay", str(log)], capture_output=True, text=True,
                             timeout=60)  # without the plugin installed: one clear line, exit 2
    assert missing.returncode == 2 and "unknown game 'quick-draw'" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1


def test_the_plugin_plays_at_the_table_through_the_seat_pins(plugin: Path, tmp_path: Path) -> None:
    clock = SteppedClock()
    rig = open_sim(clock, seats=2, devices=False)
    journal = Journal(str(tmp_path / "table.db"))
    try:
        app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 3], mode="quick-draw")
        app.start(SETUP)
        for round_ in (1, 2):
            while not app.state.drawn:
                app.step(clock.advance(STEP_S))
            assert app.view(clock()).big == "DRAW!"
            press(rig, 3, "SET", True)  # panel 3 is game seat 2
            app.step(clock.advance(STEP_S))
            press(rig, 3, "SET", False)
            for _ in range(30):
                app.step(clock.advance(STEP_S))
            assert app.state.wins[2] == round_
        assert app.state.winner == 2 and app.over
        assert len(app.live.table.events) >= 2  # both presses journaled
    finally:
        rig.close()
        journal.close()


def test_a_finished_plugin_game_makes_a_stats_record_the_venue_can_publish(plugin: Path) -> None:
    """Quick Draw's ``rounds`` is a count, not Throw Throw Burrito's bruise tallies: the record is made all the same
    (the venue publisher sends one per finished game)."""
    from game.stats import game_record

    record = game_record(1, SETUP, [{"event": "press", "t": 1.0, "seat": 1}], finished=True)
    assert record is not None
