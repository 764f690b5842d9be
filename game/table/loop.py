"""The table's main loop: seat and device events in, referee and rules, journal first, then screen, lights, sound.

One fixed step (:meth:`TableApp.step`) does, in this order:

1. drain the seat panels (``PanelSource.poll(now)``): answers and challenges go to the referee, the rest through
   :class:`~game.table.buttons.ButtonMapper` (SET, battle calls, duel picks, the menu chord);
2. drain the device host's queue (``DeviceEvent``/``LinkEvent`` on table time) into the referee;
3. collect the referee's calls and questions;
4. write every table event that is due, in timestamp order, through ``JournaledTable.submit`` (journal first, then
   effects), telling the referee the new battle context after each;
5. ``tick`` the rules so windows close with no event;
6. build the :class:`~game.table.present.View` the screens draw.

Table time ``t`` in the log is host seconds minus ``t0``, the host time the game started. Events wait
``hold_back_s`` in a merge buffer so that a referee call stamped a little earlier than a button press is still
written first; the rules' own clock lags the host by the same amount, and never passes an event still in the buffer.
"""

from __future__ import annotations

import json
import logging
import queue
import random
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from game.journal import Journal, JournaledTable
from game.referee import Referee
from game.registry import GAMES, game_for, lobby_choices
from game.rules.base import Cue, RuleInputError, counted
from game.table.buttons import Feedback
from game.table.mode import GameMode
from game.table.present import SeatView, View
from game.table.seating import Seating
from hardware.events import SeatEvent

log = logging.getLogger(__name__)

#: The most unfinished games the lobby offers to resume, newest first (``burrito-table stats`` lists every game).
RESUME_OFFERS = 3



def _is_time(key: str, value: Any) -> bool:
    """An evidence field holding a host time (``contact_t``, ``badge_t``, ``badges_clear``...)."""
    return (key.endswith("_t") or key == "badges_clear") and type(value) in (int, float)


@dataclass
class DeviceMap:
    """Which device is which: burrito numbers, and the panel each badge was paired at (``game.table.seating`` turns
    panels into game seats once the lobby knows who joined)."""

    burritos: dict[str, int] = field(default_factory=dict)
    badges: dict[str, int] = field(default_factory=dict)


