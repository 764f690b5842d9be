"""Fault injection, seeded: SIGKILL during ``record`` and ``play``, a full disk, a read-only journal, damaged pages,
other programs' SQLite files.

Every case ends the same way: the command stops with one line on stderr naming the file (exit 2 for a bad file, 1
for the environment) or is killed; then nothing journaled is lost (every event a run announced is still there, in
order, once), and no new game is ever started over an unfinished one.

The kills are real ``SIGKILL``s of child processes. To make well over a hundred of them in seconds, the children
are forked from this process (the modules already imported) rather than started afresh: each child runs the real
``burrito-table record`` (``game.cli.main``) or the real table loop of ``play`` (``TableApp`` on the simulation rig:
MockFactory seat panels pressed by the bots, the journal, resume through the lobby's SET) on a stepped fast clock.
``BURRITO_FAULT_SEED`` changes the seed; each test prints its figures (``pytest -s``).
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from fault_helpers import (
    DEMOS,
    damage_page,
    demo_lines,
    digest,
    file_limit,
    fork,
    journal_rows,
    one_line_error,
    page_holding,
    read_only,
    run,
    without_root_file_powers,
)

from game.cli import main
from game.journal import Journal
from game.log import run_log
from game.registry import game_for
from game.table.clock import SteppedClock
from game.table.loop import TableApp
from game.table.sim import open_sim, press

SEED = int(os.environ.get("BURRITO_FAULT_SEED", "20261201"))
GAMES = ("throw-throw-burrito", "zombie-burrito", "taco-vs-burrito")
STEP_S = 1.0 / 60.0
#: SIGKILLs at least, per command: the games are played again (fresh journals) until the quota is met.
RECORD_KILLS = 100
PLAY_KILLS = 40

def journaled(line: str) -> int | None:
    return int(line.split()[1]) if line.startswith("journaled ") else None


@dataclass
class Figures:
    kills: int = 0
    resumes: int = 0
    runs: int = 0
    seconds: float = 0.0

    def say(self, what: str) -> None:
        print(f"{what}: {self.kills} SIGKILLs, {self.resumes} resumes checked, {self.runs} runs, "
              f"{self.seconds:.1f} s (seed {SEED})")


def check_after_kill(db: str, expected: list[dict] | None, seen: list[str], announced: int) -> list[str]:
    """The journal after a kill: at most one game, every announced event there, the old events a prefix."""
    if not os.path.exists(db):
        assert announced == 0
        return seen
    games, events = journal_rows(db)
    assert len(games) <= 1, f"a second game was started: {games}"
    bodies = [b for _, _, b in events]
    assert [s for _, s, _ in events] == list(range(1, len(events) + 1)), "a gap or a duplicate in the events"
    assert len(bodies) >= announced, f"{announced} events were announced, {len(bodies)} are journaled"
    assert bodies[: len(seen)] == seen, "an event journaled before was changed or lost"
    if expected is not None:
        assert [json.loads(b) for b in bodies] == expected[: len(bodies)], "the journal is not the log's prefix"
    if games:
        with Journal(db, read_only=True) as journal:  # and it opens: integrity check, a journal's tables
            assert journal.games() == [(g, bool(f)) for g, f in games]
    return bodies


# -- SIGKILL during record -------------------------------------------------------------------------------------


def test_sigkill_during_record_at_seeded_random_points_loses_nothing_and_splices_nothing(tmp_path):
    rng = random.Random(SEED)
    figures = Figures()
    start = time.monotonic()
    rounds = 0
    while rounds < len(GAMES) or figures.kills < RECORD_KILLS:  # every game once, then on to the quota
        name = GAMES[rounds % len(GAMES)]
        rounds += 1
        lines = demo_lines(name)
        expected = [json.loads(json.dumps(e)) for e in run_log(lines)[0].events]
        db = str(tmp_path / f"{rounds}-{name}.db")
        seen: list[str] = []
        announced = 0
        while True:
            pace = rng.choice(("0", "0.001", "0.003"))
            child = fork(lambda db=db, name=name, pace=pace: main(["record", DEMOS[name], "--journal", db,
                                                                   "--pace", pace]))
            figures.runs += 1
            if rng.random() < 0.3:  # anywhere: opening, the integrity check, the resume fold, a commit
                time.sleep(rng.uniform(0.0, 0.04))
                finished = False
            else:  # just after a chosen event was announced, plus up to 3 ms: inside the next commit
                target = announced + rng.choice((1, 1, 2))
                finished = not child.read_until(lambda line, target=target: (journaled(line) or 0) >= target)
                time.sleep(rng.uniform(0.0, 0.003))
            child.kill()
            status, err = child.wait()
            if status is None:
                figures.kills += 1
            else:
                assert status == 0, err
                finished = True
            runs_said = [n for n in map(journaled, child.lines) if n is not None]
            resumed = [x for x in child.lines if x.startswith("resumed game")]
            if resumed:  # what the run resumed from is exactly what the journal held
                assert resumed[0] == f"resumed game 1 after {len(seen)} events", (resumed, len(seen))
                figures.resumes += 1
            announced = max([announced, *runs_said])
            seen = check_after_kill(db, expected, seen, announced)
            if finished and status == 0:
                break
        games, _ = journal_rows(db)
        assert games == [(1, 1)] and len(seen) == len(expected)
        status, out, err = run("replay", "--journal", db, "--json")
        assert status == 0 and json.loads(out) == run_log(lines)[0].summary(), err
    figures.seconds = time.monotonic() - start
    figures.say("record")
    assert figures.kills >= RECORD_KILLS and figures.resumes >= RECORD_KILLS // 2


# -- SIGKILL during play --------------------------------------------------------------------------------------


def play_child(db: str, game: str, seed: int) -> int:
    """The table loop of ``burrito-table play --sim``, bots at the seats, on a stepped fast clock.

    With an unfinished game in the journal the lobby must offer it, and a SET press on panel 1 resumes it, the
    way a table restarted after a power cut is carried on.
    """
    mode = game_for(game)
    clock = SteppedClock()
    rig = open_sim(clock, seats=mode.demo_seats, devices=False, seed=seed)
    journal = Journal(db)
    try:
        app = TableApp(panels=rig.panels, journal=journal, clock=clock, use_referee=False, mode=mode,
                       seatmap=list(range(1, mode.demo_seats + 1)))
        app.presenter.pace = 0.35
        if journal.unfinished():
            app.open_lobby()
            if app.lobby is None or app.lobby.resume is None:
                print("the lobby did not offer the unfinished game", flush=True)
                return 5
            press(rig, 1, "SET", True)
            for _ in range(120):
                app.step(clock.advance(STEP_S))
                if app.live is not None:
                    break
            press(rig, 1, "SET", False)
            assert app.live is not None
            print(f"resumed game {app.live.game_id} after {len(app.live.table.events)} events", flush=True)
        else:
            app.start(mode.demo_setup(seed))
        assert app.live is not None
        bots = mode.bots(app, rig, seed, True)
        said = len(app.live.table.events)
        for _ in range(200_000):
            if app.over:
                return 0
            now = clock.advance(STEP_S)
            bots.step(now)
            app.step(now)
            if app.error is not None:
                print(f"failsafe: {app.error}", flush=True)
                return 3
            if len(app.live.table.events) != said:
                said = len(app.live.table.events)
                print(f"journaled {said}", flush=True)
        return 4  # no end: a resumed game the bots cannot finish
    finally:
        rig.close()
        journal.close()


def test_sigkill_during_play_at_seeded_random_points_resumes_through_the_lobby_and_loses_nothing(tmp_path):
    rng = random.Random(SEED + 1)
    figures = Figures()
    start = time.monotonic()
    rounds = 0
    while rounds < len(GAMES) or figures.kills < PLAY_KILLS:
        name = GAMES[rounds % len(GAMES)]
        rounds += 1
        db = str(tmp_path / f"play-{rounds}-{name}.db")
        seen: list[str] = []
        announced = 0
        while True:
            seed = rng.randrange(1000)
            child = fork(lambda db=db, name=name, seed=seed: play_child(db, name, seed))
            figures.runs += 1
            if rng.random() < 0.3:
                time.sleep(rng.uniform(0.0, 0.15))
                finished = False
            else:
                target = announced + rng.randint(2, 6)
                finished = not child.read_until(lambda line, target=target: (journaled(line) or 0) >= target)
                time.sleep(rng.uniform(0.0, 0.003))
            child.kill()
            status, err = child.wait()
            if status is None:
                figures.kills += 1
            else:
                assert status == 0, (status, child.lines[-3:], err[-2000:])
                finished = True
            resumed = [x for x in child.lines if x.startswith("resumed game")]
            if resumed:
                assert resumed[0] == f"resumed game 1 after {len(seen)} events", (resumed, len(seen))
                figures.resumes += 1
            announced = max([announced, *(n for n in map(journaled, child.lines) if n is not None)])
            seen = check_after_kill(db, None, seen, announced)
            if (finished and status == 0) or journal_rows(db)[0] == [(1, 1)]:
                break  # over (a kill after the winning event only stopped the closing screen)
        games, events = journal_rows(db)
        assert games == [(1, 1)]
        status, out, err = run("replay", "--journal", db, "--json")
        assert status == 0, err
        summary = json.loads(out)
        assert summary.get("winner") or summary.get("winners"), summary
    figures.seconds = time.monotonic() - start
    figures.say("play")
    assert figures.kills >= PLAY_KILLS and figures.resumes >= PLAY_KILLS // 2


# -- the environment fails: a full disk, a read-only journal ---------------------------------------------------


def said_events(out: str) -> int:
    return max([0, *(n for n in map(journaled, out.splitlines()) if n is not None)])


@pytest.mark.parametrize("name", GAMES)
def test_a_full_disk_at_a_seeded_size_stops_record_with_exit_1_and_it_carries_on_once_there_is_room(tmp_path, name):
    """``RLIMIT_FSIZE`` in the child: the write that would pass the limit fails as on a full disk."""
    rng = random.Random(f"{SEED}-disk-{name}")
    db = tmp_path / "j.db"
    limit = rng.randrange(16_384, 60_000)
    status, out, err = run("record", DEMOS[name], "--journal", str(db), before=file_limit(limit))
    assert status == 1, (limit, err)
    one_line_error(err, str(db))
    games, events = journal_rows(db)
    assert len(games) <= 1 and len(events) >= said_events(out)
    status, out, err = run("record", DEMOS[name], "--journal", str(db))
    assert status == 0, err
    if games:
        assert f"resumed game 1 after {len(events)} events" in out
    assert journal_rows(db)[0] == [(1, 1)]


@pytest.mark.parametrize("name", GAMES)
def test_a_journal_made_read_only_at_a_seeded_point_is_refused_with_exit_1_then_resumed(tmp_path, name):
    """Read-only for real: 0444 in a 0555 folder, and the child has dropped root's power to ignore modes."""
    rng = random.Random(f"{SEED}-ro-{name}")
    lines = demo_lines(name)
    cut = rng.randrange(2, len(lines) - 1)
    part = tmp_path / "part.jsonl"
    part.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "j.db"
    assert run("record", str(part), "--journal", str(db))[0] == 0
    before = digest(db)
    read_only(db)
    try:
        status, out, err = run("record", DEMOS[name], "--journal", str(db), before=without_root_file_powers)
        assert status == 1 and "readonly" in one_line_error(err, str(db)) and out == ""
        assert digest(db) == before
        status, out, err = run("replay", "--journal", str(db), "--json", before=without_root_file_powers)
        assert status == 0 and json.loads(out) == run_log(lines[:cut])[0].summary(), err
    finally:
        folder.chmod(0o755)
        db.chmod(0o644)
    status, out, err = run("record", DEMOS[name], "--journal", str(db))
    assert status == 0 and f"resumed game 1 after {cut - 1} events" in out, err


