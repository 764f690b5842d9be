"""The optional angular-rate channel in trace files: `t_us,ax,ay,az,gx,gy,gz` is read, checked and fed to the detector
by every tool that runs it on a file (`detect`, `detect --plot`, recordings and `detect --tune`), while
accelerometer-only files read exactly as before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge import cli, physim, recordings
from firmware_bridge.firmware.detector import Detector
from firmware_bridge.tracefile import TraceError, read_rows, read_trace, split_rows
from firmware_bridge.traces import make_trace
from game.cli import main

GYRO_HEAD = "t_us,ax,ay,az,gx,gy,gz\n1000,0,0,1,0.1,-0.2,0.3\n2200,0,0,1,0,0,0\n"


class SpyDetector(Detector):
    """The real detector, remembering every feed's arguments."""

    calls: list[tuple[Any, ...]] = []

    def feed(self, t_us, ax, ay, az, gx=None, gy=None, gz=None):  # type: ignore[no-untyped-def]
        SpyDetector.calls.append((t_us, ax, ay, az, gx, gy, gz))
        return super().feed(t_us, ax, ay, az, gx, gy, gz)


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    SpyDetector.calls = []
    monkeypatch.setattr(cli, "Detector", SpyDetector)
    monkeypatch.setattr(recordings, "Detector", SpyDetector)
    return SpyDetector.calls


def write(path: Path, scenario: str = "throw_catch", seed: int = 1) -> list[tuple[float, ...]]:
    """A physim trace with its gyroscope (a rate consistent with the motion), written as a 7-column CSV."""
    tr = physim.make_trace(scenario, seed)
    assert len(tr.gyro) == len(tr.samples)
    path.write_text("".join(tr.csv_lines()))
    return [(t, ax, ay, az, *g) for (t, ax, ay, az), g in zip(tr.samples, tr.gyro)]


def test_reader_gives_seven_tuples_for_the_gyro_header_and_four_for_the_old_one() -> None:
    assert list(read_rows(GYRO_HEAD.splitlines())) == [(1000, 0.0, 0.0, 1.0, 0.1, -0.2, 0.3),
                                                      (2200, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0)]
    assert list(read_rows(["t_us,ax,ay,az", "10,0,0,1"])) == [(10, 0.0, 0.0, 1.0)]
    samples, gyro = split_rows(read_rows(GYRO_HEAD.splitlines()))
    assert samples == [(1000, 0.0, 0.0, 1.0), (2200, 0.0, 0.0, 1.0)] and gyro == [(0.1, -0.2, 0.3), (0.0, 0.0, 0.0)]


def test_read_trace_keeps_yielding_the_accelerometer_of_either_format() -> None:
    """Its existing callers (the accelerometer-only tools) read a gyro file too, without the rate."""
    assert list(read_trace(GYRO_HEAD.splitlines())) == [(1000, 0.0, 0.0, 1.0), (2200, 0.0, 0.0, 1.0)]


@pytest.mark.parametrize("body, line, words", [
    (GYRO_HEAD + "3400,0,0,1\n", 4, "expected 7 columns (t_us,ax,ay,az,gx,gy,gz), got 4"),
    (GYRO_HEAD + "3400,0,0,1,0,0,0,0\n", 4, "expected 7 columns"),
    ("t_us,ax,ay,az\n1000,0,0,1,0.1,0.2,0.3\n", 2, "expected 4 columns (t_us,ax,ay,az), got 7"),
    (GYRO_HEAD + "3400,0,0,1,0,x,0\n", 4, "gy is not a number"),
    (GYRO_HEAD + "3400,0,0,1,0,0,inf\n", 4, "gz is not finite"),
    (GYRO_HEAD + "3400,0,0,1,nan,0,0\n", 4, "gx is not finite"),
    ("t_us,ax,ay,az,gx,gy\n1,0,0,1,0,0\n", 1, "bad header"),
])
def test_a_malformed_gyro_csv_exits_2_naming_file_line_and_problem(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, line: int, words: str) -> None:
    path = tmp_path / "g.csv"
    path.write_text(body)
    assert main(["detect", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert f"g.csv:{line}:" in err and words in err
    with pytest.raises(TraceError, match=f"^g.csv:{line}:"):
        list(read_rows(body.splitlines(), "g.csv"))


def test_detect_feeds_the_gyro_columns_to_the_detector(tmp_path: Path, spy: list, capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    rows = write(tmp_path / "t.csv")
    assert main(["detect", str(tmp_path / "t.csv")]) == 0
    assert "launch" in capsys.readouterr().out
    assert len(spy) == len(rows)
    for got, want in zip(spy, rows):
        assert got == pytest.approx(want, abs=5e-5)  # the CSV keeps 4 decimals


def test_detect_on_an_accelerometer_only_file_feeds_no_gyro(tmp_path: Path, spy: list) -> None:
    tr = make_trace("throw_catch", 1)
    (tmp_path / "a.csv").write_text("".join(tr.csv_lines()))
    assert main(["detect", str(tmp_path / "a.csv")]) == 0
    assert len(spy) == len(tr.samples) and all(c[4:] == (None, None, None) for c in spy)


def test_recordings_with_gyro_columns_load_it_and_the_detector_and_tuner_get_it(tmp_path: Path, spy: list) -> None:
    rows = write(tmp_path / "r.csv")
    (tmp_path / "r.json").write_text(json.dumps({"device": "burrito-1", "kind": "burrito", "rate_hz": 833,
                                                 "events": [{"kind": "launch", "t": 1.0}]}))
    rec = recordings.load_recording(str(tmp_path / "r.csv"))
    assert len(rec.gyro) == len(rec.samples) == len(rows)
    assert rec.gyro[100] == pytest.approx(rows[100][4:], abs=5e-5)
    recordings.run_detector(rec)
    assert [v for c in spy for v in c[4:]] == pytest.approx([v for r in rows for v in r[4:]], abs=5e-5)
    from firmware_bridge.tune import evaluate

    spy.clear()
    evaluate([rec], {}, None)  # the tuner scores through run_detector: the rate reaches it too
    assert len(spy) == len(rows) and spy[0][4] is not None


def test_plot_draws_the_angular_rate_on_a_second_axis(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    import matplotlib.pyplot as plt

    figs: list[Any] = []
    real_close = plt.close
    monkeypatch.setattr(plt, "close", lambda fig=None: (figs.append(fig), real_close(fig)))
    write(tmp_path / "t.csv")
    png = tmp_path / "t.png"
    assert main(["detect", "--plot", str(tmp_path / "t.csv"), str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    [fig] = figs
    assert len(fig.axes) == 2 and "rad/s" in fig.axes[1].get_ylabel()
    assert max(fig.axes[1].lines[0].get_ydata()) > 3.0  # |w| of the spin in flight
    figs.clear()
    tr = make_trace("throw_catch", 1)
    (tmp_path / "a.csv").write_text("".join(tr.csv_lines()))
    assert main(["detect", "--plot", str(tmp_path / "a.csv"), str(png)]) == 0
    assert len(figs[0].axes) == 1  # no gyro, no second axis
