"""The rules contract (``game.rules.base``) and the lookup of a game's pure rules module by name.

Each game's ``rules.py`` keeps the :class:`game.rules.base.Rules` contract: module-level ``name``,
``parse_setup``, ``new_state``, ``check_event``, ``advance``, ``step``, ``finish``, ``is_over`` and ``summary``;
optionally ``opening_cues(state)`` and ``standings(summary) -> list[str]`` for the play-by-play, and
``check_state(state, event)``, which raises for a move that is illegal in the current state without changing it, so the
journal never stores an event that ``step`` would refuse. The game comes from the plugin registry
(:mod:`game.registry`), so a game installed as a plugin replays like the project's own.
"""

from __future__ import annotations

from types import ModuleType

from game.rules.base import RuleInputError


def rules_for(game: object) -> ModuleType:
    """The rules module for a setup's ``game`` name, or a one-line error naming the known games."""
    from game.registry import UnknownGame, game_for

    try:
        return game_for(game).rules
    except UnknownGame as exc:
        raise RuleInputError(str(exc).replace("installed:", "known:")) from None
