"""One pure rules module per game, chosen by the setup line's ``game`` field.

Each module keeps the ``game.rules.base.Rules`` contract. Zombie Burrito and
Taco vs Burrito join this table as they are built.
"""

from __future__ import annotations

from types import ModuleType

from game.rules import throw_throw_burrito
from game.rules.base import RuleInputError

GAMES: dict[str, ModuleType] = {
    throw_throw_burrito.name: throw_throw_burrito,
}


def rules_for(game: object) -> ModuleType:
    """The rules module for a setup's ``game`` name, or a one-line error naming the known games."""
    try:
        return GAMES[game]  # type: ignore[index]
    except (KeyError, TypeError):
        known = ", ".join(sorted(GAMES))
        raise RuleInputError(f"unknown game {game!r} (known: {known})") from None
