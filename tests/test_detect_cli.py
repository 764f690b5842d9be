"""The `burrito-table detect` contract: JSON lines out; a malformed CSV exits 2, one stderr line with the line number."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from firmware_bridge.cli import TraceError, read_trace
from firmware_bridge.traces import make_trace
from game.cli import main


def write_trace(path: Path, scenario: str, seed: int = 1, rate: float = 833.0) -> list[tuple[int, str]]:
    tr = make_trace(scenario, seed, rate)
    with open(path, "w") as fh:
        fh.writelines(tr.csv_lines())
    return tr.truth


def test_detect_prints_one_json_object_a_line_in_time_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A throw-and-catch trace gives pickup, launch, catch as JSON lines with t_us, kind and peak_g."""
    truth = write_trace(tmp_path / "t.csv", "throw_catch")
    assert main(["detect", str(tmp_path / "t.csv")]) == 0
    out, err = capsys.readouterr()
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["kind"] for r in rows] == ["pickup", "launch", "catch"]
    assert all(set(r) == {"t_us", "kind", "peak_g"} and isinstance(r["t_us"], int) for r in rows)
    assert [r["t_us"] for r in rows] == sorted(r["t_us"] for r in rows)
    catch_t = next(t for t, k in truth if k == "catch")
    assert abs(rows[2]["t_us"] - catch_t) < 5_000
    assert err == ""


def test_detect_badge_device_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--device badge runs the badge detector: a strike on the wearer is one impact."""
    truth = write_trace(tmp_path / "b.csv", "badge_hit")
    assert main(["detect", "--device", "badge", str(tmp_path / "b.csv")]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["kind"] for r in rows] == ["impact"]
    assert abs(rows[0]["t_us"] - truth[0][0]) < 5_000


GOOD_HEAD = "t_us,ax,ay,az\n1000,0,0,1\n2200,0,0,1\n"


@pytest.mark.parametrize(
    "body, line, words",
    [
        ("time,x,y,z\n1,0,0,1\n", 1, "bad header"),
        (GOOD_HEAD + "3400,0,abc,1\n", 4, "ay is not a number"),
        (GOOD_HEAD + "3400,0,0\n", 4, "expected 4 columns"),
        (GOOD_HEAD + "3400,0,0,1,5\n", 4, "expected 4 columns"),
        (GOOD_HEAD + "2000,0,0,1\n", 4, "time goes backwards"),
        (GOOD_HEAD + "2200,0,0,1\n", 4, "time repeats"),
        (GOOD_HEAD + "3.5e3,0,0,1\n", 4, "t_us is not an integer"),
        (GOOD_HEAD + "3400,0,nan,1\n", 4, "ay is not finite"),
        ("", 1, "empty file"),
    ],
)
def test_malformed_csv_exits_2_with_line_number_and_nothing_on_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, line: int, words: str
) -> None:
    """Bad header, non-numeric, wrong column count, time going backwards: exit 2, one line naming line and problem."""
    path = tmp_path / "bad.csv"
    path.write_text(body)
    assert main(["detect", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert f"bad.csv:{line}:" in err and words in err


def test_malformed_row_late_in_a_real_trace_prints_no_events(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Events found before the bad line are not printed: the output is all or nothing."""
    write_trace(tmp_path / "t.csv", "throw_impact")
    lines = (tmp_path / "t.csv").read_text().splitlines(keepends=True)
    lines.insert(len(lines) - 5, "oops\n")
    (tmp_path / "t.csv").write_text("".join(lines))
    assert main(["detect", str(tmp_path / "t.csv")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and f":{len(lines) - 5}: expected 4 columns" in err


def test_missing_file_and_binary_garbage_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An unreadable path or a non-text file is a clean exit 2, not a traceback."""
    assert main(["detect", str(tmp_path / "nope.csv")]) == 2
    assert "cannot read" in capsys.readouterr().err
    (tmp_path / "bin.csv").write_bytes(b"t_us,ax,ay,az\n\xff\xfe\x00garbage\n")
    assert main(["detect", str(tmp_path / "bin.csv")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "UTF-8" in err


def test_reader_streams_rows_without_reading_the_whole_file() -> None:
    """read_trace is lazy: from an endless line source it yields the first rows at once (constant memory)."""

    def endless():  # type: ignore[no-untyped-def]
        yield "t_us,ax,ay,az\n"
        for i in itertools.count():
            yield f"{1000 + i * 1200},0.0,0.0,1.0\n"

    rows = list(itertools.islice(read_trace(endless()), 5000))
    assert len(rows) == 5000 and rows[-1][0] == 1000 + 4999 * 1200


def test_reader_accepts_blank_lines_spaces_and_bom() -> None:
    """Harmless variations parse: a UTF-8 BOM, spaces around fields, blank lines."""
    rows = list(read_trace(["\ufefft_us, ax, ay, az\n", "\n", "10, 0.5 ,0,1\n", "20,0,0,1\n"]))
    assert rows == [(10, 0.5, 0.0, 1.0), (20, 0.0, 0.0, 1.0)]


def test_trace_error_names_line() -> None:
    """TraceError carries the line number for callers that are not the CLI."""
    with pytest.raises(TraceError) as exc:
        list(read_trace(["t_us,ax,ay,az\n", "5,0,0,1\n", "4,0,0,1\n"], "x.csv"))
    assert exc.value.line == 3 and str(exc.value).startswith("x.csv:3:")


def test_large_file_runs_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A 10-minute resting trace at 400 Hz (240k rows) is processed and reports nothing."""
    path = tmp_path / "big.csv"
    with open(path, "w") as fh:
        fh.write("t_us,ax,ay,az\n")
        for i in range(240_000):
            fh.write(f"{i * 2500},0.001,-0.002,{1.0 + (i % 7 - 3) * 0.001:.4f}\n")
    assert main(["detect", str(path)]) == 0
    assert capsys.readouterr().out == ""
