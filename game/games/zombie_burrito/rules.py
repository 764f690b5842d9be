"""Zombie Burrito, the table's rules (``../shared/rules/zombie-burrito.txt``).

Pure: ``state + timestamped table event -> state + cues``. Quotes in the
comments are from the rulebook; choices where it is silent or ambiguous are
written down in ``docs/zombie-burrito.md`` (cited here as "Z<n>").

The advantage cards are data (a catalog of kinds built from the effect
primitives ``lives`` and ``revives`` plus a reminder ``text``): the default
ships as ``zombie_catalog.toml`` and is read by ``load_catalog``, outside the
pure step path; a setup may carry its own.

Example, a four-seat battle the Zombies win::

    >>> from game.games.zombie_burrito import rules as zb
    >>> setup = zb.parse_setup({"event": "setup", "game": "zombie-burrito", "seats": 4,
    ...                         "options": {"teams": {"zombies": [1, 2], "survivors": [3, 4]}}})
    >>> state = zb.new_state(setup)
    >>> for ev in [{"t": 1.0, "event": "declare", "seat": 1},
    ...            {"t": 2.0, "event": "throw", "seat": 1, "burrito": 1},
    ...            {"t": 2.3, "event": "hit", "burrito": 1, "seat": 3},
    ...            {"t": 3.0, "event": "throw", "seat": 2, "burrito": 1},
    ...            {"t": 3.3, "event": "hit", "burrito": 1, "seat": 4}]:
    ...     _ = zb.advance(state, ev["t"]); _ = zb.step(state, zb.check_event(setup, ev))
    >>> _ = zb.finish(state)
    >>> zb.summary(state)["battles"][0]["out"], zb.summary(state)["markers"]
    ([3, 4], {'zombies': 1, 'survivors': 0})
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from game.rules.base import (
    MASK64,
    Cue,
    Event,
    History,
    RuleInputError,
    Setup,
    brief,
    check_time,
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
    read_game_data,
    read_setup_file,
    setup_options,
    splitmix64,
)

name = "zombie-burrito"

TEAMS = ("zombies", "survivors")
SIDES = ("zombie", "survivor")
#: The side of the advantage cards that help a team, and the team a side's cards help.
SIDE_OF = {"zombies": "zombie", "survivors": "survivor"}
TEAM_OF_SIDE = {"zombie": "zombies", "survivor": "survivors"}
OTHER = {"zombies": "survivors", "survivors": "zombies"}
TITLE = {"zombies": "Zombies", "survivors": "Survivors"}
#: Contract: "Burrito 1 is the Zombie burrito and burrito 2 is the Survivor burrito."
BURRITO_OF = {"zombies": 1, "survivors": 2}
TEAM_OF_BURRITO = {1: "zombies", 2: "survivors"}
BURRITO_NAME = {1: "Zombie burrito", 2: "Survivor burrito"}
#: "When either team flips over their third Team Marker, their team wins the game!"
MARKERS_TO_WIN = 3

EVENTS = ("advantage", "declare", "cancel", "grab", "throw", "hit", "catch", "miss", "foul", "revive", "overturn")
#: The table's calls: what a challenge may overturn (Z15).
CALLS = ("hit", "miss", "catch", "foul")
#: Z4: the events that end battle setup; cancellations not chosen by then are made automatically.
FIGHT_EVENTS = ("grab", "throw", "hit", "catch", "miss", "revive")

#: Z10: fencing's épée double-touch window, as in Throw Throw Burrito (field notes).
DEFAULT_TIE_WINDOW_MS = 45.0
OPTION_KEYS = ("teams", "seed", "tie_window_ms", "catalog")
EFFECTS = ("lives", "revives", "text")
KIND_RE = re.compile(r"[A-Za-z0-9_-]{1,40}")
EPS = 1e-9  # seconds; keeps "at most N ms apart" exact against float rounding

Catalog = dict[str, dict[str, dict[str, Any]]]
"""``{"zombie": {KIND: {"lives": n, "revives": n, "text": str}}, "survivor": {...}}``."""


# --- the advantage catalog (data; read outside the pure step path) -------------------------


class CatalogError(RuleInputError):
    """A catalog that breaks the format: one line naming the file or option, the kind and the field."""


def check_catalog(raw: object, where: str = "catalog") -> Catalog:
    """Validate a catalog object (from TOML or a setup option) and fill in defaults.

    Both sides must be present (either may be empty); unknown keys are errors,
    since a misspelt effect silently ignored would change the game.
    """
    if not isinstance(raw, dict):
        raise CatalogError(f"{where}: must be a table/object with 'zombie' and 'survivor', got {type(raw).__name__}")
    unknown = sorted(set(raw) - set(SIDES))
    if unknown:
        raise CatalogError(f"{where}: unknown side(s) {', '.join(map(brief, unknown))} (sides: zombie, survivor)")
    out: Catalog = {}
    for side in SIDES:
        if side not in raw:
            raise CatalogError(f"{where}: missing side '{side}'")
        kinds = raw[side]
        if not isinstance(kinds, dict):
            raise CatalogError(f"{where}: '{side}' must be a table of advantage kinds")
        out[side] = {}
        for kind, effects in kinds.items():
            here = f"{where}: {side}.{kind}"
            if not isinstance(kind, str) or not KIND_RE.fullmatch(kind):
                raise CatalogError(f"{where}: {side} kind {brief(kind)} must be 1-40 letters, digits, '-' or '_'")
            if not isinstance(effects, dict):
                raise CatalogError(f"{here}: must be a table of effects ({', '.join(EFFECTS)})")
            bad = sorted(set(effects) - set(EFFECTS))
            if bad:
                raise CatalogError(f"{here}: unknown effect(s) {', '.join(map(brief, bad))} (known: {', '.join(EFFECTS)})")
            entry: dict[str, Any] = {}
            for key in ("lives", "revives"):
                value = effects.get(key, 0)
                if type(value) is not int or not 0 <= value <= 99:
                    raise CatalogError(f"{here}: '{key}' must be a whole number 0-99, got {brief(value)}")
                entry[key] = value
            text = effects.get("text", kind)  # optional: without it the screen shows the kind's name
            if not isinstance(text, str) or not text.strip():
                raise CatalogError(f"{here}: 'text' (the reminder the screen shows) must be a non-empty string")
            entry["text"] = text.strip()
            out[side][kind] = entry
    return out


def load_catalog(path: str | None = None) -> Catalog:
    """Read a catalog TOML file; ``None`` is the shipped default (``zombie_catalog.toml``)."""
    if path is None:
        return _default_catalog()
    try:
        data = tomllib.loads(read_setup_file(path).decode("utf-8"))
    except OSError as exc:
        raise CatalogError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{path}: bad TOML: {exc}") from None
    return check_catalog(data, path)


@lru_cache(maxsize=1)
def _default_catalog_checked() -> Catalog:
    text = read_game_data(__package__ or "game.games.zombie_burrito", "data/catalog.toml")
    return check_catalog(tomllib.loads(text), "zombie_catalog.toml")


def _default_catalog() -> Catalog:
    """The shipped default, read and checked once; each caller gets its own copy."""
    return {side: {kind: dict(e) for kind, e in kinds.items()} for side, kinds in _default_catalog_checked().items()}


# --- setup and event checks -------------------------------------------------------------


def parse_setup(obj: dict[str, Any]) -> Setup:
    """Check line 1. "2-6 players"; teams balanced with "1 extra Zombie" for an odd count."""
    raw = setup_options(obj, OPTION_KEYS)
    seats = need_seats(obj, 6)
    seed = raw.get("seed", 0)
    if type(seed) is not int:
        raise RuleInputError(f"setup option 'seed' must be a whole number, got {brief(seed)}")
    tie = need_number(raw, "tie_window_ms") if "tie_window_ms" in raw else DEFAULT_TIE_WINDOW_MS
    if "teams" in raw:
        teams = _check_teams(raw["teams"], seats)
    else:
        teams = deal_teams(seats, seed)
    catalog = check_catalog(raw["catalog"], "setup option 'catalog'") if "catalog" in raw else _default_catalog()
    options = {"teams": teams, "seed": seed, "tie_window_ms": tie, "catalog": catalog}
    return Setup(game=name, seats=seats, options=options, players=parse_players(obj, seats))


def team_sizes(seats: int) -> dict[str, int]:
    """ "make sure you have the same number of Zombie and Survivor Team Markers. If there's an odd
    number of players, grab 1 extra Zombie Team Marker." """
    return {"zombies": (seats + 1) // 2, "survivors": seats // 2}


def _check_teams(raw: object, seats: int) -> dict[str, list[int]]:
    if not isinstance(raw, dict) or set(raw) != set(TEAMS):
        raise RuleInputError(f"setup option 'teams' must be {{\"zombies\": [seats], \"survivors\": [seats]}}, got {brief(raw)}")
    teams: dict[str, list[int]] = {}
    seen: set[int] = set()
    for team in TEAMS:
        members = raw[team]
        if not isinstance(members, list):
            raise RuleInputError(f"setup option 'teams': '{team}' must be a list of seats, got {brief(members)}")
        for seat in members:
            if type(seat) is not int or not 1 <= seat <= seats:
                raise RuleInputError(f"setup option 'teams': '{team}' holds {brief(seat)}, not a seat 1..{seats}")
            if seat in seen:
                raise RuleInputError(f"setup option 'teams': seat {seat} is on a team twice")
            seen.add(seat)
        teams[team] = sorted(members)
    missing = sorted(set(range(1, seats + 1)) - seen)
    if missing:
        raise RuleInputError(f"setup option 'teams' leaves seat(s) {', '.join(map(str, missing))} without a team")
    want = team_sizes(seats)
    got = {team: len(teams[team]) for team in TEAMS}
    if got != want:
        raise RuleInputError(
            f"setup option 'teams' is unbalanced: {got['zombies']} zombies and {got['survivors']} survivors; "
            f"{seats} seats need {want['zombies']} and {want['survivors']}"
        )
    return teams


def deal_teams(seats: int, seed: int) -> dict[str, list[int]]:
    """ "Shuffle the Team Markers face down and deal 1 to each player" (Z1): a seeded shuffle of
    ceil(n/2) Zombie and floor(n/2) Survivor markers. Seats keep their numbers."""
    markers = ["zombies"] * team_sizes(seats)["zombies"] + ["survivors"] * team_sizes(seats)["survivors"]
    rng = seed & MASK64
    for i in range(len(markers) - 1, 0, -1):  # Fisher-Yates
        rng, out = splitmix64(rng)
        j = out % (i + 1)
        markers[i], markers[j] = markers[j], markers[i]
    return {team: [s for s in range(1, seats + 1) if markers[s - 1] == team] for team in TEAMS}


def check_event(setup: Setup, obj: dict[str, Any]) -> Event:
    """Validate one later line against the log contract; returns it with ``t`` as a float."""
    kind = obj.get("event")
    if kind not in EVENTS:
        if kind is None:
            raise RuleInputError("missing field 'event'")
        raise RuleInputError(f"unknown event {brief(kind)}")
    obj["t"] = check_time(obj)
    n = setup.seats
    catalog = setup.options["catalog"]
    if kind in ("advantage", "declare", "grab", "throw", "hit", "catch", "foul", "revive"):
        need_int(obj, "seat", 1, n)
    if kind in ("grab", "throw", "hit", "catch", "miss"):
        need_int(obj, "burrito", 1, 2)
    if kind == "overturn":
        overturn_check_event(obj, CALLS, n, 2)
    elif kind == "advantage":
        side = need_choice(obj, "side", SIDES)
        _need_kind(obj, side, catalog)
    elif kind == "declare":
        obj["valid"] = need_bool(obj, "valid", True)
    elif kind == "cancel":
        team = need_choice(obj, "team", TEAMS)
        # The cancelling team removes the other team's own sets: Zombies cancel Survivor advantages.
        _need_kind(obj, SIDE_OF[OTHER[team]], catalog)
    return obj


def _need_kind(obj: dict[str, Any], side: str, catalog: Catalog) -> str:
    if "kind" not in obj:
        raise RuleInputError("missing field 'kind'")
    kind = obj["kind"]
    if not isinstance(kind, str) or kind not in catalog[side]:
        known = ", ".join(sorted(catalog[side])) or "none"
        raise RuleInputError(f"unknown {side} advantage kind {brief(kind)} (the catalog has: {known})")
    return kind


# --- state --------------------------------------------------------------------------------


@dataclass(slots=True)
class Battle:
    """One battle, from its "Battle!" to its Team Marker."""

    declarer: int
    t: float
    valid: bool
    #: Completed advantage sets of the helping side per team: kind -> copies (before cancelling).
    own: dict[str, dict[str, int]]
    #: How many of the *other* side's sets each team laid down: each cancels one set of the other team.
    cancels: dict[str, int]
    #: Cancellations chosen by ``cancel`` events: the kinds each team removed from the other, in order.
    chosen: dict[str, list[str]] = field(default_factory=lambda: {"zombies": [], "survivors": []})
    #: "setup" (cancellations may be chosen), "fight", or "over".
    phase: str = "setup"
    #: Set when setup ends: the kinds each team removed, chosen then automatic, in order.
    removed: dict[str, list[str]] | None = None
    active: dict[str, list[str]] | None = None
    lives: dict[str, int] = field(default_factory=lambda: {"zombies": 0, "survivors": 0})
    revives_left: dict[str, int] = field(default_factory=lambda: {"zombies": 0, "survivors": 0})
    #: Seats still in, and the extra hits each may still take.
    alive: dict[int, int] = field(default_factory=dict)
    out: list[int] = field(default_factory=list)
    restarts: int = 0
    winner: str | None = None


@dataclass(slots=True)
class State:
    setup: Setup
    seats: int
    teams: dict[str, list[int]]
    team_of: dict[int, str]
    catalog: Catalog
    tie_window: float
    t: float = 0.0
    markers: dict[str, int] = field(default_factory=lambda: {"zombies": 0, "survivors": 0})
    winner: str | None = None
    #: Advantage sets face up since the last battle: (seat, side, kind), in the order laid down.
    sets: list[tuple[int, str, str]] = field(default_factory=list)
    battles: list[Battle] = field(default_factory=list)
    battle: Battle | None = None
    #: An out that would empty a team, waiting out the tie window: (t, seat, how).
    pending: tuple[float, int, str] | None = None
    holder: dict[int, int] = field(default_factory=dict)  # burrito -> seat holding it
    flight: dict[int, int] = field(default_factory=dict)  # burrito -> seat that threw it
    landed: set[int] = field(default_factory=set)  # burritos whose flight was decided, not thrown since
    rng: int = 0
    #: Every event applied, in order: an overturn folds them again without the call (Z15).
    history: History = field(default_factory=History)
    overturned: list[dict[str, Any]] = field(default_factory=list)


def new_state(setup: Setup) -> State:
    teams = {team: list(seats) for team, seats in setup.options["teams"].items()}
    return State(
        setup=setup,
        seats=setup.seats,
        teams=teams,
        team_of={seat: team for team in TEAMS for seat in teams[team]},
        catalog=setup.options["catalog"],
        tie_window=setup.options["tie_window_ms"] / 1000.0,
        rng=(setup.options["seed"] ^ 0x5A0B1E) & MASK64,
    )


def _seats_text(seats: list[int]) -> str:
    return ", ".join(map(str, seats)) if seats else "none"


def opening_cues(state: State) -> list[Cue]:
    """The teams, then "pick someone to count down "3.. 2.. 1.. Zombie Burrito!"" (Z2: drawn from the seed)."""
    state.rng, out = splitmix64(state.rng)
    caller = out % state.seats + 1
    z, s = state.teams["zombies"], state.teams["survivors"]
    every = tuple(range(1, state.seats + 1))
    return [
        Cue(0.0, "say", f"Zombies: seat(s) {_seats_text(z)}. Survivors: seat(s) {_seats_text(s)}. Sit with your team!", every),
        Cue(0.0, "say", f"Seat {caller} counts: 3.. 2.. 1.. Zombie Burrito!", (caller,)),
        Cue(0.0, "sound", "countdown"),
        Cue(0.0, "light", "idle", every),
    ]


# --- time -----------------------------------------------------------------------------------


def advance(state: State, t: float) -> list[Cue]:
    """Let time run to ``t``: a battle-ending out whose tie window is over decides the battle."""
    cues: list[Cue] = []
    if state.pending is not None and state.pending[0] + state.tie_window + EPS < t:
        _settle(state, state.pending[0] + state.tie_window, cues)
    return cues


def finish(state: State) -> list[Cue]:
    """End of the log: time runs on until nothing is pending."""
    return advance(state, float("inf"))


def is_over(state: State) -> bool:
    return state.winner is not None


# --- events -----------------------------------------------------------------------------------


def check_state(state: State, ev: Event) -> None:
    """Raise ``RuleInputError`` if a checked event is impossible in this state; changes nothing.

    ``step`` calls it first, so a bad event never half-applies. A live table
    can call it (after ``advance`` to the event's time) before journaling.
    """
    if state.winner is not None:
        raise RuleInputError(f"event '{ev['event']}' after the game was won by the {state.winner}")
    if ev["t"] < state.t:
        raise RuleInputError(f"time goes backwards: t={ev['t']} after t={state.t}")
    kind = ev["event"]
    if kind == "cancel":
        _check_cancel(state, ev)
    elif kind == "revive":
        _check_revive(state, ev)
    elif kind == "overturn":
        overturn_target(state, ev, CALLS)


def step(state: State, ev: Event) -> list[Cue]:
    """Apply one checked event at its time; ``advance`` to its time first."""
    check_state(state, ev)
    t = ev["t"]
    state.t = t
    cues: list[Cue] = []
    kind = ev["event"]
    battle = state.battle
    if battle is not None and battle.phase == "setup" and kind in FIGHT_EVENTS:
        # Contract: cancellations not chosen before the first grab, throw, hit or catch are automatic (Z4).
        _start_fight(state, battle, t, cues)
    HANDLERS[kind](state, ev, t, cues)
    if kind != "overturn":  # an overturn writes the history it folded
        state.history.append(ev)
    return cues


def _on_advantage(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    seat, side, kind = ev["seat"], ev["side"], ev["kind"]
    if state.battle is not None:
        # "All players must immediately stop passing cards and put their hand of cards face down" (Z5).
        cues.append(Cue(t, "note", f"Stop! Seat {seat}'s {kind} set during a battle does not count", (seat,)))
        return
    state.sets.append((seat, side, kind))
    team = state.team_of[seat]
    text = state.catalog[side][kind]["text"]
    if TEAM_OF_SIDE[side] == team:
        cues.append(Cue(t, "say", f"Seat {seat} lays down {side.capitalize()} advantage {kind}: {text}", (seat,)))
    else:
        # "When played by the Zombies, they remove advantages from the Survivors" (and the other way round).
        other = TITLE[OTHER[team]]
        cues.append(Cue(t, "say", f"Seat {seat} lays down {side.capitalize()} set {kind}: it will cancel one of the {other}' sets", (seat,)))
    cues.append(Cue(t, "sound", "set"))


def _on_declare(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    seat, valid = ev["seat"], ev["valid"]
    if state.battle is not None:
        cues.append(Cue(t, "note", f"Seat {seat}'s Battle! call ignored: a battle is already on", (seat,)))
        return
    team = state.team_of[seat]
    own: dict[str, dict[str, int]] = {"zombies": {}, "survivors": {}}
    cancels = {"zombies": 0, "survivors": 0}
    for s, side, kind in state.sets:
        holder_team = state.team_of[s]
        if TEAM_OF_SIDE[side] == holder_team:
            own[holder_team][kind] = own[holder_team].get(kind, 0) + 1
        else:
            cancels[holder_team] += 1
    battle = Battle(declarer=seat, t=t, valid=valid, own=own, cancels=cancels)
    state.battles.append(battle)
    every = tuple(range(1, state.seats + 1))
    cues.append(Cue(t, "say", f"BATTLE! called by seat {seat} ({TITLE[team]})", (seat,)))
    cues.append(Cue(t, "sound", "battle"))
    if not valid:
        # "If you accidentally yell "Battle!" without having 3 MATCHING BATTLE CARDS, your team
        # automatically loses the battle." Contract: listed with empty active and out.
        battle.removed = {"zombies": [], "survivors": []}
        battle.active = {"zombies": [], "survivors": []}
        battle.phase = "over"
        cues.append(Cue(t, "say", f"... but seat {seat} has no Battle set! The {TITLE[team]} lose the battle", (seat,)))
        state.battle = battle
        _end_battle(state, OTHER[team], t, cues)
        return
    state.battle = battle
    state.holder.clear()
    state.flight.clear()
    state.landed.clear()  # a new battle starts clean (Z8)
    battle.alive = {s: 0 for s in every}
    cues.append(Cue(t, "light", "battle", every))
    # "Starting with the Zombie Team, look at each team member's completed Sets of cards."
    for tm in TEAMS:
        kinds = own[tm]
        if kinds:
            listed = ", ".join(f"{k} x{n} (applies once)" if n > 1 else k for k, n in sorted(kinds.items()))
            cues.append(Cue(t, "say", f"{TITLE[tm]}' advantage sets: {listed}", tuple(state.teams[tm])))
        else:
            cues.append(Cue(t, "say", f"{TITLE[tm]}' advantage sets: none", tuple(state.teams[tm])))
    if any(can_cancel(battle, tm) for tm in TEAMS):
        for tm in TEAMS:
            if can_cancel(battle, tm):
                cues.append(
                    Cue(t, "say", f"{TITLE[tm]}: choose {battle.cancels[tm]} of the {TITLE[OTHER[tm]]}' sets to cancel",
                        tuple(state.teams[tm]))
                )
        return
    _start_fight(state, battle, t, cues)


def sets_left(battle: Battle, team: str) -> dict[str, int]:
    """The team's own sets left after the cancellations chosen so far."""
    left = dict(battle.own[team])
    for kind in battle.chosen[OTHER[team]]:
        left[kind] -= 1
    return left


def can_cancel(battle: Battle, team: str) -> bool:
    """Whether ``team`` may still choose a cancellation: a cancelling set left, and something to cancel."""
    left = sets_left(battle, OTHER[team])
    return battle.cancels[team] - len(battle.chosen[team]) > 0 and any(n > 0 for n in left.values())


def _check_cancel(state: State, ev: Event) -> None:
    battle, team, kind = state.battle, ev["team"], ev["kind"]
    side = SIDE_OF[OTHER[team]]
    if battle is None or battle.phase == "over":
        raise RuleInputError(f"cancel by the {team}: no battle is on")
    if battle.cancels[team] == 0:
        raise RuleInputError(f"cancel by the {team}: they laid no {side} set to cancel with")
    if battle.phase != "setup":
        raise RuleInputError(f"cancel by the {team}: too late, cancellations come before the battle's first grab, throw, hit or catch")
    if battle.cancels[team] - len(battle.chosen[team]) <= 0:
        raise RuleInputError(f"cancel by the {team}: they have no {side} set left to cancel with")
    if sets_left(battle, OTHER[team]).get(kind, 0) <= 0:
        raise RuleInputError(f"cancel by the {team}: the {OTHER[team]} have no {kind} set left to cancel")


def _on_cancel(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    battle, team, kind = state.battle, ev["team"], ev["kind"]
    assert battle is not None
    battle.chosen[team].append(kind)
    left = sets_left(battle, OTHER[team]).get(kind, 0)
    still = f" (they still have {left}, so it still applies)" if left else ""
    cues.append(Cue(t, "say", f"The {TITLE[team]} cancel the {TITLE[OTHER[team]]}' {kind} set{still}", tuple(state.teams[team])))


def resolve(own: dict[str, dict[str, int]], cancels: dict[str, int], chosen: dict[str, list[str]],
            catalog: Catalog) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Battle setup: returns (kinds each team removed from the other, in order; active kinds per team, sorted).

    "for each complete Survivor Advantage Set you collected, you get to remove 1 of the Survivor
    Team's completed Survivor Advantage Sets" -- Zombies first, then the Survivors. Chosen
    cancellations come first; the rest are automatic (Z4): the set whose loss removes an
    advantage (fewest copies left), then the strongest (lives + revives), then by name.
    "If a team has multiple Sets of the same advantage, and one of them is discarded, they can
    still use the advantage." Duplicates apply once.
    """
    removed: dict[str, list[str]] = {}
    active: dict[str, list[str]] = {}
    for team in TEAMS:
        victim = OTHER[team]
        side = catalog[SIDE_OF[victim]]
        left = dict(own[victim])
        done = list(chosen[team])
        for kind in done:
            left[kind] -= 1
        for _ in range(cancels[team] - len(done)):
            candidates = [k for k, n in left.items() if n > 0]
            if not candidates:
                break  # nothing left to cancel: the set is discarded for nothing
            kind = min(candidates, key=lambda k: (left[k], -(side[k]["lives"] + side[k]["revives"]), k))
            left[kind] -= 1
            done.append(kind)
        removed[team] = done
        active[victim] = sorted(k for k, n in left.items() if n > 0)
    return removed, active


def _start_fight(state: State, battle: Battle, t: float, cues: list[Cue]) -> None:
    """End battle setup: make the remaining cancellations, put the advantages in force, start."""
    removed, active = resolve(battle.own, battle.cancels, battle.chosen, state.catalog)
    for team in TEAMS:
        for kind in removed[team][len(battle.chosen[team]):]:
            cues.append(Cue(t, "say", f"The {TITLE[team]} cancel the {TITLE[OTHER[team]]}' {kind} set (automatic)",
                            tuple(state.teams[team])))
        wasted = battle.cancels[team] - len(removed[team])
        if wasted > 0:
            cues.append(Cue(t, "note", f"{wasted} of the {TITLE[team]}' cancelling set(s) had nothing left to cancel"))
    battle.removed, battle.active, battle.phase = removed, active, "fight"
    for team in TEAMS:
        side = state.catalog[SIDE_OF[team]]
        # Z6: the effects of different kinds in force add up.
        battle.lives[team] = sum(side[k]["lives"] for k in active[team])
        battle.revives_left[team] = sum(side[k]["revives"] for k in active[team])
        for seat in state.teams[team]:
            if seat in battle.alive:
                battle.alive[seat] = battle.lives[team]
        if active[team]:
            for kind in active[team]:
                cues.append(Cue(t, "say", f"{TITLE[team]} have {kind}: {side[kind]['text']}", tuple(state.teams[team])))
        else:
            cues.append(Cue(t, "say", f"{TITLE[team]} fight with no advantage", tuple(state.teams[team])))
    team = state.team_of[battle.declarer]
    burrito = BURRITO_OF[team]
    # "Whichever player declared the battle gets to start the battle with their team's Burrito in
    # their hand. The other Burrito will start on the table."
    if battle.declarer in battle.alive:
        state.holder[burrito] = battle.declarer
    cues.append(Cue(t, "say", "Survivors to one side of the room, Zombies to the other!"))
    cues.append(Cue(t, "say", f"Seat {battle.declarer} holds the {BURRITO_NAME[burrito]}: 3.. 2.. 1.. Battle!", (battle.declarer,)))
    cues.append(Cue(t, "sound", "countdown"))


def _fighting(state: State, t: float, cues: list[Cue], what: str, seat: int | None = None) -> Battle | None:
    """The battle in which an action counts, or None (and a note) if none is being fought."""
    battle = state.battle
    if battle is None or battle.phase != "fight" or state.pending is not None:
        # Contract: "A hit or a catch that arrives after its battle was decided is ignored."
        why = "no battle is on" if battle is None else "the battle is already decided"
        cues.append(Cue(t, "note", f"{what} ignored: {why}", (seat,) if seat else ()))
        return None
    return battle


def _on_grab(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    seat, burrito = ev["seat"], ev["burrito"]
    battle = _fighting(state, t, cues, f"Seat {seat}'s grab", seat)
    if battle is None or not _may_handle(state, battle, seat, burrito, t, cues):
        return
    state.flight.pop(burrito, None)
    state.landed.discard(burrito)  # Z8: picked up, so its next contact is new
    state.holder[burrito] = seat


def _may_handle(state: State, battle: Battle, seat: int, burrito: int, t: float, cues: list[Cue]) -> bool:
    if seat not in battle.alive:
        cues.append(Cue(t, "note", f"Seat {seat} is out and may not touch a burrito: ignored", (seat,)))
        return False
    if TEAM_OF_BURRITO[burrito] != state.team_of[seat]:
        # "You Can't: Intentionally touch the other team's Burrito" -- the table cannot see intent,
        # so it warns and the referee may rule a foul (Z9).
        cues.append(Cue(t, "note", f"Seat {seat} touched the {BURRITO_NAME[burrito]} (not theirs): ignored; the referee may call a foul", (seat,)))
        return False
    return True


def _on_throw(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    seat, burrito = ev["seat"], ev["burrito"]
    battle = _fighting(state, t, cues, f"Seat {seat}'s throw", seat)
    if battle is None or not _may_handle(state, battle, seat, burrito, t, cues):
        _land(state, burrito)  # Z9: a throw that does not count: nor do its contacts
        return
    # Contract: "A throw says the thrower held that burrito, so no grab is needed before it."
    state.holder.pop(burrito, None)
    state.landed.discard(burrito)
    state.flight[burrito] = seat


def _thrower(state: State, burrito: int) -> int | None:
    if burrito in state.flight:
        return state.flight[burrito]
    return state.holder.get(burrito)  # Z8: a throw the sensors did not see


def _land(state: State, burrito: int) -> None:
    """The burrito's flight is decided: later contacts are bounces until it is thrown again."""
    state.flight.pop(burrito, None)
    state.holder.pop(burrito, None)
    state.landed.add(burrito)


def _on_hit(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    seat, burrito = ev["seat"], ev["burrito"]
    if state.pending is not None:
        _maybe_tie(state, ev, t, cues)
        return
    battle = _fighting(state, t, cues, f"Hit on seat {seat}", seat)
    if battle is None:
        return
    if burrito in state.landed:
        # "If a Burrito hits you first and then bounces onto the floor or an object, you're still
        # out!" -- the first contact decides; a bounce is no new hit (Z8).
        cues.append(Cue(t, "note", f"{BURRITO_NAME[burrito]} touched seat {seat} after its flight was decided: no new hit", (seat,)))
        return
    _land(state, burrito)
    if seat not in battle.alive:
        cues.append(Cue(t, "note", f"Seat {seat} is already out: no effect", (seat,)))
        return
    if TEAM_OF_BURRITO[burrito] == state.team_of[seat]:
        # "You Can: Get hit with your own team's Burrito without being eliminated."
        cues.append(Cue(t, "say", f"Seat {seat} is hit by their own team's burrito: harmless", (seat,)))
        return
    cues.append(Cue(t, "sound", "hit"))
    if battle.alive[seat] > 0:
        # lives: "each member of the team takes n extra hits before being out".
        battle.alive[seat] -= 1
        cues.append(Cue(t, "say", f"HIT! Seat {seat} takes it: {battle.alive[seat]} extra hit(s) left", (seat,)))
        return
    cues.append(Cue(t, "say", f"HIT! Seat {seat} is out (the {BURRITO_NAME[burrito]})", (seat,)))
    _put_out(state, battle, seat, t, "hit", cues, tieable=True)


def _on_miss(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    burrito = ev["burrito"]
    battle = state.battle
    if battle is None or battle.phase != "fight":
        cues.append(Cue(t, "note", f"Miss by the {BURRITO_NAME[burrito]} ignored: no battle is on"))
        return
    if burrito in state.landed:
        return  # Z8: a bounce of a burrito that already hit or landed changes nothing
    _land(state, burrito)
    if state.pending is None:
        cues.append(Cue(t, "say", f"The {BURRITO_NAME[burrito]} misses"))


def _on_catch(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    seat, burrito = ev["seat"], ev["burrito"]
    if state.pending is not None:
        _maybe_tie(state, ev, t, cues)
        return
    battle = _fighting(state, t, cues, f"Catch by seat {seat}", seat)
    if battle is None:
        return
    if burrito in state.landed:
        # "Catch a Burrito thrown at you before it hits anything else."
        cues.append(Cue(t, "note", f"Catch by seat {seat} ignored: the {BURRITO_NAME[burrito]} had already touched something", (seat,)))
        return
    thrower = _thrower(state, burrito)
    if thrower is None:
        cues.append(Cue(t, "note", f"Catch by seat {seat} ignored: nobody threw the {BURRITO_NAME[burrito]}", (seat,)))
        return
    if seat not in battle.alive:
        _land(state, burrito)
        cues.append(Cue(t, "note", f"Seat {seat} is out: the catch does not count", (seat,)))
        return
    if seat == thrower or TEAM_OF_BURRITO[burrito] == state.team_of[seat]:
        # Catching your own team's burrito is a pass: now you hold it.
        state.flight.pop(burrito, None)
        state.holder[burrito] = seat
        return
    _land(state, burrito)
    if thrower not in battle.alive:
        cues.append(Cue(t, "note", f"Seat {seat} catches seat {thrower}'s throw, but seat {thrower} is already out", (seat,)))
        return
    # "Catch a Burrito thrown at you before it hits anything else -- this automatically eliminates
    # the player who threw the Burrito!" Lives absorb hits, not catches (Z7).
    cues.append(Cue(t, "say", f"CATCH! Seat {seat} catches the {BURRITO_NAME[burrito]}: seat {thrower} is out", (seat, thrower)))
    cues.append(Cue(t, "sound", "catch"))
    _put_out(state, battle, thrower, t, "caught", cues, tieable=True)


def _on_foul(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    seat = ev["seat"]
    battle = state.battle
    if battle is None or battle.phase == "over" or state.pending is not None or seat not in battle.alive:
        cues.append(Cue(t, "note", f"Foul by seat {seat} ignored: not in a battle being fought", (seat,)))
        return
    # "Cheat. If it feels like cheating, it's cheating!" Contract: "that player is out" (Z7: lives do not help).
    cues.append(Cue(t, "say", f"FOUL! Seat {seat} is out", (seat,)))
    _put_out(state, battle, seat, t, "foul", cues, tieable=False)


def _check_revive(state: State, ev: Event) -> None:
    seat = ev["seat"]
    battle = state.battle
    if battle is None or battle.phase == "over":
        raise RuleInputError(f"revive of seat {seat}: no battle is on")
    if state.pending is not None:
        raise RuleInputError(f"revive of seat {seat}: the battle is already decided")
    if seat in battle.alive:
        raise RuleInputError(f"revive of seat {seat}: seat {seat} is not out")
    team = state.team_of[seat]
    if battle.phase == "setup":
        _, active = resolve(battle.own, battle.cancels, battle.chosen, state.catalog)
        left = sum(state.catalog[SIDE_OF[team]][k]["revives"] for k in active[team])
    else:
        left = battle.revives_left[team]
    if left <= 0:
        raise RuleInputError(f"revive of seat {seat}: the {team} have no revive left")


def _on_revive(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    seat = ev["seat"]
    battle = state.battle
    assert battle is not None
    team = state.team_of[seat]
    battle.revives_left[team] -= 1
    battle.out.remove(seat)
    battle.alive[seat] = battle.lives[team]  # Z11: back with the team's full extra hits
    cues.append(Cue(t, "say", f"REVIVE! Seat {seat} is back in for the {TITLE[team]} ({battle.revives_left[team]} revive(s) left)", (seat,)))
    cues.append(Cue(t, "sound", "revive"))
    cues.append(Cue(t, "light", "battle", (seat,)))


def _on_overturn(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    """Z15: a challenge upheld against the last call. "If a Burrito hits you ... you're out" holds only for a hit that
    happened: an overturned hit puts nobody out, so the player is back in the battle (with the extra hits the hit
    took), and a Team Marker the call won is taken back."""
    last = state.battles[-1] if state.battles else None
    out_before = set(last.out) if last is not None else set()
    markers_before = dict(state.markers)
    call = overturn_apply(state, ev, CALLS, new_state, advance, step)
    called = tuple(x for x in (call.get("seat"),) if x)
    cues.append(Cue(t, "say", f"OVERTURNED! {_call_text(call)}", called))
    for team in TEAMS:
        if state.markers[team] < markers_before[team]:
            cues.append(Cue(t, "say", f"The {TITLE[team]}' Team Marker goes back: the battle goes on"))
    b = state.battle
    if b is not None and state.battles and b is state.battles[-1]:
        for s in sorted(out_before - set(b.out)):
            cues.append(Cue(t, "say", f"Seat {s} is back in the battle", (s,)))
            cues.append(Cue(t, "light", "battle", (s,)))
    for e in overturn_dropped(state):
        cues.append(Cue(t, "note", f"the {e['event']} at t={e['t']:g} no longer applies"))


def _call_text(call: Event) -> str:
    kind = call["event"]
    if kind == "hit":
        return f"the {BURRITO_NAME[call['burrito']]} did not hit seat {call['seat']}"
    if kind == "catch":
        return f"seat {call['seat']} did not catch the {BURRITO_NAME[call['burrito']]}"
    if kind == "miss":
        return f"the {BURRITO_NAME[call['burrito']]} did not miss"
    return f"no foul by seat {call['seat']}"


HANDLERS = {
    "advantage": _on_advantage,
    "declare": _on_declare,
    "cancel": _on_cancel,
    "grab": _on_grab,
    "throw": _on_throw,
    "hit": _on_hit,
    "miss": _on_miss,
    "catch": _on_catch,
    "foul": _on_foul,
    "revive": _on_revive,
    "overturn": _on_overturn,
}


# --- outs, ties and the end of a battle ----------------------------------------------------------


def _team_left(state: State, battle: Battle, team: str) -> list[int]:
    return [s for s in state.teams[team] if s in battle.alive]


def _put_out(state: State, battle: Battle, seat: int, t: float, how: str, cues: list[Cue], tieable: bool) -> None:
    team = state.team_of[seat]
    if tieable and _team_left(state, battle, team) == [seat] and state.tie_window > 0:
        # The last of a team: wait out the tie window before the battle is decided (Z10).
        state.pending = (t, seat, how)
        return
    _remove(state, battle, seat, t, cues)
    if not _team_left(state, battle, team):
        _end_battle(state, OTHER[team], t, cues)


def _remove(state: State, battle: Battle, seat: int, t: float, cues: list[Cue]) -> None:
    del battle.alive[seat]
    if seat in battle.out:
        battle.out.remove(seat)
    battle.out.append(seat)  # contract: "A seat revived and then put out again counts from its last exit."
    for b in [b for b, s in state.holder.items() if s == seat]:
        del state.holder[b]  # "move to the side of the room": the burrito drops where they stood
        state.landed.add(b)
    cues.append(Cue(t, "light", "out", (seat,)))


def _maybe_tie(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    """A hit or catch while a battle-ending out waits: a tie if it empties the other team too."""
    battle = state.battle
    assert battle is not None and state.pending is not None
    first_t, first, first_how = state.pending
    burrito = ev["burrito"]
    victim: int | None = None
    if burrito not in state.landed:
        if ev["event"] == "hit":
            seat = ev["seat"]
            if TEAM_OF_BURRITO[burrito] != state.team_of[seat] and seat in battle.alive and battle.alive[seat] == 0:
                victim = seat
        else:
            thrower, seat = _thrower(state, burrito), ev["seat"]
            if (thrower is not None and thrower in battle.alive and seat in battle.alive
                    and TEAM_OF_BURRITO[burrito] != state.team_of[seat]):
                victim = thrower
        _land(state, burrito)
    other = OTHER[state.team_of[first]]
    if victim is None or _team_left(state, battle, other) != [victim]:
        cues.append(Cue(t, "note", f"{ev['event'].capitalize()} at {t:g} ignored: the battle was decided at {first_t:g}"))
        return
    # "If the final 2 players in a battle hit each other at the same time with Burritos, those 2
    # players alone must restart the battle, each armed with their team's Burrito ... All
    # advantages used in the battle still apply."
    gap = round((t - first_t) * 1000)
    state.pending = None
    battle.restarts += 1
    for seat in (first, victim):
        battle.alive[seat] = battle.lives[state.team_of[seat]]  # Z11: a fresh restart
    state.flight.clear()
    state.landed.update((1, 2))  # stale until thrown: late bounces of the tied throws are no hits (Z8)
    state.holder = {BURRITO_OF[state.team_of[s]]: s for s in (first, victim)}
    pair = tuple(sorted((first, victim)))
    cues.append(Cue(t, "sound", "hit"))
    cues.append(Cue(t, "say", f"TIE! Seats {pair[0]} and {pair[1]} are out {gap} ms apart: those two restart, advantages still apply", pair))
    cues.append(Cue(t, "sound", "tie"))
    cues.append(Cue(t, "light", "battle", pair))
    cues.append(Cue(t, "say", "Each with your team's burrito, opposite sides: 3.. 2.. 1.. Battle!", pair))


def _settle(state: State, t: float, cues: list[Cue]) -> None:
    """The tie window is over: the pending out stands and decides the battle."""
    assert state.pending is not None and state.battle is not None
    first_t, seat, _how = state.pending
    state.pending = None
    battle = state.battle
    _remove(state, battle, seat, first_t, cues)
    _end_battle(state, OTHER[state.team_of[seat]], t, cues)


def _end_battle(state: State, winner: str, t: float, cues: list[Cue]) -> None:
    """ "Flip over one of the winning team's Team Markers" ... "Collect all face up Sets"."""
    battle = state.battle
    assert battle is not None
    if battle.phase == "setup":
        battle.removed, battle.active = resolve(battle.own, battle.cancels, battle.chosen, state.catalog)
    battle.phase = "over"
    battle.winner = winner
    state.battle = None
    state.sets.clear()
    state.holder.clear()
    state.landed.update(state.flight)  # still in the air: its late contacts belong to this battle (Z8)
    state.flight.clear()
    state.markers[winner] += 1
    m = state.markers
    every = tuple(range(1, state.seats + 1))
    cues.append(Cue(t, "say", f"The {TITLE[winner]} win the battle! Team Markers: Zombies {m['zombies']}, Survivors {m['survivors']}",
                    tuple(state.teams[winner])))
    cues.append(Cue(t, "sound", "marker"))
    cues.append(Cue(t, "note", "All advantage sets go to the discard pile"))
    if m[winner] >= MARKERS_TO_WIN:
        state.winner = winner
        cues.append(Cue(t, "say", f"The {TITLE[winner]} flip their third Team Marker and win the game!", tuple(state.teams[winner])))
        cues.append(Cue(t, "sound", "win"))
        cues.append(Cue(t, "light", "winner", tuple(state.teams[winner])))
        return
    cues.append(Cue(t, "light", "idle", every))
    # "The player who triggered the battle counts "3.. 2.. 1.. Zombie Burrito!" to resume playing."
    cues.append(Cue(t, "say", f"Seat {battle.declarer} counts: 3.. 2.. 1.. Zombie Burrito!", (battle.declarer,)))
    cues.append(Cue(t, "sound", "countdown"))


# --- the replay summary --------------------------------------------------------------------------


def _active(state: State, battle: Battle) -> dict[str, list[str]]:
    if battle.active is not None:
        return {team: list(battle.active[team]) for team in TEAMS}
    return resolve(battle.own, battle.cancels, battle.chosen, state.catalog)[1]  # still in setup: as it would resolve


def summary(state: State) -> dict[str, Any]:
    """The ``burrito-table replay --json`` object (its documented contract, docs/zombie-burrito.md)."""
    return {
        "game": name,
        "seats": state.seats,
        "teams": {team: list(state.teams[team]) for team in TEAMS},
        "markers": dict(state.markers),
        "winner": state.winner,
        "battles": [
            {
                "declarer": b.declarer,
                "active": _active(state, b),
                "out": list(b.out),
                "restarts": b.restarts,
                "winner": b.winner,
            }
            for b in state.battles
        ],
    } | ({"overturned": [dict(o) for o in state.overturned]} if state.overturned else {})


def standings(summary: dict[str, Any]) -> list[str]:
    """The readable ending of ``replay``: the teams, their Team Markers and the winner."""
    out = ["", "Standings"]
    for team in TEAMS:
        seats = _seats_text(summary["teams"][team])
        out.append(f"  {TITLE[team]} (seats {seats}): {summary['markers'][team]} Team Marker(s)")
    out.append(f"  Battles: {len(summary['battles'])}")
    out.append(f"  Winner: the {TITLE[summary['winner']]}" if summary.get("winner") else "  No winner yet")
    return out
