"""Detector parameter files: ``{"version": N, "params": {name: number}}`` (PROTOCOL.md section 11).

A running table's ``DeviceHost`` watches one such file (``$BURRITO_PARAMS``, else
``~/.config/burrito-table/detector-params.json``) and pushes it to the devices whenever it changes, so a tuned file
reaches every burrito and badge without stopping the game: ``burrito-table traces push`` puts it there.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

from firmware_bridge.firmware import proto
from firmware_bridge.safefile import FileProblem, brief, read_json, write_output

#: Largest parameter value (the largest default is 5e6 microseconds; the device keeps float32).
MAX_PARAM = 1e9


def default_params_path() -> Path:
    env = os.environ.get("BURRITO_PARAMS")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "burrito-table" / "detector-params.json"


def load_params(path: Path) -> tuple[int, dict[str, float]]:
    """A parameter file ``{"version": N, "params": {name: number}}``; ValueError naming the file and the problem.

    Names are not checked against this detector (a device's newer firmware may know more), values are: every
    detector parameter is a threshold, a time or a factor, a finite number above 0 that a float32 holds."""
    try:
        doc = read_json(path)
    except FileProblem as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("params"), dict):
        raise ValueError(f'{path}: expected {{"version": N, "params": {{name: number}}}}, not {type(doc).__name__}')
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= 0xFFFF:
        raise ValueError(f"{path}: version must be an integer 1-65535, not {brief(version)}")
    params: dict[str, float] = {}
    for name, value in doc["params"].items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"{path}: params.{brief(name)[1:-1]}: must be a number, not {brief(value)}")
        if not 0 < value <= MAX_PARAM:
            raise ValueError(f"{path}: params.{brief(name)[1:-1]}: {brief(value)} is outside 0 < value <= "
                             f"{MAX_PARAM:g}")
        params[name] = value
    try:
        proto.config_parts(version, params)
    except (ValueError, OverflowError) as exc:
        raise ValueError(f"{path}: {brief(str(exc), 120)[1:-1]}") from None
    return version, params


def install_params(src: Path, dest: Path) -> tuple[int, dict[str, float]]:
    """Check ``src`` and put it at ``dest`` atomically (a watching host never reads half a file); FileProblem
    (exit 1) and ``dest`` as it was if that cannot be written."""
    version, params = load_params(src)
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FileProblem(f"{dest.parent}: cannot make the folder: {exc.strerror or exc}", 1) from None
    text = json.dumps({"version": version, "params": params}, indent=1) + "\n"
    write_output(str(dest), lambda fh: fh.write(text.encode("utf-8")))
    return version, params
