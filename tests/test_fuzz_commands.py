"""Fuzzing the command line (hypothesis): every subcommand of ``burrito-table`` (found by asking the parser, so a new
command is fuzzed the day it is added) with odd options and values: hostile numbers and strings, missing files,
folders where files belong, over-long names, other kinds' files. The bad-input promise holds for each
(``fuzz_helpers.check_promise``): exit 0/1/2, one stderr line on a refusal, no traceback, the files it read unchanged,
an answer in time.

A few options are pinned after the fuzzed ones (argparse keeps the last) so a case ends in milliseconds and stays in
its folder: ``play`` headless on simulated hardware for two frames, ``demo`` a second of table time, receivers that do
not exist, no broker, one tuning worker. What is pinned is listed in ``PINNED``.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_helpers import DEMOS
from fuzz_helpers import PROFILE, budget, check_promise, private_home
from hypothesis import given
from hypothesis import strategies as st

from game.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
_cases = itertools.count()

#: options never fuzzed: they reach the network (a broker URL would be looked up) or replace the file they name
NEVER = {"--broker", "--venue", "--table", "--link", "--shutdown-command", "--web-host", "--web-url", "--help"}


def pinned(command: str, folder: Path) -> list[str]:
    """What keeps each command short and inside ``folder`` (appended: argparse keeps the last value)."""
    none = str(folder / "no-such-port")
    return {
        "play": ["--sim", "--headless", "--no-web", "--mute", "--max-frames", "2"],
        "demo": ["--headless", "--mute", "--max-seconds", "1"],
        "venue": ["--seconds", "0.05"],
        "devices": ["--port", none, "--wait", "0", "--interval", "0.01", "--count", "1"],
        "pair": ["--port", none, "--timeout", "0.05"],
        "virtual-table": ["--seconds", "0.01"],
        "record": ["--pace", "0"],
        "doctor": ["--timeout", "0.05"],
        "detect": ["--jobs", "1", "--passes", "1"],
        "traces push": ["--port", none, "--timeout", "0.05", "--status", str(folder / "no-status.json")],
    }.get(command, [])


def commands() -> dict[str, argparse.ArgumentParser]:
    """Every (sub)command and its parser, ``traces push`` style for nested ones."""
    out: dict[str, argparse.ArgumentParser] = {}

    def walk(prefix: str, parser: argparse.ArgumentParser) -> None:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            out[prefix.strip()] = parser
        for action in subs:
            for name, sub in action.choices.items():
                walk(f"{prefix} {name}", sub)
    walk("", build_parser())
    return out


COMMANDS = commands()


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("fuzz-cli")
    seeds = root / "seeds"
    seeds.mkdir()
    shutil.copy(DEMOS["throw-throw-burrito"], seeds / "game.jsonl")
    shutil.copy(ROOT / "hardware/pinmap.toml", seeds / "pinmap.toml")
    (seeds / "trace.csv").write_bytes(b"\n".join(gzip.decompress(
        (ROOT / "tests/data/phone_drops/fall_3.csv.gz").read_bytes()).splitlines()[:200]) + b"\n")
    (seeds / "params.json").write_text('{"version": 1, "params": {"air_t": 25000}}\n')
    (seeds / "pairings.json").write_text('{"version": 1, "devices": []}\n')
    (seeds / "settings.json").write_text('{"volume": 5}\n')
    (seeds / "empty").write_bytes(b"")
    (seeds / "noise.bin").write_bytes(bytes(range(256)) * 4)
    with private_home(root):
        yield root


SEEDS = ("game.jsonl", "pinmap.toml", "trace.csv", "params.json", "pairings.json", "settings.json", "empty",
         "noise.bin")
SCALARS = ["", "-", "--", "-1", "0", "1", "2", "13", "nan", "inf", "-inf", "1e400", "9" * 40, "0x10", "x", "\u00b2",
           "\u0663", "1_0", " 3", "3.5", "1920x1080", "0x0", "99999x99999", "2026-13-40", "2026-01-01", "mqtt://",
           "é" * 300, "a/b", "a/../b", "%s%n", "x" * 5000]


@st.composite
def values(draw: st.DrawFn, folder: Path, seeds: Path) -> str:
    """One option value: a hostile scalar, another kind's file, a folder, a missing or unwritable-looking path."""
    kind = draw(st.sampled_from(("scalar", "scalar", "seed", "path")))
    if kind == "scalar":
        return draw(st.sampled_from(SCALARS) | st.integers().map(str) | st.floats().map(repr)
                    | st.text(alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=["Cs"]),
                              max_size=12))
    if kind == "seed":
        name = draw(st.sampled_from(SEEDS))
        shutil.copy(seeds / name, folder / name)
        return str(folder / name)
    return str(draw(st.sampled_from((folder, folder / "missing", folder / "missing" / "deeper" / "x.db",
                                     folder / ("n" * 300), folder / "out.png", folder / "out.svg"))))


