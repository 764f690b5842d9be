"""What the seat panels tell the game: one ordered stream of :class:`SeatEvent`.

The main loop never learns which backend (direct GPIO, MCP23017 expander or
keyboard) produced an event; it only sees these frozen records, in timestamp
order, from :meth:`hardware.source.PanelSource.poll`.

>>> SeatEvent(t=12.5, seat=3, button="WAR", action="press")
SeatEvent(t=12.5, seat=3, button='WAR', action='press')
>>> SeatEvent(t=1.0, seat=1, button="SET", action="wave")
Traceback (most recent call last):
...
ValueError: SeatEvent.action must be one of press, release, hold (got 'wave')
"""

from __future__ import annotations

from dataclasses import dataclass

#: The three things a button can do.  ``hold`` fires once when a button has
#: stayed down for the configured hold time (``timing.hold_ms``).
ACTIONS: tuple[str, ...] = ("press", "release", "hold")


@dataclass(frozen=True, slots=True)
class SeatEvent:
    """A debounced button action at one seat.

    ``t`` is seconds on the host clock ``time.monotonic()``; kernel edge
    timestamps are converted to it, so two presses from different seats can be
    ordered by ``t`` even when their callbacks arrive in another order.
    Seats are numbered 1..N clockwise; ``button`` is an upper-case name from
    the panel layout (``SET``, ``BRAWL``, ``WAR``, ``DUEL`` by default).
    """

    t: float
    seat: int
    button: str
    action: str

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise ValueError(
                f"SeatEvent.action must be one of {', '.join(ACTIONS)} (got {self.action!r})"
            )


@dataclass(frozen=True, slots=True)
class Fault:
    """A hardware problem the game should show but never wait on.

    ``kind`` is ``"stuck"`` (a button held far longer than any real press; it
    is ignored until released), ``"unstuck"`` (it was released again) or
    ``"expander"`` (an I2C expander stopped answering).  ``seat`` and
    ``button`` are 0 and ``""`` when the fault is not about one button.
    """

    t: float
    kind: str
    seat: int
    button: str
    message: str
