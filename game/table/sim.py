"""Simulation mode: the real code paths with nothing plugged in.

Seat buttons are gpiozero ``MockFactory`` pins (the keyboard and the demo's bots drive them through
``hardware.panels.MockPinTarget``, so debounce, hold and the GPIO callbacks all run), and burritos and badges are
``firmware_bridge.virtual.VirtualTable`` devices speaking the real protocol over a pseudo-terminal to the real
``DeviceHost``. Everything takes one clock, so the demo can run it faster than the wall clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from firmware_bridge.host import DeviceHost, PairingStore
from firmware_bridge.virtual import Radio, VirtualTable
from game.table.loop import DeviceMap
from hardware.gpio import make_factory
from hardware.panels import Table as PanelTable
from hardware.panels import open_table
from hardware.pinmap import PinMap, load_pinmap


def demo_pinmap() -> PinMap:
    """Four seats wired straight to the header: every press takes the direct GPIO path."""
    path = resources.files("hardware.pinmaps").joinpath("direct-four-seats.toml")
    return load_pinmap(str(path))


def retime(panels: PanelTable, clock: Callable[[], float]) -> None:
    """Make the panels stamp edges on ``clock``: a simulated press happens at the clock's now, whatever the threads."""
    if panels.gpio is not None:
        panels.gpio.clock.now = clock
        panels.gpio.clock.use_ticks = False
    if panels.expanders is not None:
        panels.expanders.edge_clock.now = clock
        panels.expanders.edge_clock.use_ticks = False
        panels.expanders.clock = clock
    panels.source.clock = clock


@dataclass
class SimRig:
    panels: PanelTable
    virtual: VirtualTable | None
    host: DeviceHost | None
    device_map: DeviceMap

    def forget_pin_history(self) -> None:
        """gpiozero's mock pins record every change (for ``assert_states``): a table blinking its seat lights for
        hours would keep them all. The table never reads them back, so they are dropped now and then."""
        factory = getattr(self.panels, "factory", None)
        for pin in list(getattr(factory, "pins", {}).values()):
            clear = getattr(pin, "clear_states", None)
            if clear is not None:
                clear()

    def close(self) -> None:
        if self.host is not None:
            self.host.stop()
        if self.virtual is not None:
            self.virtual.stop()
        self.panels.close()


def open_sim(clock: Callable[[], float], pinmap: PinMap | None = None, *, seats: int | None = None,
             devices: bool = True, seed: int = 7) -> SimRig:
    """Mock pins for every panel, and (``devices``) two virtual burritos and a badge per seat over a pty."""
    pinmap = pinmap or demo_pinmap()
    panels = open_table(pinmap, make_factory("mock"))
    retime(panels, clock)
    n = seats or pinmap.seats
    device_map = DeviceMap({f"burrito-{b}": b for b in (1, 2)}, {f"badge-{s}": s for s in range(1, n + 1)})
    if not devices:
        return SimRig(panels, None, None, device_map)
    # No simulated radio delay: the demo's clock moves in frame steps, and a delay would push every clock-sync
    # round trip over a step (the host rejects round trips over 10 ms). The pty and threads are real.
    vt = VirtualTable(radio=Radio(delay_ms=(0.0, 0.0)), seed=seed, clock=clock)
    for name in device_map.burritos:
        vt.add("burrito", name, heartbeat_s=1.0)
    for name in device_map.badges:
        vt.add("badge", name, heartbeat_s=1.0)
    store = PairingStore(None)
    vt.pair_all(store)
    host: DeviceHost | None = None
    try:
        vt.start()
        host = DeviceHost(vt.path, store, clock=clock, offline_after_s=5.0).start()
    except Exception:
        if host is not None:
            host.stop()
        vt.stop()
        panels.close()
        raise
    return SimRig(panels, vt, host, device_map)


def emit(rig: SimRig, device: str, kind: str, at: float, peak_g: float | None = None) -> None:
    """A virtual device detects ``kind`` at host time ``at`` (sent over the pty when the clock gets there)."""
    if rig.virtual is not None and device in rig.virtual.devices:
        rig.virtual.emit(device, kind, at=at, peak_g=peak_g)


def press(rig: SimRig, panel: int, button: str, down: bool) -> None:
    """Drive a seat button's mock pin, exactly as a finger on the arcade button would."""
    sim: Any = rig.panels.sim
    sim.set_button(panel, button, down)
