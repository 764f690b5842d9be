"""One pure rules module per game, chosen by the setup line's ``game`` field.

Each module keeps the ``game.rules.base.Rules`` contract: module-level
``name``, ``parse_setup``, ``new_state``, ``check_event``, ``advance``,
``step``, ``finish``, ``is_over`` and ``summary``; optionally
``opening_cues(state)`` and ``standings(summary) -> list[str]`` for the
play-by-play, and ``check_state(state, event)``, which raises for a move that
is illegal in the current state without changing it, so the journal never
stores an event that ``step`` would refuse. Modules are imported on first use, so a table running one game
does not load the others.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from game.rules.base import RuleInputError

GAMES: dict[str, str] = {
    "throw-throw-burrito": "game.rules.throw_throw_burrito",
    "zombie-burrito": "game.rules.zombie_burrito",
    "taco-vs-burrito": "game.rules.taco_vs_burrito",
}


def rules_for(game: object) -> ModuleType:
    """The rules module for a setup's ``game`` name, or a one-line error naming the known games."""
    if not isinstance(game, str) or game not in GAMES:
        known = ", ".join(sorted(GAMES))
        raise RuleInputError(f"unknown game {game!r} (known: {known})")
    return importlib.import_module(GAMES[game])
