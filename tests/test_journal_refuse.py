"""``record`` and the journal refuse, never splice, never a traceback.

Each test runs the real command in a child process where the fault is real (another user, a file size limit,
overwritten pages, another program's file) and checks the three promises: one stderr line naming the file with
exit 2 (bad input) or 1 (the environment), nothing journaled lost, and no new game silently started over an old one.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from fault_helpers import (
    DEMOS,
    cli,
    damage_bytes,
    damage_page,
    demo_lines,
    digest,
    file_limit,
    foreign_sqlite,
    journal_rows,
    one_line_error,
    page_holding,
    read_only,
    without_root_file_powers,
)

from game.journal import Journal, JournalError
from game.log import run_log

TTB = demo_lines("throw-throw-burrito")


def write(path: Path, lines: list[str]) -> str:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def summary_of(lines: list[str]) -> dict:
    return run_log(lines)[0].summary()


# -- 1, 2: which unfinished game record resumes ---------------------------------------------------------------


def test_record_never_splices_a_different_log_with_the_same_setup_into_an_unfinished_game(tmp_path):
    """Same setup, other events: the old game is left whole and a new game starts beside it, saying so."""
    db = str(tmp_path / "j.db")
    assert cli("record", write(tmp_path / "a.jsonl", TTB[:30]), "--journal", db).returncode == 0
    other = [TTB[0]] + [json.dumps({"t": float(i), "event": "set", "seat": 1 + i % 4}) for i in range(1, 40)]
    done = cli("record", write(tmp_path / "b.jsonl", other), "--journal", db)
    assert done.returncode == 0, done.stderr
    assert "resumed" not in done.stdout
    assert "game 1 has this setup but is another game (its event 1 is not the log's event 1)" in done.stdout
    games, events = journal_rows(db)
    assert games == [(1, 0), (2, 0)]
    assert [json.loads(b) for g, _, b in events if g == 1] == run_log(TTB[:30])[0].events  # game 1 untouched
    assert len([1 for g, _, _ in events if g == 2]) == 39


def test_record_resumes_an_older_unfinished_game_when_a_newer_one_is_another_game(tmp_path):
    db = str(tmp_path / "j.db")
    assert cli("record", write(tmp_path / "ttb.jsonl", TTB[:25]), "--journal", db).returncode == 0
    assert cli("record", write(tmp_path / "zb.jsonl", demo_lines("zombie-burrito")[:10]), "--journal", db).returncode == 0
    done = cli("record", DEMOS["throw-throw-burrito"], "--journal", db)
    assert done.returncode == 0, done.stderr
    assert "resumed game 1 after 24 events" in done.stdout
    games, _ = journal_rows(db)
    assert games == [(1, 1), (2, 0)]
    out = cli("replay", "--journal", db, "--game", "1", "--json")
    assert json.loads(out.stdout) == summary_of(TTB)


def test_of_two_unfinished_copies_of_a_log_the_one_furthest_along_is_resumed(tmp_path):
    db = str(tmp_path / "j.db")
    with Journal(db) as journal:
        for upto in (40, 20):  # game 1 is further along than the newer game 2
            table, _ = run_log(TTB[:upto])
            game = journal.start_game(json.loads(TTB[0]))
            for seq, event in enumerate(table.events, start=1):
                journal.append(game, seq, event)
    done = cli("record", DEMOS["throw-throw-burrito"], "--journal", db)
    assert "resumed game 1 after 39 events" in done.stdout, done.stdout[:500]


# -- 3: errors after opening: one line, the right status, nothing lost ----------------------------------------


def test_a_read_only_journal_is_refused_at_open_with_exit_1_and_is_left_whole(tmp_path):
    """Really read-only: a 0444 file in a 0555 folder, and the command runs without root's power over modes."""
    where = tmp_path / "ro"
    where.mkdir()
    db = where / "j.db"
    assert cli("record", write(tmp_path / "part.jsonl", TTB[:20]), "--journal", str(db)).returncode == 0
    read_only(db)
    try:
        before = digest(db)
        done = cli("record", DEMOS["throw-throw-burrito"], "--journal", str(db), preexec=without_root_file_powers)
        assert done.returncode == 1, done.stderr
        assert "readonly" in one_line_error(done.stderr, str(db))
        assert digest(db) == before and done.stdout == ""
        # Reading needs no write: replay works for the same user on the same file.
        seen = cli("replay", "--journal", str(db), "--json", preexec=without_root_file_powers)
        assert seen.returncode == 0, seen.stderr
        assert json.loads(seen.stdout) == summary_of(TTB[:20])
        assert sorted(p.name for p in where.iterdir()) == ["j.db"]
    finally:
        where.chmod(0o755)


