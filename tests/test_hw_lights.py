"""Seat lights: named cues on MockFactory PWM pins."""

from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPin
from hwfixtures import mock_factory  # noqa: F401  (fixture)

from hardware.lights import CUES, IDLE_LEVEL, Lights
from hardware.pinmap import load_pinmap


def levels_seen(pin: object, seconds: float) -> set[float]:
    seen: set[float] = set()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        seen.add(round(pin.state, 2))  # type: ignore[attr-defined]
        time.sleep(0.005)
    return seen


def test_steady_cues_set_the_pwm_level(mock_factory: MockFactory) -> None:
    lights = Lights(load_pinmap(), mock_factory)
    try:
        pin = mock_factory.pin("GPIO5")  # seat 1
        lights.cue(1, "idle")
        assert pin.state == pytest.approx(IDLE_LEVEL)
        lights.cue(1, "winner")
        assert pin.state == 1.0
        lights.cue(1, "out")
        assert pin.state == 0.0
    finally:
        lights.close()


def test_battle_cue_blinks_fully_on_and_off(mock_factory: MockFactory) -> None:
    lights = Lights(load_pinmap(), mock_factory)
    try:
        lights.cue(2, "battle")
        assert levels_seen(mock_factory.pin("GPIO6"), 0.6) == {0.0, 1.0}
    finally:
        lights.close()


def test_answer_cue_pulses_through_intermediate_levels(mock_factory: MockFactory) -> None:
    lights = Lights(load_pinmap(), mock_factory)
    try:
        lights.cue(3, "answer")
        seen = levels_seen(mock_factory.pin("GPIO12"), 0.8)
        assert len([v for v in seen if 0.05 < v < 0.95]) >= 3
    finally:
        lights.close()


def test_each_seat_has_its_own_light_and_cue_all_reaches_every_one(mock_factory: MockFactory) -> None:
    pm = load_pinmap()
    lights = Lights(pm, mock_factory)
    try:
        lights.cue_all("winner")
        lights.cue(4, "out")
        states = {p.seat: mock_factory.pin(p.light.gpiozero_name).state for p in pm.seat_panels()}
        assert states == {1: 1.0, 2: 1.0, 3: 1.0, 4: 0.0, 5: 1.0, 6: 1.0}
        assert lights.current[4] == "out" and lights.current[5] == "winner"
    finally:
        lights.close()


def test_unknown_cue_and_unknown_seat_are_clear_errors(mock_factory: MockFactory) -> None:
    lights = Lights(load_pinmap(), mock_factory)
    try:
        with pytest.raises(ValueError, match="unknown light cue 'party' \\(cues: idle, battle, answer, out, winner\\)"):
            lights.cue(1, "party")
        with pytest.raises(ValueError, match="no light for seat 9"):
            lights.cue(9, "idle")
        assert CUES == ("idle", "battle", "answer", "out", "winner")
    finally:
        lights.close()


def test_without_pwm_the_lights_fall_back_to_on_off() -> None:
    factory = MockFactory(pin_class=MockPin)
    lights = Lights(load_pinmap(), factory)
    try:
        assert lights.pwm is False
        lights.cue(1, "idle")
        assert factory.pin("GPIO5").state is True or factory.pin("GPIO5").state == 1
    finally:
        lights.close()
        factory.reset()
