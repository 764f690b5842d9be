"""Real faults for the journal tests: another user, a file size limit, damaged pages, another program's file.

The commands run in forked children (see ``fork``). Nothing here is mocked. A read-only journal is read-only for real: CI runs as root, and root ignores file modes,
so the command runs in a child that has dropped root's file capabilities before ``exec``. A full disk is
``RLIMIT_FSIZE`` (``ulimit -f``): the kernel refuses the write that would pass the limit with ``EFBIG`` (Python
ignores ``SIGXFSZ``), which SQLite reports as a full disk. A damaged page is bytes overwritten in the file.
"""

from __future__ import annotations

import ctypes
import hashlib
import io
import os
import resource
import select
import signal
import sqlite3
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from game.cli import build_parser, main

build_parser()  # every command module imported before the first fork: the children start at once

ROOT = Path(__file__).resolve().parent.parent
DEMOS = {name: str(resources.files(f"game.games.{name.replace('-', '_')}").joinpath("data/demo.jsonl"))
         for name in ("throw-throw-burrito", "zombie-burrito", "taco-vs-burrito")}


def demo_lines(name: str) -> list[str]:
    return Path(DEMOS[name]).read_text(encoding="utf-8").splitlines()


def cli(*args: str, preexec: Callable[[], None] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``burrito-table ARGS`` in a child process, as an operator runs it (``preexec`` runs first in the child).

    The child is forked from the test process with every command module already imported, so it starts in
    milliseconds; it runs ``game.cli.main`` and its exit status is the command's (-9 if it was killed).
    """
    status, out, err = run(*args, before=preexec, timeout=timeout)
    return subprocess.CompletedProcess(["burrito-table", *args], -9 if status is None else status, out, err)


#: Linux capabilities that let root ignore file modes and flags (linux/capability.h).
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER, CAP_LINUX_IMMUTABLE = 1, 2, 3, 9
PR_CAPBSET_DROP = 24


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


_LINUX_CAPABILITY_VERSION_3 = 0x20080522


def without_root_file_powers() -> None:
    """In a child: drop the capabilities that let root write a 0444 file or a 0555 folder, for good.

    They leave this process's effective and permitted sets (``capset``) and the bounding set, so neither this
    process nor anything it execs gets them back: root that obeys file modes, for real (``nobody`` would not do:
    Python itself may live under a 0700 ``/root``). A non-root user obeys file modes anyway.
    """
    if os.getuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    drop = (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER, CAP_LINUX_IMMUTABLE)
    for cap in drop:
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed: cannot make a read-only journal")
    header = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    if libc.capget(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capget failed")
    mask = ~sum(1 << cap for cap in drop) & 0xFFFFFFFF
    data[0].effective &= mask
    data[0].permitted &= mask
    data[0].inheritable &= mask
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset failed: cannot make a read-only journal")


def read_only(path: Path) -> None:
    """The journal file 0444 in a 0555 folder: nothing can be written, added or renamed there."""
    path.chmod(0o444)
    path.parent.chmod(0o555)


def file_limit(limit_bytes: int) -> Callable[[], None]:
    """In the child before exec: ``ulimit -f``; no file may grow past ``limit_bytes``."""
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))
    return apply


def digest(path: Path | str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def one_line_error(stderr: str, name: str) -> str:
    """The single stderr line of a refused command; it names the file and carries no traceback."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr[-3000:]
    assert "Traceback" not in stderr and name in lines[0], lines[0]
    return lines[0]


def page_size(db: Path | str) -> int:
    with sqlite3.connect(db) as con:
        return int(con.execute("PRAGMA page_size").fetchone()[0])


def pages_of(db: Path | str, table: str) -> list[int]:
    """The b-tree pages (1-based) of one table, from SQLite's own ``dbstat``."""
    con = sqlite3.connect(db)
    try:
        return [p for (p,) in con.execute("SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno", (table,))]
    finally:
        con.close()


def page_holding(db: Path | str, needle: bytes) -> int:
    """The page whose bytes hold ``needle`` (a JSON body known to be in one game only)."""
    data = Path(db).read_bytes()
    at = data.find(needle)
    assert at >= 0, needle
    return at // page_size(db) + 1


def damage_page(db: Path | str, page: int) -> None:
    """Overwrite a page's b-tree header (its first 12 bytes) with 0xFF: the page is unreadable as a tree page."""
    size = page_size(db)
    with open(db, "r+b") as handle:
        handle.seek((page - 1) * size + (100 if page == 1 else 0))
        handle.write(b"\xff" * 12)


def damage_bytes(db: Path | str, needle: bytes, junk: bytes) -> None:
    """Overwrite ``needle`` inside the file with ``junk`` of the same length: the page is sound, a row is not."""
    assert len(needle) == len(junk)
    data = Path(db).read_bytes()
    at = data.find(needle)
    assert at >= 0, needle
    with open(db, "r+b") as handle:
        handle.seek(at)
        handle.write(junk)


def foreign_sqlite(path: Path) -> None:
    """Another program's database: its own tables, rollback journal, no application id of ours."""
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT, phone TEXT)")
    con.executemany("INSERT INTO contacts (name, phone) VALUES (?, ?)", [("Ana", "555-0100"), ("Ben", "555-0101")])
    con.commit()
    con.close()


