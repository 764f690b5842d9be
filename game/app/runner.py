"""Running the loop: the display (window, KMS/DRM or SDL's dummy driver), fixed steps, pacing, the demo.

The loop is a fixed-timestep loop: the game steps at ``STEP_S`` (60 Hz) whatever the drawing costs; when drawing
falls behind, steps are caught up (at most ``MAX_CATCH_UP`` per frame) before the next draw.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

STEP_S = 1.0 / 60.0
MAX_CATCH_UP = 5


def display_reason(env: dict[str, str] | None = None, tty: Callable[[], str | None] | None = None) -> str | None:
    """Why there is a display to draw on (X11, Wayland, a Linux console for KMS/DRM), or None: go headless."""
    env = dict(os.environ) if env is None else env
    if env.get("SDL_VIDEODRIVER") == "dummy":
        return None
    if env.get("DISPLAY"):
        return "X11"
    if env.get("WAYLAND_DISPLAY"):
        return "Wayland"
    if env.get("SDL_VIDEODRIVER") == "kmsdrm":
        return "KMS/DRM"
    name = (tty or _stdin_tty)()
    if sys.platform.startswith("linux") and name and name.startswith("/dev/tty") and name[8:].isdigit():
        return "the Linux console (KMS/DRM)"
    return None


def _stdin_tty() -> str | None:
    try:
        return os.ttyname(0)
    except OSError:
        return None


def go_headless() -> None:
    """SDL's dummy video and audio drivers: no window, no sound card (set before pygame starts)."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"


def open_screen(headless: bool, size: tuple[int, int] | None, fullscreen: bool) -> Any:
    import pygame

    pygame.display.init()
    pygame.font.init()
    if headless:
        return pygame.display.set_mode(size or (1280, 720))
    flags = 0
    if fullscreen:
        flags |= pygame.FULLSCREEN
        if size is None:
            info = pygame.display.Info()
            size = (info.current_w, info.current_h)
    pygame.display.set_caption("Burrito Table")
    pygame.mouse.set_visible(not fullscreen)
    return pygame.display.set_mode(size or (1280, 720), flags)


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"--size: expected WIDTHxHEIGHT such as 1920x1080, got {text!r}") from None
    if not (320 <= w <= 7680 and 240 <= h <= 4320):
        raise ValueError(f"--size: {w}x{h} is out of range")
    return w, h


class Pacer:
    """Keeps steps in step with the wall clock at ``speed`` times real time."""

    def __init__(self, speed: float) -> None:
        self.speed = speed
        self.start = time.monotonic()
        self.steps = 0

    def wait(self) -> None:
        self.steps += 1
        if self.speed <= 0:
            return
        due = self.start + self.steps * STEP_S / self.speed
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        elif delay < -1.0:  # far behind (a slow machine): do not try to catch up a backlog
            self.start = time.monotonic() - self.steps * STEP_S / self.speed


DEMO_SETUP = {"event": "setup", "game": "throw-throw-burrito", "seats": 4, "options": {"seed": 7}}


def run_demo(args: Any, out: TextIO = sys.stdout) -> int:
    """Four bots play a complete two-round game in simulation mode; prints the play-by-play and the standings."""
    from game.app.bots import Bots
    from game.app.clock import SteppedClock
    from game.app.loop import TableApp
    from game.app.sim import open_sim
    from game.commands import standings
    from game.journal import Journal

    reason = None if args.headless else display_reason()
    headless = reason is None
    if headless:
        go_headless()
        if not args.headless:
            print("No display found (no DISPLAY or WAYLAND_DISPLAY, not on a Linux console): running headless.",
                  file=out)
    from game.app.loop import referee_available

    with_referee = referee_available() and not args.no_referee
    # Headless, the demo's clock runs as fast as the machine goes; the referee needs the pty path to keep up with it.
    speed = args.speed if args.speed is not None else (1.0 if not headless else (8.0 if with_referee else 0.0))
    import pygame

    if not args.mute and not headless:
        from game.app.sound import Sound
        sound: Any = Sound.open(device=args.audio_device)
    else:
        sound = None
    screen = open_screen(headless, parse_size(args.size) if args.size else None, fullscreen=False)
    clock = SteppedClock()
    try:
        rig = open_sim(clock, seats=4, seed=args.seed)
    except OSError as exc:
        print(f"burrito-table: demo: cannot start the virtual devices: {exc}", file=sys.stderr)
        return 1
    tmp = None
    if args.journal:
        journal_path = args.journal
    else:
        tmp = tempfile.TemporaryDirectory(prefix="burrito-demo-")
        journal_path = str(Path(tmp.name) / "demo.db")
    journal = Journal(journal_path)
    app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], devices=rig.host,
                   device_map=rig.device_map, use_referee=not args.no_referee, sound=sound,
                   banner="DEMO - four bots play through simulation mode")
    if headless:
        app.presenter.pace = 0.35  # nobody watches: moments flash by, the bots wait less
    bots = Bots(app, rig, seed=args.seed, direct=not app.use_referee)
    print("Throw Throw Burrito: four bots play a two-round game in simulation mode", file=out)
    print(f"  seat buttons: gpiozero MockFactory pins ({rig.panels.pinmap.source})", file=out)
    print(f"  burritos and badges: virtual devices over the pty {rig.virtual.slave_name if rig.virtual else '-'}"
          f" through the device host", file=out)
    if app.use_referee:
        print("  calls: the referee, from the virtual devices' events", file=out)
    else:
        print("  calls: the referee (game.referee) is not installed yet, so the bots feed their grabs, throws, hits,"
              " misses and catches to the table as table events directly", file=out)
    print(f"  journal: {journal_path}" + (" (temporary)" if tmp else ""), file=out)
    print(f"  screen: {'headless (SDL dummy driver)' if headless else reason}\n", file=out, flush=True)
    status = 0
    try:
        status = _demo_loop(app, bots, clock, screen, speed, headless, out, args.max_seconds)
        if status == 0:
            ending = standings(app.live.table.summary())  # type: ignore[union-attr]
            print("\n".join(ending), file=out, flush=True)
    finally:
        rig.close()
        journal.close()
        if sound is not None:
            sound.close()
        pygame.quit()
        if tmp is not None:
            tmp.cleanup()
    return status


def _demo_loop(app: Any, bots: Any, clock: Any, screen: Any, speed: float, headless: bool, out: TextIO,
               max_seconds: float) -> int:
    import pygame

    from game.app.screens import draw

    pacer = Pacer(speed)
    printed = 0
    start = clock()
    app.start(DEMO_SETUP)
    over_at: float | None = None
    frame = 0
    draw_every = 6 if headless else 1
    while True:
        now = clock.advance(STEP_S)
        bots.step(now)
        app.step(now)
        lines = app.presenter.lines
        while printed < len(lines):
            print(lines[printed], file=out, flush=True)
            printed += 1
        if app.error is not None:
            print(f"burrito-table: demo stopped on the failsafe screen: {app.error}", file=sys.stderr)
            print(app.error_detail, file=sys.stderr)
            return 1
        if frame % draw_every == 0:
            draw(screen, app.view(now))
            if not headless:
                pygame.display.flip()
        frame += 1
        if not headless:
            for ev in pygame.event.get():
                if ev.type == pygame.QUIT or (ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE):
                    print("(demo closed)", file=out)
                    return 0
        if app.over:
            over_at = now if over_at is None else over_at
            if now - over_at > (1.0 if headless else 6.0):
                return 0
        if now - start > max_seconds:
            print(f"burrito-table: demo: no winner after {max_seconds:g} s of table time", file=sys.stderr)
            return 1
        pacer.wait()
