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
import os
import sqlite3
import threading
import time
from typing import Any
from urllib.parse import quote

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.supervise import LineLimiter
from game.rules.base import NAME_MAX, brief
from game.stats import COUNTS, FASTEST, add_seat, ranked
from game.venue.topics import _NAME, ROOT, SCHEMA_VERSION, Broker, check_name, parse_broker, parse_topic

log = logging.getLogger(__name__)

#: "BTV1": marks a file as a venue store, as "BTJ1" marks a table's journal
APPLICATION_ID = 0x42545631
#: the largest payload the venue reads at all (a whole game's record is a few kB)
MAX_PAYLOAD = 256 * 1024
#: the most seats a record may list, lines a standings message may hold, characters in one of them
MAX_SEATS, MAX_LINES, MAX_LINE = 64, 64, 200
#: a figure of one seat in one game beyond this is no real game's
MAX_COUNT = 100_000
_STATES = ("online", "playing", "idle", "offline")


class Refused(ValueError):
    """A message the venue will not store: ``kind`` groups refusals for the rate-limited log line."""

    def __init__(self, kind: str, why: str) -> None:
        super().__init__(why)
        self.kind = kind

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


def _number(value: object, what: str, lo: float = 0.0, hi: float = 1e12, *, none: bool = True) -> None:
    if value is None and none:
        return
    # a range check alone also refuses NaN and infinity, and never converts a 4,000-digit int to a float
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
        raise Refused("bad value", f"{what}: expected a number {lo:g}..{hi:g}, got {brief(value, 40)}")


def _text(value: object, what: str, longest: int, *, none: bool = True) -> None:
    if value is None and none:
        return
    if not isinstance(value, str) or len(value) > longest or not value.isprintable():
        raise Refused("bad value", f"{what}: expected at most {longest} printable characters, got {brief(value, 40)}")


def _seat_line(seat: object, i: int) -> None:
    """One seat of an ``ended`` record: what the leaderboard sums, each of the type it sums."""
    where = f"record seat {i}"
    if not isinstance(seat, dict):
        raise Refused("bad seat", f"{where}: expected an object, got {brief(seat, 40)}")
    if type(seat.get("seat")) is not int or not 1 <= seat["seat"] <= MAX_SEATS:
        raise Refused("bad seat", f"{where}: 'seat' must be 1..{MAX_SEATS}, got {brief(seat.get('seat'), 40)}")
    name = seat.get("name")
    if name is not None and (not isinstance(name, str) or not name.strip() or len(name) > NAME_MAX
                             or not name.isprintable()):
        raise Refused("bad seat", f"{where}: 'name' must be 1-{NAME_MAX} printable characters, got {brief(name, 40)}")
    for k in COUNTS:
        v = seat.get(k, 0)
        if type(v) is not int or not 0 <= v <= MAX_COUNT:
            raise Refused("bad seat", f"{where}: {k!r} must be a whole number 0..{MAX_COUNT}, got {brief(v, 40)}")
    for k in FASTEST:
        v = seat.get(k)
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 1e6):
            raise Refused("bad seat", f"{where}: {k!r} must be seconds or null, got {brief(v, 40)}")


def _record(rec: object) -> None:
    if not isinstance(rec, dict):
        raise Refused("bad record", f"'record': expected an object, got {brief(rec, 40)}")
    _text(rec.get("game"), "record 'game'", 64)
    _number(rec.get("started"), "record 'started'")
    seats, winners = rec.get("seats", []), rec.get("winners", [])
    if not isinstance(seats, list) or len(seats) > MAX_SEATS:
        raise Refused("bad record", f"record 'seats': expected a list of at most {MAX_SEATS}, got {brief(seats, 40)}")
    if not isinstance(winners, list) or len(winners) > MAX_SEATS or any(type(w) is not int for w in winners):
        raise Refused("bad record", f"record 'winners': expected a list of seats, got {brief(winners, 40)}")
    for i, seat in enumerate(seats, start=1):
        _seat_line(seat, i)
    numbers = [seat["seat"] for seat in seats]
    if len(set(numbers)) != len(numbers):
        raise Refused("bad record", "record 'seats': a seat is listed twice")


