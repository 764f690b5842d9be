"""Fixtures for the hardware/ tests: a fresh MockFactory per test, as gpiozero's own conftest does."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.events import SeatEvent
from hardware.pinmap import PinMap, load_pinmap, parse_pinmap


@pytest.fixture()
def mock_factory() -> Iterator[MockFactory]:
    """A MockFactory with PWM-capable pins, reset and restored after the test."""
    saved = Device.pin_factory
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved


def fast_pinmap(path: str | None = None, **timing: float) -> PinMap:
    """A shipped pin map with test-friendly timing (short hold/stuck)."""
    import dataclasses

    pm = load_pinmap(path)
    return dataclasses.replace(pm, timing=dataclasses.replace(pm.timing, **timing))


def poll_until(source: object, count: int, timeout: float = 2.0) -> list[SeatEvent]:
    """Poll a PanelSource until ``count`` events arrived (the expander worker is a thread)."""
    out: list[SeatEvent] = []
    deadline = time.monotonic() + timeout
    while len(out) < count and time.monotonic() < deadline:
        got = source.poll()  # type: ignore[attr-defined]
        out += got
        if not got:
            time.sleep(0.001)
    return out


__all__ = ["mock_factory", "fast_pinmap", "poll_until", "parse_pinmap"]
