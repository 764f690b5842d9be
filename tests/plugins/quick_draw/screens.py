"""Quick Draw's one screen: the two seats, and WAIT... or DRAW! across the middle."""

from __future__ import annotations

from collections.abc import Callable

from game.table.present import View
from game.table.screens import GOLD, LIME, Painter, scoreboard_base


def draw_duel(p: Painter, v: View) -> None:
    scoreboard_base(p, v)
    p.text(v.big, 160, LIME if v.big == "DRAW!" else GOLD, (p.w / 2, p.h / 2))


SCREENS: dict[str, Callable[[Painter, View], None]] = {"quickdraw": draw_duel}
