"""Subcommands for the device link: ``devices``, ``pair``, ``virtual-table`` and ``traces``.

Wire in with ``firmware_bridge.host.commands.add_commands(subparsers)`` (from ``firmware_bridge/cli.py``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from firmware_bridge.firmware import proto
from firmware_bridge.host.host import DeviceHost
from firmware_bridge.host.pairing import PairingError, PairingStore
from firmware_bridge.host.params import default_params_path, install_params, load_params
from firmware_bridge.host.status import StatusError, default_status_path, read_status
from firmware_bridge.host.tracestore import TraceStoreError, default_trace_dir
from firmware_bridge.safefile import FileProblem, brief, loads, read_json

#: Espressif's native USB serial (ESP32-S3 / ESP32-C3); override with --port or BURRITO_RECEIVER.
DEFAULT_PORT = "hwgrep://303a:1001"


#: Seats a table has (hardware/pinmap.py MAX_SEATS; not imported: this package stands alone).
MAX_SEAT = 12
#: Longest wait an option may ask for: an hour (a longer one is a typo, and inf would overflow the clocks).
MAX_WAIT_S = 3600.0
#: Virtual devices of one kind a virtual table may run (each is a thread).
MAX_VIRTUAL = 64

EXIT_BAD_INPUT = 2
EXIT_ENVIRONMENT = 1


class Refusal(Exception):
    """One stderr line and the exit status for a handler to return."""

    def __init__(self, message: str, status: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.status = status


def _guarded(name: str, handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Run a handler so that a Refusal, or stdout failing (full, or an I/O error), is one stderr line and its exit
    status, never a traceback. A closed pipe (``| head``) goes to the dispatcher, which treats it as done."""

    def run(args: argparse.Namespace) -> int:
        try:
            checks = _CHECKS.get(name)
            if checks is not None:
                checks(args)
            status = handler(args)
            sys.stdout.flush()
            return status
        except Refusal as exc:
            print(f"burrito-table {name}: {exc}", file=sys.stderr)
            return exc.status
        except BrokenPipeError:
            raise
        except OSError as exc:
            if exc.filename is not None:
                print(f"burrito-table {name}: {exc.filename}: {exc.strerror or exc}", file=sys.stderr)
                return EXIT_ENVIRONMENT
            raise  # stdout full or failing: the command line's one handler says it, as for every command

    run.__doc__ = handler.__doc__
    return run


def _seconds(value: float, option: str, low: float = 0.0) -> None:
    if not low <= value <= MAX_WAIT_S:  # also refuses nan
        raise Refusal(f"{option} must be {low:g}-{MAX_WAIT_S:g} seconds, not {value}")


def _check_devices(args: argparse.Namespace) -> None:
    _seconds(args.wait, "--wait")
    _seconds(args.interval, "--interval", 0.1)
    if args.count is not None and args.count < 1:
        raise Refusal(f"--count must be at least 1, not {args.count}")


def _check_pair(args: argparse.Namespace) -> None:
    if not 1 <= args.seat <= MAX_SEAT:
        raise Refusal(f"--seat must be 1-{MAX_SEAT}, not {args.seat}")
    _seconds(args.timeout, "--timeout", 1.0)


def _check_virtual_table(args: argparse.Namespace) -> None:
    for option, value in (("--burritos", args.burritos), ("--badges", args.badges)):
        if not 0 <= value <= MAX_VIRTUAL:
            raise Refusal(f"{option} must be 0-{MAX_VIRTUAL}, not {value}")
    if args.seconds is not None and not 0 <= args.seconds < float("inf"):
        raise Refusal(f"--seconds must be a number of seconds >= 0, not {args.seconds}")
    if args.link is not None:
        folder = args.link.absolute().parent
        if not folder.is_dir():
            raise Refusal(f"{args.link}: no folder {folder} for the link")
        if args.link.is_dir():
            raise Refusal(f"{args.link}: is a folder; give the link's name")


def _check_push(args: argparse.Namespace) -> None:
    _seconds(args.timeout, "--timeout")