def test_a_full_disk_mid_game_is_exit_1_naming_the_file_and_every_event_before_it_stays(tmp_path):
    db = tmp_path / "j.db"
    done = cli("record", DEMOS["throw-throw-burrito"], "--journal", str(db), preexec=file_limit(40_000))
    assert done.returncode == 1, done.stderr
    line = one_line_error(done.stderr, str(db))
    assert "cannot journal event" in line
    said = max(int(x.split()[1]) for x in done.stdout.splitlines() if x.startswith("journaled"))
    games, events = journal_rows(db)
    assert games == [(1, 0)] and len(events) == said  # every announced event is there, none half-written
    again = cli("record", DEMOS["throw-throw-burrito"], "--journal", str(db))  # room again: it carries on
    assert again.returncode == 0 and f"resumed game 1 after {said} events" in again.stdout


def test_a_damaged_page_is_exit_2_naming_the_file_before_anything_is_written(tmp_path):
    db = tmp_path / "j.db"
    assert cli("record", write(tmp_path / "part.jsonl", TTB[:60]), "--journal", str(db)).returncode == 0
    page = page_holding(db, json.dumps(json.loads(TTB[30]))[:40].encode())
    damage_page(db, page)
    before = digest(db)
    done = cli("record", DEMOS["throw-throw-burrito"], "--journal", str(db))
    assert done.returncode == 2
    assert "damaged" in one_line_error(done.stderr, str(db))
    assert digest(db) == before
    seen = cli("replay", "--journal", str(db))
    assert seen.returncode == 2 and "damaged" in one_line_error(seen.stderr, str(db))


def test_a_damaged_row_of_the_unfinished_game_stops_record_instead_of_starting_another_game(tmp_path):
    db = tmp_path / "j.db"
    assert cli("record", write(tmp_path / "part.jsonl", TTB[:30]), "--journal", str(db)).returncode == 0
    needle = b'"event": "declare"'
    damage_bytes(db, needle, b'"event"} "declare"')
    before = journal_rows(db)
    done = cli("record", DEMOS["throw-throw-burrito"], "--journal", str(db))
    assert done.returncode == 2
    assert "game 1 event" in one_line_error(done.stderr, str(db)) and "bad JSON" in done.stderr
    assert journal_rows(db) == before  # the pages are sound, so the open went on: but no game, no event added


