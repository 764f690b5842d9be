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


def default_params_path() -> Path:
    env = os.environ.get("BURRITO_PARAMS")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "burrito-table" / "detector-params.json"


def load_params(path: Path) -> tuple[int, dict[str, float]]:
    """A parameter file ``{"version": N, "params": {name: number}}``; ValueError naming the file and the problem."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: line {exc.lineno}: not JSON: {exc.msg}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("params"), dict):
        raise ValueError(f'{path}: expected {{"version": N, "params": {{name: number}}}}')
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= 0xFFFF:
        raise ValueError(f"{path}: version must be an integer 1-65535, not {version!r}")
    params: dict[str, float] = {}
    for name, value in doc["params"].items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"{path}: params.{name}: must be a number, not {value!r}")
        params[name] = value
    try:
        proto.config_parts(version, params)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    return version, params


def install_params(src: Path, dest: Path) -> tuple[int, dict[str, float]]:
    """Check ``src`` and put it at ``dest`` atomically (a watching host never reads half a file)."""
    version, params = load_params(src)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".tmp")
    tmp.write_text(json.dumps({"version": version, "params": params}, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, dest)
    return version, params
