"""One ordered stream of seat events, whatever the backend.

Backends (gpiozero pins, the MCP23017 worker, the keyboard) call
:meth:`PanelSource.edge` from whatever thread they run on; that only puts a
tuple on a :class:`queue.Queue`.  The main loop calls :meth:`PanelSource.poll`,
which drains the queue, runs debounce/hold/stuck on its own thread and returns
the events sorted by timestamp.

>>> src = PanelSource(seats=2, buttons=("SET", "DUEL"))
>>> src.edge(10.002, 2, "DUEL", True)    # callbacks may arrive out of order...
>>> src.edge(10.001, 1, "SET", True)
>>> [(e.seat, e.button, e.action) for e in src.poll(now=10.01)]   # ...poll sorts them
[(1, 'SET', 'press'), (2, 'DUEL', 'press')]
>>> src.edge(10.5, 2, "DUEL", False)
>>> src.poll(now=10.9)[0].action
'release'
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable

from .debounce import ButtonTracker
from .events import Fault, SeatEvent
from .pinmap import DEFAULT_BUTTONS, Timing

log = logging.getLogger(__name__)

Edge = tuple[float, int, str, bool]


class PanelSource:
    """The game's view of every seat panel: ``poll() -> list[SeatEvent]``.

    ``reorder_s`` holds events back that long before delivering them, so an
    edge whose callback arrives late still comes out in timestamp order.  With
    kernel timestamps and a single callback thread (lgpio) the default of 0 is
    enough; anything delivered out of order anyway is counted in
    :attr:`late` (and still delivered: no press is ever dropped).
    """

    def __init__(self, seats: int, buttons: tuple[str, ...] = DEFAULT_BUTTONS, timing: Timing | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        timing = timing or Timing()
        self.seats = seats
        self.buttons = tuple(buttons)
        self.timing = timing
        self.clock = clock
        self._queue: queue.SimpleQueue[Edge] = queue.SimpleQueue()
        self._trackers: dict[tuple[int, str], ButtonTracker] = {
            (s, b): ButtonTracker(s, b, debounce_s=timing.debounce_s, hold_s=timing.hold_s, stuck_s=timing.stuck_s)
            for s in range(1, seats + 1) for b in self.buttons
        }
        self._pending: list[SeatEvent] = []
        self._faults: list[Fault] = []
        self._fault_lock = threading.Lock()
        self._last_t = float("-inf")
        self.late = 0
        self.unknown = 0
        #: Set by every edge: a loop that sleeps between frames can wait on it and draw a press at once.
        self.woken = threading.Event()
        #: every tracker in a list, for a fast advance() pass
        self._all = list(self._trackers.values())

    # -- producer side (any thread) ---------------------------------------------------
    def edge(self, t: float, seat: int, button: str, pressed: bool) -> None:
        """Record a raw edge.  Called from callbacks: it only enqueues (and wakes the loop)."""
        self._queue.put((t, seat, button, pressed))
        self.woken.set()

    def fault(self, fault: Fault) -> None:
        """Record a backend fault (e.g. an expander stopped answering)."""
        with self._fault_lock:
            self._faults.append(fault)
        log.warning("%s", fault.message)

    # -- consumer side (the main loop) ------------------------------------------------
    def poll(self, now: float | None = None) -> list[SeatEvent]:
        """Every event due by ``now`` (default: the host clock), in timestamp order."""
        now = self.clock() if now is None else now
        edges: list[Edge] = []
        get = self._queue.get_nowait
        try:
            while True:
                edges.append(get())
        except queue.Empty:
            pass
        out = self._pending
        self._pending = []
        if edges:
            edges.sort(key=lambda e: e[0])
            trackers = self._trackers
            for t, seat, button, pressed in edges:
                tr = trackers.get((seat, button))
                if tr is None:
                    self.unknown += 1
                    self.fault(Fault(t, "unknown", seat, button, f"edge from unknown seat {seat} button {button!r} ignored"))
                    continue
                out += tr.edge(t, pressed)
        for tr in self._all:
            if tr.raw or tr.pressed or tr.stuck:  # idle buttons have nothing due
                out += tr.advance(now)
            if tr.faults:
                for f in tr.faults:
                    self.fault(f)
                tr.faults.clear()
        if not out:
            return out
        out.sort(key=lambda e: e.t)
        cutoff = now - self.timing.reorder_s
        if self.timing.reorder_s > 0 and out[-1].t > cutoff:
            keep = [e for e in out if e.t > cutoff]
            out = [e for e in out if e.t <= cutoff]
            self._pending = keep
        for e in out:
            if e.t < self._last_t:
                self.late += 1
            else:
                self._last_t = e.t
        return out

    def faults(self) -> list[Fault]:
        """Faults since the last call (stuck buttons, expanders not answering)."""
        with self._fault_lock:
            out, self._faults = self._faults, []
        return out

    def is_pressed(self, seat: int, button: str) -> bool:
        """The debounced level as of the last poll()."""
        return self._trackers[(seat, button)].pressed