def _check_record(args: argparse.Namespace) -> None:
    if args.game is not None and args.game < 1:
        raise Refusal(f"--game must be a game number >= 1, not {args.game}")


_CHECKS: dict[str, Callable[[argparse.Namespace], None]] = {
    "devices": _check_devices, "pair": _check_pair, "virtual-table": _check_virtual_table,
    "traces push": _check_push, "traces record": _check_record,
}


def default_port() -> str:
    return os.environ.get("BURRITO_RECEIVER", DEFAULT_PORT)


def default_pairings() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "burrito-table" / "pairings.json"


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", default=None, help=f"receiver: pyserial URL or path (default $BURRITO_RECEIVER or "
                                                f"{DEFAULT_PORT})")
    p.add_argument("--pairings", type=Path, default=None, help=f"pairing file (default {default_pairings()})")


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("devices", help="list burritos, badges and the receiver with their health",
                              description="Reads the device status the running table publishes; when no table runs, "
                                          "opens the receiver itself.")
    _common(p)
    p.add_argument("--wait", type=float, default=3.0, help="seconds to listen before printing (default 3)")
    p.add_argument("--status", type=Path, default=None,
                   help=f"status file a running table writes (default {default_status_path()})")
    p.add_argument("--watch", action="store_true", help="reprint every --interval seconds until Ctrl-C")
    p.add_argument("--interval", type=float, default=1.0, help="seconds between --watch updates (default 1)")
    p.add_argument("--count", type=int, default=None, help=argparse.SUPPRESS)  # --watch: stop after N updates
    p.set_defaults(func=_guarded("devices", cmd_devices))

    p = subparsers.add_parser("pair", help="pair the next burrito or badge that is shaken to a seat")
    _common(p)
    p.add_argument("--seat", type=int, required=True, help="seat number the device belongs to")
    p.add_argument("--timeout", type=float, default=15.0, help="seconds to wait for a shake (default 15)")
    p.set_defaults(func=_guarded("pair", cmd_pair))

    p = subparsers.add_parser("virtual-table", help="run virtual burritos, badges and receiver on a pty")
    p.add_argument("--burritos", type=int, default=2)
    p.add_argument("--badges", type=int, default=4)
    p.add_argument("--link", type=Path, default=None, help="symlink to keep pointing at the pty (e.g. /tmp/ttyBT)")
    p.add_argument("--pairings", type=Path, default=None,
                   help="also pair the virtual devices into this file (badge-N at seat N)")
    p.add_argument("--script", type=Path, default=None,
                   help='JSON lines {"t": s, "device": "burrito-1", "kind": "launch", "peak_g": 2.0}')
    p.add_argument("--seconds", type=float, default=None, help="stop after this long (default: until Ctrl-C)")
    p.set_defaults(func=_guarded("virtual-table", cmd_virtual_table))

    p = subparsers.add_parser("traces", help="labelled recordings from device traces; push detector parameters")
    sub = p.add_subparsers(dest="traces_command", metavar="ACTION")
    sub.required = True
    r = sub.add_parser("record", help="label the fetched traces with the referee's final calls from a journal",
                       description="Joins the traces the device host fetched (one JSON file each) with the calls "
                                   "journaled for a game: every trace a call covers becomes a labelled recording "
                                   "(t_us,ax,ay,az CSV + sidecar JSON) that `detect --tune` reads.")
    r.add_argument("--journal", required=True, type=Path, help="the table's journal (SQLite)")
    r.add_argument("--traces", type=Path, default=None, help=f"trace directory (default {default_trace_dir()})")
    r.add_argument("--out", required=True, type=Path, help="directory for the labelled recordings")
    r.add_argument("--game", type=int, default=None, help="only this game of the journal (default: all)")
    r.set_defaults(func=_guarded("traces record", cmd_traces_record))
    u = sub.add_parser("push", help="send a detector parameter file to every paired device and report versions",
                       description='PARAMS.json is {"version": N, "params": {name: number}}. While a table runs, '
                                   "the file is installed where its device host watches and the table pushes it; "
                                   "otherwise (or with --port) the receiver is opened here. Exits 0 once every "
                                   "paired device reports running version N, 1 if some did not within --timeout, "
                                   "2 for a bad file or a rejected parameter set.")
    _common(u)
    u.add_argument("--status", type=Path, default=None,
                   help=f"status file of the running table (default {default_status_path()})")
    u.add_argument("params", type=Path, metavar="PARAMS.json")
    u.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for every device (default 10)")
    u.set_defaults(func=_guarded("traces push", cmd_traces_push))


