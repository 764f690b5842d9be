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
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from game.table.present import View

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


def run_demo(args: Any, out: TextIO | None = None) -> int:
    """Bots play a complete game in simulation mode; prints the play-by-play and the standings.

    ``args.game`` (default: the first game in lobby order) picks the game.
    """
    out = sys.stdout if out is None else out
    from game.journal import Journal
    from game.registry import GAMES, game_for
    from game.table.clock import SteppedClock
    from game.table.loop import TableApp
    from game.table.sim import open_sim

    mode = game_for(getattr(args, "game", None) or next(iter(GAMES)))

    reason = None if args.headless else display_reason()
    headless = reason is None
    if headless:
        go_headless()
        if not args.headless:
            print("No display found (no DISPLAY or WAYLAND_DISPLAY, not on a Linux console): running headless.",
                  file=out)
    with_referee = not args.no_referee
    # Headless, the demo's clock runs as fast as the machine goes; the referee needs the pty path to keep up with it.
    speed = args.speed if args.speed is not None else (1.0 if not headless else (8.0 if with_referee else 0.0))
    import pygame

    if not args.mute and not headless:
        from game.table.sound import Sound
        sound: Any = Sound.open(device=args.audio_device)
    else:
        sound = None
    screen = open_screen(headless, parse_size(args.size) if args.size else None, fullscreen=False)
    clock = SteppedClock()
    try:
        rig = open_sim(clock, seats=mode.demo_seats, seed=args.seed, devices=mode.uses_devices)
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
    n = mode.demo_seats
    app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=list(range(1, n + 1)), devices=rig.host,
                   device_map=rig.device_map, use_referee=not args.no_referee, sound=sound,
                   banner=f"DEMO - {_count(n)} bots play through simulation mode", mode=mode)
    if headless:
        app.presenter.pace = 0.35  # nobody watches: moments flash by, the bots wait less
    from game.venue.hook import attach_publisher

    publisher = attach_publisher(app, args, rig.host)  # None without --broker
    bots = mode.bots(app, rig, args.seed, not app.use_referee)
    _demo_intro(mode, app, rig, out)
    print(f"  journal: {journal_path}" + (" (temporary)" if tmp else ""), file=out)
    if sound is not None:
        print(f"  announcer: {sound.voice_note}", file=out)
        sound.prepare(mode.name, n)
        if sound.announcer is not None:
            sound.announcer.wait(20.0)  # the opening calls are ready before the first one (cached after the first run)
    print(f"  screen: {'headless (SDL dummy driver)' if headless else reason}\n", file=out, flush=True)
    status = 0
    try:
        status = _demo_loop(app, bots, clock, screen, speed, headless, out, args.max_seconds,
                            mode.demo_setup(args.seed))
        if status == 0:
            ending = mode.standings(app.live.table.summary())  # type: ignore[union-attr]
            print("\n".join(ending), file=out, flush=True)
    finally:
        if publisher is not None:
            publisher.stop()
        rig.close()
        journal.close()
        if sound is not None:
            if sound.announcer is not None:
                print(f"  announcer: {len(sound.announcer.spoken)} calls spoken", file=out)
            sound.close()
        pygame.quit()
        from game.table.screens import forget_fonts

        forget_fonts()
        if tmp is not None:
            tmp.cleanup()
    return status


def _demo_intro(mode: Any, app: Any, rig: Any, out: TextIO) -> None:
    """What the demo runs on: which game, the seat buttons, the devices and who makes the calls."""
    n = mode.demo_seats
    print(f"{mode.title}: {_count(n)} bots play {mode.demo_length} in simulation mode", file=out)
    print(f"  seat buttons: gpiozero MockFactory pins ({rig.panels.pinmap.source})", file=out)
    if not mode.uses_devices:  # a card game without burritos: no devices, no referee to claim
        print(f"  burritos and badges: none ({mode.title} does not use them); no referee calls", file=out)
    elif app.use_referee:
        print(f"  burritos and badges: virtual devices over the pty {rig.virtual.slave_name if rig.virtual else '-'}"
              f" through the device host", file=out)
        print("  calls: the referee, from the virtual devices' events", file=out)
    else:
        print(f"  burritos and badges: virtual devices over the pty {rig.virtual.slave_name if rig.virtual else '-'}"
              f" through the device host", file=out)
        print("  calls: the referee (game.referee) is not installed yet, so the bots feed their grabs, throws, hits,"
              " misses and catches to the table as table events directly", file=out)


