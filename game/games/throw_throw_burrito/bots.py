"""The demo's players: four bots that press seat buttons and throw virtual burritos.

Buttons: a bot presses the mock pin of its seat's button (down, then up ~0.12 s later), so every call goes through
GPIO, debounce and the button mapping like a real finger. Duel picks are made by moving the cursor with BRAWL/WAR
and picking with SET on the declarer's panel. One early SET is taken back with a hold, to show the gesture.

Throws: every grab, throw and landing is also a virtual device event (the burrito's ``pickup``/``launch``/``impact``
or ``catch``, the hit player's badge ``impact``) sent over the pty through the real device host. With the referee
installed, the referee turns those into the calls. Without it, ``direct`` is True and the bots also hand
the table events (``grab``/``throw``/``hit``/``miss``/``catch``, marked ``"source": "demo-bot"``) to the loop
themselves, and the demo says so.

The bots wait while the screen shows a moment (a call, a countdown), as people do. Seeded: same seed, same choices.
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Callable
from typing import Any

from game.referee.referee import ANSWER_BUTTONS
from game.table.loop import TableApp
from game.table.sim import SimRig, emit, press

TAP_S = 0.12


class Bots:
    def __init__(self, app: TableApp, rig: SimRig, *, seed: int = 7, direct: bool = True) -> None:
        self.app = app
        self.rig = rig
        self.rng = random.Random(seed)
        self.direct = direct
        self._todo: list[tuple[float, int, Callable[[], None]]] = []
        self._n = itertools.count()
        self.busy_until = 0.0
        self.took_back = False
        self.ties_shown = 0
        self.close_calls = 0
        self.actions = 0
        self.answered: set[int] = set()
        #: What really happened, for honest answers: (land time, thrower, burrito, target, outcome).
        self.flights: list[tuple[float, int, int, int, str]] = []

    # -- scheduling ------------------------------------------------------------------------------

    def at(self, t: float, fn: Callable[[], None]) -> None:
        heapq.heappush(self._todo, (t, next(self._n), fn))

    def tap(self, t: float, seat: int, button: str, hold_s: float = TAP_S) -> None:
        panel = self.app.seatmap[seat - 1]
        self.at(t, lambda: press(self.rig, panel, button, True))
        self.at(t + hold_s, lambda: press(self.rig, panel, button, False))

    def table_event(self, ev: dict[str, Any]) -> None:
        """At ``ev['t']``: the bots' own call (no referee) goes into the loop's merge buffer."""
        if self.direct:
            ev = dict(ev, source="demo-bot")
            self.at(ev["t"], lambda: self.app.inject(ev))

    def device(self, name: str, kind: str, t: float, peak: float | None = None) -> None:
        emit(self.rig, name, kind, t, peak)

    # -- the brain ---------------------------------------------------------------------------------

    def run_due(self, now: float) -> None:
        """Do every scheduled press and device event that is due by ``now``."""
        while self._todo and self._todo[0][0] <= now:
            heapq.heappop(self._todo)[2]()

    def step(self, now: float) -> None:
        self.run_due(now)
        app = self.app
        st = app.state
        q = app.question
        if q is not None and q.id not in self.answered:
            # the referee asks: every asked seat answers what really happened (option i is button i)
            self.answered.add(q.id)
            subject = app.referee.subject(q.id) if app.referee is not None else None
            for i, seat in enumerate(q.seats):
                option = self.answer(q, subject or {}, seat)
                self.tap(now + 0.4 + 0.1 * i, seat, ANSWER_BUTTONS[option])
            return
        if st is None or app.over or now < self.busy_until or self._todo:
            return
        if app.presenter.busy(now) or app.buffer or app.mapper.pending or app.question is not None:
            return
        if st.declaring or st.pending:
            return
        b = st.battle
        self.actions += 1
        if b is None:
            self._between_battles(now, st)
        elif b.awaiting_pick:
            self._pick(now, b.declarer, st.seats)
        elif b.loser is None:
            self._fight(now, st, sorted(b.fighters))

    def answer(self, q: Any, subject: dict[str, Any], seat: int) -> int:
        """The index of the true answer to the referee's question ``q`` for ``seat``, from the bots' own throws."""
        purpose = subject.get("purpose", "")
        if purpose == "tie?":
            gap = subject.get("gap_ms")
            tie = gap is not None and gap <= self.app.referee.tie_window * 1000
            return q.options.index("tie" if tie else "no tie")
        if "yes" not in q.options:
            return 0  # e.g. a challenge vote: the bots uphold the call
        burrito, contact_t = subject.get("burrito"), subject.get("contact_t")
        flight = None
        if burrito is not None and contact_t is not None:
            near = [f for f in self.flights if f[2] == burrito and abs(f[0] - contact_t) < 0.25]
            flight = min(near, key=lambda f: abs(f[0] - contact_t)) if near else None
        if purpose in ("hit?", "victim?", "first?"):
            true = flight is not None and flight[4] == "hit" and flight[3] == seat
        elif purpose == "catch?":
            true = flight is not None and flight[4] == "catch" and flight[3] == seat
        elif purpose == "thrower?":
            true = flight is not None and flight[1] == seat
        else:  # "grab?": bots only pick up burritos in a battle
            true = False
        return q.options.index("yes" if true else "no")

    def _between_battles(self, now: float, st: Any) -> None:
        rng = self.rng
        seat = rng.randint(1, st.seats)
        r = rng.random()
        if not self.took_back and sum(st.rounds[-1].sets) >= 2:
            # a mistaken SET, then a long press on SET takes it back
            self.took_back = True
            self.tap(now + 0.1, seat, "SET")
            self.tap(now + 0.5, seat, "SET", hold_s=1.0)
            self.busy_until = now + 3.4
        elif r < 0.45:
            self.tap(now + 0.1, seat, "SET")
            self.busy_until = now + 0.25 + rng.uniform(0.2, 0.6)
        else:
            button = rng.choice(("BRAWL", "BRAWL", "WAR", "DUEL"))
            self.tap(now + 0.1, seat, button)
            self.busy_until = now + 1.0

    def _pick(self, now: float, declarer: int, seats: int) -> None:
        """Move the cursor (it starts on the declarer) and pick two seats with SET."""
        rng = self.rng
        first = declarer if rng.random() < 0.5 else rng.randint(1, seats)
        second = rng.choice([s for s in range(1, seats + 1) if s != first])
        t = now + 0.2
        cursor = declarer
        for target in (first, second):
            steps = (target - cursor) % seats
            for _ in range(steps):
                self.tap(t, declarer, "WAR")
                t += 0.25
            self.tap(t, declarer, "SET")
            t += 0.25
            cursor = target
        self.busy_until = t + 0.3

    def _fight(self, now: float, st: Any, fighters: list[int]) -> None:
        rng = self.rng
        if len(fighters) < 2:
            return
        t = now + rng.uniform(0.25, 0.5)
        r = rng.random()
        if r < 0.08 + (0.1 if self.ties_shown == 0 else 0.0) and len(fighters) >= 2:
            # both throw at once and both are hit: a close call or a tie, shown with its gap
            a, c = rng.sample(fighters, 2)
            gap = 0.02 if self.ties_shown <= self.close_calls else 0.09
            if gap < 0.045:
                self.ties_shown += 1
            else:
                self.close_calls += 1
            self._throw(t, a, 1, c, "hit", 0.4)
            self._throw(t + 0.0, c, 2, a, "hit", 0.4 + gap)
            self.busy_until = t + 1.6
            return
        thrower = rng.choice(fighters)
        target = rng.choice([f for f in fighters if f != thrower])
        burrito = rng.choice((1, 2))
        outcome = "hit" if r < 0.68 else ("miss" if r < 0.86 else "catch")
        self._throw(t, thrower, burrito, target, outcome, rng.uniform(0.35, 0.5))
        self.busy_until = t + 1.4

    def _throw(self, t: float, seat: int, burrito: int, target: int, outcome: str, flight: float) -> None:
        """Grab at ``t``, throw 0.35 s later, land ``flight`` s after that."""
        name = f"burrito-{burrito}"
        tg, tt, tl = t, t + 0.35, t + 0.35 + flight
        self.flights.append((tl, seat, burrito, target, outcome))
        self.device(name, "pickup", tg)
        self.table_event({"t": tg, "event": "grab", "seat": seat, "burrito": burrito})
        self.device(name, "launch", tt)
        self.table_event({"t": tt, "event": "throw", "seat": seat, "burrito": burrito})
        if outcome == "hit":
            self.device(name, "impact", tl, 3.0)
            self.device(f"badge-{target}", "impact", tl, 2.5)
            self.table_event({"t": tl, "event": "hit", "burrito": burrito, "seat": target})
        elif outcome == "catch":
            self.device(name, "catch", tl, 1.5)
            self.table_event({"t": tl, "event": "catch", "burrito": burrito, "seat": target})
            if not self.direct:
                self.tap(tl + 0.3, target, "SET")  # the catcher claims the catch with a button (referee R4)
        else:
            self.device(name, "impact", tl, 4.0)
            self.device(name, "rest", tl + 0.4)
            self.table_event({"t": tl, "event": "miss", "burrito": burrito})
