"""The device subcommands (firmware_bridge/host/commands.py) against a virtual table in another process."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.host import DeviceHost, PairingStore, commands
from firmware_bridge.virtual import VirtualTable


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    commands.add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def virtual_table_process(link: Path, pairings: Path, burritos: int = 1, badges: int = 1,
                          seconds: float = 8) -> subprocess.Popen:
    """``burrito-table virtual-table`` in its own process, as a user would run it next to the table."""
    proc = subprocess.Popen([sys.executable, "-c", "from firmware_bridge.host.commands import *; import sys; "
                             "sys.exit(cmd_virtual_table(__import__('argparse').Namespace("
                             f"burritos={burritos}, badges={badges}, "
                             f"link=__import__('pathlib').Path({str(link)!r}), "
                             f"pairings=__import__('pathlib').Path({str(pairings)!r}), script=None, "
                             f"seconds={seconds})))"],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and "virtual receiver on" in proc.stdout.readline()
    return proc


def test_devices_lists_health_of_virtual_devices(tmp_path: Path, capsys) -> None:
    """--port opens the receiver itself. Clock sync is shown as its error bound and the device's uptime, never as
    the raw device-minus-host offset (which is the device's boot time against the Pi's: hundreds of millions of ms)."""
    link, pairings = tmp_path / "rx", tmp_path / "p.json"
    proc = virtual_table_process(link, pairings)
    try:
        assert run(["devices", "--port", str(link), "--pairings", str(pairings), "--wait", "2"]) == 0
        out = capsys.readouterr().out
        assert "burrito-1" in out and "badge-1" in out and "online" in out and "unseen" not in out
        assert "dropped: corrupt 0" in out
        rows = [line for line in out.splitlines() if line.startswith(("burrito-1", "badge-1", "receiver"))]
        assert len(rows) == 3
        for row in rows:
            assert re.search(r"±\d+\.\d ms", row), row
            assert not re.search(r"\d{7,}", row), row  # no raw offsets
            assert re.search(r"\d+d\d\dh|\d+h\d\dm|\d+m\d\ds", row), row  # uptime
    finally:
        proc.terminate()
        proc.wait(5)


def test_virtual_table_pairs_badge_n_at_seat_n_so_a_table_maps_every_badge(tmp_path: Path) -> None:
    """A table fed by virtual-table maps its badges by the pairing's seat (as ``play`` builds its device map):
    badge-N is worn at seat N; burritos belong to no seat."""
    link, pairings = tmp_path / "rx", tmp_path / "p.json"
    proc = virtual_table_process(link, pairings, burritos=2, badges=4, seconds=2)
    try:
        store = PairingStore(pairings)
        badges = {p.name: p.seat for p in store.all() if p.kind == "badge" and p.seat}
        assert badges == {"badge-1": 1, "badge-2": 2, "badge-3": 3, "badge-4": 4}
        assert [p.seat for p in store.all() if p.kind == "burrito"] == [None, None]
    finally:
        proc.terminate()
        proc.wait(5)


@pytest.fixture
def running_table(tmp_path: Path) -> Iterator[tuple[VirtualTable, DeviceHost, Path, Path]]:
    """A table process stand-in: a DeviceHost that owns the pty and publishes its status file."""
    vt = VirtualTable(link=tmp_path / "tty", seed=4)
    vt.add("burrito")
    vt.add("badge")
    store = PairingStore(tmp_path / "p.json")
    vt.pair_all(store)
    vt.start()
    status = tmp_path / "status.json"
    host = DeviceHost(vt.path, store, status_path=status).start()
    end = time.monotonic() + 10
    while not (status.exists() and len(json.loads(status.read_text())["devices"]) == 3
               and all(h.synced for h in host.health())):
        assert time.monotonic() < end, "the host never published a synced status"
        time.sleep(0.05)
    yield vt, host, status, tmp_path / "p.json"
    host.stop()
    vt.stop()


def test_devices_reads_the_running_tables_status_without_touching_its_port(running_table, capsys) -> None:
    """While the table owns the receiver, ``devices`` shows the health the table's DeviceHost publishes; the port
    stays the table's (no reconnect, no second open)."""
    _vt, host, status, _ = running_table
    assert run(["devices", "--status", str(status)]) == 0
    out = capsys.readouterr().out
    assert "burrito-1" in out and "badge-1" in out and "unseen" not in out and "from the running table" in out
    assert host.link.connects == 1 and host.counters["reconnects"] == 0


def test_devices_watch_reprints_from_the_status_file(running_table, capsys) -> None:
    _vt, _host, status, _ = running_table
    t0 = time.monotonic()
    assert run(["devices", "--status", str(status), "--watch", "--interval", "0.3", "--count", "3"]) == 0
    assert time.monotonic() - t0 >= 0.6
    assert capsys.readouterr().out.count("from the running table") == 3


def test_a_status_file_whose_writer_is_gone_is_refused_in_one_line(tmp_path: Path, capsys) -> None:
    """A table that crashed leaves its status behind: it is not shown as live (exit 1, the file named)."""
    status = tmp_path / "status.json"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    status.write_text(json.dumps({"version": 1, "pid": int(dead.stdout), "written": time.time(), "devices": [],
                                  "counters": {}}))
    assert run(["devices", "--status", str(status)]) == 1
    err = capsys.readouterr().err
    assert str(status) in err and "gone" in err and err.count("\n") == 1
    assert os.path.exists(status)


def test_bad_pairing_file_exits_2_with_one_line(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "p.json"
    bad.write_text("[1, 2")
    assert run(["pair", "--seat", "1", "--port", str(tmp_path / "none"), "--pairings", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and err.count("\n") == 1


def test_virtual_table_script_errors_name_the_line(tmp_path: Path, capsys) -> None:
    script = tmp_path / "s.jsonl"
    script.write_text('{"t": 0, "device": "burrito-1", "kind": "launch"}\n{"t": "x"}\n')
    assert run(["virtual-table", "--script", str(script), "--seconds", "0"]) == 2
    assert f"{script}:2:" in capsys.readouterr().err
