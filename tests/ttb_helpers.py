"""Small builders for Throw Throw Burrito logs, shared by the rules, property and journal tests."""

from __future__ import annotations

import json
from typing import Any

from game.log import run_log
from game.rules.base import Cue


def ev(t: float, event: str, **fields: Any) -> dict[str, Any]:
    return {"t": t, "event": event, **fields}


def setup(seats: int = 4, **options: Any) -> dict[str, Any]:
    return {"event": "setup", "game": "throw-throw-burrito", "seats": seats, "options": options}


def lines(events: list[dict[str, Any]], seats: int = 4, **options: Any) -> list[str]:
    return [json.dumps(setup(seats, **options))] + [json.dumps(e) for e in events]


def play(events: list[dict[str, Any]], seats: int = 4, **options: Any) -> tuple[dict[str, Any], list[Cue]]:
    """Replay a log and return the ``--json`` summary and every cue."""
    table, cues = run_log(lines(events, seats, **options))
    return table.summary(), cues


def said(cues: list[Cue]) -> str:
    return "\n".join(c.text for c in cues if c.kind in ("say", "note"))


def penalty(t: float, seat: int) -> dict[str, Any]:
    """A grab with no battle on: the quickest way to hand a seat a bruise."""
    return ev(t, "grab", seat=seat, burrito=1)


def hit_battle(t: float, declarer: int, kind: str, thrower: int, target: int, burrito: int = 1) -> list[dict[str, Any]]:
    """Declare a battle, wait out the declaration window, and have ``thrower`` hit ``target``."""
    return [
        ev(t, "declare", seat=declarer, battle=kind),
        ev(t + 1.0, "grab", seat=thrower, burrito=burrito),
        ev(t + 1.2, "throw", seat=thrower, burrito=burrito),
        ev(t + 1.5, "hit", burrito=burrito, seat=target),
    ]
