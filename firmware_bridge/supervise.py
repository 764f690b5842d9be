"""Background parts that never die silently: a supervised thread and a rate limit for error lines.

A table runs several loops beside its main loop (the virtual devices, the serial reader, the web server, the MQTT
publisher, the announcer). An exception in one of them must not end it quietly while the game goes on: the
``Supervised`` runner logs the failure once with its cause, marks the part *down*, waits (backing off from
``backoff[0]`` to ``backoff[1]`` seconds while it keeps failing) and runs the loop again. ``parts()`` lists every live
part with its state, so the table can show which one is down until it is back.

The same failure repeated is one log line and a count, never a flood: ``LineLimiter`` allows a few lines a minute per
kind of line and says how many it held back.

Host side only (threads and ``logging``): the firmware never imports it.

>>> import threading
>>> calls = []
>>> def loop(stop):
...     calls.append(1)
...     if len(calls) == 1:
...         raise RuntimeError("first run fails")
...     stop.wait()
>>> part = Supervised("example", loop, backoff=(0.01, 0.05), log=None).start()
>>> part.wait_runs(2, timeout=2.0)
True
>>> part.failures, part.last_error
(1, 'RuntimeError: first run fails')
>>> part.stop()
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

#: a loop that has run this long since its last failure counts as back up, and its backoff starts over
SETTLE_S = 1.0
STABLE_S = 30.0

_PARTS: weakref.WeakSet[Supervised] = weakref.WeakSet()
_PARTS_LOCK = threading.Lock()


@dataclass(frozen=True)
class PartStatus:
    """What the table shows of one background part."""

    name: str
    up: bool
    failures: int
    last_error: str


class LineLimiter:
    """At most ``per_minute`` lines a minute for each key; ``allow`` says whether to write this one, and ``held``
    how many were held back since the last line written for that key (so the next line can say so)."""

    def __init__(self, per_minute: int = 5, clock: Callable[[], float] = time.monotonic, max_keys: int = 256) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self.max_keys = max_keys
        self._seen: dict[str, list[float]] = {}
        self._held: dict[str, int] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> tuple[bool, int]:
        """(write it?, lines held back before it). Keys are capped, so hostile input cannot grow the table."""
        now = self.clock()
        with self._lock:
            times = self._seen.get(key)
            if times is None:
                if len(self._seen) >= self.max_keys:
                    key = "(other)"
                    times = self._seen.setdefault(key, [])
                else:
                    times = self._seen[key] = []
            times[:] = [t for t in times if now - t < 60.0]
            if len(times) >= self.per_minute:
                self._held[key] = self._held.get(key, 0) + 1
                return False, 0
            times.append(now)
            return True, self._held.pop(key, 0)

    def log(self, logger: logging.Logger, level: int, key: str, msg: str, *args: object) -> bool:
        """Log ``msg % args`` under the limit for ``key``; True when it was written."""
        ok, held = self.allow(key)
        if ok:
            if held:
                logger.log(level, msg + " (%d more like it held back)", *args, held)
            else:
                logger.log(level, msg, *args)
        return ok


def describe(exc: BaseException) -> str:
    """One line for an exception: its type and its first line of text, cut at 200 characters."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    line = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return line if len(line) <= 200 else line[:197] + "..."


class Supervised:
    """Runs ``target(stop)`` on a daemon thread until ``stop`` is set; restarts it after an exception.

    ``target`` should return when ``stop`` (a ``threading.Event``) is set. A return without ``stop`` set ends the part
    too (it finished its work). An exception is logged once per distinct cause (with the traceback the first time),
    the part is down until the loop has run ``SETTLE_S`` again, and the wait before each restart doubles from
    ``backoff[0]`` up to ``backoff[1]`` seconds, starting over once the loop has run ``STABLE_S`` without failing.
    ``on_change(part)`` is called on the part's own thread whenever it goes down or is restarted.
    """

    def __init__(self, name: str, target: Callable[[threading.Event], object], *,
                 backoff: tuple[float, float] = (0.2, 10.0), stop: threading.Event | None = None,
                 log: logging.Logger | None = log, on_change: Callable[[Supervised], object] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self.target = target
        self.backoff = backoff
        self.stop_event = stop if stop is not None else threading.Event()
        self.log = log
        self.on_change = on_change
        self.clock = clock
        self.failures = 0
        self.runs = 0
        self.last_error = ""
        self._failed_at: float | None = None
        self._started_at = 0.0
        self._logged: set[str] = set()
        self._thread: threading.Thread | None = None
        self._runs_cond = threading.Condition()

    # ------------------------------------------------------------ lifecycle

    def start(self) -> Supervised:
        self._thread = threading.Thread(target=self._supervise, name=self.name, daemon=True)
        with _PARTS_LOCK:
            _PARTS.add(self)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self.stop_event.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        with _PARTS_LOCK:
            _PARTS.discard(self)

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def up(self) -> bool:
        """Running, and not within ``SETTLE_S`` of its last failure."""
        if not self.alive:
            return False
        failed = self._failed_at
        return failed is None or (self.runs > self.failures and self.clock() - self._started_at >= SETTLE_S
                                  and self._started_at > failed)

    def status(self) -> PartStatus:
        return PartStatus(self.name, self.up, self.failures, self.last_error)

    def wait_runs(self, n: int, timeout: float) -> bool:
        """Block until the loop has been started ``n`` times (for tests); False on timeout."""
        with self._runs_cond:
            return self._runs_cond.wait_for(lambda: self.runs >= n, timeout)

    # ------------------------------------------------------------ the thread

    def _supervise(self) -> None:
        delay = self.backoff[0]
        while not self.stop_event.is_set():
            self._started_at = self.clock()
            with self._runs_cond:
                self.runs += 1
                self._runs_cond.notify_all()
            if self.runs > 1:
                self._changed()
            try:
                self.target(self.stop_event)
                return
            except Exception as exc:  # noqa: BLE001 - the point of a supervisor: any failure stays inside the part
                if self.stop_event.is_set():
                    return
                if self.clock() - self._started_at >= STABLE_S:
                    delay = self.backoff[0]
                self._failed(exc, delay)
            self.stop_event.wait(delay)
            delay = min(delay * 2, self.backoff[1])

    def _failed(self, exc: Exception, delay: float) -> None:
        self.failures += 1
        self.last_error = describe(exc)
        self._failed_at = self.clock()
        if self.log is not None:
            key = f"{type(exc).__name__}:{exc}"[:300]
            if key not in self._logged and len(self._logged) < 32:
                self._logged.add(key)
                self.log.error("%s failed (%s); restarting it in %.1f s", self.name, self.last_error, delay,
                               exc_info=exc)
            elif self.failures % 100 == 0:
                self.log.error("%s has failed %d times (last: %s)", self.name, self.failures, self.last_error)
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            try:
                self.on_change(self)
            except Exception:  # noqa: BLE001 - a broken listener must not take the part down with it
                log.exception("%s: its change listener failed", self.name)


def parts() -> list[PartStatus]:
    """Every supervised part that is running now, by name."""
    with _PARTS_LOCK:
        live = [p for p in _PARTS if p.alive]
    return sorted((p.status() for p in live), key=lambda s: s.name)


def down() -> list[PartStatus]:
    """The running parts that are down now (failed and not yet back)."""
    return [s for s in parts() if not s.up]
