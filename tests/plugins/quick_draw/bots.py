"""Quick Draw's demo players: each presses SET a human reaction time after the draw (and now and then too early)."""

from __future__ import annotations

import random
from typing import Any


class QuickDrawBots:
    def __init__(self, app: Any, press: Any, seed: int) -> None:
        self.app, self.press, self.rng = app, press, random.Random(seed)
        self.planned: dict[int, float] = {}

    def step(self, now: float) -> None:
        st = self.app.state
        if st is None or st.winner is not None:
            return
        key = st.round
        if key not in self.planned:
            early = self.rng.random() < 0.1
            self.planned[key] = self.app.t0 + st.draw_at + (-0.5 if early else self.rng.uniform(0.18, 0.4))
        if now >= self.planned[key] >= 0:
            panel = self.app.seatmap[self.rng.randrange(2)]
            self.press(panel, "SET", True)
            self.press(panel, "SET", False)
            self.planned[key] = -1.0
