"""The games the table knows, found as plugins through the ``burrito_table.games`` entry-point group.

Every game, the project's own three included, is a package that exports one ``GAME`` object (a
:class:`game.table.mode.GameMode`) and names it in its distribution's entry points::

    [project.entry-points."burrito_table.games"]
    quick-draw = "my_house_rules.quick_draw:GAME"

so a maker's pip package adds a game or a house-rules variant without touching this repository, the way pibooth
plugins and gpiozero pin factories plug in. The table app, the log reader and the command line ask this registry; none
of them names a game. Games are loaded on first use and kept; :func:`refresh` looks again (a test that installs a
plugin at run time calls it).

>>> from game.registry import GAMES, game_for
>>> list(GAMES)[:3]
['throw-throw-burrito', 'zombie-burrito', 'taco-vs-burrito']
>>> game_for("zombie-burrito").title
'Zombie Burrito'
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any

from game.rules.base import brief

if TYPE_CHECKING:
    from game.table.mode import GameMode

GROUP = "burrito_table.games"

log = logging.getLogger(__name__)


class UnknownGame(ValueError):
    """A setup line or a command named a game no installed plugin provides."""


class PluginError(RuntimeError):
    """An installed game plugin could not be loaded, or is not a game."""


def _load(ep: EntryPoint) -> GameMode:
    from game.table.mode import GameMode

    try:
        obj: Any = ep.load()
    except Exception as exc:  # a plugin is someone else's code: name it, whatever it raised
        raise PluginError(f"game plugin {ep.name!r} ({ep.value}) failed to load: {type(exc).__name__}: {exc}") from exc
    if not isinstance(obj, GameMode):
        raise PluginError(f"game plugin {ep.name!r} ({ep.value}) is a {type(obj).__name__}, not a GameMode")
    if obj.name != ep.name:
        raise PluginError(f"game plugin {ep.name!r} ({ep.value}) calls itself {obj.name!r}: the names must match")
    return obj


class Registry(Mapping[str, "GameMode"]):
    """Every installed game by rules name, in lobby order (each game's ``order``, then its name)."""

    def __init__(self, group: str = GROUP) -> None:
        self.group = group
        self._games: dict[str, GameMode] | None = None

    def _all(self) -> dict[str, GameMode]:
        if self._games is None:
            found: dict[str, GameMode] = {}
            for ep in entry_points(group=self.group):
                if ep.name in found:
                    continue  # the same distribution seen twice on sys.path (an editable install): first wins
                found[ep.name] = _load(ep)
            self._games = dict(sorted(found.items(), key=lambda kv: (kv[1].order, kv[0])))
        return self._games

    def refresh(self) -> None:
        self._games = None

    def __getitem__(self, name: str) -> GameMode:
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


#: The installed games.
GAMES = Registry()


def refresh() -> None:
    """Look for installed games again."""
    GAMES.refresh()


def game_for(name: object) -> GameMode:
    """The game a setup line's ``game`` names, or a one-line error listing the installed games."""
    if isinstance(name, str) and name in GAMES:
        return GAMES[name]
    raise UnknownGame(f"unknown game {brief(name)} (installed: {', '.join(GAMES)})")  # a log's value: bounded


def lobby_choices() -> list[tuple[tuple[str, int], str]]:
    """Every (game, variant index) the lobby cycles through, with its label, in order."""
    out = []
    for game in GAMES.values():
        for i, (label, _) in enumerate(game.variants):
            out.append(((game.name, i), f"{game.title}: {label}"))
    return out
