"""`burrito-table` subcommands of the firmware bridge.

`add_commands(subparsers)` registers each command from the COMMANDS table, so more commands (serial monitor, pairing,
virtual devices) can be added by appending one (name, register) pair.

detect: run the device detector over an accelerometer trace CSV (`t_us,ax,ay,az`; microseconds; g; with the angular
rate `gx,gy,gz` in rad/s as three more columns when the part's gyroscope was on, fed to the detector too) and print one
JSON object a line.  The CSV is streamed (constant memory, any length); events are held back until the whole file has parsed,
so a malformed file prints nothing on stdout, one line on stderr naming the line and the problem, and exits 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from typing import TextIO

from firmware_bridge.firmware.detector import Detector
from firmware_bridge.tracefile import GYRO_HEADER, HEADER, Row, TraceError, read_rows, read_trace, split_rows

__all__ = ["HEADER", "GYRO_HEADER", "TraceError", "read_trace", "read_rows", "detect_events", "add_commands"]

EXIT_BAD_INPUT = 2


def detect_events(
    samples: Iterable[Row], device: str = "burrito", params: dict[str, float] | None = None
) -> list[tuple[int, str, float]]:
    """Feed every sample to a Detector and return its events (including those settled at the end); a 7-tuple row
    (t_us, ax, ay, az, gx, gy, gz) brings its angular rate along, as the firmware feeds it with the gyroscope on."""
    det = Detector(device, params)
    events: list[tuple[int, str, float]] = []
    for row in samples:
        events.extend(det.feed(*row))
    events.extend(det.flush())
    return events


def _open_text(path: str) -> TextIO:
    if path == "-":
        return sys.stdin
    if path.endswith(".gz"):
        import gzip

        return gzip.open(path, "rt", encoding="utf-8", newline="")
    return open(path, encoding="utf-8", newline="")


EXIT_ENVIRONMENT = 1


def _params_arg(args: argparse.Namespace) -> dict[str, float] | None:
    """The --params file's parameters (None without one); raises TuneError/OSError for the caller to report."""
    if not args.params:
        return None
    from firmware_bridge.tune import load_params

    return load_params(args.params)


