"""Labelled recordings: a trace CSV (`t_us,ax,ay,az`, or `t_us,ax,ay,az,gx,gy,gz` from a part whose gyroscope was on;
optionally gzipped) plus a sidecar JSON of the same stem.

Sidecar: {"device": "<id>", "kind": "burrito"|"badge", "rate_hz": <n>, "events": [{"kind": ..., "t": <seconds,
trace time>, "source": "confirmed"|"answer"}]}. These are what `burrito-table detect --tune DIR` fits the detector to,
and what the benchmark scores it on. Errors name the file and the place, for a one-line message.
"""

from __future__ import annotations

import gzip
import os
import zlib
from dataclasses import dataclass, field
from typing import Any

from firmware_bridge.firmware.detector import Detector
from firmware_bridge.safefile import FileProblem, brief, read_json
from firmware_bridge.tracefile import MAX_T_US, TraceError, join_rows, read_rows, split_rows
from firmware_bridge.traces import TOLERANCE_US, match_events

KINDS = ("pickup", "launch", "impact", "catch", "bounce", "rest")
DEVICE_KINDS = ("burrito", "badge")
SOURCES = ("confirmed", "answer")


class RecordingError(ValueError):
    """A malformed recording; str() is the one-line message naming the file and place."""


@dataclass
class Recording:
    name: str
    device: str
    kind: str
    rate_hz: float
    samples: list[tuple[int, float, float, float]]
    events: list[tuple[int, str]] = field(default_factory=list)  # (t_us, kind), trace time
    #: angular rate (gx, gy, gz) in rad/s, one per sample, when the CSV has the gyro columns; else empty
    gyro: list[tuple[float, float, float]] = field(default_factory=list)


def _sidecar_path(csv_path: str) -> str:
    stem = csv_path[:-7] if csv_path.endswith(".csv.gz") else csv_path[:-4] if csv_path.endswith(".csv") else csv_path
    return stem + ".json"


@dataclass
class Sidecar:
    """A recording's sidecar: what the trace is of, and its labels (t_us, kind) sorted by time."""

    device: str
    kind: str
    rate_hz: float
    events: list[tuple[int, str]]


def load_recording(csv_path: str) -> Recording:
    """Read one labelled recording; raise RecordingError (file and place) or OSError."""
    side = load_sidecar(csv_path)
    opener: Any = gzip.open if csv_path.endswith(".gz") else open
    try:
        with opener(csv_path, "rt", encoding="utf-8", newline="") as fh:
            samples, gyro = split_rows(read_rows(fh, csv_path))
    except TraceError as exc:
        raise RecordingError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise RecordingError(f"{csv_path}: not UTF-8 text ({exc.reason})") from None
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise RecordingError(f"{csv_path}: damaged gzip ({str(exc)[:80]})") from None
    name = os.path.basename(_sidecar_path(csv_path))[:-5]
    return Recording(name, side.device or name, side.kind, side.rate_hz, samples, side.events, gyro)