def _count(n: int) -> str:
    return {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}.get(n, str(n))


def _demo_loop(app: Any, bots: Any, clock: Any, screen: Any, speed: float, headless: bool, out: TextIO,
               max_seconds: float, setup: dict[str, Any]) -> int:
    import pygame

    from game.table.screens import draw

    pacer = Pacer(speed)
    printed = 0
    start = clock()
    app.start(setup)
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


# -- burrito-table play ---------------------------------------------------------------------------------------------

SIM_HELP = ("sim: TAB burrito  \u2190/\u2192 thrower  \u2191/\u2193 target  F9 hit  F10 miss  F11 catch  "
            "(seat keys: docs/hardware.md)")


class SimControls:
    """Keyboard controls for virtual burritos in ``play --sim``: pick a burrito, a thrower and a target, then
    F9 hit / F10 miss / F11 catch. With the referee, the throw is played as accelerometer traces through the virtual
    devices' real detector, the pty and the device host (``game.table.sim_throws``), so it is called from the same
    evidence a real throw gives; without it, the throw goes to the table as table events, as the demo's bots do.
    Thrower and target are game seats."""

    def __init__(self, app: Any, rig: Any, clock: Callable[[], float], seed: int = 0) -> None:
        from game.table.sim_throws import TraceThrows

        self.app, self.rig, self.clock = app, rig, clock
        self.burrito, self.thrower, self.target = 1, 1, 2
        self.throws = TraceThrows(rig, clock, seed=seed)
        self._next_forget = clock() + 60.0

    def seats(self) -> int:
        return max(2, len(self.app.seatmap))

    def tick(self, now: float) -> None:
        """Each frame: the catchers' claim presses that are due; every minute, the mock pins' history dropped."""
        self.throws.tick(now)
        if now >= self._next_forget:
            self._next_forget = now + 60.0
            self.rig.forget_pin_history()

    def key(self, name: str) -> bool:
        n = self.seats()
        if name == "tab":
            self.burrito = 2 if self.burrito == 1 else 1
        elif name in ("left", "right"):
            self.thrower = (self.thrower + (1 if name == "right" else -1) - 1) % n + 1
        elif name in ("up", "down"):
            self.target = (self.target + (1 if name == "up" else -1) - 1) % n + 1
        elif name in ("f9", "f10", "f11"):
            outcome = {"f9": "hit", "f10": "miss", "f11": "catch"}[name]
            if self.app.use_referee:
                panel = self.app.seating.panel_of(self.target)
                if panel is not None:
                    self.throws.throw(outcome, f"burrito-{self.burrito}", panel)
                return True
            t = self.clock() + 0.05
            b, s, tg = self.burrito, self.thrower, self.target
            self.app.inject({"t": t, "event": "grab", "seat": s, "burrito": b, "source": "sim-keys"})
            self.app.inject({"t": t + 0.3, "event": "throw", "seat": s, "burrito": b, "source": "sim-keys"})
            calls: dict[str, dict[str, Any]] = {"hit": {"event": "hit", "seat": tg}, "miss": {"event": "miss"},
                                                "catch": {"event": "catch", "seat": tg}}
            self.app.inject(dict(calls[outcome], t=t + 0.7, burrito=b, source="sim-keys"))
        else:
            return False
        return True

    def hint(self) -> str:
        return (f"burrito {self.burrito}: seat {self.thrower} throws at seat {self.target}   "
                "F9 hit  F10 miss  F11 catch   TAB/arrows choose")


def show_sim_keys(view: View, keys: str) -> None:
    """``play --sim`` during a game: the sim burrito keys take the simulation banner's top band, so the bottom line
    stays the game's own (a learning hint, what to press on a screen); with device warnings in that band, the
    keys go on the bottom line if it is free."""
    if view.extra.get("device_warnings"):
        if not view.hint:
            view.hint = keys
        return
    view.banner = f"SIMULATION  -  {keys}"


