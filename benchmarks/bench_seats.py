"""Seat panel latency and burst benchmark, through the real layer on gpiozero's MockFactory.

    python benchmarks/bench_seats.py [--presses N]

* latency: edge on a mock pin -> SeatEvent returned by PanelSource.poll(), p50/p99.
  "same thread": the pin is driven and polled on one thread (the layer's own cost).
  The polling loop sleeps 0.2 ms between empty polls (see IDLE).
  "threaded": a driver thread makes the edges while the main loop polls, as the
  lgpio callback thread and the game loop do on a Pi.
  For the expander path the simulated MCP23017 runs the real driver and worker thread.
* burst: 12 seats x 4 buttons pressed within 1 ms on the 12-seat expander map: all
  must be delivered, in timestamp order.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from gpiozero.pins.mock import MockFactory, MockPWMPin  # noqa: E402

from hardware.panels import open_table  # noqa: E402
from hardware.pinmap import load_pinmap  # noqa: E402

#: The polling loop yields between empty polls, as a game loop does between frames; a loop that
#: never sleeps holds the GIL and starves the callback threads for up to sys.getswitchinterval().
IDLE = 0.0002


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def latency_same_thread(path: str, presses: int) -> list[float]:
    factory = MockFactory(pin_class=MockPWMPin)
    pm = load_pinmap(path)
    out: list[float] = []
    with open_table(pm, factory) as table:
        buttons = pm.button_pins()
        for i in range(presses):
            seat, button, _ = buttons[i % len(buttons)]
            for pressed in (True, False):
                table.sim.set_button(seat, button, pressed)
                got: list = []
                while not got:
                    got = table.source.poll()
                    if not got:
                        time.sleep(IDLE)
                out.append(time.monotonic() - got[0].t)
                time.sleep(pm.timing.debounce_s + 0.002)  # the next edge comes after the lockout
    factory.reset()
    return out


def latency_threaded(path: str, presses: int) -> list[float]:
    factory = MockFactory(pin_class=MockPWMPin)
    pm = load_pinmap(path)
    out: list[float] = []
    with open_table(pm, factory) as table:
        buttons = pm.button_pins()
        done = threading.Event()

        def driver() -> None:
            for i in range(presses):
                seat, button, _ = buttons[i % len(buttons)]
                table.sim.set_button(seat, button, True)
                time.sleep(0.004)
                table.sim.set_button(seat, button, False)
                time.sleep(pm.timing.debounce_s + 0.004)
            done.set()

        th = threading.Thread(target=driver)
        th.start()
        while not done.is_set() or len(out) < 2 * presses:
            got = table.source.poll()
            for e in got:
                out.append(time.monotonic() - e.t)
            if done.is_set() and len(out) >= 2 * presses:
                break
            if not got:
                time.sleep(IDLE)
        th.join()
    factory.reset()
    return out


def burst(path: str) -> tuple[int, float, bool, int]:
    factory = MockFactory(pin_class=MockPWMPin)
    pm = load_pinmap(path)
    with open_table(pm, factory) as table:
        start = time.monotonic()
        for seat, button, _ in pm.button_pins():
            table.sim.set_button(seat, button, True)
        spread = time.monotonic() - start
        got: list = []
        deadline = time.monotonic() + 2
        while len(got) < len(pm.button_pins()) and time.monotonic() < deadline:
            got += table.source.poll()
            time.sleep(IDLE)
        in_order = [e.t for e in got] == sorted(e.t for e in got)
        late = table.source.late
    factory.reset()
    return len(got), spread, in_order, late


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presses", type=int, default=400)
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}")
    print()
    print("| path | mode | events | p50 ms | p99 ms | max ms |")
    print("|---|---|---|---|---|---|")
    for label, path in (("GPIO direct (4 seats)", "hardware/pinmaps/direct-four-seats.toml"),
                        ("MCP23017 expander (6 seats)", "hardware/pinmap.toml")):
        for mode, fn in (("same thread", latency_same_thread), ("threaded", latency_threaded)):
            lat = fn(path, args.presses)
            print(f"| {label} | {mode} | {len(lat)} | {statistics.median(lat) * 1e3:.3f} | "
                  f"{pct(lat, 99) * 1e3:.3f} | {max(lat) * 1e3:.3f} |")
    print()
    print("| burst | pressed within ms | delivered | in timestamp order | late |")
    print("|---|---|---|---|---|")
    n, spread, ordered, late = burst("hardware/pinmaps/twelve-seats.toml")
    print(f"| 12 seats x 4 buttons (4 expanders) | {spread * 1e3:.3f} | {n}/48 | {'yes' if ordered else 'NO'} | {late} |")
    return 0 if n == 48 and ordered else 1


if __name__ == "__main__":
    sys.exit(main())
