"""Device status published by whoever runs the ``DeviceHost``, so ``burrito-table devices`` needs no port of its own.

The serial port has one owner (the table app while a game runs). Every second that owner's ``DeviceHost`` writes a
JSON snapshot -- health of every device, drop counters, pairings -- to a file (written to a temporary name, then
renamed, so a reader never sees half of it). ``read_status`` takes a snapshot only if it is fresh and its writer is
still alive, so a status left behind by a crashed table is never shown as live.

Path: ``$BURRITO_STATUS``, else ``$XDG_RUNTIME_DIR/burrito-table/devices.json``, else
``/tmp/burrito-table-<uid>/devices.json``.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from firmware_bridge.safefile import FileProblem, read_json

STATUS_VERSION = 1
FRESH_S = 5.0

#: "use the default path" (``None`` means: do not publish).
DEFAULT: Any = object()


def default_status_path() -> Path:
    env = os.environ.get("BURRITO_STATUS")
    if env:
        return Path(env)
    run = os.environ.get("XDG_RUNTIME_DIR")
    if run and os.path.isdir(run):
        return Path(run) / "burrito-table" / "devices.json"
    return Path(tempfile.gettempdir()) / f"burrito-table-{os.getuid()}" / "devices.json"


class StatusError(ValueError):
    """A status file that is missing, stale, or not ours: the message says which and why."""


class StatusWriter:
    """Writes the snapshot at most every ``interval_s``; a write that fails is counted, never raised."""

    def __init__(self, path: str | os.PathLike[str], interval_s: float = 1.0) -> None:
        self.path = Path(path)
        self.interval_s = interval_s
        self._next = 0.0
        self.writes = 0
        self.failures = 0

    def due(self, now: float) -> bool:
        if now < self._next:
            return False
        self._next = now + self.interval_s
        return True

    def write(self, snapshot: dict[str, Any]) -> bool:
        doc = {"version": STATUS_VERSION, "pid": os.getpid(), "written": time.time(), **snapshot}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(doc, default=str) + "\n", encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            self.failures += 1
            return False
        self.writes += 1
        return True

    def remove(self) -> None:
        """The host stopped: take the status away if it is still ours (another table may have taken over)."""
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(doc, dict) and doc.get("pid") == os.getpid():
                self.path.unlink()
        except (OSError, ValueError):
            pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def read_status(path: str | os.PathLike[str], fresh_s: float = FRESH_S) -> dict[str, Any]:
    """The published snapshot; StatusError if there is none, it is older than ``fresh_s`` or its writer is gone."""
    p = Path(path)
    if not p.exists():
        raise StatusError(f"{p}: no device status (no table is running a device host)")
    try:
        doc = read_json(p)
    except FileProblem as exc:
        raise StatusError(str(exc)) from None
    if not isinstance(doc, dict) or doc.get("version") != STATUS_VERSION or not isinstance(doc.get("devices"), list):
        raise StatusError(f'{p}: expected {{"version": {STATUS_VERSION}, "devices": [...]}}')
    written = doc.get("written", 0)
    if not isinstance(written, int | float) or isinstance(written, bool):
        raise StatusError(f"{p}: written: not a time")
    age = time.time() - float(written)
    pid = doc.get("pid")
    if not isinstance(pid, int) or not _alive(pid):
        raise StatusError(f"{p}: its writer (pid {pid}) is gone")
    if age > fresh_s:
        raise StatusError(f"{p}: last written {age:.0f} s ago (the table's device host has stalled)")
    return doc
