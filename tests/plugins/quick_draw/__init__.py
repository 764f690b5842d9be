"""Quick Draw: an example game plugin, outside the project's own packages.

It proves the plugin seam from outside: a test registers it under the ``burrito_table.games`` entry-point group,
and it shows up in the lobby and replays its logs like the built-in games. docs/writing-a-game.md walks through it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.table.mode import GameMode
from game.table.present import SeatView, View

from . import rules
from .buttons import QuickDrawButtons


class QuickDraw(GameMode):
    name = rules.name
    title = "Quick Draw"
    seats = (2, 2)
    rules = rules
    variants = (("best of 3", {"rounds": 3}), ("best of 5", {"rounds": 5}))
    demo_seats = 2

    def mapper(self, seatmap: list[int]) -> QuickDrawButtons:
        return QuickDrawButtons(seatmap)

    def seat_views(self, app: Any, now: float) -> list[SeatView]:
        st = app.state
        out = []
        for i, panel in enumerate(app.seatmap):
            sv = SeatView(seat=i + 1, panel=panel)
            if st is not None:
                sv.points = st.wins[i + 1]
                sv.role = "winner" if st.winner == i + 1 else "idle"
            out.append(sv)
        return out

    def live_view(self, app: Any, v: View, now: float) -> None:
        st = app.state
        if st is not None and st.winner is None:
            v.screen = "quickdraw"
            v.big = "DRAW!" if st.drawn else "WAIT..."

    def screens(self) -> dict[str, Callable[[Any, View], None]]:
        from .screens import SCREENS

        return SCREENS

    def bots(self, app: Any, rig: Any, seed: int, direct: bool) -> Any:
        from game.table.sim import press

        from .bots import QuickDrawBots

        return QuickDrawBots(app, lambda panel, button, down: press(rig, panel, button, down), seed)


GAME = QuickDraw()
