"""Throw Throw Burrito, the table's rules (``../shared/rules/throw-throw-burrito.txt``).

Pure: ``state + timestamped table event -> state + cues``. Quotes in the
comments are from the rulebook; choices where it is silent or ambiguous are
written down in ``docs/rules-decisions.md`` (cited here as "D<n>").

Example, a Brawl on a four-seat table::

    >>> from game.games.throw_throw_burrito import rules as ttb
    >>> setup = ttb.parse_setup({"event": "setup", "game": "throw-throw-burrito", "seats": 4})
    >>> state = ttb.new_state(setup)
    >>> for ev in [{"t": 1.0, "event": "declare", "seat": 2, "battle": "brawl"},
    ...            {"t": 2.0, "event": "throw", "seat": 3, "burrito": 1},
    ...            {"t": 2.4, "event": "hit", "burrito": 1, "seat": 1}]:
    ...     _ = ttb.advance(state, ev["t"]); _ = ttb.step(state, ttb.check_event(setup, ev))
    >>> _ = ttb.finish(state)
    >>> ttb.summary(state)["battles"][0]["loser"]
    1
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.rules.base import (
    Cue,
    Event,
    History,
    RuleInputError,
    Setup,
    brief,
    counted,
    need_bool,
    need_choice,
    need_int,
    need_number,
    need_seats,
    overturn_apply,
    overturn_check_event,
    overturn_dropped,
    overturn_target,
    parse_players,
    setup_options,
    splitmix64,
)

name = "throw-throw-burrito"

BATTLE_KINDS = ("brawl", "war", "duel")
EVENTS = ("set", "declare", "pick", "grab", "throw", "hit", "miss", "catch", "foul", "overturn")
#: The table's calls: what a challenge may overturn (D21).
CALLS = ("hit", "miss", "catch", "foul")

#: D1: fencing's épée treats touches within 45 ms as a double touch (FIE; field notes).
DEFAULT_TIE_WINDOW_MS = 45.0
#: D2: two calls "at close to the same moment": people react to a shout in ~0.5 s.
DEFAULT_DECLARE_WINDOW_MS = 500.0
OPTION_DEFAULTS: dict[str, Any] = {
    "two_decks": False,
    "small_room": False,
    "tie_window_ms": DEFAULT_TIE_WINDOW_MS,
    "declare_window_ms": DEFAULT_DECLARE_WINDOW_MS,
    "seed": 0,
}
EPS = 1e-9  # seconds; keeps "at most N ms apart" exact against float rounding


# --- setup and event checks -------------------------------------------------------


def parse_setup(obj: dict[str, Any]) -> Setup:
    """Check line 1. "Players: 2-6"; "2 Decks ... up to 12 players"."""
    raw = setup_options(obj, OPTION_DEFAULTS)
    options = dict(OPTION_DEFAULTS)
    options["two_decks"] = need_bool(raw, "two_decks", False)
    options["small_room"] = need_bool(raw, "small_room", False)
    for key in ("tie_window_ms", "declare_window_ms"):
        if key in raw:
            options[key] = need_number(raw, key)
    if "seed" in raw:
        if type(raw["seed"]) is not int:
            raise RuleInputError(f"setup option 'seed' must be a whole number, got {brief(raw['seed'])}")
        options["seed"] = raw["seed"]
    hint = "" if options["two_decks"] else " with one deck (12 with two_decks)"
    seats = need_seats(obj, 12 if options["two_decks"] else 6, hint)
    return Setup(game=name, seats=seats, options=options, players=parse_players(obj, seats))


#: The fields each event carries besides ``t`` (the log contract's table).
SEAT_EVENTS = frozenset(("set", "declare", "pick", "grab", "throw", "foul", "hit", "catch"))
BURRITO_EVENTS = frozenset(("grab", "throw", "hit", "miss", "catch"))


def check_event(setup: Setup, obj: dict[str, Any]) -> Event:
    """Validate one later line against the log contract; returns it with ``t`` as a float."""
    kind = obj.get("event")
    if not isinstance(kind, str) or kind not in HANDLERS:  # a list or object is no event name (and unhashable)
        if kind is None:
            raise RuleInputError("missing field 'event'")
        raise RuleInputError(f"unknown event {brief(kind)}")
    if "t" not in obj:
        raise RuleInputError("missing field 't'")
    obj["t"] = need_number(obj, "t")
    n = setup.seats
    if kind in SEAT_EVENTS:
        seat = obj.get("seat")
        if type(seat) is not int or not 1 <= seat <= n:
            need_int(obj, "seat", 1, n)  # raises with the precise reason
    if kind in BURRITO_EVENTS:
        need_int(obj, "burrito", 1, 4 if setup.options["two_decks"] else 2)
    if kind == "overturn":
        overturn_check_event(obj, CALLS, n, 4 if setup.options["two_decks"] else 2)
    elif kind == "declare":
        need_choice(obj, "battle", BATTLE_KINDS)
        obj["valid"] = need_bool(obj, "valid", True)
    elif kind == "pick":
        players = obj.get("players")
        if not isinstance(players, list) or len(players) != 2:
            raise RuleInputError(f"field 'players' must be a list of two seats, got {brief(players)}")
        for p in players:
            if type(p) is not int or not 1 <= p <= n:
                raise RuleInputError(f"field 'players' holds {brief(p)}, not a seat 1..{n}")
        if players[0] == players[1]:
            raise RuleInputError(f"field 'players' names seat {players[0]} twice")
    return obj


# --- state ---------------------------------------------------------------------------


@dataclass(slots=True)
class Battle:
    """One battle, a round-end tie-break, or the final duel."""

    round: int
    kind: str
    declarer: int | None
    players: list[int]
    t: float
    #: Who may throw now: narrows to the tied seats in a tie Duel, loses seats in an elimination War.
    fighters: set[int]
    #: "battle", "tiebreak" (end of a round) or "final" (the duel against the badge holder).
    purpose: str = "battle"
    elimination: bool = False
    awaiting_pick: bool = False
    loser: int | None = None
    reason: str | None = None
    eliminated: list[int] = field(default_factory=list)
    tie: list[int] | None = None

    @property
    def hands_out_bruise(self) -> bool:
        # "Round-end tie-breaks and the final duel hand out no bruise, because the tokens are gone."
        return self.purpose == "battle"


@dataclass(slots=True)
class Round:
    round: int
    sets: list[int]
    battle_sets: list[int]
    bruises: list[int]
    winner: int | None = None

    def points(self, seat: int) -> int:
        # Scoring: a set 1 point, a battle set 2, a Burrito Bruise -1.
        i = seat - 1
        return self.sets[i] + 2 * self.battle_sets[i] - self.bruises[i]


@dataclass(slots=True)
class State:
    setup: Setup
    seats: int
    tokens: int
    burritos: int
    tie_window: float
    declare_window: float
    t: float = 0.0
    round: int = 1
    rounds: list[Round] = field(default_factory=list)
    badge: int | None = None
    winner: int | None = None
    battles: list[Battle] = field(default_factory=list)
    battle: Battle | None = None
    #: Calls inside the open declaration window: (t, seat, kind, valid).
    declaring: list[tuple[float, int, str, bool]] = field(default_factory=list)
    #: Losses waiting out the tie window: (t, seat, how).
    pending: list[tuple[float, int, str]] = field(default_factory=list)
    holder: dict[int, int] = field(default_factory=dict)  # burrito -> seat holding it
    flight: dict[int, int] = field(default_factory=dict)  # burrito -> seat that threw it
    thrown: set[int] = field(default_factory=set)  # seats that threw in this battle
    landed: set[int] = field(default_factory=set)  # burritos whose flight was decided, not picked up since
    #: A duel declarer's pick made while the declaration window was still open.
    early_pick: list[int] | None = None
    penalties: list[dict[str, Any]] = field(default_factory=list)
    rng: int = 0
    #: Every event applied, in order: an overturn folds them again without the call (D21).
    history: History = field(default_factory=History)
    #: The calls overturned, for the summary: {"t", "call", "seat"?, "burrito"?}.
    overturned: list[dict[str, Any]] = field(default_factory=list)


def new_state(setup: Setup) -> State:
    o = setup.options
    two = o["two_decks"]
    state = State(
        setup=setup,
        seats=setup.seats,
        tokens=12 if two else 6,  # "6 Burrito Bruise tokens"; "use all 12 ... with 2 decks"
        burritos=4 if two else 2,
        tie_window=o["tie_window_ms"] / 1000.0,
        declare_window=o["declare_window_ms"] / 1000.0,
        rng=o["seed"] & 0xFFFFFFFFFFFFFFFF,
    )
    state.rounds.append(_new_round(1, state.seats))
    return state


def _new_round(number: int, seats: int) -> Round:
    return Round(number, [0] * seats, [0] * seats, [0] * seats)


def _random_seat(state: State) -> int:
    """A seat drawn with the state's own splitmix64: no global random, same log -> same draw."""
    state.rng, out = splitmix64(state.rng)
    return out % state.seats + 1


