"""Event traces fetched from the devices, and turning them into labelled recordings with the referee's final calls.

A ``TraceRecord`` is one trace as the host reassembled it (PROTOCOL.md section 10): the device's raw samples on its
own clock (with the angular rate when the device's gyroscope is on: TRACE6 chunks), the line that maps that clock to
host time (from clock sync), and the events the device reported inside it. The host saves each as
``<device>-b<boot>-t<id>.json``.

``label_traces`` joins traces with a game journal. The journal holds every call the referee made with its evidence
(``burrito_device``/``contact_t``, ``badge_device``/``badge_t``, ``launch_t``, ``pickup_t``), stamped in table time --
host time minus the moment the game started, which the journal does not keep. That moment is recovered from the data:
every evidence time of a device, shifted by the right offset, lands exactly (to the microsecond the journal rounds to)
on the host time of an event that device reported inside a trace; the offset most labels agree on is taken. The call
is ground truth, not the detector's guess: a hit or a miss means the burrito's contact was an impact, a catch call
means it was a catch, a hit means the badge took an impact. A call decided by people answering a question is labelled
``answer``; every other call that stood (was not overturned by a challenge) ``confirmed``.

The journal is read with ``sqlite3`` directly (tables ``games`` and ``events``, one JSON body per event), so the
firmware bridge does not import the game.
"""

from __future__ import annotations

import json
import math
import os
import re
import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ALIGN_TOLERANCE_S = 0.001  # journal times are rounded to 1 us and to 0.1 ms for "t"; device times are exact


KEEP_TRACES = 3000  # trace files kept in a directory the host writes (oldest go first): ~100 MB


def default_trace_dir() -> Path:
    """``$BURRITO_TRACES``, else ``$XDG_DATA_HOME/burrito-table/traces`` (``~/.local/share/...``)."""
    env = os.environ.get("BURRITO_TRACES")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "burrito-table" / "traces"


def prune(directory: Path, keep: int = KEEP_TRACES) -> int:
    """Delete the oldest trace files beyond ``keep`` so a table that runs for months never fills its card."""
    files = sorted(directory.glob("*.json"), key=lambda p: p.stat().st_mtime)
    gone = 0
    for p in files[:max(0, len(files) - keep)]:
        try:
            p.unlink()
            gone += 1
        except OSError:
            pass
    return gone


class TraceStoreError(ValueError):
    """A trace file or journal that cannot be read: one line naming the file and the problem."""


@dataclass
class TraceRecord:
    """One reassembled trace: ``samples`` are (device t_us, ax, ay, az in g), oldest first; ``gyro`` the angular rate
    (gx, gy, gz in rad/s) of each sample from a device whose gyroscope is on, else empty."""

    device: str
    kind: str
    boot: int
    trace_id: int
    rate_hz: int
    samples: list[tuple[int, float, float, float]]
    host_t_first: float | None  # host seconds of the first sample (None: the clock was not synced)
    host_per_us: float  # host seconds per device microsecond (1e-6 times 1 + drift)
    events: list[dict[str, Any]] = field(default_factory=list)  # {"kind", "t_us", "t" (host s), "seq"}
    gyro: list[tuple[float, float, float]] = field(default_factory=list)
    cut: bool = False  # the device sent it without its oldest samples (more than 255 chunks' worth; protocol 1.3)

    @property
    def stem(self) -> str:
        return f"{self.device}-b{self.boot:04x}-t{self.trace_id}"

    def host_t(self, t_us: int) -> float | None:
        if self.host_t_first is None:
            return None
        return self.host_t_first + (t_us - self.samples[0][0]) * self.host_per_us

    def trace_s(self, host_t: float) -> float:
        """Host seconds -> seconds from the first sample (the recording's time axis)."""
        assert self.host_t_first is not None
        return (host_t - self.host_t_first) / self.host_per_us / 1e6

    def save(self, directory: str | os.PathLike[str]) -> Path:
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        path = d / f"{self.stem}.json"
        tmp = path.with_name(path.name + ".tmp")
        doc = {"version": 1, "device": self.device, "kind": self.kind, "boot": self.boot, "trace_id": self.trace_id,
               "rate_hz": self.rate_hz, "host_t_first": self.host_t_first, "host_per_us": self.host_per_us,
               "events": self.events, "samples": [list(s) for s in self.samples]}
        if self.gyro:  # only then: files of accelerometer-only traces stay as they were
            doc["gyro"] = [list(g) for g in self.gyro]
        if self.cut:  # likewise: only a cut trace says so
            doc["cut"] = True
        tmp.write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> TraceRecord:
        p = Path(path)
        try:
            doc = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise TraceStoreError(f"{p}: cannot read: {exc}") from None
        except json.JSONDecodeError as exc:
            raise TraceStoreError(f"{p}: line {exc.lineno}: not JSON: {exc.msg}") from None
        try:
            if doc["version"] != 1:
                raise TraceStoreError(f"{p}: trace file version {doc['version']!r}, expected 1")
            samples = [(int(s[0]), float(s[1]), float(s[2]), float(s[3])) for s in doc["samples"]]
            if not samples:
                raise TraceStoreError(f"{p}: no samples")
            gyro = [(float(g[0]), float(g[1]), float(g[2])) for g in doc.get("gyro", [])]
            if gyro and len(gyro) != len(samples):
                raise TraceStoreError(f"{p}: {len(gyro)} gyro readings for {len(samples)} samples")
            first = doc["host_t_first"]
            return cls(str(doc["device"]), str(doc["kind"]), int(doc["boot"]), int(doc["trace_id"]),
                       int(doc["rate_hz"]), samples, None if first is None else float(first),
                       float(doc["host_per_us"]), list(doc.get("events", [])), gyro, doc.get("cut") is True)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, TraceStoreError):
                raise
            raise TraceStoreError(f"{p}: not a trace file: {exc!r}") from None


