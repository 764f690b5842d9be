"""Quick Draw's buttons: SET on a seat's panel is the seat's trigger; the table menu chord works as in every game."""

from __future__ import annotations

from typing import Any

from game.table.buttons import ButtonMapper
from hardware.events import SeatEvent


class QuickDrawButtons(ButtonMapper):
    """A SET press is a ``press`` at its edge time; every other button only shows on the seat's card."""

    def handle(self, ev: SeatEvent, state: Any) -> list[dict[str, Any]]:
        seat, _ = self.arrive(ev)
        if seat is None or ev.action != "press" or ev.button != "SET":
            return []
        return [{"event": "press", "t": ev.t, "seat": seat}]
