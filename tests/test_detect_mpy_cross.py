"""Every firmware file must compile with mpy-cross: code MicroPython cannot parse fails the build."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys

import pytest

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware_bridge", "firmware")


def _mpy_cross() -> list[str]:
    exe = shutil.which("mpy-cross", path=os.path.dirname(sys.executable)) or shutil.which("mpy-cross")
    if exe:
        return [exe]
    return [sys.executable, "-m", "mpy_cross"]


def _sources() -> list[str]:
    return sorted(glob.glob(os.path.join(FIRMWARE, "**", "*.py"), recursive=True))


def test_firmware_folder_has_the_detector() -> None:
    """The glob really finds the firmware (an empty glob would make the compile test pass vacuously)."""
    names = [os.path.basename(p) for p in _sources()]
    assert "detector.py" in names and "imu.py" in names


@pytest.mark.parametrize("source", _sources(), ids=os.path.basename)
def test_compiles_with_mpy_cross(source: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """mpy-cross accepts the file and writes a .mpy."""
    out = tmp_path / (os.path.basename(source)[:-3] + ".mpy")
    proc = subprocess.run(_mpy_cross() + ["-o", str(out), source], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr or proc.stdout
    assert out.exists() and out.stat().st_size > 0


def test_mpy_cross_rejects_what_micropython_cannot_parse(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The check has teeth: a syntax MicroPython lacks (a walrus in a comprehension target is fine, a `match` is not)."""
    bad = tmp_path / "bad.py"
    bad.write_text("match x:\n    case 1:\n        pass\n")
    proc = subprocess.run(_mpy_cross() + ["-o", str(tmp_path / "bad.mpy"), str(bad)], capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
