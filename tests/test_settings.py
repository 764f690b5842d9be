"""House settings: persisted across restarts, bounded to rulebook-safe ranges, damaged files never stop the table,
and the windows reach the next game's setup line (the journal)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from game.rules import rules_for
from game.table import settings as hs
from game.table.settings import HouseSettings


def test_settings_survive_a_restart(tmp_path: Path) -> None:
    path = hs.settings_path({"XDG_CONFIG_HOME": str(tmp_path)})
    assert path == tmp_path / "burrito-table" / "settings.json"
    s = HouseSettings()
    for name, times in (("volume", 2), ("voice", 1), ("tie_window_ms", 2), ("brightness", 1), ("game", 2)):
        for _ in range(times):
            s = hs.bump(s, name)
    hs.save(s, path)
    again, problems = hs.load(path)
    assert problems == [] and again == s
    # a new process (the restarted table) reads the same settings
    code = "import sys; from pathlib import Path; from game.table import settings as hs; print(repr(hs.load(Path(sys.argv[1]))))"
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True).stdout
    assert out.strip() == repr((s, []))
    assert (again.volume, again.voice, again.tie_window_ms, again.brightness, again.game) == (
        10, False, 55, 20, "zombie-burrito")
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".settings-")]  # no temporary left


def test_every_step_stays_in_its_rulebook_safe_range_and_wraps() -> None:
    for name, (lo, hi, _step) in hs.RANGES.items():
        s = HouseSettings()
        seen = set()
        for _ in range(40):
            s = hs.bump(s, name)
            v = getattr(s, name)
            assert lo <= v <= hi and hs.check(name, v) is None, (name, v)
            seen.add(v)
        assert lo in seen and hi in seen
        assert getattr(hs.bump(HouseSettings(), name, -1), name) < getattr(HouseSettings(), name) or name == "brightness"


def test_a_damaged_or_out_of_range_file_gives_defaults_and_says_where(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"volume": 4,\n "tie_window_ms": 500, "voice": "yes", "colour": 1}', encoding="utf-8")
    s, problems = hs.load(path)
    assert s.volume == 4 and s.tie_window_ms == 45 and s.voice is True
    assert f"{path}: 'tie_window_ms': expected a number 30..60, got 500: using 45" in problems
    assert any("'voice': expected true or false" in p for p in problems)
    assert any("unknown setting 'colour'" in p for p in problems)
    path.write_text('{"volume": 4,\n oops}', encoding="utf-8")
    s, problems = hs.load(path)
    assert s == HouseSettings() and problems == [f"{path}: line 2: not JSON (Expecting property name enclosed in double quotes): default house settings (the file is left as it is)"]
    assert hs.load(tmp_path / "none.json") == (HouseSettings(), [])


def test_the_windows_go_into_the_next_games_setup_line_and_the_rules_accept_them() -> None:
    s = HouseSettings(declare_window_ms=300, tie_window_ms=35)
    ttb = hs.setup_options(s, "throw-throw-burrito")
    assert ttb == {"declare_window_ms": 300, "tie_window_ms": 35}
    setup = rules_for("throw-throw-burrito").parse_setup({"event": "setup", "game": "throw-throw-burrito", "seats": 4,
                                                           "options": ttb})
    assert setup.options["tie_window_ms"] == 35 and setup.options["declare_window_ms"] == 300
    zb = hs.setup_options(s, "zombie-burrito")
    assert zb == {"tie_window_ms": 35}
    assert rules_for("zombie-burrito").parse_setup({"event": "setup", "game": "zombie-burrito", "seats": 4,
                                                     "options": zb}).options["tie_window_ms"] == 35
    assert hs.setup_options(s, "taco-vs-burrito") == {}
    assert hs.setup_options(HouseSettings(), "throw-throw-burrito") == {}  # untouched: setup lines as before
    json.dumps(ttb)


def test_menu_labels() -> None:
    s = HouseSettings()
    assert hs.shown(s, "tie_window_ms") == "Tie window: 45 ms"
    assert hs.shown(s, "voice") == "Voice: on"
    assert hs.shown(hs.bump(s, "game", -1), "game") == "Game in the lobby: Taco vs Burrito"
