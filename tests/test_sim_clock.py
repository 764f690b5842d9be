"""Simulation mode stamps a press at the simulated clock's now: the thread that runs the pin callback never adds its
own real-time delay to table time (a demo with the same seed plays the same game, however busy the machine)."""

from __future__ import annotations

import time

from game.table.clock import SteppedClock
from game.table.sim import open_sim, press
from hardware.gpio import EdgeClock


class _SlowTicks:
    """A factory whose edges are always 30 ms old by the time the callback runs (a busy machine)."""

    def ticks(self) -> float:
        return time.monotonic()

    def ticks_diff(self, later: float, earlier: float) -> float:
        return 0.030


def test_a_live_edge_clock_subtracts_the_edge_age_but_a_simulated_one_does_not() -> None:
    live = EdgeClock(_SlowTicks(), now=lambda: 100.0)
    assert live.to_host(0.0) == 100.0 - 0.030
    sim = EdgeClock(_SlowTicks(), now=lambda: 100.0)
    sim.use_ticks = False
    assert sim.to_host(0.0) == 100.0


def test_the_sim_rig_stamps_a_press_at_the_stepped_clock() -> None:
    clock = SteppedClock()
    rig = open_sim(clock, seats=2, devices=False)
    try:
        clock.advance(12.345)
        press(rig, 2, "SET", True)
        time.sleep(0.02)  # real time passes; table time does not
        events = rig.panels.source.poll(clock())
        press(rig, 2, "SET", False)
        assert [(e.seat, e.button, e.action) for e in events] == [(2, "SET", "press")]
        assert events[0].t == clock()
    finally:
        rig.close()
