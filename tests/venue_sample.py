"""Sample games for a busy venue: whole, valid games of the three games with named players, for the leaderboard
screenshot, the 50-table benchmark and tests. Seeded: the same seed gives the same games.

Zombie Burrito games come from its seeded bot (``game.games.zombie_burrito.sim``); Throw Throw Burrito and Taco vs
Burrito replay their shipped demo games with other players' names on the seats.
"""

from __future__ import annotations

import json
import random
from importlib import resources
from typing import Any

NAMES = ["Ana", "Bo", "Cy", "Dee", "Eli", "Fern", "Gus", "Hana", "Ike", "Jo", "Kai", "Lu", "Mo", "Nia", "Oz", "Pip"]


def _demo(game: str) -> list[dict[str, Any]]:
    package = "game.games." + game.replace("-", "_")
    text = resources.files(package).joinpath("data/demo.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def sample_games(n: int, seed: int = 0, names: list[str] | None = None) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """``n`` games as (setup, events); about one seat in six stays anonymous, as at a real table."""
    from game.games.zombie_burrito.sim import simulate

    rng = random.Random(seed)
    pool = names or NAMES
    demos = {g: _demo(g) for g in ("throw-throw-burrito", "taco-vs-burrito")}
    out = []
    for i in range(n):
        kind = rng.random()
        if kind < 0.4:
            log = demos["throw-throw-burrito"]
        elif kind < 0.7:
            log = demos["taco-vs-burrito"]
        else:
            log = simulate(seats=rng.randint(4, 6), seed=seed * 1000 + i)
        setup, events = dict(log[0]), log[1:]
        seats = int(setup["seats"])
        who = rng.sample(pool, min(seats, len(pool)))
        setup["players"] = {str(s): {"name": who[s - 1]} for s in range(1, seats + 1)
                            if s <= len(who) and rng.random() > 1 / 6}
        out.append((setup, events))
    return out
