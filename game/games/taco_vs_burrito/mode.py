"""Taco vs Burrito in the table app: the game's ``GAME`` object.

The shared loop (``game.table.loop.TableApp``) polls the panels, writes the journal in edge-time order and draws;
this mode gives it:

* :class:`~game.games.taco_vs_burrito.buttons.TacoMapper`: the hand browser (``game.games.taco_vs_burrito.buttons.HandBrowser``: LEFT/RIGHT/PLAY/NO BUENO), the No Bueno
  race and the bots for empty seats. NO BUENO presses are held as *pending* (the loop's hook for events that may
  not be final yet) until :data:`~game.games.taco_vs_burrito.buttons.RACE_S` after them has passed, so every contender is known: the
  earliest edge wins, presses of other seats within ``RACE_S`` after it lost the race and are dropped with the gap
  shown. Bot moves come out of the same hook (``due_sets``) at their scheduled times.
* a presenter that keeps the play-by-play and the ticker (the table view itself is the whole show: no moments);
* ``live_view``: the :class:`~game.games.taco_vs_burrito.buttons.TacoView` (``View.extra["taco"]``) drawn by ``game.games.taco_vs_burrito.screens``.

Bots: the lobby's "vs bots" choice gives every joined seat but the first to a bot (one person joins their own
panel and the seats the bots should take, then starts), so the game has as many seats as panels joined, as every
mode's setup does. Any game seat past the joined panels would be a bot's too.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

from game.games.taco_vs_burrito import rules as tvb
from game.games.taco_vs_burrito.buttons import (
    PanelBots,
    TacoMapper,
    build_view,
    seat_screen_view,
)
from game.rules.base import Cue
from game.table.mode import GameMode
from game.table.present import Presenter, SeatView, View

#: lobby label, rules options, hands mode, seats to fill with bots
VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("open meals", {"variant": "open"}),
    ("secret", {"variant": "secret"}),
    ("super secret", {"variant": "super-secret"}),
    ("learning: open hands", {"variant": "open", "hands": "open"}),
    ("vs bots (first seat plays)", {"variant": "open", "bots": True}),
)
#: a card id in the rules' announcements (``tummy-ache-3``, ``hot-sauce-boss``)
CARD_ID = re.compile(r"\b(ingredient|tummy-ache|hot-sauce-boss|health-inspector|no-bueno|crafty-crow|trash-panda|"
                     r"food-fight|order-envy)(?:-(\d+))?\b")


def card_words(text: str) -> str:
    """The rules name cards by id; players read names: ``tummy-ache-3`` -> "Tummy Ache 3"."""
    def name(m: re.Match[str]) -> str:
        words = m.group(1).replace("-", " ").title()
        return f"{words} {m.group(2)}" if m.group(2) else words

    return CARD_ID.sub(name, text)


class TacoPresenter(Presenter):
    """The play-by-play and the ticker; Taco vs Burrito has no moments (the table view shows everything)."""

    def feed(self, cues: list[Cue], host_t: float, state: Any, event: dict[str, Any] | None = None) -> None:
        super().feed(cues, host_t, state, event)
        for i, line in enumerate(self.ticker):  # what the screen shows: card names, never ids
            self.ticker[i] = card_words(line)

    def _say(self, cue: Cue, state: Any) -> None:
        return

    def _note(self, cue: Cue, host_t: float) -> None:
        return

    def _sound(self, cue: Cue, state: Any, host_t: float) -> None:
        return


class TacoVsBurrito(GameMode):
    name = tvb.name
    rules = tvb
    order = 30
    screens_module = "game.games.taco_vs_burrito.screens"  # its SCREENS draw a TacoView: see screens()
    title = "Taco vs Burrito"
    variants = VARIANTS
    seats = (2, 6)
    uses_devices = False
    demo_seats = 4

    def __init__(self) -> None:
        #: the hand display: "peek" unless the lobby chose open hands, "screens" when seat displays are on
        #: (``seat_screens``: a ``game.games.taco_vs_burrito.seat_screens.SeatScreens``, set by the app or from the environment
        #: variable ``BURRITO_SEAT_SCREENS``, e.g. ``1=ssd1306@i2c:1:0x3C,2=ssd1306@i2c:1:0x3D``)
        self.hands = "peek"
        self.bots_play_others = False
        self.seat_screens: Any = None

    def setup(self, seats: int, variant: int = 0, seed: int | None = None) -> dict[str, Any]:
        """The lobby's choice as a setup line; "vs bots" hands every joined seat but the first to a bot."""
        spec = os.environ.get("BURRITO_SEAT_SCREENS")
        if self.seat_screens is None and spec:
            from game.games.taco_vs_burrito.seat_screens import SeatScreens

            self.seat_screens = SeatScreens.open(spec)  # a bad spec is one line on the failsafe screen
        extra = dict(self.variants[variant][1])
        self.bots_play_others = bool(extra.pop("bots", False))
        hands = extra.pop("hands", None)
        self.hands = hands or ("screens" if self.seat_screens is not None else "peek")
        options: dict[str, Any] = dict(extra)
        if seed is not None:
            options["seed"] = seed
        return {"event": "setup", "game": self.name, "seats": seats, "options": options}

    def table_choices(self) -> dict[str, Any]:
        """The lobby's choices the setup line does not carry (hand display, bot seats): journaled for a resume."""
        return {"hands": self.hands, "bots_play_others": self.bots_play_others}

    def restore_choices(self, choices: dict[str, Any]) -> None:
        hands = str(choices.get("hands", "peek"))
        self.hands = "peek" if hands == "screens" and self.seat_screens is None else hands
        self.bots_play_others = bool(choices.get("bots_play_others", False))

    def demo_setup(self, seed: int) -> dict[str, Any]:
        self.hands, self.bots_play_others = "open", False
        return {"event": "setup", "game": self.name, "seats": self.demo_seats,
                "options": {"seed": seed, "variant": "open"}}

    def mapper(self, seatmap: list[int]) -> TacoMapper:
        def bot_seats(n: int) -> set[int]:
            first = 1 if self.bots_play_others else len(seatmap)
            return set(range(first + 1, n + 1))

        return TacoMapper(seatmap, bot_seats=bot_seats)

    def presenter(self, pace: float = 1.0) -> TacoPresenter:
        return TacoPresenter(pace)

    #: learning mode: what the buttons do on each screen
    hints = MappingProxyType({
        "taco_table": "LEFT / RIGHT: browse your hand   -   PLAY: play it   -   hold PLAY: peek",
        "taco_window": "Is that card against you? NO BUENO blocks it before the bar runs out",
    })

    def known_says(self, seats: int) -> list[str]:
        """The calls the announcer renders before play, so none waits for espeak-ng."""
        seat_ids = range(1, seats + 1)
        raw: list[str] = []
        raw += [f"{w}! Seat {a} blocks" for a in seat_ids for w in ("NO BUENO", "SI BUENO")]
        return raw

    def screens(self) -> dict[str, Callable[[Any, View], None]]:
        from game.games.taco_vs_burrito.screens import APP_SCREENS

        return APP_SCREENS

    def sample_views(self, seats: int = 4) -> dict[str, View]:
        from game.games.taco_vs_burrito.screens import app_sample_views

        return app_sample_views(seats)

    def standings(self, summary: dict[str, Any]) -> list[str]:
        return tvb.standings(summary)

    def bots(self, app: Any, rig: Any, seed: int, direct: bool) -> Any:
        """The demo's bots play at the mock pins, through the hand browser, as people would."""
        from game.table.sim import press

        levels = {s: ("hard", "normal", "easy", "normal")[(s - 1) % 4] for s in range(1, len(app.seatmap) + 1)}
        return PanelBots(app, lambda panel, button, down: press(rig, panel, button, down), levels, seed=seed,
                         pace=0.3)

    # -- what to draw ------------------------------------------------------------------------------------

    def seat_views(self, app: Any, now: float) -> list[SeatView]:
        st = app.state
        out = []
        for i, panel in enumerate(app.seatmap):
            sv = SeatView(seat=i + 1, panel=panel)
            if st is not None:
                sv.points = tvb.score(st, i + 1) if tvb.can_look(st, 0, i + 1) else 0
            out.append(sv)
        return out

    def decorate(self, app: Any, v: View) -> None:
        st = app.state
        if st is None:
            return
        mapper: TacoMapper = app.mapper
        now = app.clock()
        tv = v.extra["taco"] = self.table_view(app, now)
        players = app.live.table.setup.players if app.live is not None else {}
        for sp in tv.seats:  # the players' names on their seat panels
            p = players.get(sp.seat)
            sp.name = p.name if p is not None and p.name else ""
        if self.seat_screens is not None:
            table_now = now - app.hold_back_s - app.t0
            self.seat_screens.update(lambda seat: seat_screen_view(st, mapper.browser, seat, table_now))

    def table_view(self, app: Any, now: float) -> Any:
        st = app.state
        mapper: TacoMapper = app.mapper
        race = mapper.race_note[1] if mapper.race_note and now - mapper.race_note[0] < 2.5 else ""
        flash = {mapper.browser.seatmap[f.seat]: f.text for f in mapper.feedback
                 if now - f.t < 0.6 and f.seat in mapper.browser.seatmap}
        for seat, (t, why) in mapper.refused.items():  # a refused NO BUENO says why, long enough to read
            if now - t < 2.5:
                flash[seat] = f"NO BUENO? {why}"
        return build_view(st, mapper.browser, {s: b.level for s, b in mapper.bots.items()}, self.hands,
                          now - app.hold_back_s - app.t0, ticker=list(app.presenter.ticker), banner=app.banner,
                          race=race, flash=flash)

    def live_view(self, app: Any, v: View, now: float) -> None:
        tv = v.extra.get("taco")
        if tv is not None:
            v.screen = f"taco_{tv.screen}"
            if tv.hint and not v.hint:
                v.hint = tv.hint

    # -- the phone companion ----------------------------------------------------------------------------

    def phone_view(self, app: Any, seat: int, card: SeatView, now: float) -> dict[str, Any]:
        from game.games.taco_vs_burrito.phone import phone_view

        return phone_view(app, seat, now)

    def phone_public(self, app: Any) -> dict[str, Any]:
        from game.games.taco_vs_burrito.phone import phone_public

        return phone_public(app)

    def phone_move(self, app: Any, seat: int, move: dict[str, Any], t: float) -> str | None:
        from game.games.taco_vs_burrito.phone import phone_move

        return phone_move(app, seat, move, t)


GAME = TacoVsBurrito()
