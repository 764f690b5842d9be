"""Playing ``burrito-table play --sim`` by script, through its real input path (holds no tests itself).

``Script.run(scenario)`` runs the real ``run_play`` loop under SDL's dummy drivers on a stepped clock, ``speed`` (16) times
faster than real time (the virtual devices' threads, the pty and the expander worker need that real time). The
scenario is a generator: it posts SDL key events (the seat keys of docs/hardware.md, F9/F10/F11, the arrows) with
``tap``/``hold``, and yields to let table time pass: ``yield 1.5`` waits 1.5 s, ``yield until(pred, 10)`` waits for
``pred(app)`` (failing after 10 s of table time). Every frame records a failsafe, a question from the table and the
journal's length, for the test to assert on.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame

from game.cli import build_parser
from game.table.clock import SteppedClock
from game.table.runner import STEP_S, run_play

#: Seat keys per panel, top to bottom SET, BRAWL, WAR, DUEL (docs/hardware.md, section 6).
KEYS = {1: "1qaz", 2: "2wsx", 3: "3edc", 4: "4rfv", 5: "5tgb", 6: "6yhn", 7: "7ujm", 8: "8ik,", 9: "9ol.",
        10: "0p;/"}
KEYS.update({11: ("f1", "f2", "f3", "f4"), 12: ("f5", "f6", "f7", "f8")})  # type: ignore[dict-item]
BUTTONS = ("SET", "BRAWL", "WAR", "DUEL")
TWELVE = str(Path(__file__).resolve().parents[1] / "hardware" / "pinmaps" / "twelve-seats.toml")

Scenario = Generator[Any, None, None]


@dataclass
class Until:
    pred: Callable[[Any], bool]
    timeout: float
    what: str


def until(pred: Callable[[Any], bool], timeout: float = 15.0, what: str = "") -> Until:
    return Until(pred, timeout, what or getattr(pred, "__name__", "condition"))


def key_of(panel: int, button: str) -> str:
    return KEYS[panel][BUTTONS.index(button)]


#: Table time of the last key posted, and until when a simulated throw may still be in the air (see ``Script.pace``).
_recent: dict[str, float] = {"key": float("-inf"), "throw": float("-inf"), "now": 0.0}


def post(name: str, down: bool) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN if down else pygame.KEYUP, key=pygame.key.key_code(name)))
    _recent["key"] = _recent["now"]
    if name in ("f9", "f10", "f11"):
        _recent["throw"] = _recent["now"] + 7.0  # the trace, the call and a claim press are done by then


def tap(name: str, hold: float = 0.12) -> Iterator[Any]:
    """Press and release one key (``yield from tap("1")``)."""
    post(name, True)
    yield hold
    post(name, False)
    yield 0.12


def press(panel: int, button: str, hold: float = 0.12) -> Iterator[Any]:
    """A seat button on a panel, by its keyboard key."""
    yield from tap(key_of(panel, button), hold)


@dataclass
class Script:
    """One run of the table app; read ``failsafes``, ``questions``, ``journal_lengths`` and ``app`` afterwards."""

    journal: Path
    config: str | None = None
    speed: float = 16.0
    #: x real time while nothing moves on the devices' or the expanders' threads (no key or throw just now)
    idle_speed: float = 60.0
    limit_s: float = 240.0
    clock: SteppedClock = field(default_factory=SteppedClock)
    app: Any = None
    failsafes: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    timeouts: list[str] = field(default_factory=list)
    frames: int = 0
    out: io.StringIO = field(default_factory=io.StringIO)

    def args(self) -> Any:
        argv = ["play", "--sim", "--headless", "--mute", "--journal", str(self.journal), "--size", "640x360"]
        if self.config:
            argv += ["--config", self.config]
        return build_parser().parse_args(argv)

    def run(self, scenario: Callable[[Script], Scenario], lobby_seed: int = 7) -> int:
        gen = scenario(self)
        start = self.clock()
        wait_until = 0.0
        waiting: Until | None = None
        waiting_since = 0.0

        def driver(app: Any, now: float) -> bool:
            nonlocal wait_until, waiting, waiting_since
            if self.app is None and app.lobby is not None:
                app.lobby.seed = lobby_seed  # a fixed deal (Zombie Burrito's teams) for a repeatable case
            self.app = app
            self.frames += 1
            if app.error is not None and (not self.failsafes or self.failsafes[-1] != app.error):
                self.failsafes.append(app.error)
            q = app.question
            if q is not None and (not self.questions or self.questions[-1] != q.text):
                self.questions.append(q.text)
            if now - start > self.limit_s:
                self.timeouts.append(f"the scenario ran past {self.limit_s:g} s of table time")
                return False
            while True:
                if waiting is not None:
                    if waiting.pred(app):
                        waiting = None
                    elif now - waiting_since > waiting.timeout:
                        self.timeouts.append(f"waited {waiting.timeout:g} s for {waiting.what}")
                        return False
                    else:
                        break
                if now < wait_until:
                    break
                try:
                    cmd = next(gen)
                except StopIteration:
                    return False
                if isinstance(cmd, Until):
                    waiting, waiting_since = cmd, now
                else:
                    wait_until = now + float(cmd)
            self.clock.advance(STEP_S)
            time.sleep(STEP_S / self.pace(now))
            return True

        return run_play(self.args(), self.out, clock=self.clock, driver=driver)

    def pace(self, now: float) -> float:
        """The virtual devices, the device host and the expander worker are threads on real time: they get it at
        ``speed`` while a key was just posted or a throw is in the air, and the loop runs faster in between."""
        _recent["now"] = now
        busy = now - _recent["key"] < 0.5 or now < _recent["throw"]
        return self.speed if busy else self.idle_speed

    # -- what the journal says ----------------------------------------------------------------------

    def events(self) -> list[dict[str, Any]]:
        live = self.app.live if self.app is not None else None
        return list(live.table.events) if live is not None else []

    def calls(self, kinds: tuple[str, ...] = ("hit", "miss", "catch", "overturn")) -> list[tuple[str, Any]]:
        return [(e["event"], e.get("seat")) for e in self.events() if e["event"] in kinds]


def join_and_start(panels: list[int], choice: int) -> Iterator[Any]:
    """In the lobby: every panel joins (SET), the first steps the game/variant list ``choice`` times (WAR), DUEL."""
    for p in panels:
        yield from press(p, "SET")
    for _ in range(choice):
        yield from press(panels[0], "WAR")
    yield from press(panels[0], "DUEL")
    yield until(lambda app: app.live is not None, 3.0, "the game to start")