def _store(path: Path | None) -> PairingStore:
    """The pairing file, read only after it parses as JSON this program takes: PairingStore's own reader names
    the file for a bad entry, but not for JSON nested too deep or a number of thousands of digits."""
    where = path if path is not None else default_pairings()
    if where.exists():
        try:
            read_json(where)
        except FileProblem as exc:
            raise PairingError(str(exc)) from None
    try:
        return PairingStore(where)
    except PairingError:
        raise
    except (ValueError, RecursionError) as exc:
        raise PairingError(f"{where}: {brief(str(exc), 80)[1:-1]}") from None


def _fmt_uptime(s: float | None) -> str:
    if s is None or s < 0:
        return ""
    s = int(s)
    if s >= 86400:
        return f"{s // 86400}d{s % 86400 // 3600:02d}h"
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    return f"{s // 60}m{s % 60:02d}s"


def _fmt_sync(h: dict) -> str:
    """How well the device clock is known: half the last round trip bounds the error of a sample."""
    if not h.get("synced"):
        return "unsynced"
    rtt = h.get("rtt_us")
    return f"±{rtt / 2000:.1f} ms" if isinstance(rtt, (int, float)) else "synced"


def render_devices(doc: dict) -> str:
    """The device table from a status snapshot (a running table's file, or this process's own host)."""
    health = {h["name"]: h for h in doc["devices"]}
    paired = doc.get("paired", [])
    lines = [f"{'device':<12} {'kind':<8} {'seat':>4} {'state':<7} {'batt':>5} {'link':>4} {'rssi':>5} "
             f"{'sync':>9} {'drift ppm':>9} {'uptime':>7} {'params':>6} {'events':>6} {'dup':>4} {'traces':>6}"]
    names = ["receiver"] + [p["name"] for p in paired]
    for name in names:
        h = health.get(name)
        if h is None:
            kind = next((p["kind"] for p in paired if p["name"] == name), "receiver")
            lines.append(f"{name:<12} {kind:<8} {'':>4} {'unseen':<7}")
            continue
        batt = f"{h['battery_pct']}%" if h.get("battery_pct") is not None else \
            ("usb" if h.get("battery_mv") is None else "?")
        seat = "" if h.get("seat") is None else h["seat"]
        params = "" if h.get("params_version") is None else str(h["params_version"])
        if h.get("config_state") in ("pushing", "rejected"):
            params += "*" if h["config_state"] == "pushing" else "!"
        lines.append(f"{h['name']:<12} {h['kind']:<8} {seat:>4} {'online' if h['online'] else 'offline':<7} "
                     f"{batt:>5} {'' if h.get('link_pct') is None else h['link_pct']:>4} "
                     f"{'' if h.get('rssi_dbm') is None else h['rssi_dbm']:>5} {_fmt_sync(h):>9} "
                     f"{h['drift_ppm'] if h.get('synced') else 0.0:>9.1f} {_fmt_uptime(h.get('uptime_s')):>7} "
                     f"{params:>6} {h['events']:>6} {h['duplicates']:>4} {h.get('traces', 0):>6}")
    c = doc["counters"]
    lines.append("dropped: " + ", ".join(f"{k} {c.get(k, 0)}" for k in ("corrupt", "oversize", "malformed",
                                                                       "duplicate", "unpaired", "stale")))
    for mac, n in sorted(doc.get("unpaired", {}).items()):
        lines.append(f"unpaired device on the air: {mac} ({n} frames)")
    if doc.get("config_version") is not None:
        lines.append(f"parameter file version {doc['config_version']} (* still pushing, ! rejected)")
    return "\n".join(lines)


