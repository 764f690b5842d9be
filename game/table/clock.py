"""Clocks for the loop, the virtual devices and the bots.

Live play runs on ``time.monotonic``. The demo runs on a :class:`SteppedClock`: the loop moves it forward one
fixed step per frame, so the rules, the bots, the seat panels and the virtual devices behind the pty all share one
simulated time that can run faster than the wall clock. Between two steps the clock stands still, so a clock-sync
round trip that fits inside one real frame measures zero; one that spans a step is simply rejected by the host's
10 ms round-trip gate.
"""

from __future__ import annotations

import threading
import time


class SteppedClock:
    """A monotonic clock that only moves when the loop calls :meth:`advance`. Thread-safe to read."""

    def __init__(self, start: float | None = None) -> None:
        self._t = time.monotonic() if start is None else start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        return self._t

    def advance(self, dt: float) -> float:
        if dt < 0:
            raise ValueError(f"a clock cannot go backwards (dt={dt})")
        with self._lock:
            self._t += dt
            return self._t
