"""The bad-input promise (docs/faults.md) for every file and option the firmware bridge's commands read or write:
bad input exits 2, a failing machine exits 1, each with ONE stderr line naming the file, no traceback, and the
user's files unchanged. Each case runs `burrito-table` in a fresh process, as a user would."""

from __future__ import annotations

import gzip
import json
import os
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

CLI = [sys.executable, "-c", "import sys; from game.cli import main; sys.exit(main())"]
GOOD_CSV = b"t_us,ax,ay,az\n" + b"".join(b"%d,0,0,1\n" % (i * 5000) for i in range(200))


def run(args: list[str], timeout: float = 60, stdout: int | object = subprocess.PIPE, **kw: object
        ) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, BURRITO_STATUS="/nonexistent/status.json", XDG_CONFIG_HOME="/nonexistent/config")
    return subprocess.run(CLI + args, stdout=stdout, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                          timeout=timeout, env=env, **kw)  # type: ignore[call-overload]


def refused(r: subprocess.CompletedProcess[str], status: int, *names: str) -> None:
    """Exit `status`, one stderr line naming each of `names`, no traceback."""
    err = r.stderr
    assert "Traceback" not in err, err[-800:]
    assert r.returncode == status, (r.returncode, err[-400:])
    assert len(err.strip().splitlines()) == 1, err[-800:]
    for n in names:
        assert n in err, (n, err)


def snapshot(*paths: Path) -> list[tuple[bytes, int]]:
    return [(p.read_bytes(), p.stat().st_mtime_ns) for p in paths]


# ---------------------------------------------------------------- hostile JSON, in every JSON reader

HOSTILE_JSON = {
    "nested 100,000 deep": b'{"version": 1, "params": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "a 5,000-digit number": b'{"version": 1' + b"7" * 5000 + b', "params": {}}',
    "NaN": b'{"version": 1, "params": {"hard_g": NaN}, "devices": [NaN]}',
    "Infinity": b'{"version": 1, "params": {"hard_g": Infinity}, "devices": [Infinity]}',
    "1e400": b'{"version": 1, "params": {"hard_g": 1e400}, "devices": [1e400]}',
    "not UTF-8": b'{"version": 1, "params": {"\xff\xfe": 1}}',
}


def _reader_args(reader: str, bad: Path, tmp_path: Path) -> list[str]:
    trace = tmp_path / "good.csv"
    trace.write_bytes(GOOD_CSV)
    if reader == "detect --params":
        return ["detect", "--params", str(bad), str(trace)]
    if reader == "traces push":
        return ["traces", "push", str(bad), "--port", "/nonexistent/tty", "--timeout", "0"]
    if reader == "devices --pairings":
        return ["devices", "--pairings", str(bad), "--port", "/nonexistent/tty", "--wait", "0"]
    if reader == "virtual-table --pairings":
        return ["virtual-table", "--pairings", str(bad), "--seconds", "0"]
    if reader == "detect --plot sidecar":
        csv = bad.with_suffix(".csv")
        csv.write_bytes(GOOD_CSV)
        return ["detect", "--plot", str(csv), str(tmp_path / "out.png")]
    if reader == "traces record trace file":
        traces = tmp_path / "traces"
        traces.mkdir()
        moved = traces / bad.name
        bad.rename(moved)
        bad.symlink_to(moved)
        return ["traces", "record", "--journal", str(tmp_path / "j.db"), "--traces", str(traces), "--out",
                str(tmp_path / "rec")]
    raise AssertionError(reader)


@pytest.mark.parametrize("reader", ["detect --params", "traces push", "devices --pairings", "virtual-table --pairings",
                                    "detect --plot sidecar", "traces record trace file"])
