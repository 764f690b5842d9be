"""Golden logs: whole games whose replay output is kept in tests/golden/*.json.

A change in any call shows up here as a diff. After a deliberate rules change,
regenerate with ``GOLDEN_UPDATE=1 python -m pytest tests/test_golden_ttb.py`` and
review the diff before committing it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from game.commands import play_by_play
from game.log import run_log

GOLDEN = Path(__file__).parent / "golden"
LOGS = sorted(GOLDEN.glob("ttb-*.jsonl"))


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_golden_log_replays_to_its_recorded_summary_and_play_by_play(log: Path):
    table, cues = run_log(log.read_text(encoding="utf-8").splitlines(), log.name)
    got = {"summary": table.summary(), "play_by_play": play_by_play(cues)}
    expected_path = log.with_suffix(".json")
    if os.environ.get("GOLDEN_UPDATE"):
        expected_path.write_text(json.dumps(got, indent=1) + "\n", encoding="utf-8")
    assert got == json.loads(expected_path.read_text(encoding="utf-8"))


def test_the_demo_is_a_golden_log_too():
    demo = Path(__file__).parent.parent / "game" / "games" / "throw_throw_burrito" / "data" / "demo.jsonl"
    assert demo.read_text() == (GOLDEN / "ttb-demo-four-seats.jsonl").read_text()
