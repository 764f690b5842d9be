"""A seeded, event-level Zombie Burrito bot: it plays whole games as table-event logs.

Every seat is a bot. Between battles they lay advantage sets (mostly their own
side's, sometimes the other side's to cancel with) and someone calls
"Battle!" (now and then falsely). In battle setup the teams sometimes choose
their cancellations; then the fighters throw their team's burrito, and the
referee reports hits, misses, bounces, catches, harmless own-burrito hits,
fouls, revives and -- when the final two are both on their last hit --
sometimes a simultaneous hit that restarts them.

The bot folds each event through the real rules (``game.log.Table``) as it
goes, so it only writes events that are valid in the state they arrive in,
and it stops when the game is won. Same arguments, same log: all randomness
is one ``random.Random(seed)``.

    >>> from game.log import run_log
    >>> import json
    >>> log = simulate(seats=5, seed=3)
    >>> table, _ = run_log(json.dumps(e) for e in log)
    >>> table.summary()["winner"] in ("zombies", "survivors")
    True
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

from game.games.zombie_burrito import rules as zb
from game.log import Table

#: Chances of the bot's choices, per opportunity.
P_OWN_SIDE = 0.65  # a laid set is of the layer's own side (else it cancels)
P_FALSE_BATTLE = 0.06
P_CHOOSE_CANCEL = 0.5
P_REVIVE = 0.6
P_FOUL = 0.02
P_TIE_TRY = 0.3
OUTCOMES = (("hit", 0.42), ("miss", 0.28), ("bounce", 0.1), ("catch", 0.08), ("own", 0.07), ("grab", 0.05))


def simulate(seats: int = 4, seed: int = 0, *, teams: dict[str, list[int]] | None = None,
             catalog: zb.Catalog | None = None, tie_window_ms: float | None = None,
             max_events: int = 20_000) -> list[dict[str, Any]]:
    """A complete game: the setup line, then every event until a team flips its third Team Marker."""
    setup = make_setup(seats, seed, teams=teams, catalog=catalog, tie_window_ms=tie_window_ms)
    return [setup, *iter_game(setup, seed, max_events=max_events)]


def make_setup(seats: int, seed: int, *, teams: dict[str, list[int]] | None = None,
               catalog: zb.Catalog | None = None, tie_window_ms: float | None = None) -> dict[str, Any]:
    options: dict[str, Any] = {"seed": seed}
    if teams is not None:
        options["teams"] = teams
    if catalog is not None:
        options["catalog"] = catalog
    if tie_window_ms is not None:
        options["tie_window_ms"] = tie_window_ms
    return {"event": "setup", "game": zb.name, "seats": seats, "options": options}


def to_jsonl(log: list[dict[str, Any]]) -> str:
    """The log as JSON Lines text, ready for ``burrito-table replay``."""
    return "".join(json.dumps(e) + "\n" for e in log)


class _Bot:
    def __init__(self, setup: dict[str, Any], seed: int) -> None:
        self.rng = random.Random(seed)
        self.table, _ = Table.start(copy.deepcopy(setup))
        self.state: zb.State = self.table.state
        self.t = 0.0

    # --- emitting -------------------------------------------------------------------

    def over_at(self, t: float) -> bool:
        """Let time run to ``t``; True if the game ended meanwhile (nothing may follow)."""
        zb.advance(self.state, t)
        return zb.is_over(self.state)

    def emit(self, dt: float, event: str, **fields: Any) -> dict[str, Any] | None:
        """The event ``dt`` seconds on, applied to the bot's table; None if the game ended first."""
        t = round(self.t + dt, 3)
        if self.over_at(t):
            return None
        obj: dict[str, Any] = {"t": t, "event": event, **fields}
        checked = self.table.check(copy.deepcopy(obj))
        zb.check_state(self.state, checked)
        self.table.step(checked)
        self.t = t
        return obj

    # --- choices --------------------------------------------------------------------

    def alive(self, team: str) -> list[int]:
        battle = self.state.battle
        return [s for s in self.state.teams[team] if battle is not None and s in battle.alive]

    def cards(self) -> Iterator[dict[str, Any] | None]:
        """Passing cards: a few sets, then a "Battle!"."""
        state, rng = self.state, self.rng
        for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 4))):
            seat = rng.randint(1, state.seats)
            own = zb.SIDE_OF[state.team_of[seat]]
            side = own if rng.random() < P_OWN_SIDE else zb.SIDE_OF[zb.OTHER[state.team_of[seat]]]
            if not state.catalog[side]:
                side = zb.SIDE_OF[zb.OTHER[zb.TEAM_OF_SIDE[side]]]
            if not state.catalog[side]:
                break
            kind = rng.choice(sorted(state.catalog[side]))
            yield self.emit(rng.uniform(2.0, 9.0), "advantage", seat=seat, side=side, kind=kind)
        seat = rng.randint(1, state.seats)
        valid = rng.random() >= P_FALSE_BATTLE
        yield self.emit(rng.uniform(1.0, 8.0), "declare", seat=seat, **({} if valid else {"valid": False}))

    def setup_choices(self) -> Iterator[dict[str, Any] | None]:
        battle = self.state.battle
        if battle is None or battle.phase != "setup":
            return
        for team in zb.TEAMS:
            while zb.can_cancel(battle, team) and self.rng.random() < P_CHOOSE_CANCEL:
                left = zb.sets_left(battle, zb.OTHER[team])
                kind = self.rng.choice(sorted(k for k, n in left.items() if n > 0))
                yield self.emit(self.rng.uniform(0.5, 3.0), "cancel", team=team, kind=kind)

    def fight(self) -> Iterator[dict[str, Any] | None]:
        """Throws and their outcomes until the battle is decided."""
        state, rng = self.state, self.rng
        while state.battle is not None and state.pending is None:
            battle = state.battle
            z, s = self.alive("zombies"), self.alive("survivors")
            if len(z) == 1 and len(s) == 1 and battle.alive[z[0]] == 0 and battle.alive[s[0]] == 0 \
                    and rng.random() < P_TIE_TRY:
                yield from self.trade(z[0], s[0])
                continue
            for team in zb.TEAMS:
                out = [x for x in state.teams[team] if x not in battle.alive]
                if out and battle.revives_left[team] > 0 and battle.phase == "fight" and rng.random() < P_REVIVE:
                    yield self.emit(rng.uniform(0.2, 1.5), "revive", seat=rng.choice(out))
            if rng.random() < P_FOUL:
                yield self.emit(rng.uniform(0.2, 2.0), "foul", seat=rng.choice(z + s))
                continue
            yield from self.throw()

    def throw(self) -> Iterator[dict[str, Any] | None]:
        state, rng = self.state, self.rng
        team = rng.choice(zb.TEAMS)
        mates, foes = self.alive(team), self.alive(zb.OTHER[team])
        if not mates or not foes:
            return
        burrito = zb.BURRITO_OF[team]
        holder = state.holder.get(burrito)
        thrower = holder if holder in mates else rng.choice(mates)
        outcome = rng.choices([o for o, _ in OUTCOMES], [w for _, w in OUTCOMES])[0]
        if outcome == "grab":
            yield self.emit(rng.uniform(0.3, 2.0), "grab", seat=thrower, burrito=burrito)
            return
        yield self.emit(rng.uniform(0.3, 2.5), "throw", seat=thrower, burrito=burrito)
        flight = rng.uniform(0.2, 0.8)
        if outcome in ("hit", "bounce"):
            yield self.emit(flight, "hit", burrito=burrito, seat=rng.choice(foes))
            if outcome == "bounce":
                yield self.emit(rng.uniform(0.05, 0.3), "miss", burrito=burrito)
        elif outcome == "own" and len(mates) > 1:
            yield self.emit(flight, "hit", burrito=burrito, seat=rng.choice([m for m in mates if m != thrower]))
        elif outcome == "catch":
            yield self.emit(flight, "catch", burrito=burrito, seat=rng.choice(foes))
        else:
            yield self.emit(flight, "miss", burrito=burrito)

    def trade(self, zombie: int, survivor: int) -> Iterator[dict[str, Any] | None]:
        """The final two throw at once and both hit, a few ms apart: a tie if inside the window."""
        rng = self.rng
        yield self.emit(rng.uniform(0.5, 2.0), "throw", seat=zombie, burrito=1)
        yield self.emit(0.0, "throw", seat=survivor, burrito=2)
        first, second = rng.sample([(1, survivor), (2, zombie)], 2)
        yield self.emit(rng.uniform(0.3, 0.6), "hit", burrito=first[0], seat=first[1])
        yield self.emit(rng.choice((0.0, 0.01, 0.03, 0.08)), "hit", burrito=second[0], seat=second[1])


def iter_game(setup: dict[str, Any], seed: int, *, max_events: int = 20_000) -> Iterator[dict[str, Any]]:
    """The events of one game after ``setup``, in time order, each valid when it arrives."""
    bot = _Bot(setup, seed)
    count = 0
    while not zb.is_over(bot.state):
        for phase in (bot.cards, bot.setup_choices, bot.fight):
            for event in phase():
                if event is None:
                    return
                count += 1
                if count > max_events:
                    raise RuntimeError(f"simulated game with seed {seed} ran past {max_events} events")
                yield event
        # Let the battle's last out wait out the tie window before anyone lays a card.
        bot.t = round(bot.t + bot.rng.uniform(1.0, 3.0), 3)
        if bot.over_at(bot.t):
            return
