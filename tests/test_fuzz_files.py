"""Fuzzing every kind of file the table reads (hypothesis): a valid file of each kind, mutated, through the commands
that read it, held to the bad-input promise (docs/faults.md; ``fuzz_helpers.check_promise``): exit 0/1/2, one stderr
line naming the file on a refusal, no traceback, the file byte-identical afterwards, an answer in time.

Kinds: house settings, pairings and detector parameter files (JSON), pin maps (TOML), accelerometer traces (CSV and
.csv.gz), table-event logs (JSON Lines, into ``record``), journals and venue stores (SQLite, pages and bytes
mutated), and the announcer's cached voice clips (WAV). ``BURRITO_FUZZ_SECONDS`` / ``BURRITO_FUZZ_EXAMPLES`` set
the budget (see fuzz_helpers).
"""

from __future__ import annotations

import gzip
import io
import itertools
import json
import shutil
import sqlite3
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fault_helpers import DEMOS
from fuzz_helpers import (
    HOSTILE_TEXT,
    PROFILE,
    Blob,
    budget,
    check_promise,
    mutated_bytes,
    mutated_json,
    mutated_lines,
    private_home,
)
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
TRACE_GZ = ROOT / "tests/data/phone_drops/fall_3.csv.gz"
_cases = itertools.count()


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("fuzz-home")
    with private_home(root):
        yield root


def case(home: Path) -> Path:
    """A fresh folder per example: nothing one example leaves can change the next."""
    folder = home / "cases" / str(next(_cases))
    folder.mkdir(parents=True)
    return folder


