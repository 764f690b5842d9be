"""Running ``burrito-table replay`` in-process, shared by the games' replay-contract tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.cli import main


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
