"""The Zombie Burrito demo's players: bots that press seat buttons and throw virtual burritos.

Buttons go through MockFactory pins like a finger (``bots.Bots.tap``): SET opens the advantage chooser, WAR moves
it, SET lays the set; WAR "Battle!" (a long WAR, now and then, is a false call); at battle setup a team member moves
the team's cancel cursor with WAR and cancels with SET; DUEL, WAR, SET spend a revive. Every throw is virtual device
events over the pty (``pickup``, ``launch``, then ``impact`` with the target's badge ``impact`` for a hit, ``catch``
for a catch, a lone ``impact`` for a miss), and the referee calls them, telling the burritos apart by device id. The
bots answer the referee's questions truthfully (the thrower of a caught burrito says yes). Seeded.
"""

from __future__ import annotations

from typing import Any

from game.games.throw_throw_burrito.bots import Bots
from game.games.zombie_burrito import rules as zb


class ZombieBots(Bots):
    def __init__(self, app: Any, rig: Any, *, seed: int = 7, direct: bool = True) -> None:
        super().__init__(app, rig, seed=seed, direct=direct)
        self.thrown_by: dict[int, int] = {}  # burrito -> seat that threw it last
        self.false_calls = 0
        self.sets_goal: int | None = None  # sets to lay before the next "Battle!"

    def step(self, now: float) -> None:
        self.run_due(now)
        app = self.app
        st = app.state
        q = app.question
        if q is not None and q.id not in self.answered:
            self.answered.add(q.id)
            self._answer(now, q)
            return
        if st is None or app.over or now < self.busy_until or self._todo:
            return
        if app.presenter.busy(now) or app.buffer or app.question is not None or st.pending is not None:
            return
        if getattr(app.mapper, "choosers", None) or getattr(app.mapper, "_war_down", None):
            return
        b = st.battle
        self.actions += 1
        if b is None:
            self._between(now, st)
        elif b.phase == "setup":
            self._setup(now, st, b)
        elif b.phase == "fight":
            self._fight(now, st, b)

    def _answer(self, now: float, q: Any) -> None:
        subject = self.app.referee.subject(q.id) if self.app.referee is not None else None
        purpose = (subject or {}).get("purpose")
        for i, seat in enumerate(q.seats):
            yes = True
            if purpose == "thrower?":
                yes = subject is not None and self.thrown_by.get(subject.get("burrito", 0)) == seat
            self.tap(now + 0.4 + 0.1 * i, seat, "SET" if yes else "BRAWL")

    def _between(self, now: float, st: Any) -> None:
        rng = self.rng
        seat = rng.randint(1, st.seats)
        if self.sets_goal is None:
            self.sets_goal = rng.choice((0, 1, 2, 3, 4))
        if len(st.sets) < self.sets_goal:
            own = zb.SIDE_OF[st.team_of[seat]]
            other = zb.SIDE_OF[zb.OTHER[st.team_of[seat]]]
            items = [(own, k) for k in sorted(st.catalog[own])] + [(other, k) for k in sorted(st.catalog[other])]
            pick = rng.randrange(len(items)) if rng.random() < 0.35 else rng.randrange(len(st.catalog[own]) or 1)
            t = now + 0.1
            self.tap(t, seat, "SET")
            for _ in range(pick):
                t += 0.25
                self.tap(t, seat, "WAR")
            self.tap(t + 0.3, seat, "SET")
            self.busy_until = t + 1.0
        elif rng.random() < 0.15 and self.false_calls == 0:
            self.false_calls += 1
            self.tap(now + 0.1, seat, "WAR", hold_s=1.0)  # a false "Battle!"
            self.busy_until = now + 2.0
            self.sets_goal = None
        else:
            self.tap(now + 0.1, seat, "WAR")
            self.busy_until = now + 1.0
            self.sets_goal = None

    def _setup(self, now: float, st: Any, b: Any) -> None:
        rng = self.rng
        for team in zb.TEAMS:
            if zb.can_cancel(b, team) and rng.random() < 0.6:
                seat = rng.choice(st.teams[team])
                kinds = sorted(k for k, n in zb.sets_left(b, zb.OTHER[team]).items() if n > 0)
                steps = rng.randrange(len(kinds))
                mapper: Any = self.app.mapper  # a ZombieMapper while Zombie Burrito is played
                cursor = mapper.cancel_cursor.get(team, 0) % len(kinds)
                t = now + 0.2
                for _ in range((steps - cursor) % len(kinds)):
                    self.tap(t, seat, "WAR")
                    t += 0.25
                self.tap(t, seat, "SET")
                self.busy_until = t + 0.8
                return
        self._fight(now, st, b)  # the rest are cancelled automatically by the first call

    def _fight(self, now: float, st: Any, b: Any) -> None:
        rng = self.rng
        for team in zb.TEAMS:
            out = [s for s in st.teams[team] if s not in b.alive]
            if out and b.revives_left[team] > 0 and b.phase == "fight" and rng.random() < 0.5:
                seat = rng.choice(st.teams[team])
                target = rng.randrange(len(out))
                t = now + 0.2
                self.tap(t, seat, "DUEL")
                for _ in range(target):
                    t += 0.25
                    self.tap(t, seat, "WAR")
                self.tap(t + 0.25, seat, "SET")
                self.busy_until = t + 1.0
                return
        alive = {team: [s for s in st.teams[team] if s in b.alive] for team in zb.TEAMS}
        z, s = alive["zombies"], alive["survivors"]
        t = now + rng.uniform(0.25, 0.5)
        if len(z) == 1 and len(s) == 1 and b.alive[z[0]] == 0 and b.alive[s[0]] == 0 and rng.random() < 0.35:
            # the final two throw at once and both hit: a tie (restart) when inside the window
            gap = rng.choice((0.015, 0.02, 0.09))
            self._zthrow(t, z[0], 1, s[0], "hit", 0.4)
            self._zthrow(t, s[0], 2, z[0], "hit", 0.4 + gap)
            self.busy_until = t + 5.0
            return
        team = rng.choice([tm for tm in zb.TEAMS if alive[tm]])
        foes = alive[zb.OTHER[team]]
        if not foes:
            return
        burrito = zb.BURRITO_OF[team]
        holder = st.holder.get(burrito)
        thrower = holder if holder in alive[team] else rng.choice(alive[team])
        r = rng.random()
        if r < 0.62:
            outcome, target = "hit", rng.choice(foes)
        elif r < 0.8:
            outcome, target = "miss", 0
        elif r < 0.9:
            outcome, target = "catch", rng.choice(foes)
        else:
            mates = [m for m in alive[team] if m != thrower]
            outcome, target = ("hit", rng.choice(mates)) if mates else ("miss", 0)
        self._zthrow(t, thrower, burrito, target, outcome, rng.uniform(0.35, 0.5))
        self.busy_until = t + (5.0 if outcome in ("miss", "catch") else 2.0)

    def _zthrow(self, t: float, seat: int, burrito: int, target: int, outcome: str, flight: float) -> None:
        self.thrown_by[burrito] = seat
        self._throw(t, seat, burrito, target, outcome, flight)
