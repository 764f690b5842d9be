"""`burrito-table detect --tune DIR` and `detect --plot TRACE.csv OUT.png`: the calibration loop's command and its
picture, on real labelled recordings (tests/data/phone_drops)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from firmware_bridge.firmware.detector import DEFAULTS
from firmware_bridge.tune import load_params
from game.cli import main

REAL = Path(__file__).parent / "data" / "phone_drops"


def copy_recordings(dest: Path, names: tuple[str, ...]) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    for n in names:
        shutil.copy(REAL / f"{n}.csv.gz", dest / f"{n}.csv.gz")
        shutil.copy(REAL / f"{n}.json", dest / f"{n}.json")


def test_tune_cross_validates_prints_before_after_per_kind_and_writes_a_parameter_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--tune fits on the folder's labelled recordings, prints held-out precision/recall/timing per kind before and
    after, and writes a {"version": 1, "params": ...} file the detector accepts."""
    d = tmp_path / "table"
    copy_recordings(d, ("fall_1", "fall_2", "up_and_down_2"))
    out = tmp_path / "params.json"
    assert main(["detect", "--tune", str(d), "--out", str(out), "--folds", "2", "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    assert "3 recordings, 2-fold cross-validation" in text
    for kind in ("launch", "impact", "rest", "pickup"):
        assert any(line.startswith(kind) for line in text.splitlines()), kind
    assert "before" in text and "after" in text
    params = load_params(str(out))
    assert set(params) <= set(DEFAULTS)
    assert json.loads(out.read_text())["version"] == 1


def test_tune_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No folder, an empty folder, or a broken sidecar: one stderr line naming the place, exit 2."""
    assert main(["detect", "--tune", str(tmp_path / "nope")]) == 2
    assert "not a folder" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["detect", "--tune", str(tmp_path / "empty")]) == 2
    assert "no labelled recordings" in capsys.readouterr().err
    d = tmp_path / "bad"
    copy_recordings(d, ("fall_1",))
    (d / "fall_1.json").write_text('{"kind": "burrito", "rate_hz": 200, "events": [{"kind": "lunch", "t": 1.0}]}')
    assert main(["detect", "--tune", str(d)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "fall_1.json: events[0]: unknown kind 'lunch'" in err


def test_plot_draws_the_trace_with_its_events(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--plot writes a PNG of the trace with detected (and, from the sidecar, labelled) events marked."""
    copy_recordings(tmp_path, ("fall_1",))
    png = tmp_path / "out.png"
    assert main(["detect", "--plot", str(tmp_path / "fall_1.csv.gz"), str(png)]) == 0
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    assert "events" in capsys.readouterr().out


def test_plot_and_detect_refuse_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A malformed trace is exit 2 with the line number; two modes at once is exit 2."""
    bad = tmp_path / "bad.csv"
    bad.write_text("t_us,ax,ay,az\n1000,0,0,x\n")
    assert main(["detect", "--plot", str(bad), str(tmp_path / "o.png")]) == 2
    assert "bad.csv:2" in capsys.readouterr().err
    assert not os.path.exists(tmp_path / "o.png")
    assert main(["detect", str(bad), "--tune", str(tmp_path)]) == 2
    assert "exactly one of" in capsys.readouterr().err
