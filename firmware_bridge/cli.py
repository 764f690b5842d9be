"""`burrito-table` subcommands of the firmware bridge.

`add_commands(subparsers)` registers each command from the COMMANDS table, so more commands (serial monitor, pairing,
virtual devices) can be added by appending one (name, register) pair.

detect: run the device detector over an accelerometer trace CSV (`t_us,ax,ay,az`; microseconds; g) and print one JSON
object a line.  The CSV is streamed (constant memory, any length); events are held back until the whole file has parsed,
so a malformed file prints nothing on stdout, one line on stderr naming the line and the problem, and exits 2.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TextIO

from firmware_bridge.firmware.detector import Detector

HEADER = ("t_us", "ax", "ay", "az")
EXIT_BAD_INPUT = 2


class TraceError(ValueError):
    """A malformed trace; str() is the one-line message, with the line number."""

    def __init__(self, source: str, line: int, problem: str) -> None:
        super().__init__(f"{source}:{line}: {problem}")
        self.line = line


def read_trace(lines: Iterable[str], source: str = "<trace>") -> Iterator[tuple[int, float, float, float]]:
    """Yield (t_us, ax, ay, az) from CSV lines, one at a time; raise TraceError on the first bad line.

    Rules: the first non-empty line is exactly the header `t_us,ax,ay,az`; each row has 4 fields; t_us is an integer
    that strictly increases; accelerations are finite numbers.  Blank lines are skipped.
    """
    seen_header = False
    last_t: int | None = None
    for n, raw in enumerate(lines, start=1):
        line = raw.strip()
        if n == 1:
            line = line.lstrip("\ufeff")
        if not line:
            continue
        fields = [f.strip() for f in line.split(",")]
        if not seen_header:
            if tuple(f.lower() for f in fields) != HEADER:
                raise TraceError(source, n, f"bad header {line[:60]!r}, expected 't_us,ax,ay,az'")
            seen_header = True
            continue
        if len(fields) != 4:
            raise TraceError(source, n, f"expected 4 columns (t_us,ax,ay,az), got {len(fields)}")
        try:
            t = int(fields[0])
        except ValueError:
            raise TraceError(source, n, f"t_us is not an integer: {fields[0][:30]!r}") from None
        vals = []
        for name, text in zip(HEADER[1:], fields[1:]):
            try:
                v = float(text)
            except ValueError:
                raise TraceError(source, n, f"{name} is not a number: {text[:30]!r}") from None
            if not math.isfinite(v):
                raise TraceError(source, n, f"{name} is not finite: {text[:30]!r}")
            vals.append(v)
        if last_t is not None and t <= last_t:
            what = "goes backwards" if t < last_t else "repeats"
            raise TraceError(source, n, f"time {what}: t_us {t} after {last_t}")
        last_t = t
        yield t, vals[0], vals[1], vals[2]
    if not seen_header:
        raise TraceError(source, 1, "empty file, expected the header 't_us,ax,ay,az'")


def detect_events(
    samples: Iterable[tuple[int, float, float, float]], device: str = "burrito"
) -> list[tuple[int, str, float]]:
    """Feed every sample to a Detector and return its events (including those settled at the end)."""
    det = Detector(device)
    events: list[tuple[int, str, float]] = []
    for t, ax, ay, az in samples:
        events.extend(det.feed(t, ax, ay, az))
    events.extend(det.flush())
    return events


def _open_text(path: str) -> TextIO:
    if path == "-":
        return sys.stdin
    return open(path, encoding="utf-8", newline="")


def cmd_detect(args: argparse.Namespace) -> int:
    """Handler of `burrito-table detect`."""
    source = args.trace
    try:
        with _open_text(source) as fh:
            try:
                events = detect_events(read_trace(fh, source), args.device)
            except UnicodeDecodeError as exc:
                print(f"{source}: not UTF-8 text ({exc.reason} at byte {exc.start} of a read block)", file=sys.stderr)
                return EXIT_BAD_INPUT
    except TraceError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        print(f"{source}: cannot read: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    out = sys.stdout
    events.sort(key=lambda e: e[0])  # stamps are causal, emission is late: print in table-time order
    for t, kind, peak in events:
        out.write(json.dumps({"t_us": t, "kind": kind, "peak_g": peak}) + "\n")
    out.flush()
    return 0


def _register_detect(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "detect",
        help="detect pickup/launch/impact/catch/rest/bounce in an accelerometer trace CSV",
        description="Run the device detector over a CSV with header t_us,ax,ay,az (microseconds; g; any rate from "
        "400 Hz) and print one JSON object a line, e.g. {\"t_us\": 123456, \"kind\": \"launch\", \"peak_g\": 4.2}. "
        "A malformed CSV exits 2 with the line number on stderr.",
    )
    p.add_argument("--device", choices=("burrito", "badge"), default="burrito", help="which device wrote the trace")
    p.add_argument("trace", metavar="TRACE.csv", help="the trace file, or - for stdin")
    p.set_defaults(func=cmd_detect)


#: (command name, function that registers it).  Append new commands here.
COMMANDS: list[tuple[str, Callable[[argparse._SubParsersAction], None]]] = [  # type: ignore[type-arg]
    ("detect", _register_detect),
]


def add_commands(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Register the firmware bridge's subcommands on the `burrito-table` parser."""
    for _name, register in COMMANDS:
        register(subparsers)
