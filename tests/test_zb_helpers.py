"""Small builders for Zombie Burrito logs, shared by the test_zb_* files (holds no tests itself)."""

from __future__ import annotations

import json
from typing import Any

from game.log import run_log
from game.rules.base import Cue

TEAMS_4 = {"zombies": [1, 2], "survivors": [3, 4]}


def ev(t: float, event: str, **fields: Any) -> dict[str, Any]:
    return {"t": t, "event": event, **fields}


def setup(seats: int = 4, **options: Any) -> dict[str, Any]:
    if "teams" not in options and seats == 4:
        options["teams"] = TEAMS_4
    return {"event": "setup", "game": "zombie-burrito", "seats": seats, "options": options}


def lines(events: list[dict[str, Any]], seats: int = 4, **options: Any) -> list[str]:
    return [json.dumps(setup(seats, **options))] + [json.dumps(e) for e in events]


def play(events: list[dict[str, Any]], seats: int = 4, **options: Any) -> tuple[dict[str, Any], list[Cue]]:
    """Replay a log and return the ``--json`` summary and every cue."""
    table, cues = run_log(lines(events, seats, **options))
    return table.summary(), cues


def said(cues: list[Cue]) -> str:
    return "\n".join(c.text for c in cues if c.kind in ("say", "note"))


def adv(t: float, seat: int, side: str, kind: str) -> dict[str, Any]:
    return ev(t, "advantage", seat=seat, side=side, kind=kind)


def throw_hit(t: float, thrower: int, target: int, burrito: int) -> list[dict[str, Any]]:
    """A throw and, 0.3 s later, its hit."""
    return [ev(t, "throw", seat=thrower, burrito=burrito), ev(t + 0.3, "hit", burrito=burrito, seat=target)]


def zombies_sweep(t: float, declarer: int = 1) -> list[dict[str, Any]]:
    """On the four-seat table: a battle declared by ``declarer`` in which Zombie 1 puts out 3 then 4."""
    return [ev(t, "declare", seat=declarer), *throw_hit(t + 1, 1, 3, 1), *throw_hit(t + 2, 1, 4, 1)]


def survivors_sweep(t: float, declarer: int = 3) -> list[dict[str, Any]]:
    """On the four-seat table: a battle in which Survivor 3 puts out 1 then 2."""
    return [ev(t, "declare", seat=declarer), *throw_hit(t + 1, 3, 1, 2), *throw_hit(t + 2, 3, 2, 2)]