class TableApp:
    """One table: a hardware ``Table`` (panels + lights), optional device host, the journal, the rules.

    ``clock`` is the host clock every part shares (``time.monotonic`` live, a SteppedClock in the demo).
    """

    def __init__(self, *, panels: Any, journal: Journal, clock: Callable[[], float], seatmap: list[int],
                 devices: Any = None, device_map: DeviceMap | None = None, use_referee: bool = True,
                 sound: Any = None, banner: str = "", hold_back_s: float | None = None,
                 mode: GameMode | str | None = None, settings: Any = None,
                 settings_file: Any = None, idle_s: float | None = None) -> None:
        self.panels = panels
        self.journal = journal
        self.clock = clock
        self.seatmap = list(seatmap)
        self.devices = devices  # a firmware_bridge DeviceHost (its .events queue), or None
        self.device_map = device_map or DeviceMap()
        self.sound = sound
        self.banner = banner
        #: the game being played (or last chosen); the lobby and ``start``/``resume`` switch it from the setup line
        self.mode: GameMode = game_for(mode if mode is not None else next(iter(GAMES))) if not isinstance(mode, GameMode) else mode
        self.mapper = self.mode.mapper(self.seatmap)
        self.presenter = self.mode.presenter()
        self.live: JournaledTable | None = None
        self.t0 = 0.0
        self.buffer: list[dict[str, Any]] = []  # table events on host time, waiting to be written
        self.referee: Any = None
        self.use_referee = use_referee and Referee is not None
        #: extra delay before writing; with the referee, its ``horizon(now)`` says how far calls are complete
        self.hold_back_s = hold_back_s if hold_back_s is not None else 0.0
        self.question: Any = None
        #: badges paired at panels that are not in this game: left out of the referee, counted for the screens
        self.ignored_badges: dict[str, int] = {}
        self.device_status: dict[str, str] = {}
        self.error: str | None = None
        self.error_detail = ""
        self.menu_open = False
        self.menu_cursor = 0
        self.requests: list[str] = []  # "restart", "shutdown", "quit" for the runner
        self.rejected: list[str] = []
        self.refused = 0  # every event the rules refused, of which ``rejected`` keeps the newest
        self.last_seen_edge: float | None = None
        self.on_cues: list[Callable[[list[Cue]], None]] = []
        self.lobby: Lobby | None = None
        self.lobby_seed: int | None = None  # the lobby's deal seed (tests fix it); None: a fresh one each time
        from game.table.host import PartyHost

        #: names, how-to-play, learning hints, attract mode, house settings, device warnings
        self.host = PartyHost(self, settings, settings_file, idle_s)
        #: the phone companion's ``game.web.bridge.TableBridge`` (its input queue, its snapshots), or None
        self.web: Any = None
        #: host time the operator paused the game: nothing is written and the game's clock stands still
        self.paused_at: float | None = None

    # -- game start ---------------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.live.table.state if self.live is not None else None

    @property
    def seating(self) -> Seating:
        """Game seats <-> panels <-> badges for the game on now (``seatmap`` is the panel of each game seat)."""
        return Seating(tuple(self.seatmap))

    @property
    def over(self) -> bool:
        return self.live is not None and self.live.table.over

    def start(self, setup: dict[str, Any]) -> None:
        """A new game: journal it and announce the opening (the setup's ``game`` picks the mode)."""
        self._use_mode(game_for(str(setup.get("game"))))
        self.live, cues = JournaledTable.new(self.journal, setup)
        self._save_seatmap()
        self.t0 = self.clock()
        self._new_referee()
        self.host.started()
        self._effects(cues, None, self.t0)

    def resume(self, game_id: int) -> None:
        """Pick up a journaled game: fold its events again; time goes on one second after its last event."""
        self.live = JournaledTable.resume(self.journal, game_id)
        self._use_mode(game_for(self.live.table.setup.game))
        restore = getattr(self.mode, "restore_choices", None)
        choices = self._load_choices(game_id) if restore is not None else None
        if restore is not None and choices is not None:
            restore(choices)
        saved = self._load_seatmap(game_id)
        if saved:
            self.seatmap = saved
        self.mapper = self.mode.mapper(self.seatmap)
        self.t0 = self.clock() - self.live.table.last_t - 1.0
        self._new_referee()
        self.host.started()
        self.presenter.ticker.append(f"Game {game_id} resumed after {len(self.live.table.events)} events")
        self._context(self.clock())

    def _use_mode(self, mode: GameMode) -> None:
        if mode is not self.mode:
            self.mode = mode
            self.mapper = mode.mapper(self.seatmap)
            self.presenter = mode.presenter(self.presenter.pace)

    def _new_referee(self) -> None:
        self.referee = None
        if not self.use_referee or self.live is None or not self.mode.uses_devices:
            return
        opts = self.live.table.setup.options
        badges, self.ignored_badges = self.seating.badges(self.device_map.badges)
        if self.ignored_badges:
            panels = ", ".join(str(p) for p in sorted(set(self.ignored_badges.values())))
            self.presenter.ticker.append(f"{len(self.ignored_badges)} badge(s) at panels not in this game ignored "
                                         f"(panel {panels})")
        self.referee = Referee(seats=self.live.table.setup.seats, burritos=dict(self.device_map.burritos),
                               badges=badges, tie_window_ms=float(opts["tie_window_ms"]))

    def _save_seatmap(self) -> None:
        assert self.live is not None
        db = self.journal.db
        with db:
            db.execute("CREATE TABLE IF NOT EXISTS app_seatmaps (game_id INTEGER PRIMARY KEY, panels TEXT NOT NULL)")
            db.execute("INSERT OR REPLACE INTO app_seatmaps VALUES (?, ?)",
                       (self.live.game_id, ",".join(map(str, self.seatmap))))
            choices = getattr(self.mode, "table_choices", None)  # lobby choices the setup line does not carry
            if choices is not None:
                db.execute("CREATE TABLE IF NOT EXISTS app_choices (game_id INTEGER PRIMARY KEY, choices TEXT NOT NULL)")
                db.execute("INSERT OR REPLACE INTO app_choices VALUES (?, ?)", (self.live.game_id, json.dumps(choices())))

    def _load_choices(self, game_id: int) -> dict[str, Any] | None:
        try:
            row = self.journal.db.execute("SELECT choices FROM app_choices WHERE game_id = ?", (game_id,)).fetchone()
            return json.loads(row[0]) if row else None
        except Exception:  # noqa: BLE001 - no such table (a journal from `record`), or a damaged row: the defaults
            return None

    def _load_seatmap(self, game_id: int) -> list[int] | None:
        try:
            row = self.journal.db.execute("SELECT panels FROM app_seatmaps WHERE game_id = ?", (game_id,)).fetchone()
        except Exception:  # noqa: BLE001 - a journal written by `record` has no seat map: panels 1..N
            return None
        return [int(p) for p in row[0].split(",")] if row else None

    # -- input ---------------------------------------------------------------------------------------

    def inject(self, event: dict[str, Any]) -> None:
        """A table event on host time from outside the panels (the demo's bots, the sim controls)."""
        self.buffer.append(event)

    def open_lobby(self) -> None:
        """Back to the lobby (at start, or after a restart), offering the newest unfinished games."""
        self.live = None
        self.paused_at = None
        self.buffer.clear()
        self.presenter = self.mode.presenter(self.presenter.pace)
        offers: list[tuple[int, str]] = []
        unfinished = self.journal.unfinished()
        looked = 0
        for game_id in unfinished:
            if len(offers) == RESUME_OFFERS:
                break
            looked += 1
            try:
                # folded, not only read: a game killed between its winning event and the finished mark is over,
                # and folding marks it so; it is not offered
                folded = JournaledTable.resume(self.journal, game_id).table
                if folded.over:
                    continue
                setup = self.journal.setup(game_id)
                offers.append((game_id, resume_label(setup, len(folded.events), self.journal.started(game_id),
                                                      time.time())))
            except Exception as exc:  # noqa: BLE001 - a damaged game is not offered; it stays in the journal
                log.warning("unfinished game %s cannot be offered: %s", game_id, exc)
        more = len(unfinished) - looked  # older still: not offered, but listed by ``burrito-table stats``
        self.lobby = Lobby(self.panels.pinmap.seats, offers, seed=self.lobby_seed, more=more)
        self.host.point_lobby_at(self.host.settings.game)
        self.host.apply()
        self.host.prepare_phrases()

    def pause(self, now: float) -> None:
        if self.paused_at is None and self.live is not None:
            self.paused_at = now

    def unpause(self, now: float) -> None:
        """Table time goes on from where it stood: ``t0`` moves on by the length of the pause."""
        if self.paused_at is not None:
            self.t0 += now - self.paused_at
            self.paused_at = None

    def abandon(self) -> None:
        """Restart: the game in progress is closed in the journal (kept for replay) and the lobby opens."""
        if self.live is not None:
            self.journal.mark_finished(self.live.game_id)
        self.open_lobby()

    def seat_event(self, ev: SeatEvent) -> None:
        self.last_seen_edge = ev.t
        if self.paused_at is not None and self.lobby is None and not self.menu_open:
            self.mapper.track(ev)  # paused: presses are not moves (the menu chord still works)
            return
        if self.error is not None and self.lobby is not None and not self.menu_open:
            self.mapper.track(ev)  # a game that could not start: SET carries on, back to the lobby it left
            if ev.action == "press" and ev.button == "SET":
                self.error = None
            return
        if self.lobby is not None and not self.menu_open:
            self.mapper.track(ev)  # the menu chord works in the lobby too (shut down without a keyboard)
            if ev.action == "press":
                self.mapper.feedback.append(Feedback(ev.t, ev.seat, ev.button))
            if not self.host.lobby_event(ev, ev.t):
                self.lobby.seat_event(ev)
            return
        if self.menu_open and self.host.menu_page == "settings":
            self._elsewhere(ev)  # the chord tracker sees every release, or the menu would open again by itself
            if ev.action == "press":
                self.host.settings_press(ev.button)
            return
        # Every path keeps the mapper's record of which buttons are down (the menu chord), even for events it does
        # not act on: a release it never saw would leave the chord "held" and reopen the menu.
        if self.menu_open:
            self._elsewhere(ev)
            self._menu(ev)
            return
        if self.error is not None:
            self._elsewhere(ev)
            if ev.action == "press" and ev.button == "SET":
                self.error = None  # try to carry on: the state is intact, the journal has every event
            return
        owns = getattr(self.mapper, "owns", None)  # a gesture the mapper has begun (a SET that may be taken back)
        if self.referee is not None and not (owns is not None and owns(ev)):
            game_ev = self.seating.to_game(ev)  # the referee speaks game seats; panels not in the game say nothing
            if game_ev is not None and self.referee.seat(game_ev):
                self._elsewhere(ev)  # a hold is a challenge: the SET press that began it is not a set
                return
        self.buffer.extend(self.mapper.handle(ev, self.state))

    def _elsewhere(self, ev: SeatEvent) -> None:
        """An event the mapper will not handle: it still learns the button is up, and ends what the press began."""
        self.mapper.track(ev)
        lost = getattr(self.mapper, "lost", None)
        if lost is not None:
            lost(ev)

    def _menu(self, ev: SeatEvent) -> None:
        items = MENU_ITEMS
        if ev.action != "press":
            return
        if ev.button == "BRAWL":
            self.menu_cursor = (self.menu_cursor - 1) % len(items)
        elif ev.button == "WAR":
            self.menu_cursor = (self.menu_cursor + 1) % len(items)
        elif ev.button == "DUEL":
            self.menu_open = False
        elif ev.button == "SET":
            choice = items[self.menu_cursor][0]
            if choice == "settings":
                self.host.menu_page, self.host.menu_cursor = "settings", 0
                return
            self.menu_open = False
            if choice != "resume":
                self.requests.append(choice)

    def device_event(self, ev: Any) -> None:
        state = getattr(ev, "state", None)
        if state is not None:
            self.device_status[ev.device] = state
        self.host.watch.event(ev)
        if self.referee is not None:
            self.referee.device(ev)

    # -- the step ------------------------------------------------------------------------------------

    def step(self, now: float) -> None:
        """One fixed step at host time ``now``. Any exception lands on the failsafe screen, state kept."""
        try:
            self._step(now)
        except Exception as exc:  # noqa: BLE001 - the failsafe: never crash in front of a party
            self.error = f"{type(exc).__name__}: {exc}"
            self.error_detail = traceback.format_exc(limit=6)
            log.error("failsafe: %s\n%s", self.error, self.error_detail)
        if self.web is not None:
            self.web.publish(self, now)  # never raises: a snapshot fault is the companion's, not the table's

    def _step(self, now: float) -> None:
        if self.web is not None:
            self.web.pump(self, now)  # phones' taps and moves, from the companion's queue
        for ev in self.panels.source.poll(now):
            self.seat_event(ev)
        for _panel in self.mapper.combos(now):
            self.menu_open = True
            self.menu_cursor = 0
            self.host.menu_page = "main"
        self.host.tick(now)
        if self.devices is not None:
            q = self.devices.events
            while True:
                try:
                    self.device_event(q.get_nowait())
                except queue.Empty:
                    break
        lobby = self.lobby
        if lobby is not None and lobby.choice is not None:
            self.lobby = None
            try:
                if lobby.choice == "resume" and lobby.resume is not None:
                    self.resume(lobby.resume[0])
                else:
                    self.seatmap = sorted(lobby.joined)
                    self.mapper = self.mode.mapper(self.seatmap)
                    self.start(self.host.setup(lobby.setup(), self.seatmap))
            except Exception:
                # a game that cannot start (its rules refuse the setup, a resume that cannot fold) leaves the lobby
                # as it was, behind the failsafe: "carry on" goes back to it, never to a table with no game at all
                lobby.choice = None
                self.live = None
                self.lobby = lobby
                raise
        if self.error is not None or self.live is None or self.paused_at is not None:
            return
        if self.referee is not None:
            for item in self.referee.poll(now):
                if isinstance(item, dict):
                    self.buffer.append(item)
                else:
                    self.question = item
                    self._light(item.seats, "answer")
        q = self.question
        if q is not None and (now > q.deadline or self.referee is None or self.referee.subject(q.id) is None):
            self.question = None  # answered, or out of time
        self._write(now)

    def _write(self, now: float) -> None:
        live = self.live
        assert live is not None
        until = now - self.hold_back_s
        if self.referee is not None:
            until = min(until, self.referee.horizon(now))
        self.buffer.sort(key=lambda e: e["t"])
        while self.buffer and self.buffer[0]["t"] <= until and not self.over:
            ev = self.buffer[0]
            if self.mapper.blocks(ev["t"]):
                break  # a SET still held down might yet be taken back: it goes first or not at all
            for s in self.mapper.due_sets(until, force_before=ev["t"]):
                self._submit(s)
            self.buffer.pop(0)
            self._submit(ev)
        for s in self.mapper.due_sets(until):
            if not self.over:
                self._submit(s)
        horizon = until
        if self.buffer:
            horizon = min(horizon, self.buffer[0]["t"])
        oldest = self.mapper.oldest_pending()
        if oldest is not None:
            horizon = min(horizon, oldest)
        t = horizon - self.t0
        if t > live.table.last_t and not self.over:
            cues = live.tick(round(t, 4))
            if cues:
                self._effects(cues, None, horizon)
        self.mapper.sync(self.state)

    def _submit(self, ev: dict[str, Any]) -> None:
        live = self.live
        assert live is not None
        obj = dict(ev)
        host_t = obj["t"]
        t = round(host_t - self.t0, 4)
        if t < live.table.last_t:
            obj["late_ms"] = round((live.table.last_t - t) * 1000, 1)  # written at the last time; nothing is lost
            t = live.table.last_t
        obj["t"] = max(t, 0.0)
        evidence = obj.get("evidence")
        if isinstance(evidence, dict):  # the referee's times are host seconds: the log's are table time
            obj["evidence"] = {k: round(v - self.t0, 6) if _is_time(k, v) else v for k, v in evidence.items()}
        for extra in self.mode.prepare(self.state, obj):  # e.g. a throw the sensors imply before this call
            self._write_one(dict(extra, t=obj["t"]))
        self._write_one(obj)

    def _write_one(self, obj: dict[str, Any]) -> None:
        live = self.live
        assert live is not None
        try:
            cues = live.submit(obj)
        except RuleInputError as exc:
            self.refused += 1
            self.rejected.append(f"{obj}: {exc}")
            del self.rejected[:-KEEP_REJECTED]  # the newest, for the screens and the operator; a party refuses many
            refused = getattr(self.mapper, "refused_event", None)  # a mode that says a refusal on screen
            if refused is not None:
                refused(obj, self.state, self.clock())
            if self.over:  # time ran on to the end of the game before this late call: nothing went wrong
                log.info("after the game ended, not written: %s", obj)
            else:
                log.warning("event not written: %s: %s", obj, exc)
            return
        self._effects(cues, obj, self.t0 + obj["t"])

    def _effects(self, cues: list[Cue], event: dict[str, Any] | None, host_t: float | None = None) -> None:
        """Show, light and sound what the rules said; ``host_t`` is the host time the cues belong to."""
        self.presenter.feed(cues, self.clock(), self.state, event)
        for c in cues:
            if c.kind == "light":
                self._light(c.seats, c.text)
            elif c.kind == "sound" and self.sound is not None:
                self.sound.play(c.text)
            elif c.kind == "say" and self.sound is not None:
                self.sound.announce(c.text, self.live.table.setup.players if self.live is not None else None)
        for fn in self.on_cues:
            fn(cues)
        self._context(self.clock() if host_t is None else host_t)

    def _context(self, now: float) -> None:
        if self.referee is None or self.state is None:
            return
        open_, fighters = self.mode.battle_context(self.state)
        self.referee.context(open_, fighters, now)

    def _light(self, seats: tuple[int, ...], cue: str) -> None:
        lights = getattr(self.panels, "lights", None)
        if lights is None:
            return
        seating = self.seating
        for s in seats:  # the rules and the referee name game seats; the lights are the panels'
            panel = seating.panel_of(s)
            if panel is not None:
                lights.cue(panel, cue)

    # -- what to draw ----------------------------------------------------------------------------------

    def view(self, now: float) -> View:
        if self.lobby is not None and self.error is None and not self.menu_open:
            shown = self.host.lobby_view(now, self.banner)
            if shown is not None:
                return shown
            v = self.lobby.view(self.banner)
            self.mapper.feedback = [f for f in self.mapper.feedback if now - f.t < 0.6]
            for f in self.mapper.feedback:
                if 1 <= f.seat <= len(v.seats):
                    v.seats[f.seat - 1].flash = f.text
            self.host.decorate_lobby(v)
            return v
        seats = self.mode.seat_views(self, now)
        v = View(screen="scoreboard", seats=seats, banner=self.banner, ticker=list(self.presenter.ticker),
                 game=self.mode.name)
        self.mode.decorate(self, v)
        if self.error is not None:
            v.screen, v.title, v.big, v.sub = "failsafe", "THE TABLE HIT A SNAG", "PAUSED", self.error
            v.hint = "Scores are safe in the journal. Any SET: carry on. Hold BRAWL+WAR 5 s: menu"
            return v
        if self.menu_open and self.host.menu_page == "settings":
            self.host.settings_view(v)
            return v
        if self.paused_at is not None and not self.menu_open:
            v.screen, v.title, v.big = "failsafe", "THE OPERATOR PAUSED THE GAME", "PAUSED"
            v.sub, v.hint = "the game's clock stands still", "resume from the operator page"
            return v
        if self.menu_open:
            v.screen, v.title = "menu", "TABLE MENU"
            v.options = [label for _, label in MENU_ITEMS]
            v.cursor = self.menu_cursor
            v.hint = "BRAWL / WAR move  -  SET choose  -  DUEL back"
            return v
        if self.question is not None:
            q = self.question
            v.screen, v.title, v.sub = "question", "THE TABLE ASKS", q.text
            v.options = list(q.options)
            span = max(1e-6, q.deadline - q.t)
            v.progress = max(0.0, min(1.0, (q.deadline - now) / span))
            v.chosen = list(q.seats)
            return v
        self.mode.live_view(self, v, now)
        self.host.decorate(v, now)
        chord = self.mapper.combo_progress(now)
        if chord is not None and chord[1] > 0.5:
            v.hint = f"panel {chord[0]}: keep holding BRAWL + WAR for the menu ({max(0.0, 5 - chord[1]):.0f} s)"
        return v


