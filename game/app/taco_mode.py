"""Taco vs Burrito in the table app: the game mode behind ``game.app.modes.MODES["taco-vs-burrito"]``.

The shared loop (``game.app.loop.TableApp``) polls the panels, writes the journal in edge-time order and draws;
this mode gives it:

* :class:`TacoMapper`: the hand browser (``game.app.taco.HandBrowser``: LEFT/RIGHT/PLAY/NO BUENO), the No Bueno
  race and the bots for empty seats. NO BUENO presses are held as *pending* (the loop's hook for events that may
  not be final yet) until :data:`~game.app.taco.RACE_S` after them has passed, so every contender is known: the
  earliest edge wins, presses of other seats within ``RACE_S`` after it lost the race and are dropped with the gap
  shown. Bot moves come out of the same hook (``due_sets``) at their scheduled times.
* a presenter that keeps the play-by-play and the ticker (the table view itself is the whole show: no moments);
* ``live_view``: the :class:`~game.app.taco.TacoView` (``View.extra["taco"]``) drawn by ``game.app.taco_screens``.

Bots: the lobby's "vs bots" choice gives every joined seat but the first to a bot (one person joins their own
panel and the seats the bots should take, then starts), so the game has as many seats as panels joined, as every
mode's setup does. Any game seat past the joined panels would be a bot's too.
"""

from __future__ import annotations

import heapq
import itertools
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.app.buttons import ButtonMapper, Feedback
from game.app.present import Presenter, SeatView, View
from game.app.taco import BUTTONS, RACE_S, HandBrowser, PanelBots, bots_blocking, build_view, seat_screen_view
from game.bots_taco import Bot, make_bot
from game.rules import taco_vs_burrito as tvb
from game.rules.base import Cue
from hardware.events import SeatEvent

#: lobby label, rules options, hands mode, seats to fill with bots
VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("open meals", {"variant": "open"}),
    ("secret", {"variant": "secret"}),
    ("super secret", {"variant": "super-secret"}),
    ("learning: open hands", {"variant": "open", "hands": "open"}),
    ("vs bots (first seat plays)", {"variant": "open", "bots": True}),
)
THINK_S = (0.9, 2.0)


@dataclass
class Press:
    """A NO BUENO press waiting for the race to be judged."""

    t: float
    seat: int


class TacoMapper:
    """Seat events -> Taco vs Burrito table events, for the shared loop (the ``Mapper`` protocol)."""

    def __init__(self, seatmap: list[int], bot_level: str = "normal", seed: int = 0,
                 bot_seats: Callable[[int], set[int]] | None = None) -> None:
        self.seatmap = list(seatmap)
        #: which game seats bots play, given the seat count (asked when the game starts)
        self.bot_seats = bot_seats or (lambda n: set(range(len(self.seatmap) + 1, n + 1)))
        self.browser = HandBrowser({panel: i + 1 for i, panel in enumerate(self.seatmap)})
        self.chord = ButtonMapper(self.seatmap)  # the table-menu chord (BRAWL + WAR = RIGHT + PLAY held 5 s)
        self.feedback: list[Any] = []
        self.notes: list[tuple[float, str]] = []
        self.pending: list[Press] = []
        self.race_note: tuple[float, str] | None = None
        self.bot_level = bot_level
        self.bots: dict[int, Bot] = {}
        self.rng = random.Random(seed * 7919 + 1)
        self._seed = seed
        self._state: tvb.State | None = None
        self._todo: list[tuple[float, int, dict[str, Any]]] = []
        self._n = itertools.count()
        self._bot_key: Any = None
        self._asked: set[tuple[int, int, int]] = set()
        self._won: Press | None = None
        self._ready: list[dict[str, Any]] = []  # judged or due, waiting for an earlier buffered event

    # -- input ---------------------------------------------------------------------------------------

    def handle(self, ev: SeatEvent, state: Any) -> list[dict[str, Any]]:
        self.track(ev)
        self._see(state)
        seat = self.browser.seatmap.get(ev.seat)
        if seat is None:
            if ev.action == "press":
                self.notes.append((ev.t, f"panel {ev.seat} is not in this game"))
            return []
        if ev.action == "press":
            self.feedback.append(Feedback(ev.t, ev.seat, BUTTONS.get(ev.button, ev.button)))
        out = self.browser.handle(ev, state)
        for note in self.browser.notes:
            self.notes.append((note[0], f"seat {note[1]}: {note[2]}"))
        self.browser.notes.clear()
        keep = []
        for e in out:
            if e["event"] == "block":
                self.pending.append(Press(e["t"], e["seat"]))
            else:
                keep.append(e)
        return keep

    def track(self, ev: SeatEvent) -> dict[str, float]:
        return self.chord.track(ev)

    def sync(self, state: Any) -> None:
        self._see(state)
        if state is not None:
            self.browser.sync(state)

    def _see(self, state: Any) -> None:
        if state is None or self._state is state:
            return
        self._state = state
        seats = self.bot_seats(state.seats)
        self.bots = {s: make_bot(self.bot_level, s, self._seed * 31 + s) for s in sorted(seats)}
        self.browser.seatmap = {p: s for p, s in self.browser.seatmap.items() if s not in seats}

    # -- time: the race and the bots -----------------------------------------------------------------

    def combos(self, now: float) -> list[int]:
        return self.chord.combos(now)

    def combo_progress(self, now: float) -> tuple[int, float] | None:
        return self.chord.combo_progress(now)

    def oldest_pending(self) -> float | None:
        times = [p.t for p in self.pending] + [t for t, _, _ in self._todo] + [e["t"] for e in self._ready]
        return min(times, default=None)

    def blocks(self, t: float) -> bool:
        """An event at ``t`` waits while a NO BUENO press at or before it is still being judged."""
        return any(p.t <= t for p in self.pending)

    def due_sets(self, until: float, force_before: float | None = None) -> list[dict[str, Any]]:
        """Judged race winners and due bot moves, in time order; with ``force_before`` (the time of the buffered
        event about to be written) only those not later than it, so the journal stays in time order."""
        out = self._ready
        self.pending.sort(key=lambda p: p.t)
        while self.pending and self.pending[0].t + RACE_S <= until:
            first = self.pending.pop(0)
            won = self._won
            if won is not None and first.seat != won.seat and 0 <= first.t - won.t < RACE_S:
                gap = round((first.t - won.t) * 1000)
                self.race_note = (first.t, f"seat {first.seat} was {gap} ms late: seat {won.seat} won the No Bueno race")
                self.notes.append(self.race_note)
                continue
            if won is not None and first.seat == won.seat and 0 <= first.t - won.t < RACE_S:
                continue  # the same seat slamming twice in a blink: one block
            self._won = first
            out.append({"t": first.t, "event": "block", "seat": first.seat})
        self._bot_turn(until)
        while self._todo and self._todo[0][0] <= until:
            out.append(heapq.heappop(self._todo)[2])
        out.sort(key=lambda e: e["t"])
        limit = until if force_before is None else min(until, force_before)
        due = [e for e in out if e["t"] <= limit]
        self._ready = [e for e in out if e["t"] > limit]
        return due

    def _bot_turn(self, until: float) -> None:
        st = self._state
        if st is None or tvb.is_over(st) or not self.bots:
            return
        if st.phase == "window" and st.pending is not None:
            for seat in bots_blocking(st, self.bots, self._asked):
                at = until + self.rng.uniform(0.2, 0.6) * max(0.0, (st.pending.deadline - st.t))
                heapq.heappush(self._todo, (at, next(self._n), {"t": at, "event": "block", "seat": seat}))
            return
        actor = st.turn if st.phase == "move" else (st.fight.winner if st.fight else None)
        if actor is None or actor not in self.bots or self._todo:
            return
        turn_key = (actor, st.turns, st.phase, len(st.trash), len(st.pile))
        if turn_key == self._bot_key:
            return
        self._bot_key = turn_key
        at = until + self.rng.uniform(*THINK_S)
        heapq.heappush(self._todo, (at, next(self._n), {"t": at, **self.bots[actor].move(st)}))


