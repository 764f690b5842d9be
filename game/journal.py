"""The on-disk journal: every accepted table event, durably, before its effects are shown.

SQLite (stdlib ``sqlite3``) in WAL mode with ``synchronous=FULL``: each event is
its own committed transaction, so a table that loses power or is killed
resumes with every event it ever announced. Resuming is replay: the rules are
pure, so folding the journaled events again gives exactly the same state.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "table.db")
    >>> with Journal(path) as journal:
    ...     live, _ = JournaledTable.new(journal, {"event": "setup", "game": "throw-throw-burrito", "seats": 3})
    ...     _ = live.submit({"t": 1.0, "event": "set", "seat": 2})
    >>> with Journal(path) as journal:
    ...     again = JournaledTable.resume(journal, journal.unfinished()[0])
    ...     again.table.summary()["rounds"][0]["points"]["2"]
    1
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import TracebackType
from typing import Any
from urllib.parse import quote

from game.log import Table
from game.rules.base import Cue, RuleInputError, bound

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    setup TEXT NOT NULL,
    started REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
)""",
    """CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    t REAL NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
)""",
)
#: The columns a journal's tables must have: anything else is another program's file.
COLUMNS = {"games": ["id", "setup", "started", "finished"], "events": ["game_id", "seq", "t", "body"]}
#: ``PRAGMA application_id`` of a journal ("BTJ1"): a file that carries another id belongs to another program.
APPLICATION_ID = 0x42544A31

#: SQLite's primary result codes that mean the file itself is bad (bad input, exit 2); any other
#: failure (read-only, disk full, I/O error, locked) is the environment's (exit 1).
_BAD_FILE_CODES = {11: "damaged", 26: "not a database"}  # SQLITE_CORRUPT, SQLITE_NOTADB


class JournalError(ValueError):
    """A journal that cannot be used: one line naming the file (and the game and row where there is one).

    ``status`` is the exit status it calls for: 2 when the file is bad input (damaged, another program's,
    missing for a read), 1 when the environment failed (read-only, disk full, I/O error).
    """

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(bound(message))
        self.status = status


def _status(exc: sqlite3.Error) -> int:
    code = getattr(exc, "sqlite_errorcode", None)
    return 2 if isinstance(code, int) and code & 0xFF in _BAD_FILE_CODES else 1