def _game_body(kind: str, body: dict[str, Any]) -> None:
    game, seq = body.get("game"), body.get("seq")
    if not isinstance(game, str) or not _NAME.match(game) or type(seq) is not int or not 0 <= seq <= 10**9:
        raise Refused("no game or seq", f"'game' {brief(game, 40)} and 'seq' {brief(seq, 40)}")
    _number(body.get("sent"), "'sent'")
    if kind == "started":
        setup = body.get("setup") or {}
        if not isinstance(setup, dict):
            raise Refused("bad value", f"'setup': expected an object, got {brief(setup, 40)}")
        _text(setup.get("game"), "setup 'game'", 64)
        _number(body.get("started"), "'started'")
    elif kind == "ended":
        _record(body.get("record"))


def _checked(where: tuple[str, str, tuple[str, ...]], payload: bytes) -> tuple[str, tuple[str, ...], dict[str, Any]]:
    """(table, topic rest, body) of a message the venue may store, or ``Refused`` saying why not."""
    venue, table, rest = where
    if not _NAME.match(venue) or not _NAME.match(table):
        raise Refused("bad topic", f"venue or table name {brief(venue + '/' + table, 60)}")
    known = rest == ("status",) or rest == ("game", "standings") or (
        len(rest) == 2 and rest[0] == "game" and rest[1] in ("started", "call", "ended")) or (
        len(rest) == 3 and rest[0] == "device" and rest[2] == "health" and 0 < len(rest[1]) <= 64
        and rest[1].isprintable() and not {"+", "#"} & set(rest[1]))
    if not known:
        raise Refused("unknown topic", "/".join(rest)[:80])
    if len(payload) > MAX_PAYLOAD:
        raise Refused("too large", f"{len(payload)} bytes (at most {MAX_PAYLOAD})")
    try:
        body = json.loads(payload)
    except (ValueError, RecursionError) as exc:  # bad UTF-8, bad JSON, a 5,000-digit number, deep nesting
        raise Refused("bad JSON", brief(str(exc), 80)) from None
    if not isinstance(body, dict) or body.get("v") != SCHEMA_VERSION:
        raise Refused("schema version", brief(body.get("v") if isinstance(body, dict) else None))
    if rest == ("status",):
        if body.get("state") not in _STATES:
            raise Refused("bad value", f"'state': expected one of {', '.join(_STATES)}, got {brief(body.get('state'))}")
        _text(body.get("game"), "'game'", 64)
    elif rest[0] == "device":
        for k in ("battery_pct", "link_pct"):
            _number(body.get(k), repr(k), 0, 100)
        for k in ("device", "device_kind", "link"):
            _text(body.get(k), repr(k), 64)
    elif rest == ("game", "standings"):
        lines = body.get("lines", [])
        if not isinstance(lines, list) or len(lines) > MAX_LINES or not all(
                isinstance(ln, str) and len(ln) <= MAX_LINE for ln in lines):
            raise Refused("bad value", f"'lines': at most {MAX_LINES} lines of {MAX_LINE} characters")
    else:
        _game_body(rest[1], body)
    return f"{venue}/{table}", rest, body


#: each venue table's columns, as SCHEMA makes them: an existing file must hold these or nothing
COLUMNS = {
    "messages": ["tbl", "game", "seq", "kind", "sent", "received", "body"],
    "games": ["tbl", "game", "name", "started", "ended", "winners"],
    "seats": ["tbl", "game", "seat", "player", "stats"],
    "tables": ["tbl", "state", "game", "updated", "standings"],
    "devices": ["tbl", "device", "health", "updated"],
    "counters": ["name", "value"],
}


class StoreError(ValueError):
    """A venue store that cannot be used: one line; ``status`` 2 for a file that is not (or no longer) a venue
    store, 1 for the environment (read-only, full, locked)."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def _status(exc: sqlite3.Error) -> int:
    code = getattr(exc, "sqlite_errorcode", 0) or 0
    return 2 if code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB) else 1


def _header_check(path: str) -> None:
    """Another program's SQLite file (a table's journal above all) refused from its header alone, before SQLite
    opens it: opening a journal in WAL mode would add its ``-wal`` and ``-shm`` files beside it."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(100)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"venue store {path}: cannot open: {exc.strerror or exc}", 1) from None
    if len(head) == 100 and head.startswith(b"SQLite format 3\0"):
        app_id = int.from_bytes(head[68:72], "big")
        if app_id not in (0, APPLICATION_ID):
            what = "a table's journal" if app_id == 0x42544A31 else f"application_id {app_id:#x}"
            raise StoreError(f"venue store {path}: not a venue store ({what}); nothing was changed")


