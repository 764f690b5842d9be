"""The venue service: subscribes to every table of a venue and keeps the leaderboard in SQLite.

Exactly-once effect from at-least-once delivery: the venue subscribes with QoS 1 on a persistent session (a fixed
client id, ``clean_session=False``), so the broker keeps what arrives while the venue is away; a message is
acknowledged (paho's manual ack) only once it is committed, or judged unusable and counted. A message that comes again
(a table's resend after a broker restart, a resumed game republishing from its journal) hits the same primary key
(table, game, seq) and changes nothing; it is counted in ``duplicates``.

The leaderboard is summed from the ``ended`` records (each game's ``game.stats`` record), one row per seat, replaced
whole by a repeat; calls feed the live per-table counts.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from game.stats import COUNTS, FASTEST, add_seat, ranked
from game.venue.topics import ROOT, SCHEMA_VERSION, Broker, check_name, parse_broker, parse_topic

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS messages (
    tbl TEXT NOT NULL, game TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
    sent REAL, received REAL NOT NULL, body TEXT NOT NULL,
    PRIMARY KEY (tbl, game, seq)
);
CREATE TABLE IF NOT EXISTS games (
    tbl TEXT NOT NULL, game TEXT NOT NULL, name TEXT, started REAL, ended REAL, winners TEXT,
    PRIMARY KEY (tbl, game)
);
CREATE TABLE IF NOT EXISTS seats (
    tbl TEXT NOT NULL, game TEXT NOT NULL, seat INTEGER NOT NULL, player TEXT, stats TEXT NOT NULL,
    PRIMARY KEY (tbl, game, seat)
);
CREATE TABLE IF NOT EXISTS tables (
    tbl TEXT PRIMARY KEY, state TEXT, game TEXT, updated REAL, standings TEXT
);
CREATE TABLE IF NOT EXISTS devices (
    tbl TEXT NOT NULL, device TEXT NOT NULL, health TEXT NOT NULL, updated REAL NOT NULL,
    PRIMARY KEY (tbl, device)
);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""


class VenueStore:
    """The venue's SQLite file: idempotent upserts in, leaderboard and table status out."""

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # the tables' journals are the record; this is a view
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"venue database {path}: cannot open: {exc}") from None
        self.lock = threading.Lock()

    def close(self) -> None:
        self.db.close()

    def _count(self, name: str, n: int = 1) -> None:
        self.db.execute("INSERT INTO counters VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + ?",
                        (name, n, n))

    def handle(self, topic: str, payload: bytes, received: float | None = None) -> str:
        """Store one message; returns what happened ("stored", "duplicate", "ignored: why") for logs and tests."""
        received = time.time() if received is None else received
        where = parse_topic(topic)
        if where is None:
            return "ignored: not a table topic"
        venue, table, rest = where
        try:
            body = json.loads(payload)
        except (json.JSONDecodeError, UnicodeDecodeError):
            with self.lock, self.db:
                self._count("bad_payloads")
            return "ignored: bad JSON"
        if not isinstance(body, dict) or body.get("v") != SCHEMA_VERSION:
            with self.lock, self.db:
                self._count("bad_payloads")
            return f"ignored: schema version {body.get('v') if isinstance(body, dict) else None!r}"
        tbl = f"{venue}/{table}"
        with self.lock, self.db:
            return self._store(tbl, rest, body, received)

    def _store(self, tbl: str, rest: tuple[str, ...], body: dict[str, Any], received: float) -> str:
        db = self.db
        if rest == ("status",):
            db.execute("INSERT INTO tables (tbl, state, game, updated) VALUES (?, ?, ?, ?) ON CONFLICT(tbl) DO UPDATE"
                       " SET state = excluded.state, game = COALESCE(excluded.game, game), updated = excluded.updated",
                       (tbl, body.get("state"), body.get("game"), received))
            return "stored"
        if len(rest) == 3 and rest[0] == "device" and rest[2] == "health":
            db.execute("INSERT OR REPLACE INTO devices VALUES (?, ?, ?, ?)", (tbl, rest[1], json.dumps(body), received))
            return "stored"
        if rest == ("game", "standings"):
            db.execute("INSERT INTO tables (tbl, standings, updated) VALUES (?, ?, ?) ON CONFLICT(tbl) DO UPDATE"
                       " SET standings = excluded.standings", (tbl, json.dumps(body.get("lines", [])), received))
            return "stored"
        if len(rest) != 2 or rest[0] != "game" or rest[1] not in ("started", "call", "ended"):
            return "ignored: unknown topic"
        game, seq = body.get("game"), body.get("seq")
        if not isinstance(game, str) or type(seq) is not int:
            self._count("bad_payloads")
            return "ignored: no game or seq"
        cur = db.execute("INSERT OR IGNORE INTO messages VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (tbl, game, seq, rest[1], body.get("sent"), received, json.dumps(body)))
        if cur.rowcount == 0:
            self._count("duplicates")
            return "duplicate"
        if rest[1] == "started":
            setup = body.get("setup") or {}
            db.execute("INSERT INTO games (tbl, game, name, started) VALUES (?, ?, ?, ?) ON CONFLICT(tbl, game)"
                       " DO UPDATE SET name = excluded.name, started = excluded.started",
                       (tbl, game, setup.get("game"), body.get("started")))
        elif rest[1] == "ended":
            rec = body.get("record") or {}
            db.execute("INSERT INTO games (tbl, game, name, started, ended, winners) VALUES (?, ?, ?, ?, ?, ?)"
                       " ON CONFLICT(tbl, game) DO UPDATE SET ended = excluded.ended, winners = excluded.winners,"
                       " name = excluded.name",
                       (tbl, game, rec.get("game"), rec.get("started"), body.get("sent"),
                        json.dumps(rec.get("winners", []))))
            for seat in rec.get("seats", []):
                db.execute("INSERT OR REPLACE INTO seats VALUES (?, ?, ?, ?, ?)",
                           (tbl, game, int(seat["seat"]), seat.get("name"), json.dumps(seat)))
        return "stored"

    # -- reading -----------------------------------------------------------------------------------------

    def leaderboard(self) -> list[dict[str, Any]]:
        """Named players over every finished game at the venue, best first (same order as ``stats``)."""
        totals: dict[str, dict[str, Any]] = {}
        with self.lock:
            rows = self.db.execute("SELECT player, stats FROM seats WHERE player IS NOT NULL").fetchall()
        for player, stats in rows:
            total = totals.setdefault(player, {"name": player, **{k: 0 for k in COUNTS}, **{k: None for k in FASTEST}})
            add_seat(total, json.loads(stats))
        return ranked(totals)

    def tables(self) -> list[dict[str, Any]]:
        with self.lock:
            rows = self.db.execute("SELECT tbl, state, game, updated, standings FROM tables ORDER BY tbl").fetchall()
            calls = dict(self.db.execute("SELECT tbl, COUNT(*) FROM messages WHERE kind = 'call' GROUP BY tbl"))
            games = dict(self.db.execute("SELECT tbl, COUNT(*) FROM games WHERE ended IS NOT NULL GROUP BY tbl"))
            devices: dict[str, list[dict[str, Any]]] = {}
            for tbl, health in self.db.execute("SELECT tbl, health FROM devices ORDER BY tbl, device"):
                h = json.loads(health)
                devices.setdefault(tbl, []).append({k: h.get(k) for k in ("device", "device_kind", "link",
                                                                          "battery_pct", "link_pct")})
        return [{"table": tbl, "state": state, "game": game, "updated": updated, "calls": calls.get(tbl, 0),
                 "games_finished": games.get(tbl, 0), "standings": json.loads(standings) if standings else [],
                 "devices": devices.get(tbl, [])}
                for tbl, state, game, updated, standings in rows]

    def counters(self) -> dict[str, int]:
        with self.lock:
            return dict(self.db.execute("SELECT name, value FROM counters"))

    def report(self) -> dict[str, Any]:
        """The ``venue --json`` object."""
        with self.lock:
            n_games = self.db.execute("SELECT COUNT(*) FROM games WHERE ended IS NOT NULL").fetchone()[0]
            n_calls = self.db.execute("SELECT COUNT(*) FROM messages WHERE kind = 'call'").fetchone()[0]
        return {"version": SCHEMA_VERSION, "games_finished": n_games, "calls": n_calls,
                "leaderboard": self.leaderboard(), "tables": self.tables(), "counters": self.counters()}


class VenueService:
    """Subscribes to ``burrito-table/<venue>/+/#`` (every venue with ``venue=None``; with ``results_only`` just each
    table's ``game/ended`` and ``status``) and stores into a VenueStore."""

    def __init__(self, broker: str | Broker, store: VenueStore, venue: str | None = None,
                 client_id: str = "burrito-venue", discovery: bool = True, results_only: bool = False) -> None:
        self.broker = parse_broker(broker) if isinstance(broker, str) else broker
        self.store = store
        self.venue = check_name("venue", venue) if venue else None
        self.discovery = discovery
        #: a chain's head office: finished games and table status only (about 1 message per table per game)
        self.results_only = results_only
        self._announced: set[tuple[str, str]] = set()
        self.connected = threading.Event()
        self.received = 0
        self.failed = 0  # messages the store could not take (left unacknowledged)
        # Manual acknowledgement: a message is acknowledged only once it is committed (or judged unusable), so one
        # the store failed on (a full disk) is delivered again after a reconnect instead of being lost.
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False,
                                  manual_ack=True)
        if self.broker.username:
            self.client.username_pw_set(self.broker.username, self.broker.password)
        self.client.reconnect_delay_set(1, 2)  # a lost broker is retried every 2 s at most
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    @property
    def patterns(self) -> list[str]:
        base = f"{ROOT}/{self.venue or '+'}/+"
        return [f"{base}/game/ended", f"{base}/status"] if self.results_only else [f"{base}/#"]

    def start(self) -> VenueService:
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=15)
        self.client.loop_start()
        return self

    def stop(self) -> None:
        try:
            self.client.disconnect()
        finally:
            self.client.loop_stop()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            log.warning("broker refused the venue: %s", reason)
            return
        # Subscribing again on a resumed session is harmless, and needed when the broker lost the session.
        client.subscribe([(p, 1) for p in self.patterns])
        self.connected.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.connected.clear()

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        try:
            what = self.store.handle(msg.topic, msg.payload)
        except Exception as exc:  # noqa: BLE001 - one bad message must not stop the venue
            log.error("venue: %s: not stored, not acknowledged: %s", msg.topic, exc)
            self.failed += 1
            return
        if msg.qos > 0:
            client.ack(msg.mid, msg.qos)
        self.received += 1
        if what.startswith("ignored"):
            log.info("venue: %s: %s", msg.topic, what)
        elif self.discovery and what == "stored" and msg.topic.endswith("/health"):
            self._discover(msg.topic, msg.payload)

    def _discover(self, topic: str, payload: bytes) -> None:
        """Home Assistant MQTT discovery: one battery sensor per device, announced once (retained)."""
        where = parse_topic(topic)
        if where is None:
            return
        venue, table, rest = where
        key = (f"{venue}/{table}", rest[1])
        if key in self._announced:
            return
        self._announced.add(key)
        uid = f"burrito_{venue}_{table}_{rest[1]}_battery".replace("-", "_").replace(".", "_")
        config = {"name": f"{table} {rest[1]} battery", "unique_id": uid, "state_topic": topic,
                  "value_template": "{{ value_json.battery_pct }}", "unit_of_measurement": "%",
                  "device_class": "battery", "state_class": "measurement",
                  "device": {"identifiers": [f"burrito_{venue}_{table}"], "name": f"Burrito Table {venue} {table}",
                             "manufacturer": "Burrito Table"}}
        self.client.publish(f"homeassistant/sensor/{uid}/config", json.dumps(config), qos=1, retain=True)
