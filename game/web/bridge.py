"""The table loop's side of the companion: inputs from phones in, snapshots for the server out.

The server thread never reads the game state (the rules mutate it in place on the loop's thread). Instead:

* the server puts :class:`WebEvent` objects on :attr:`TableBridge.inbox` (a ``queue.SimpleQueue``) and wakes the
  loop, exactly as the seat panels' edges do; the loop drains it in :meth:`TableBridge.pump`, next to the device
  host's queue, and applies each input through the paths the buttons use: a button tap is a
  :class:`~hardware.events.SeatEvent` into ``TableApp.seat_event``; a move goes to the game's ``phone_move``
  (``game.table.mode.GameMode``), which writes it only if it is one of the seat's own legal moves;
* :meth:`TableBridge.publish` builds a :class:`Snapshot` of plain JSON-ready dicts at most every ``publish_s``
  and hands it over by swapping one reference; private views are built per panel here by the game's
  ``phone_view`` (only what that seat may know), so a seat's data never reaches the server for another seat's socket.

No game is named here: each game says what its phones show and accept through its ``GameMode``.

Anything that goes wrong here is logged and counted, never raised into the loop: the game goes on.
"""

from __future__ import annotations

import logging
import queue
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from game.rules.players import name_seats
from game.table.names import TextError, clean_name
from game.web.tokens import TokenBook
from hardware.events import SeatEvent

log = logging.getLogger(__name__)

#: the wired buttons a phone may tap (the panel's own four)
BUTTONS = ("SET", "BRAWL", "WAR", "DUEL")
OPERATOR_ACTIONS = ("pause", "resume", "restart")
#: matched whole (``fullmatch``): ``$`` alone would let a trailing newline through
COLOUR_RE = re.compile(r"#[0-9a-fA-F]{6}")
#: a move's field names, and at most how many (the game checks the move itself against its legal moves)
MOVE_KEY_RE = re.compile(r"[a-z_]{1,16}")
MOVE_MAX_KEYS = 8


@dataclass(frozen=True)
class WebEvent:
    """One input from a page: ``kind`` is tap, move, player or operator; ``panel`` 0 for the operator.

    ``t`` is the host time (``time.monotonic``) the server received it: a tap is stamped with it as a button edge
    is with its kernel time. ``sent`` is the page's own send time when a benchmark gives one.
    """

    kind: str
    panel: int
    t: float
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Snapshot:
    """What the pages may show, as of host time ``t``: ``public`` for everyone, ``private[panel]`` for one phone,
    ``operator`` behind the PIN. ``version`` grows with every change, ``public_version`` only when ``public`` changed
    (a spectator is sent nothing new otherwise). ``public["table_now"]`` is the game's clock at ``t``, so a page
    can count a deadline down itself between snapshots."""

    version: int = 0
    t: float = 0.0
    session: str = ""
    public: dict[str, Any] = field(default_factory=dict)
    private: dict[int, dict[str, Any]] = field(default_factory=dict)
    operator: dict[str, Any] = field(default_factory=dict)
    public_version: int = 0


