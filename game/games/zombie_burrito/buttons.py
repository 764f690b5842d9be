"""Zombie Burrito's seat buttons -> table events.

Buttons (docs/hardware.md, "Zombie Burrito"):

=====================================  ==============================================================
gesture (on a seat's panel)            what the table does
=====================================  ==============================================================
SET press (no battle on)               "I laid down an advantage set": a chooser opens on the seat's
                                       card; BRAWL ◀ / WAR ▶ move through the kinds (own side first),
                                       SET confirms (``advantage``), DUEL or a SET hold cancels
WAR press (no battle on)               "Battle!" (``declare``)
WAR hold (no battle on)                "Battle!" without three matching cards: a false call
                                       (``declare`` with ``valid: false``; the team loses the battle)
BRAWL / WAR, then SET (battle setup)   the seat's team chooses which of the other team's sets to cancel
                                       (one cursor per team, shared by its members)
DUEL (battle on, team has a revive)    spend a revive: BRAWL ◀ / WAR ▶ pick an eliminated teammate,
                                       SET confirms (``revive``), DUEL cancels
=====================================  ==============================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.games.zombie_burrito import rules as zb
from game.table.buttons import ButtonMapper
from hardware.events import SeatEvent


@dataclass
class Chooser:
    """A seat choosing among ``items`` on its card (an advantage kind, or a teammate to revive)."""

    seat: int
    purpose: str  # "advantage" or "revive"
    items: list[tuple[str, str]] = field(default_factory=list)  # (side or "", kind or seat)
    cursor: int = 0

    def line(self) -> str:
        if not self.items:
            return ""
        side, item = self.items[self.cursor]
        if self.purpose == "revive":
            return f"revive: < seat {item} >"
        return f"< {side} {item} >"


class ZombieMapper(ButtonMapper):
    """Seat events -> Zombie Burrito table events (the menu chord and the press feedback are ButtonMapper's)."""

    def __init__(self, seatmap: list[int]) -> None:
        super().__init__(seatmap)
        self.choosers: dict[int, Chooser] = {}  # game seat -> its open chooser
        self.cancel_cursor: dict[str, int] = {"zombies": 0, "survivors": 0}
        self._war_down: dict[int, float] = {}

    def handle(self, ev: SeatEvent, state: Any) -> list[dict[str, Any]]:
        seat, down = self.arrive(ev)
        if seat is None:
            return []
        if state is None or state.winner is not None:
            return []
        ch = self.choosers.get(seat)
        if ch is not None:
            return self._choose(ev, seat, ch, state)
        battle = state.battle
        if battle is None:
            if ev.button == "WAR" and ev.action == "hold":
                return [{"t": self._war_down.pop(seat, ev.t), "event": "declare", "seat": seat, "valid": False}]
            if ev.button == "WAR" and ev.action == "press":
                if {"BRAWL", "WAR"} <= set(down):
                    return []  # the menu chord
                self._war_down[seat] = ev.t
                return []
            if ev.button == "WAR" and ev.action == "release" and seat in self._war_down:
                return [{"t": self._war_down.pop(seat), "event": "declare", "seat": seat}]
            if ev.button == "SET" and ev.action == "press":
                own = zb.SIDE_OF[state.team_of[seat]]
                other = zb.SIDE_OF[zb.OTHER[state.team_of[seat]]]
                items = [(own, k) for k in sorted(state.catalog[own])] + [(other, k) for k in sorted(state.catalog[other])]
                if items:
                    self.choosers[seat] = Chooser(seat, "advantage", items)
            return []
        if ev.action != "press":
            return []
        team = state.team_of[seat]
        if battle.phase == "setup" and ev.button in ("BRAWL", "WAR", "SET") and zb.can_cancel(battle, team):
            kinds = self.cancel_kinds(battle, team)
            cur = self.cancel_cursor[team] % len(kinds)
            if ev.button == "SET":
                return [{"t": ev.t, "event": "cancel", "team": team, "kind": kinds[cur]}]
            self.cancel_cursor[team] = (cur + (1 if ev.button == "WAR" else -1)) % len(kinds)
            return []
        if ev.button == "DUEL" and battle.phase == "fight" and battle.revives_left[team] > 0:
            out = [s for s in state.teams[team] if s not in battle.alive]
            if out:
                self.choosers[seat] = Chooser(seat, "revive", [("", str(s)) for s in out])
        return []

    def owns(self, ev: SeatEvent) -> bool:
        """A WAR hold that may be a false "Battle!", and a SET hold that closes a chooser, are this mapper's."""
        seat = self.game_seat.get(ev.seat)
        if ev.action == "hold" and seat is not None:
            if (ev.button == "WAR" and seat in self._war_down) or (ev.button == "SET" and seat in self.choosers):
                return True
        return super().owns(ev)

    def lost(self, ev: SeatEvent) -> None:
        """A WAR whose release or hold something else took is neither a "Battle!" nor a false one: it waits no more."""
        seat = self.game_seat.get(ev.seat)
        if ev.button == "WAR" and ev.action in ("release", "hold") and seat is not None:
            self._war_down.pop(seat, None)
        super().lost(ev)

    @staticmethod
    def cancel_kinds(battle: Any, team: str) -> list[str]:
        """The other team's kinds this team may still cancel, in name order."""
        return sorted(k for k, n in zb.sets_left(battle, zb.OTHER[team]).items() if n > 0)

    def _choose(self, ev: SeatEvent, seat: int, ch: Chooser, state: Any) -> list[dict[str, Any]]:
        if ev.action == "hold" and ev.button == "SET":
            self.choosers.pop(seat, None)
            self.notes.append((ev.t, f"Seat {seat}: set not laid"))
            return []
        if ev.action != "press":
            return []
        if ev.button == "BRAWL":
            ch.cursor = (ch.cursor - 1) % len(ch.items)
        elif ev.button == "WAR":
            ch.cursor = (ch.cursor + 1) % len(ch.items)
        elif ev.button == "DUEL":
            self.choosers.pop(seat, None)
        elif ev.button == "SET":
            self.choosers.pop(seat, None)
            side, item = ch.items[ch.cursor]
            if ch.purpose == "advantage":
                return [{"t": ev.t, "event": "advantage", "seat": seat, "side": side, "kind": item}]
            return [{"t": ev.t, "event": "revive", "seat": int(item)}]
        return []

    def sync(self, state: Any) -> None:
        """Close choosers the game moved past: advantage choosers when a battle starts, revive ones when it ends."""
        if state is None:
            return
        battle = state.battle
        for seat, ch in list(self.choosers.items()):
            if ch.purpose == "advantage" and (battle is not None or state.winner is not None):
                del self.choosers[seat]
            elif ch.purpose == "revive":
                team = state.team_of[seat]
                out = [s for s in state.teams[team] if battle is not None and s not in battle.alive]
                if battle is None or battle.phase != "fight" or battle.revives_left[team] <= 0 or not out:
                    del self.choosers[seat]
                else:
                    keep = ch.items[ch.cursor][1]
                    ch.items = [("", str(s)) for s in out]
                    ch.cursor = next((i for i, (_, s) in enumerate(ch.items) if s == keep), 0)
        if battle is None:
            self.cancel_cursor = {"zombies": 0, "survivors": 0}

    def blocks(self, t: float) -> bool:
        """A WAR still down might yet become a false "Battle!" (a hold): events after it wait."""
        return any(t0 <= t for t0 in self._war_down.values()) or super().blocks(t)

    def oldest_pending(self) -> float | None:
        olds = [t for t in (super().oldest_pending(), *self._war_down.values()) if t is not None]
        return min(olds, default=None)


# -- cues -> moments ----------------------------------------------------------------------------------
