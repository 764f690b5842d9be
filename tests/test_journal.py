"""The SQLite journal: durable before shown, resume after a kill, clear errors on a damaged file."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
from ttb_helpers import ev, setup

from game.journal import Journal, JournaledTable, JournalError
from game.log import run_log
from game.rules.base import RuleInputError

ROOT = Path(__file__).resolve().parent.parent
DEMO = resources.files("game.games.throw_throw_burrito").joinpath("data/demo.jsonl").read_text(encoding="utf-8").splitlines()


def summary_of(lines: list[str]) -> dict:
    table, _ = run_log(lines)
    return table.summary()


def test_a_killed_table_resumes_the_unfinished_game_to_exactly_the_same_state(tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(DEMO) + "\n")
    db = str(tmp_path / "table.db")
    cmd = [sys.executable, "-m", "game", "record", str(log), "--journal", db]
    proc = subprocess.Popen([*cmd, "--pace", "0.02"], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("journaled 25"):
            break
    proc.send_signal(signal.SIGKILL)  # no cleanup, no commit of anything in flight
    proc.wait(timeout=10)
    proc.stdout.close()

    with Journal(db) as journal:
        (game_id,) = journal.unfinished()
        _, events = journal.load(game_id)
        assert len(events) >= 25
        resumed = JournaledTable.resume(journal, game_id)
        resumed.table.finish()
    # Everything journaled is a prefix of what was fed, and folds to the same state.
    fed = [json.loads(x) for x in DEMO[1 : 1 + len(events)]]
    assert all(f.items() <= e.items() for f, e in zip(fed, events, strict=True))  # defaults filled in
    assert resumed.table.summary() == summary_of(DEMO[: 1 + len(events)])

    # Starting the table again picks up where it was and plays to the same end as one clean run.
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert f"resumed game {game_id} after {len(events)} events" in done.stdout
    out = subprocess.run([sys.executable, "-m", "game", "replay", "--journal", db, "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert json.loads(out.stdout) == summary_of(DEMO)
    with Journal(db) as journal:
        assert journal.unfinished() == [] and journal.games() == [(game_id, True)]


def test_the_journal_is_wal_with_full_synchronous_commits(tmp_path):
    with Journal(str(tmp_path / "t.db")) as journal:
        assert journal.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert journal.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_an_event_is_journaled_before_its_effects_are_returned(tmp_path):
    path = str(tmp_path / "t.db")
    with Journal(path) as journal:
        live, _ = JournaledTable.new(journal, setup())
        live.submit(ev(1, "set", seat=1))
        # A second connection (another process after a crash) already sees it.
        other = sqlite3.connect(path)
        assert other.execute("SELECT count(*) FROM events").fetchone()[0] == 1
        other.close()


def test_bad_input_is_rejected_and_nothing_is_written(tmp_path):
    with Journal(str(tmp_path / "t.db")) as journal:
        live, _ = JournaledTable.new(journal, setup())
        live.submit(ev(5, "set", seat=1))
        for bad in (ev(4, "set", seat=1), ev(6, "set", seat=9), {"t": 7, "event": "nap"}):
            with pytest.raises(RuleInputError):
                live.submit(bad)
        assert len(journal.load(live.game_id)[1]) == 1
        with pytest.raises(RuleInputError):
            JournaledTable.new(journal, {"event": "setup", "game": "throw-throw-burrito", "seats": 99})
        assert len(journal.games()) == 1


def test_a_damaged_journal_row_is_a_one_line_error_naming_game_and_event(tmp_path):
    path = str(tmp_path / "t.db")
    with Journal(path) as journal:
        live, _ = JournaledTable.new(journal, setup())
        live.submit(ev(1, "set", seat=1))
        live.submit(ev(2, "set", seat=2))
        journal.db.execute("UPDATE events SET body = '{oops' WHERE seq = 2")
        with pytest.raises(JournalError, match=r"game 1 event 2: bad JSON") as err:
            journal.load(live.game_id)
        assert "\n" not in str(err.value)
        journal.db.execute("""UPDATE events SET body = '{"t": 2, "event": "set", "seat": 12}' WHERE seq = 2""")
        with pytest.raises(JournalError, match=r"game 1 event 2: .*outside 1..4"):
            JournaledTable.resume(journal, live.game_id)


def test_a_file_that_is_not_a_journal_is_a_one_line_error(tmp_path):
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(JournalError, match="cannot open"):
        Journal(str(path))


def test_replay_from_the_journal_equals_replay_from_the_file(tmp_path, capsys):
    from game.cli import main

    db = str(tmp_path / "t.db")
    log = tmp_path / "demo.jsonl"
    log.write_text("\n".join(DEMO))
    assert main(["record", str(log), "--journal", db]) == 0
    capsys.readouterr()
    assert main(["replay", "--journal", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == summary_of(DEMO)


def test_a_move_illegal_in_the_current_state_is_refused_before_it_is_journaled(tmp_path):
    zombie = {"event": "setup", "game": "zombie-burrito", "seats": 4,
              "options": {"teams": {"zombies": [1, 2], "survivors": [3, 4]}}}
    with Journal(str(tmp_path / "t.db")) as journal:
        live, _ = JournaledTable.new(journal, zombie)
        with pytest.raises(RuleInputError, match="revive"):
            live.submit({"t": 1.0, "event": "revive", "seat": 3})  # nobody is out: nothing to revive
        assert journal.load(live.game_id)[1] == []
        resumed = JournaledTable.resume(journal, live.game_id)  # and the journal still resumes
        assert resumed.table.summary() == live.table.summary()


def test_a_game_killed_between_its_winning_event_and_the_finished_mark_is_marked_when_resumed(tmp_path):
    """The winning event and the finished mark are two commits; a SIGKILL between them leaves a game that is over
    but listed as unfinished. Folding it again finds it over and marks it, so no table plays on past a win."""
    db = str(tmp_path / "t.db")
    log = tmp_path / "demo.jsonl"  # Taco vs Burrito's demo is won by its last event, not by time running out
    log.write_text(resources.files("game.games.taco_vs_burrito").joinpath("data/demo.jsonl").read_text("utf-8"))
    from game.cli import main

    assert main(["record", str(log), "--journal", db]) == 0
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE games SET finished = 0")  # what the kill leaves behind
    with Journal(db) as journal:
        (game_id,) = journal.unfinished()
        live = JournaledTable.resume(journal, game_id)
        assert live.table.rules.is_over(live.table.state)
        assert journal.unfinished() == [] and journal.games() == [(game_id, True)]