def _receiver_present(port: str) -> bool:
    if not port.startswith("hwgrep://"):
        return os.path.exists(port)
    from serial.tools import list_ports

    return any(True for _ in list_ports.grep(port[len("hwgrep://"):]))


def run_play(args: Any, out: TextIO | None = None, *, clock: Callable[[], float] | None = None,
             driver: Callable[[Any, float], bool] | None = None) -> int:
    """The table: lobby, game, screens, sound; simulation mode when asked or when no GPIO or receiver is found.

    ``clock`` and ``driver`` are for playing the real loop by script (the acceptance tests, the soak): ``driver(app,
    now)`` runs at the top of every frame, may post SDL events and move a stepped ``clock`` on, and ends the loop by
    returning False. With a driver the loop never sleeps: the driver sets the pace.
    """
    out = sys.stdout if out is None else out
    checked = _check_play_args(args)
    if isinstance(checked, int):
        return checked
    pinmap, size = checked
    session = PlaySession(args, out)
    try:
        status = session.open(pinmap, clock or time.monotonic)
        if status is None:
            screen = open_screen(session.headless, size, fullscreen=not args.windowed)
            status = session.run(screen, driver)
        return status
    finally:
        session.close()


def _check_play_args(args: Any) -> tuple[Any, tuple[int, int] | None] | int:
    """Everything ``play`` can refuse from its command line alone, before anything is opened or read: (pin map,
    window size), or the exit status after one line per problem."""
    from hardware.pinmap import PinMapError, load_pinmap

    try:
        pinmap = load_pinmap(args.config)
    except PinMapError as exc:
        for problem in exc.problems:
            print(f"burrito-table: {problem}", file=sys.stderr)
        return 2
    try:
        size = parse_size(args.size) if args.size else None
    except ValueError as exc:
        print(f"burrito-table play: {exc}", file=sys.stderr)
        return 2
    if not getattr(args, "no_web", True):
        from game.web.run import check_args

        check_args(args.web_port, args.web_pin)  # bad input: exit 2 before anything is opened
    return pinmap, size


