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
import sqlite3
import time
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from game.log import Table
from game.rules.base import Cue, RuleInputError

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    setup TEXT NOT NULL,
    started REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    t REAL NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class JournalError(ValueError):
    """A journal that cannot be read back: one line naming the file, the game and the row."""


class Journal:
    """An SQLite journal file holding any number of games."""

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            self.db = sqlite3.connect(path, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            # FULL: a commit is on disk (WAL fsynced) before the event's effects are shown.
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"journal {path}: cannot open: {exc}") from None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    def start_game(self, setup: dict[str, Any]) -> int:
        with self.db:
            cur = self.db.execute("INSERT INTO games (setup, started) VALUES (?, ?)", (json.dumps(setup), time.time()))
        assert cur.lastrowid is not None
        return cur.lastrowid

    def append(self, game_id: int, seq: int, event: dict[str, Any]) -> None:
        """Commit one event; returns only once it is durable."""
        with self.db:
            self.db.execute(
                "INSERT INTO events (game_id, seq, t, body) VALUES (?, ?, ?, ?)",
                (game_id, seq, event["t"], json.dumps(event)),
            )

    def mark_finished(self, game_id: int) -> None:
        with self.db:
            self.db.execute("UPDATE games SET finished = 1 WHERE id = ?", (game_id,))

    def games(self) -> list[tuple[int, bool]]:
        """Every game as ``(id, finished)``, oldest first."""
        return [(g, bool(f)) for g, f in self.db.execute("SELECT id, finished FROM games ORDER BY id")]

    def unfinished(self) -> list[int]:
        """Games a restarted table should offer to resume, newest first."""
        return [g for (g,) in self.db.execute("SELECT id FROM games WHERE finished = 0 ORDER BY id DESC")]

    def load(self, game_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The setup and the events of one game, in order."""
        row = self.db.execute("SELECT setup FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"journal {self.path}: no game {game_id}")
        setup = self._decode(row[0], game_id, "setup")
        events = [
            self._decode(body, game_id, f"event {seq}")
            for seq, body in self.db.execute("SELECT seq, body FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
        ]
        return setup, events

    def _decode(self, body: str, game_id: int, what: str) -> dict[str, Any]:
        try:
            obj = json.loads(body)
        except (json.JSONDecodeError, TypeError) as exc:
            raise JournalError(f"journal {self.path}: game {game_id} {what}: bad JSON: {exc}") from None
        if not isinstance(obj, dict):
            raise JournalError(f"journal {self.path}: game {game_id} {what}: not a JSON object")
        return obj


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
        return cls(journal, game_id, table)

    def submit(self, obj: dict[str, Any]) -> list[Cue]:
        """Check an event, journal it durably, then apply it. Bad input raises and writes nothing."""
        event = self.table.check(obj)
        cues = self.table.advance(event["t"])  # time running on is replayed identically
        check_state = getattr(self.table.rules, "check_state", None)
        if check_state is not None:
            check_state(self.table.state, event)  # a move illegal right now is refused before it is written
        self.journal.append(self.game_id, len(self.table.events) + 1, event)
        cues += self.table.step(event)
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
        if self.table.rules.is_over(self.table.state):
            self.journal.mark_finished(self.game_id)
