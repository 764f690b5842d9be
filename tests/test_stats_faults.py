"""``burrito-table stats`` under bad input and a failing environment (docs/faults.md): a missing, damaged, foreign,
read-only or locked journal, bad ``--since`` dates, hostile names, a standard output that is full or closed, and a
journal holding a game this table no longer has installed. One line, the right status, nothing written."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from game.journal import Journal
from tests.fault_helpers import (
    damage_page,
    digest,
    foreign_sqlite,
    one_line_error,
    pages_of,
    read_only,
    without_root_file_powers,
)
from tests.test_stats import demo, record_game

ROOT = Path(__file__).resolve().parent.parent


def stats(*args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    """The command as an operator runs it, in a fresh interpreter."""
    return subprocess.run([sys.executable, "-m", "game", "stats", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, **kw)  # type: ignore[call-overload]


def journal_with(path: Path, games: int = 1) -> Path:
    with Journal(str(path)) as j:
        for _ in range(games):
            record_game(j, *demo("throw-throw-burrito"))
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path


def files(folder: Path) -> dict[str, str]:
    """Every file's bytes by name, but SQLite's own housekeeping of a WAL journal, which a reader may make: the
    shared-memory index (``-shm``: readers' marks) and an empty ``-wal``. A ``-wal`` with anything in it counts."""
    return {p.name: digest(p) for p in sorted(folder.iterdir()) if p.is_file() and not p.name.endswith("-shm")
            and not (p.name.endswith("-wal") and p.stat().st_size == 0)}


def test_a_game_of_a_game_not_installed_is_listed_as_journaled_with_one_note(tmp_path: Path) -> None:
    """A plugin game the table no longer has: today the whole history was refused (exit 2). Now the other games
    fold as before, that one is listed by what the journal holds, and one line says so."""
    path = journal_with(tmp_path / "j.db")
    db = sqlite3.connect(path)
    setup = json.dumps({"event": "setup", "game": "burrito-bowling", "seats": 3,
                        "players": {"1": {"name": "Ana"}}})
    db.execute("INSERT INTO games (setup, started, finished) VALUES (?, 1796000000, 1)", (setup,))
    db.executemany("INSERT INTO events (game_id, seq, t, body) VALUES (2, ?, ?, ?)",
                   [(i, i * 1.5, json.dumps({"t": i * 1.5, "event": "strike", "seat": 1})) for i in range(1, 8)])
    db.commit()
    db.close()
    before = files(tmp_path)
    r = stats("--journal", str(path), "--json")
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    plugin = rep["games"][1]
    assert (plugin["game"], plugin["events"], plugin["duration_s"], plugin["winners"]) == ("burrito-bowling", 7, 10.5, [])
    assert [s["name"] for s in plugin["seats"]] == [None, None, None]
    assert {p["name"]: p["games"] for p in rep["players"]} == {"Ana": 1, "Bo": 1, "Cy": 1}  # the folded game only
    assert "not installed here (#2 'burrito-bowling')" in one_line_error(r.stderr, str(path))
    assert files(tmp_path) == before
    text = stats("--journal", str(path))
    assert text.returncode == 0 and "#2 " in text.stdout and "burrito-bowling, 3 seats, 10 s: no winner" in text.stdout


def test_standard_output_on_a_full_disk_is_one_line_and_exit_1(tmp_path: Path) -> None:
    path = journal_with(tmp_path / "j.db")
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "game", "stats", "--journal", str(path)], cwd=ROOT, stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=60)
    assert r.returncode == 1
    assert "No space left on device" in one_line_error(r.stderr, "standard output")


def test_standard_output_closed_early_ends_quietly(tmp_path: Path) -> None:
    """A reader that went away (``stats --json | head -c 1`` with a long history): was a BrokenPipeError traceback;
    now quiet, as every command (the reader chose to stop reading: not an error of ours)."""
    path = journal_with(tmp_path / "j.db", games=40)  # well over a pipe's 64 kB of JSON
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        r = subprocess.run([sys.executable, "-m", "game", "stats", "--journal", str(path), "--json"], cwd=ROOT,
                           stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write_end)
    assert r.returncode == 0 and r.stderr == ""


