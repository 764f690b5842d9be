"""Simulation keys produce real evidence: F9/F10/F11 play accelerometer traces through the virtual devices' real
detector, the pty and the device host, and the referee calls a clean throw without asking anyone (docs/referee.md)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from game.journal import Journal
from game.table.clock import SteppedClock
from game.table.loop import TableApp
from game.table.runner import SimControls
from game.table.sim import open_sim, press

SPEED = 12.0  # x real time: the device threads (pty, host, detector) keep up; faster and radio timing is lost
STEP = 1 / 60


class Table:
    """A two- or four-seat game on the demo pin map with virtual devices, driven frame by frame."""

    def __init__(self, tmp_path: Path, seats: int) -> None:
        self.clock = SteppedClock()
        self.rig = open_sim(self.clock, seats=seats)
        self.journal = Journal(str(tmp_path / "t.db"))
        self.app = TableApp(panels=self.rig.panels, journal=self.journal, clock=self.clock,
                            seatmap=list(range(1, seats + 1)), devices=self.rig.host, device_map=self.rig.device_map)
        self.keys = SimControls(self.app, self.rig, self.clock, seed=3)
        self.questions: list[str] = []
        self.app.start({"event": "setup", "game": "throw-throw-burrito", "seats": seats})
        self.run(6.0)

    def run(self, seconds: float) -> None:
        for _ in range(int(seconds / STEP)):
            now = self.clock.advance(STEP)
            self.keys.tick(now)
            self.app.step(now)
            q = self.app.question
            if q is not None and (not self.questions or self.questions[-1] != q.text):
                self.questions.append(q.text)
            time.sleep(STEP / SPEED)

    def tap(self, panel: int, button: str) -> None:
        press(self.rig, panel, button, True)
        self.run(0.12)
        press(self.rig, panel, button, False)
        self.run(0.1)

    def close(self) -> None:
        self.rig.close()
        self.journal.close()


@pytest.fixture
def duel(tmp_path: Path):
    t = Table(tmp_path, 2)
    yield t
    t.close()


@pytest.mark.parametrize("key,call", [("f9", "hit"), ("f10", "miss"), ("f11", "catch")])
def test_a_clean_key_throw_is_called_from_device_evidence_without_a_question(duel: Table, key: str, call: str) -> None:
    """Each key's throw reaches the referee as detector output and is called automatically, as at a real table."""
    for _ in range(2):  # twice: the second throw is a fresh battle with the burrito back in the middle
        duel.tap(1, "DUEL")  # two seats: the Duel is 1 vs 2
        duel.run(1.0)
        assert duel.app.state.battle is not None and duel.app.state.battle.loser is None
        duel.keys.target = 2
        assert duel.keys.key(key)
        duel.run(6.0)
        last = [e for e in duel.app.live.table.events if e.get("event") in ("hit", "miss", "catch")][-1]
        assert last["event"] == call
        ev = last["evidence"]
        assert "confirmed_by_people" not in ev
        if call == "hit":
            assert last["seat"] == 2 and ev["badge_device"] == "badge-2" and abs(ev["gap_ms"]) < 10
        elif call == "miss":
            assert ev["badges_clear"]  # every badge's heartbeat said nothing was left to send
        else:
            assert last["seat"] == 2 and ev["confirmed_by"] == [2]  # the catcher's claim press
        duel.run(2.0)
    assert duel.questions == []
    assert duel.app.error is None
    truth = {e.kind for e in duel.rig.virtual.truth if e.device == "burrito-1"}
    assert {"pickup", "launch"} <= truth  # the detector found the throw in the trace, not a scripted event