def journal_rows(db: Path | str) -> tuple[list[tuple[int, int]], list[tuple[int, int, str]]]:
    """Every game ``(id, finished)`` and every event ``(game, seq, body)``; never creates the file.

    ``mode=rw`` with ``query_only``, not ``mode=ro``: after a kill the first reader must rebuild the WAL index.
    """
    if not os.path.exists(db):
        return [], []  # killed before the first open made the file
    con = sqlite3.connect(f"file:{db}?mode=rw", uri=True)
    con.execute("PRAGMA query_only = 1")
    try:
        if not con.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone():
            return [], []  # killed while the first open was making the file: no game yet
        games = con.execute("SELECT id, finished FROM games ORDER BY id").fetchall()
        events = con.execute("SELECT game_id, seq, body FROM events ORDER BY game_id, seq").fetchall()
    finally:
        con.close()
    return games, events


# -- forked children: the real commands in a child process that starts in milliseconds ---------------------------


@dataclass
class Child:
    pid: int
    out: int
    err: int
    lines: list[str] = field(default_factory=list)
    _buf: bytes = b""

    def read_until(self, done: Callable[[str], bool], timeout: float = 60.0) -> bool:
        """Collect stdout lines until one satisfies ``done`` (True) or the child closes stdout (False)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.out], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            chunk = os.read(self.out, 65536)
            if not chunk:
                return False
            self._buf += chunk
            *complete, self._buf = self._buf.split(b"\n")
            for raw in complete:
                line = raw.decode()
                self.lines.append(line)
                if done(line):
                    return True
        raise AssertionError(f"child {self.pid} neither said it nor ended within {timeout} s: {self.lines[-3:]}")

    def kill(self) -> None:
        os.kill(self.pid, signal.SIGKILL)

    def wait(self) -> tuple[int | None, str]:
        """Reap the child; the rest of its stdout joins ``lines``. Exit status (None when killed) and stderr."""
        _, status = os.waitpid(self.pid, 0)
        while chunk := os.read(self.out, 65536):
            self._buf += chunk
        *complete, _partial = self._buf.split(b"\n")  # a line cut by the kill was never fully said
        self.lines += [raw.decode() for raw in complete]
        self._buf = b""
        err = b""
        while chunk := os.read(self.err, 65536):
            err += chunk
        os.close(self.out)
        os.close(self.err)
        return (os.WEXITSTATUS(status) if os.WIFEXITED(status) else None), err.decode(errors="replace")


def fork(fn: Callable[[], int]) -> Child:
    """Run ``fn`` in a forked child whose stdout and stderr are pipes; its return value is the exit status."""
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 99
        try:
            os.close(out_r)
            os.close(err_r)
            os.dup2(out_w, 1)
            os.dup2(err_w, 2)
            sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), line_buffering=True)
            sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), line_buffering=True)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            code = fn()
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001 - reported through the pipe, the test fails on status 99
            os.write(2, traceback.format_exc().encode())
        os._exit(code)
    os.close(out_w)
    os.close(err_w)
    return Child(pid, out_r, err_r)


def run(*argv: str, before: Callable[[], None] | None = None, timeout: float = 60.0) -> tuple[int | None, str, str]:
    """``burrito-table ARGV`` in a forked child (``before`` runs first in it: drop a power, set a limit)."""
    def child() -> int:
        if before is not None:
            before()
        return main(list(argv))

    proc = fork(child)
    proc.read_until(lambda _line: False, timeout)
    status, err = proc.wait()
    return status, "\n".join(proc.lines) + ("\n" if proc.lines else ""), err