def _connect_read_only(path: str) -> sqlite3.Connection:
    """``mode=ro``; a store in WAL mode in a folder nobody may write (no ``-shm`` can be made) is read
    ``immutable``, as the journal does."""
    base = f"file:{quote(os.path.abspath(path))}?mode=ro"
    db = sqlite3.connect(base, uri=True, isolation_level=None, check_same_thread=False, timeout=2.0)
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.OperationalError:
        db.close()
        if os.path.exists(path + "-wal") or os.access(os.path.dirname(os.path.abspath(path)), os.W_OK):
            raise
        return sqlite3.connect(base + "&immutable=1", uri=True, isolation_level=None, check_same_thread=False)


class VenueStore:
    """The venue's SQLite file: idempotent upserts in, leaderboard and table status out.

    Opening decides what the file is before anything is written, as the table's journal does: another program's
    file (a foreign ``application_id``, other tables, other columns: a table's journal passed as ``--db``) and a
    damaged one are refused and left byte for byte as they were.
    """

    def __init__(self, path: str, *, read_only: bool = False) -> None:
        self.path = path
        if os.path.isdir(path):
            raise StoreError(f"venue store {path}: is a directory")
        read_only = read_only and os.path.exists(path)  # no store yet: an empty one, as before
        try:
            _header_check(path)
            if read_only:  # the board only (--json, --screenshot): never a write, so a read-only copy is shown too
                self.db = _connect_read_only(path)
            else:
                self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=2.0)
        except sqlite3.Error as exc:
            raise StoreError(f"venue store {path}: cannot open: {exc}", _status(exc)) from None
        try:
            whole = self._check()
            if read_only:
                self.db.execute("PRAGMA query_only = 1")
            elif whole:
                self.db.execute("PRAGMA synchronous=NORMAL")
            else:
                self._make()
        except sqlite3.Error as exc:
            self.db.close()
            raise StoreError(f"venue store {path}: cannot open: {exc}", _status(exc)) from None
        except StoreError:
            self.db.close()
            raise
        self.lock = threading.Lock()
        #: refusals and skipped rows: one line a minute per kind, however many messages come
        self.limit = LineLimiter(per_minute=1)
        self.bad_rows = 0  # stored rows the reading side skipped (written by an older venue, or damaged)

    def _make(self) -> None:
        """A new store (or one an older venue made): WAL, the schema and the application id in one transaction.
        A write at once: a read-only file or a full disk is refused at the door."""
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # the tables' journals are the record; this is a view
        self.db.execute("BEGIN IMMEDIATE")
        for statement in SCHEMA.split(";"):
            if statement.strip():
                self.db.execute(statement)
        self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        self.db.execute("COMMIT")

    def _check(self) -> bool:
        """Refuses another program's file or a damaged one; True when the file is a whole venue store already."""
        app_id = self.db.execute("PRAGMA application_id").fetchone()[0]
        if app_id not in (0, APPLICATION_ID):
            what = "a table's journal" if app_id == 0x42544A31 else f"application_id {app_id:#x}"
            raise StoreError(f"venue store {self.path}: not a venue store ({what}); nothing was changed")
        tables = {name for (name,) in self.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
        for table in sorted(tables):
            if table not in COLUMNS:
                raise StoreError(f"venue store {self.path}: not a venue store (it holds the table {brief(table)}); "
                                 "nothing was changed")
            if [row[1] for row in self.db.execute(f"PRAGMA table_info({table})")] != COLUMNS[table]:
                raise StoreError(f"venue store {self.path}: not a venue store (its table {table} has other columns);"
                                 " nothing was changed")
        problems = [row[0] for row in self.db.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise StoreError(f"venue store {self.path}: damaged ({brief('; '.join(map(str, problems)))}); "
                             "nothing was changed")
        return app_id == APPLICATION_ID and tables == set(COLUMNS)

    def close(self) -> None:
        self.db.close()

    def _count(self, name: str, n: int = 1) -> None:
        self.db.execute("INSERT INTO counters VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + ?",
                        (name, n, n))

    def handle(self, topic: str, payload: bytes, received: float | None = None) -> str:
        """Store one message; returns what happened ("stored", "duplicate", "ignored: why", "refused: why") for
        logs and tests. Every payload is checked whole before anything is written, and an ``ended`` record is
        written in one transaction: a message is stored entirely or not at all."""
        received = time.time() if received is None else received
        where = parse_topic(topic)
        if where is None:
            return "ignored: not a table topic"
        try:
            tbl, rest, body = _checked(where, payload)
        except Refused as exc:
            with self.lock:
                self._in_transaction(lambda: self._count("bad_payloads"))
            return f"ignored: {exc.kind}: {exc}"
        with self.lock:
            return self._in_transaction(lambda: self._store(tbl, rest, body, received))

    def _in_transaction(self, work: Any) -> Any:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            out = work()
            self.db.execute("COMMIT")
            return out
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

    def _store(self, tbl: str, rest: tuple[str, ...], body: dict[str, Any], received: float) -> str:
        db = self.db
        if rest == ("status",):
            db.execute("INSERT INTO tables (tbl, state, game, updated) VALUES (?, ?, ?, ?) ON CONFLICT(tbl) DO UPDATE"
                       " SET state = excluded.state, game = COALESCE(excluded.game, game), updated = excluded.updated",
                       (tbl, body.get("state"), body.get("game"), received))
            return "stored"
        if rest[0] == "device":
            db.execute("INSERT OR REPLACE INTO devices VALUES (?, ?, ?, ?)", (tbl, rest[1], json.dumps(body), received))
            return "stored"
        if rest == ("game", "standings"):
            db.execute("INSERT INTO tables (tbl, standings, updated) VALUES (?, ?, ?) ON CONFLICT(tbl) DO UPDATE"
                       " SET standings = excluded.standings", (tbl, json.dumps(body.get("lines", [])), received))
            return "stored"
        game, seq = body["game"], body["seq"]
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
            rec = body["record"]
            db.execute("INSERT INTO games (tbl, game, name, started, ended, winners) VALUES (?, ?, ?, ?, ?, ?)"
                       " ON CONFLICT(tbl, game) DO UPDATE SET ended = excluded.ended, winners = excluded.winners,"
                       " name = excluded.name",
                       (tbl, game, rec.get("game"), rec.get("started"), body.get("sent"),
                        json.dumps(rec.get("winners", []))))
            for seat in rec.get("seats", []):
                db.execute("INSERT OR REPLACE INTO seats VALUES (?, ?, ?, ?, ?)",
                           (tbl, game, seat["seat"], seat.get("name"), json.dumps(seat)))
        return "stored"

    # -- reading -----------------------------------------------------------------------------------------

    def _bad_row(self, what: str, exc: Exception) -> None:
        """A stored row the board cannot use (an older venue's, or damaged): skipped, counted, said once."""
        self.bad_rows += 1
        self.limit.log(log, logging.WARNING, f"row:{what}", "venue store %s: a %s row skipped (%s)", self.path, what,
                   brief(str(exc), 80))

    def leaderboard(self) -> list[dict[str, Any]]:
        """Named players over every finished game at the venue, best first (same order as ``stats``)."""
        totals: dict[str, dict[str, Any]] = {}
        with self.lock:
            rows = self.db.execute("SELECT seat, player, stats FROM seats WHERE player IS NOT NULL").fetchall()
        for seat_no, player, stats in rows:
            try:
                seat = json.loads(stats)
                _seat_line(seat, seat_no if isinstance(seat_no, int) else 0)
                if not isinstance(player, str):
                    raise Refused("bad seat", f"player {brief(player, 40)}")
            except (ValueError, TypeError, RecursionError) as exc:
                self._bad_row("seat", exc)
                continue
            total = totals.setdefault(player, {"name": player, **{k: 0 for k in COUNTS}, **{k: None for k in FASTEST}})
            add_seat(total, seat)
        return ranked(totals)

    def tables(self) -> list[dict[str, Any]]:
        with self.lock:
            rows = self.db.execute("SELECT tbl, state, game, updated, standings FROM tables ORDER BY tbl").fetchall()
            calls = dict(self.db.execute("SELECT tbl, COUNT(*) FROM messages WHERE kind = 'call' GROUP BY tbl"))
            games = dict(self.db.execute("SELECT tbl, COUNT(*) FROM games WHERE ended IS NOT NULL GROUP BY tbl"))
            health_rows = self.db.execute("SELECT tbl, health FROM devices ORDER BY tbl, device").fetchall()
        devices: dict[str, list[dict[str, Any]]] = {}
        for tbl, health in health_rows:
            h = self._json(health, dict, "device")
            if h is not None:
                devices.setdefault(tbl, []).append({k: h.get(k) for k in ("device", "device_kind", "link",
                                                                          "battery_pct", "link_pct")})
        out = []
        for tbl, state, game, updated, standings in rows:
            lines = self._json(standings, list, "standings") if standings else []
            out.append({"table": tbl, "state": state, "game": game, "updated": updated, "calls": calls.get(tbl, 0),
                        "games_finished": games.get(tbl, 0), "standings": lines or [],
                        "devices": devices.get(tbl, [])})
        return out

    def _json(self, text: object, kind: type, what: str) -> Any:
        try:
            value = json.loads(text)  # type: ignore[arg-type]  # a damaged row may hold anything
            if not isinstance(value, kind):
                raise TypeError(f"not a {kind.__name__}")
            return value
        except (ValueError, TypeError, RecursionError) as exc:
            self._bad_row(what, exc)
            return None

    def counters(self) -> dict[str, int]:
        with self.lock:
            out = dict(self.db.execute("SELECT name, value FROM counters"))
        if self.bad_rows:
            out["bad_rows"] = self.bad_rows
        return out

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
        self.refusal = ""  # the broker's reason, when it refused the connection
        self.was_connected = False
        self.limit = LineLimiter(per_minute=1)
        self.received = 0
        self.failed = 0  # messages the store could not take (left unacknowledged)
        self.refused = 0  # messages that made the store fail otherwise (acknowledged, never stored)
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

    def start_checked(self, timeout: float) -> VenueService:
        """Connect now, within ``timeout`` s, or raise ``StoreError`` (status 1) saying why: a venue command that
        cannot reach its broker says so and exits instead of waiting in silence. Later losses are retried."""
        where = f"broker {self.broker.host}:{self.broker.port}"
        self.client.connect_timeout = timeout
        try:
            self.client.connect(self.broker.host, self.broker.port, keepalive=15)
        except (OSError, ValueError) as exc:  # refused, unreachable, no such host, a TCP connect timing out
            raise StoreError(f"{where}: cannot connect: {getattr(exc, 'strerror', None) or exc}", 1) from None
        self.client.loop_start()
        end = time.monotonic() + timeout
        while not self.connected.wait(0.05) and not self.refusal and time.monotonic() < end:
            pass
        if not self.connected.is_set():
            why = self.refusal or f"no MQTT answer within {timeout:g} s"
            self.stop()
            raise StoreError(f"{where}: {why}", 1)
        return self

    def stop(self) -> None:
        try:
            self.client.disconnect()
        finally:
            self.client.loop_stop()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            self.refusal = f"refused the venue: {reason}"
            if self.was_connected:  # at start, ``start_checked`` says it, once
                self.limit.log(log, logging.WARNING, "refusal", "broker %s", self.refusal)
            return
        self.was_connected = True
        # Subscribing again on a resumed session is harmless, and needed when the broker lost the session.
        client.subscribe([(p, 1) for p in self.patterns])
        self.connected.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.connected.clear()

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        """Store, then acknowledge. Only a failure of the disk (SQLite's ``OperationalError``: full, locked, I/O)
        leaves a message unacknowledged, to come again; a message that is bad, or that makes the venue fail some
        other way, is refused and acknowledged: unacknowledged it would come back for ever and, past the broker's
        in-flight limit, stop every message behind it."""
        try:
            what = self.store.handle(msg.topic, msg.payload)
        except sqlite3.OperationalError as exc:
            self.store.limit.log(log, logging.ERROR, "disk", "venue: %s: not stored, not acknowledged: %s",
                                 brief(msg.topic, 80), exc)
            self.failed += 1
            return
        except Exception as exc:  # noqa: BLE001 - one message must never stop the venue
            what = f"ignored: failed: {type(exc).__name__}: {brief(str(exc), 80)}"
            self.refused += 1
        if msg.qos > 0:
            client.ack(msg.mid, msg.qos)
        self.received += 1
        if what.startswith("ignored"):
            kind = what.split(":")[1].strip()
            self.store.limit.log(log, logging.WARNING, f"refused:{kind}", "venue: %s: refused (%s)",
                                 brief(msg.topic, 80), what.removeprefix("ignored: "))
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