def _own_snapshot(args: argparse.Namespace, store: PairingStore) -> tuple[dict | None, str]:
    host = DeviceHost(args.port or default_port(), store, status_path=None).start()
    try:
        time.sleep(max(0.0, args.wait))
        if not host.link.connected:
            return None, f"receiver {host.link.url} not open: {host.link.last_open_error}"
        with host._lock:
            return host._status_snapshot(), ""
    finally:
        host.stop()


def cmd_devices(args: argparse.Namespace) -> int:
    """Health of every device: from the running table's published status, else from the receiver itself.

    ``--port`` opens the receiver (it must be free); ``--status`` reads only the status file; with neither, the
    default status file is read if a live table wrote it, and the default receiver is opened otherwise.
    """
    status = args.status if args.status is not None else default_status_path()
    shown = 0
    while True:
        try:
            if args.port is not None and args.status is None:
                raise StatusError("--port given: reading the receiver itself")
            doc = read_status(status)
            where = f"(from the running table, {status})"
        except (StatusError, ValueError, RecursionError, TypeError) as exc:
            if args.status is not None or (args.watch and args.port is None):
                print(f"burrito-table devices: {_named(status, exc)}", file=sys.stderr)
                return 1
            try:
                store = _store(args.pairings)
            except PairingError as perr:
                print(f"burrito-table devices: {perr}", file=sys.stderr)
                return 2
            own, err = _own_snapshot(args, store)
            if own is None:
                print(f"burrito-table devices: {err}", file=sys.stderr)
                return 1
            doc, where = own, f"(receiver {own['port']})"
        if args.watch and sys.stdout.isatty():
            print("\x1b[H\x1b[2J", end="")
        try:
            table = render_devices(doc)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise Refusal(f"{status}: not a device status this version reads ({type(exc).__name__}: "
                          f"{brief(str(exc), 60)[1:-1]})") from None
        print(table)
        print(where, flush=True)
        shown += 1
        if not args.watch or (args.count is not None and shown >= args.count):
            return 0
        try:
            time.sleep(max(0.1, args.interval))
        except KeyboardInterrupt:
            return 0


def cmd_pair(args: argparse.Namespace) -> int:
    try:
        store = _store(args.pairings)
    except PairingError as exc:
        print(f"burrito-table pair: {exc}", file=sys.stderr)
        return 2
    host = DeviceHost(args.port or default_port(), store).start()
    try:
        host.open_pairing(args.seat, args.timeout)
        print(f"shake the burrito or badge for seat {args.seat} now ({args.timeout:.0f} s)")
        p = host.wait_paired(args.timeout)
        if p is None:
            print(f"burrito-table pair: no unpaired device moved within {args.timeout:.0f} s", file=sys.stderr)
            return 1
        print(f"paired {p.name} ({p.mac}) to seat {p.seat}; saved in {store.path}")
        return 0
    finally:
        host.stop()


def _load_script(path: Path) -> list[tuple[float, str, str, float | None]]:
    """The --script file: one JSON object a line; ValueError naming the file and line for anything else."""
    try:
        with path.open("rb") as f:
            data = f.read(64 * 1024 * 1024 + 1)
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ValueError(f"{path}: is a folder, not a script") from None
    if len(data) > 64 * 1024 * 1024:
        raise ValueError(f"{path}: more than 64 MB, not a script")
    rows = []
    for no, raw in enumerate(data.split(b"\n"), 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"{path}:{no}: not UTF-8 text (byte {exc.start})") from None
        if not line.strip():
            continue
        try:
            obj = loads(line, f"{path}:{no}")
        except FileProblem as exc:
            raise ValueError(str(exc)) from None
        rows.append(_script_row(obj, f"{path}:{no}"))
    return rows


