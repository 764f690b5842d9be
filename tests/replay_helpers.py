"""Running ``burrito-table replay`` in-process, and checks of the fold itself, shared by the games' tests."""

from __future__ import annotations

import copy
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from game.cli import main
from game.rules.base import apply


def write_log(tmp_path: Path, rows: list[str], name: str = "game.jsonl") -> str:
    """Write JSON Lines rows to a file and return its path."""
    path = tmp_path / name
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return str(path)


def replay(capsys: pytest.CaptureFixture[str], path: str | Path, *flags: str) -> tuple[int, str, str]:
    """``burrito-table replay PATH FLAGS...``: exit status, stdout, stderr."""
    code = main(["replay", str(path), *flags])
    out, err = capsys.readouterr()
    return code, out, err


def assert_reducer_leaves_old_state(rules: ModuleType, log: list[dict[str, Any]]) -> None:
    """The copy-then-step reducer (``game.rules.base.apply``) never changes the state it was given."""
    setup = rules.parse_setup(copy.deepcopy(log[0]))
    state = rules.new_state(setup)
    for event in log[1:]:
        before = rules.summary(state)
        new, _ = apply(rules, state, rules.check_event(setup, copy.deepcopy(event)))
        assert rules.summary(state) == before
        state = new
