"""Game modes: the seam through which each game plugs into the table app.

The loop (:class:`~game.app.loop.TableApp`), the lobby, the demo and the screens are shared by every game; what
differs is gathered in one object per game, a :class:`GameMode`, registered in :data:`MODES` under the rules'
name (``game.rules.RULES``). A mode says:

* ``title``, ``variants`` and ``seats``: what the lobby offers, and ``setup(seats, variant, seed)`` the setup line
  that the lobby's choice journals;
* ``mapper(seatmap)``: its button mapper (seat events + rules state -> table events, see ``Mapper``);
* ``presenter(pace)``, ``seat_views``/``decorate``/``live_view`` and ``screens()``: cues -> moments,
  rules state -> the ``View``, and the drawing functions for its own screen names;
* ``uses_devices`` and ``battle_context(state)``: whether burritos, badges and the referee take part, and what the
  referee must know after each step (a battle open? who may throw?); ``prepare(state, event)`` may add table
  events the referee cannot know before a call is written (Zombie Burrito's re-throws);
* ``demo_seats``, ``demo_setup(seed)``, ``bots(app, rig, seed, direct)`` and ``standings(summary)``: the demo.

Example (a doctest, run by ``tests/test_app_modes.py``)::

    >>> from game.app.modes import MODES, lobby_choices
    >>> ttb = MODES["throw-throw-burrito"]
    >>> ttb.setup(seats=4, variant=1)
    {'event': 'setup', 'game': 'throw-throw-burrito', 'seats': 4, 'options': {'small_room': True}}
    >>> zb = MODES["zombie-burrito"]
    >>> zb.uses_devices, zb.seats
    (True, (2, 6))
    >>> zb.setup(seats=4, seed=3)["options"]["teams"]  # teammates sit together: two arcs of the table
    {'zombies': [2, 3], 'survivors': [1, 4]}
    >>> [label for _, label in lobby_choices()][:3]
    ['Throw Throw Burrito: standard', 'Throw Throw Burrito: small room', 'Zombie Burrito: standard']

Taco vs Burrito plugs in the same way: a module ``game.app.taco_mode`` with a ``MODE`` object is registered under
its ``name`` when it exists (it is built by another engineer; until then the lobby offers the two burrito games).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from game.app.present import SeatView, View
from hardware.events import SeatEvent


@runtime_checkable
class Mapper(Protocol):
    """What the loop asks of a mode's button mapper (``game.app.buttons.ButtonMapper`` is the reference)."""

    seatmap: list[int]
    feedback: list[Any]
    notes: list[tuple[float, str]]
    pending: list[Any]

    def handle(self, ev: SeatEvent, state: Any) -> list[dict[str, Any]]: ...
    def track(self, ev: SeatEvent) -> dict[str, float]: ...
    def sync(self, state: Any) -> None: ...
    def combos(self, now: float) -> list[int]: ...
    def combo_progress(self, now: float) -> tuple[int, float] | None: ...
    def oldest_pending(self) -> float | None: ...
    def due_sets(self, until: float, force_before: float | None = None) -> list[dict[str, Any]]: ...
    def blocks(self, t: float) -> bool: ...


@runtime_checkable
class GameMode(Protocol):
    """One game at the table (see the module docstring)."""

    name: str
    title: str
    variants: tuple[tuple[str, dict[str, Any]], ...]
    seats: tuple[int, int]
    uses_devices: bool
    demo_seats: int

    def setup(self, seats: int, variant: int = 0, seed: int | None = None) -> dict[str, Any]: ...
    def mapper(self, seatmap: list[int]) -> Mapper: ...
    def presenter(self, pace: float = 1.0) -> Any: ...
    def battle_context(self, state: Any) -> tuple[bool, frozenset[int]]: ...
    def prepare(self, state: Any, event: dict[str, Any]) -> list[dict[str, Any]]: ...
    def seat_views(self, app: Any, now: float) -> list[SeatView]: ...
    def decorate(self, app: Any, v: View) -> None: ...
    def live_view(self, app: Any, v: View, now: float) -> None: ...
    def screens(self) -> dict[str, Callable[[Any, View], None]]: ...
    def demo_setup(self, seed: int) -> dict[str, Any]: ...
    def bots(self, app: Any, rig: Any, seed: int, direct: bool) -> Any: ...
    def standings(self, summary: dict[str, Any]) -> list[str]: ...


def _load() -> dict[str, GameMode]:
    from game.app.mode_ttb import ThrowThrowBurrito
    from game.app.mode_zombie import ZombieBurrito

    out: dict[str, GameMode] = {}
    for mode in (ThrowThrowBurrito(), ZombieBurrito()):
        out[mode.name] = mode
    try:
        taco: Any = importlib.import_module("game.app.taco_mode")
    except ModuleNotFoundError as exc:
        if exc.name != "game.app.taco_mode":
            raise
    else:
        mode = taco.MODE
        out[mode.name] = mode
    return out


#: Every game the table plays, by rules name, in lobby order.
MODES: dict[str, GameMode] = _load()


def mode_for(game: str) -> GameMode:
    """The mode of a setup line's ``game``; a clear error for a game the table app cannot show."""
    try:
        return MODES[game]
    except KeyError:
        raise ValueError(f"the table app has no mode for game {game!r} (it knows: {', '.join(MODES)})") from None


def lobby_choices() -> list[tuple[tuple[str, int], str]]:
    """Every (game, variant index) the lobby cycles through, with its label, in order."""
    out = []
    for mode in MODES.values():
        for i, (label, _) in enumerate(mode.variants):
            out.append(((mode.name, i), f"{mode.title}: {label}"))
    return out
