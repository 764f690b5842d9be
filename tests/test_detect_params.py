"""Detector parameters: the DEFAULTS dict, Detector(kind, params), configure(params) and parameter files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_bridge.firmware.detector import DEFAULTS, Detector
from firmware_bridge.traces import make_trace
from firmware_bridge.tune import TuneError, load_params, write_params


def kinds(det: Detector, scenario: str, seed: int = 1) -> list[str]:
    tr = make_trace(scenario, seed, 833.0)
    out = [e[1] for s in tr.samples for e in det.feed(*s)]
    return out + [e[1] for e in det.flush()]


def test_defaults_are_a_flat_dict_of_numbers() -> None:
    """The shared interface: DEFAULTS maps name -> number, and params() reports exactly those names."""
    assert DEFAULTS and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in DEFAULTS.values())
    assert Detector("burrito").params() == DEFAULTS


def test_params_in_the_constructor_change_what_is_detected() -> None:
    """A parameter override takes effect: with a windup no arm reaches and a free fall no throw lasts, a throw is no
    launch."""
    assert "launch" in kinds(Detector("burrito"), "throw_catch")
    assert "launch" not in kinds(Detector("burrito", {"windup_g": 50.0, "drop_t": 10_000_000}), "throw_catch")


def test_configure_overrides_by_name_and_refuses_unknown_names_and_non_numbers() -> None:
    """configure() sets named parameters (times stay integer microseconds); a typo or a string is a clear error."""
    det = Detector("burrito")
    det.configure({"still_t": 300000.0, "contact_res": 0.25})
    assert det.params()["still_t"] == 300000 and isinstance(det.params()["still_t"], int)
    assert det.params()["contact_res"] == 0.25
    with pytest.raises(ValueError, match="unknown detector parameter"):
        det.configure({"contact_rse": 0.3})
    with pytest.raises(ValueError, match="not a number"):
        det.configure({"contact_res": "0.3"})
    with pytest.raises(ValueError, match="not a number"):
        Detector("burrito", {"still_t": True})


def test_parameter_file_round_trip_keeps_only_changes(tmp_path: Path) -> None:
    """A parameter file is {"version": 1, "params": {...}} holding only what differs from DEFAULTS."""
    params = dict(DEFAULTS)
    params["hard_g"] = 7.5
    path = tmp_path / "p.json"
    write_params(str(path), params)
    assert json.loads(path.read_text()) == {"version": 1, "params": {"hard_g": 7.5}}
    assert load_params(str(path)) == {"hard_g": 7.5}


@pytest.mark.parametrize("text, words", [
    ('{"version": 0, "params": {}}', "version must be an integer"),
    ('{"version": 1, "params": {"nope": 1}}', "params.nope: unknown"),
    ('{"version": 1, "params": {"hard_g": "x"}}', "params.hard_g: not a finite number"),
    ('{"version": 1,', "not JSON"),
])
def test_bad_parameter_files_name_the_file_and_the_problem(tmp_path: Path, text: str, words: str) -> None:
    """A broken parameter file is one clear error naming the file, never a traceback deeper down."""
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(TuneError, match=words) as exc:
        load_params(str(path))
    assert str(path) in str(exc.value)