def load_traces(directory: str | os.PathLike[str]) -> list[TraceRecord]:
    d = Path(directory)
    if not d.is_dir():
        raise TraceStoreError(f"{d}: no such trace directory")
    return [TraceRecord.load(p) for p in sorted(d.glob("*.json"))]


# ---------------------------------------------------------------- the referee's calls, from a journal

CALLS = ("hit", "miss", "catch", "throw", "grab")
_OVERTURNED = re.compile(r"overturned the miss at (-?[0-9.]+)")


@dataclass(frozen=True)
class Label:
    """Ground truth from one call: ``device`` did ``kind`` at table time ``t``."""

    device: str
    kind: str
    t: float
    source: str  # "confirmed" or "answer"
    game: int
    call: str


def journal_labels(path: str | os.PathLike[str], game: int | None = None) -> tuple[list[Label], list[tuple[int, float]]]:
    """Labels from every call with device evidence, and the overturned misses as (game, host time in the text)."""
    p = str(path)
    if not os.path.exists(p):
        raise TraceStoreError(f"{p}: no such journal")
    try:
        db = sqlite3.connect(f"file:{p}?mode=ro", uri=True)
        try:
            games = [g for (g,) in db.execute("SELECT id FROM games ORDER BY id")]
            if game is not None:
                if game not in games:
                    raise TraceStoreError(f"{p}: no game {game}")
                games = [game]
            rows = [(g, seq, body) for g in games
                    for seq, body in db.execute("SELECT seq, body FROM events WHERE game_id = ? ORDER BY seq", (g,))]
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        raise TraceStoreError(f"{p}: not a journal: {exc}") from None
    labels: list[Label] = []
    overturned: list[tuple[int, float]] = []
    for g, seq, body in rows:
        try:
            ev = json.loads(body)
        except (json.JSONDecodeError, TypeError):
            raise TraceStoreError(f"{p}: game {g} event {seq}: bad JSON") from None
        evidence = ev.get("evidence") if isinstance(ev, dict) else None
        if not isinstance(evidence, dict):
            continue
        m = _OVERTURNED.search(str(evidence.get("decided", "")))
        if ev.get("event") == "foul" and m:
            overturned.append((g, float(m.group(1))))
        call = ev.get("event")
        if call not in CALLS:
            continue
        source = "answer" if evidence.get("question") else "confirmed"

        def add(device: Any, kind: str, t: Any, source: str = source, g: int = g, call: str = call) -> None:
            if isinstance(device, str) and isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t):
                labels.append(Label(device, kind, float(t), source, g, call))

        dev = evidence.get("burrito_device")
        if call in ("hit", "miss", "catch"):
            add(dev, "catch" if call == "catch" else "impact", evidence.get("contact_t"))
            add(dev, "launch", evidence.get("launch_t"))
            if call == "hit":
                add(evidence.get("badge_device"), "impact", evidence.get("badge_t"))
        elif call == "throw":
            add(dev, "launch", evidence.get("launch_t"))
        elif call == "grab":
            add(dev, "pickup", evidence.get("pickup_t"))
    return labels, overturned


