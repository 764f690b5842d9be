"""Broken game plugins stop only themselves (docs/writing-a-game.md, "Registering it").

Three real plugin packages under tests/plugins/ (each with the pyproject.toml a maker would ship): one that fails
to import, one whose ``GAME`` is not a ``GameMode``, one whose screens module (``SCREENS``, ``sample_views``,
``HOWTO``) is missing. They are made visible the way ``pip install`` does it, a ``*.dist-info/entry_points.txt`` on
the path, and found by the real ``importlib.metadata``. Each must be named in ONE stderr line (entry point,
distribution and version, cause) while every other game and command works.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_helpers import DEMOS

from game import registry
from game.cli import main

PLUGINS = Path(__file__).parent / "plugins"
BROKEN = {
    "broken_import": ("broken-import", "bt-broken-import 0.3",
                      "ModuleNotFoundError: No module named 'burrito_table_missing_dependency'"),
    "wrong_type": ("wrong-type", "bt-wrong-type 1.0", "GAME is a dict, not a GameMode"),
    "no_sample_views": ("no-sample-views", "bt-no-sample-views 0.1.dev2",
                        "its screens module 'bt_no_sample_views.screens' (SCREENS, sample_views, HOWTO) is not installed"),
}


def install(site: Path, folder: str) -> list[str]:
    """What ``pip install tests/plugins/FOLDER`` leaves for importlib.metadata: a dist-info with its entry points,
    written from the package's own pyproject.toml. Returns the sys.path entries the package needs."""
    project = tomllib.loads((PLUGINS / folder / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    info = site / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n")
    eps = project["entry-points"][registry.GROUP]
    (info / "entry_points.txt").write_text(f"[{registry.GROUP}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()))
    return [str(site), str(PLUGINS / folder)]


def run(paths: list[str], *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([*paths, os.environ.get("PYTHONPATH", "")]),
               SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run([sys.executable, "-m", "game", *args], capture_output=True, text=True, env=env,
                          timeout=timeout)


def assert_named_once(stderr: str, folder: str) -> None:
    name, dist, cause = BROKEN[folder]
    lines = [line for line in stderr.splitlines() if f"game plugin '{name}'" in line]
    assert len(lines) == 1, stderr
    assert dist in lines[0] and cause in lines[0] and "not loaded" in lines[0], lines[0]
    assert "Traceback" not in stderr


@pytest.fixture
def all_broken(tmp_path: Path) -> list[str]:
    paths: list[str] = []
    for folder in BROKEN:
        paths += install(tmp_path / "site", folder)
    return paths


@pytest.mark.parametrize("folder", sorted(BROKEN))
def test_a_broken_plugin_is_one_line_and_help_bom_and_replay_still_work(tmp_path: Path, folder: str) -> None:
    paths = install(tmp_path / "site", folder)
    helped = run(paths, "--help")
    assert helped.returncode == 0 and "replay" in helped.stdout
    assert_named_once(helped.stderr, folder)
    assert len(helped.stderr.splitlines()) == 1
    bom = run(paths, "bom", "--seats", "4")
    assert bom.returncode == 0 and "bill of materials" in bom.stdout
    assert_named_once(bom.stderr, folder)
    replayed = run(paths, "replay", DEMOS["throw-throw-burrito"], "--json")
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["game"] == "throw-throw-burrito"
    assert_named_once(replayed.stderr, folder)


def test_games_lists_every_plugin_with_its_version_and_status(all_broken: list[str]) -> None:
    done = run(all_broken, "games", "--json")
    assert done.returncode == 0 and done.stderr == ""
    rows = {row["game"]: row for row in map(json.loads, done.stdout.splitlines())}
    for game in ("throw-throw-burrito", "zombie-burrito", "taco-vs-burrito"):
        assert rows[game]["status"] == "ok" and rows[game]["distribution"] == "burrito-table"
    for name, dist, cause in BROKEN.values():
        assert rows[name]["status"] == cause and f"{rows[name]['distribution']} {rows[name]['version']}" == dist
    table = run(all_broken, "games")
    assert table.returncode == 0 and table.stdout.splitlines()[0].split() == ["GAME", "TITLE", "PACKAGE", "VERSION",
                                                                              "STATUS"]
    assert any(line.startswith("wrong-type") and line.endswith("GAME is a dict, not a GameMode")
               for line in table.stdout.splitlines())


def test_the_other_games_still_play_with_every_broken_plugin_installed(all_broken: list[str], tmp_path: Path) -> None:
    demo = run(all_broken, "demo", "--game", "throw-throw-burrito", "--headless", "--mute",
               "--journal", str(tmp_path / "demo.db"))
    assert demo.returncode == 0, demo.stderr[-2000:]
    assert "Winner: seat" in demo.stdout
    for folder in BROKEN:
        assert_named_once(demo.stderr, folder)
    stats = run(all_broken, "stats", "--journal", str(tmp_path / "demo.db"), "--json")
    assert stats.returncode == 0, stats.stderr
    json.loads(stats.stdout)
    play = run(all_broken, "play", "--sim", "--headless", "--max-frames", "30", "--no-web", "--mute",
               "--journal", str(tmp_path / "play.db"), "--settings", str(tmp_path / "settings.json"))
    assert play.returncode == 0, play.stderr[-2000:]
    assert len(play.stderr.splitlines()) == len(BROKEN), play.stderr


def test_a_log_of_a_broken_game_names_the_cause_not_unknown_game(all_broken: list[str], tmp_path: Path) -> None:
    log = tmp_path / "wrong.jsonl"
    log.write_text(json.dumps({"event": "setup", "game": "wrong-type", "seats": 2}) + "\n")
    done = run(all_broken, "replay", str(log))
    assert done.returncode == 2 and done.stdout == ""
    last = done.stderr.splitlines()[-1]
    assert last.startswith(f"burrito-table: {log}") and "GAME is a dict, not a GameMode" in last


@pytest.fixture
def in_process(all_broken: list[str], monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for path in reversed(all_broken):
        monkeypatch.syspath_prepend(path)
    registry.refresh()
    yield
    monkeypatch.undo()
    registry.refresh()


def test_the_registry_keeps_the_good_games_and_names_the_broken_ones(in_process: None,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert list(registry.GAMES) == ["throw-throw-burrito", "zombie-burrito", "taco-vs-burrito"]
    assert sorted(p.name for p in registry.broken()) == sorted(name for name, _, _ in BROKEN.values())
    labels = [label for _, label in registry.lobby_choices()]
    assert labels and not any("Wrong" in label or "Sample" in label for label in labels)
    assert main(["replay", DEMOS["zombie-burrito"], "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["game"] == "zombie-burrito" and len(err.splitlines()) == len(BROKEN)


def test_the_lobby_says_a_game_plugin_was_not_loaded_while_nobody_has_joined(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The host at the table sees that a game is missing and where to look, and the lobby still offers the others."""
    from game.table.loop import Lobby

    for entry in install(tmp_path / "site", "wrong_type"):
        monkeypatch.syspath_prepend(entry)
    registry.refresh()
    try:
        lobby = Lobby(panels=4)
        v = lobby.view("")
        assert "1 game plugin not loaded: burrito-table games says why" in v.sub
        assert v.title == "Throw Throw Burrito"
    finally:
        monkeypatch.undo()
        registry.refresh()
    assert "not loaded" not in Lobby(panels=4).view("").sub