@pytest.mark.parametrize("what", sorted(HOSTILE_JSON))
def test_every_json_reader_refuses_hostile_json_in_one_line_naming_the_file(
        tmp_path: Path, reader: str, what: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Deep nesting, a number of thousands of digits, NaN/Infinity/1e400 and non-UTF-8 bytes: exit 2, one line
    naming the file (not a RecursionError, a ValueError about int digits or a codec message without a name), and
    the file left as it was. In-process (36 cases): an escaping exception fails the test as a traceback would."""
    from game.cli import main

    monkeypatch.setenv("BURRITO_STATUS", str(tmp_path / "no-status.json"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    bad = tmp_path / "hostile.json"
    bad.write_bytes(HOSTILE_JSON[what])
    args = _reader_args(reader, bad, tmp_path)
    real = bad.resolve()
    before = snapshot(real)
    status = main(args)
    captured = capsys.readouterr()
    assert status == 2, captured.err
    assert len(captured.err.strip().splitlines()) == 1 and "hostile.json" in captured.err, captured.err
    assert snapshot(real) == before


def test_a_list_or_wrong_types_in_a_parameter_file_are_refused_by_name(tmp_path: Path) -> None:
    """A parameter file that is a list, or holds a negative or zero threshold, is bad input: every detector
    parameter is a positive threshold, time or factor (a negative one used to run silently)."""
    trace = tmp_path / "t.csv"
    trace.write_bytes(GOOD_CSV)
    for text in ("[1, 2]", '{"version": 1, "params": {"hard_g": -5}}', '{"version": 1, "params": {"still_t": 0}}'):
        p = tmp_path / "p.json"
        p.write_text(text)
        refused(run(["detect", "--params", str(p), str(trace)]), 2, str(p))
        refused(run(["traces", "push", str(p), "--port", "/nonexistent/tty", "--timeout", "0"]), 2, str(p))


# ---------------------------------------------------------------- traces: CSV and .csv.gz

def _gz_damaged() -> bytes:
    z = gzip.compress(GOOD_CSV * 20)
    return z[:10] + b"\x00" * 24 + z[34:]


BAD_TRACES = {
    "value 1e308 (overflows |a|)": (".csv", b"t_us,ax,ay,az\n0,1e308,1e308,1e308\n5000,0,0,1\n", ":2:"),
    "negative time": (".csv", b"t_us,ax,ay,az\n-99999999999999,0,0,1\n0,0,0,1\n", ":2:"),
    "time past 2**53": (".csv", b"t_us,ax,ay,az\n0,0,0,1\n99999999999999999999,0,0,1\n", ":3:"),
    "damaged gzip body": (".csv.gz", _gz_damaged(), "gzip"),
    "gyro 1e300": (".csv", b"t_us,ax,ay,az,gx,gy,gz\n0,0,0,1,1e300,0,0\n", ":2:"),
}


@pytest.mark.parametrize("mode", ["detect", "detect --plot"])
@pytest.mark.parametrize("what", sorted(BAD_TRACES))
def test_bad_traces_are_one_line_with_the_file_and_line(tmp_path: Path, mode: str, what: str) -> None:
    """A value no sensor reads, an absurd time or a damaged gzip: exit 2 naming the file (and line), where they
    used to be an OverflowError, a zlib.error traceback or a silent success; no picture is left."""
    suffix, data, place = BAD_TRACES[what]
    trace = tmp_path / f"bad{suffix}"
    trace.write_bytes(data)
    out = tmp_path / "o.png"
    args = ["detect", str(trace)] if mode == "detect" else ["detect", "--plot", str(trace), str(out)]
    r = run(args)
    refused(r, 2, str(trace), place)
    assert r.stdout == "" and not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [trace.name]


# ---------------------------------------------------------------- outputs: picture and parameter file

def test_plot_output_that_is_a_folder_or_has_no_picture_suffix_is_refused_before_reading(tmp_path: Path) -> None:
    """matplotlib appended ".png" to a folder's name (or /dev/full's) and reported success: now exit 2 naming the
    path, and nothing is written beside it."""
    trace = tmp_path / "t.csv"
    trace.write_bytes(GOOD_CSV)
    folder = tmp_path / "pictures"
    folder.mkdir()
    for out in (folder, tmp_path / "picture.xyz"):
        refused(run(["detect", "--plot", str(trace), str(out)]), 2, str(out))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pictures", "t.csv"]
    assert list(folder.iterdir()) == []


def test_plot_to_a_full_device_is_exit_1_in_one_line(tmp_path: Path) -> None:
    """A picture onto a full device (a /dev/full character device made under tmp_path): ENOSPC is the machine's
    fault, exit 1, one line naming it."""
    dev = tmp_path / "full.png"
    os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    trace = tmp_path / "t.csv"
    trace.write_bytes(GOOD_CSV)
    refused(run(["detect", "--plot", str(trace), str(dev)]), 1, str(dev), "No space left")
    assert stat.S_ISCHR(dev.lstat().st_mode)


def _fsize_limit(limit: int) -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_plot_onto_a_full_disk_keeps_the_old_picture(tmp_path: Path) -> None:
    """A disk that fills while the picture is written (RLIMIT_FSIZE: EFBIG) used to leave the user's old picture
    truncated; now the picture goes to a temporary file renamed over the old one, so the old one is unchanged and
    no temporary file remains."""
    trace = tmp_path / "t.csv"
    trace.write_bytes(GOOD_CSV)
    out = tmp_path / "o.png"
    out.write_bytes(b"\x89PNG old picture" + b"\0" * 50_000)
    before = snapshot(out, trace)
    # matplotlib's font cache is built on first use: build it now, or the size limit meant for the picture hits it
    subprocess.run([sys.executable, "-c", "import matplotlib.font_manager"], check=True, timeout=120)
    r = run(["detect", "--plot", str(trace), str(out)], preexec_fn=lambda: _fsize_limit(4096))
    refused(r, 1, str(out))
    assert snapshot(out, trace) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.png", "t.csv"]


def test_plot_and_tune_onto_a_read_only_file_leave_it_unchanged(tmp_path: Path) -> None:
    """A file the user made read-only (mode 0444) is not replaced, even by root: exit 1 naming it."""
    trace = tmp_path / "t.csv"
    trace.write_bytes(GOOD_CSV)
    out = tmp_path / "o.png"
    out.write_bytes(b"keep me")
    out.chmod(0o444)
    before = snapshot(out)
    refused(run(["detect", "--plot", str(trace), str(out)]), 1, str(out), "read-only")
    assert snapshot(out) == before


def test_tune_checks_its_output_before_fitting(tmp_path: Path) -> None:
    """--out in a missing folder or naming a folder is exit 2 at once (it used to fit for minutes, print the table
    and only then fail), with nothing on stdout."""
    recs = tmp_path / "recs"
    _recordings(recs, 2)
    for out in (tmp_path / "nowhere" / "p.json", tmp_path):
        r = run(["detect", "--tune", str(recs), "--out", str(out), "--jobs", "1", "--folds", "2"])
        refused(r, 2, str(out))
        assert r.stdout == ""


def _recordings(folder: Path, n: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (folder / f"r{i}.csv").write_bytes(GOOD_CSV)
        (folder / f"r{i}.json").write_text(json.dumps({"kind": "burrito", "rate_hz": 200,
                                                       "events": [{"kind": "rest", "t": 0.5}]}))


@pytest.mark.parametrize("option, value", [("--jobs", "65"), ("--passes", "1000000000"), ("--folds", "0"),
                                           ("--jobs", "-1")])
def test_tune_refuses_absurd_numeric_options_at_once(tmp_path: Path, option: str, value: str) -> None:
    """--jobs 100000 forked 100,000 worker processes (65 is past the bound and safe to try) and --passes 1e9
    drained a billion-step progress range: both hung. Out-of-range counts are exit 2 naming the option, at once."""
    recs = tmp_path / "recs"
    _recordings(recs, 2)
    jobs = [] if option == "--jobs" else ["--jobs", "1"]
    refused(run(["detect", "--tune", str(recs), option, value, *jobs], timeout=30), 2, option)


@pytest.mark.parametrize("damage", ["damaged gzip", "sidecar t NaN", "sidecar t a string"])
def test_tune_on_a_damaged_recording_names_it(tmp_path: Path, damage: str) -> None:
    """A damaged recording in the --tune folder is exit 2 naming it (a zlib.error or a ValueError from
    int(round(nan)) used to be a traceback)."""
    recs = tmp_path / "recs"
    _recordings(recs, 2)
    if damage == "damaged gzip":
        (recs / "r1.csv").unlink()
        (recs / "r1.csv.gz").write_bytes(_gz_damaged())
        name = "r1.csv.gz"
    else:
        t = "NaN" if "NaN" in damage else '"soon"'
        (recs / "r1.json").write_text('{"kind": "burrito", "rate_hz": 200, "events": [{"kind": "rest", "t": %s}]}' % t)
        name = "r1.json"
    refused(run(["detect", "--tune", str(recs), "--jobs", "1", "--folds", "2"]), 2, name)
    assert not (recs / "detector-params.json").exists()


# ---------------------------------------------------------------- stdout

def test_detect_to_a_full_stdout_is_one_line_exit_1(tmp_path: Path) -> None:
    """stdout on /dev/full: one line on stderr and exit 1, not Python's "Exception ignored" report at exit."""
    trace = tmp_path / "t.csv"
    trace.write_bytes(GOOD_CSV)
    with open("/dev/full", "w") as full:
        r = run(["detect", "--plot", str(trace), str(tmp_path / "o.png")], stdout=full)
    refused(r, 1, "standard output")