def opening_cues(state: State) -> list[Cue]:
    """ "If no battle is already under way, simply pick any player to call out "3, 2, 1, Burrito!"." """
    caller = _random_seat(state)
    return [
        Cue(0.0, "say", f"Round 1! Seat {caller} counts: 3, 2, 1, Burrito!", (caller,)),
        Cue(0.0, "sound", "countdown"),
    ]


# --- time -----------------------------------------------------------------------------


def advance(state: State, t: float) -> list[Cue]:
    """Let time run to ``t``: close the windows that end before it."""
    cues: list[Cue] = []
    while True:
        if state.declaring and state.declaring[0][0] + state.declare_window + EPS < t:
            _close_declaring(state, state.declaring[0][0] + state.declare_window, cues)
        elif state.pending and state.pending[0][0] + state.tie_window + EPS < t:
            _settle(state, state.pending[0][0] + state.tie_window, cues)
        else:
            break
    return cues


def finish(state: State) -> list[Cue]:
    """End of the log: "time runs on until nothing is pending"."""
    return advance(state, float("inf"))


def is_over(state: State) -> bool:
    return state.winner is not None


# --- events ---------------------------------------------------------------------------


def check_state(state: State, ev: Event) -> None:
    """Raise ``RuleInputError`` for an overturn that names anything but the last call (D21); changes nothing."""
    if ev["event"] == "overturn":
        overturn_target(state, ev, CALLS)


