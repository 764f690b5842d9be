"""Simulated throws that produce the evidence a real throw does.

The sim keys (F9 hit, F10 miss, F11 catch) do not send ready-made device events: they play accelerometer traces
(``firmware_bridge.traces``) into the virtual burrito and badge, through the real detector, the wire protocol over the
pty and the device host, exactly as the referee's benchmark does (``game.referee.battlesim.play_on_virtual_table``).
So a clean throw made with the keys carries what a real clean throw carries -- a bounce after a floor contact, a badge
impact within a few ms of the burrito's, a catch pulse and hand tremor -- and the referee calls it without asking.

A catch needs one thing no device gives: who caught it. At a real table the catcher claims it with a button press
(docs/referee.md, R4), so a simulated catch presses the catcher's SET button, on its mock pin, a second after
the catch.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from firmware_bridge.traces import make_trace

#: Seconds from the catch to the catcher's claim press: R4 allows 2 s, counted from the catch, even while the
#: detector's verdict (about 0.7 s: a look at the hand's tremor) is still on its way to the referee.
CLAIM_AFTER_S = 1.0
#: How long the claim press is held (a tap, well under the 0.8 s hold that would be a challenge).
TAP_S = 0.12
#: Which trace plays in the burrito for each outcome.
SCENARIO = {"hit": "throw_impact", "miss": "throw_impact", "catch": "throw_catch"}
#: throws remembered after they are done: enough for any claim press still due
KEEP_THROWN = 32


@dataclass
class Throw:
    """What one key press set going: the outcome, and the host time of the burrito's first contact."""

    outcome: str
    burrito: str
    contact_t: float
    badge: str | None = None
    catcher_panel: int | None = None


@dataclass
class TraceThrows:
    """Plays throw traces into a ``SimRig``'s virtual devices; ``tick(now)`` does the catcher's claim presses."""

    rig: Any  # game.table.sim.SimRig
    clock: Callable[[], float]
    seed: int = 0
    thrown: list[Throw] = field(default_factory=list)
    _due: list[tuple[float, int, bool]] = field(default_factory=list)  # (t, panel, down)
    _rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def badge_at(self, panel: int) -> str | None:
        """The badge paired at ``panel`` (badges are paired to panels, not game seats)."""
        return next((n for n, p in self.rig.device_map.badges.items() if p == panel), None)

    def throw(self, outcome: str, burrito: str, target_panel: int, lead_s: float = 0.05) -> Throw | None:
        """A throw of ``burrito`` at the player of ``target_panel`` that ends in ``outcome`` (hit, miss, catch)."""
        vt = self.rig.virtual
        if vt is None or burrito not in vt.devices:
            return None
        seed = self._rng.randrange(1 << 30)
        tr = make_trace(SCENARIO[outcome], seed)
        first = tr.samples[0][0]
        start = self.clock() + lead_s
        mark = "catch" if outcome == "catch" else "impact"
        contact = start + (next(t for t, k in tr.truth if k == mark) - first) / 1e6
        vt.play_trace(burrito, [(t - first, ax, ay, az) for t, ax, ay, az in tr.samples], start=start)
        done = Throw(outcome, burrito, contact)
        if outcome == "hit":
            badge = self.badge_at(target_panel)
            if badge is not None and badge in vt.devices:
                bt = make_trace("badge_hit", seed)
                bfirst = bt.samples[0][0]
                bimpact = next(t for t, k in bt.truth if k == "impact")
                vt.play_trace(badge, [(t - bfirst, ax, ay, az) for t, ax, ay, az in bt.samples],
                              start=contact - (bimpact - bfirst) / 1e6)
                done.badge = badge
        elif outcome == "catch":
            done.catcher_panel = target_panel
            self._due += [(contact + CLAIM_AFTER_S, target_panel, True),
                          (contact + CLAIM_AFTER_S + TAP_S, target_panel, False)]
        self.thrown.append(done)
        del self.thrown[:-KEEP_THROWN]  # only the last few matter (a claim press still due); hours of play add up
        return done

    def tick(self, now: float) -> None:
        """Press and release the catchers' claim buttons that are due by ``now`` (on their mock pins)."""
        from game.table.sim import press

        due = sorted(d for d in self._due if d[0] <= now)
        self._due = [d for d in self._due if d[0] > now]
        for _, panel, down in due:
            press(self.rig, panel, "SET", down)

    def busy(self, now: float) -> bool:
        """A throw still in the air or a claim still to press (the sim keys wait before the next throw)."""
        return bool(self._due) or any(t.contact_t + 1.0 > now for t in self.thrown)