def resume_label(setup: dict[str, Any], events: int, started: float, now: float) -> str:
    """How the lobby names an unfinished game: which game, how many seats, when it was started, how far it got."""
    name = str(setup.get("game"))
    title = GAMES[name].title if name in GAMES else name
    seats = setup.get("seats")
    where = f"{counted(seats, 'seat')} - " if isinstance(seats, int) else ""
    played = counted(events, "event") if events else "nothing played yet"
    return f"{title} - {where}started {started_when(started, now)} - {played}"


def started_when(started: float, now: float) -> str:
    """A start time as a player says it (local time): "today 21:14", "yesterday 21:14", "Sat 21:14", "3 Nov 21:14".

    >>> from datetime import datetime
    >>> now = datetime(2026, 11, 14, 22, 0).timestamp()
    >>> [started_when(datetime(2026, 11, d, 21, 14).timestamp(), now) for d in (14, 13, 10, 3)]
    ['today 21:14', 'yesterday 21:14', 'Tue 21:14', '3 Nov 21:14']
    """
    then, today = datetime.fromtimestamp(started), datetime.fromtimestamp(now).date()
    days = (today - then.date()).days
    clock = then.strftime("%H:%M")
    if days == 0:
        return f"today {clock}"
    if days == 1:
        return f"yesterday {clock}"
    if 1 < days < 7:
        return f"{then.strftime('%a')} {clock}"
    return f"{then.day} {then.strftime('%b')}{'' if then.year == today.year else f' {then.year}'} {clock}"