def test_no_standard_output_at_all_is_not_a_success(tmp_path: Path) -> None:
    """``stats >&-``: today nothing was printed and the exit status said all was well."""
    path = journal_with(tmp_path / "j.db")
    r = subprocess.run(f"exec {sys.executable} -m game stats --journal {path} >&-", shell=True, cwd=ROOT,
                       stderr=subprocess.PIPE, text=True, timeout=60)
    assert r.returncode == 1
    assert "closed" in one_line_error(r.stderr, "standard output")


@pytest.mark.parametrize("since", ["2026-13-01", "yesterday", "99999-01-01", "2026-11-30T25:00", "",
                                   "\x1b[31m" + "9" * 100_000])
def test_a_bad_since_is_one_bounded_line_and_exit_2(tmp_path: Path, since: str) -> None:
    path = journal_with(tmp_path / "j.db")
    before = files(tmp_path)
    r = stats("--journal", str(path), "--since", since) if since else stats("--journal", str(path), "--since=")
    if since == "":
        assert r.returncode == 0  # an empty --since is no filter, as before
        return
    assert r.returncode == 2
    line = one_line_error(r.stderr, "--since")
    assert len(line) < 300 and "\x1b" not in line and r.stdout == ""
    assert files(tmp_path) == before


def test_a_hostile_player_name_is_said_bounded_on_one_line(tmp_path: Path) -> None:
    path = journal_with(tmp_path / "j.db")
    r = stats("--journal", str(path), "--player", "Zed\n\x1b[2J" + "z" * 100_000)
    assert r.returncode == 0 and "Match history (0 games)" in r.stdout
    line = one_line_error(r.stderr, "no games for player")
    assert len(line) < 300 and "\x1b" not in line


def test_a_hostile_name_in_a_damaged_row_is_refused_naming_the_game(tmp_path: Path) -> None:
    """A name no table would journal (a control sequence, 5,000 characters), written into the row by hand."""
    path = journal_with(tmp_path / "j.db")
    db = sqlite3.connect(path)
    setup = json.loads(db.execute("SELECT setup FROM games WHERE id = 1").fetchone()[0])
    setup["players"] = {"1": {"name": "\x1b[2J" + "x" * 5000}}
    db.execute("UPDATE games SET setup = ? WHERE id = 1", (json.dumps(setup),))
    db.commit()
    db.close()
    before = files(tmp_path)
    r = stats("--journal", str(path))
    assert r.returncode == 2
    line = one_line_error(r.stderr, f"journal {path}: game 1")
    assert len(line) < 400 and "\x1b" not in line
    assert files(tmp_path) == before


@pytest.mark.parametrize("kind", ["missing", "damaged", "foreign", "empty", "directory"])
def test_a_journal_stats_cannot_read_is_one_line_exit_2_and_left_as_it_was(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "j.db"
    if kind == "damaged":
        journal_with(path, games=3)
        damage_page(path, pages_of(path, "events")[-1])
    elif kind == "foreign":
        foreign_sqlite(path)
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "directory":
        path.mkdir()
    before = files(tmp_path)
    r = stats("--journal", str(path))
    assert r.returncode == 2, (r.returncode, r.stderr)
    one_line_error(r.stderr, str(path))
    assert files(tmp_path) == before and r.stdout == ""


def test_a_read_only_journal_is_read_and_nothing_is_written(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    path = journal_with(folder / "j.db")
    before = files(folder)
    read_only(path)
    try:
        r = stats("--journal", str(path), preexec_fn=without_root_file_powers)
    finally:
        folder.chmod(0o755)
    assert r.returncode == 0, r.stderr
    assert "Match history (1 games)" in r.stdout and r.stderr == ""
    assert files(folder) == before


def test_a_locked_journal_is_one_line_and_exit_1(tmp_path: Path) -> None:
    """Another process holds the journal exclusively (``locking_mode=EXCLUSIVE`` after a write): the environment."""
    path = journal_with(tmp_path / "j.db")
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("UPDATE games SET finished = finished")
    try:
        r = stats("--journal", str(path))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert "locked" in one_line_error(r.stderr, str(path)) and r.stdout == ""