def _script_row(obj: object, where: str) -> tuple[float, str, str, float | None]:
    if not isinstance(obj, dict):
        raise ValueError(f'{where}: expected {{"t", "device", "kind"}}, not {type(obj).__name__}')
    t, dev, kind, peak = obj.get("t"), obj.get("device"), obj.get("kind"), obj.get("peak_g")
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 <= t <= 86400:
        raise ValueError(f'{where}: "t" must be seconds 0-86400 from the start, not {brief(t)}')
    if not isinstance(dev, str):
        raise ValueError(f'{where}: "device" must be a device name, not {brief(dev)}')
    if kind not in proto.EVENT_KINDS:
        raise ValueError(f"{where}: unknown kind {brief(kind)}")
    if peak is not None and (isinstance(peak, bool) or not isinstance(peak, (int, float)) or not 0 <= peak <= 1000):
        raise ValueError(f'{where}: "peak_g" must be a number 0-1000 g, not {brief(peak)}')
    return float(t), dev, str(kind), None if peak is None else float(peak)


def cmd_virtual_table(args: argparse.Namespace) -> int:
    from firmware_bridge.virtual import VirtualTable

    try:
        script = _load_script(args.script) if args.script else []
        store = _store(args.pairings) if args.pairings else None
    except (ValueError, OSError) as exc:
        raise Refusal(str(exc)) from None
    vt = VirtualTable(link=args.link)
    for _ in range(args.burritos):
        vt.add("burrito")
    for _ in range(args.badges):
        vt.add("badge")
    unknown = sorted({d for _, d, _, _ in script} - set(vt.devices))
    if unknown:
        raise Refusal(f"{args.script}: unknown device {brief(unknown[0])}; this table has {', '.join(vt.devices)}")
    if store is not None:
        vt.pair_all(store)
    try:
        vt.start()
    except OSError as exc:
        raise Refusal(f"{exc.filename or args.link or 'pty'}: cannot start: {exc.strerror or exc}",
                      EXIT_ENVIRONMENT) from None
    print(f"virtual receiver on {vt.path} with {', '.join(vt.devices)}", flush=True)
    try:
        vt.play_script(script)
        end = None if args.seconds is None else time.monotonic() + args.seconds
        while end is None or time.monotonic() < end:
            time.sleep(0.1)
    except KeyboardInterrupt:
        pass
    finally:
        vt.stop()
    return 0


def cmd_traces_record(args: argparse.Namespace) -> int:
    from firmware_bridge.host.tracestore import record

    trace_dir = args.traces if args.traces is not None else default_trace_dir()
    if args.out.exists() and not args.out.is_dir():
        raise Refusal(f"{args.out}: not a folder (--out is the folder for the labelled recordings)")
    if trace_dir.is_dir():
        _check_trace_files(trace_dir)
    try:
        summary = record(args.journal, trace_dir, args.out, args.game)
    except TraceStoreError as exc:
        raise Refusal(str(exc)) from None
    except OSError as exc:
        raise Refusal(f"{exc.filename or args.out}: cannot write: {exc.strerror or exc}", EXIT_ENVIRONMENT) from None
    except (ValueError, RecursionError) as exc:  # a journal event the store's reader could not take
        raise Refusal(f"{args.journal}: {brief(str(exc), 80)[1:-1]}") from None
    for g, t0 in sorted(summary.games.items()):
        if t0 is None:
            print(f"game {g}: no trace holds an event of a device its calls name (were traces fetched during it?)")
    print(f"{len(summary.written)} labelled recordings ({summary.labels} labels) in {args.out} from "
          f"{summary.traces} traces; {summary.unlabelled} covered by no call, {summary.unsynced} without clock sync")
    return 0


def _check_trace_files(trace_dir: Path) -> None:
    """Every fetched trace parses as JSON this program takes, before the store reads them: its reader names the
    file for a bad field but lets nesting past the recursion limit or a 5,000-digit number through."""
    for p in sorted(trace_dir.glob("*.json")):
        try:
            read_json(p)
        except FileProblem as exc:
            raise Refusal(str(exc), exc.exit_status) from None


