"""The table app publishes through the venue publisher: game start, each written event, device health, all reaching
a venue through a real mosquitto, while the loop runs on MockFactory pins and virtual devices."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from game.journal import Journal
from game.table.clock import SteppedClock
from game.table.loop import TableApp
from game.table.sim import open_sim, press
from game.venue.hook import attach_publisher
from game.venue.service import VenueService, VenueStore
from tests.mosquitto import Mosquitto
from tests.test_app_loop import run
from tests.test_venue_mqtt import wait_for

SETUP = {"event": "setup", "game": "throw-throw-burrito", "seats": 4, "options": {"seed": 3},
         "players": {"1": {"name": "Ana"}}}


def test_the_app_publishes_its_game_calls_and_device_health_to_the_venue(tmp_path: Path) -> None:
    broker = Mosquitto(tmp_path / "broker").start()
    store = VenueStore(str(tmp_path / "venue.db"))
    svc = VenueService(broker.url, store, "cantina").start()
    clock = SteppedClock()
    rig = open_sim(clock, seats=4)
    journal = Journal(str(tmp_path / "table.db"))
    app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], devices=rig.host,
                   device_map=rig.device_map)
    args = argparse.Namespace(broker=broker.url, venue="cantina", table="t7")
    publisher = attach_publisher(app, args, rig.host)
    assert publisher is not None
    try:
        app.start(SETUP)
        press(rig, 2, "SET", True)
        press(rig, 2, "SET", False)
        assert run(app, clock, 5.0, until=lambda: len(app.live.table.events) >= 1)  # type: ignore[union-attr]
        assert publisher.flush(10), publisher.stats()
        wait_for(lambda: store.report()["calls"] == 1 and store.tables()[0]["state"] == "playing",
                 what="the set at the venue")
        msgs = store.db.execute("SELECT kind, seq, body FROM messages ORDER BY seq").fetchall()
        assert [(k, s) for k, s, _ in msgs] == [("started", 0), ("call", 1)]
        started, call = (json.loads(b) for _, _, b in msgs)
        assert started["setup"]["players"] == {"1": {"name": "Ana"}} and started["v"] == 1
        assert call["event"]["event"] == "set" and call["event"]["seat"] == 2
        wait_for(lambda: len(store.tables()[0]["devices"]) >= 4, what="device health")
        kinds = {d["device_kind"] for d in store.tables()[0]["devices"]}
        assert {"burrito", "badge"} <= kinds
        # Home Assistant discovery: one retained battery sensor config per device, pointing at its health topic.
        configs: dict[str, dict[str, object]] = {}
        sub = mqtt.Client(CallbackAPIVersion.VERSION2)
        sub.on_message = lambda c, u, m: configs.__setitem__(m.topic, json.loads(m.payload))
        sub.connect("127.0.0.1", broker.port)
        sub.subscribe("homeassistant/sensor/+/config", qos=1)
        sub.loop_start()
        try:
            # every device announces itself, in whatever order its first health message went out
            wait_for(lambda: len(configs) >= 4 and any("badge_1" in t for t in configs), what="the discovery configs")
        finally:
            sub.loop_stop()
            sub.disconnect()
        badge = next(c for t, c in configs.items() if "badge_1" in t)
        assert badge["device_class"] == "battery" and badge["unit_of_measurement"] == "%"
        assert badge["state_topic"] == "burrito-table/cantina/t7/device/badge-1/health"
    finally:
        publisher.stop()
        svc.stop()
        rig.close()
        journal.close()
        store.close()
        broker.stop()


def test_without_broker_the_app_publishes_nothing_and_a_bad_url_is_a_clear_error(tmp_path: Path) -> None:
    assert attach_publisher(object(), argparse.Namespace(broker=None)) is None
    with pytest.raises(ValueError, match="only mqtt:// is supported"):
        attach_publisher(object(), argparse.Namespace(broker="https://example.org", venue="v", table="t"))
    with pytest.raises(ValueError, match="--table 'a/b'"):
        attach_publisher(object(), argparse.Namespace(broker="mqtt://127.0.0.1:1", venue="v", table="a/b"))


def test_play_with_a_bad_broker_url_exits_2_before_opening_anything(tmp_path: Path) -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run([sys.executable, "-m", "game", "play", "--sim", "--headless", "--journal",
                           str(tmp_path / "j.db"), "--broker", "https://example.org"],
                          capture_output=True, text=True, cwd=root, timeout=60)
    assert proc.returncode == 2 and "argument --broker" in proc.stderr and "only mqtt://" in proc.stderr
    assert not (tmp_path / "j.db").exists()