# ---------------------------------------------------------------- device commands: options, ports, files

@pytest.mark.parametrize("args, option", [
    (["devices", "--port", "/nonexistent/tty", "--wait", "inf"], "--wait"),
    (["devices", "--port", "/nonexistent/tty", "--wait", "nan"], "--wait"),
    (["devices", "--port", "/nonexistent/tty", "--wait", "0", "--interval", "-1"], "--interval"),
    (["pair", "--seat", "1", "--port", "/nonexistent/tty", "--timeout", "inf"], "--timeout"),
    (["pair", "--seat", "-1", "--port", "/nonexistent/tty", "--timeout", "1"], "--seat"),
    (["pair", "--seat", "1", "--port", "/nonexistent/tty", "--timeout", "nan"], "--timeout"),
    (["virtual-table", "--burritos", "-1", "--seconds", "0"], "--burritos"),
    (["virtual-table", "--seconds", "nan"], "--seconds"),
    (["traces", "push", "PARAMS", "--port", "/nonexistent/tty", "--timeout", "nan"], "--timeout"),
    (["traces", "push", "PARAMS", "--port", "/nonexistent/tty", "--timeout", "-1"], "--timeout"),
])
def test_device_commands_refuse_absurd_numbers_in_one_line(tmp_path: Path, args: list[str], option: str) -> None:
    """inf overflowed the clocks (a traceback), nan waited not at all and reported a failure of the machine, a
    negative seat or device count ran: every one is exit 2 naming the option."""
    params = tmp_path / "p.json"
    params.write_text('{"version": 2, "params": {"hard_g": 3.0}}')
    refused(run([str(params) if a == "PARAMS" else a for a in args], timeout=30), 2, option)


