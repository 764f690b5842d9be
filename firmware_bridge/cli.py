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
import errno
import json
import os
import sys
import zlib
from collections.abc import Callable, Iterable
from typing import TextIO

from firmware_bridge.firmware.detector import Detector
from firmware_bridge.tracefile import GYRO_HEADER, HEADER, Row, TraceError, read_rows, read_trace

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
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a trace", path)
    if path.endswith(".gz"):
        import gzip

        return gzip.open(path, "rt", encoding="utf-8", newline="")
    return open(path, encoding="utf-8", newline="")


EXIT_ENVIRONMENT = 1


class _Refusal(Exception):
    """One line for stderr and the exit status, for the handlers to return."""

    def __init__(self, message: str, status: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.status = status


def _rows_of(source: str, each: Callable[[Row], None]) -> None:
    """Stream every row of a trace file to `each`; _Refusal naming the file (and line) for anything wrong with it:
    a bad row, not UTF-8, a damaged or truncated gzip, a missing file or a folder."""
    try:
        with _open_text(source) as fh:
            for row in read_rows(fh, source):
                each(row)
    except TraceError as exc:
        raise _Refusal(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise _Refusal(f"{source}: not UTF-8 text ({exc.reason})") from None
    except (EOFError, zlib.error) as exc:
        raise _Refusal(f"{source}: damaged or truncated gzip ({str(exc)[:80]})") from None
    except OSError as exc:  # gzip.BadGzipFile is one
        if isinstance(exc, (FileNotFoundError, IsADirectoryError, PermissionError)) or exc.errno is None:
            raise _Refusal(f"{source}: cannot read: {exc.strerror or exc}") from None
        raise _Refusal(f"{source}: cannot read: {exc.strerror or exc}", EXIT_ENVIRONMENT) from None


def _say(lines: Iterable[str]) -> None:
    """Write the lines to stdout and flush. A full or failing stdout, or a closed pipe, is left to the command line's
    one handler (``game.cli.main``): every command says it the same way."""
    out = sys.stdout
    for line in lines:
        out.write(line + "\n")
    out.flush()


def _params_arg(args: argparse.Namespace) -> dict[str, float] | None:
    """The --params file's parameters (None without one); raises TuneError for the caller to report."""
    if not args.params:
        return None
    from firmware_bridge.tune import load_params

    return load_params(args.params)


def cmd_detect(args: argparse.Namespace) -> int:
    """Handler of `burrito-table detect`: run over a trace, or --tune a folder, or --plot a trace. Every refusal is
    one stderr line naming the file: exit 2 for bad input, 1 when the machine fails."""
    try:
        return _detect(args)
    except _Refusal as exc:
        print(str(exc), file=sys.stderr)
        return exc.status


def _detect(args: argparse.Namespace) -> int:
    modes = [m for m in (args.trace is not None, args.tune is not None, args.plot is not None) if m]
    if len(modes) != 1:
        raise _Refusal("detect: give exactly one of TRACE.csv, --tune DIR or --plot TRACE.csv OUT.png")
    try:
        params = _params_arg(args)
    except ValueError as exc:
        raise _Refusal(str(exc)) from None
    if args.tune is not None:
        return _cmd_tune(args, params)
    if args.plot is not None:
        return _cmd_plot(args, params)
    source = args.trace
    det = Detector(args.device, params)
    events: list[tuple[int, str, float]] = []
    _rows_of(source, lambda row: events.extend(det.feed(*row)))
    events.extend(det.flush())
    events.sort(key=lambda e: e[0])  # stamps are causal, emission is late: print in table-time order
    _say(json.dumps({"t_us": t, "kind": kind, "peak_g": peak}) for t, kind, peak in events)
    return 0


def _check_tune_options(args: argparse.Namespace) -> None:
    from firmware_bridge.tune import MAX_JOBS, MAX_PASSES

    for name, low, high in (("folds", 2, 1000), ("passes", 1, MAX_PASSES), ("jobs", 1, MAX_JOBS)):
        if not low <= getattr(args, name) <= high:
            raise _Refusal(f"detect --tune: --{name} must be {low}-{high}, not {getattr(args, name)}")


def _cmd_tune(args: argparse.Namespace, params: dict[str, float] | None) -> int:
    """`detect --tune DIR`: cross-validated fit on DIR's labelled recordings; writes the parameter file."""
    from firmware_bridge.firmware.detector import DEFAULTS
    from firmware_bridge.recordings import RecordingError, find_recordings, load_recording
    from firmware_bridge.safefile import FileProblem, check_output
    from firmware_bridge.tune import TuneError, tune, write_params

    folder = args.tune
    _check_tune_options(args)
    if not os.path.isdir(folder):
        raise _Refusal(f"{folder}: not a folder of labelled recordings")
    out_path = args.out or os.path.join(folder, "detector-params.json")
    start = dict(DEFAULTS)
    start.update(params or {})
    try:
        check_output(out_path, (".json",))  # before minutes of fitting, not after
        paths = find_recordings(folder)
        if not paths:
            raise _Refusal(f"{folder}: no labelled recordings (TRACE.csv with a TRACE.json sidecar)")
        recs = [load_recording(p) for p in paths]
        lines: list[str] = []
        final, _, _ = tune(recs, start, folds=args.folds, passes=args.passes, jobs=args.jobs, out=lines.append)
        write_params(out_path, final)
    except (RecordingError, TuneError) as exc:
        raise _Refusal(str(exc)) from None
    except FileProblem as exc:
        raise _Refusal(str(exc), exc.exit_status) from None
    except OSError as exc:
        raise _Refusal(f"{exc.filename or folder}: cannot read: {exc.strerror or exc}") from None
    _say(lines + [f"wrote {out_path}"])
    return 0


def _cmd_plot(args: argparse.Namespace, params: dict[str, float] | None) -> int:
    """`detect --plot TRACE.csv OUT.png`: the trace with its detected events (and labels, if it has a sidecar).
    The trace is streamed once through the detector and a min-max envelope, so memory does not grow with it."""
    from firmware_bridge.plot import FORMATS, Envelope, PlotUnavailable, draw
    from firmware_bridge.safefile import FileProblem, check_output, write_output

    source, out_path = args.plot
    try:
        check_output(out_path, FORMATS)
    except FileProblem as exc:
        raise _Refusal(str(exc), exc.exit_status) from None
    labels: list[tuple[int, str]] = []
    stem = source[:-7] if source.endswith(".csv.gz") else source[:-4] if source.endswith(".csv") else source
    if source != "-" and os.path.exists(stem + ".json"):
        from firmware_bridge.recordings import RecordingError, load_sidecar

        try:
            labels = load_sidecar(source).events
        except RecordingError as exc:
            raise _Refusal(str(exc)) from None
    det = Detector(args.device, params)
    env = Envelope()
    events: list[tuple[int, str, float]] = []

    def each(row: Row) -> None:
        events.extend(det.feed(*row))
        env.add(row)

    _rows_of(source, each)
    if not env.rows:
        raise _Refusal(f"{source}: no samples after the header")
    events.extend(det.flush())
    events.sort(key=lambda e: e[0])
    fmt = out_path.rsplit(".", 1)[-1].lower()
    try:
        write_output(out_path, lambda fh: draw(env, events, fh, fmt, os.path.basename(source), labels))
    except PlotUnavailable as exc:
        raise _Refusal(str(exc), EXIT_ENVIRONMENT) from None
    except FileProblem as exc:
        raise _Refusal(str(exc), exc.exit_status) from None
    _say([f"wrote {out_path} ({len(events)} events)"])
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
    p.add_argument("--out", metavar="FILE.json", help="with --tune: the parameter file to write (default "
                   "DIR/detector-params.json)")
    p.add_argument("--folds", type=int, default=3, help="with --tune: cross-validation folds, 2-1000 (default 3)")
    p.add_argument("--passes", type=int, default=1, help="with --tune: coordinate-search passes, 1-100 (default 1)")
    p.add_argument("--jobs", type=int, default=2, help="with --tune: worker processes, 1-64 (default 2)")
    p.add_argument("--plot", nargs=2, metavar=("TRACE.csv", "OUT.png"), help="draw the trace with its events "
                   "marked, as .png, .svg or .pdf (needs matplotlib: pip install -e '.[plot]')")
    p.set_defaults(func=cmd_detect)


#: (command name, function that registers it).  Append new commands here.
COMMANDS: list[tuple[str, Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]]] = [
    ("detect", _register_detect),
]


def add_commands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the firmware bridge's subcommands on the `burrito-table` parser."""
    for _name, register in COMMANDS:
        register(subparsers)
