"""``burrito-table demo``: the README's first command, on a machine with no display."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from game.table.runner import display_reason

ROOT = Path(__file__).resolve().parents[1]


def test_demo_with_no_display_goes_headless_by_itself_and_plays_a_full_game_to_the_standings(tmp_path: Path) -> None:
    """Fresh process, no DISPLAY/WAYLAND_DISPLAY: it says it runs headless, plays two rounds, exits 0."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    db = tmp_path / "demo.db"
    done = subprocess.run([sys.executable, "-m", "game", "demo", "--journal", str(db)], capture_output=True,
                          text=True, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "running headless" in out
    assert "MockFactory" in out and "virtual devices over the pty" in out
    assert "Round 1 - won by seat" in out and "Round 2 - won by seat" in out
    assert "Fear Me badge: seat" in out and "Winner: seat" in out
    assert "Round 2! 3, 2, 1, Burrito!" in out
    # every call is in the journal, and the game there is finished
    import sqlite3

    with sqlite3.connect(db) as con:
        assert con.execute("SELECT finished FROM games").fetchall() == [(1,)]
        kinds = {k for (k,) in con.execute("SELECT json_extract(body, '$.event') FROM events")}
    assert {"declare", "hit"} <= kinds


def test_display_detection_x11_wayland_console_or_none() -> None:
    assert display_reason({"DISPLAY": ":0"}, lambda: None) == "X11"
    assert display_reason({"WAYLAND_DISPLAY": "wayland-0"}, lambda: None) == "Wayland"
    assert display_reason({}, lambda: "/dev/tty1") == "the Linux console (KMS/DRM)"
    assert display_reason({}, lambda: "/dev/pts/3") is None
    assert display_reason({"DISPLAY": ":0", "SDL_VIDEODRIVER": "dummy"}, lambda: None) is None