@st.composite
def argvs(draw: st.DrawFn, command: str, folder: Path, seeds: Path) -> list[str]:
    parser = COMMANDS[command]
    argv = command.split()
    options = [a for a in parser._actions if a.option_strings and not set(a.option_strings) & NEVER]
    positionals = [a for a in parser._actions if not a.option_strings]
    for action in draw(st.lists(st.sampled_from(options), max_size=4)) if options else []:
        argv.append(draw(st.sampled_from(action.option_strings)))
        if action.nargs != 0:
            count = action.nargs if isinstance(action.nargs, int) else 1
            argv += [draw(values(folder, seeds) | (st.sampled_from(list(action.choices)) if action.choices
                                                   else st.nothing())) for _ in range(count)]
    for action in positionals:
        if draw(st.integers(0, 5)) or action.nargs != "?":
            argv.append(draw(values(folder, seeds)))
    if draw(st.integers(0, 9)) == 0:
        argv.insert(draw(st.integers(0, len(argv))), draw(st.sampled_from(SCALARS)))  # a stray word anywhere
    return argv + pinned(command, folder)


#: options naming a file the command may write, beside the ones every command writes (--svg, --out, --screenshot...)
WRITES = {"record": ("--journal",), "play": ("--journal",), "demo": ("--journal",), "venue": ("--db",),
          "virtual-table": ("--pairings",), "traces record": ("--out",)}


def read_inputs(folder: Path) -> list[Path]:
    """The seed copies a command was given: files it reads must be unchanged (the ones it may write excepted)."""
    return [p for p in folder.iterdir() if p.is_file() and p.name in SEEDS]


def fuzz(home: Path, command: str) -> None:
    seeds = home / "seeds"

    def check(data: st.DataObject) -> None:
        folder = home / "cases" / str(next(_cases))
        folder.mkdir(parents=True)
        argv = data.draw(argvs(command, folder, seeds))
        written = WRITES.get(command, ()) + ("--svg", "--out", "--screenshot", "--plot")
        outputs = [Path(v) for i, a in enumerate(argv[:-1]) if a in written for v in argv[i + 1:i + 3]]
        inputs = [p for p in read_inputs(folder) if p not in outputs]
        check_promise(argv, inputs, cwd=folder)
    budget(PROFILE(given(st.data())(check)))


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_odd_command_lines_keep_the_bad_input_promise(home: Path, command: str) -> None:
    """12 command lines per command in CI (each a few ms to 0.3 s; ``demo`` and ``play`` the most)."""
    fuzz(home, command)


def test_every_command_is_fuzzed() -> None:
    """The list comes from the parser: ``burrito-table --help``'s commands, and ``traces``' own."""
    assert {"replay", "record", "games", "demo", "play", "stats", "venue", "pins", "doctor", "bom", "detect",
            "devices", "pair", "virtual-table", "traces record", "traces push"} <= set(COMMANDS)


@pytest.mark.parametrize("flags", [["--speed", "1e-300"], ["--speed", "nan"], ["--speed", "inf"],
                                   ["--max-seconds", "nan"], ["--max-seconds", "0"]])
def test_a_demo_pace_that_would_never_end_is_refused_before_it_starts(home: Path, flags: list[str]) -> None:
    """Found by the fuzzer: one step at ``--speed 1e-300`` waits longer than the machine lasts, and a ``nan`` time
    limit is never passed. Both are bad input: exit 2, one line, nothing opened."""
    folder = home / "cases" / str(next(_cases))
    folder.mkdir(parents=True)
    done = check_promise(["demo", "--headless", "--mute", "--journal", str(folder / "j.db"), *flags], [], cwd=folder)
    assert done.status == 2 and done.err.startswith("burrito-table: demo: --") and flags[1] in done.err, done
    assert not (folder / "j.db").exists()


def test_a_pin_map_name_of_5000_characters_is_one_bounded_line(home: Path) -> None:
    """Found by the fuzzer: ``pins --config`` echoed a 5,000-character name whole. Each problem line is bounded:
    the name's ends and its length."""
    folder = home / "cases" / str(next(_cases))
    folder.mkdir(parents=True)
    done = check_promise(["pins", "--config", "x" * 5000], [], cwd=folder)
    assert done.status == 2 and len(done.err) < 500 and "characters left out" in done.err, done


def test_a_log_name_of_5000_characters_is_one_bounded_line(home: Path) -> None:
    """``replay`` of a name too long for the file system: one line of a few hundred characters, exit 2."""
    folder = home / "cases" / str(next(_cases))
    folder.mkdir(parents=True)
    done = check_promise(["replay", "y" * 5000], [], cwd=folder)
    assert done.status == 2 and len(done.err) < 500 and "File name too long" in done.err, done