class TacoPresenter(Presenter):
    """The play-by-play and the ticker; Taco vs Burrito has no moments (the table view shows everything)."""

    def _say(self, cue: Cue, state: Any) -> None:
        return

    def _note(self, cue: Cue, host_t: float) -> None:
        return

    def _sound(self, cue: Cue, state: Any, host_t: float) -> None:
        return


class TacoVsBurrito:
    name = tvb.name
    title = "Taco vs Burrito"
    variants = VARIANTS
    seats = (2, 6)
    uses_devices = False
    demo_seats = 4

    def __init__(self) -> None:
        #: the hand display: "peek" unless the lobby chose open hands, "screens" when seat displays are on
        #: (``seat_screens``: a ``game.app.seat_screens.SeatScreens``, set by the app or from the environment
        #: variable ``BURRITO_SEAT_SCREENS``, e.g. ``1=ssd1306@i2c:1:0x3C,2=ssd1306@i2c:1:0x3D``)
        self.hands = "peek"
        self.bots_play_others = False
        self.seat_screens: Any = None

    def setup(self, seats: int, variant: int = 0, seed: int | None = None) -> dict[str, Any]:
        """The lobby's choice as a setup line; "vs bots" hands every joined seat but the first to a bot."""
        spec = os.environ.get("BURRITO_SEAT_SCREENS")
        if self.seat_screens is None and spec:
            from game.app.seat_screens import SeatScreens

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

    def battle_context(self, state: Any) -> tuple[bool, frozenset[int]]:
        return False, frozenset()

    def prepare(self, state: Any, event: dict[str, Any]) -> list[dict[str, Any]]:
        return []

    def screens(self) -> dict[str, Callable[[Any, View], None]]:
        from game.app.taco_screens import APP_SCREENS

        return APP_SCREENS

    def standings(self, summary: dict[str, Any]) -> list[str]:
        return tvb.standings(summary)

    def bots(self, app: Any, rig: Any, seed: int, direct: bool) -> Any:
        """The demo's bots play at the mock pins, through the hand browser, as people would."""
        from game.app.sim import press

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
        v.extra["taco"] = self.table_view(app, now)
        if self.seat_screens is not None:
            table_now = now - app.hold_back_s - app.t0
            self.seat_screens.update(lambda seat: seat_screen_view(st, mapper.browser, seat, table_now))

    def table_view(self, app: Any, now: float) -> Any:
        st = app.state
        mapper: TacoMapper = app.mapper
        race = mapper.race_note[1] if mapper.race_note and now - mapper.race_note[0] < 2.5 else ""
        flash = {mapper.browser.seatmap[f.seat]: f.text for f in mapper.feedback
                 if now - f.t < 0.6 and f.seat in mapper.browser.seatmap}
        return build_view(st, mapper.browser, {s: b.level for s, b in mapper.bots.items()}, self.hands,
                          now - app.hold_back_s - app.t0, ticker=list(app.presenter.ticker), banner=app.banner,
                          race=race, flash=flash)

    def live_view(self, app: Any, v: View, now: float) -> None:
        tv = v.extra.get("taco")
        if tv is not None:
            v.screen = f"taco_{tv.screen}"
            if tv.hint and not v.hint:
                v.hint = tv.hint


MODE = TacoVsBurrito()
