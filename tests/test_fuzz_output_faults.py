"""Output faults (docs/faults.md, exit statuses): every command whose standard output cannot be written says so in
one stderr line with exit 1 and no traceback; a reader that goes away (``| head -1``) ends it quietly; Ctrl-C is one
line and exit 130; a file it is told to write that cannot be written is one line naming that file.

Real faults, not mocks: ``/dev/full`` (every write fails with ENOSPC), a pipe whose reading end is closed (EPIPE),
a folder that does not exist, a 0444 file in a 0555 folder for a child that dropped root's file powers, SIGINT.
Most run ``game.cli.main`` in-process with ``sys.stdout`` on the real device or pipe, so each costs milliseconds.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr
from pathlib import Path

import pytest
from fault_helpers import DEMOS, cli, read_only, without_root_file_powers

from game.cli import main

TTB = DEMOS["throw-throw-burrito"]
ZB = DEMOS["zombie-burrito"]


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("journal") / "j.db"
    with redirect_stderr(io.StringIO()), open(os.devnull, "w") as null:
        old, sys.stdout = sys.stdout, null
        try:
            assert main(["record", TTB, "--journal", str(path)]) == 0
        finally:
            sys.stdout = old
    return str(path)


def commands(journal: str, tmp: Path) -> list[list[str]]:
    """A command line of every command that prints: each must survive a stdout that cannot be written."""
    return [
        ["replay", TTB], ["replay", TTB, "--json", "--evidence"], ["replay", "--journal", journal],
        ["record", ZB, "--journal", str(tmp / "rec.db")], ["games"], ["games", "--json"],
        ["stats", "--journal", journal], ["stats", "--journal", journal, "--json"],
        ["pins"], ["pins", "--markdown"], ["doctor", "--mock", "--auto"], ["bom"], ["bom", "--csv", "--seats", "8"],
        ["detect", str(next(Path(__file__).parent.glob("data/phone_drops/*.csv.gz")))],
        ["demo", "--headless", "--mute", "--game", "zombie-burrito", "--journal", str(tmp / "demo.db")],
        ["--help"], ["replay", "--help"],
    ]


@contextmanager
def stdout_on(fd: int) -> Iterator[io.StringIO]:
    """``sys.stdout`` on a real file descriptor (as the shell's redirection leaves it), stderr captured."""
    err = io.StringIO()
    out = io.TextIOWrapper(io.FileIO(fd, "w", closefd=False), encoding="utf-8")
    old = sys.stdout
    sys.stdout = out
    try:
        with redirect_stderr(err):
            yield err
    finally:
        sys.stdout = old
        try:
            out.close()
        except OSError:
            pass


def test_every_command_on_a_full_device_is_one_line_and_exit_1(journal: str, tmp_path: Path) -> None:
    for n, argv in enumerate(commands(journal, tmp_path)):
        (tmp_path / str(n)).mkdir()
        argv = [a.replace(str(tmp_path), str(tmp_path / str(n))) for a in argv]
        full = os.open("/dev/full", os.O_WRONLY)  # anew each time: the command points a failed stdout at /dev/null
        try:
            with stdout_on(full) as err:
                status = main(argv)
        finally:
            os.close(full)
        said = err.getvalue()
        command = "burrito-table" if argv[-1] == "--help" else f"burrito-table {argv[0]}"
        assert status == 1, (argv, status, said)
        assert said.splitlines() == [f"{command}: cannot write standard output: No space left on device"], (argv, said)


def test_every_command_into_a_closed_pipe_ends_quietly(journal: str, tmp_path: Path) -> None:
    for n, argv in enumerate(commands(journal, tmp_path)):
        (tmp_path / str(n)).mkdir()
        argv = [a.replace(str(tmp_path), str(tmp_path / str(n))) for a in argv]
        read, write = os.pipe()
        os.close(read)  # the reader went away before the first line: every write is EPIPE
        try:
            with stdout_on(write) as err:
                status = main(argv)
        finally:
            os.close(write)
        assert status == 0 and err.getvalue() == "", (argv, status, err.getvalue())


@pytest.mark.parametrize("argv", [["replay", TTB], ["bom", "--seats", "12"], ["pins"]])
def test_head_1_and_dev_full_through_the_shell_leave_no_traceback(argv: list[str]) -> None:
    """The interpreter's own last flush at exit must not fail either: through a real shell and a real process."""
    cmd = " ".join([sys.executable, "-m", "game", *argv])
    head = subprocess.run(["sh", "-c", f"{cmd} | head -1; echo status=${{?}}"], capture_output=True, text=True,
                          timeout=60)
    assert head.stderr == "" and len(head.stdout.splitlines()) == 2, head
    full = subprocess.run(["sh", "-c", f"{cmd} > /dev/full"], capture_output=True, text=True, timeout=60)
    assert full.returncode == 1 and full.stderr.splitlines() == [
        f"burrito-table {argv[0]}: cannot write standard output: No space left on device"], full.stderr


def test_a_closed_stdout_is_one_line_and_exit_1() -> None:
    """``burrito-table bom >&-``: Python starts with no ``sys.stdout`` at all; the command says so and stops."""
    done = subprocess.run(["sh", "-c", f"{sys.executable} -m game bom >&-"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1 and done.stderr.splitlines() == [
        "burrito-table: cannot write standard output: it is closed"], done.stderr


def test_ctrl_c_is_one_line_and_exit_130(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "game", "record", TTB, "--journal", str(tmp_path / "j.db"),
                             "--pace", "5"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("journaled"):
            break
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and err.splitlines() == ["burrito-table record: interrupted"], err


def test_a_bad_option_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["record", TTB, "--journal", "x.db", "--pace", "soon"], ["bom", "--seats"], ["nope"],
                 ["replay", TTB, "--game", "1e400"], []):
        assert main(argv) == 2, argv
        out, err = capsys.readouterr()
        assert out == "" and len(err.splitlines()) == 1 and "--help" in err, (argv, err)


def test_a_screenshot_into_a_missing_folder_is_one_line_naming_it(journal: str, tmp_path: Path) -> None:
    shot = tmp_path / "missing" / "stats.png"
    done = cli("stats", "--journal", journal, "--screenshot", str(shot))
    assert done.returncode in (1, 2) and "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1 and str(shot) in done.stderr, done.stderr


def test_an_svg_into_a_read_only_file_or_a_missing_folder_is_one_line_and_exit_1(tmp_path: Path) -> None:
    locked = tmp_path / "ro" / "wiring.svg"
    locked.parent.mkdir()
    locked.write_text("old")
    read_only(locked)
    try:
        for target in (locked, tmp_path / "missing" / "wiring.svg"):
            done = cli("pins", "--svg", str(target), preexec=without_root_file_powers)
            assert done.returncode == 1, done
            assert len(done.stderr.splitlines()) == 1 and str(target) in done.stderr, done.stderr
        assert locked.read_text() == "old"
    finally:
        locked.parent.chmod(0o755)
