"""Quick Draw, the rules: two seats, one button each; the first to press after "DRAW!" wins the round.

A press before the draw is a false start and gives the round to the other seat. The draw comes a few seconds into
each round, at a moment drawn from the setup's seed, so a replay draws at the same times. Best of ``rounds``.

The whole of the contract in ``game.rules.base``: this module is what a maker writes for a new game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.rules.base import (
    Cue,
    Event,
    RuleInputError,
    Setup,
    check_time,
    need_int,
    need_seats,
    setup_options,
    splitmix64,
)

name = "quick-draw"

ROUND_GAP_S = 2.0  # between a round's result and the next round's start
DRAW_AFTER_S = (2.0, 5.0)  # the draw comes this long after a round starts


@dataclass
class State:
    setup: Setup
    rng: int
    rounds: int
    wins: dict[int, int] = field(default_factory=lambda: {1: 0, 2: 0})
    round: int = 1
    draw_at: float = 0.0
    drawn: bool = False
    winner: int | None = None
    log: list[str] = field(default_factory=list)


def parse_setup(obj: dict[str, Any]) -> Setup:
    options = setup_options(obj, ("rounds", "seed"))
    seats = need_seats(obj, 2)
    rounds = need_int({"rounds": options.get("rounds", 3)}, "rounds", 1, 9)
    if rounds % 2 == 0:
        raise RuleInputError(f"setup option 'rounds' must be odd (best of), got {rounds}")
    seed = need_int({"seed": options.get("seed", 0)}, "seed", 0, 2**63)
    return Setup(name, seats, {"rounds": rounds, "seed": seed})


def _next_draw(state: State, start: float) -> None:
    state.rng, out = splitmix64(state.rng)
    low, high = DRAW_AFTER_S
    state.draw_at = start + low + (high - low) * (out / 2**64)
    state.drawn = False


def new_state(setup: Setup) -> State:
    state = State(setup, setup.options["seed"], setup.options["rounds"])
    _next_draw(state, 0.0)
    return state


def check_event(setup: Setup, obj: dict[str, Any]) -> Event:
    if obj.get("event") != "press":
        raise RuleInputError(f"unknown event {obj.get('event')!r} (Quick Draw knows: press)")
    return {"event": "press", "t": check_time(obj), "seat": need_int(obj, "seat", 1, setup.seats)}


def advance(state: State, t: float) -> list[Cue]:
    if state.winner is None and not state.drawn and t >= state.draw_at:
        state.drawn = True
        return [Cue(state.draw_at, "say", "DRAW!"), Cue(state.draw_at, "sound", "countdown")]
    return []


def step(state: State, event: Event) -> list[Cue]:
    t, seat = event["t"], event["seat"]
    if t < state.draw_at - 2.0 and state.round > 1 and not state.drawn:
        return [Cue(t, "note", f"Seat {seat} presses between rounds")]
    if state.drawn:
        won, line = seat, f"Seat {seat} draws first and wins round {state.round}!"
    else:
        won, line = 3 - seat, f"False start by seat {seat}: seat {3 - seat} wins round {state.round}!"
    state.wins[won] += 1
    cues = [Cue(t, "say", line, (won,))]
    if state.wins[won] > state.rounds // 2:
        state.winner = won
        cues.append(Cue(t, "say", f"Seat {won} wins the game!", (won,)))
    else:
        state.round += 1
        _next_draw(state, t + ROUND_GAP_S)
    return cues


def finish(state: State) -> list[Cue]:
    return []


def is_over(state: State) -> bool:
    return state.winner is not None


def summary(state: State) -> dict[str, Any]:
    return {"game": name, "rounds": state.round, "wins": {str(s): n for s, n in state.wins.items()},
            "winner": state.winner}


def standings(summary: dict[str, Any]) -> list[str]:
    wins = summary["wins"]
    out = ["", "Standings", f"  seat 1: {wins['1']} rounds, seat 2: {wins['2']} rounds"]
    out.append(f"  Winner: seat {summary['winner']}" if summary["winner"] else "  No winner yet")
    return out