def _push_report(names: list[str], report: dict[str, tuple[int | None, str]], version: int,
                 params: Path, timeout: float) -> int:
    for name in names:
        running, state = report.get(name, (None, "unseen"))
        print(f"{name:<12} runs version {'?' if running is None else running:<5} {state or 'unseen'}")
    states = [report.get(n, (None, "unseen"))[1] for n in names]
    if "rejected" in states:
        raise Refusal(f"{params}: a device rejected version {version} (a parameter name its firmware does not "
                      "know)")
    late = [n for n, s in zip(names, states) if s != "applied"]
    if late:
        raise Refusal(f"{params}: {len(late)} of {len(names)} devices did not report version {version} within "
                      f"{timeout:g} s ({', '.join(late[:4])}{'...' if len(late) > 4 else ''})", EXIT_ENVIRONMENT)
    return 0


def _push_through_table(args: argparse.Namespace, version: int, doc: dict) -> int:
    """The table owns the receiver: install the file where its host watches, then follow its published status."""
    dest = doc.get("params_path")
    if not isinstance(dest, str) or not dest:
        raise Refusal(f"the running table's status names no parameter file: {brief(dest)}", EXIT_ENVIRONMENT)
    try:
        install_params(args.params, Path(dest))
    except FileProblem as exc:
        raise Refusal(str(exc), exc.exit_status) from None
    print(f"installed as {dest}; the running table pushes it")
    status = args.status if args.status is not None else default_status_path()
    names = [str(p.get("name")) for p in doc.get("paired", []) if isinstance(p, dict)]
    end = time.monotonic() + args.timeout
    report: dict[str, tuple[int | None, str]] = {}
    while time.monotonic() < end:
        time.sleep(0.2)
        try:
            doc = read_status(status)
        except (StatusError, ValueError, RecursionError):
            continue
        if doc.get("config_version") != version:
            continue
        report = {h["name"]: (h.get("params_version"), h.get("config_state", "")) for h in doc["devices"]
                  if isinstance(h, dict) and isinstance(h.get("name"), str)}
        if all(report.get(n, (None, ""))[1] in ("applied", "rejected") for n in names):
            break
    return _push_report(names, report, version, args.params, args.timeout)


def cmd_traces_push(args: argparse.Namespace) -> int:
    """Push a parameter file: through the running table if one publishes its status, else over the receiver."""
    try:
        version, params = load_params(args.params)
    except ValueError as exc:
        raise Refusal(str(exc)) from None
    if args.port is None:
        try:
            doc = read_status(args.status if args.status is not None else default_status_path())
        except (StatusError, ValueError, RecursionError) as exc:
            if args.status is not None:
                raise Refusal(_named(args.status, exc), EXIT_ENVIRONMENT) from None
        else:
            if doc.get("params_path"):
                return _push_through_table(args, version, doc)
            raise Refusal(f"the running table (pid {doc.get('pid')}) watches no parameter file; stop it or start "
                          f"it with one ({default_params_path()})", EXIT_ENVIRONMENT)
    try:
        store = _store(args.pairings)
    except PairingError as exc:
        raise Refusal(str(exc)) from None
    if not store.all():
        raise Refusal(f"{store.path}: no paired device to push to (pair one with `burrito-table pair`)")
    host = DeviceHost(args.port or default_port(), store, status_path=None).start()
    try:
        host.push_config(version, params)
        end = time.monotonic() + args.timeout
        report: dict[str, tuple[int | None, str]] = {}
        while time.monotonic() < end:
            time.sleep(0.1)
            report = host.config_report()
            if all(report.get(p.name, (None, ""))[1] in ("applied", "rejected") for p in store.all()):
                break
        if not host.link.connected:
            raise Refusal(f"receiver {host.link.url} not open: {host.link.last_open_error}", EXIT_ENVIRONMENT)
        return _push_report([p.name for p in store.all()], report, version, args.params, args.timeout)
    finally:
        host.stop()


def _named(path: Path, exc: BaseException) -> str:
    """A reader's message with the file named once, whichever way the reader worded it."""
    text = brief(str(exc), 200)[1:-1]
    return text if str(path) in text else f"{path}: {text}"