class PlaySession:
    """The parts ``play`` opens (journal, sound, panels, devices, publisher, phones) and the frame loop over them;
    ``close`` releases whatever was opened, in reverse order, however far ``open`` got."""

    def __init__(self, args: Any, out: TextIO) -> None:
        self.args = args
        self.out = out
        self.sim = bool(args.sim)
        self.headless = False
        self.journal: Any = None
        self.sound: Any = None
        self.rig: Any = None
        self.host: Any = None
        self.panels: Any = None
        self.app: Any = None
        self.publisher: Any = None
        self.companion: Any = None
        self.controls: SimControls | None = None
        self.clock: Callable[[], float] = time.monotonic
        self.status = 0
        self._pygame = False

    # ------------------------------------------------------------ opening

    def open(self, pinmap: Any, clock: Callable[[], float]) -> int | None:
        """Open every part; None when the table is ready, else the exit status (the reason already printed)."""
        args = self.args
        self.clock = clock
        port = args.port or os.environ.get("BURRITO_RECEIVER") or "hwgrep://303a:1001"
        factory = self._choose_mode(port)
        reason = None if args.headless else display_reason()
        self.headless = reason is None
        if self.headless:
            go_headless()
            if not args.headless:
                print("No display found: running headless (nothing to see; use --headless on purpose).", file=self.out)
        journal_path = self._open_journal()
        if journal_path is None:
            return self.status
        settings_file, house = self._read_settings()
        if self._open_sound(house) is not None:
            return self.status
        device_map = self._open_hardware(pinmap, port, factory)
        from game.table.loop import TableApp

        self._pygame = True
        self.app = TableApp(panels=self.panels, journal=self.journal, clock=clock,
                            seatmap=list(range(1, pinmap.seats + 1)), devices=self.host, device_map=device_map,
                            sound=self.sound,
                            banner="SIMULATION MODE - keys press the seat buttons" if self.sim else "",
                            settings=house, settings_file=settings_file)
        self.app.open_lobby()
        from game.venue.hook import attach_publisher

        self.publisher = attach_publisher(self.app, args, self.host)  # None without --broker
        if not getattr(args, "no_web", True):
            from game.web.run import start_companion

            self.companion = start_companion(self.app, host=args.web_host, port=args.web_port, pin=args.web_pin,
                                             journal_path=str(journal_path), public_url=args.web_url, out=self.out)
        self.controls = SimControls(self.app, self.rig, clock) if self.rig is not None else None
        return None

    def _choose_mode(self, port: str) -> Any:
        """Simulation mode when asked, or when there is no GPIO or no receiver; the pin factory otherwise."""
        from hardware.gpio import FactoryError, make_factory

        if self.sim:
            return None
        try:
            factory = make_factory()
        except FactoryError as exc:
            print(f"No GPIO here ({exc}): simulation mode.", file=self.out)
            self.sim = True
            return None
        if type(factory).__name__ == "MockFactory":
            print("GPIOZERO_PIN_FACTORY is mock: simulation mode.", file=self.out)
            self.sim = True
        elif not _receiver_present(port):
            print(f"No receiver found at {port}: simulation mode.", file=self.out)
            self.sim = True
        return factory

    def _open_journal(self) -> Path | None:
        from game.journal import Journal, JournalError

        args = self.args
        journal_path = Path(args.journal or Path.home() / ".local/share/burrito-table/journal.db").expanduser()
        try:
            journal_path.parent.mkdir(parents=True, exist_ok=True)
            self.journal = Journal(str(journal_path))
        except JournalError as exc:
            print(f"burrito-table: {exc}", file=sys.stderr)
            self.status = exc.status  # 2: a damaged or foreign file; 1: read-only, disk full
            return None
        except OSError as exc:
            print(f"burrito-table: {journal_path.parent}: {exc.strerror or exc}", file=sys.stderr)
            self.status = 1
            return None
        return journal_path

    def _read_settings(self) -> tuple[Path, Any]:
        from game.table.host import load_settings
        from game.table.settings import settings_path

        args = self.args
        settings_file = Path(args.settings).expanduser() if getattr(args, "settings", None) else settings_path()
        house, problems = load_settings(settings_file)
        for line in problems:
            print(f"burrito-table: {line}", file=sys.stderr)
        return settings_file, house

    def _open_sound(self, house: Any) -> int | None:
        if self.args.mute or self.headless:
            return None
        from game.table.sound import AudioDeviceError, Sound

        try:
            self.sound = Sound.open(device=self.args.audio_device)  # the voice setting can be switched on at the table
        except AudioDeviceError as exc:
            print(f"burrito-table: {exc}", file=sys.stderr)
            self.status = 2
            return 2
        if self.sound is not None:
            off = "" if house.voice or self.sound.announcer is None else " (voice off in the house settings: jingles)"
            print(f"Announcer: {self.sound.voice_note}{off}", file=self.out)
        return None

    def _open_hardware(self, pinmap: Any, port: str, factory: Any) -> Any:
        """The seat panels and the device host: simulated (MockFactory pins, virtual devices) or real."""
        if self.sim:
            from game.table.sim import open_sim

            self.rig = open_sim(self.clock, pinmap)
            self.panels, self.host = self.rig.panels, self.rig.host
            return self.rig.device_map
        from firmware_bridge.host import DeviceHost, PairingStore
        from firmware_bridge.host.params import default_params_path
        from firmware_bridge.host.tracestore import default_trace_dir
        from game.table.loop import DeviceMap
        from hardware.panels import open_table

        self.panels = open_table(pinmap, factory)
        store = PairingStore(self.args.pairings or Path.home() / ".config/burrito-table/pairings.json")
        device_map = DeviceMap({p.name: int(p.name.split("-")[1]) for p in store.all() if p.kind == "burrito"},
                               {p.name: p.seat for p in store.all() if p.kind == "badge" and p.seat})
        # traces for `traces record`; the parameter file `traces push` installs
        self.host = DeviceHost(port, store, trace_dir=default_trace_dir(), params_path=default_params_path()).start()
        return device_map

    # ------------------------------------------------------------ the frame loop

    def run(self, screen: Any, driver: Callable[[Any, float], bool] | None) -> int:
        """Frames until Escape (simulation or a window), the window closes, the menu's shut down, or the driver
        stops; each frame catches up the fixed steps, draws once and sleeps until the next step or a seat edge."""
        clock, app = self.clock, self.app
        woken = self.panels.source.woken
        frames = 0
        next_step = clock()
        while True:
            if driver is not None and not driver(app, clock()):
                return 0
            if self._events():
                return 0
            now = clock()
            next_step = self._catch_up(now, next_step, woken)
            self._draw(screen, now)
            done = self._requests()
            if done is not None:
                return done
            frames += 1
            if self.args.max_frames and frames >= self.args.max_frames:
                return 0
            delay = next_step - clock()
            if delay > 0 and driver is None:
                woken.wait(delay)  # sleeps until the next step, or until a seat edge comes in

    def _events(self) -> bool:
        """SDL's events: keys to name cards, seat keys and sim keys; True when the table should close."""
        import pygame

        app, panels = self.app, self.panels
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT:
                return True
            if ev.type in (pygame.KEYDOWN, pygame.KEYUP):
                name = pygame.key.name(ev.key)
                down = ev.type == pygame.KEYDOWN
                if down and app.host.key(name, ev.unicode):
                    continue  # typing a name into a lobby name card
                if down and name == "escape" and (self.sim or self.args.windowed):
                    return True
                if panels.keyboard is not None and panels.keyboard.key(name, down):
                    continue
                if self.controls is not None and down:
                    self.controls.key(name)
            elif ev.type == pygame.WINDOWFOCUSLOST and panels.keyboard is not None:
                panels.keyboard.release_all()
        return False

    def _catch_up(self, now: float, next_step: float, woken: Any) -> float:
        """Run the fixed steps due by ``now`` (at most ``MAX_CATCH_UP``); returns when the next one is due."""
        app = self.app
        steps = 0
        if self.controls is not None:
            self.controls.tick(now)
        edge = woken.is_set()
        woken.clear()
        while next_step <= now and steps < MAX_CATCH_UP:
            app.step(next_step)
            next_step += STEP_S
            steps += 1
        if next_step < now:  # too far behind: drop the backlog rather than spiral
            next_step = now
        if edge and steps == 0:
            app.step(now)  # a button edge woke the loop: show the press in this frame, not at the next tick
        return next_step

    def _draw(self, screen: Any, now: float) -> None:
        import pygame

        from game.table.screens import draw

        app = self.app
        view = app.view(now)
        if self.controls is not None and app.live is not None and app.mode.uses_devices:  # a game with burritos
            show_sim_keys(view, self.controls.hint())
        draw(screen, view)
        if self.companion is not None and view.screen == "lobby":
            self.companion.draw_lobby(screen, view)
        if not self.headless:
            pygame.display.flip()

    def _requests(self) -> int | None:
        """What the table menu asked for this frame; the exit status when it asked to shut down."""
        app = self.app
        try:
            for req in app.requests:
                if req == "restart":
                    app.abandon()
                elif req == "switch":
                    app.host.switch()
                elif req == "shutdown":
                    print("shut down requested from the table menu", file=self.out)
                    self.status = 3 if not self.sim else 0
                    return self.status
        finally:
            app.requests.clear()
        return None

    # ------------------------------------------------------------ closing

    def close(self) -> None:
        """Release what was opened, the phones and the publisher first (they read the table), the journal last."""
        if self.publisher is not None:
            self.publisher.stop()
        if self.companion is not None:
            self.companion.stop()
        if self.rig is not None:
            self.rig.close()
        else:
            if self.host is not None:
                self.host.stop()
            if self.panels is not None:
                self.panels.close()
        if self.journal is not None:
            self.journal.close()
        if self.sound is not None:
            self.sound.close()
        if self._pygame or self.sound is not None:
            import pygame

            from game.table.screens import forget_fonts

            pygame.quit()
            forget_fonts()
        if self.status == 3 and self.args.shutdown_command:
            os.system(self.args.shutdown_command)  # noqa: S605 - the operator's configured command (kiosk: poweroff)