class Lobby:
    """Before a game: panels join by pressing any button, choose the game and variant, start; or resume.

    A joined panel: BRAWL / WAR step through every game and variant (``modes.lobby_choices``: Throw Throw Burrito
    standard first), DUEL starts (when the joined count suits the game), hold SET leaves.
    With unfinished games offered (``offers``, newest first): BRAWL / WAR on any panel choose one, SET resumes it,
    DUEL sets them all aside for a new game; ``more`` says how many older ones are not offered.
    ``seed`` feeds the game's random deal (Zombie Burrito's teams); None draws one.
    """

    def __init__(self, panels: int, offers: Sequence[tuple[int, str]] = (), seed: int | None = None,
                 more: int = 0) -> None:
        self.panels = panels
        self.joined: set[int] = set()
        self.choices = lobby_choices()
        self.variant = 0  # index into ``choices``
        self.offers = list(offers)  # unfinished games to resume: (game id, description), newest first
        self.offer = 0  # index into ``offers``: the one SET resumes
        self.more = more
        self.choice: str | None = None  # "start" or "resume"
        self.seed = seed if seed is not None else random.SystemRandom().randrange(1 << 31)

    @property
    def resume(self) -> tuple[int, str] | None:
        """The offered unfinished game SET resumes: (game id, description); None once set aside (or none)."""
        return self.offers[self.offer] if self.offers else None

    @property
    def mode(self) -> GameMode:
        return GAMES[self.choices[self.variant][0][0]]

    def seat_event(self, ev: SeatEvent) -> None:
        if self.offers:
            if ev.action == "press" and ev.button == "SET":
                self.choice = "resume"
            elif ev.action == "press" and ev.button == "DUEL":
                self.offers, self.offer = [], 0
            elif ev.action == "press" and ev.button in ("BRAWL", "WAR"):
                self.offer = (self.offer + (1 if ev.button == "WAR" else -1)) % len(self.offers)
            return
        if ev.action == "hold" and ev.button == "SET":
            self.joined.discard(ev.seat)
            return
        if ev.action != "press":
            return
        if ev.seat not in self.joined:
            self.joined.add(ev.seat)
        elif ev.button in ("BRAWL", "WAR"):
            self.variant = (self.variant + (1 if ev.button == "WAR" else -1)) % len(self.choices)
        elif ev.button == "DUEL" and self._fits():
            self.choice = "start"

    def _fits(self) -> bool:
        lo, hi = self.mode.seats
        return lo <= len(self.joined) <= hi

    def setup(self) -> dict[str, Any]:
        (_, variant), _ = self.choices[self.variant]
        return self.mode.setup(len(self.joined), variant, seed=self.seed if self.mode.table_deals else None)

    def view(self, banner: str) -> View:
        seats = [SeatView(seat=0, panel=p, role="joined" if p in self.joined else "empty")
                 for p in range(1, self.panels + 1)]
        n = len(self.joined)
        if self.offers:
            many = len(self.offers) > 1
            more = f"{counted(self.more, 'older unfinished game')}: burrito-table stats lists them" if self.more else ""
            return View("resume", seats, title="UNFINISHED GAMES" if many else "UNFINISHED GAME",
                        options=[text for _, text in self.offers], cursor=self.offer, sub=more,
                        hint=("BRAWL / WAR: choose    SET: carry on    DUEL: new game" if many
                              else "SET: carry on with it    DUEL: new game"), banner=banner)
        mode = self.mode
        lo, hi = mode.seats
        if not n:
            sub = "press any button to join" + _broken_note()
        elif self._fits():
            sub = f"{n} seat{'s' if n != 1 else ''} ready" + " - DUEL on a ready seat starts"
        else:
            sub = f"{n} seat{'s' if n != 1 else ''} ready" + (f" - {mode.title} needs {lo}-{hi} seats" if n >= 2 else "")
        cursor = self.choices[self.variant][0][1]
        return View("lobby", seats, title=mode.title, options=[v for v, _ in mode.variants], cursor=cursor, sub=sub,
                    hint="BRAWL / WAR: game and variant    hold SET: leave", banner=banner)


def _broken_note() -> str:
    """A game plugin that did not load is left out of the lobby; the host learns of it here, where nobody has joined
    yet (the one-line causes are on stderr and in `burrito-table games`)."""
    from game.registry import broken

    bad = broken()
    if not bad:
        return ""
    return f"   ({counted(len(bad), 'game plugin')} not loaded: burrito-table games says why)"


#: refused events kept with their reasons
KEEP_REJECTED = 200


MENU_ITEMS: list[tuple[str, str]] = [("resume", "Back to the game"), ("restart", "Restart: new game"),
                                     ("settings", "House settings, switch game"), ("shutdown", "Shut down the table")]


def countdown_label(progress: float, words: tuple[str, ...] = ("3", "2", "1", "BURRITO!")) -> str:
    """ "3, 2, 1, Burrito!" (or a game's own words): an equal part of the countdown moment each."""
    return words[min(len(words) - 1, max(0, int(progress * len(words))))]
