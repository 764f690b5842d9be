"""Subcommands for the device link: ``devices``, ``pair`` and ``virtual-table``.

Wire in with ``firmware_bridge.host.commands.add_commands(subparsers)`` (from ``firmware_bridge/cli.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from firmware_bridge.firmware import proto
from firmware_bridge.host.host import DeviceHost
from firmware_bridge.host.pairing import PairingError, PairingStore

#: Espressif's native USB serial (ESP32-S3 / ESP32-C3); override with --port or BURRITO_RECEIVER.
DEFAULT_PORT = "hwgrep://303a:1001"


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
    p = subparsers.add_parser("devices", help="list burritos, badges and the receiver with their health")
    _common(p)
    p.add_argument("--wait", type=float, default=3.0, help="seconds to listen before printing (default 3)")
    p.set_defaults(func=cmd_devices)

    p = subparsers.add_parser("pair", help="pair the next burrito or badge that is shaken to a seat")
    _common(p)
    p.add_argument("--seat", type=int, required=True, help="seat number the device belongs to")
    p.add_argument("--timeout", type=float, default=15.0, help="seconds to wait for a shake (default 15)")
    p.set_defaults(func=cmd_pair)

    p = subparsers.add_parser("virtual-table", help="run virtual burritos, badges and receiver on a pty")
    p.add_argument("--burritos", type=int, default=2)
    p.add_argument("--badges", type=int, default=4)
    p.add_argument("--link", type=Path, default=None, help="symlink to keep pointing at the pty (e.g. /tmp/ttyBT)")
    p.add_argument("--pairings", type=Path, default=None, help="also pair the virtual devices into this file")
    p.add_argument("--script", type=Path, default=None,
                   help='JSON lines {"t": s, "device": "burrito-1", "kind": "launch", "peak_g": 2.0}')
    p.add_argument("--seconds", type=float, default=None, help="stop after this long (default: until Ctrl-C)")
    p.set_defaults(func=cmd_virtual_table)


def _store(path: Path | None) -> PairingStore:
    return PairingStore(path if path is not None else default_pairings())


def cmd_devices(args: argparse.Namespace) -> int:
    try:
        store = _store(args.pairings)
    except PairingError as exc:
        print(f"burrito-table devices: {exc}", file=sys.stderr)
        return 2
    host = DeviceHost(args.port or default_port(), store).start()
    try:
        time.sleep(max(0.0, args.wait))
        if not host.link.connected:
            print(f"burrito-table devices: receiver {host.link.url} not open: {host.link.last_open_error}",
                  file=sys.stderr)
            return 1
        health = {h.name: h for h in host.health()}
        print(f"{'device':<12} {'kind':<8} {'seat':>4} {'state':<7} {'batt':>6} {'link':>5} {'rssi':>5} "
              f"{'offset ms':>12} {'drift ppm':>9} {'events':>6} {'dup':>4}")
        names = ["receiver"] + [p.name for p in store.all()]
        for name in names:
            h = health.get(name)
            if h is None:
                kind = next((p.kind for p in store.all() if p.name == name), "receiver")
                print(f"{name:<12} {kind:<8} {'':>4} {'unseen':<7}")
                continue
            batt = f"{h.battery_pct}%" if h.battery_pct is not None else ("usb" if h.battery_mv is None else "?")
            off = f"{h.offset_us / 1000:.3f}" if h.synced else "unsynced"
            print(f"{h.name:<12} {h.kind:<8} {'' if h.seat is None else h.seat:>4} "
                  f"{'online' if h.online else 'offline':<7} {batt:>6} "
                  f"{'' if h.link_pct is None else h.link_pct:>5} {'' if h.rssi_dbm is None else h.rssi_dbm:>5} "
                  f"{off:>12} {h.drift_ppm:>9.1f} {h.events:>6} {h.duplicates:>4}")
        c = host.counters
        print("dropped: " + ", ".join(f"{k} {c[k]}" for k in ("corrupt", "oversize", "malformed", "duplicate",
                                                            "unpaired")))
        for mac, n in sorted(host.unpaired_seen.items()):
            print(f"unpaired device on the air: {mac} ({n} frames)")
        return 0
    finally:
        host.stop()


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
    rows = []
    with path.open(encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                t, dev, kind = float(obj["t"]), str(obj["device"]), str(obj["kind"])
                peak = obj.get("peak_g")
                peak = None if peak is None else float(peak)
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"{path}:{no}: expected {{\"t\", \"device\", \"kind\"}}: {exc}") from None
            if kind not in proto.EVENT_KINDS:
                raise ValueError(f"{path}:{no}: unknown kind {kind!r}")
            rows.append((t, dev, kind, peak))
    return rows


def cmd_virtual_table(args: argparse.Namespace) -> int:
    from firmware_bridge.virtual import VirtualTable

    try:
        script = _load_script(args.script) if args.script else []
        store = PairingStore(args.pairings) if args.pairings else None
    except (ValueError, OSError) as exc:
        print(f"burrito-table virtual-table: {exc}", file=sys.stderr)
        return 2
    vt = VirtualTable(link=args.link)
    for _ in range(args.burritos):
        vt.add("burrito")
    for _ in range(args.badges):
        vt.add("badge")
    unknown = sorted({d for _, d, _, _ in script} - set(vt.devices))
    if unknown:
        print(f"burrito-table virtual-table: {args.script}: unknown device {unknown[0]!r}", file=sys.stderr)
        return 2
    if store is not None:
        vt.pair_all(store)
    vt.start()
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