def load_sidecar(csv_path: str) -> Sidecar:
    """Read and check the sidecar JSON of the trace `csv_path` (the trace itself is not read); RecordingError
    naming the sidecar and the place."""
    side_path = _sidecar_path(csv_path)
    if not os.path.exists(side_path):
        raise RecordingError(f"{side_path}: missing (every recording needs its sidecar JSON of the same stem)")
    try:
        side = read_json(side_path)
    except FileProblem as exc:
        raise RecordingError(str(exc)) from None
    if not isinstance(side, dict):
        raise RecordingError(f"{side_path}: expected a JSON object, not {type(side).__name__}")
    kind = side.get("kind")
    if kind not in DEVICE_KINDS:
        raise RecordingError(f"{side_path}: \"kind\" must be \"burrito\" or \"badge\", got {brief(kind)}")
    rate = side.get("rate_hz")
    if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 <= rate <= 1e6:
        raise RecordingError(f"{side_path}: \"rate_hz\" must be a number 0..1e6 (0: unknown), got {brief(rate)}")
    evs = side.get("events")
    if not isinstance(evs, list):
        raise RecordingError(f"{side_path}: \"events\" must be a list")
    events: list[tuple[int, str]] = []
    for i, e in enumerate(evs):
        where = f"{side_path}: events[{i}]"
        if not isinstance(e, dict):
            raise RecordingError(f"{where}: expected an object")
        if e.get("kind") not in KINDS:
            raise RecordingError(f"{where}: unknown kind {brief(e.get('kind'))}")
        t = e.get("t")
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 <= t < MAX_T_US / 1e6:
            raise RecordingError(f"{where}: \"t\" must be seconds of trace time (>= 0), got {brief(t)}")
        if e.get("source", "confirmed") not in SOURCES:
            raise RecordingError(f"{where}: \"source\" must be \"confirmed\" or \"answer\", got "
                                 f"{brief(e.get('source'))}")
        events.append((int(round(float(t) * 1e6)), str(e["kind"])))
    events.sort()
    device = side.get("device")
    if device is not None and not isinstance(device, str):
        raise RecordingError(f"{side_path}: \"device\" must be a name, got {brief(device)}")
    return Sidecar(device or "", kind, float(rate), events)


def find_recordings(folder: str) -> list[str]:
    """Trace files (.csv or .csv.gz) in a folder that have a sidecar, sorted by name."""
    out = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".csv") or name.endswith(".csv.gz"):
            path = os.path.join(folder, name)
            if os.path.exists(_sidecar_path(path)):
                out.append(path)
    return out


def run_detector(rec: Recording, params: dict[str, float] | None = None) -> list[tuple[int, str, float]]:
    """The detector's events on a recording, fed as the firmware feeds it: with the angular rate when it has one."""
    det = Detector(rec.kind, params)
    found: list[tuple[int, str, float]] = []
    for row in join_rows(rec.samples, rec.gyro):
        found.extend(det.feed(*row))
    found.extend(det.flush())
    found.sort()
    return found


Counts = dict[str, list[Any]]  # kind -> [true positives, misses, false detections, [signed errors us]]


def score(rec: Recording, found: list[tuple[int, str, float]], kinds: tuple[str, ...] | None = None) -> Counts:
    """Match found events to the labels. Only the kinds that the recording labels are scored (a recording without
    bounce labels says nothing about bounces), unless `kinds` says which."""
    scored = set(kinds) if kinds is not None else {k for _, k in rec.events}
    truth = [e for e in rec.events if e[1] in scored]
    got = [(t, k) for t, k, _ in found if k in scored]
    return tally(truth, got, sorted(scored))


def tally(truth: list[tuple[int, str]], found: list[tuple[int, str]], kinds: list[str] | tuple[str, ...],
          windows: dict[tuple[int, str], tuple[int, int]] | None = None) -> Counts:
    """Per kind: true positives, misses, false detections and the signed timing errors of the matches (``windows``:
    see ``match_events``)."""
    out: Counts = {k: [0, 0, 0, []] for k in kinds}
    matches, missed, falses = match_events(truth, found, TOLERANCE_US, windows)
    for k, err in matches:
        out[k][0] += 1
        out[k][3].append(err)
    for _, k in missed:
        out[k][1] += 1
    for _, k in falses:
        out[k][2] += 1
    return out


def merge(into: Counts, c: Counts) -> None:
    for k, v in c.items():
        d = into.setdefault(k, [0, 0, 0, []])
        d[0] += v[0]
        d[1] += v[1]
        d[2] += v[2]
        d[3].extend(v[3])


def pickups_while_settling(rec: Recording, found: list[tuple[int, str, float]]) -> int:
    """Pickups reported between a labelled impact and the labelled rest after it (the object was lying there)."""
    n = 0
    impacts = [t for t, k in rec.events if k == "impact"]
    rests = [t for t, k in rec.events if k == "rest"]
    for ti in impacts:
        after = [tr for tr in rests if tr > ti]
        if not after:
            continue
        n += sum(1 for t, k, _ in found if k == "pickup" and ti < t < after[0] + TOLERANCE_US["rest"])
    return n
