"""Debounce, hold, stuck buttons and event ordering in our layer (driven with made-up times)."""

from __future__ import annotations

from hardware.debounce import ButtonTracker
from hardware.pinmap import Timing
from hardware.source import PanelSource


def tracker() -> ButtonTracker:
    return ButtonTracker(2, "WAR", debounce_s=0.015, hold_s=0.8, stuck_s=30)


def acts(events: list) -> list[tuple[float, str]]:
    return [(round(e.t, 6), e.action) for e in events]


def test_contact_bounce_gives_one_press_stamped_at_the_first_edge() -> None:
    tr = tracker()
    out = []
    for i, level in enumerate([True, False, True, False, True]):
        out += tr.edge(1.0 + i * 0.002, level)
    out += tr.advance(1.1)
    assert acts(out) == [(1.0, "press")]


def test_release_bounce_gives_one_release() -> None:
    tr = tracker()
    tr.edge(1.0, True)
    out = tr.edge(1.3, False) + tr.edge(1.301, True) + tr.edge(1.302, False) + tr.advance(1.5)
    assert acts(out) == [(1.3, "release")]


def test_a_tap_shorter_than_the_debounce_window_still_releases_when_it_settles() -> None:
    tr = tracker()
    out = tr.edge(1.0, True) + tr.edge(1.005, False)
    assert acts(out) == [(1.0, "press")]
    assert tr.advance(1.01) == []  # still inside the window
    assert acts(tr.advance(1.02)) == [(1.015, "release")]


def test_hold_fires_once_at_press_plus_hold_time() -> None:
    tr = tracker()
    tr.edge(1.0, True)
    assert tr.advance(1.7) == []
    assert acts(tr.advance(1.9) + tr.advance(2.5)) == [(1.8, "hold")]
    assert acts(tr.edge(3.0, False)) == [(3.0, "release")]


def test_hold_is_reported_before_a_later_release_even_if_polled_late() -> None:
    tr = tracker()
    tr.edge(1.0, True)
    assert acts(tr.edge(2.0, False)) == [(1.8, "hold"), (2.0, "release")]


def test_stuck_button_is_reported_once_released_for_the_game_and_ignored_until_released() -> None:
    tr = tracker()
    tr.edge(0.0, True)
    out = tr.advance(31.0)
    assert acts(out) == [(0.8, "hold"), (30.0, "release")]
    assert [f.kind for f in tr.faults] == ["stuck"]
    assert "seat 2 WAR held for 30 s" in tr.faults[0].message
    assert tr.advance(100.0) == [] and len(tr.faults) == 1  # reported once only
    assert tr.edge(101.0, False) == []  # the physical release is not a second release
    assert [f.kind for f in tr.faults] == ["stuck", "unstuck"]
    assert acts(tr.edge(102.0, True)) == [(102.0, "press")]  # back in service


def test_poll_returns_events_of_all_seats_in_timestamp_order() -> None:
    src = PanelSource(3, timing=Timing(debounce_s=0.01, hold_s=0.5, stuck_s=10))
    src.edge(5.030, 3, "SET", True)
    src.edge(5.010, 1, "DUEL", True)
    src.edge(5.025, 2, "WAR", True)
    src.edge(5.015, 1, "DUEL", False)  # bounce of seat 1
    out = src.poll(now=5.6)
    assert [(e.seat, e.action) for e in out] == [(1, "press"), (1, "release"), (2, "press"), (3, "press"),
                                                 (2, "hold"), (3, "hold")]
    assert [e.t for e in out] == sorted(e.t for e in out)
    assert src.late == 0


def test_an_edge_for_an_unknown_button_is_reported_and_does_not_stop_the_others() -> None:
    src = PanelSource(2)
    src.edge(1.0, 7, "SET", True)
    src.edge(1.0, 1, "SET", True)
    assert [(e.seat, e.button) for e in src.poll(now=1.1)] == [(1, "SET")]
    faults = src.faults()
    assert [f.kind for f in faults] == ["unknown"] and "seat 7" in faults[0].message


def test_stuck_button_never_blocks_other_seats() -> None:
    src = PanelSource(2, timing=Timing(debounce_s=0.01, hold_s=0.5, stuck_s=2))
    src.edge(0.0, 1, "SET", True)
    src.poll(now=0.1)
    src.edge(2.5, 2, "BRAWL", True)
    out = src.poll(now=2.6)
    assert [(e.seat, e.button, e.action) for e in out] == [
        (1, "SET", "hold"), (1, "SET", "release"), (2, "BRAWL", "press")]
    assert [f.kind for f in src.faults()] == ["stuck"]


def test_reorder_window_holds_back_young_events_so_late_callbacks_keep_order() -> None:
    src = PanelSource(2, timing=Timing(reorder_s=0.005))
    src.edge(1.000, 1, "SET", True)
    src.edge(1.008, 2, "SET", True)
    assert [e.seat for e in src.poll(now=1.009)] == [1]  # seat 2's press is too young
    src.edge(1.006, 1, "WAR", True)  # its callback came late
    assert [(e.seat, e.button) for e in src.poll(now=1.02)] == [(1, "WAR"), (2, "SET")]
    assert src.late == 0


def test_late_event_without_reorder_window_is_delivered_and_counted() -> None:
    src = PanelSource(2)
    src.edge(1.008, 2, "SET", True)
    src.poll(now=1.009)
    src.edge(1.006, 1, "WAR", True)
    assert [(e.seat, e.button) for e in src.poll(now=1.01)] == [(1, "WAR")]
    assert src.late == 1
