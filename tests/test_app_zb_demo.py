"""Zombie Burrito end to end: ``burrito-table demo --game zombie-burrito`` through MockFactory pins, virtual
devices over a pty and the referee, to a winner; the journal replays to the same result."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_zombie_burrito_demo_plays_a_whole_game_through_pins_devices_and_referee(tmp_path: Path) -> None:
    """Sets laid by buttons, Battle! calls, hits from the referee by device id, markers to three, standings."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    db = tmp_path / "zb.db"
    done = subprocess.run([sys.executable, "-m", "game", "demo", "--game", "zombie-burrito", "--headless",
                           "--seed", "2", "--journal", str(db)], capture_output=True, text=True, cwd=ROOT, env=env,
                          stdin=subprocess.DEVNULL, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "Zombie Burrito: four bots play" in out and "MockFactory" in out and "the referee" in out
    assert "Sit with your team!" in out and "3 Team Marker(s)" in out and "Winner: the " in out
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT finished FROM games").fetchall() == [(1,)]
        rows = [json.loads(b) for (b,) in con.execute("SELECT body FROM events ORDER BY rowid")]
    kinds = {r.get("event") for r in rows}
    # sets laid and cancelled by buttons, a false call (WAR held), calls from the referee with evidence
    assert {"advantage", "declare", "cancel", "hit"} <= kinds
    assert any(r.get("event") == "declare" and r.get("valid") is False for r in rows)
    hits = [r for r in rows if r.get("event") == "hit"]
    assert hits and all("evidence" in h for h in hits)
    # the two burritos are told apart by device id: burrito 1 is burrito-1 (Zombie), 2 is burrito-2 (Survivor)
    assert {h["burrito"] for h in hits} == {1, 2}
    assert all(h["evidence"]["burrito_device"] == f"burrito-{h['burrito']}" for h in hits)
    # the journal replays through the pure rules to the winner the demo printed
    from game.journal import Journal
    from game.log import run_log

    with Journal(str(db)) as journal:
        setup, events = journal.load(journal.games()[0][0])
    table, _ = run_log(json.dumps(e) for e in [setup, *events])
    summary = table.summary()
    assert f"Winner: the {summary['winner'].capitalize()}" in out and max(summary["markers"].values()) == 3