def step(state: State, ev: Event) -> list[Cue]:
    """Apply one checked event at its time; ``advance`` to its time first."""
    if state.winner is not None:
        raise RuleInputError(f"event '{ev['event']}' after the game was won by seat {state.winner}")
    t = ev["t"]
    if t < state.t:
        raise RuleInputError(f"time goes backwards: t={t} after t={state.t}")
    state.t = t
    cues: list[Cue] = []
    kind = ev["event"]
    if kind in ("grab", "throw", "hit", "miss", "catch", "foul") and state.declaring:
        # D3: the first battle action closes the declaration window early.
        _close_declaring(state, t, cues)
    HANDLERS[kind](state, ev, t, cues)
    if kind != "overturn":  # an overturn writes the history it folded
        state.history.append(ev)
    return cues


def _on_set(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    seat = ev["seat"]
    if state.battle is not None or state.declaring:
        # "The instant a battle is declared, everyone stops ... no more drawing or discarding."
        cues.append(Cue(t, "note", f"Stop everything! Seat {seat}'s set during a battle does not count", (seat,)))
        return
    state.rounds[-1].sets[seat - 1] += 1
    cues.append(Cue(t, "say", f"Seat {seat} lays down a set: +1", (seat,)))


def _on_declare(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    seat, kind, valid = ev["seat"], ev["battle"], ev["valid"]
    if state.battle is not None:
        cues.append(Cue(t, "note", f"Seat {seat}'s {kind} call ignored: a battle is already on", (seat,)))
        return
    if any(d[1] == seat for d in state.declaring):
        cues.append(Cue(t, "note", f"Seat {seat} called twice; the second call is ignored", (seat,)))
        return
    if valid:
        # "A completed set of 3 Battle Cards ... is worth 2 points."
        state.rounds[-1].battle_sets[seat - 1] += 1
    state.declaring.append((t, seat, kind, valid))
    if len(state.declaring) == 1:
        bad = "" if valid else " ... but the set does not match!"
        cues.append(Cue(t, "say", f"{kind.upper()}! called by seat {seat}{bad}", (seat,)))
        cues.append(Cue(t, "sound", kind))
    else:
        cues.append(Cue(t, "say", f"Seat {seat} calls {kind.upper()} too!", (seat,)))


def _close_declaring(state: State, t: float, cues: list[Cue]) -> None:
    calls = state.declaring
    state.declaring = []
    early_pick, state.early_pick = state.early_pick, None
    first_t, declarer, kind, valid = calls[0]
    n = state.seats
    state.landed.clear()  # a newly declared battle starts with every burrito in the middle
    if len(calls) > 1:
        # "If two or more battles ... get declared at close to the same moment, everyone at the
        # table immediately starts a single War instead."
        battle = Battle(state.round, "war", declarer, list(range(1, n + 1)), first_t, set(range(1, n + 1)))
        state.battles.append(battle)
        state.battle = battle
        cues.append(Cue(t, "say", "Battles at the same moment: WAR of everyone!", tuple(battle.players)))
        cues.append(Cue(t, "light", "battle", tuple(battle.players)))
        invalid = [c for c in calls if not c[3]]
        if invalid:
            # D5: a bad battle set loses the battle "immediately, without a throw", merged or not.
            _lose(state, invalid[0][1], t, "invalid set", cues)
        return
    if not valid:
        # "You lose a battle immediately, without a throw, if ... you don't have the correct set."
        battle = Battle(state.round, kind, declarer, [declarer], first_t, set())
        state.battles.append(battle)
        state.battle = battle
        _lose(state, declarer, t, "invalid set", cues)
        return
    if n == 2:
        # Two-Player Variant: "every battle — regardless of type — is fought between the two of you."
        players = [1, 2]
    elif kind == "brawl":
        # "puts the players to your right and to your left into a Brawl with each other (not with you)"
        players = sorted({declarer % n + 1, (declarer - 2) % n + 1})
    elif kind == "war":
        # "puts everyone else at the table — every player except you — into a War"
        players = [s for s in range(1, n + 1) if s != declarer]
    else:
        players = []  # a Duel waits for the declarer's pick
    battle = Battle(state.round, kind, declarer, players, first_t, set(players))
    state.battles.append(battle)
    state.battle = battle
    if kind == "duel" and not players:
        battle.awaiting_pick = True
        if early_pick is not None:
            _pick(battle, early_pick, t, cues)
            return
        cues.append(Cue(t, "say", f"Seat {declarer}, pick two duellists", (declarer,)))
        cues.append(Cue(t, "light", "answer", (declarer,)))
        return
    _announce_fighters(battle, t, cues)


def _announce_fighters(battle: Battle, t: float, cues: list[Cue]) -> None:
    names = " vs ".join(f"seat {s}" for s in battle.players)
    cues.append(Cue(t, "say", f"{battle.kind.capitalize()}: {names}", tuple(battle.players)))
    cues.append(Cue(t, "light", "battle", tuple(battle.players)))
    if battle.kind == "duel":
        cues.append(Cue(t, "say", "Back to back... 3, 2, 1, Burrito!", tuple(battle.players)))
        cues.append(Cue(t, "sound", "countdown"))


def _on_pick(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    battle, seat = state.battle, ev["seat"]
    if state.declaring and state.declaring[0][1] == seat and state.declaring[0][2] == "duel":
        state.early_pick = ev["players"]  # used if the window closes on this one Duel
        return
    if battle is None or not battle.awaiting_pick or battle.loser is not None or seat != battle.declarer:
        cues.append(Cue(t, "note", f"Seat {seat}'s pick ignored: no duel is waiting for its pick", (seat,)))
        return
    _pick(battle, ev["players"], t, cues)


def _pick(battle: Battle, players: list[int], t: float, cues: list[Cue]) -> None:
    # "Completing a set of 3 matching Duel Cards lets you pick any two players to duel, including yourself."
    battle.players = sorted(players)
    battle.fighters = set(battle.players)
    battle.awaiting_pick = False
    _announce_fighters(battle, t, cues)


def _on_grab(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    seat, burrito = ev["seat"], ev["burrito"]
    battle = state.battle
    if battle is None:
        # "You lose a battle immediately, without a throw, if ... you grab a burrito while you are
        # not actually in a battle." With no battle on, that costs a bruise and starts none.
        state.penalties.append({"round": state.round, "t": t, "seat": seat, "reason": "grab outside a battle"})
        cues.append(Cue(t, "say", f"Seat {seat} grabbed a burrito with no battle on: Burrito Bruise!", (seat,)))
        _bruise(state, seat, t, cues)
        _reset_burritos(state)
        return
    if battle.loser is not None or state.pending:
        cues.append(Cue(t, "note", f"Seat {seat}'s grab ignored: the battle is already decided", (seat,)))
        return
    if seat not in battle.fighters:
        if battle.hands_out_bruise:
            _lose(state, seat, t, "grabbed while not fighting", cues)
        else:
            # D7: a tie-break has no bruise to hand out; outsiders cannot lose it.
            cues.append(Cue(t, "note", f"Seat {seat} is not in this duel; grab ignored", (seat,)))
        return
    if any(s == seat and b != burrito for b, s in state.holder.items()):
        # "You may not: Hold more than one burrito at a time." (D6)
        _lose(state, seat, t, "held two burritos", cues)
        return
    state.flight.pop(burrito, None)
    state.landed.discard(burrito)
    state.holder[burrito] = seat


def _on_throw(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    seat, burrito = ev["seat"], ev["burrito"]
    battle = state.battle
    if battle is None or battle.loser is not None or state.pending:
        cues.append(Cue(t, "note", f"Seat {seat}'s throw ignored: no battle is on", (seat,)))
        return
    if state.holder.get(burrito) != seat:
        _on_grab(state, ev, t, cues)  # D4: a throw implies the grab the table did not see
        if state.holder.get(burrito) != seat:
            return  # the implied grab lost the battle, or was ignored
    del state.holder[burrito]
    state.landed.discard(burrito)
    state.flight[burrito] = seat
    if seat not in state.thrown:
        state.thrown.add(seat)
        two_player = state.seats == 2
        if (two_player or state.setup.options["small_room"]) and battle.kind != "duel":
            # Two-Player and Small Room Variants: "on each player's first throw, they must pass the
            # burrito from one hand to the other behind their back" — "Duels work exactly as normal".
            cues.append(Cue(t, "say", f"Seat {seat}: behind your back first!", (seat,)))


def _thrower(state: State, burrito: int) -> int | None:
    if burrito in state.flight:
        return state.flight[burrito]
    return state.holder.get(burrito)  # D4: a throw the table did not see


def _on_hit(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    seat, burrito = ev["seat"], ev["burrito"]
    battle = state.battle
    if battle is None or battle.loser is not None:
        # "A hit or a catch that arrives after its battle was decided is ignored."
        cues.append(Cue(t, "note", f"Hit on seat {seat} ignored: no battle is on", (seat,)))
        return
    if burrito in state.landed:
        # "A burrito that hits you and then bounces off the floor or an object still counts as a
        # hit": what it touches after its first contact changes nothing (D8).
        cues.append(Cue(t, "note", f"Burrito {burrito} touched seat {seat} after its flight was decided: no new hit", (seat,)))
        return
    thrower = _thrower(state, burrito)
    _land(state, burrito)
    if any(p[1] == seat for p in state.pending):
        return  # already hit inside the tie window
    if seat not in battle.fighters or seat == thrower:
        # "hitting someone who isn't in the battle counts as a miss, not a hit."
        cues.append(Cue(t, "say", f"Seat {seat} is not fighting: MISS", (seat,)))
        cues.append(Cue(t, "sound", "miss"))
        return
    by = f" by seat {thrower}" if thrower else ""
    cues.append(Cue(t, "say", f"HIT! Seat {seat} is hit{by}", (seat,)))
    cues.append(Cue(t, "sound", "hit"))
    _pending_loss(state, t, seat, "hit", cues)


def _land(state: State, burrito: int) -> None:
    """The burrito's flight is decided: later contacts are bounces until someone picks it up."""
    state.flight.pop(burrito, None)
    state.holder.pop(burrito, None)
    state.landed.add(burrito)


def _on_miss(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    burrito = ev["burrito"]
    battle = state.battle
    if battle is None or battle.loser is not None:
        cues.append(Cue(t, "note", f"Miss by burrito {burrito} ignored: no battle is on"))
        return
    if burrito in state.landed:
        return  # D8: a bounce of a burrito that already hit or landed changes nothing
    _land(state, burrito)
    # "After a miss, any battling player may pick the burrito back up and throw again right away."
    cues.append(Cue(t, "say", f"Burrito {burrito} misses"))
    cues.append(Cue(t, "sound", "miss"))


def _on_catch(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    seat, burrito = ev["seat"], ev["burrito"]
    battle = state.battle
    if battle is None or battle.loser is not None:
        cues.append(Cue(t, "note", f"Catch by seat {seat} ignored: no battle is on", (seat,)))
        return
    thrower = _thrower(state, burrito)
    if thrower is None:
        cues.append(Cue(t, "note", f"Catch by seat {seat} ignored: nobody threw burrito {burrito}", (seat,)))
        return
    if seat == thrower:
        state.flight.pop(burrito, None)
        state.holder[burrito] = seat
        return
    _land(state, burrito)
    if seat not in battle.fighters:
        # D9: touching a non-battling player is a miss, caught or not.
        cues.append(Cue(t, "say", f"Seat {seat} is not fighting: MISS", (seat,)))
        return
    state.landed.discard(burrito)
    state.holder[burrito] = seat
    if thrower not in battle.fighters:
        return
    # "If you catch a burrito thrown at you, the thrower loses the battle."
    cues.append(Cue(t, "say", f"CATCH! Seat {seat} catches seat {thrower}'s burrito", (seat, thrower)))
    cues.append(Cue(t, "sound", "catch"))
    _pending_loss(state, t, thrower, "caught", cues)


def _on_foul(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    seat = ev["seat"]
    battle = state.battle
    if battle is None or battle.loser is not None or seat not in battle.fighters or state.pending:
        # Contract: "A foul by a seat that is not fighting, or with no battle on, is ignored."
        cues.append(Cue(t, "note", f"Foul by seat {seat} ignored: not fighting in a battle", (seat,)))
        return
    # "Cheat. If it feels like cheating, it probably is, and cheating loses you the battle."
    cues.append(Cue(t, "say", f"FOUL! Seat {seat} loses the battle", (seat,)))
    _lose(state, seat, t, "foul", cues)


def _on_overturn(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    """D21: a challenge upheld against the last call. The rulebook's "Whoever gets hit loses the battle and takes a
    Burrito Bruise token" and "A battle ends the instant a hit lands" hold only for a hit that landed: an overturned
    hit never landed, so its bruise goes back and its battle goes on."""
    before_bruises = list(state.rounds[-1].bruises)
    before_round, before_battles = state.round, len(state.battles)
    call = overturn_apply(state, ev, CALLS, new_state, advance, step)
    called = tuple(x for x in (call.get("seat"),) if x)
    cues.append(Cue(t, "say", f"OVERTURNED! {_call_text(call)}", called))
    if state.round == before_round:
        for seat, (was, now) in enumerate(zip(before_bruises, state.rounds[-1].bruises, strict=True), start=1):
            if now < was:
                cues.append(Cue(t, "say", f"Seat {seat}'s Burrito Bruise goes back", (seat,)))
    else:
        cues.append(Cue(t, "say", f"Round {state.round} is not over after all"))
    on = state.battle
    if on is not None and on.loser is None and len(state.battles) <= before_battles:
        fighters = tuple(sorted(on.fighters))
        cues.append(Cue(t, "say", f"The {on.kind.upper()} goes on: " + " vs ".join(map(str, fighters)), fighters))
        cues.append(Cue(t, "light", "battle", fighters))
    for e in overturn_dropped(state):
        cues.append(Cue(t, "note", f"the {e['event']} at t={e['t']:g} no longer applies"))


def _call_text(call: Event) -> str:
    kind = call["event"]
    if kind == "hit":
        return f"burrito {call['burrito']} did not hit seat {call['seat']}"
    if kind == "catch":
        return f"seat {call['seat']} did not catch burrito {call['burrito']}"
    if kind == "miss":
        return f"burrito {call['burrito']} did not miss"
    return f"no foul by seat {call['seat']}"


HANDLERS = {
    "set": _on_set,
    "declare": _on_declare,
    "pick": _on_pick,
    "grab": _on_grab,
    "throw": _on_throw,
    "hit": _on_hit,
    "miss": _on_miss,
    "catch": _on_catch,
    "foul": _on_foul,
    "overturn": _on_overturn,
}


# --- deciding battles -----------------------------------------------------------------


def _pending_loss(state: State, t: float, seat: int, how: str, cues: list[Cue]) -> None:
    """ "A battle ends the instant a hit lands" — but a second loss within the tie window makes a tie."""
    if any(p[1] == seat for p in state.pending):
        return
    state.pending.append((t, seat, how))
    if state.tie_window <= 0:
        _settle(state, t, cues)


def _settle(state: State, t: float, cues: list[Cue]) -> None:
    """The tie window is over: one loser, or a tie."""
    pending = state.pending
    state.pending = []
    battle = state.battle
    assert battle is not None
    losers = [p[1] for p in pending]
    if len(losers) == 1:
        _lose(state, losers[0], pending[0][0], pending[0][2], cues)
        return
    if battle.elimination and len(battle.fighters) > len(losers):
        # D11: in an elimination War, simultaneous hits knock out all of them while someone is left.
        for lt, seat, how in pending:
            _lose(state, seat, lt, how, cues)
        return
    # "If a battle ends in a tie because two players were hit at the same moment, resolve the tie
    # with a Duel between them." Three or more at once: a War among them with elimination (D10).
    gap = round((pending[-1][0] - pending[0][0]) * 1000)
    tied = sorted(losers)
    battle.tie = tied
    battle.fighters = set(tied)
    battle.elimination = len(tied) > 2 or battle.elimination
    _reset_burritos(state)
    names = " and ".join(f"seat {s}" for s in tied)
    then = "tie Duel!" if len(tied) == 2 else "a War among them, last one standing!"
    cues.append(Cue(t, "say", f"TIE! {names} hit {gap} ms apart: {then}", tuple(tied)))
    cues.append(Cue(t, "sound", "tie"))
    cues.append(Cue(t, "light", "battle", tuple(tied)))
    if len(tied) == 2:
        cues.append(Cue(t, "say", "Back to back... 3, 2, 1, Burrito!", tuple(tied)))


def _lose(state: State, seat: int, t: float, reason: str, cues: list[Cue]) -> None:
    battle = state.battle
    assert battle is not None
    if battle.elimination and seat in battle.fighters and len(battle.fighters) > 2:
        # "Once you're eliminated from that War, you may no longer touch a burrito. Keep going until
        # only one player remains."
        battle.fighters.discard(seat)
        battle.eliminated.append(seat)
        _reset_hands_of(state, seat)
        cues.append(Cue(t, "say", f"Seat {seat} is out ({reason})", (seat,)))
        cues.append(Cue(t, "light", "out", (seat,)))
        return
    battle.loser = seat
    battle.reason = reason
    if battle.elimination and seat in battle.fighters:
        battle.eliminated.append(seat)
    state.battle = None
    _reset_burritos(state)
    winners = sorted(battle.fighters - {seat})
    if battle.hands_out_bruise:
        # "The loser of a battle takes a Burrito Bruise token." "Only one Burrito Bruise is ever
        # handed out per battle."
        cues.append(Cue(t, "say", f"Seat {seat} loses the {battle.kind} ({reason}): Burrito Bruise!", (seat,)))
        cues.append(Cue(t, "sound", "bruise"))
        ended = _bruise(state, seat, t, cues)
        if not ended and battle.declarer is not None:
            # "The player who declared the battle counts "3, 2, 1, Burrito!" to signal that play resumes."
            cues.append(Cue(t, "say", f"Seat {battle.declarer} counts: 3, 2, 1, Burrito!", (battle.declarer,)))
            cues.append(Cue(t, "light", "idle", tuple(range(1, state.seats + 1))))
        return
    winner = winners[0] if len(winners) == 1 else None
    assert winner is not None, "a tie-break or final duel ends with one seat left"
    cues.append(Cue(t, "say", f"Seat {seat} loses the {battle.kind}: seat {winner} wins it", (winner,)))
    if battle.purpose == "final":
        _game_won(state, winner, t, cues)
    else:
        _round_won(state, winner, t, cues, final_pair=set(battle.players) if len(battle.players) == 2 else None)


def _reset_burritos(state: State) -> None:
    # "Once a battle is resolved, return the burritos to the middle of the table." A burrito still
    # in the air, or lying where it landed, is stale until someone picks it up: its late contacts
    # belong to the battle that is over (D8), not to a tie-break that starts at once.
    state.landed.update(state.flight)
    state.holder.clear()
    state.flight.clear()
    state.thrown.clear()


def _reset_hands_of(state: State, seat: int) -> None:
    for b in [b for b, s in state.holder.items() if s == seat]:
        del state.holder[b]


def _bruise(state: State, seat: int, t: float, cues: list[Cue]) -> bool:
    """Hand a Burrito Bruise to ``seat``; True if that was the last token (the round ends)."""
    rnd = state.rounds[-1]
    rnd.bruises[seat - 1] += 1
    left = state.tokens - sum(rnd.bruises)
    cues.append(Cue(t, "light", "out", (seat,)))
    if left > 0:
        cues.append(Cue(t, "note", f"{left} Burrito Bruise token(s) left"))
        return False
    # "A round ends the moment the last Burrito Bruise token has been given out."
    _end_round(state, t, cues)
    return True


def _end_round(state: State, t: float, cues: list[Cue]) -> None:
    rnd = state.rounds[-1]
    scores = {s: rnd.points(s) for s in range(1, state.seats + 1)}
    best = max(scores.values())
    top = [s for s, p in scores.items() if p == best]
    table = ", ".join(f"seat {s}: {p}" for s, p in scores.items())
    cues.append(Cue(t, "say", f"Last bruise! Round {rnd.round} is over. {table}"))
    if len(top) == 1:
        _round_won(state, top[0], t, cues)
        return
    # "If exactly two players are tied at the end of either round, resolve the tie with a Duel
    # between them. If three or more players are tied ... this starts a War among just the tied
    # players. Once you're eliminated ... Keep going until only one player remains."
    kind = "duel" if len(top) == 2 else "war"
    battle = Battle(state.round, kind, None, top, t, set(top), purpose="tiebreak", elimination=len(top) > 2)
    state.battles.append(battle)
    state.battle = battle
    names = ", ".join(f"seat {s}" for s in top)
    cues.append(Cue(t, "say", f"Tied on {best} points: {names}. Tie-break {kind.upper()}!", tuple(top)))
    cues.append(Cue(t, "light", "battle", tuple(top)))
    if kind == "duel":
        cues.append(Cue(t, "say", "Back to back... 3, 2, 1, Burrito!", tuple(top)))


def _round_won(state: State, seat: int, t: float, cues: list[Cue], final_pair: set[int] | None = None) -> None:
    rnd = state.rounds[-1]
    rnd.winner = seat
    cues.append(Cue(t, "say", f"Seat {seat} wins round {rnd.round}!", (seat,)))
    cues.append(Cue(t, "light", "winner", (seat,)))
    if rnd.round == 1:
        # "The winner of round 1 takes the Fear Me badge ... Then reset the table and play a second round."
        state.badge = seat
        state.round = 2
        state.rounds.append(_new_round(2, state.seats))
        _reset_burritos(state)
        cues.append(Cue(t, "say", f"Seat {seat} takes the Fear Me badge!", (seat,)))
        cues.append(Cue(t, "sound", "badge"))
        cues.append(Cue(t, "say", "Round 2! 3, 2, 1, Burrito!"))
        return
    badge = state.badge
    assert badge is not None
    if seat == badge or (final_pair is not None and badge in final_pair):
        # "If the player holding the Fear Me badge also has the most points, they win the whole game
        # outright." A tie-break Duel with the badge holder was already that duel (D12).
        _game_won(state, seat, t, cues)
        return
    # "If someone else has the most points, that player must Duel the Fear Me badge holder."
    players = sorted((seat, badge))
    battle = Battle(2, "duel", None, players, t, set(players), purpose="final")
    state.battles.append(battle)
    state.battle = battle
    cues.append(Cue(t, "say", f"FINAL DUEL: seat {seat} against the Fear Me badge, seat {badge}!", tuple(players)))
    cues.append(Cue(t, "light", "battle", tuple(players)))
    cues.append(Cue(t, "say", "Back to back... 3, 2, 1, Burrito!", tuple(players)))


def _game_won(state: State, seat: int, t: float, cues: list[Cue]) -> None:
    state.winner = seat
    cues.append(Cue(t, "say", f"Seat {seat} wins the game!", (seat,)))
    cues.append(Cue(t, "sound", "win"))
    cues.append(Cue(t, "light", "winner", (seat,)))


# --- the replay summary ---------------------------------------------------------------


def summary(state: State) -> dict[str, Any]:
    """The ``burrito-table replay --json`` object (see the log contract in the README)."""
    seats = range(1, state.seats + 1)
    return {
        "game": name,
        "seats": state.seats,
        "round": state.round,
        "rounds": [
            {
                "round": r.round,
                "points": {str(s): r.points(s) for s in seats},
                "bruises": {str(s): r.bruises[s - 1] for s in seats},
                "winner": r.winner,
                "sets": {str(s): r.sets[s - 1] for s in seats},
                "battle_sets": {str(s): r.battle_sets[s - 1] for s in seats},
            }
            for r in state.rounds
        ],
        "badge": state.badge,
        "winner": state.winner,
        "battles": [
            {
                "round": b.round,
                "kind": b.kind,
                "declarer": b.declarer,
                "players": sorted(b.players),
                "loser": b.loser,
                "t": b.t,
                "purpose": b.purpose,
                "reason": b.reason,
                "tie": b.tie,
                "eliminated": list(b.eliminated),
            }
            for b in state.battles
        ],
        "penalties": [dict(p) for p in state.penalties],
        "options": dict(state.setup.options),
    } | ({"overturned": [dict(o) for o in state.overturned]} if state.overturned else {})


def standings(summary: dict[str, Any]) -> list[str]:
    """Final standings: per round points and bruises, the badge and the winner."""
    out = ["", "Standings"]
    for rnd in summary["rounds"]:
        seats = sorted(rnd["points"], key=lambda s: (-rnd["points"][s], int(s)))
        row = ", ".join(f"seat {s}: {counted(rnd['points'][s], 'pt')} ({counted(rnd['bruises'][s], 'bruise')})"
                        for s in seats)
        won = f" - won by seat {rnd['winner']}" if rnd["winner"] else ""
        out.append(f"  Round {rnd['round']}{won}: {row}")
    if summary.get("badge"):
        out.append(f"  Fear Me badge: seat {summary['badge']}")
    out.append(f"  Winner: seat {summary['winner']}" if summary.get("winner") else "  No winner yet")
    return out