class Journal:
    """An SQLite journal file holding any number of games.

    Opening is the one place that decides what a file is. Read-write (the table, ``record``): a missing file
    becomes a new journal; an existing one must be a journal (no other program's tables, no foreign
    ``application_id``) and pass ``PRAGMA quick_check`` *before* anything is written, then it is switched to
    WAL (the result is checked) and a write is made at once, so a read-only file or a full disk is refused
    at the door instead of after the first event. Read-only (``replay``): opened with ``mode=ro``, so a missing
    file is an error, never a new empty file; it gets the same checks and no write.
    """

    def __init__(self, path: str, *, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only
        if os.path.isdir(path):
            raise JournalError(f"journal {path}: is a directory, not a journal file")
        if read_only and not os.path.exists(path):
            raise JournalError(f"journal {path}: no such file")
        try:
            if read_only:
                self.db = _connect_read_only(path)
            else:
                self.db = sqlite3.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise JournalError(f"journal {path}: cannot open: {_describe(exc)}", _status(exc)) from None
        try:
            self._check()
            if not read_only:
                self._make_ready()
            else:
                self.db.execute("PRAGMA query_only = 1")
        except sqlite3.Error as exc:
            self.db.close()
            raise JournalError(f"journal {path}: cannot open: {_describe(exc)}", _status(exc)) from None
        except JournalError:
            self.db.close()
            raise

    def _check(self) -> None:
        """Refuse another program's file or a damaged one, before anything is written to it."""
        tables = {name for (name,) in self.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
        app_id = self.db.execute("PRAGMA application_id").fetchone()[0]
        if app_id not in (0, APPLICATION_ID):
            raise JournalError(f"journal {self.path}: not a Burrito Table journal (application_id {app_id:#x}); "
                               "nothing was changed")
        if tables and not set(COLUMNS) <= tables:
            listed = ", ".join(sorted(tables)[:8]) + (", ..." if len(tables) > 8 else "")
            raise JournalError(f"journal {self.path}: not a Burrito Table journal (it holds the tables {listed}, "
                               "not games and events); nothing was changed")
        for table, columns in COLUMNS.items():
            if table in tables:
                have = [row[1] for row in self.db.execute(f"PRAGMA table_info({table})")]
                if have != columns:
                    raise JournalError(f"journal {self.path}: not a Burrito Table journal (table {table} has the "
                                       f"columns {', '.join(have)}); nothing was changed")
        problems = [row[0] for row in self.db.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise JournalError(f"journal {self.path}: damaged ({'; '.join(map(str, problems))}); nothing was "
                               f"changed: copy it aside (sqlite3 {self.path} .recover may save its games)")
        if self.read_only and not tables:
            raise JournalError(f"journal {self.path}: holds no game")

    def _make_ready(self) -> None:
        mode = self.db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        # ":memory:" asks for a journal that keeps nothing (the attract mode's throwaway bot game): it stays "memory".
        if str(mode).lower() != "wal" and not (self.path == ":memory:" and mode == "memory"):
            raise JournalError(f"journal {self.path}: cannot switch to WAL (the journal mode stays {mode}): "
                               "the file system may not support it", 1)
        # FULL: a commit is on disk (WAL fsynced) before the event's effects are shown.
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for statement in SCHEMA:
                self.db.execute(statement)
            # Marks the file as a journal, and is a real write now: a read-only file or a full disk shows here.
            self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def _sql(self, what: str) -> Iterator[None]:
        """Any SQLite failure after opening becomes one ``JournalError`` line, never a traceback."""
        try:
            yield
        except sqlite3.Error as exc:
            raise JournalError(f"journal {self.path}: {what}: {_describe(exc)}", _status(exc)) from None

    def start_game(self, setup: dict[str, Any]) -> int:
        with self._sql("cannot start a game"), self.db:
            cur = self.db.execute("INSERT INTO games (setup, started) VALUES (?, ?)", (json.dumps(setup), time.time()))
        assert cur.lastrowid is not None
        return cur.lastrowid

    def append(self, game_id: int, seq: int, event: dict[str, Any]) -> None:
        """Commit event number ``seq`` (1, 2, 3...: ``load`` refuses a gap); returns only once it is durable."""
        with self._sql(f"game {game_id}: cannot journal event {seq}"), self.db:
            self.db.execute(
                "INSERT INTO events (game_id, seq, t, body) VALUES (?, ?, ?, ?)",
                (game_id, seq, event["t"], json.dumps(event)),
            )

    def mark_finished(self, game_id: int) -> None:
        with self._sql(f"game {game_id}: cannot mark it finished"), self.db:
            self.db.execute("UPDATE games SET finished = 1 WHERE id = ?", (game_id,))

    def games(self) -> list[tuple[int, bool]]:
        """Every game as ``(id, finished)``, oldest first."""
        with self._sql("cannot list the games"):
            return [(g, bool(f)) for g, f in self.db.execute("SELECT id, finished FROM games ORDER BY id")]

    def unfinished(self) -> list[int]:
        """Games a restarted table should offer to resume, newest first."""
        with self._sql("cannot list the unfinished games"):
            return [g for (g,) in self.db.execute("SELECT id FROM games WHERE finished = 0 ORDER BY id DESC")]

    def started(self, game_id: int) -> float:
        """When one game was started (Unix time)."""
        with self._sql(f"game {game_id}: cannot read when it started"):
            row = self.db.execute("SELECT started FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"journal {self.path}: no game {game_id}")
        return float(row[0])

    def count(self, game_id: int) -> int:
        """How many events one game holds, without reading them."""
        with self._sql(f"game {game_id}: cannot count the events"):
            return int(self.db.execute("SELECT count(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()[0])

    def setup(self, game_id: int) -> dict[str, Any]:
        """The setup line of one game."""
        with self._sql(f"game {game_id}: cannot read the setup"):
            row = self.db.execute("SELECT setup FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"journal {self.path}: no game {game_id}")
        return self._decode(row[0], game_id, "setup")

    def load(self, game_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The setup and the events of one game, in order; a missing row is an error, not a silent gap."""
        setup = self.setup(game_id)
        events = []
        with self._sql(f"game {game_id}: cannot read the events"):
            rows = self.db.execute("SELECT seq, body FROM events WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
        for expected, (seq, body) in enumerate(rows, start=1):
            if seq != expected:
                raise JournalError(f"journal {self.path}: game {game_id}: event {expected} is missing "
                                   f"(the next row is event {bound(str(seq), 40)})")
            events.append(self._decode(body, game_id, f"event {seq}"))
        return setup, events

    def _decode(self, body: object, game_id: int, what: str) -> dict[str, Any]:
        try:
            obj = json.loads(body)  # type: ignore[arg-type]  # a damaged row may hold anything
        except (ValueError, TypeError, RecursionError) as exc:
            raise JournalError(f"journal {self.path}: game {game_id} {what}: bad JSON: {exc}") from None
        if not isinstance(obj, dict):
            raise JournalError(f"journal {self.path}: game {game_id} {what}: not a JSON object")
        return obj


def _connect_read_only(path: str) -> sqlite3.Connection:
    """A connection that cannot change the journal and never creates a file.

    A journal with no ``-wal`` beside it has no table writing to it (a table keeps its ``-wal`` while open) and
    none killed mid-game: it is read with ``immutable``, so the reader leaves no ``-wal`` or ``-shm`` of its own
    beside it (a WAL reader makes both and, unable to checkpoint, never removes them). With a ``-wal``: ``mode=ro``
    first; a table that was killed leaves its ``-wal`` behind, and the first reader must rebuild the WAL index,
    which a ``mode=ro`` connection may not do: then ``mode=rw`` (which still never creates a file) with
    ``query_only``, so SQLite recovers the index and we write nothing.
    """
    base = f"file:{quote(os.path.abspath(path))}"
    if not os.path.exists(path + "-wal"):
        return sqlite3.connect(base + "?mode=ro&immutable=1", uri=True, isolation_level=None)
    db = sqlite3.connect(base + "?mode=ro", uri=True, isolation_level=None, timeout=1.0)
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.OperationalError:
        db.close()
        db = sqlite3.connect(base + "?mode=rw", uri=True, isolation_level=None, timeout=1.0)
        db.execute("PRAGMA query_only = 1")
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db


def _describe(exc: sqlite3.Error) -> str:
    """SQLite's message, with what it means for a table: ``database or disk is full`` needs no more."""
    what = str(exc)
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in _BAD_FILE_CODES and _BAD_FILE_CODES[code & 0xFF] not in what:
        what += f" ({_BAD_FILE_CODES[code & 0xFF]})"
    return what


@dataclass
class JournaledTable:
    """A live table whose every accepted event is journaled before it takes effect."""

    journal: Journal
    game_id: int
    table: Table

    @classmethod
    def new(cls, journal: Journal, setup: dict[str, Any]) -> tuple[JournaledTable, list[Cue]]:
        table, cues = Table.start(setup)  # a bad setup raises before anything is written
        return cls(journal, journal.start_game(setup), table), cues

    @classmethod
    def resume(cls, journal: Journal, game_id: int) -> JournaledTable:
        """Rebuild a game by folding its journaled events again."""
        setup, events = journal.load(game_id)
        where = "setup"
        try:
            table, _ = Table.start(setup)
            for seq, event in enumerate(events, start=1):
                where = f"event {seq}"
                table.apply(table.check(event))
        except RuleInputError as exc:
            raise JournalError(f"journal {journal.path}: game {game_id} {where}: {exc}") from None
        live = cls(journal, game_id, table)
        live._mark_if_over()  # a kill between the winning event's commit and the mark leaves it unmarked
        return live

    def submit(self, obj: dict[str, Any]) -> list[Cue]:
        """Check an event, apply it, and journal it durably before its cues take effect: the event is journaled only
        if the rules accepted it, and a journal that cannot take it leaves the game as it was. Either failure raises,
        writes nothing and folds the table back to its last good event, so play can carry on from there."""
        event = self.table.check(obj)
        try:
            cues = self.table.advance(event["t"])  # time running on is replayed identically
        except RuleInputError:
            self._mark_if_over()  # time ran on to the end of the game: the event is refused, the game is over
            raise
        check_state = getattr(self.table.rules, "check_state", None)
        if check_state is not None:
            check_state(self.table.state, event)  # a move illegal right now is refused before it is written
        accepted = len(self.table.events)
        try:
            cues += self.table.step(event)
            self.journal.append(self.game_id, accepted + 1, event)
        except BaseException:
            del self.table.events[accepted:]
            self.table.refold()
            raise
        self._mark_if_over()
        return cues

    def tick(self, t: float) -> list[Cue]:
        """Let time run to ``t`` with no event (a live table's loop): windows close, maybe the game ends."""
        cues = self.table.rules.advance(self.table.state, t)
        self._mark_if_over()
        return cues

    def finish(self) -> list[Cue]:
        """The end of the input: every open window closes."""
        cues = self.table.finish()
        self._mark_if_over()
        return cues

    def _mark_if_over(self) -> None:
        if self.table.over:
            self.journal.mark_finished(self.game_id)
