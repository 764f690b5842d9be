"""The motion detector is parts with one job each, not one class that holds everything.

Detector (firmware_bridge/firmware/detector.py) keeps the state machine and the events; the noise floor, the sample
ring, stillness, the hand, the tremor band, the attitude, contacts, the release, the flight tests, the steady look and
the resolution each keep their own state in a det_*.py module next to it, and take the parameters they use from it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from firmware_bridge import physim
from firmware_bridge.firmware.detector import DEFAULTS, Detector

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware_bridge", "firmware")


def _fed() -> Detector:
    """A detector that has run a throw and a catch with the gyroscope (every part has been used)."""
    tr = physim.make_trace("throw_catch", 0, physim.Condition(6.0, 200.0, 30.0, "normal", "rigid"))
    det = Detector("burrito")
    for s, g in zip(tr.samples, tr.gyro):
        det.feed(*s, *g)
    det.flush()
    return det


def _state(obj: object) -> list[str]:
    """An object's own attributes less the parameters it was given."""
    return [k for k in vars(obj) if k not in DEFAULTS]


def test_no_god_class_the_detector_and_each_part_hold_a_handful_of_state() -> None:
    """No class in the detector holds more than a few dozen attributes of state (the single class held 116)."""
    det = _fed()
    parts = list(det._parts)
    assert len(parts) >= 10
    own = [k for k in _state(det) if not any(getattr(det, k) is p for p in parts)]
    assert len(own) <= 40, own
    for part in parts:
        assert len(_state(part)) <= 25, (type(part).__name__, _state(part))


def test_a_tuned_parameter_reaches_every_part_that_uses_it() -> None:
    """configure() hands each changed parameter to the parts that name it (a tuned file must reach the firmware's
    rules, not only the Detector object)."""
    det = Detector("burrito")
    named = sorted({n for p in det._parts for n in p.PARAMS})
    assert set(named) <= set(DEFAULTS)
    changed = {n: (DEFAULTS[n] * 2 if DEFAULTS[n] else 1) for n in named}
    det.configure(changed)
    for part in det._parts:
        for n in part.PARAMS:
            got = getattr(part, n)
            assert got == changed[n] and type(got) is type(DEFAULTS[n]), (type(part).__name__, n, got)
    assert det.params() == {**DEFAULTS, **{n: type(DEFAULTS[n])(v) for n, v in changed.items()}}


def test_every_part_is_a_module_of_its_own_next_to_the_detector() -> None:
    """Each part's class lives in a det_*.py module in the firmware folder (copied to the board with detector.py)."""
    det = Detector("burrito")
    modules = {sys.modules[type(p).__module__].__file__ for p in det._parts}
    for path in modules:
        assert path is not None
        assert os.path.dirname(os.path.abspath(path)) == os.path.abspath(FIRMWARE)
        assert os.path.basename(path).startswith("det_")
    assert len(modules) >= 10


def test_no_function_in_the_detector_over_cyclomatic_complexity_15() -> None:
    """ruff's mccabe check over the firmware folder at 15 (the single class had four functions of 19-37)."""
    ruff = shutil.which("ruff", path=os.path.dirname(sys.executable)) or shutil.which("ruff")
    assert ruff, "ruff is a dev dependency"
    proc = subprocess.run([ruff, "check", "--no-cache", "--select", "C901", "--config", "lint.mccabe.max-complexity=15",
                           FIRMWARE], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-2000:]