def cmd_detect(args: argparse.Namespace) -> int:
    """Handler of `burrito-table detect`: run over a trace, or --tune a folder, or --plot a trace."""
    modes = [m for m in (args.trace is not None, args.tune is not None, args.plot is not None) if m]
    if len(modes) != 1:
        print("detect: give exactly one of TRACE.csv, --tune DIR or --plot TRACE.csv OUT.png", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        params = _params_arg(args)
    except OSError as exc:
        print(f"{args.params}: cannot read: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.tune is not None:
        return _cmd_tune(args, params)
    if args.plot is not None:
        return _cmd_plot(args, params)
    source = args.trace
    try:
        with _open_text(source) as fh:
            try:
                events = detect_events(read_rows(fh, source), args.device, params)
            except UnicodeDecodeError as exc:
                print(f"{source}: not UTF-8 text ({exc.reason} at byte {exc.start} of a read block)", file=sys.stderr)
                return EXIT_BAD_INPUT
    except TraceError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        print(f"{source}: cannot read: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except EOFError as exc:
        print(f"{source}: truncated ({exc})", file=sys.stderr)
        return EXIT_BAD_INPUT
    out = sys.stdout
    events.sort(key=lambda e: e[0])  # stamps are causal, emission is late: print in table-time order
    for t, kind, peak in events:
        out.write(json.dumps({"t_us": t, "kind": kind, "peak_g": peak}) + "\n")
    out.flush()
    return 0


def _cmd_tune(args: argparse.Namespace, params: dict[str, float] | None) -> int:
    """`detect --tune DIR`: cross-validated fit on DIR's labelled recordings; writes the parameter file."""
    import os

    from firmware_bridge.firmware.detector import DEFAULTS
    from firmware_bridge.recordings import RecordingError, find_recordings, load_recording
    from firmware_bridge.tune import TuneError, tune, write_params

    folder = args.tune
    for name, low in (("folds", 2), ("passes", 1), ("jobs", 1)):
        if getattr(args, name) < low:
            print(f"detect --tune: --{name} must be at least {low}", file=sys.stderr)
            return EXIT_BAD_INPUT
    if not os.path.isdir(folder):
        print(f"{folder}: not a folder of labelled recordings", file=sys.stderr)
        return EXIT_BAD_INPUT
    out_path = args.out or os.path.join(folder, "detector-params.json")
    start = dict(DEFAULTS)
    start.update(params or {})
    try:
        paths = find_recordings(folder)
        if not paths:
            print(f"{folder}: no labelled recordings (TRACE.csv with a TRACE.json sidecar)", file=sys.stderr)
            return EXIT_BAD_INPUT
        recs = [load_recording(p) for p in paths]
        final, _, _ = tune(recs, start, folds=args.folds, passes=args.passes, jobs=args.jobs)
    except (RecordingError, TuneError) as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        print(f"{exc.filename or folder}: cannot read: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        write_params(out_path, final)
    except OSError as exc:
        print(f"{out_path}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_ENVIRONMENT
    print(f"wrote {out_path}")
    return 0


def _cmd_plot(args: argparse.Namespace, params: dict[str, float] | None) -> int:
    """`detect --plot TRACE.csv OUT.png`: the trace with its detected events (and labels, if it has a sidecar)."""
    import os

    from firmware_bridge.plot import PlotUnavailable, plot_trace

    source, out_path = args.plot
    try:
        with _open_text(source) as fh:
            rows = list(read_rows(fh, source))
    except TraceError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    except (UnicodeDecodeError, EOFError) as exc:
        print(f"{source}: unreadable ({exc})", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        print(f"{source}: cannot read: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not rows:
        print(f"{source}: no samples after the header", file=sys.stderr)
        return EXIT_BAD_INPUT
    labels: list[tuple[int, str]] = []
    stem = source[:-7] if source.endswith(".csv.gz") else source[:-4] if source.endswith(".csv") else source
    if os.path.exists(stem + ".json"):
        from firmware_bridge.recordings import RecordingError, load_recording

        try:
            labels = load_recording(source).events
        except RecordingError as exc:
            print(str(exc), file=sys.stderr)
            return EXIT_BAD_INPUT
    events = detect_events(rows, args.device, params)
    samples, gyro = split_rows(rows)
    try:
        plot_trace(samples, events, out_path, os.path.basename(source), labels, gyro)
    except PlotUnavailable as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_ENVIRONMENT
    except OSError as exc:
        print(f"{out_path}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"wrote {out_path} ({len(events)} events)")
    return 0


def _register_detect(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "detect",
        help="detect pickup/launch/impact/catch/rest/bounce in an accelerometer trace CSV",
        description="Run the device detector over a CSV with header t_us,ax,ay,az (microseconds; g; any rate from "
        "200 Hz), or t_us,ax,ay,az,gx,gy,gz with the angular rate in rad/s, and print one JSON object a line, e.g. {\"t_us\": 123456, \"kind\": \"launch\", \"peak_g\": 4.2}. "
        "A malformed CSV exits 2 with the line number on stderr. --tune fits the parameters to a folder of labelled "
        "recordings; --plot draws a trace with its events.",
    )
    p.add_argument("--device", choices=("burrito", "badge"), default="burrito", help="which device wrote the trace")
    p.add_argument("trace", metavar="TRACE.csv", nargs="?", help="the trace file (.csv or .csv.gz), or - for stdin")
    p.add_argument("--params", metavar="FILE", help="a parameter file {\"version\": 1, \"params\": {...}} to run "
                   "with (or, with --tune, to start from)")
    p.add_argument("--tune", metavar="DIR", help="fit the parameters to DIR's labelled recordings (TRACE.csv + "
                   "TRACE.json), cross-validated; prints before/after per kind and writes --out")
    p.add_argument("--out", metavar="FILE", help="with --tune: the parameter file to write (default "
                   "DIR/detector-params.json)")
    p.add_argument("--folds", type=int, default=3, help="with --tune: cross-validation folds (default 3)")
    p.add_argument("--passes", type=int, default=1, help="with --tune: coordinate-search passes (default 1)")
    p.add_argument("--jobs", type=int, default=2, help="with --tune: worker processes (default 2)")
    p.add_argument("--plot", nargs=2, metavar=("TRACE.csv", "OUT.png"), help="draw the trace with its events "
                   "marked (needs matplotlib: pip install -e '.[plot]')")
    p.set_defaults(func=cmd_detect)


#: (command name, function that registers it).  Append new commands here.
COMMANDS: list[tuple[str, Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]]] = [
    ("detect", _register_detect),
]


def add_commands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the firmware bridge's subcommands on the `burrito-table` parser."""
    for _name, register in COMMANDS:
        register(subparsers)