# -- the file is bad: damaged pages, other programs' files -------------------------------------------------------


def three_games(tmp_path: Path) -> Path:
    """Two finished games and an unfinished one, as a table's journal looks after a party."""
    db = tmp_path / "party.db"
    for name in GAMES[:2]:
        assert run("record", DEMOS[name], "--journal", str(db))[0] == 0
    part = tmp_path / "part.jsonl"
    part.write_text("\n".join(demo_lines(GAMES[2])[:40]) + "\n", encoding="utf-8")
    assert run("record", str(part), "--journal", str(db))[0] == 0
    return db


@pytest.mark.parametrize("whose", ["finished", "unfinished"])
def test_a_damaged_page_in_a_finished_or_the_unfinished_game_is_refused_and_the_file_left_as_it_was(tmp_path, whose):
    rng = random.Random(f"{SEED}-page-{whose}")
    db = three_games(tmp_path)
    lines = demo_lines(GAMES[0] if whose == "finished" else GAMES[2])
    events = run_log(lines)[0].events if whose == "finished" else run_log(lines[:40])[0].events
    needle = json.dumps(rng.choice(events[1:-1]))[:48].encode()
    damage_page(db, page_holding(db, needle))
    before = digest(db)
    for args in (("record", DEMOS[GAMES[2]], "--journal", str(db)), ("replay", "--journal", str(db))):
        status, out, err = run(*args)
        assert status == 2, err
        assert "damaged" in one_line_error(err, str(db)) and out == ""
        assert digest(db) == before


