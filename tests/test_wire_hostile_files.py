"""The table's device host reads the pairing file and `devices` reads the status file directly: hostile JSON in
either is one error naming the file, never a RecursionError or a ValueError from deep inside the parser."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from firmware_bridge.host.pairing import PairingError, PairingStore
from firmware_bridge.host.status import StatusError, read_status

HOSTILE = {
    "deep": b"[" * 100_000 + b"]" * 100_000,
    "huge number": b'{"version": 1, "devices": [], "n": ' + b"9" * 5000 + b"}",
    "nan": b'{"version": 1, "devices": [], "n": NaN}',
    "not utf-8": b'{"version": 1, "devices": []}\xff',
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_pairing_file_is_one_pairing_error_naming_it(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "pairings.json"
    path.write_bytes(HOSTILE[kind])
    with pytest.raises(PairingError) as err:
        PairingStore(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_status_file_is_one_status_error_naming_it(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "devices.json"
    path.write_bytes(HOSTILE[kind])
    with pytest.raises(StatusError) as err:
        read_status(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_a_status_file_whose_time_is_not_a_number_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "devices.json"
    path.write_text(json.dumps({"version": 1, "devices": [], "written": "soon", "pid": os.getpid()}))
    with pytest.raises(StatusError, match="written"):
        read_status(path)
    path.write_text(json.dumps({"version": 1, "devices": [], "written": time.time(), "pid": os.getpid()}))
    read_status(path)


def test_pairing_under_a_name_another_device_holds_keeps_the_file_readable(tmp_path: Path) -> None:
    """`virtual-table --pairings` pairs its devices by name into a store that may hold other devices of the same
    names: the file written must be one the reader takes (a name is one device)."""
    path = tmp_path / "pairings.json"
    path.write_text(json.dumps({"version": 1, "devices": [
        {"mac": "02:00:00:00:00:11", "kind": "badge", "name": "badge-1", "seat": 1}]}))
    store = PairingStore(path)
    store.pair(bytes.fromhex("02b077020001"), "badge", 1, name="badge-1")
    again = PairingStore(path)
    assert [(p.mac, p.name) for p in again.all()] == [("02:b0:77:02:00:01", "badge-1")]
