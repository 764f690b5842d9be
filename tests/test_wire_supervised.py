"""No wire thread dies silently: the virtual devices, the receiver link and the device host's tick loop are
supervised parts. An exception injected once into each loop is logged, the part restarts, and events flow again."""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Iterator

import pytest

from firmware_bridge import supervise
from firmware_bridge.host import DeviceEvent, DeviceHost, PairingStore
from firmware_bridge.virtual import Radio, VirtualTable


@pytest.fixture
def table(tmp_path) -> Iterator[tuple[VirtualTable, DeviceHost]]:
    vt = VirtualTable(link=tmp_path / "ttyBURRITO", radio=Radio(delay_ms=(1, 3)), seed=3)
    vt.add("burrito")
    store = PairingStore(tmp_path / "pairings.json")
    vt.pair_all(store)
    vt.start()
    host = DeviceHost(vt.path, store, offline_after_s=1.0, status_path=None).start()
    yield vt, host
    host.stop()
    vt.stop()


def arrives(vt: VirtualTable, host: DeviceHost, kind: str, timeout: float = 10.0) -> bool:
    """Emit ``kind`` on the burrito and wait for it to reach the host."""
    vt.emit("burrito-1", kind)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            ev = host.events.get(timeout=0.05)
        except queue.Empty:
            continue
        if isinstance(ev, DeviceEvent) and ev.kind == kind:
            return True
    return False


def once(fn, exc: Exception):
    """``fn`` that raises ``exc`` on its first call only."""
    calls = [0]

    def wrapped(*a, **k):
        calls[0] += 1
        if calls[0] == 1:
            raise exc
        return fn(*a, **k)

    return wrapped


def settle(vt: VirtualTable, host: DeviceHost) -> None:
    assert arrives(vt, host, "pickup"), "the table never worked"


def restarted(part: supervise.Supervised | None, name: str) -> None:
    assert part is not None and part.name == name
    assert part.wait_runs(2, timeout=5.0), f"{name} was not restarted"
    assert part.failures == 1 and "injected" in part.last_error
    assert any(p.name == name for p in supervise.parts())


def test_the_virtual_devices_loop_restarts_after_an_exception(table, monkeypatch, caplog) -> None:
    """An exception inside the virtual table's loop is logged once under "virtual devices"; the loop restarts and
    a burrito event emitted afterwards reaches the host."""
    vt, host = table
    settle(vt, host)
    with caplog.at_level(logging.ERROR, logger="firmware_bridge.supervise"):
        monkeypatch.setattr(vt, "_feed_traces", once(vt._feed_traces, RuntimeError("injected fault")))
        restarted(vt.part, "virtual devices")
    assert "virtual devices failed" in caplog.text
    assert arrives(vt, host, "impact")


def test_the_receiver_link_reader_restarts_after_an_exception(table, monkeypatch) -> None:
    """A read that raises what the reader does not expect (not a serial or OS error) restarts "receiver link"; the
    port stays open and events flow again."""
    vt, host = table
    settle(vt, host)
    ser = host.link._ser
    assert ser is not None
    monkeypatch.setattr(ser, "read", once(ser.read, LookupError("injected read fault")))
    restarted(host.link.part, "receiver link")
    assert arrives(vt, host, "launch")


def test_the_device_host_tick_loop_restarts_after_an_exception(table, monkeypatch) -> None:
    """A tick that raises restarts "device host": time sync and offline marking go on, and events flow."""
    vt, host = table
    settle(vt, host)
    monkeypatch.setattr(host, "tick", once(host.tick, ValueError("injected tick fault")))
    restarted(host.part, "device host")
    sent = host.counters["tsync_sent"]
    assert arrives(vt, host, "catch")
    time.sleep(0.6)
    assert host.counters["tsync_sent"] > sent  # the restarted tick loop still asks for time sync
