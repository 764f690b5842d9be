"""The venue's background parts never die silently: the publisher's sending loop ("venue publisher"), its device
health loop ("venue device health") and attract mode's stats fold ("table stats") run under
``firmware_bridge.supervise.Supervised``. An exception injected into each loop is logged once, the part restarts,
and the table goes on: a later game still reaches the venue, a later health report still goes out, the stats slide
still gets its report."""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import game.stats
from firmware_bridge import supervise
from firmware_bridge.host.host import DeviceHealth
from game.journal import Journal
from game.venue.publisher import Publisher
from game.venue.screen import StatsLoader
from game.venue.service import VenueService, VenueStore
from tests.mosquitto import Mosquitto
from tests.test_stats import demo, record_game
from tests.test_venue_mqtt import TablePlayer, wait_for


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    b = Mosquitto(tmp_path / "broker").start()
    yield b
    b.stop()


class FailsOnce(OrderedDict[Any, Any]):
    """The publisher's queue, failing once when the sending loop takes from it (outside any one message's own
    error handling: the loop itself fails)."""

    failed = False

    def popitem(self, last: bool = True) -> tuple[Any, Any]:
        if not self.failed:
            self.failed = True
            raise RuntimeError("injected: the sending loop fails")
        return super().popitem(last)


def test_the_publisher_restarts_after_its_loop_fails_and_a_later_game_still_reaches_the_venue(
        tmp_path: Path, broker: Mosquitto, caplog: pytest.LogCaptureFixture) -> None:
    store = VenueStore(str(tmp_path / "venue.db"))
    svc = VenueService(broker.url, store, "cantina", client_id="venue-parts").start()
    assert svc.connected.wait(5)
    journal = Journal(str(tmp_path / "table.db"))
    pub = Publisher(broker.url, "cantina", "t1").start()
    try:
        TablePlayer(journal, pub).play()
        wait_for(lambda: store.report()["games_finished"] == 1, what="the first game")
        with pub._lock:
            pub._pending = FailsOnce(pub._pending)
        with caplog.at_level(logging.ERROR):
            TablePlayer(journal, pub, "zombie-burrito").play()  # the loop fails on this game's first message
            wait_for(lambda: store.report()["games_finished"] == 2, timeout=15, what="the game after the failure")
        assert pub._pending.failed
        failures = [r for r in caplog.records if "injected: the sending loop fails" in r.getMessage()]
        assert len(failures) == 1 and "venue publisher failed" in failures[0].getMessage()
        assert [p.failures for p in supervise.parts() if p.name == "venue publisher"] == [1]
    finally:
        pub.stop()
        svc.stop()
        journal.close()
        store.close()


def _health(name: str = "burrito-1", battery: int = 77) -> DeviceHealth:
    return DeviceHealth(name=name, mac="02:00:00:00:00:01", kind="burrito", seat=None, online=True, last_seen=0.0,
                        firmware="1", battery_mv=3900, battery_pct=battery, link_pct=90, rssi_dbm=-50, synced=True,
                        offset_us=0.0, drift_ppm=0.0, sync_samples=1, sync_rejected=0, rtt_us=None, events=0,
                        duplicates=0, deferred=0, malformed=0, device_pending=0, device_gave_up=0)


def test_device_health_that_fails_is_logged_once_and_retried_until_it_reports(
        tmp_path: Path, broker: Mosquitto, caplog: pytest.LogCaptureFixture) -> None:
    """The device host's health failing twice in a row (a receiver unplugged and back): one log line, not one a
    second, and the report still reaches the venue once it answers."""
    store = VenueStore(str(tmp_path / "venue.db"))
    svc = VenueService(broker.url, store, "cantina", client_id="venue-health").start()
    assert svc.connected.wait(5)
    pub = Publisher(broker.url, "cantina", "t2").start()
    calls: list[float] = []

    def health() -> list[DeviceHealth]:
        calls.append(time.monotonic())
        if len(calls) <= 2:
            raise RuntimeError("injected: the receiver is gone")
        return [_health()]

    try:
        with caplog.at_level(logging.ERROR):
            pub.watch_devices(health)
            wait_for(lambda: any(d["device"] == "burrito-1" for t in store.tables() for d in t["devices"]),
                     timeout=15, what="the device's health at the venue")
        lines = [r for r in caplog.records if "injected: the receiver is gone" in r.getMessage()]
        assert len(lines) == 1, [r.getMessage() for r in lines]
        assert [p.failures for p in supervise.parts() if p.name == "venue device health"] == [2]
    finally:
        pub.stop()
        svc.stop()
        store.close()


def test_the_table_stats_fold_that_fails_once_is_tried_again_and_the_slide_gets_its_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A fold that raises something unexpected (a plugin game's rules, a bug): today the thread ended and attract
    mode never showed the table's stats until the table restarted."""
    path = str(tmp_path / "j.db")
    with Journal(path) as j:
        record_game(j, *demo("throw-throw-burrito"))
    real = game.stats.journal_records
    tries: list[int] = []

    def flaky(p: str, *args: Any) -> Any:
        tries.append(1)
        if len(tries) == 1:
            raise KeyError("injected: the fold fails")
        return real(p, *args)

    monkeypatch.setattr(game.stats, "journal_records", flaky)
    with caplog.at_level(logging.ERROR):
        loader = StatsLoader(path).start()
        try:
            assert loader.wait(10)
            assert loader.report is not None and {p["name"] for p in loader.report["players"]} == {"Ana", "Bo", "Cy"}
        finally:
            loader.stop()
    assert len(tries) == 2
    assert [r.getMessage() for r in caplog.records if "injected" in r.getMessage()][0].startswith("table stats failed")
