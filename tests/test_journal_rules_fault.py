"""An event reaches the journal only with the rules' acceptance: a rules bug (or a journal that cannot take the
event) leaves neither the journal nor the game holding it, so "carry on" continues from the last good event and
``replay --journal`` reads the journal whole."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from game.journal import Journal, JournaledTable
from game.registry import GAMES

SETUP = {"event": "setup", "game": "throw-throw-burrito", "seats": 3}


def _rules() -> Any:
    return GAMES["throw-throw-burrito"].rules


def _boom_on_second_set(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    rules = _rules()
    real = rules.step
    calls: list[int] = []

    def step(state: Any, event: dict[str, Any]) -> Any:
        if event.get("event") == "set" and event.get("seat") == 2 and not calls:
            calls.append(1)
            raise KeyError("a rules bug")
        return real(state, event)

    monkeypatch.setattr(rules, "step", step)
    return calls


def test_a_rules_bug_in_step_writes_nothing_and_the_game_carries_on_from_the_last_good_event(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    journal = Journal(str(tmp_path / "j.db"))
    live, _ = JournaledTable.new(journal, SETUP)
    live.submit({"event": "set", "t": 1.0, "seat": 1})
    before = repr(live.table.state)
    calls = _boom_on_second_set(monkeypatch)
    with pytest.raises(KeyError):
        live.submit({"event": "set", "t": 2.0, "seat": 2})
    assert calls == [1]
    assert len(live.table.events) == 1 and repr(live.table.state) == before
    live.submit({"event": "set", "t": 3.0, "seat": 2})  # carry on: the same move, now that the bug has passed
    live.submit({"event": "set", "t": 4.0, "seat": 3})
    _, events = journal.load(live.game_id)
    assert [e["t"] for e in events] == [1.0, 3.0, 4.0], "the failed event never reached the journal"
    journal.close()
    resumed = JournaledTable.resume(Journal(str(tmp_path / "j.db")), live.game_id)
    assert repr(resumed.table.state) == repr(live.table.state)


def test_a_journal_that_cannot_take_the_event_leaves_the_game_as_it_was(tmp_path: Path) -> None:
    """A guard: the journal refusing the write (a full disk) must still leave the game at its last good event."""
    journal = Journal(str(tmp_path / "j.db"))
    live, _ = JournaledTable.new(journal, SETUP)
    live.submit({"event": "set", "t": 1.0, "seat": 1})
    before = repr(live.table.state)
    journal.db.execute("CREATE TRIGGER no_more BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    with pytest.raises(Exception, match="disk full"):
        live.submit({"event": "set", "t": 2.0, "seat": 2})
    assert len(live.table.events) == 1 and repr(live.table.state) == before
    journal.db.execute("DROP TRIGGER no_more")
    live.submit({"event": "set", "t": 2.5, "seat": 2})
    assert [e["t"] for e in journal.load(live.game_id)[1]] == [1.0, 2.5]


def test_replay_of_the_journal_after_a_rules_bug_reads_every_good_event(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.db"
    journal = Journal(str(path))
    live, _ = JournaledTable.new(journal, SETUP)
    live.submit({"event": "set", "t": 1.0, "seat": 1})
    _boom_on_second_set(monkeypatch)
    with pytest.raises(KeyError):
        live.submit({"event": "set", "t": 2.0, "seat": 2})
    monkeypatch.undo()
    journal.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1
    from game.cli import main

    status = main(["replay", "--journal", str(path), "--json"])
    out, err = capsys.readouterr()
    assert status == 0 and "Traceback" not in err and '"points": {"1": 1, "2": 0, "3": 0}' in out, (out, err)
