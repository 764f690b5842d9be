"""The game contract: what a game must decide to be played at the table, and what it may leave to the defaults.

The loop (:class:`~game.table.loop.TableApp`), the lobby, the demo and the screens are shared by every game; what
differs is one object per game, a :class:`GameMode` subclass that the game's package exports as ``GAME`` and names in
the ``burrito_table.games`` entry points (:mod:`game.registry`). See :class:`GameMode` for the contract.

Example (a doctest, run by ``tests/test_app_modes.py``)::

    >>> from game.registry import GAMES, lobby_choices
    >>> ttb = GAMES["throw-throw-burrito"]
    >>> ttb.setup(seats=4, variant=1)
    {'event': 'setup', 'game': 'throw-throw-burrito', 'seats': 4, 'options': {'small_room': True}}
    >>> zb = GAMES["zombie-burrito"]
    >>> zb.uses_devices, zb.seats
    (True, (2, 6))
    >>> zb.setup(seats=4, seed=3)["options"]["teams"]  # teammates sit together: two arcs of the table
    {'zombies': [2, 3], 'survivors': [1, 4]}
    >>> [label for _, label in lobby_choices()][:3]
    ['Throw Throw Burrito: standard', 'Throw Throw Burrito: small room', 'Zombie Burrito: standard']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module, resources
from types import MappingProxyType, ModuleType
from typing import Any, Protocol, runtime_checkable

from game.table.buttons import ButtonMapper
from game.table.present import Presenter, SeatView, View
from hardware.events import SeatEvent


@runtime_checkable
class Mapper(Protocol):
    """What the loop asks of a mode's button mapper (``game.table.buttons.ButtonMapper`` is the reference).

    Optional, used when present: ``owns(ev) -> bool`` (a hold the mapper claims before the referee may take it as a
    challenge, e.g. a take-back) and ``lost(ev)`` (the release or hold of a press that the referee, the menu or the
    failsafe screen took: end what the press began, so nothing waits for a release the mapper never sees).
    """

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


class GameMode:
    """One game at the table. A game must decide five things; everything else has a default that fits most games.

    Must decide:
        ``name`` (the rules' name, also the entry-point name), ``title``, ``seats`` (fewest, most), ``rules`` (the
        pure rules module) and :meth:`seat_views` (rules state -> one ``SeatView`` per game seat).

    May change (defaults in brackets):
        ``variants`` (one "standard"), ``order`` in the lobby (100), ``uses_devices`` (False: no burritos, badges or
        referee), ``table_deals`` (True: the lobby's seed goes in the setup line), ``demo_seats`` (4),
        ``demo_length``; :meth:`setup` (the variant's options and the seed), :meth:`mapper` (the shared
        ``ButtonMapper``), :meth:`presenter` (the shared ``Presenter``), :meth:`battle_context` (no battle),
        :meth:`prepare` (nothing to add), :meth:`decorate` (nothing), :meth:`live_view` (the presenter's moment),
        :meth:`screens` and :meth:`sample_views` (the shared screens only), :meth:`standings` (the rules' ``standings``), :meth:`bots` (no demo
        players), :meth:`demo_setup` (``setup`` at ``demo_seats``), :meth:`table_choices` and
        :meth:`restore_choices` (no lobby choices beyond the setup line).

    The party host (``game.table.host``) asks, all optional: :meth:`howto` (how-to-play pages,
    ``game.table.howto.Page``: none, and the lobby offers none), ``hints`` (learning mode's line per screen name), ``house_options`` (the house
    settings that are this game's setup options: none), :meth:`known_says` (announcements worth rendering before
    play: none) and :meth:`demo_log` (the bot game attract mode replays: ``data/demo.jsonl`` beside the rules).
    """

    name: str
    title: str
    seats: tuple[int, int]
    rules: ModuleType
    variants: tuple[tuple[str, dict[str, Any]], ...] = (("standard", {}),)
    order: int = 100
    uses_devices: bool = False
    #: whether the lobby's random seed goes into the setup line (a game the table deals for needs one)
    table_deals: bool = True
    demo_seats: int = 4
    #: what the demo's bots play, for its first line
    demo_length: str = "a game to the end"
    #: learning mode: screen name -> what the buttons do right now
    hints: Mapping[str, str] = MappingProxyType({})
    #: house settings (``game.table.settings``) that are setup options of this game, e.g. ``("tie_window_ms",)``
    house_options: tuple[str, ...] = ()

    #: the module of the game's own screens, imported when first drawn (pygame and the drawing kit load then): its
    #: ``SCREENS``, ``sample_views(seats)`` and ``HOWTO`` are the defaults of :meth:`screens`, :meth:`sample_views`
    #: and :meth:`howto`
    screens_module: str = ""

    def _screens(self) -> Any:
        return import_module(self.screens_module) if self.screens_module else None

    def howto(self) -> tuple[Any, ...]:
        """How to play: 3-6 pages (``game.table.howto.Page``) for the lobby (hold WAR) and attract mode."""
        return tuple(getattr(self._screens(), "HOWTO", ()))

    def known_says(self, seats: int) -> list[str]:
        """The rules' announcements at ``seats`` seats that must never wait for the announcer to render them
        (countdowns, calls, hits), with seats as "Seat N": the announcer puts the names in."""
        return []

    def demo_log(self) -> list[str]:
        """The lines of a shipped bot game, for attract mode (``data/demo.jsonl`` in the rules' package)."""
        package = self.rules.__name__.rpartition(".")[0]
        return resources.files(package).joinpath("data/demo.jsonl").read_text(encoding="utf-8").splitlines()

    def seat_views(self, app: Any, now: float) -> list[SeatView]:
        raise NotImplementedError(f"{type(self).__name__} must say what each seat's card shows")

    def setup(self, seats: int, variant: int = 0, seed: int | None = None) -> dict[str, Any]:
        """The lobby's choice as a setup line: the variant's options, and the seed when one is given."""
        options = dict(self.variants[variant][1])
        if seed is not None:
            options["seed"] = seed
        return {"event": "setup", "game": self.name, "seats": seats, "options": options}

    def demo_setup(self, seed: int) -> dict[str, Any]:
        return self.setup(self.demo_seats, seed=seed)

    def mapper(self, seatmap: list[int]) -> Mapper:
        return ButtonMapper(seatmap)

    def presenter(self, pace: float = 1.0) -> Any:
        return Presenter(pace)

    def battle_context(self, state: Any) -> tuple[bool, frozenset[int]]:
        """Whether a battle is open for the referee, and who fights in it."""
        return False, frozenset()

    def prepare(self, state: Any, event: dict[str, Any]) -> list[dict[str, Any]]:
        """Table events the referee cannot know before ``event`` is written (Zombie Burrito's re-throws)."""
        return []

    def decorate(self, app: Any, v: View) -> None:
        return None

    def live_view(self, app: Any, v: View, now: float) -> None:
        """The presenter's current moment, if any, on the screen it names."""
        m = app.presenter.moment(now)
        if m is not None:
            v.screen, v.title, v.big, v.sub, v.gap = m.screen, m.title, m.big, m.sub, m.gap
            v.progress = max(0.0, min(1.0, (now - m.start) / m.duration)) if m.start >= 0 else 0.0

    def screens(self) -> dict[str, Callable[[Any, View], None]]:
        """Drawing functions for this game's own screen names (the shared ones need no entry)."""
        return dict(getattr(self._screens(), "SCREENS", {}))

    def sample_views(self, seats: int = 4) -> dict[str, View]:
        """One made-up ``View`` per screen of this game's own, with ``seats`` seats (the layout check draws every
        count from 2 to the game's most), for the screenshot tests (4 seats) and ``docs/screens``."""
        own = getattr(self._screens(), "sample_views", None)
        return dict(own(seats)) if own is not None else {}

    def standings(self, summary: dict[str, Any]) -> list[str]:
        own = getattr(self.rules, "standings", None)
        if own is not None:
            return list(own(summary))
        return [f"  {key}: {value}" for key, value in summary.items()]

    def bots(self, app: Any, rig: Any, seed: int, direct: bool) -> Any:
        raise NotImplementedError(f"{self.title} has no demo players")

    # -- the phone companion (``game.web``): what a seat's phone shows, and the moves a phone may send ----------

    def phone_view(self, app: Any, seat: int, card: SeatView, now: float) -> dict[str, Any]:
        """What ``seat``'s phone shows of the game, only what that seat may know (``card`` is its scoreboard card).
        Default: its points and bruises, and whether it fights in the battle on now (``battle_context``)."""
        _open, fighters = self.battle_context(app.state)
        return {"score": {"points": card.points, "bruises": card.bruises, "in_battle": seat in fighters}}

    def phone_public(self, app: Any) -> dict[str, Any]:
        """What every page (spectators too) may show of the game beyond the scoreboard. Default: nothing."""
        return {}

    def phone_move(self, app: Any, seat: int, move: dict[str, Any], t: float) -> str | None:
        """A move ``seat``'s phone sent at host time ``t``: put it in ``app.buffer`` if it is one of that seat's
        legal moves now and return None; else return why not (shown on that phone only)."""
        return f"{self.title} takes moves from the seat buttons only"

    def table_choices(self) -> dict[str, Any]:
        """The lobby's choices the setup line does not carry, journaled so a resume restores them."""
        return {}

    def restore_choices(self, choices: dict[str, Any]) -> None:
        return None
