"""Tables publishing to a real mosquitto and the venue keeping the leaderboard: delivery through broker restarts,
no duplicates, a table that cannot reach the broker, the bounded buffer, retained status and the last will."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from game.journal import Journal, JournaledTable
from game.stats import journal_records, report
from game.venue.publisher import Publisher
from game.venue.service import VenueService, VenueStore
from tests.mosquitto import Mosquitto, free_port

ROOT = Path(__file__).resolve().parent.parent
NAMES = {"1": {"name": "Ana"}, "2": {"name": "Bo"}, "4": {"name": "Cy"}}  # seat 3 stays anonymous


def demo_log(game: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(ln) for ln in (ROOT / "game/games" / game.replace("-", "_") / "data/demo.jsonl").read_text().splitlines() if ln.strip()]
    return dict(lines[0], players={k: v for k, v in NAMES.items() if int(k) <= lines[0]["seats"]}), lines[1:]


def wait_for(cond: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class TablePlayer:
    """A live table as the app runs one: every event journaled first, then the publisher told (the app's hook)."""

    def __init__(self, journal: Journal, publisher: Publisher, game: str = "throw-throw-burrito") -> None:
        self.setup, self.events = demo_log(game)
        self.journal, self.publisher = journal, publisher
        self.live, _ = JournaledTable.new(journal, self.setup)
        self.app = types.SimpleNamespace(live=self.live, journal=journal)
        self.done = 0
        self.slowest = 0.0
        self._tell()

    def _tell(self) -> None:
        t = time.perf_counter()
        self.publisher.table_changed(self.app)
        self.slowest = max(self.slowest, time.perf_counter() - t)

    def play(self, n: int | None = None) -> None:
        stop = len(self.events) if n is None else min(len(self.events), self.done + n)
        while self.done < stop:
            self.live.submit(self.events[self.done])
            self.done += 1
            self._tell()
        if self.done == len(self.events):
            self.live.finish()
            self._tell()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    b = Mosquitto(tmp_path / "broker").start()
    yield b
    b.stop()


@pytest.fixture
def venue(tmp_path: Path, broker: Mosquitto) -> Iterator[VenueService]:
    store = VenueStore(str(tmp_path / "venue.db"))
    svc = VenueService(broker.url, store, "cantina", client_id="venue-test").start()
    assert svc.connected.wait(5), "venue did not connect"
    yield svc
    svc.stop()
    store.close()


def finished(svc: VenueService, games: int = 1) -> Callable[[], bool]:
    return lambda: svc.store.report()["games_finished"] >= games


def test_a_game_reaches_the_venue_and_its_leaderboard_matches_the_tables_own_stats(tmp_path: Path, broker: Mosquitto,
                                                                                   venue: VenueService) -> None:
    journal = Journal(str(tmp_path / "table.db"))
    # A chain's head office, on the same broker: finished games and status only.
    office = VenueService(broker.url, VenueStore(str(tmp_path / "office.db")), client_id="office",
                          results_only=True).start()
    assert office.connected.wait(5)
    pub = Publisher(broker.url, "cantina", "t1").start()
    player = TablePlayer(journal, pub)
    player.play()
    assert pub.flush(10)
    wait_for(lambda: finished(venue)() and venue.store.tables()[0]["state"] == "idle",
             what="the ended game and the idle table at the venue")
    wait_for(finished(office), what="the ended game at the head office")
    assert office.store.report()["calls"] == 0 and office.store.leaderboard() == venue.store.leaderboard()
    office.stop()
    office.store.close()
    rep = venue.store.report()
    assert rep["calls"] == len(player.events)  # every journaled event, once
    local = report(journal_records(str(tmp_path / "table.db")))
    assert rep["leaderboard"] == local["players"]  # the same record, the same sums
    assert {p["name"] for p in rep["leaderboard"]} == {"Ana", "Bo", "Cy"}  # seat 3 anonymous
    (table,) = rep["tables"]
    assert table["table"] == "cantina/t1" and table["state"] == "idle" and table["games_finished"] == 1
    assert any("Winner: seat 4" in ln for ln in table["standings"])
    assert rep["counters"].get("duplicates", 0) == 0
    pub.stop()
    journal.close()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_broker_killed_mid_game_and_restarted_loses_nothing_and_venue_counts_have_no_duplicates(
        tmp_path: Path, broker: Mosquitto, venue: VenueService, sig: int) -> None:
    journal = Journal(str(tmp_path / "table.db"))
    pub = Publisher(broker.url, "cantina", "t1").start()
    player = TablePlayer(journal, pub)
    player.play(25)
    assert pub.flush(10)
    venue.stop()  # the venue is away too: its persistent session queues at the broker
    player.play(10)
    assert pub.flush(10)
    broker.stop(sig)
    player.play(20)  # the broker is down: buffered at the table, play goes on
    assert player.slowest < 0.1, "queueing must never wait for the network"
    assert pub.stats()["waiting"] > 0
    broker.start()
    venue.start()
    player.play()
    assert pub.flush(20), pub.stats()
    wait_for(finished(venue), 20, "the ended game after the restart")
    wait_for(lambda: venue.store.report()["calls"] == len(player.events), 10, "every call")
    rep = venue.store.report()
    assert pub.stats()["dropped"] == 0
    assert rep["games_finished"] == 1
    db = venue.store.db
    seqs = [s for (s,) in db.execute("SELECT seq FROM messages WHERE kind = 'call' ORDER BY seq")]
    assert seqs == list(range(1, len(player.events) + 1))  # none missing, none twice
    assert rep["leaderboard"] == report(journal_records(str(tmp_path / "table.db")))["players"]
    pub.stop()
    journal.close()


def test_a_resumed_table_republishes_its_game_and_the_venue_ignores_the_repeats(tmp_path: Path, broker: Mosquitto,
                                                                             venue: VenueService) -> None:
    journal = Journal(str(tmp_path / "table.db"))
    pub = Publisher(broker.url, "cantina", "t1").start()
    player = TablePlayer(journal, pub)
    player.play()
    assert pub.flush(10)
    wait_for(finished(venue))
    before = venue.store.report()
    pub.stop()
    # A restarted table process: a fresh publisher (same client id, same persistent session) sees the game anew.
    again = Publisher(broker.url, "cantina", "t1").start()
    again.table_changed(types.SimpleNamespace(live=JournaledTable.resume(journal, player.live.game_id),
                                              journal=journal))
    assert again.flush(10)
    # started + every call again (the resumed game is not finished until its open windows close).
    wait_for(lambda: venue.store.counters().get("duplicates", 0) == len(player.events) + 1,
             what=f"the repeats ({venue.store.counters()}, {again.stats()})")
    after = venue.store.report()
    assert after["leaderboard"] == before["leaderboard"] and after["calls"] == before["calls"]
    assert after["games_finished"] == 1
    again.stop()
    journal.close()


def test_a_table_that_cannot_reach_the_broker_at_start_plays_on_and_delivers_once_it_appears(tmp_path: Path) -> None:
    port = free_port()
    pub = Publisher(f"mqtt://127.0.0.1:{port}", "cantina", "t2").start()
    journal = Journal(str(tmp_path / "table.db"))
    player = TablePlayer(journal, pub, "taco-vs-burrito")
    player.play()
    assert player.slowest < 0.1, "a missing broker must not slow the table"
    st = pub.stats()
    assert not st["connected"] and st["acked"] == 0 and st["waiting"] == len(player.events) + 4
    broker = Mosquitto(tmp_path / "broker", port=port).start()
    store = VenueStore(str(tmp_path / "venue.db"))
    svc = VenueService(broker.url, store, "cantina").start()
    try:
        assert pub.flush(20), pub.stats()  # paho retries the first connection: no restart needed
        wait_for(finished(svc), what="the game at the venue")
        rep = store.report()
        assert rep["calls"] == len(player.events)
        no_bueno = {p["name"]: p["no_bueno_won"] for p in rep["leaderboard"]}
        assert sum(no_bueno.values()) > 0  # Taco vs Burrito's races reach the board
    finally:
        pub.stop()
        svc.stop()
        broker.stop()
        journal.close()
        store.close()


def test_the_buffer_is_bounded_and_counts_what_it_drops(tmp_path: Path) -> None:
    port = free_port()
    pub = Publisher(f"mqtt://127.0.0.1:{port}", "cantina", "t3", limit=10).start()
    for seq in range(1, 26):
        pub.call(seq, {"t": float(seq), "event": "set", "seat": 1})
    st = pub.stats()
    assert st["waiting"] == 10 and st["dropped"] == 16  # 25 calls + the "online" status, 10 kept
    broker = Mosquitto(tmp_path / "broker", port=port).start()
    got: list[int] = []
    sub = mqtt.Client(CallbackAPIVersion.VERSION2)
    sub.on_message = lambda c, u, m: got.append(json.loads(m.payload)["seq"])
    sub.connect("127.0.0.1", port)
    sub.subscribe("burrito-table/cantina/t3/game/call", qos=1)
    sub.loop_start()
    try:
        time.sleep(0.3)
        assert pub.flush(20)
        # On connecting, the table re-sends its status, which pushes one more old call out of the full buffer.
        wait_for(lambda: len(got) == 9, what=f"the kept calls (got {got}, {pub.stats()})")
        assert sorted(got) == list(range(17, 26))  # the newest are kept
        assert pub.stats()["dropped"] == 17
    finally:
        sub.loop_stop()
        sub.disconnect()
        pub.stop()
        broker.stop()


PUBLISH_AND_HANG = """
import sys, time
from game.venue.publisher import Publisher
p = Publisher(sys.argv[1], "cantina", "t9").start()
p.queue_status("playing", {"game": "1-0"})
assert p.flush(10)
print("ready", flush=True)
time.sleep(60)
"""


def test_status_is_retained_and_a_table_that_dies_is_marked_offline_by_its_last_will(tmp_path: Path,
                                                                                     broker: Mosquitto) -> None:
    proc = subprocess.Popen([sys.executable, "-c", PUBLISH_AND_HANG, broker.url], stdout=subprocess.PIPE,
                            cwd=ROOT, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        states: list[str] = []
        sub = mqtt.Client(CallbackAPIVersion.VERSION2)
        sub.on_message = lambda c, u, m: states.append(json.loads(m.payload)["state"])
        sub.connect("127.0.0.1", broker.port)
        sub.subscribe("burrito-table/cantina/t9/status", qos=1)
        sub.loop_start()
        wait_for(lambda: states == ["playing"], what="the retained status for a late subscriber")
        proc.send_signal(signal.SIGKILL)  # no DISCONNECT: the broker sends the last will
        wait_for(lambda: states[-1:] == ["offline"], what="the last will")
        sub.loop_stop()
        sub.disconnect()
    finally:
        proc.kill()
        proc.wait()


def test_venue_ignores_other_schema_versions_and_bad_json_and_counts_them(tmp_path: Path) -> None:
    store = VenueStore(str(tmp_path / "v.db"))
    assert store.handle("burrito-table/cantina/t1/game/call", b"{not json").startswith("ignored")
    assert store.handle("burrito-table/cantina/t1/game/call",
                        json.dumps({"v": 2, "game": "1-0", "seq": 1}).encode()) == "ignored: schema version: 2"
    body = json.dumps({"v": 1, "kind": "call", "game": "1-0", "seq": 1, "event": {}}).encode()
    assert store.handle("burrito-table/cantina/t1/game/call", body) == "stored"
    assert store.handle("burrito-table/cantina/t1/game/call", body) == "duplicate"
    assert store.counters() == {"bad_payloads": 2, "duplicates": 1}
    store.close()


def test_venue_command_subscribes_stores_and_prints_the_board_and_its_screen_runs_headless(
        tmp_path: Path, broker: Mosquitto) -> None:
    db = tmp_path / "venue.db"
    cmd = [sys.executable, "-m", "game", "venue", "--broker", broker.url, "--db", str(db), "--venue", "cantina"]
    proc = subprocess.Popen([*cmd, "--json", "--seconds", "4"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: db.exists(), what="the venue's database")
        time.sleep(1.5)  # and its subscription: a venue is there before its tables
        journal = Journal(str(tmp_path / "table.db"))
        pub = Publisher(broker.url, "cantina", "t1").start()
        TablePlayer(journal, pub, "zombie-burrito").play()
        assert pub.flush(10)
        pub.stop()
        journal.close()
        out, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0
    rep = json.loads(out)
    assert rep["games_finished"] == 1 and {p["name"] for p in rep["leaderboard"]} == {"Ana", "Bo", "Cy"}
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    shown = subprocess.run([*cmd, "--seconds", "1.5"], cwd=ROOT, capture_output=True, text=True, env=env, timeout=30)
    assert shown.returncode == 0 and "drawn off-screen" in shown.stdout


class FailingOnce(VenueStore):
    """A store whose disk fails once on the first call: the fault a venue must survive without losing the call."""

    failed = False

    def handle(self, topic: str, payload: bytes, received: float | None = None) -> str:
        if topic.endswith("/game/call") and not self.failed:
            self.failed = True
            raise sqlite3.OperationalError("disk I/O error")
        return super().handle(topic, payload, received)


def test_a_message_the_venue_fails_to_store_is_not_acknowledged_and_comes_again(tmp_path: Path,
                                                                               broker: Mosquitto) -> None:
    store = FailingOnce(str(tmp_path / "venue.db"))
    svc = VenueService(broker.url, store, "cantina", client_id="venue-failing").start()
    assert svc.connected.wait(5)
    pub = Publisher(broker.url, "cantina", "t1").start()
    try:
        pub._game_key = "1-0"
        pub.call(1, {"t": 1.0, "event": "set", "seat": 1})
        assert pub.flush(10)
        wait_for(lambda: svc.failed == 1, what="the failed store")
        assert store.report()["calls"] == 0
        svc.stop()  # unacknowledged: the broker delivers it again on the next connection of the session
        svc.start()
        wait_for(lambda: store.report()["calls"] == 1, what="the call delivered again")
    finally:
        pub.stop()
        svc.stop()
        store.close()


def test_with_logins_and_the_documented_acl_only_the_venue_reads_the_calls(tmp_path: Path) -> None:
    """docs/venue.md, "Who may read": each table writes its own topics; only the venue's login reads them."""
    import shutil

    tool = shutil.which("mosquitto_passwd")
    assert tool is not None, "mosquitto_passwd is missing: run tests/install-system-deps.sh (Debian package mosquitto)"
    passwd, acl = tmp_path / "passwd", tmp_path / "acl"
    passwd.touch()
    for user, word in (("patio", "tablepw"), ("venue", "venuepw")):
        subprocess.run([tool, "-b", str(passwd), user, word], check=True, capture_output=True)
    acl.write_text("pattern write burrito-table/cantina/%u/#\n"
                   "user venue\ntopic read burrito-table/#\ntopic write homeassistant/#\n")
    broker = Mosquitto(tmp_path / "broker", extra=f"allow_anonymous false\npassword_file {passwd}\nacl_file {acl}\n")
    broker.start()
    host = f"127.0.0.1:{broker.port}"
    store = VenueStore(str(tmp_path / "venue.db"))
    svc = VenueService(f"mqtt://venue:venuepw@{host}", store, "cantina").start()
    overheard: list[str] = []
    spy = mqtt.Client(CallbackAPIVersion.VERSION2)  # a player's phone with the table's login
    spy.username_pw_set("patio", "tablepw")
    spy.on_message = lambda c, u, m: overheard.append(m.topic)
    pub = Publisher(f"mqtt://patio:tablepw@{host}", "cantina", "patio").start()
    wrong = Publisher(f"mqtt://patio:nope@{host}", "cantina", "patio", client_id="wrong-password").start()
    journal = Journal(str(tmp_path / "table.db"))
    try:
        assert svc.connected.wait(5)
        spy.connect("127.0.0.1", broker.port)
        spy.subscribe("burrito-table/#", qos=1)
        spy.loop_start()
        player = TablePlayer(journal, pub, "taco-vs-burrito")
        player.play()
        assert pub.flush(10)
        wait_for(finished(svc), what="the game at the venue")
        assert store.report()["calls"] == len(player.events)
        time.sleep(0.3)
        assert overheard == []  # the table's login may write, not read
        assert wrong.stats()["connects"] == 0  # a wrong password never gets in
    finally:
        spy.loop_stop()
        spy.disconnect()
        wrong.stop(0.1)
        pub.stop()
        svc.stop()
        store.close()
        journal.close()
        broker.stop()
