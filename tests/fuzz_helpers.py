"""The fuzz harness's shared parts: the bad-input promise as one check, byte mutators, and the time budget.

The promise (docs/faults.md): exit 0, 1 (the environment failed) or 2 (bad input); on a non-zero exit ONE stderr line,
naming the file for bad input; no traceback anywhere; every input file byte-identical afterwards; an answer within a
time limit. Commands run in-process (``game.cli.main``, stdout and stderr captured, ``SIGALRM`` for the limit): a
case costs milliseconds, not an interpreter start.

Budget: the ``ci`` hypothesis profile (``BURRITO_FUZZ_EXAMPLES`` examples per target, default 12) keeps the whole
harness well under a minute of CPU. ``BURRITO_FUZZ_SECONDS=N`` runs each target again and again, with fresh random
examples of the ``fuzz`` profile, until N seconds have gone on it: the long run, on demand.
"""

from __future__ import annotations

import hashlib
import io
import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from game.cli import main

# CI: no shrinking (a failure is reported as found, in bounded time) and the same examples on every run (CI's answer
# never depends on the draw; new ground is broken by the on-demand profile); on demand: random, shrunk to a minimal
# reproducer
settings.register_profile(
    "ci", max_examples=int(os.environ.get("BURRITO_FUZZ_EXAMPLES", "12")), deadline=None, database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
settings.register_profile("fuzz", max_examples=int(os.environ.get("BURRITO_FUZZ_EXAMPLES", "200")), deadline=None,
                          suppress_health_check=list(HealthCheck))

#: seconds each target runs on demand (0: one ``ci`` run)
FUZZ_SECONDS = float(os.environ.get("BURRITO_FUZZ_SECONDS", "0") or 0)
PROFILE = settings.get_profile("fuzz" if FUZZ_SECONDS else "ci")
#: the longest a command may take on a fuzzed input before it counts as a hang
HANG_S = float(os.environ.get("BURRITO_FUZZ_HANG_S", "20"))


def budget(test: Callable[[], None]) -> None:
    """Run a hypothesis test once (CI), or again and again until ``BURRITO_FUZZ_SECONDS`` have gone on it."""
    end = time.monotonic() + FUZZ_SECONDS
    test()
    while time.monotonic() < end:
        test()


class Hang(BaseException):
    """A command gave no answer in time (a BaseException: no ``except Exception`` in the code under test eats it)."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def ring(_signum: int, _frame: Any) -> None:
        raise Hang(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@dataclass
class Outcome:
    argv: list[str]
    status: int
    out: str
    err: str

    def __str__(self) -> str:
        return f"burrito-table {' '.join(self.argv)[:600]} -> {self.status}\nstderr: {self.err[-3000:]}"


def run_cli(argv: list[str], stdin: str = "", cwd: Path | None = None) -> Outcome:
    """``burrito-table ARGV`` in-process: status, stdout, stderr (an escaping exception fails the test as it is).

    It runs in ``cwd``: a fuzzed relative path (``--svg x``) is written there, never into the work tree."""
    out, err = io.StringIO(), io.StringIO()
    import sys

    old_stdin, old_cwd = sys.stdin, os.getcwd()
    sys.stdin = io.StringIO(stdin)
    if cwd is not None:
        os.chdir(cwd)
    try:
        with redirect_stdout(out), redirect_stderr(err), time_limit(HANG_S):
            try:
                status = main(argv)
            except SystemExit as exc:  # main returns statuses; a SystemExit out of it is a fault of its own
                raise AssertionError(f"SystemExit({exc.code!r}) escaped main for {argv}") from None
    finally:
        sys.stdin = old_stdin
        os.chdir(old_cwd)
    return Outcome(argv, status, out.getvalue(), err.getvalue())


def snapshot(paths: list[Path]) -> dict[Path, bytes | None]:
    return {p: (p.read_bytes() if p.is_file() else None) for p in paths}


def check_promise(argv: list[str], inputs: list[Path], *, cwd: Path | None = None, name: str | None = None,
                  outputs: Sequence[Path] = (), lines_may_be_many: bool = False, stdin: str = "") -> Outcome:
    """Run ``argv`` and hold it to the bad-input promise.

    ``inputs`` must be byte-identical afterwards whatever happened; ``outputs`` (a journal ``record`` may write) only
    when the command refused. ``name``: what the one stderr line of a refusal must contain (the file's path).
    ``cwd``: where it runs (default: the first file's folder), so a relative path it writes stays in the case.
    ``lines_may_be_many``: a command documented to list every problem (the pin map): each line names the file.
    """
    before = snapshot([*inputs, *outputs])
    files = [*inputs, *outputs]
    assert cwd is not None or files, "a case needs a folder to run in"
    cwd = cwd if cwd is not None else files[0].parent
    try:
        return _held(argv, inputs, before, name=name, outputs=outputs, many=lines_may_be_many, stdin=stdin, cwd=cwd)
    except AssertionError as exc:
        raise AssertionError(f"{exc}{keep([*inputs, *outputs])}") from None


def _held(argv: list[str], inputs: list[Path], before: dict[Path, bytes | None], *, name: str | None,
          outputs: Sequence[Path], many: bool, stdin: str, cwd: Path | None) -> Outcome:
    done = run_cli(argv, stdin, cwd)
    assert "Traceback" not in done.out and "Traceback" not in done.err, str(done)
    assert done.status in (0, 1, 2), str(done)
    if done.status != 0:
        lines = done.err.strip("\n").split("\n")  # not splitlines(): a \x1c in an echoed name is no new line
        if many:
            assert lines and all(name is None or name in line for line in lines), str(done)
        else:
            assert len(lines) == 1, str(done)
            assert len(lines[0]) <= 1000, str(done)
            if done.status == 2 and name is not None:
                assert name in lines[0], str(done)
    after = snapshot([*inputs, *outputs])
    for path in inputs:
        assert after[path] == before[path], f"{path} changed: {done}"
    if done.status != 0:
        for path in outputs:
            assert after[path] == before[path], f"{path} changed by a refused command: {done}"
    return done


@contextmanager
def private_home(root: Path) -> Iterator[None]:
    """Every default path (journal, settings, pairings, caches) under ``root``: the fuzzer never touches a real home."""
    keys = ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "BURRITO_RECEIVER",
            "SDL_VIDEODRIVER", "SDL_AUDIODRIVER", "GPIOZERO_PIN_FACTORY")
    old = {k: os.environ.get(k) for k in keys}
    for k, sub in (("HOME", "home"), ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"),
                   ("XDG_CACHE_HOME", "cache"), ("XDG_RUNTIME_DIR", "run")):
        (root / sub).mkdir(parents=True, exist_ok=True)
        os.environ[k] = str(root / sub)
    os.environ["BURRITO_RECEIVER"] = str(root / "no-receiver")
    os.environ["SDL_VIDEODRIVER"] = os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ["GPIOZERO_PIN_FACTORY"] = "mock"
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


class Blob(bytes):
    """File contents that print short: a failing example is named by its size, digest and head, not 60 KB of bytes
    (``BURRITO_FUZZ_KEEP=DIR`` keeps the whole file of every failure there)."""

    def __repr__(self) -> str:
        return f"Blob({len(self)} bytes, sha256 {hashlib.sha256(self).hexdigest()[:12]}, {bytes(self[:48])!r}...)"


def keep(paths: list[Path]) -> str:
    """Copy failing inputs to ``BURRITO_FUZZ_KEEP``, if set; say where."""
    folder = os.environ.get("BURRITO_FUZZ_KEEP")
    if not folder:
        return ""
    out = []
    for path in paths:
        if path.is_file():
            data = path.read_bytes()
            dest = Path(folder) / f"{hashlib.sha256(data).hexdigest()[:12]}-{path.name}"
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
            out.append(str(dest))
    return f" (kept: {', '.join(out)})"


# -- mutators ---------------------------------------------------------------------------------------------------

INTERESTING = [b"\x00", b"\xff", b"\x7f", b"\x80", b"\xfe\xff", b"\x00\x00\x00\x80", b"\xff\xff\xff\xff", b"\n",
               b"\r", b'"', b"[", b"{", b"}", b",", b"=", b"nan", b"inf", b"-1", b"1e999", b"\xc3", b"\xef\xbb\xbf"]


@st.composite
def mutated_bytes(draw: st.DrawFn, seed: bytes, max_edits: int = 4) -> bytes:
    """``seed`` with 1-``max_edits`` edits: a flipped bit, an interesting byte string written over or put in, a
    range dropped or doubled, the tail cut off. Small edits of a valid file reach deep into its reader."""
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, max_edits))):
        at = draw(st.integers(0, max(0, len(data) - 1)))
        how = draw(st.sampled_from(("flip", "over", "insert", "drop", "double", "cut", "random")))
        if how == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif how == "over":
            chunk = draw(st.sampled_from(INTERESTING))
            data[at:at + len(chunk)] = chunk
        elif how == "insert":
            data[at:at] = draw(st.sampled_from(INTERESTING) | st.binary(min_size=1, max_size=16))
        elif how == "drop":
            del data[at:at + draw(st.integers(1, 64))]
        elif how == "double":
            n = draw(st.integers(1, 64))
            data[at:at] = data[at:at + n]
        elif how == "cut":
            del data[at:]
        else:
            data[at:at + 8] = draw(st.binary(min_size=1, max_size=8))
    return Blob(data)


@st.composite
def mutated_lines(draw: st.DrawFn, seed: str, values: st.SearchStrategy[str]) -> str:
    """``seed`` with a few whole lines dropped, doubled, moved, or one of their fields replaced by a hostile value."""
    rows = seed.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        if not rows:
            break
        i = draw(st.integers(0, len(rows) - 1))
        how = draw(st.sampled_from(("drop", "double", "move", "field")))
        if how == "drop":
            del rows[i]
        elif how == "double":
            rows.insert(i, rows[i])
        elif how == "move":
            rows.insert(draw(st.integers(0, len(rows))), rows.pop(i))
        else:
            sep = "," if "," in rows[i] else "="
            cells = rows[i].split(sep)
            j = draw(st.integers(0, len(cells) - 1))
            cells[j] = (cells[j].split("=")[0] + "= " if sep == "=" else "") + draw(values)
            rows[i] = sep.join(cells)
    return "\n".join(rows) + draw(st.sampled_from(("\n", "", "\r\n")))


HOSTILE_TEXT = st.one_of(
    st.sampled_from(["", "nan", "inf", "-inf", "-1", "0", "1e999", "-1e999", "9" * 400, "0x10", "true", "null",
                     '"x"', "[]", "{}", "[[[[", "\u00b2", "\x00", "  ", "1_000", "0.0.0", '"\\ud800"',
                     '"' + "x" * 5000 + '"']),
    st.integers().map(str), st.floats().map(repr), st.text(max_size=20))

hostile_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=10**300, max_value=10**310)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12)
    | st.sampled_from(["", "x" * 3000, "throw-throw-burrito", "burrito", "badge", "02:00:00:00:00:01"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8)


def json_paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document a value can be replaced."""
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += json_paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += json_paths(v, (*prefix, i))
    return out


@st.composite
def mutated_json(draw: st.DrawFn, seed: Any) -> Any:
    """``seed`` (a parsed document) with 1-3 values replaced by hostile ones, or keys dropped or added."""
    import copy

    doc = copy.deepcopy(seed)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(json_paths(doc)))
        if not path:
            doc = draw(hostile_json) if draw(st.integers(0, 9)) == 0 else doc
            continue
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        how = draw(st.sampled_from(("value", "value", "drop", "add")))
        if how == "value":
            parent[path[-1]] = draw(hostile_json)
        elif how == "drop":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(hostile_json)
        else:
            parent.append(draw(hostile_json))
    return doc