class TableBridge:
    """Queue in, snapshots out. Built by the runner, attached as ``TableApp.web``; the server holds it too."""

    def __init__(self, panels: int, *, publish_s: float = 0.1, clock: Callable[[], float] = time.monotonic) -> None:
        self.panels = panels
        self.book = TokenBook(panels)
        self.inbox: queue.SimpleQueue[WebEvent] = queue.SimpleQueue()
        self.publish_s = publish_s
        self.clock = clock
        self.snapshot = Snapshot(session=self.book.session)
        #: called (on the loop's thread) after a new snapshot is in place; the server wakes its sockets from it
        self.listeners: list[Callable[[Snapshot], None]] = []
        #: set on every input, like ``PanelSource.woken``: the runner passes the panels' event so one wait serves both
        self.woken: threading.Event = threading.Event()
        #: per panel: the last answer to its input ("not your turn"), shown on that phone only
        self.notes: dict[int, tuple[float, str]] = {}
        self.errors = 0
        self.applied = 0
        #: (received t, applied t, page's sent t or None) of recent inputs, for the benchmark
        self.latency: list[tuple[float, float, float | None]] = []
        self.record_latency = False
        self._last_publish = float("-inf")
        self._stable: Any = None
        self._lobby: Any = None  # the lobby seen last, held so that a new one is never mistaken for it
        self._health_t = float("-inf")
        self._health: list[dict[str, Any]] = []
        self._dirty = True
        self._hooked: Any = None
        self._live: Any = None
        self._last_key: Any = None
        self._built = float("-inf")

    # -- the server's side (any thread) ----------------------------------------------------------------

    def put(self, ev: WebEvent) -> None:
        self.inbox.put(ev)
        self.woken.set()

    # -- the loop's side -------------------------------------------------------------------------------

    def pump(self, app: Any, now: float) -> None:
        """Apply every queued input (called by the loop at the top of each step)."""
        while not self.inbox.empty():
            try:
                ev = self.inbox.get_nowait()
            except queue.Empty:
                break
            self._dirty = True
            try:
                self._apply(app, ev, now)
                self.applied += 1
            except Exception as exc:  # noqa: BLE001 - a bad input from a phone never stops the table
                self.errors += 1
                log.warning("phone input not applied: %s: %s", ev, exc)
            if self.record_latency:
                self.latency.append((ev.t, self.clock(), ev.data.get("sent")))

    def _note(self, panel: int, text: str) -> None:
        self.notes[panel] = (self.clock(), text)

    def _apply(self, app: Any, ev: WebEvent, now: float) -> None:
        if ev.kind == "tap":
            button = ev.data["button"]
            t = min(ev.t, now)
            app.seat_event(SeatEvent(t, ev.panel, button, "press"))
            app.seat_event(SeatEvent(t, ev.panel, button, "release"))
        elif ev.kind == "move":
            self._move(app, ev, now)
        elif ev.kind == "player":
            self._name(app, ev)
        elif ev.kind == "operator":
            action = ev.data["action"]
            if action == "pause":
                app.pause(now)
            elif action == "resume":
                app.unpause(now)
            elif action == "restart":
                app.requests.append("restart")

    def _name(self, app: Any, ev: WebEvent) -> None:
        """A name and colour from a phone, into the party host's name card for that panel: the same card the
        panel's buttons and a keyboard edit in the lobby, which the setup line's ``players`` is made from."""
        naming = app.host.naming
        if app.lobby is None:
            self._note(ev.panel, "names are chosen in the lobby, before the game starts")
            return
        try:
            name = clean_name(ev.data["name"])  # the server cleaned it; whatever else puts a name here is held to it
        except TextError as exc:
            self._note(ev.panel, str(exc))
            return
        colour = ev.data["colour"]
        if name.casefold() in naming.taken_names(ev.panel):
            self._note(ev.panel, f"{name} is another seat's name: pick another")
            return
        if colour in naming.taken_colours(ev.panel):
            self._note(ev.panel, "another seat has that colour: pick another")
            return
        card = naming.card(ev.panel)
        card.name, card.colour = name, colour
        app.host.prepare_phrases()  # the announcer renders the new name now, as for a name picked with buttons

    def _move(self, app: Any, ev: WebEvent, now: float) -> None:
        """A move from a phone: the game writes it only if it is one of this seat's legal moves right now."""
        seat = _seat_of(app, ev.panel)
        if app.state is None or seat is None:
            self._note(ev.panel, "this panel has no seat in a game now")
            return
        if app.paused_at is not None:
            self._note(ev.panel, "the game is paused")
            return
        why = app.mode.phone_move(app, seat, dict(ev.data["move"]), min(ev.t, now))
        if why:
            self._note(ev.panel, why)

    # -- snapshots -------------------------------------------------------------------------------------

    def publish(self, app: Any, now: float, force: bool = False) -> Snapshot | None:
        """A new snapshot when ``publish_s`` has passed and something changed; the listeners are told. Never
        raises: a fault here is counted and logged, and the table goes on."""
        try:
            return self._publish(app, now, force)
        except Exception as exc:  # noqa: BLE001 - the companion must never stop the table
            self.errors += 1
            log.warning("phone companion snapshot failed: %s", exc, exc_info=self.errors == 1)
            return None

    def _on_cues(self, cues: list[Any]) -> None:
        self._dirty = True  # the rules said something: the game moved

    def _key(self, app: Any) -> tuple[Any, ...]:
        """What can change a view without a cue from the rules: the lobby, the menu, the failsafe, the phones."""
        lobby = app.lobby
        lobby_key = (id(lobby), tuple(sorted(lobby.joined)), lobby.variant, lobby.resume) \
            if lobby is not None else None
        cards = tuple(sorted((p, c.name, c.colour) for p, c in app.host.naming.cards.items())) \
            if lobby is not None else ()
        return (id(app.live), id(app.mode), lobby_key, cards, app.menu_open, app.paused_at, app.error,
                app.refused, tuple(self.book.joined()), len(self.notes))

    def _publish(self, app: Any, now: float, force: bool) -> Snapshot | None:
        if not force and now - self._last_publish < self.publish_s:
            return None
        if self._hooked is not app:
            self._hooked = app
            app.on_cues.append(self._on_cues)
        key = self._key(app)
        # views are built only when something changed (a cue, an input, the key) or once a second (device health):
        # building every seat's view on every publish would cost the table's frames for nothing
        if not (force or self._dirty or key != self._last_key or now - self._built >= 1.0):
            return None
        self._dirty = False
        self._last_key = key
        self._built = now
        self._last_publish = now
        lobby = app.lobby
        if lobby is not None and lobby is not self._lobby:
            # compared by identity with a held reference: an id() of a lobby already freed can come back for the
            # next one, and its phones would then keep their tokens
            self._lobby = lobby
            self.book.new_session()  # back in the lobby: every phone of the last game must join again
            self.notes.clear()
        if app.live is not None and app.live is not self._live:
            self._live = app.live
            self.book.seal()  # the game is on: phones join in the lobby only
        public, private = build_views(app, now, self.notes)
        if now - self._health_t >= 1.0:
            self._health_t = now
            self._health = device_health(app)
        operator = {"devices": self._health, "rejected": app.refused, "error": app.error,
                    "paused": app.paused_at is not None, "web_errors": self.errors, "joined": self.book.joined()}
        stable = (public, private, operator, self.book.session)
        if stable == self._stable and not force:
            return None
        old = self.snapshot
        public_version = old.public_version + (1 if self._stable is None or public != self._stable[0] else 0)
        self._stable = stable
        if app.live is not None:  # not part of the comparison: it moves every frame
            public = dict(public, table_now=round(now - app.hold_back_s - app.t0, 3))
        snap = Snapshot(old.version + 1, now, self.book.session, public, private, operator, public_version)
        self.snapshot = snap
        for fn in list(self.listeners):
            try:
                fn(snap)
            except Exception as exc:  # noqa: BLE001 - a listener (the server) failing never stops the table
                self.errors += 1
                log.warning("web listener failed: %s", exc)
        return snap


