"""Debounce, hold and stuck-button detection for one button, as a pure state machine.

It lives in our layer rather than in gpiozero's ``bounce_time`` because
MockPin does not simulate bounce (so tests could not see it) and because we
want the *first* edge's timestamp: a press is reported at its first edge and
the contacts' chatter in the next ``debounce_s`` is ignored.  If the level
after that window differs from what was reported (a very short tap), the
change is reported at the end of the window.

Everything is driven by explicit timestamps, so it is tested with made-up
times and runs on the main loop's thread only (callbacks merely enqueue).

>>> tr = ButtonTracker(1, "SET", debounce_s=0.01, hold_s=0.5, stuck_s=5)
>>> [e.action for e in tr.edge(0.0, True) + tr.edge(0.002, False) + tr.edge(0.003, True)]
['press']
>>> [(e.t, e.action) for e in tr.advance(0.6)]
[(0.5, 'hold')]
>>> [(e.t, e.action) for e in tr.edge(0.7, False)]
[(0.7, 'release')]
"""

from __future__ import annotations

from .events import Fault, SeatEvent


class ButtonTracker:
    """State of one (seat, button): reported level, debounce lockout, hold, stuck."""

    __slots__ = ("seat", "button", "debounce_s", "hold_s", "stuck_s", "pressed", "raw", "raw_t",
                 "lock_until", "press_t", "held", "stuck", "faults")

    def __init__(self, seat: int, button: str, *, debounce_s: float, hold_s: float, stuck_s: float) -> None:
        self.seat = seat
        self.button = button
        self.debounce_s = debounce_s
        self.hold_s = hold_s
        self.stuck_s = stuck_s
        self.pressed = False      # level reported to the game
        self.raw = False          # last raw level seen
        self.raw_t = float("-inf")
        self.lock_until = float("-inf")
        self.press_t = 0.0
        self.held = False         # hold already reported for this press
        self.stuck = False        # declared stuck; ignored until released
        self.faults: list[Fault] = []

    def _event(self, t: float, action: str) -> SeatEvent:
        return SeatEvent(t, self.seat, self.button, action)

    def _change(self, t: float, level: bool) -> list[SeatEvent]:
        """Report a debounced level change at time t."""
        self.lock_until = t + self.debounce_s
        if self.stuck:
            if not level:  # the stuck button is finally released: back in service, silently
                self.stuck = False
                self.pressed = False
                self.faults.append(Fault(t, "unstuck", self.seat, self.button,
                                         f"seat {self.seat} {self.button} released again; back in service"))
            return []
        self.pressed = level
        if level:
            self.press_t = t
            self.held = False
            return [self._event(t, "press")]
        return [self._event(t, "release")]

    def advance(self, now: float) -> list[SeatEvent]:
        """Fire what is due up to ``now``: a settled level after bounce, hold, stuck."""
        out: list[SeatEvent] = []
        if self.raw != (self.pressed or self.stuck) and now >= self.lock_until:
            out += self._change(self.lock_until, self.raw)
        if self.pressed and not self.stuck:
            if not self.held and now >= self.press_t + self.hold_s:
                self.held = True
                out.append(self._event(self.press_t + self.hold_s, "hold"))
            if now >= self.press_t + self.stuck_s:
                t = self.press_t + self.stuck_s
                self.stuck = True
                self.pressed = False
                # the game is told the button is up, so nothing waits on it
                out.append(self._event(t, "release"))
                self.faults.append(Fault(t, "stuck", self.seat, self.button,
                                         f"seat {self.seat} {self.button} held for {self.stuck_s:g} s: "
                                         f"stuck? ignored until released"))
        return out

    def edge(self, t: float, level: bool) -> list[SeatEvent]:
        """Feed one raw edge (``level`` True = pressed) at time t."""
        out = self.advance(t)
        self.raw, self.raw_t = level, t
        if t < self.lock_until:
            return out  # bounce: settled later by advance()
        if level != (self.pressed or self.stuck):
            out += self._change(t, level)
        return out
