"""End to end: a simulated battle over virtual devices -- traces through the real detector, the real protocol on a pty,
the real DeviceHost -- then the referee, then the rules engine hands the bruise to the right seat."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator

import pytest

from firmware_bridge.host import DeviceHost, PairingStore
from firmware_bridge.virtual import Radio, VirtualTable
from game.log import Table
from game.referee import Referee
from game.referee.battlesim import BADGES, BURRITOS, play_on_virtual_table


@pytest.fixture
def devices(tmp_path) -> Iterator[tuple[VirtualTable, DeviceHost]]:
    vt = VirtualTable(link=tmp_path / "ttyREF", radio=Radio(delay_ms=(1, 6), loss=0.05, spike_p=0.02), seed=11)
    for name in BURRITOS:
        vt.add("burrito", name)
    for name in BADGES:
        vt.add("badge", name)
    store = PairingStore(tmp_path / "pairings.json")
    vt.pair_all(store)
    vt.start()
    host = DeviceHost(vt.path, store, offline_after_s=3.0).start()
    end = time.monotonic() + 15
    while not all(h.synced for h in host.health() if h.kind != "receiver") or len(host.health()) < 7:
        assert time.monotonic() < end, "virtual devices never synced"
        try:
            host.events.get(timeout=0.05)
        except queue.Empty:
            pass
    yield vt, host
    host.stop()
    vt.stop()


def _duel(t: float) -> tuple[Referee, Table]:
    """Seat 3 declares a Duel and picks seats 1 and 2."""
    ref = Referee(4, BURRITOS, BADGES)
    table, _ = Table.start({"event": "setup", "game": "throw-throw-burrito", "seats": 4})
    table.apply(table.check({"t": t, "event": "declare", "seat": 3, "battle": "duel"}))
    table.apply(table.check({"t": t + 0.01, "event": "pick", "seat": 3, "players": [1, 2]}))
    ref.context(True, frozenset({1, 2}), t)
    return ref, table


def test_hit_over_virtual_devices_gives_the_bruise_to_the_seat_whose_badge_was_hit(devices) -> None:
    """Burrito trace + badge trace meeting at one instant -> detector impacts on both -> host on table time ->
    referee calls a hit on seat 2 from the two impacts (gap inside the measured window) -> rules: seat 2 loses."""
    vt, host = devices
    ref, table = _duel(time.monotonic())
    out = play_on_virtual_table(vt, host, ref, table, "burrito-1", "badge-2", seed=5)
    hits = [c for c in out["calls"] if c.get("event") == "hit"]
    assert len(hits) == 1, out["calls"]
    ev = hits[0]["evidence"]
    assert hits[0]["seat"] == 2 and ev["badge_device"] == "badge-2" and abs(ev["gap_ms"]) < 10
    assert abs(hits[0]["t"] - out["contact_t"]) < 0.01  # stamped at the contact, not on arrival
    table.finish()
    assert table.summary()["battles"][0]["loser"] == 2
    assert table.summary()["rounds"][0]["bruises"] == {"1": 0, "2": 1, "3": 0, "4": 0}


def test_impact_no_badge_saw_over_virtual_devices_is_a_miss_and_nobody_is_bruised(devices) -> None:
    """The same throw with no badge pulse: a miss once the miss settle time has passed; the battle stays open."""
    vt, host = devices
    ref, table = _duel(time.monotonic())
    out = play_on_virtual_table(vt, host, ref, table, "burrito-2", None, seed=8)
    kinds = [c.get("event") for c in out["calls"]]
    assert "miss" in kinds and "hit" not in kinds, out["calls"]
    table.finish()
    assert table.summary()["rounds"][0]["bruises"] == {"1": 0, "2": 0, "3": 0, "4": 0}