def align(labels: list[Label], traces: list[TraceRecord]) -> float | None:
    """The host time a game's table time 0 was: the shift most (label, reported event) pairs of a device agree on."""
    votes: Counter[int] = Counter()
    cands: list[float] = []
    for lab in labels:
        for tr in traces:
            if tr.device != lab.device:
                continue
            for e in tr.events:
                d = float(e["t"]) - lab.t
                votes[round(d / ALIGN_TOLERANCE_S)] += 1
                cands.append(d)
    if not votes:
        return None
    best, n = max(votes.items(), key=lambda kv: (kv[1], -kv[0]))
    if n < min(2, len(labels)):
        return None  # with two or more labels, one lone coincidence is no evidence of where the game sits
    near = sorted(c for c in cands if abs(c - best * ALIGN_TOLERANCE_S) <= ALIGN_TOLERANCE_S)
    return near[len(near) // 2]


@dataclass
class RecordSummary:
    traces: int = 0
    written: list[Path] = field(default_factory=list)
    labels: int = 0
    unlabelled: int = 0
    unsynced: int = 0
    games: dict[int, float | None] = field(default_factory=dict)  # game -> host time of its table time 0


def write_recording(tr: TraceRecord, events: list[dict[str, Any]], out: Path, provenance: dict[str, Any]) -> Path:
    """CSV ``t_us,ax,ay,az`` (us from the first sample, g), or ``t_us,ax,ay,az,gx,gy,gz`` (rad/s) when the trace has
    the angular rate, plus the sidecar JSON of the same stem. Three decimals: the wire carries milli-g and
    milli-rad/s."""
    out.mkdir(parents=True, exist_ok=True)
    csv = out / f"{tr.stem}.csv"
    t_first = tr.samples[0][0]
    gyro = tr.gyro
    lines = ["t_us,ax,ay,az,gx,gy,gz" if gyro else "t_us,ax,ay,az"]
    last = -1
    for i, (t, ax, ay, az) in enumerate(tr.samples):
        if t - t_first <= last:
            continue  # the detect reader wants strictly increasing times
        last = t - t_first
        if gyro:
            gx, gy, gz = gyro[i]
            lines.append(f"{last},{ax:.3f},{ay:.3f},{az:.3f},{gx:.3f},{gy:.3f},{gz:.3f}")
        else:
            lines.append(f"{last},{ax:.3f},{ay:.3f},{az:.3f}")
    tmp = csv.with_name(csv.name + ".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(tmp, csv)
    side = {"device": tr.device, "kind": tr.kind, "rate_hz": tr.rate_hz,
            "events": sorted(events, key=lambda e: e["t"]), "provenance": provenance}
    sidecar = out / f"{tr.stem}.json"
    tmp = sidecar.with_name(sidecar.name + ".tmp")
    tmp.write_text(json.dumps(side, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, sidecar)
    return csv


def record(journal: str | os.PathLike[str], trace_dir: str | os.PathLike[str], out: str | os.PathLike[str],
           game: int | None = None) -> RecordSummary:
    """Write a labelled recording for every trace that a call of the journal covers."""
    traces = load_traces(trace_dir)
    labels, overturned = journal_labels(journal, game)
    summary = RecordSummary(traces=len(traces))
    synced = [tr for tr in traces if tr.host_t_first is not None]
    summary.unsynced = len(traces) - len(synced)
    per_trace: dict[str, list[dict[str, Any]]] = {}
    sources: dict[str, set[int]] = {}
    for g in sorted({lab.game for lab in labels}):
        mine = [lab for lab in labels if lab.game == g]
        t0 = align(mine, synced)
        summary.games[g] = t0
        if t0 is None:
            continue
        wrong = [h for gg, h in overturned if gg == g]
        for lab in mine:
            h = lab.t + t0
            if lab.call == "miss" and any(abs(h - w) < 0.002 for w in wrong):
                continue  # a miss the table overturned on challenge is no ground truth
            for tr in synced:
                if tr.device != lab.device:
                    continue
                first, last = tr.host_t(tr.samples[0][0]), tr.host_t(tr.samples[-1][0])
                assert first is not None and last is not None
                if first <= h <= last:
                    evs = per_trace.setdefault(tr.stem, [])
                    item = {"kind": lab.kind, "t": round(tr.trace_s(h), 6), "source": lab.source}
                    if item not in evs:
                        evs.append(item)
                        summary.labels += 1
                    sources.setdefault(tr.stem, set()).add(g)
    out_dir = Path(out)
    for tr in synced:
        evs = per_trace.get(tr.stem, [])
        if not evs:
            summary.unlabelled += 1
            continue
        prov = {"journal": str(journal), "games": sorted(sources[tr.stem]), "trace": f"{tr.stem}.json",
                "boot": tr.boot, "trace_id": tr.trace_id}
        summary.written.append(write_recording(tr, evs, out_dir, prov))
    return summary