def put(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


# -- seeds: one valid file of each kind, made by the project's own writers ---------------------------------------


@pytest.fixture(scope="module")
def seeds(home: Path) -> dict[str, bytes]:
    from firmware_bridge.tune import DEFAULTS, write_params
    from game.cli import main
    from game.table.settings import HouseSettings, save

    folder = home / "seeds"
    folder.mkdir()
    save(HouseSettings(), folder / "settings.json")
    params = dict(DEFAULTS, still_std=0.03, air_t=25000)
    write_params(str(folder / "params.json"), params)
    pairings = {"version": 1, "devices": [
        {"mac": "02:00:00:00:00:01", "kind": "burrito", "name": "burrito-1", "seat": None},
        {"mac": "02:00:00:00:00:11", "kind": "badge", "name": "badge-1", "seat": 1},
        {"mac": "02:00:00:00:00:12", "kind": "badge", "name": "badge-2", "seat": 2}]}
    (folder / "pairings.json").write_text(json.dumps(pairings, indent=1) + "\n")
    trace = gzip.decompress(TRACE_GZ.read_bytes()).decode().splitlines()[:300]
    out = {"settings": (folder / "settings.json").read_bytes(), "params": (folder / "params.json").read_bytes(),
           "pairings": (folder / "pairings.json").read_bytes(), "trace": ("\n".join(trace) + "\n").encode(),
           "pinmap": (ROOT / "hardware/pinmap.toml").read_bytes(),
           "pinmap12": (ROOT / "hardware/pinmaps/twelve-seats.toml").read_bytes(),
           "log": Path(DEMOS["zombie-burrito"]).read_bytes()}
    journal = folder / "journal.db"
    with io.StringIO() as sink:
        import contextlib

        with contextlib.redirect_stdout(sink):
            for game in ("throw-throw-burrito", "taco-vs-burrito"):
                assert main(["record", DEMOS[game], "--journal", str(journal)]) == 0
    out["journal"] = journal.read_bytes()
    out["venue"] = venue_seed(folder / "venue.db")
    return out


def venue_seed(path: Path) -> bytes:
    from venue_sample import sample_games

    from game.stats import game_record
    from game.venue.service import VenueStore

    store = VenueStore(str(path))
    for i, (setup, events) in enumerate(sample_games(4, seed=3)):
        rec = game_record(i + 1, setup, events, started=1_700_000_000.0 + i, finished=True).as_dict()
        body = {"v": 1, "kind": "ended", "game": f"{i + 1}-0", "seq": len(events) + 1, "sent": 1_700_000_100.0,
                "record": rec}
        assert store.handle(f"burrito-table/cantina/t{i + 1}/game/ended", json.dumps(body).encode()) == "stored"
    store.close()
    return path.read_bytes()


def json_or_bytes(seed: bytes) -> st.SearchStrategy[bytes]:
    """A JSON file mutated in its values (it still parses) or in its bytes (it may not)."""
    doc = json.loads(seed)
    return st.one_of(mutated_json(doc).map(lambda d: Blob(json.dumps(d, indent=1).encode())), mutated_bytes(seed))


def run_fuzz(strategy: st.SearchStrategy[Any], check: Any) -> None:
    budget(PROFILE(given(strategy)(check)))


# -- JSON: house settings, pairings, detector parameters ---------------------------------------------------------


def test_fuzzed_house_settings_never_stop_the_table(home: Path, seeds: dict[str, bytes]) -> None:
    """A bad settings.json is refused in one line or ignored with defaults; ``play`` runs on, the file unchanged."""
    def check(data: bytes) -> None:
        folder = case(home)
        f = put(folder, "settings.json", data)
        check_promise(["play", "--sim", "--headless", "--no-web", "--mute", "--max-frames", "2",
                       "--journal", str(folder / "j.db"), "--settings", str(f)], [f], name=str(f))
    run_fuzz(json_or_bytes(seeds["settings"]), check)


def test_fuzzed_pairing_files_are_refused_in_one_line(home: Path, seeds: dict[str, bytes]) -> None:
    """``devices`` only reads the pairing file. ``virtual-table`` pairs its devices into it: a file it refuses stays
    as it was, and a file it writes must be one the pairing reader accepts."""
    def check(data: bytes, command: str) -> None:
        folder = case(home)
        f = put(folder, "pairings.json", data)
        devices = ["devices", "--pairings", str(f), "--port", str(folder / "no-port"), "--wait", "0"]
        if command == "devices":
            check_promise(devices, [f], name=str(f))
            return
        done = check_promise(["virtual-table", "--pairings", str(f), "--seconds", "0.01"], [], name=str(f),
                             outputs=[f])
        if done.status == 0:
            again = check_promise(devices, [f], name=str(f))
            assert again.status != 2, f"virtual-table wrote a pairing file the reader refuses: {again}"
    run_fuzz(st.tuples(json_or_bytes(seeds["pairings"]), st.sampled_from(("devices", "virtual-table"))),
             lambda args: check(*args))


def test_fuzzed_detector_parameter_files_are_refused_in_one_line(home: Path, seeds: dict[str, bytes]) -> None:
    trace = None

    def check(data: bytes, command: str) -> None:
        nonlocal trace
        folder = case(home)
        f = put(folder, "params.json", data)
        pairings = put(folder, "pairings.json", seeds["pairings"])  # a device to push to: the parameters decide
        if trace is None:
            trace = put(home, "trace.csv", seeds["trace"])
        argv = (["detect", "--params", str(f), str(trace)] if command == "detect" else
                ["traces", "push", str(f), "--status", str(folder / "no-status.json"), "--port",
                 str(folder / "no-port"), "--timeout", "0.1", "--pairings", str(pairings)])
        check_promise(argv, [f, trace], name=str(f))
    run_fuzz(st.tuples(json_or_bytes(seeds["params"]), st.sampled_from(("detect", "push"))), lambda a: check(*a))


# -- TOML: pin maps ------------------------------------------------------------------------------------------------


def test_fuzzed_pin_maps_are_refused_naming_the_file(home: Path, seeds: dict[str, bytes]) -> None:
    """``pins`` and ``doctor`` list every problem of a bad map, one per line, each naming the file."""
    def check(data: bytes, command: str) -> None:
        folder = case(home)
        f = put(folder, "pinmap.toml", data)
        argv = ["pins", "--config", str(f)] if command == "pins" else \
            ["doctor", "--config", str(f), "--mock", "--auto", "--timeout", "0.2"]
        check_promise(argv, [f], name=str(f), lines_may_be_many=True)
    texts = st.sampled_from([seeds["pinmap"], seeds["pinmap12"]])
    mutated = texts.flatmap(lambda s: st.one_of(mutated_bytes(s), mutated_lines(s.decode(), HOSTILE_TEXT)
                                                 .map(lambda t: Blob(t.encode()))))
    run_fuzz(st.tuples(mutated, st.sampled_from(("pins", "doctor"))), lambda a: check(*a))


# -- CSV traces ----------------------------------------------------------------------------------------------------


def test_fuzzed_traces_give_events_or_one_line(home: Path, seeds: dict[str, bytes]) -> None:
    def check(data: bytes, gz: str) -> None:
        folder = case(home)
        if gz == "plain":
            f = put(folder, "trace.csv", data)
        elif gz == "gzip":
            f = put(folder, "trace.csv.gz", gzip.compress(data, mtime=0))
        else:  # the compressed bytes themselves damaged: CRC, length, header
            f = put(folder, "trace.csv.gz", data)
        check_promise(["detect", str(f)], [f], name=str(f))
    csv_values = st.sampled_from(["", "nan", "inf", "-inf", "1e999", "x", "9" * 30, "-1", "0", "1,2"])
    text = seeds["trace"]
    plain = st.one_of(mutated_bytes(text), mutated_lines(text.decode(), csv_values | HOSTILE_TEXT).map(lambda t: Blob(t.encode())))
    damaged_gz = mutated_bytes(gzip.compress(text, mtime=0))
    run_fuzz(st.one_of(st.tuples(plain, st.sampled_from(("plain", "gzip"))),
                       st.tuples(damaged_gz, st.just("damaged-gz"))), lambda a: check(*a))


# -- JSON Lines logs into record -----------------------------------------------------------------------------------


def test_fuzzed_logs_into_record_write_nothing_when_refused(home: Path, seeds: dict[str, bytes]) -> None:
    """``record`` checks the whole log first: a refused log leaves no journal file behind."""
    def check(data: bytes) -> None:
        folder = case(home)
        f = put(folder, "game.jsonl", data)
        journal = folder / "j.db"
        done = check_promise(["record", str(f), "--journal", str(journal)], [f], name=str(f))
        if done.status == 2:
            assert not journal.exists(), str(done)
    lines = seeds["log"].decode()
    run_fuzz(st.one_of(mutated_bytes(seeds["log"], 3),
                       mutated_lines(lines, HOSTILE_TEXT).map(lambda t: Blob(t.encode()))), check)


# -- SQLite: journals and venue stores -----------------------------------------------------------------------------


@st.composite
def damaged_db(draw: st.DrawFn, seed: bytes) -> bytes:
    """An SQLite file with pages damaged: bytes in a page, a page zeroed or copied over another, the header's
    fields (page size, page count, schema cookie, format numbers) changed, the file cut at a page boundary."""
    data = bytearray(seed)
    size = struct.unpack(">H", seed[16:18])[0] or 65536
    pages = max(1, len(data) // size)
    for _ in range(draw(st.integers(1, 3))):
        page = draw(st.integers(0, pages - 1))
        how = draw(st.sampled_from(("bytes", "zero", "copy", "header", "cut", "btree")))
        base = page * size
        if how == "bytes":
            at = base + draw(st.integers(0, size - 1))
            chunk = draw(st.binary(min_size=1, max_size=32))
            data[at:at + len(chunk)] = chunk
        elif how == "zero":
            data[base:base + size] = bytes(size)
        elif how == "copy":
            other = draw(st.integers(0, pages - 1)) * size
            data[base:base + size] = data[other:other + size]
        elif how == "header":
            field, width = draw(st.sampled_from(((16, 2), (18, 1), (19, 1), (20, 1), (28, 4), (32, 4), (36, 4),
                                                 (40, 4), (44, 4), (56, 4), (68, 4), (92, 4), (96, 4))))
            value = draw(st.sampled_from((0, 1, 2, 3, 255, 2**(8 * width) - 1, 512, 4096)))
            data[field:field + width] = (value % 2**(8 * width)).to_bytes(width, "big")
        elif how == "btree":  # a page's b-tree header: its type, cell count, content offset
            off = base + (100 if page == 0 else 0)
            at = off + draw(st.sampled_from((0, 1, 3, 5, 7, 8)))
            data[at:at + 2] = draw(st.binary(min_size=2, max_size=2))
        else:
            del data[base + draw(st.sampled_from((0, size // 2))):]
    return Blob(data)


def db_strategy(seed: bytes) -> st.SearchStrategy[bytes]:
    return st.one_of(damaged_db(seed), mutated_bytes(seed, 2))


def test_fuzzed_journals_are_read_or_refused_and_never_changed(home: Path, seeds: dict[str, bytes]) -> None:
    """``replay --journal`` and ``stats`` only read: the file is byte-identical and nothing is made beside it.
    ``record`` into a damaged journal refuses and leaves it as it was."""
    log = put(home, "zb.jsonl", seeds["log"]) if not (home / "zb.jsonl").exists() else home / "zb.jsonl"

    def check(data: bytes, command: str) -> None:
        folder = case(home)
        f = put(folder, "journal.db", data)
        if command == "record":
            check_promise(["record", str(log), "--journal", str(f)], [log], name=str(f), outputs=[f])
            return
        argv = {"replay": ["replay", "--journal", str(f), "--evidence"], "replay-json": ["replay", "--journal", str(f),
                "--json", "--game", "1"], "stats": ["stats", "--journal", str(f), "--json"]}[command]
        check_promise(argv, [f], name=str(f))
        assert sorted(p.name for p in folder.iterdir()) == ["journal.db"], f"{argv} left files beside the journal"
    run_fuzz(st.tuples(db_strategy(seeds["journal"]), st.sampled_from(("replay", "replay-json", "stats", "record"))),
             lambda a: check(*a))


def test_fuzzed_venue_stores_are_read_or_refused_and_never_changed(home: Path, seeds: dict[str, bytes]) -> None:
    """``venue --json`` without a broker prints the stored board: a read, so the file stays as it was."""
    def check(data: bytes) -> None:
        folder = case(home)
        f = put(folder, "venue.db", data)
        check_promise(["venue", "--db", str(f), "--json"], [f], name=str(f))
    run_fuzz(db_strategy(seeds["venue"]), check)


def test_the_sqlite_seeds_are_sound(seeds: dict[str, bytes], tmp_path: Path) -> None:
    """The seeds pass SQLite's own check: every refusal the fuzzer sees comes from a mutation."""
    for kind in ("journal", "venue"):
        path = tmp_path / f"{kind}.db"
        path.write_bytes(seeds[kind])
        con = sqlite3.connect(path)
        assert con.execute("PRAGMA quick_check").fetchone() == ("ok",)
        con.close()


# -- WAV: the announcer's voice cache -----------------------------------------------------------------------------


@st.composite
def damaged_wav(draw: st.DrawFn, seed: bytes) -> bytes:
    """A RIFF/WAVE clip with header fields changed (sizes, format, channels, rate, bits) or its bytes mutated."""
    if draw(st.booleans()):
        return Blob(draw(mutated_bytes(seed)))
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 3))):
        at, width = draw(st.sampled_from(((4, 4), (16, 4), (20, 2), (22, 2), (24, 4), (28, 4), (32, 2), (34, 2),
                                          (40, 4), (0, 4), (8, 4), (12, 4), (36, 4))))
        value = draw(st.sampled_from((0, 1, 2, 3, 7, 8, 24, 255, 65535, 2**31, 2**32 - 1, 44100)))
        data[at:at + width] = (value % 2**(8 * width)).to_bytes(width, "little")
    return Blob(data)


def test_fuzzed_voice_clips_never_stop_the_announcer(home: Path) -> None:
    """A damaged clip in the voice cache is a phrase not spoken (or spoken after a fresh render), logged: the
    announcer thread goes on and the next phrase is spoken. Needs espeak-ng (tests/install-system-deps.sh)."""
    import pygame

    from game.table.voice import Announcer, VoiceSettings, espeak_version, render

    exe = shutil.which("espeak-ng")
    assert exe is not None, "espeak-ng is missing: run tests/install-system-deps.sh"
    pygame.mixer.pre_init(44100, -16, 1, 2048)
    pygame.mixer.init()
    try:
        seed_path = home / "seed-clip.wav"
        render(exe, "Seat 3 is hit!", VoiceSettings(), seed_path)
        seed = seed_path.read_bytes()
        version = espeak_version(exe)

        def check(data: bytes) -> None:
            folder = case(home)
            ann = Announcer(exe, version, folder, VoiceSettings(), pygame.mixer.Channel(0), pygame.mixer.Sound, list)
            try:
                clip = ann.path("Seat 3 is hit!")
                clip.write_bytes(data)
                ann.say("Seat 3 is hit!")
                assert ann.wait(30), "the announcer hung on a damaged clip"
                assert "Seat 3 is hit!" in ann.spoken + ann.failed + ann.dropped
                ann.say("Round 1!")
                assert ann.wait(30)
                assert "Round 1!" in ann.spoken + ann.dropped, "a damaged clip silenced the phrases after it"
                assert clip.read_bytes() == data or clip.read_bytes()[:4] == b"RIFF", "the cache was spoiled"
            finally:
                ann.close()
        start = time.monotonic()
        run_fuzz(damaged_wav(seed), check)
        assert time.monotonic() - start < 600
    finally:
        pygame.mixer.quit()