def foreign_files(rng: random.Random, folder: Path) -> list[Path]:
    """Other programs' SQLite files, shaped by the seed: own tables, a journal's table names with other columns,
    another application id, WAL or rollback."""
    made = []
    for i in range(6):
        path = folder / f"foreign-{i}.db"
        con = sqlite3.connect(path)
        con.execute(f"PRAGMA journal_mode = {rng.choice(['delete', 'wal', 'truncate'])}")
        kind = i % 3
        if kind == 0:
            con.execute(f"CREATE TABLE t{rng.randrange(100)} (a, b)")
        elif kind == 1:
            con.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT)")
            con.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, what TEXT)")
        else:
            con.execute(f"PRAGMA application_id = {rng.randrange(1, 1 << 31)}")
        con.execute("CREATE TABLE IF NOT EXISTS filler (x)")
        con.executemany("INSERT INTO filler VALUES (?)", [(rng.random(),) for _ in range(rng.randrange(1, 50))])
        con.commit()
        con.close()
        made.append(path)
    return made


def test_other_programs_sqlite_files_are_refused_unchanged(tmp_path):
    rng = random.Random(f"{SEED}-foreign")
    for path in foreign_files(rng, tmp_path):
        before = digest(path)
        con = sqlite3.connect(path)
        mode = con.execute("PRAGMA journal_mode").fetchone()[0]
        tables = con.execute("SELECT name FROM sqlite_master ORDER BY name").fetchall()
        con.close()
        for args in (("record", DEMOS[GAMES[0]], "--journal", str(path)), ("replay", "--journal", str(path))):
            status, out, err = run(*args)
            assert status == 2, err
            assert "not a Burrito Table journal" in one_line_error(err, str(path)) and out == ""
        assert digest(path) == before
        con = sqlite3.connect(path)
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == mode
        assert con.execute("SELECT name FROM sqlite_master ORDER BY name").fetchall() == tables
        con.close()
