"""ruff and mypy over the whole project, as part of the suite: a finding fails the build like a failing test.

mypy is strict on the rules and the referee (pyproject.toml); the firmware is checked too, with the MicroPython-only
modules it imports declared as ``Any``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing() -> None:
    out = _run("ruff", "check", ".")
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_finds_nothing() -> None:
    out = _run("mypy")
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr
