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
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any

from game.rules.base import bound, brief

if TYPE_CHECKING:
    from game.table.mode import GameMode

GROUP = "burrito_table.games"

log = logging.getLogger(__name__)


class UnknownGame(ValueError):
    """A setup line or a command named a game no installed plugin provides."""


class PluginError(RuntimeError):
    """An installed game plugin could not be loaded, or is not a game."""


#: What every game must have (``GameMode`` says why), and what its rules module must define (``game.rules.base.Rules``).
NEEDS = ("name", "title", "seats", "rules")
RULES_NEEDS = ("parse_setup", "new_state", "check_event", "advance", "step", "finish", "is_over", "summary")


@dataclass(frozen=True)
class Plugin:
    """One entry point of the group, loaded or not: what ``burrito-table games`` lists and the lobby notes."""

    name: str
    value: str
    distribution: str
    version: str
    game: GameMode | None = None
    cause: str = ""

    @property
    def ok(self) -> bool:
        return self.game is not None

    def line(self) -> str:
        """The one line that names a broken plugin: entry point, distribution and cause."""
        return bound(f"game plugin {brief(self.name)} ({self.distribution} {self.version}, {self.value}) "
                     f"not loaded: {self.cause}", 400)


def _dist(ep: EntryPoint) -> tuple[str, str]:
    dist = getattr(ep, "dist", None)
    if dist is None:
        return "?", "?"
    try:
        return str(dist.name or "?"), str(dist.version or "?")
    except Exception:  # broken metadata of someone else's package: the plugin is still named
        return "?", "?"


def _check(ep: EntryPoint, obj: Any) -> str:
    """Why ``obj`` is not a usable game, or "" (checked at load, so a bad plugin fails at start, not mid-game)."""
    from game.table.mode import GameMode

    if not isinstance(obj, GameMode):
        return f"GAME is a {type(obj).__name__}, not a GameMode"
    missing = [key for key in NEEDS if not hasattr(obj, key)]
    if missing:
        return f"its GameMode has no {', '.join(missing)}"
    if obj.name != ep.name:
        return f"it calls itself {brief(obj.name)}: the names must match"
    seats = obj.seats
    if not (isinstance(seats, tuple) and len(seats) == 2 and all(type(n) is int for n in seats)
            and 1 <= seats[0] <= seats[1]):
        return f"seats is {brief(seats)}, not (fewest, most)"
    lacking = [fn for fn in RULES_NEEDS if not callable(getattr(obj.rules, fn, None))]
    if lacking:
        return f"its rules module has no {', '.join(lacking)}"
    if obj.screens_module:
        try:
            found = find_spec(obj.screens_module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            return f"its screens module {brief(obj.screens_module)} (SCREENS, sample_views, HOWTO) is not installed"
    return ""


def _load(ep: EntryPoint) -> Plugin:
    """One entry point on its own: whatever a plugin's import raises stops that plugin only."""
    dist, version = _dist(ep)
    try:
        obj: Any = ep.load()
        cause = _check(ep, obj)
    except (Exception, SystemExit) as exc:  # someone else's code: name it, whatever it raised
        cause = f"{type(exc).__name__}: {exc}"
    if cause:
        return Plugin(ep.name, ep.value, dist, version, cause=bound(cause, 300))
    return Plugin(ep.name, ep.value, dist, version, game=obj)


class Registry(Mapping[str, "GameMode"]):
    """Every installed game that loads, by rules name, in lobby order (each game's ``order``, then its name).

    A plugin that does not load is left out and kept in :meth:`broken`: one bad package stops only itself.
    """

    def __init__(self, group: str = GROUP) -> None:
        self.group = group
        self._games: dict[str, GameMode] | None = None
        self._plugins: list[Plugin] = []

    def _all(self) -> dict[str, GameMode]:
        if self._games is None:
            seen: dict[str, Plugin] = {}
            for ep in entry_points(group=self.group):
                if ep.name in seen:
                    continue  # the same distribution seen twice on sys.path (an editable install): first wins
                seen[ep.name] = _load(ep)
            found = {p.name: p.game for p in seen.values() if p.game is not None}
            self._games = dict(sorted(found.items(), key=lambda kv: (kv[1].order, kv[0])))
            self._plugins = sorted(seen.values(), key=lambda p: (p.game.order if p.game else 10**9, p.name))
        return self._games

    def plugins(self) -> list[Plugin]:
        """Every entry point of the group, loaded or broken, in lobby order (the broken ones last)."""
        self._all()
        return list(self._plugins)

    def broken(self) -> list[Plugin]:
        """The plugins that did not load, each with its one-line cause."""
        return [p for p in self.plugins() if not p.ok]

    def loaded(self) -> bool:
        """Whether the entry points have been looked at since the last :meth:`refresh`."""
        return self._games is not None

    def refresh(self) -> None:
        self._games = None
        self._plugins = []

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


def broken() -> list[Plugin]:
    """The installed game plugins that did not load, each with the one line that says why."""
    return GAMES.broken()


def game_for(name: object) -> GameMode:
    """The game a setup line's ``game`` names, or a one-line error listing the installed games."""
    if isinstance(name, str) and name in GAMES:
        return GAMES[name]
    bad = next((p for p in GAMES.broken() if p.name == name), None)
    if bad is not None:
        raise UnknownGame(bad.line())
    raise UnknownGame(f"unknown game {brief(name)} (installed: {', '.join(GAMES)})")  # a log's value: bounded


def lobby_choices() -> list[tuple[tuple[str, int], str]]:
    """Every (game, variant index) the lobby cycles through, with its label, in order."""
    out = []
    for game in GAMES.values():
        for i, (label, _) in enumerate(game.variants):
            out.append(((game.name, i), f"{game.title}: {label}"))
    return out
