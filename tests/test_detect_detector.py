"""Detector interface rules that part B codes against."""

from __future__ import annotations

import pytest

from firmware_bridge.firmware.detector import Detector
from firmware_bridge.traces import make_trace


def test_unknown_device_kind_is_refused() -> None:
    """Detector('drone') is a clear error, not a silent burrito."""
    with pytest.raises(ValueError, match="unknown device kind"):
        Detector("drone")


def test_feed_returns_a_list_of_t_kind_peak_tuples() -> None:
    """feed() always returns a list; events are (t_us:int, kind:str, peak_g:float) with a known kind."""
    tr = make_trace("throw_impact", 2, 833.0)
    det = Detector("burrito")
    events = []
    for t, ax, ay, az in tr.samples:
        out = det.feed(t, ax, ay, az)
        assert isinstance(out, list)
        events += out
    assert events
    for t, kind, peak in events:
        assert isinstance(t, int) and isinstance(peak, float)
        assert kind in {"pickup", "launch", "impact", "catch", "rest", "bounce"}


def test_time_must_increase() -> None:
    """A repeated or backwards timestamp is refused (the firmware's clock never goes back)."""
    det = Detector("badge")
    det.feed(1000, 0.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="time does not increase"):
        det.feed(1000, 0.0, 0.0, 1.0)


def test_same_motion_at_different_rates_gives_same_events() -> None:
    """Constants are times, not sample counts: one throw sampled at 400 and 1600 Hz gives the same event kinds."""
    for seed in range(3):
        kinds = []
        for rate in (400.0, 1600.0):
            tr = make_trace("throw_catch", seed, rate)
            det = Detector("burrito")
            ks = [e[1] for s in tr.samples for e in det.feed(*s)]
            kinds.append(ks)
        assert kinds[0] == kinds[1] == ["pickup", "launch", "catch"]
