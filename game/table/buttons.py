"""Seat buttons -> table events, for Throw Throw Burrito (docs/hardware.md, "What the buttons mean").

=====================================  ==============================================================
gesture (on a seat's panel)            what the table does
=====================================  ==============================================================
SET press                              an ordinary set (+1), kept *pending* for ``take_back_s``
SET hold                               take back: this press counts nothing, and the seat's newest
                                       pending set is withdrawn (a mistaken press)
BRAWL / WAR / DUEL press               ``declare`` that battle
while this seat picks its duellists    BRAWL ◀ / WAR ▶ move round the table, SET picks the highlighted
                                       seat (twice, yourself allowed), DUEL un-picks; two picks -> ``pick``
BRAWL + WAR held together 5 s          the table menu (resume, restart, shut down)
=====================================  ==============================================================

Why sets wait: the log is append-only and the rules have no "unset"; a set that is still pending can simply never
be written. A pending set is written once its button is up and ``take_back_s`` has passed, or earlier when a later
event must be written first (events go to the journal in time order). Battle calls are never delayed.

Panel seats are the wired seat numbers; game seats are 1..N over the panels that joined, clockwise. ``seatmap``
lists the panel of each game seat, so a table where seats 1, 3 and 4 joined plays a three-seat game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hardware.events import SeatEvent

BATTLE_BUTTONS = {"BRAWL": "brawl", "WAR": "war", "DUEL": "duel"}
COMBO = frozenset(("BRAWL", "WAR"))
COMBO_S = 5.0
TAKE_BACK_S = 1.5


@dataclass
class PendingSet:
    """An ordinary set not yet written; ``released`` once its button came up without a hold."""

    t: float
    seat: int  # game seat
    released: bool = False


@dataclass
class Picking:
    """A Duel declarer choosing two duellists on its own panel."""

    declarer: int
    cursor: int
    chosen: list[int] = field(default_factory=list)


@dataclass
class Feedback:
    """What the screen shows at once for a press, before the rules have seen it (button -> frame latency)."""

    t: float
    seat: int  # panel seat
    text: str


class ButtonMapper:
    """Turns SeatEvents into table events (``dict`` with host time ``t``) for the loop's merge buffer."""

    def __init__(self, seatmap: list[int], take_back_s: float = TAKE_BACK_S, combo_s: float = COMBO_S) -> None:
        self.seatmap = list(seatmap)
        self.game_seat = {panel: i + 1 for i, panel in enumerate(self.seatmap)}
        self.take_back_s = take_back_s
        self.combo_s = combo_s
        self.pending: list[PendingSet] = []
        self.picking: Picking | None = None
        self.feedback: list[Feedback] = []
        self.notes: list[tuple[float, str]] = []
        self._down: dict[int, dict[str, float]] = {}
        self._combo_fired: set[int] = set()
        self._press_set: dict[int, PendingSet] = {}

    # -- input --------------------------------------------------------------------------------

    def arrive(self, ev: SeatEvent) -> tuple[int | None, dict[str, float]]:
        """What every game's mapper does first: track the button, flash the press, find the game seat (None: the
        panel is not in this game, which is noted)."""
        down = self.track(ev)
        seat = self.game_seat.get(ev.seat)
        if seat is None:
            if ev.action == "press":
                self.notes.append((ev.t, f"panel {ev.seat} is not in this game"))
            return None, down
        if ev.action == "press":
            self.feedback.append(Feedback(ev.t, ev.seat, ev.button))
        return seat, down

    def handle(self, ev: SeatEvent, state: Any) -> list[dict[str, Any]]:
        """One seat event against the rules state as the table sees it now; returns table events to queue."""
        seat, down = self.arrive(ev)
        if seat is None:
            return []
        if self._pick_mode(seat, state):
            return self._pick(ev, seat, state)
        if ev.button == "SET":
            return self._set(ev, seat)
        if ev.action == "press" and ev.button in BATTLE_BUTTONS:
            if COMBO <= set(down):
                return []  # the start of the menu chord, not a battle call
            return [{"t": ev.t, "event": "declare", "seat": seat, "battle": BATTLE_BUTTONS[ev.button]}]
        return []

    def track(self, ev: SeatEvent) -> dict[str, float]:
        """Keep which buttons of the panel are down (for the menu chord); returns them."""
        down = self._down.setdefault(ev.seat, {})
        if ev.action == "press":
            down[ev.button] = ev.t
        elif ev.action == "release":
            down.pop(ev.button, None)
            self._combo_fired.discard(ev.seat)
        return down

    def owns(self, ev: SeatEvent) -> bool:
        """Is this hold a take-back? A SET hold while an earlier set of the seat is still pending takes that set back,
        and is never a challenge of the referee's last call (the mapper would otherwise wait for ever on the set
        whose release it never sees). With nothing to take back, a SET hold may be a challenge."""
        seat = self.game_seat.get(ev.seat)
        if ev.action != "hold" or ev.button != "SET" or seat is None or seat not in self._press_set:
            return False
        own = self._press_set[seat]
        return any(p.seat == seat and p is not own for p in self.pending)

    def lost(self, ev: SeatEvent) -> None:
        """The end of a press that something else took (the referee, the table menu, the failsafe screen): end what
        the press began, so nothing waits for ever on a release the mapper never saw. A SET released elsewhere is
        a set (it was laid before); a SET hold taken elsewhere (a challenge) counts nothing."""
        seat = self.game_seat.get(ev.seat)
        if ev.button != "SET" or seat is None or ev.action not in ("release", "hold"):
            return
        own = self._press_set.pop(seat, None)
        if own is None:
            return
        if ev.action == "release":
            own.released = True
        elif own in self.pending:
            self.pending.remove(own)

    def _set(self, ev: SeatEvent, seat: int) -> list[dict[str, Any]]:
        if ev.action == "press":
            p = PendingSet(ev.t, seat)
            self.pending.append(p)
            self._press_set[seat] = p
        elif ev.action == "release":
            up = self._press_set.pop(seat) if seat in self._press_set else None
            if up is not None:
                up.released = True
        elif ev.action == "hold":
            own = self._press_set.pop(seat, None)
            if own is not None and own in self.pending:
                self.pending.remove(own)
            older = [p for p in self.pending if p.seat == seat]
            if older:
                self.pending.remove(older[-1])
                self.notes.append((ev.t, f"Seat {seat} takes back a set"))
            else:
                self.notes.append((ev.t, f"Seat {seat}: no set left to take back"))
        return []

    # -- duel picking ---------------------------------------------------------------------------

    def _pick_mode(self, seat: int, state: Any) -> bool:
        battle = getattr(state, "battle", None)
        waiting = battle is not None and battle.awaiting_pick and battle.loser is None and battle.declarer == seat
        early = bool(getattr(state, "declaring", None)) and state.declaring[0][1] == seat \
            and state.declaring[0][2] == "duel" and len(state.declaring) == 1 and getattr(state, "early_pick", None) is None
        if not (waiting or early):
            if self.picking is not None and self.picking.declarer == seat and not waiting:
                self.picking = None if not early else self.picking
            return False
        if self.picking is None or self.picking.declarer != seat:
            self.picking = Picking(seat, seat)
        return True

    def _pick(self, ev: SeatEvent, seat: int, state: Any) -> list[dict[str, Any]]:
        p = self.picking
        assert p is not None
        if ev.action != "press":
            return []
        n = len(self.seatmap)
        if ev.button == "BRAWL":
            p.cursor = (p.cursor - 2) % n + 1
        elif ev.button == "WAR":
            p.cursor = p.cursor % n + 1
        elif ev.button == "DUEL":
            if p.chosen:
                p.chosen.pop()
        elif ev.button == "SET" and p.cursor not in p.chosen:
            p.chosen.append(p.cursor)
            if len(p.chosen) == 2:
                players = list(p.chosen)
                self.picking = None
                return [{"t": ev.t, "event": "pick", "seat": seat, "players": players}]
        return []

    def sync(self, state: Any) -> None:
        """Drop a picking session the rules no longer wait for (the window merged into a War, say)."""
        if self.picking is not None and not self._pick_mode(self.picking.declarer, state):
            self.picking = None

    # -- time -------------------------------------------------------------------------------------

    def combos(self, now: float) -> list[int]:
        """Panels whose BRAWL + WAR have been held together ``combo_s`` (each fires once per hold)."""
        out = []
        for panel, down in self._down.items():
            if COMBO <= set(down) and panel not in self._combo_fired:
                if now - max(down[b] for b in COMBO) >= self.combo_s:
                    self._combo_fired.add(panel)
                    out.append(panel)
        return out

    def combo_progress(self, now: float) -> tuple[int, float] | None:
        """(panel, seconds held) of the longest chord in progress, for the on-screen hint."""
        best = None
        for panel, down in self._down.items():
            if COMBO <= set(down) and panel not in self._combo_fired:
                held = now - max(down[b] for b in COMBO)
                if best is None or held > best[1]:
                    best = (panel, held)
        return best

    def oldest_pending(self) -> float | None:
        return min((p.t for p in self.pending), default=None)

    def due_sets(self, until: float, force_before: float | None = None) -> list[dict[str, Any]]:
        """Pending sets to write now: released and past the take-back time, or older than an event being written.

        ``force_before``: the time of the next event to be written; a released set older than it is written first.
        """
        out = []
        for p in list(self.pending):
            if not p.released:
                continue
            if p.t + self.take_back_s <= until or (force_before is not None and p.t <= force_before):
                self.pending.remove(p)
                out.append({"t": p.t, "event": "set", "seat": p.seat})
        return out

    def blocks(self, t: float) -> bool:
        """True if a set still held down is older than ``t`` (it may yet be taken back, so ``t`` must wait)."""
        return any(not p.released and p.t <= t for p in self.pending)
