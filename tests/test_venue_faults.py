"""``burrito-table venue`` and the venue service under bad input and a failing environment: a broker that refuses or
never answers, a store that is not the venue's own, hostile messages on a real mosquitto, bad rows already stored.
The bad-input promise (docs/faults.md): one line, the right status, nothing changed, and the running venue goes on."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from game.journal import Journal
from game.stats import game_record
from game.venue.service import VenueStore
from tests.fault_helpers import (
    damage_page,
    digest,
    foreign_sqlite,
    one_line_error,
    pages_of,
    read_only,
    without_root_file_powers,
)
from tests.mosquitto import Mosquitto, free_port
from tests.test_venue_mqtt import demo_log, wait_for

ROOT = Path(__file__).resolve().parent.parent
TOPIC = "burrito-table/cantina/t1"


def venue(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The command as an operator runs it: a fresh interpreter, its own logging set-up."""
    return subprocess.run([sys.executable, "-m", "game", "venue", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    b = Mosquitto(tmp_path / "broker").start()
    yield b
    b.stop()


def ended_body(game: str = "1-100", seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A real ``game/ended`` message: the record ``game.stats`` folds from a demo game."""
    setup, events = demo_log("throw-throw-burrito")
    rec = game_record(1, setup, events, 100.0, finished=True).as_dict()
    if seats is not None:
        rec["seats"] = seats
    return {"v": 1, "kind": "ended", "venue": "cantina", "table": "t1", "game": game, "seq": len(events) + 1,
            "sent": 200.0, "record": rec}


# --- the broker ------------------------------------------------------------------------------------------------


def test_a_broker_that_refuses_the_connection_is_said_in_one_line_and_exits_1(tmp_path: Path) -> None:
    """Nothing listens on the port: today the venue waited out --seconds, printed an empty board and exited 0."""
    port = free_port()
    t = time.monotonic()
    r = venue("--broker", f"mqtt://127.0.0.1:{port}", "--db", str(tmp_path / "v.db"), "--json", "--seconds", "20")
    assert r.returncode == 1, (r.returncode, r.stdout[-300:], r.stderr[-300:])
    line = one_line_error(r.stderr, f"127.0.0.1:{port}")
    assert "cannot connect" in line and r.stdout == ""
    assert time.monotonic() - t < 15  # said at once, not after --seconds


def test_a_broker_that_never_answers_is_given_up_after_the_connect_timeout(tmp_path: Path) -> None:
    """A port that accepts TCP and never says a word of MQTT (a wrong service, a hung broker)."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        port = silent.getsockname()[1]
        t = time.monotonic()
        r = venue("--broker", f"mqtt://127.0.0.1:{port}", "--db", str(tmp_path / "v.db"), "--json", "--seconds", "30")
        took = time.monotonic() - t
    assert r.returncode == 1, (r.returncode, r.stderr[-300:])
    line = one_line_error(r.stderr, f"127.0.0.1:{port}")
    assert "no MQTT answer within 5 s" in line and r.stdout == ""
    assert took < 20  # the bounded connect timeout, not --seconds


def test_a_broker_that_refuses_the_venues_login_is_said_with_its_reason(tmp_path: Path) -> None:
    b = Mosquitto(tmp_path / "broker", extra="allow_anonymous false\n").start()
    try:
        r = venue("--broker", b.url, "--db", str(tmp_path / "v.db"), "--json", "--seconds", "20")
    finally:
        b.stop()
    assert r.returncode == 1, (r.returncode, r.stderr[-300:])
    assert "refused the venue: Not authorized" in one_line_error(r.stderr, f"127.0.0.1:{b.port}")


@pytest.mark.parametrize("url", ["mqtt://", "http://venue.local", "mqtt://host:99999", "mqtt://[::1",
                                 "mqtt://" + "\x1b[2J" * 20_000 + ":1883"])
def test_a_bad_broker_url_is_one_bounded_line_and_exit_2(tmp_path: Path, url: str) -> None:
    r = venue("--broker", url, "--db", str(tmp_path / "v.db"), "--seconds", "1")
    assert r.returncode == 2
    line = one_line_error(r.stderr, "--broker")
    assert len(line) <= 450 and "\x1b" not in line


# --- the store ---------------------------------------------------------------------------------------------------


def _table_journal(path: Path) -> Path:
    from tests.test_stats import record_game

    with Journal(str(path)) as j:
        record_game(j, *demo_log("throw-throw-burrito"))
    return path


@pytest.mark.parametrize("kind", ["journal", "foreign", "garbage", "json"])
def test_a_file_that_is_not_the_venues_store_is_refused_and_left_byte_for_byte(tmp_path: Path, kind: str) -> None:
    """The table's journal passed as --db (today it was given the venue's tables and switched about), another
    program's SQLite file (today: the venue's tables added to it), or not SQLite at all."""
    path = tmp_path / f"{kind}.db"
    if kind == "journal":
        _table_journal(path)
    elif kind == "foreign":
        foreign_sqlite(path)
    elif kind == "garbage":
        path.write_bytes(os.urandom(8192))
    else:
        path.write_text('{"leaderboard": []}\n' * 300)
    before, listing = digest(path), sorted(p.name for p in tmp_path.iterdir())
    r = venue("--json", "--db", str(path))
    assert r.returncode == 2, (r.returncode, r.stderr[-300:])
    line = one_line_error(r.stderr, str(path))
    assert "not a venue store" in line or "not a database" in line
    assert digest(path) == before and sorted(p.name for p in tmp_path.iterdir()) == listing
    assert r.stdout == ""


def _store_with_a_game(path: Path) -> None:
    store = VenueStore(str(path))
    assert store.handle(f"{TOPIC}/game/ended", json.dumps(ended_body()).encode()) == "stored"
    store.close()


def test_a_damaged_venue_store_with_json_is_one_line_and_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "venue.db"
    _store_with_a_game(path)
    sqlite3.connect(path).execute("PRAGMA wal_checkpoint(TRUNCATE)").close()
    damage_page(path, pages_of(path, "seats")[0])
    before = digest(path)
    r = venue("--json", "--db", str(path))
    assert r.returncode == 2, (r.returncode, r.stderr[-300:])
    assert "damaged" in one_line_error(r.stderr, str(path))
    assert digest(path) == before and r.stdout == ""


def test_bad_rows_already_in_the_store_never_stop_a_restart(tmp_path: Path) -> None:
    """A seat line an older venue stored with a wrong type: today every restart and ``venue --json`` exited 2."""
    path = tmp_path / "venue.db"
    _store_with_a_game(path)
    db = sqlite3.connect(path)
    db.execute("INSERT INTO seats VALUES ('cantina/t2', '9-9', 1, 'Zed', ?)", (json.dumps({"seat": 1, "wins": "lots"}),))
    db.execute("INSERT INTO seats VALUES ('cantina/t2', '9-9', 2, 'Yu', 'not json')")
    db.execute("INSERT INTO tables (tbl, state, standings) VALUES ('cantina/t2', 'idle', '{\"no\": 1}')")
    db.execute("INSERT INTO devices VALUES ('cantina/t2', 'b1', '[[[', 1.0)")
    db.commit()
    db.close()
    r = venue("--json", "--db", str(path))
    assert r.returncode == 0, r.stderr[-500:]
    rep = json.loads(r.stdout)
    assert {p["name"] for p in rep["leaderboard"]} == {"Ana", "Bo", "Cy"}  # the good game, whole
    assert rep["counters"]["bad_rows"] == 4
    lines = r.stderr.strip().splitlines()
    assert 1 <= len(lines) <= 4 and all("row skipped" in ln for ln in lines) and "Traceback" not in r.stderr


def test_an_ended_message_is_stored_in_one_transaction(tmp_path: Path) -> None:
    """A record whose third seat the disk refuses (an SQLite trigger raising, as a constraint would) leaves no
    trace: not the message, not the game, not the first two seats. Today each statement committed on its own."""
    path = tmp_path / "venue.db"
    store = VenueStore(str(path))
    store.db.execute("CREATE TRIGGER refuse_seat_3 BEFORE INSERT ON seats WHEN NEW.seat = 3 "
                     "BEGIN SELECT RAISE(ABORT, 'seat 3 refused'); END")
    with pytest.raises(sqlite3.IntegrityError):
        store.handle(f"{TOPIC}/game/ended", json.dumps(ended_body()).encode())
    counts = [store.db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in ("messages", "games", "seats")]
    assert counts == [0, 0, 0]
    store.db.execute("DROP TRIGGER refuse_seat_3")
    assert store.handle(f"{TOPIC}/game/ended", json.dumps(ended_body()).encode()) == "stored"  # not a duplicate
    assert {p["name"] for p in store.leaderboard()} == {"Ana", "Bo", "Cy"}
    store.close()


# --- hostile messages ------------------------------------------------------------------------------------------

HOSTILE: list[tuple[str, bytes]] = [
    ("game/ended", json.dumps(ended_body("2-1", [{"seat": 1, "name": "Zed", "wins": "lots"}])).encode()),
    ("game/ended", json.dumps(ended_body("3-1", [{"seat": "one", "name": "Zed"}])).encode()),
    ("game/ended", json.dumps(dict(ended_body("4-1"), record="a string")).encode()),
    ("game/ended", json.dumps(ended_body("5-1", [{"seat": 1, "name": "N" * 100_000}])).encode()),
    ("game/ended", json.dumps(ended_body("6-1", [{"seat": 1, "name": "Zed", "fastest_call_s": "fast"}])).encode()),
    ("game/ended", json.dumps(ended_body("7-1", [{"seat": 1, "name": ["Zed"]}])).encode()),
    ("game/ended", b'{"v": 1, "game": "8-1", "seq": 1, "record": {"seats": [{"seat": 1, "wins": 1' + b"0" * 5000
     + b"}]}}"),
    ("game/started", json.dumps({"v": 1, "game": "9-1", "seq": 0, "setup": "x"}).encode()),
    ("game/call", json.dumps({"v": 1, "game": "9-1", "seq": 1, "event": {"x": "y" * 400_000}}).encode()),
    ("game/call", b"[" * 100_000 + b"]" * 100_000),
    ("game/call", b"\xff\xfe not utf-8"),
    ("game/standings", json.dumps({"v": 1, "game": "9-1", "seq": 1, "lines": "not a list"}).encode()),
    ("status", json.dumps({"v": 1, "state": {"a": 1}}).encode()),
    ("device/b1/health", json.dumps({"v": 1, "device": "b1", "battery_pct": "full"}).encode()),
]


def _publish(url_port: int, messages: list[tuple[str, bytes]]) -> None:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="hostile-table")
    client.connect("127.0.0.1", url_port)
    client.loop_start()
    try:
        for rest, payload in messages:
            client.publish(f"{TOPIC}/{rest}", payload, qos=1).wait_for_publish(10)
    finally:
        client.disconnect()
        client.loop_stop()


def test_the_running_venue_refuses_hostile_messages_acknowledges_them_and_goes_on(tmp_path: Path,
                                                                                  broker: Mosquitto) -> None:
    """Hostile payloads, then 40 more that raised inside the old store (past mosquitto's in-flight limit of 20:
    unacknowledged, they stopped every message behind them), then a good game. The venue stores the good game,
    counts the rest, prints each kind of refusal once (WARNING), exits 0, and the stored board opens after it."""
    db = tmp_path / "venue.db"
    proc = subprocess.Popen([sys.executable, "-m", "game", "venue", "--broker", broker.url, "--db", str(db),
                             "--venue", "cantina", "--json", "--seconds", "8"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: "as burrito-venue" in (broker.dir / "mosquitto.log").read_text(errors="replace"),
                 timeout=10, what="the venue's connection")
        time.sleep(0.5)  # and its subscription, sent at once on the connection
        raising = [("game/ended", json.dumps(ended_body(f"{100 + i}-1", [{"seat": "x"}])).encode()) for i in range(40)]
        _publish(broker.port, HOSTILE + raising + [("game/ended", json.dumps(ended_body("1-100")).encode())])
        out, err = proc.communicate(timeout=40)
    finally:
        proc.kill()
    assert proc.returncode == 0, err[-1500:]
    rep = json.loads(out)
    assert rep["games_finished"] == 1, (rep["counters"], err[-1500:])
    assert {p["name"] for p in rep["leaderboard"]} == {"Ana", "Bo", "Cy"}
    assert rep["counters"]["bad_payloads"] == len(HOSTILE) + 40
    lines = err.strip().splitlines()
    assert "Traceback" not in err and lines and all("refused" in ln for ln in lines), err[-1500:]
    assert len(lines) <= 6 and max(len(ln) for ln in lines) < 400  # once per kind, however many came
    again = venue("--json", "--db", str(db))
    assert again.returncode == 0 and json.loads(again.stdout)["games_finished"] == 1


def test_a_read_only_store_is_shown_with_json_and_left_as_it_was(tmp_path: Path) -> None:
    """Another user's copy of the board: read, never written (today the open tried to write the schema to it)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "venue.db"
    _store_with_a_game(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    before = {p.name: digest(p) for p in folder.iterdir() if not p.name.endswith("-shm")}
    read_only(path)
    try:
        r = subprocess.run([sys.executable, "-m", "game", "venue", "--json", "--db", str(path)], cwd=ROOT,
                           capture_output=True, text=True, timeout=60, preexec_fn=without_root_file_powers)
    finally:
        folder.chmod(0o755)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["games_finished"] == 1
    assert {p.name: digest(p) for p in folder.iterdir() if not p.name.endswith("-shm")} == before


def test_a_new_store_where_nothing_may_be_written_is_one_line_and_exit_1(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        r = subprocess.run([sys.executable, "-m", "game", "venue", "--json", "--db", str(folder / "venue.db")],
                           cwd=ROOT, capture_output=True, text=True, timeout=60, preexec_fn=without_root_file_powers)
    finally:
        folder.chmod(0o755)
    assert r.returncode == 1, (r.returncode, r.stderr)
    one_line_error(r.stderr, str(folder / "venue.db"))
    assert list(folder.iterdir()) == [] and r.stdout == ""
