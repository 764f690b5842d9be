"""The table as the party's host, around the loop: names and colours, how-to-play and learning hints in the lobby,
attract mode, the house settings in the table menu, and device warnings during play.

:class:`PartyHost` is owned by ``TableApp`` (``app.host``); the loop hands it lobby presses first, the table menu's
settings page, the device events and every View before it is drawn. It keeps the loop's own logic (rules, referee,
journal) untouched: what it adds is presentation and the setup line's ``players`` and windows.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

from firmware_bridge import supervise
from game.rules.players import Player, name_seats, players_json
from game.table import host_screens  # noqa: F401 - registers the host's screens with game.table.screens
from game.table import settings as hs
from game.table.attract import IDLE_S, Attract
from game.table.hints import learning_hint
from game.table.howto import howto_view, pages_of
from game.table.names import Naming, rgb
from game.table.present import View
from game.table.settings import SETTINGS_ITEMS

log = logging.getLogger(__name__)

#: a battery at or below this (percent) is shown on screen during play
LOW_BATTERY_PCT = 15


class DeviceWatch:
    """Battery and link of every device, from the heartbeats and link events the device host passes on."""

    def __init__(self) -> None:
        self.battery: dict[str, int] = {}
        self.link: dict[str, str] = {}

    def event(self, ev: Any) -> None:
        state = getattr(ev, "state", None)
        if state in ("online", "offline"):
            if self.link.get(ev.device) != state and state == "offline":
                log.warning("device %s offline: %s", ev.device, getattr(ev, "detail", ""))
            self.link[ev.device] = state
        pct = getattr(ev, "battery_pct", None)
        if pct is not None and hasattr(ev, "pending"):
            before = self.battery.get(ev.device)
            self.battery[ev.device] = int(pct)
            if pct <= LOW_BATTERY_PCT and (before is None or before > LOW_BATTERY_PCT):
                log.warning("device %s battery low: %s%%", ev.device, pct)

    def warnings(self, seat_of: dict[str, int]) -> list[str]:
        """One short line per problem: offline devices first (they stop calls), then low batteries."""
        def who(device: str) -> str:
            seat = seat_of.get(device)
            return f"{device} (seat {seat})" if seat else device

        out = [f"{who(d)} offline" for d, s in sorted(self.link.items()) if s == "offline"]
        out += [f"{who(d)} battery {pct}%" for d, pct in sorted(self.battery.items())
                if pct <= LOW_BATTERY_PCT and self.link.get(d) != "offline"]
        return out


class PartyHost:
    """Names, how-to-play, learning, attract mode, house settings and device warnings for one ``TableApp``."""

    def __init__(self, app: Any, settings: hs.HouseSettings | None = None, settings_file: Path | None = None,
                 idle_s: float | None = None) -> None:
        self.app = app
        self.settings = settings or hs.HouseSettings()
        self.settings_file = settings_file  # None: changes last until the table stops
        self.naming = Naming()
        self.howto: tuple[str, int] | None = None  # (game, page) while a lobby seat reads the how-to
        finished = [g for g, done in app.journal.games() if done]
        self.learning = not finished  # a table's first game teaches
        # the bot demo is a table like this one: made from the app's own class (the loop imports this module)
        self.attract = Attract(app.journal, app.clock, type(app), idle_s if idle_s is not None else IDLE_S)
        self.watch = DeviceWatch()
        self.menu_page = "main"
        self.menu_cursor = 0
        self.changes: list[str] = []  # "tie_window_ms=35": what the menu changed (tests, the log)
        self._lobby_changed = False
        self.apply()

    # -- settings --------------------------------------------------------------------------------------

    def apply(self) -> None:
        """Put the settings into effect: sound level and voice, light brightness, the countdown's length."""
        sound = self.app.sound
        if sound is not None:
            sound.set_volume(self.settings.volume / 10)
            sound.voice_on = self.settings.voice
        lights = getattr(self.app.panels, "lights", None)
        if lights is not None and hasattr(lights, "brightness"):
            lights.brightness = self.settings.brightness / 100
        self.app.presenter.countdown_s = self.settings.countdown_s

    def change(self, name: str, direction: int = 1) -> None:
        """One setting one step, saved at once (a restart keeps it); the windows apply from the next game."""
        self.settings = hs.bump(self.settings, name, direction)
        self.changes.append(f"{name}={getattr(self.settings, name)}")
        log.info("house setting %s", self.changes[-1])
        if self.settings_file is not None:
            try:
                hs.save(self.settings, self.settings_file)
            except OSError as exc:
                log.warning("house settings not saved to %s: %s", self.settings_file, exc)
        self.apply()
        if name == "game" and self.app.lobby is not None:
            self.point_lobby_at(self.settings.game)

    def point_lobby_at(self, game: str) -> None:
        lobby = self.app.lobby
        if lobby is None:
            return
        for i, ((name, _), _) in enumerate(lobby.choices):
            if name == game:
                lobby.variant = i
                return

    def next_game(self) -> str:
        """The game after the one on the table, in lobby order (what "switch game" switches to)."""
        names = hs.games()
        here = names.index(self.app.mode.name) if self.app.mode.name in names else -1
        return names[(here + 1) % len(names)]

    def menu_items(self) -> list[str]:
        return [hs.shown(self.settings, k) if k != "switch" else f"Switch game now: {hs.title_of(self.next_game())}"
                for k in SETTINGS_ITEMS]

    def settings_press(self, button: str) -> None:
        """The settings page: BRAWL / WAR move, SET changes the value (or switches game), DUEL back."""
        if button == "BRAWL":
            self.menu_cursor = (self.menu_cursor - 1) % len(SETTINGS_ITEMS)
        elif button == "WAR":
            self.menu_cursor = (self.menu_cursor + 1) % len(SETTINGS_ITEMS)
        elif button == "DUEL":
            self.menu_page = "main"
        elif button == "SET":
            item = SETTINGS_ITEMS[self.menu_cursor]
            if item == "switch":
                self.settings = replace(self.settings, game=self.next_game())
                self.change("game", 0)
                self.menu_page = "main"
                self.app.menu_open = False
                self.app.requests.append("switch")
            else:
                self.change(item)

    def switch(self) -> None:
        """End the game in progress (kept in the journal) and open the lobby on the house game."""
        self.app.abandon()
        self.point_lobby_at(self.settings.game)

    # -- the lobby -------------------------------------------------------------------------------------

    def lobby_event(self, ev: Any, now: float) -> bool:
        """A seat event in the lobby: True if the host used it (the lobby must not act on it)."""
        if ev.action == "press" and self.attract.touch(now):
            return True
        if ev.action != "press" and ev.action != "hold":
            return False
        self.attract.last_input = now
        lobby = self.app.lobby
        if self.howto is not None:
            if ev.action == "press":
                game, page = self.howto
                if ev.button == "WAR":
                    self.howto = (game, (page + 1) % len(pages_of(game)))
                elif ev.button == "BRAWL":
                    self.howto = (game, (page - 1) % len(pages_of(game)))
                else:
                    self.howto = None
            return True
        if lobby is None or lobby.resume is not None or ev.seat not in lobby.joined:
            return False
        if ev.action == "hold":
            if ev.button == "WAR" and pages_of(lobby.mode.name):  # a game without pages offers none
                self.howto = (lobby.mode.name, 0)
                return True
            if ev.button == "BRAWL":
                self.learning = not self.learning
                return True
            if ev.button == "SET":
                self.naming.forget(ev.seat)
            return False
        if ev.button in ("BRAWL", "WAR") and not self.naming.editing(ev.seat):
            self._lobby_changed = True  # the lobby steps its game: render that game's phrases next tick
        if self.naming.editing(ev.seat):
            self.naming.button(ev.seat, ev.button)
            if ev.button != "DUEL":
                self.prepare_phrases()
            return True
        if ev.button == "SET":
            self.naming.open(ev.seat)
            self.prepare_phrases()
            return True
        return False

    def key(self, name: str, text: str) -> bool:
        """A keyboard key while the lobby is up: typing into an open name card."""
        if self.app.lobby is None:
            return False
        used = self.naming.key(name, text)
        if used and self.naming.typist() is None:
            self.prepare_phrases()
        return used

    def players(self, seatmap: list[int]) -> dict[int, Player]:
        return self.naming.players(seatmap)

    def prepare_phrases(self) -> None:
        """The announcer renders this lobby's names now, so the opening countdown is not late."""
        lobby = self.app.lobby
        sound = self.app.sound
        if lobby is None or sound is None:
            return
        if not lobby.joined:  # nobody yet: every seat a panel could be, anonymous
            sound.prepare(lobby.mode.name, lobby.panels)
            return
        seatmap = sorted(lobby.joined)
        sound.prepare(lobby.mode.name, len(seatmap), self.players(seatmap))

    def setup(self, setup: dict[str, Any], seatmap: list[int]) -> dict[str, Any]:
        """The lobby's setup line with the players' names and the house windows (where they change play)."""
        out = dict(setup)
        players = players_json(self.players(seatmap))
        if players:
            out["players"] = players
        extra = hs.setup_options(self.settings, str(setup.get("game")))
        if extra:
            out["options"] = {**setup.get("options", {}), **extra}
        return out

    def started(self) -> None:
        """A game began (or resumed): its phrases with names are rendered, the settings reach the new presenter."""
        self.apply()
        live = self.app.live
        if live is not None and self.app.sound is not None:
            setup = live.table.setup
            self.app.sound.prepare(setup.game, setup.seats, setup.players)

    def tick(self, now: float) -> None:
        if self._lobby_changed:
            self._lobby_changed = False
            self.prepare_phrases()
        if self.app.lobby is not None and not self.app.menu_open and self.howto is None:
            self.attract.tick(now)
        elif self.attract.active:
            self.attract.leave()

    # -- what to draw ----------------------------------------------------------------------------------

    def lobby_view(self, now: float, banner: str) -> View | None:
        """The attract show or a how-to page in place of the lobby, or None for the lobby itself."""
        if self.attract.active:
            return self.attract.view(now, banner)
        if self.howto is not None:
            return howto_view(*self.howto, banner=banner)
        return None

    def decorate_lobby(self, v: View) -> None:
        for sv in v.seats:
            card = self.naming.cards.get(sv.panel)
            if card is None or sv.role != "joined":
                continue
            sv.name = card.typing + "_" if card.typing is not None else (card.name or "")
            sv.colour = rgb(card.colour)
            if card.editing:
                sv.note = "type, Enter keeps" if card.typing is not None else "BRAWL/WAR name  SET colour  DUEL ok"
        if v.screen == "lobby":
            v.extra["host_hint"] = "joined: tap SET for your name  -  hold WAR: how to play  -  hold BRAWL: learning " + (
                "on" if self.learning else "off")

    def decorate(self, v: View, now: float) -> None:
        """A live game's View: names on seats and in the texts, learning hints, device warnings."""
        live = self.app.live
        players = live.table.setup.players if live is not None else {}
        if players:
            for sv in v.seats:
                p = players.get(sv.seat)
                if p is not None:
                    sv.name = p.name or ""
                    sv.colour = rgb(p.colour)
            v.title = name_upper(name_seats(v.title, players), players)
            v.sub = name_seats(v.sub, players)
            v.gap = name_seats(v.gap, players)
            v.ticker = [name_seats(t, players) for t in v.ticker]
            if v.big.startswith("SEAT "):
                v.big = name_upper(v.big, players)
        if self.learning and v.screen not in ("menu", "failsafe", "question", "settings"):
            hint = learning_hint(v)
            if hint:
                v.hint = hint
        seat_of = {**{name: seat for name, seat in self.app.device_map.badges.items()}}
        parts = parts_down()
        warnings = parts + self.watch.warnings(seat_of)
        if warnings and v.screen not in ("failsafe",):
            v.extra["device_warnings"] = warnings
            # in the top band, instead of the simulation banner: never under a seat card or a call
            more = f"   (+{len(warnings) - 2} more)" if len(warnings) > 2 else ""
            v.banner = ("TABLE: " if parts else "DEVICES: ") + "   |   ".join(str(w) for w in warnings[:2]) + more

    def settings_view(self, v: View) -> None:
        v.screen, v.title = "settings", "HOUSE SETTINGS"
        v.options = self.menu_items()
        v.cursor = self.menu_cursor
        v.hint = "BRAWL / WAR move  -  SET change  -  DUEL back   (windows: from the next game)"


def parts_down() -> list[str]:
    """A line for each background part that failed and is not back yet (the supervisor restarts it): the game goes
    on, and the table says what is missing (no phones, no voice, no devices) until it returns."""
    return [f"{s.name} down, restarting" for s in supervise.down()]


def name_upper(text: str, players: dict[int, Player]) -> str:
    """ "SEAT 3 PLAYS" -> "ANA PLAYS" for the screens' shouting titles."""
    if not players or "SEAT " not in text:
        return text
    shout = {s: Player(p.name.upper() if p.name else None, p.colour) for s, p in players.items()}
    return name_seats(text.replace("SEAT ", "Seat "), shout).replace("Seat ", "SEAT ")


def load_settings(path: Path | None) -> tuple[hs.HouseSettings, list[str]]:
    """The house settings for ``burrito-table play`` (problems are printed, never fatal)."""
    if path is None:
        return hs.HouseSettings(), []
    settings, problems = hs.load(path)
    return replace(settings), problems
