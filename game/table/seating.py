"""Who sits where: one mapping between game seats, seat panels and the badges paired to them.

Panels are wired seat numbers (1..pinmap seats); badges are paired at a panel. A game is played by the panels that
joined, numbered 1..N clockwise as game seats (``seatmap[i]`` is the panel of game seat ``i + 1``). The rules, the
referee and the journal speak game seats; the pins, the lights and the pairings speak panels. Every translation goes
through :class:`Seating`, so a table where panels 1, 2, 4 and 5 joined credits a hit on panel 4's badge to game seat 3,
and a badge paired at a panel that is not in the game is simply left out (it is counted, never an error).

    >>> s = Seating((1, 2, 4, 5))
    >>> s.seat_of(4), s.panel_of(3), s.seat_of(3)
    (3, 4, None)
    >>> s.badges({"badge-4": 4, "badge-6": 6})
    ({'badge-4': 3}, {'badge-6': 6})
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from hardware.events import SeatEvent


@dataclass(frozen=True)
class Seating:
    """The panels of game seats 1..N, in game-seat order."""

    panels: tuple[int, ...]

    def seat_of(self, panel: int) -> int | None:
        """The game seat at ``panel``, or None if that panel is not in the game."""
        try:
            return self.panels.index(panel) + 1
        except ValueError:
            return None

    def panel_of(self, seat: int) -> int | None:
        return self.panels[seat - 1] if 1 <= seat <= len(self.panels) else None

    def badges(self, by_panel: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
        """(badge -> game seat for the badges of panels in the game, badge -> panel for the rest, ignored)."""
        game: dict[str, int] = {}
        ignored: dict[str, int] = {}
        for name, panel in by_panel.items():
            seat = self.seat_of(panel)
            if seat is None:
                ignored[name] = panel
            else:
                game[name] = seat
        return game, ignored

    def to_game(self, ev: SeatEvent) -> SeatEvent | None:
        """The same button event with its game seat, or None from a panel that is not in the game."""
        seat = self.seat_of(ev.seat)
        return None if seat is None else dataclasses.replace(ev, seat=seat)