def test_another_programs_sqlite_file_is_refused_unchanged_not_switched_to_wal_nor_given_tables(tmp_path):
    db = tmp_path / "contacts.db"
    foreign_sqlite(db)
    before = digest(db)
    done = cli("record", DEMOS["throw-throw-burrito"], "--journal", str(db))
    assert done.returncode == 2
    assert "not a Burrito Table journal" in one_line_error(done.stderr, str(db))
    assert digest(db) == before
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert [n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")] == ["contacts"]
    con.close()
    seen = cli("replay", "--journal", str(db))
    assert seen.returncode == 2 and "not a Burrito Table journal" in seen.stderr


def test_a_file_with_another_application_id_is_refused(tmp_path):
    db = tmp_path / "other.db"
    con = sqlite3.connect(db)
    con.execute("PRAGMA application_id = 1234")
    con.commit()
    con.close()
    with pytest.raises(JournalError, match="application_id 0x4d2") as err:
        Journal(str(db))
    assert err.value.status == 2


# -- 4, 5: nothing is written before the whole log and the options are checked ------------------------------


def test_a_bad_seat_on_line_10_writes_nothing_and_leaves_no_unfinished_game(tmp_path):
    bad = list(TTB[:20])
    row = json.loads(bad[9])
    row["seat"] = 9
    bad[9] = json.dumps(row)
    db = tmp_path / "j.db"
    done = cli("record", write(tmp_path / "bad.jsonl", bad), "--journal", str(db))
    assert done.returncode == 2 and "line 10" in one_line_error(done.stderr, "bad.jsonl")
    assert not db.exists() and done.stdout == ""


def test_a_bad_setup_line_leaves_no_database_file(tmp_path):
    db = tmp_path / "j.db"
    done = cli("record", write(tmp_path / "bad.jsonl", ['{"event": "setup", "game": "chess", "seats": 2}']),
               "--journal", str(db))
    assert done.returncode == 2 and "line 1" in one_line_error(done.stderr, "bad.jsonl")
    assert not db.exists()


@pytest.mark.parametrize("pace", ["-1", "nan", "inf"])
def test_a_pace_that_is_not_a_finite_number_of_seconds_is_refused_before_anything_is_written(tmp_path, pace):
    db = tmp_path / "j.db"
    done = cli("record", DEMOS["throw-throw-burrito"], "--journal", str(db), f"--pace={pace}")
    assert done.returncode == 2 and "--pace" in one_line_error(done.stderr, "--pace")
    assert not db.exists()


# -- 6, 7: read-only commands open read-only; every open is checked ---------------------------------------------


def test_replay_of_a_missing_journal_is_exit_2_and_creates_no_file(tmp_path):
    db = tmp_path / "missing.db"
    done = cli("replay", "--journal", str(db))
    assert done.returncode == 2 and "no such file" in one_line_error(done.stderr, str(db))
    assert not db.exists()


def test_replay_opens_the_journal_read_only_and_changes_nothing(tmp_path):
    db = tmp_path / "j.db"
    assert cli("record", DEMOS["throw-throw-burrito"], "--journal", str(db)).returncode == 0
    before = digest(db)
    with Journal(str(db), read_only=True) as journal:
        with pytest.raises(sqlite3.OperationalError):
            journal.db.execute("DELETE FROM events")
    assert cli("replay", "--journal", str(db), "--json").returncode == 0
    assert digest(db) == before


def test_replay_and_stats_leave_nothing_beside_a_closed_journal(tmp_path):
    """A read writes nothing: no ``-wal`` or ``-shm`` of the reader's own is left beside a journal no table holds."""
    db = tmp_path / "j.db"
    assert cli("record", DEMOS["zombie-burrito"], "--journal", str(db)).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.db"]
    assert cli("replay", "--journal", str(db), "--evidence").returncode == 0
    assert cli("stats", "--journal", str(db), "--json").returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.db"]


def test_a_journal_that_cannot_be_switched_to_wal_is_refused():
    """SQLite keeps a private temporary database (an empty path) in ``delete`` mode whatever is asked: the answer
    to ``journal_mode=WAL`` is read, not assumed. Only ``:memory:``, a journal that keeps nothing by design, may stay
    in memory mode."""
    with pytest.raises(JournalError, match="cannot switch to WAL .*stays delete") as err:
        Journal("")
    assert err.value.status == 1
    with Journal(":memory:") as journal:
        assert journal.db.execute("PRAGMA journal_mode").fetchone()[0] == "memory"


def test_open_runs_an_integrity_check(tmp_path):
    db = tmp_path / "j.db"
    assert cli("record", DEMOS["throw-throw-burrito"], "--journal", str(db)).returncode == 0
    damage_page(db, 3)
    with pytest.raises(JournalError, match="damaged") as err:
        Journal(str(db), read_only=True)
    assert err.value.status == 2 and "\n" not in str(err.value)


def test_replay_reads_the_journal_a_killed_table_left_behind(tmp_path):
    """A SIGKILLed writer leaves its WAL and index; replay must read them, not fail on the index recovery."""
    import signal
    import subprocess
    import sys

    from fault_helpers import ROOT

    db = tmp_path / "j.db"
    proc = subprocess.Popen([sys.executable, "-m", "game", "record", DEMOS["throw-throw-burrito"], "--journal",
                             str(db), "--pace", "0.01"], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("journaled 20"):
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    proc.stdout.close()
    assert Path(str(db) + "-wal").exists()
    rows = journal_rows(db)
    done = cli("replay", "--journal", str(db), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == summary_of(TTB[: 1 + len(rows[1])])
    assert journal_rows(db) == rows


def test_play_refuses_another_programs_file_with_one_line_and_exit_2(tmp_path):
    import os
    import subprocess
    import sys

    from fault_helpers import ROOT

    db = tmp_path / "contacts.db"
    foreign_sqlite(db)
    before = digest(db)
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    done = subprocess.run([sys.executable, "-m", "game", "play", "--sim", "--headless", "--journal", str(db),
                           "--max-frames", "5"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert done.returncode == 2
    assert "not a Burrito Table journal" in one_line_error(done.stderr, str(db))
    assert digest(db) == before


def test_recording_a_log_the_journal_already_holds_whole_writes_nothing(tmp_path):
    """A run killed after the winning event but before it exited is run again: no copy of the game is made."""
    db = tmp_path / "j.db"
    assert cli("record", DEMOS["throw-throw-burrito"], "--journal", str(db)).returncode == 0
    rows = journal_rows(db)
    again = cli("record", DEMOS["throw-throw-burrito"], "--journal", str(db))
    assert again.returncode == 0 and "game 1 already holds this whole log, finished: nothing to write" in again.stdout
    assert journal_rows(db) == rows and rows[0] == [(1, 1)]


def test_a_game_that_time_ends_before_a_refused_event_is_marked_finished(tmp_path):
    """The last battle's window closes when time runs on to a late event: the game is won, so the journal says so,
    even though that event is refused (a restarted table must not offer a won game for resume)."""
    from game.journal import JournaledTable
    from game.rules.base import RuleInputError

    with Journal(str(tmp_path / "j.db")) as journal:
        live, _ = JournaledTable.new(journal, json.loads(TTB[0]))
        for line in TTB[1:]:
            live.submit(json.loads(line))
        assert journal.games() == [(1, False)]  # the final hit waits out its tie window
        with pytest.raises(RuleInputError, match="after the game was won"):
            live.submit({"t": live.table.last_t + 30, "event": "set", "seat": 1})
        assert journal.games() == [(1, True)] and journal.unfinished() == []