def _seat_of(app: Any, panel: int) -> int | None:
    """The game seat at ``panel`` (seats are the joined panels in order), None if it is not in the game."""
    if app.live is None or panel not in app.seatmap:
        return None
    return int(app.seatmap.index(panel)) + 1


def device_health(app: Any) -> list[dict[str, Any]]:
    """Battery, link, RSSI and clock offset of every device the host knows (empty without a device host)."""
    host = app.devices
    health = getattr(host, "health", None)
    if health is None:
        return []
    out = []
    for h in health():
        out.append({"name": h.name, "kind": h.kind, "seat": h.seat, "online": h.online, "battery_pct": h.battery_pct,
                    "battery_mv": h.battery_mv, "link_pct": h.link_pct, "rssi_dbm": h.rssi_dbm, "synced": h.synced,
                    "offset_ms": round(h.offset_us / 1000.0, 3), "firmware": h.firmware})
    return out


def _names(app: Any) -> dict[int, dict[str, str]]:
    """Game seat -> name and colour, from the running game's setup line (``players``; a resumed game's too)."""
    out: dict[int, dict[str, str]] = {}
    for seat, p in app.live.table.setup.players.items():
        out[seat] = {"name": p.name or "", "colour": p.colour or ""}
    return out


def _lobby_cards(app: Any) -> dict[int, dict[str, str]]:
    """Panel -> the name card picked in the lobby so far (buttons, keyboard or phone)."""
    return {p: {"name": c.name or "", "colour": c.colour or ""} for p, c in app.host.naming.cards.items()
            if c.name or c.colour}


def build_views(app: Any, now: float,
                notes: dict[int, tuple[float, str]]) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """The public view and the private view of every panel."""
    mode = app.mode
    public: dict[str, Any] = {"game": mode.name, "title": mode.title, "panels": app.panels.pinmap.seats,
                              "paused": app.paused_at is not None, "error": app.error}
    private: dict[int, dict[str, Any]] = {}
    fresh = {p: text for p, (t, text) in notes.items() if app.clock() - t < 4.0}
    if app.lobby is not None:
        lobby = app.lobby
        public["screen"] = "lobby"
        public["joined"] = sorted(lobby.joined)
        chosen = lobby.mode  # the game the lobby has chosen (the app's mode is the last one played)
        public["game"], public["title"] = chosen.name, chosen.title
        public["variant"] = chosen.variants[lobby.choices[lobby.variant][0][1]][0]
        public["resume"] = lobby.resume[1] if lobby.resume is not None else None
        players = _lobby_cards(app)
        public["lobby_players"] = {str(p): v for p, v in players.items()}
        for p in range(1, app.panels.pinmap.seats + 1):
            private[p] = {"panel": p, "seat": None, "joined": p in lobby.joined, "player": players.get(p),
                          "note": fresh.get(p, "")}
        return public, private
    public["screen"] = "game" if app.live is not None else "idle"
    if app.live is None:
        return public, private
    names = _names(app)
    seats = []
    cards = mode.seat_views(app, now)
    for sv in cards:
        entry = names.get(sv.seat, {})
        seats.append({"seat": sv.seat, "panel": sv.panel, "name": entry.get("name") or f"Seat {sv.seat}",
                      "colour": entry.get("colour", ""), "points": sv.points, "bruises": sv.bruises,
                      "role": sv.role})
    public["seats"] = seats
    players = app.live.table.setup.players  # the play-by-play with names, as the party host shows it
    public["ticker"] = [name_seats(line, players) for line in list(app.presenter.ticker)[-12:]]
    public["over"] = bool(app.over)
    public.update(mode.phone_public(app))
    for seat, panel in enumerate(app.seatmap, start=1):
        me: dict[str, Any] = {"panel": panel, "seat": seat, "player": names.get(seat), "note": fresh.get(panel, "")}
        if seat - 1 < len(cards):
            me.update(mode.phone_view(app, seat, cards[seat - 1], now))
        private[panel] = me
    return public, private