def _pairings(path: Path) -> None:
    path.write_text(json.dumps({"version": 1, "devices": [
        {"mac": "aa:bb:cc:dd:ee:01", "kind": "burrito", "name": "burrito-1", "seat": None}]}))


def test_push_with_no_paired_device_is_not_a_success(tmp_path: Path) -> None:
    """Pushing to nobody used to exit 0; now exit 2 naming the pairing file."""
    params = tmp_path / "p.json"
    params.write_text('{"version": 2, "params": {"hard_g": 3.0}}')
    pairings = tmp_path / "pairings.json"
    pairings.write_text('{"version": 1, "devices": []}')
    refused(run(["traces", "push", str(params), "--port", "/nonexistent/tty", "--pairings", str(pairings),
                 "--timeout", "0"]), 2, str(pairings))


@pytest.mark.parametrize("answer", ["never answers", "answers garbage"])
def test_push_to_a_receiver_that_never_answers_times_out_in_one_line(tmp_path: Path, answer: str) -> None:
    """A pty that never answers (or answers random bytes): push waits --timeout, then exit 1 with one line saying
    which devices did not report (it used to print their rows on stdout and leave stderr empty)."""
    import threading

    master, slave = os.openpty()
    stop = threading.Event()

    def babble() -> None:
        rnd = __import__("random").Random(7)
        while not stop.wait(0.01):
            try:
                os.write(master, bytes(rnd.randrange(256) for _ in range(64)))
            except OSError:
                return

    def drain() -> None:
        while not stop.is_set():
            try:
                os.read(master, 4096)
            except OSError:
                return

    threads = [threading.Thread(target=drain, daemon=True)]
    if answer == "answers garbage":
        threads.append(threading.Thread(target=babble, daemon=True))
    for t in threads:
        t.start()
    params = tmp_path / "p.json"
    params.write_text('{"version": 2, "params": {"hard_g": 3.0}}')
    pairings = tmp_path / "pairings.json"
    _pairings(pairings)
    before = snapshot(pairings, params)
    try:
        r = run(["traces", "push", str(params), "--port", os.ttyname(slave), "--pairings", str(pairings),
                 "--timeout", "1"], timeout=60)
    finally:
        stop.set()
        os.close(slave)
        os.close(master)
    refused(r, 1, str(params), "burrito-1", "did not report version 2")
    assert snapshot(pairings, params) == before


def test_virtual_table_script_and_link_faults_are_one_line(tmp_path: Path) -> None:
    """A script time before the start (-1 s) used to run silently, a --link in a missing folder was a FileNotFoundError traceback."""
    script = tmp_path / "s.jsonl"
    script.write_text('{"t": -1, "device": "burrito-1", "kind": "launch"}\n')
    refused(run(["virtual-table", "--script", str(script), "--seconds", "0"]), 2, f"{script}:1")
    link = tmp_path / "nowhere" / "tty"
    refused(run(["virtual-table", "--link", str(link), "--seconds", "0"]), 2, str(link))


def test_devices_with_a_status_file_of_wrong_entries_is_one_line(tmp_path: Path) -> None:
    """A live-looking status file whose device entries lack fields was a KeyError traceback."""
    import time

    status = tmp_path / "status.json"
    status.write_text(json.dumps({"version": 1, "pid": os.getpid(), "written": time.time() + 60,
                                  "devices": [{"nam": "x"}], "counters": {}}))
    refused(run(["devices", "--status", str(status)]), 2, str(status))


def test_traces_record_out_that_is_a_file_is_refused(tmp_path: Path) -> None:
    """--out names the folder for the recordings: a file there is exit 2 and the file is left as it was."""
    traces = tmp_path / "traces"
    traces.mkdir()
    out = tmp_path / "out.txt"
    out.write_text("mine")
    before = snapshot(out)
    refused(run(["traces", "record", "--journal", str(tmp_path / "j.db"), "--traces", str(traces), "--out",
                 str(out)]), 2, str(out))
    assert snapshot(out) == before
