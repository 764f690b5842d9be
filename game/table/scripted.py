"""Playing ``burrito-table play --sim`` by script, through its real input path: the acceptance tests and the soak.

``Script.run(scenario)`` runs the real ``run_play`` loop under SDL's dummy drivers on a stepped clock, ``speed`` (6) times
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
from importlib import resources
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
TWELVE = str(resources.files("hardware.pinmaps").joinpath("twelve-seats.toml"))

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


#: The app being played (set by ``Script.run``), for helpers that look before they press.
_app: list[Any] = []

#: Table time of the last key posted, and until when a simulated throw may still be in the air (see ``Script.pace``).
_recent: dict[str, float] = {"key": float("-inf"), "throw": float("-inf"), "now": 0.0}


def post(name: str, down: bool) -> None:
    # what SDL puts in a real key event: the key, the character it types (for name cards), no modifiers
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN if down else pygame.KEYUP, key=pygame.key.key_code(name),
                                         unicode=name if len(name) == 1 else "", mod=0, scancode=0))
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


def chord(panel: int) -> Iterator[Any]:
    """Hold BRAWL + WAR on a panel until the table menu opens, then let go."""
    post(key_of(panel, "BRAWL"), True)
    post(key_of(panel, "WAR"), True)
    yield until(lambda app: app.menu_open, 6.0, "the menu")
    post(key_of(panel, "BRAWL"), False)
    post(key_of(panel, "WAR"), False)
    yield 0.3


@dataclass
class Script:
    """One run of the table app; read ``failsafes``, ``questions``, ``journal_lengths`` and ``app`` afterwards."""

    journal: Path
    config: str | None = None
    speed: float = 6.0  # a loaded 2-core CI machine still gives the pty threads their time
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
        # phones on a free loopback port and the house settings beside the journal: a scripted table never takes
        # a live table's port or rewrites the user's settings
        argv = ["play", "--sim", "--headless", "--mute", "--journal", str(self.journal), "--size", "640x360",
                "--web-host", "127.0.0.1", "--web-port", "0", "--settings", str(self.journal.with_name("settings.json"))]
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
            if self.app is None:
                app.lobby_seed = lobby_seed  # a fixed deal (Zombie Burrito's teams) for a repeatable run
                if app.lobby is not None:
                    app.lobby.seed = lobby_seed
            self.app = app
            _app[:] = [app]
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
    """In the lobby: every panel joins (SET), the first steps the game/variant list ``choice`` times (WAR), DUEL.

    A panel already in the lobby is not pressed again: SET on a joined seat opens its name card, which would take
    the keys that follow as typing."""
    for p in panels:
        lobby = _app[0].lobby if _app else None
        if lobby is None or p not in lobby.joined:
            yield from press(p, "SET")
    for _ in range(choice):
        yield from press(panels[0], "WAR")
    yield from press(panels[0], "DUEL")
    yield until(lambda app: app.live is not None, 3.0, "the game to start")


# -- the soak: random presses from the joined seats ---------------------------------------------------------------


@dataclass
class SoakStats:
    """What a soak did and saw."""

    presses: int = 0
    throws: int = 0
    games: int = 0
    restarts: int = 0
    table_s: float = 0.0
    errors: list[str] = field(default_factory=list)  # log records at ERROR or with an exception
    rejected: int = 0  # events the rules refused (random presses make impossible moves; logged, never a crash)

    def line(self, s: Script, real_s: float) -> str:
        return (f"{self.presses} presses and {self.throws} sim throws in {self.table_s:.0f} s of table time "
                f"({real_s:.0f} s real), {self.games} games, {self.restarts} restarts, "
                f"{len(s.questions)} questions, {len(s.failsafes)} failsafes, {len(self.errors)} errors logged, "
                f"{self.rejected} events refused by the rules")


def soak(seed: int, table_s: float, stats: SoakStats, panels: int = 6) -> Callable[[Script], Scenario]:
    """A seeded scenario: join a random set of panels, pick a random game and variant, then press random buttons of
    the joined seats (taps, sometimes holds), throw with F9/F10/F11 at random targets, and restart from the menu when
    a game is won or after 45-120 s (so every game comes round). Runs ``table_s`` seconds of table time."""
    import random

    from game.registry import lobby_choices

    rng = random.Random(seed)
    choices = lobby_choices()

    def scenario(s: Script) -> Scenario:
        start = s.clock()
        joined: list[int] = []
        over_since: float | None = None
        game_end = 0.0  # a game still going at this table time is restarted from the menu: the next game is drawn
        while s.clock() - start < table_s:
            stats.table_s = s.clock() - start
            app = s.app
            if app.menu_open:
                yield from press(joined[0] if joined else 1, "DUEL")  # back to the game
                continue
            if app.live is None:
                if app.lobby is not None and app.lobby.resume is not None:
                    yield from press(1, "DUEL")  # set the unfinished game aside
                    continue
                n = rng.randint(2, panels)
                joined = sorted(rng.sample(range(1, panels + 1), n))
                c = rng.randrange(len(choices))
                yield from join_and_start(joined, c)
                stats.games += 1
                over_since = None
                game_end = s.clock() + rng.uniform(45.0, 120.0)
                continue
            if app.over or s.clock() > game_end:
                over_since = over_since if over_since is not None else s.clock()
                if s.clock() - over_since > 3.0 or not app.over:
                    yield from _menu_restart(joined[0])
                    stats.restarts += 1
                else:
                    yield 0.5
                continue
            r = rng.random()
            if r < 0.8 or not app.mode.uses_devices:
                hold = rng.uniform(0.9, 1.3) if rng.random() < 0.08 else rng.uniform(0.06, 0.25)
                yield from press(rng.choice(joined), rng.choice(BUTTONS), hold)
                stats.presses += 1
            elif r < 0.92:
                for _ in range(rng.randrange(len(joined))):
                    yield from tap("up")
                yield from tap(rng.choice(("f9", "f9", "f10", "f11")))
                stats.throws += 1
            else:
                yield from tap(rng.choice(("tab", "left", "right", "down")))
            yield rng.uniform(0.05, 0.8)
        stats.table_s = s.clock() - start

    return scenario


def _menu_restart(panel: int) -> Iterator[Any]:
    yield from chord(panel)
    yield from press(panel, "WAR")  # "Restart: new game"
    yield from press(panel, "SET")
    yield until(lambda app: app.live is None, 3.0, "the lobby")


class ErrorLog:
    """A logging handler that keeps every record at ERROR or carrying an exception (the soak's "no exception")."""

    def __init__(self, stats: SoakStats) -> None:
        import logging

        class _Handler(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                if record.levelno >= logging.ERROR or record.exc_info:
                    stats.errors.append(f"{record.name}: {record.getMessage()}"[:300])
                elif "event not written" in record.getMessage():
                    stats.rejected += 1

        self.handler = _Handler(logging.INFO)
        self.logging = logging

    def __enter__(self) -> ErrorLog:
        root = self.logging.getLogger()
        self._level = root.level
        root.setLevel(min(root.level or self.logging.WARNING, self.logging.INFO))
        root.addHandler(self.handler)
        return self

    def __exit__(self, *exc: object) -> None:
        root = self.logging.getLogger()
        root.removeHandler(self.handler)
        root.setLevel(self._level)
