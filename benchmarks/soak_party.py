"""Party soak: hours of table time with everything a party does at once, on the real ``play --sim`` loop.

    python benchmarks/soak_party.py --hours 4 --seed 1 [--json]

What runs (all real parts, one process for the table, one for the crowd around it):

* the table: ``run_play`` on the simulation rig (MockFactory pins, virtual burritos and badges over a pty, the device
  host, the referee) on a stepped clock, driven like ``benchmarks/soak_play.py``: random presses of the joined seats,
  F9/F10/F11 throws as accelerometer traces through the virtual devices' detector, back-to-back throws, a catch and an
  immediate re-throw; a host switching games through the lobby and the table menu, every game kind in turn (Throw
  Throw Burrito, Zombie Burrito, Taco vs Burrito and the Quick Draw plugin from ``tests/plugins``, installed by an
  entry point as ``pip`` would), 2-6 seats on any panels;
* the radio: packet loss and delay spikes switched on and off, devices power-cycled (they reboot and re-hello);
* the companion: the real web server on 127.0.0.1, port 0; the crowd process (``--crowd``) joins phones to seats
  with the lobby's join codes, taps, sends hostile names and junk, disconnects and reconnects;
* the venue: the publisher on a real local mosquitto (``tests/mosquitto.py``), restarted half-way; the crowd process
  subscribes and counts what arrives.

It samples the table process's RSS, open file descriptors and threads, and ends with: failsafes, log records at
ERROR or above (and any traceback, from logging, a thread or an unraisable exception), memory growth from the end of
the warm-up (every game kind played once) to the end, fd and thread counts, games finished per kind, throws, phone
and MQTT messages. Exit 0 only when the goals hold (0 failsafes, 0 errors, RSS growth < 10 %, fds and threads flat).

Switches for a known crash source, so the rest can still be measured while it is being fixed: ``--no-back-to-back``,
``--no-hostile-names``, ``--no-broker-restart``, ``--no-phones``, ``--no-radio-faults``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # --json: stdout is the summary only

ROOT = Path(__file__).resolve().parent.parent
PLUGINS = ROOT / "tests" / "plugins"
PIN = "2468"
#: names a phone may send (the server's NAME_RE lets them through): right-to-left marks, emoji, combining marks,
#: a format-string, SQL, a zero-width joiner, non-BMP characters
HOSTILE_NAMES = ("\u202eevil\u202c", "\U0001f32f\U0001f525x", "Z\u0336\u0301\u0327a\u0338lgo", "%s%n{0}",
                 "'); DROP TABLE--", "a\u200db\u200dc", "\U00010348\U0001d11e", "\ufeff\ufffd", "ﷺ" * 4, "  x  ")
PLAIN_NAMES = ("Ana", "Bo", "Chidi", "Dana", "Eero", "Fatima")
JUNK: tuple[str | bytes, ...] = (
    "not json", "[1, 2, 3]", '{"op": "dance"}', '{"op": "tap", "button": "NUKE"}', "x" * 5000,
    '{"op": "move", "move": {"Bad Key": 1}}', '{"op": "move", "move": {}}', '{"op": "player", "name": "<b>", '
    '"colour": "red"}', '{"op": "tap", "button": ["SET"]}', '{"op": null}', "null", '"text"', "\u0000\u0001",
    b"\x00\xff binary frame",
)


# -- the crowd: phones and an MQTT subscriber, in a process of their own ------------------------------------------


@dataclass
class Phone:
    """One phone at one panel: its seat token, its socket, what it sent and got."""

    panel: int
    token: str
    ws: Any = None
    outstanding: int = 0
    reconnect_at: float = 0.0
    dead: bool = False


@dataclass
class Crowd:
    """Runs in the ``--crowd`` process: reads commands on stdin, writes JSON lines on stdout."""

    base: str
    broker_port: int
    seed: int
    junk: bool = True
    rng: random.Random = field(init=False)
    phones: dict[int, Phone] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(
        ("joins", "join_refused", "connects", "disconnects", "closed_by_server", "taps", "acks", "states", "errors",
         "junk", "names", "moves", "mqtt", "mqtt_connects", "failures"), 0))
    taps_on: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)
    stop: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def count(self, key: str, n: int = 1) -> None:
        with self.lock:
            self.counts[key] += n

    def subscribe(self) -> Any:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"soak-subscriber-{os.getpid()}", clean_session=False)

        def on_connect(cl: Any, *_: Any) -> None:
            self.count("mqtt_connects")
            cl.subscribe("burrito-table/#", qos=1)

        c.on_connect = on_connect
        c.on_message = lambda *a: self.count("mqtt")
        c.reconnect_delay_set(1, 2)
        c.connect_async("127.0.0.1", self.broker_port, keepalive=10)
        c.loop_start()
        return c

    def join(self, panel: int, code: str, name: str | None) -> None:
        import httpx

        try:
            r = httpx.post(f"{self.base}/api/join", json={"code": code}, timeout=5)
        except httpx.HTTPError:
            self.count("failures")
            return
        if r.status_code != 200:
            self.count("join_refused")
            return
        self.count("joins")
        old = self.phones.get(panel)
        if old is not None:
            old.dead = True
        ph = Phone(panel, str(r.json()["token"]))
        self.phones[panel] = ph
        if self.connect(ph) and name is not None:
            colour = f"#{self.rng.randrange(1 << 24):06X}"
            self.send(ph, json.dumps({"op": "player", "name": name, "colour": colour}), "names")

    def connect(self, ph: Phone) -> bool:
        from websockets.sync.client import connect

        try:
            ph.ws = connect(f"{self.base.replace('http', 'ws', 1)}/ws/seat", open_timeout=5).__enter__()
            ph.ws.send(json.dumps({"op": "hello", "token": ph.token}))
        except Exception:  # noqa: BLE001 - a refused connection is counted, the crowd goes on
            ph.ws = None
            self.count("failures")
            return False
        self.count("connects")
        return True

    def send(self, ph: Phone, text: str | bytes, what: str) -> None:
        try:
            ph.ws.send(text)
            self.count(what)
        except Exception:  # noqa: BLE001
            self.closed(ph)

    def closed(self, ph: Phone) -> None:
        if ph.ws is not None:
            try:
                ph.ws.close()
            except Exception:  # noqa: BLE001
                pass
        code = getattr(ph.ws, "close_code", None) if ph.ws is not None else None
        ph.ws, ph.outstanding = None, 0
        self.count("closed_by_server")
        if code == 4401:
            ph.dead = True  # the table moved on to a new lobby: this token is spent
        ph.reconnect_at = time.monotonic() + self.rng.uniform(0.3, 2.0)

    def drain(self, ph: Phone) -> None:
        if ph.ws is None:
            return
        try:
            while True:
                msg = ph.ws.recv(timeout=0)
                if isinstance(msg, bytes):
                    continue
                kind = json.loads(msg).get("type")
                if kind == "state":
                    self.count("states")
                elif kind == "ack":
                    self.count("acks")
                    ph.outstanding = max(0, ph.outstanding - 1)
                elif kind == "error":
                    self.count("errors")
        except TimeoutError:
            return
        except Exception:  # noqa: BLE001 - closed by the server (a revoked token, a forbidden message)
            self.closed(ph)

    def act(self, ph: Phone, now: float) -> None:
        r = self.rng.random()
        if ph.ws is None:
            if not ph.dead and now >= ph.reconnect_at:
                self.connect(ph)
            return
        if r < 0.01:  # the phone sleeps, a tab is closed, wifi drops: it comes back
            ph.ws.close()
            ph.ws = None
            ph.outstanding = 0
            ph.reconnect_at = now + self.rng.uniform(0.2, 3.0)
            self.count("disconnects")
        elif r < 0.04 and self.junk:
            j = self.rng.choice(JUNK)
            self.send(ph, j, "junk")
        elif r < 0.06 and self.taps_on:
            move = {"seat": self.rng.randint(1, 6), self.rng.choice(("card", "target", "play")): self.rng.randint(0, 9)}
            self.send(ph, json.dumps({"op": "move", "move": move}), "moves")
        elif r < 0.30 and self.taps_on:
            b = self.rng.choice(("SET", "BRAWL", "WAR", "DUEL"))
            ph.outstanding += 1
            self.send(ph, json.dumps({"op": "tap", "button": b, "sent": now}), "taps")

    def run_phones(self) -> None:
        while not self.stop.is_set():
            now = time.monotonic()
            with self.lock:
                phones = [p for p in self.phones.values() if not (p.dead and p.ws is None)]
            for ph in phones:
                self.drain(ph)
                self.act(ph, now)
            time.sleep(0.05)

    def quiet(self) -> None:
        """No more taps; wait until every tap sent was acknowledged (the table has it in its inbox)."""
        self.taps_on = False
        end = time.monotonic() + 3.0
        while time.monotonic() < end and any(p.outstanding and p.ws is not None for p in list(self.phones.values())):
            time.sleep(0.02)

    def main(self) -> int:
        logging.getLogger("websockets").setLevel(logging.CRITICAL)  # a keepalive lost on a reconnect is expected
        sub = self.subscribe()
        worker = threading.Thread(target=self.run_phones, daemon=True)
        worker.start()
        out = sys.stdout
        for line in sys.stdin:
            cmd = json.loads(line)
            op = cmd["op"]
            if op == "join":
                self.join(cmd["panel"], cmd["code"], cmd.get("name"))
            elif op == "taps":
                if cmd["on"]:
                    self.taps_on = True
                else:
                    self.quiet()
            elif op == "bye":
                break
            out.write(json.dumps({"ack": cmd.get("id")}) + "\n")
            out.flush()
        self.stop.set()
        worker.join(5)
        for ph in self.phones.values():
            if ph.ws is not None:
                ph.ws.close()
        time.sleep(1.0)  # the last retained messages
        sub.loop_stop()
        sub.disconnect()
        out.write(json.dumps({"final": self.counts}) + "\n")
        out.flush()
        return 0


class CrowdHandle:
    """The table's side of the crowd process: commands out, acknowledgements and the final counts in."""

    def __init__(self, base: str, broker_port: int, seed: int, junk: bool = True) -> None:
        argv = [sys.executable, str(Path(__file__).resolve()), "--crowd", base, "--broker-port", str(broker_port),
                "--seed", str(seed)] + ([] if junk else ["--no-junk"])
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.acked: set[int] = set()
        self.final: dict[str, int] = {}
        self._n = 0
        self._reader = threading.Thread(target=self._read, name="crowd-reader", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if "final" in msg:
                self.final = msg["final"]
            elif "ack" in msg:
                self.acked.add(msg["ack"])

    def send(self, op: str, **kw: Any) -> int:
        self._n += 1
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps({"op": op, "id": self._n, **kw}) + "\n")
        except (BrokenPipeError, ValueError):
            pass
        return self._n

    def close(self) -> dict[str, int]:
        self.send("bye")
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self._reader.join(5)
        return self.final


# -- the table process: samples, errors, the scenario ----------------------------------------------------------


def thread_names() -> dict[str, int]:
    """How many live threads by name (numbers dropped: ``Thread-7 (run)`` counts as ``Thread- (run)``)."""
    out: dict[str, int] = {}
    for t in threading.enumerate():
        key = "".join(c for c in t.name if not c.isdigit())
        out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items()))


def fd_kinds() -> dict[str, int]:
    """Open fds by what they are: socket, pipe, anon_inode, pty, file."""
    out: dict[str, int] = {}
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        kind = (target.split(":")[0] if ":" in target else "pty" if target.startswith("/dev/pts")
                else f"file {Path(target).suffix or Path(target).name}")
        out[kind] = out.get(kind, 0) + 1
    return dict(sorted(out.items()))


def clear_mock_pins(party: Party) -> None:
    """Empty every mock pin's state history (see ``Options.clear_mock_pin_history``)."""
    factory = getattr(party.rig.panels, "factory", None) if party.rig is not None else None
    for pin in list(getattr(factory, "pins", {}).values()):
        clear = getattr(pin, "clear_states", None)
        if clear is not None:
            clear()


def object_counts() -> dict[str, int]:
    """Live objects the collector tracks, by module and type name (after a full collection)."""
    import gc

    gc.collect()
    out: dict[str, int] = {}
    for o in gc.get_objects():
        t = type(o)
        key = f"{t.__module__}.{t.__qualname__}"
        out[key] = out.get(key, 0) + 1
    return out


def sample() -> dict[str, float]:
    """RSS (MiB), open fds, Python threads and OS threads of this process, from /proc; ``blink`` of those threads
    are gpiozero's, one per seat light blinking at that moment (they come and go with the game, by design)."""
    with open("/proc/self/statm") as f:
        rss = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1 << 20)
    blink = sum(1 for t in threading.enumerate() if "_blink_device" in t.name)
    return {"rss_mib": round(rss, 2), "fds": len(os.listdir("/proc/self/fd")),
            "threads": threading.active_count(), "tasks": len(os.listdir("/proc/self/task")), "blink": blink}


class Errors(logging.Handler):
    """Every log record at ERROR or above, uncaught thread exceptions and unraisable ones, with their tracebacks."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []
        self.tracebacks: list[str] = []
        self.rejected = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR or record.exc_info:
            self.lines.append(f"{record.levelname} {record.name}: {record.getMessage()}"[:1500])
            if record.exc_info:
                self.tracebacks.append("".join(traceback.format_exception(*record.exc_info))[-3000:])
        elif "event not written" in record.getMessage():
            self.rejected += 1

    def thread_died(self, args: Any) -> None:
        where = args.thread.name if args.thread is not None else "?"
        self.lines.append(f"thread {where} died: {args.exc_type.__name__}: {args.exc_value}"[:400])
        self.tracebacks.append("".join(traceback.format_exception(args.exc_type, args.exc_value,
                                                                  args.exc_traceback))[-3000:])

    def unraisable(self, u: Any) -> None:
        self.lines.append(f"unraisable: {u.exc_type.__name__}: {u.exc_value} in {u.object!r}"[:400])

    def __enter__(self) -> Errors:
        root = logging.getLogger()
        self._level = root.level
        root.setLevel(min(root.level or logging.WARNING, logging.INFO))
        root.addHandler(self)
        self._hooks = threading.excepthook, sys.unraisablehook
        threading.excepthook, sys.unraisablehook = self.thread_died, self.unraisable
        return self

    def __exit__(self, *exc: object) -> None:
        root = logging.getLogger()
        root.removeHandler(self)
        root.setLevel(self._level)
        threading.excepthook, sys.unraisablehook = self._hooks


@dataclass
class Options:
    seed: int = 1
    table_s: float = 600.0
    speed: float = 6.0
    phones: bool = True
    junk: bool = True
    hostile_names: bool = True
    mqtt: bool = True
    broker_restart: bool = True
    back_to_back: bool = True
    radio_faults: bool = True
    game_s: tuple[float, float] = (40.0, 100.0)
    sample_s: float = 30.0
    real_limit_s: float = float("inf")  # stop early (and say so) after this many real seconds
    progress: bool = False  # a line on stderr at every sample
    #: empty gpiozero's MockPin state histories at every sample: they keep every change of every mock pin (the seat
    #: lights blink), about 25 MiB an hour of table time, a cost of the simulation rig, not of the table
    clear_mock_pin_history: bool = False
    count_objects: bool = False  # which kinds of Python object grew in number from the warm-up to the end


@dataclass
class Party:
    """What the party did and saw (the table's side)."""

    opts: Options
    presses: int = 0
    throws: int = 0
    back_to_back: int = 0
    rethrows: int = 0
    games_started: dict[str, int] = field(default_factory=dict)
    restarts: int = 0
    recoveries: int = 0  # games that did not start (the failsafe screen), the table brought back to a lobby
    switches: int = 0
    power_cycles: int = 0
    radio_changes: int = 0
    broker_restarts: int = 0
    phone_joins_asked: int = 0
    table_s: float = 0.0
    cut_short: bool = False
    real_t0: float = field(default_factory=time.monotonic)
    warm_at: float | None = None
    warm_detail: dict[str, Any] = field(default_factory=dict)
    warm_snapshot: Any = None
    grew: list[str] = field(default_factory=list)
    end_detail: dict[str, Any] = field(default_factory=dict)
    samples: list[dict[str, float]] = field(default_factory=list)
    rig: Any = None
    companion: Any = None
    publisher: Any = None
    crowd: CrowdHandle | None = None
    broker: Any = None
    errors: list[str] = field(default_factory=list)  # the error lines so far (the handler's list)


def hooks(party: Party) -> Callable[[], None]:
    """Keep hold of the rig, the companion and the publisher ``run_play`` makes (it keeps them to itself), and stamp
    phone inputs on the table's stepped clock as every other input is. Returns the undo."""
    import game.table.sim as sim_mod
    import game.venue.hook as hook_mod
    import game.web.run as run_mod

    saved = sim_mod.open_sim, run_mod.start_companion, hook_mod.attach_publisher

    def open_sim(*a: Any, **kw: Any) -> Any:
        party.rig = saved[0](*a, **kw)
        return party.rig

    def start_companion(*a: Any, **kw: Any) -> Any:
        party.companion = saved[1](*a, **kw)
        return party.companion

    def attach_publisher(*a: Any, **kw: Any) -> Any:
        party.publisher = saved[2](*a, **kw)
        return party.publisher

    sim_mod.open_sim, run_mod.start_companion, hook_mod.attach_publisher = open_sim, start_companion, attach_publisher

    def undo() -> None:
        sim_mod.open_sim, run_mod.start_companion, hook_mod.attach_publisher = saved

    return undo


class _TableTime:
    """``time`` for the companion's server module: ``monotonic`` is the table's stepped clock (as for the pins and
    the devices), everything else is the real module."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock

    def monotonic(self) -> float:
        return self._clock()

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


def install_plugin(site: Path) -> Callable[[], None]:
    """Quick Draw as ``pip install`` of a package declaring the entry point leaves it (tests/test_plugin_game.py)."""
    from game import registry

    info = site / "quick_draw_example-0.1.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: quick-draw-example\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[burrito_table.games]\nquick-draw = quick_draw:GAME\n")
    sys.path[:0] = [str(site), str(PLUGINS)]
    registry.refresh()

    def undo() -> None:
        for p in (str(site), str(PLUGINS)):
            if p in sys.path:
                sys.path.remove(p)
        registry.refresh()

    return undo


def scenario(party: Party) -> Callable[[Any], Iterator[Any]]:
    from game.registry import lobby_choices
    from game.table.scripted import BUTTONS, chord, press, tap, until

    opts = party.opts
    rng = random.Random(opts.seed)
    choices = lobby_choices()
    kinds = sorted({c[0][0] for c in choices})

    def crowd_quiet() -> Iterator[Any]:
        if party.crowd is not None:
            n = party.crowd.send("taps", on=False)
            yield until(lambda app: n in party.crowd.acked, 20.0, "the phones to go quiet")  # type: ignore[union-attr]
            yield 0.3

    def crowd_on() -> None:
        if party.crowd is not None:
            party.crowd.send("taps", on=True)

    def pick() -> tuple[int, list[int]]:
        """The next game: every kind in turn until each was played once, then any; 2-6 seats it takes."""
        from game.registry import GAMES

        unplayed = [k for k in kinds if k not in party.games_started]
        kind = rng.choice(unplayed) if unplayed else rng.choice(kinds)
        idx = [i for i, c in enumerate(choices) if c[0][0] == kind]
        c = rng.choice(idx)
        lo, hi = GAMES[kind].seats
        n = rng.randint(max(2, lo), min(6, hi))
        return c, sorted(rng.sample(range(1, 7), n))

    def faults(s: Any, due: list[tuple[float, str, Any]]) -> None:
        """Radio settings and device power, as their times come."""
        vt = party.rig.virtual if party.rig is not None else None
        now = s.clock()
        for item in [d for d in due if d[0] <= now]:
            due.remove(item)
            _, what, arg = item
            if what == "power-on" and vt is not None:
                vt.power(arg, True)
        if vt is None or not opts.radio_faults or rng.random() > 0.01:
            return
        if rng.random() < 0.5:
            vt.radio.loss = rng.choice((0.0, 0.0, 0.02, 0.1, 0.3))
            vt.radio.spike_p = rng.choice((0.0, 0.0, 0.05, 0.2))
            party.radio_changes += 1
        else:
            name = rng.choice(sorted(vt.devices))
            if vt.devices[name].powered:
                vt.power(name, False)
                party.power_cycles += 1
                due.append((now + rng.uniform(2.0, 25.0), "power-on", name))

    def broker_restart(s: Any) -> Iterator[Any]:
        yield from crowd_quiet()
        party.broker.stop()
        yield 15.0  # the table plays on without its broker
        party.broker.start()
        party.broker_restarts += 1
        crowd_on()

    def lobby_phones(joined: list[int]) -> None:
        if party.crowd is None or party.companion is None:
            return
        for p in joined:
            if rng.random() < 0.6:
                name = (rng.choice(HOSTILE_NAMES) if opts.hostile_names and rng.random() < 0.5
                        else f"{rng.choice(PLAIN_NAMES)}{p}")
                code = party.companion.bridge.book.join_code(p)
                party.crowd.send("join", panel=p, code=code, name=name)
                party.phone_joins_asked += 1

    def throw(app: Any, joined: list[int]) -> Iterator[Any]:
        for _ in range(rng.randrange(len(joined))):
            yield from tap("up")
        r = rng.random()
        if opts.back_to_back and r < 0.25:  # two or three throws in a row, no waiting for the call
            for _ in range(rng.randint(2, 3)):
                yield from tap(rng.choice(("f9", "f10", "f11")))
                party.throws += 1
                yield rng.uniform(0.0, 0.4)
            party.back_to_back += 1
        elif opts.back_to_back and r < 0.4:  # a catch and the catcher throws it straight back
            yield from tap("f11")
            yield rng.uniform(0.8, 1.6)
            yield from tap("down")
            yield from tap(rng.choice(("f9", "f10")))
            party.throws += 2
            party.rethrows += 1
        else:
            yield from tap(rng.choice(("f9", "f9", "f10", "f11")))
            party.throws += 1

    def menu_restart(panel: int) -> Iterator[Any]:
        yield from chord(panel)
        if rng.random() < 0.3:  # "House settings" then "Switch game now": the host's other way to the next game
            yield from press(panel, "WAR")
            yield from press(panel, "WAR")
            yield from press(panel, "SET")  # the settings page, cursor on its first item
            yield from press(panel, "BRAWL")  # up, round to the last item: "Switch game now"
            yield from press(panel, "SET")
            party.switches += 1
        else:
            yield from press(panel, "WAR")  # "Restart: new game"
            yield from press(panel, "SET")
        yield until(lambda app: app.live is None, 6.0, "the lobby")

    def run(s: Any) -> Iterator[Any]:
        start = s.clock()
        joined: list[int] = []
        over_since: float | None = None
        game_end = 0.0
        next_sample = start
        due: list[tuple[float, str, Any]] = []
        restart_at = start + opts.table_s / 2 if opts.mqtt and opts.broker_restart and party.broker else None
        while s.clock() - start < opts.table_s:
            now = s.clock()
            party.table_s = now - start
            if now >= next_sample:
                if opts.clear_mock_pin_history:
                    clear_mock_pins(party)
                party.samples.append({"t": round(now - start, 1), **sample()})
                next_sample = now + opts.sample_s
                real = time.monotonic() - party.real_t0
                if opts.progress:
                    print(f"[{real:.0f} s real] {party.samples[-1]} games {party.games_started} "
                          f"failsafes {len(s.failsafes)} timeouts {len(s.timeouts)} errors {len(party.errors)}",
                          file=sys.stderr, flush=True)
                if real > opts.real_limit_s:
                    party.cut_short = True
                    break
                if party.warm_at is None and (len(party.games_started) == len(kinds) and now - start >= 0.2 * opts.table_s
                                              or now - start >= 0.5 * opts.table_s):
                    party.warm_at = now - start
                    party.warm_detail = {"threads": thread_names(), "fds": fd_kinds()}
                    if opts.count_objects:
                        party.warm_snapshot = object_counts()
            faults(s, due)
            app = s.app
            if restart_at is not None and now >= restart_at:
                restart_at = None
                yield from broker_restart(s)
                continue
            if app.menu_open:
                yield from press(joined[0] if joined else 1, "DUEL")
                continue
            if app.live is None:
                if app.lobby is None:  # the settings screen after "switch game": back to the lobby
                    yield from press(joined[0] if joined else 1, "DUEL")
                    yield 0.5
                    continue
                if app.lobby.resume is not None:
                    yield from press(1, "DUEL")
                    continue
                c, joined = pick()
                yield from crowd_quiet()
                lobby_phones(joined)
                yield 1.0
                if not (yield from join_and_start(joined, c)):
                    party.recoveries += 1
                    yield from recover(joined)
                    continue
                kind = app.mode.name
                party.games_started[kind] = party.games_started.get(kind, 0) + 1
                crowd_on()
                over_since = None
                game_end = s.clock() + rng.uniform(*opts.game_s)
                continue
            if app.over or s.clock() > game_end:
                over_since = over_since if over_since is not None else s.clock()
                if s.clock() - over_since > 3.0 or not app.over:
                    yield from crowd_quiet()
                    yield from menu_restart(joined[0])
                    party.restarts += 1
                else:
                    yield 0.5
                continue
            r = rng.random()
            if r < 0.8 or not app.mode.uses_devices:
                hold = rng.uniform(0.9, 1.3) if rng.random() < 0.08 else rng.uniform(0.06, 0.25)
                yield from press(rng.choice(joined), rng.choice(BUTTONS), hold)
                party.presses += 1
            elif r < 0.94:
                yield from throw(app, joined)
            else:
                yield from tap(rng.choice(("tab", "left", "right", "down")))
            yield rng.uniform(0.05, 0.8)
        party.table_s = s.clock() - start
        party.samples.append({"t": round(party.table_s, 1), **sample()})
        party.end_detail = {"threads": thread_names(), "fds": fd_kinds()}
        if opts.count_objects and party.warm_snapshot is not None:
            now_counts = object_counts()
            grown = sorted(((n - party.warm_snapshot.get(k, 0), k) for k, n in now_counts.items()), reverse=True)
            party.grew = [f"{d:+d} {k}" for d, k in grown[:12] if d > 0]
        yield from crowd_quiet()

    return run


def join_and_start(panels: list[int], choice: int) -> Generator[Any, None, bool]:
    """As ``game.table.scripted.join_and_start``, with room for a loaded machine (a phone's tap may have moved the
    cursor: it is set again from the lobby's own state). False if the game did not start (the failsafe screen)."""
    from game.table.scripted import _app, press

    for p in panels:
        lobby = _app[0].lobby if _app else None
        if lobby is None or p not in lobby.joined:
            yield from press(p, "SET")
    lobby = _app[0].lobby
    steps = (choice - lobby.variant) % len(lobby.choices) if lobby is not None else choice
    for _ in range(steps):
        yield from press(panels[0], "WAR")
    yield from press(panels[0], "DUEL")
    for _ in range(60):
        if _app[0].live is not None:
            return True
        if _app[0].error is not None:
            break
        yield 0.1
    return False


def recover(panels: list[int]) -> Iterator[Any]:
    """After the failsafe screen in place of a game: SET carries on, the menu's "Restart: new game" opens a lobby,
    and every panel holds SET to leave it (its name card forgotten), as a host would clear a name the game refused."""
    from game.table.scripted import _app, chord, press, until

    yield from press(panels[0], "SET")
    if _app[0].live is None and _app[0].lobby is None:
        yield from chord(panels[0])
        yield from press(panels[0], "WAR")
        yield from press(panels[0], "SET")
    yield until(lambda app: app.lobby is not None, 6.0, "the lobby after the failsafe")
    for p in panels:
        yield from press(p, "SET", hold=1.3)


def run_party(opts: Options, workdir: Path, out: Callable[[str], None] = print) -> dict[str, Any]:
    """One party soak in ``workdir``; returns the summary (``summary["ok"]`` says whether the goals held)."""
    import game.web.server as server_mod
    from game.table.scripted import Script

    party = Party(opts)
    party.real_t0 = time.monotonic()
    errors = Errors()
    party.errors = errors.lines
    undo_plugin = install_plugin(workdir / "site")
    undo_hooks = hooks(party)
    sys.path.insert(0, str(ROOT / "tests"))
    from mosquitto import Mosquitto  # tests/mosquitto.py: the broker the venue tests use

    sys.path.remove(str(ROOT / "tests"))
    broker = Mosquitto(workdir / "mqtt").start() if opts.mqtt else None
    party.broker = broker

    class PartyScript(Script):
        def args(self) -> Any:
            a = super().args()
            a.web_port, a.web_host, a.web_pin, a.no_web = 0, "127.0.0.1", PIN, not opts.phones
            a.settings = str(workdir / "house.json")  # the switch-game path saves the house settings: not ~/.config
            if broker is not None:
                a.broker, a.venue, a.table = broker.url, "soak", "party"
            return a

    s = PartyScript(workdir / "party.db", limit_s=opts.table_s + 900, speed=opts.speed, idle_speed=10 * opts.speed)
    saved_time = server_mod.time
    server_mod.time = _TableTime(s.clock)  # type: ignore[assignment]
    run = scenario(party)

    def with_crowd(script: Any) -> Iterator[Any]:
        from game.table.scripted import until

        if opts.phones:
            yield until(lambda app: party.companion is not None, 5.0, "the companion")
            party.crowd = CrowdHandle(f"http://127.0.0.1:{party.companion.server.port}",
                                      broker.port if broker is not None else 1, opts.seed, opts.junk)
        yield from run(script)

    t0 = time.monotonic()
    crowd: dict[str, int] = {}
    try:
        with errors:
            status = s.run(with_crowd, lobby_seed=opts.seed)  # type: ignore[arg-type]
            if party.crowd is not None:
                crowd = party.crowd.close()
    finally:
        server_mod.time = saved_time
        undo_hooks()
        undo_plugin()
        if broker is not None:
            broker.stop()
        if party.crowd is not None and party.crowd.proc.poll() is None:
            party.crowd.proc.kill()
    real_s = time.monotonic() - t0
    return summarise(party, s, errors, crowd, status, real_s, workdir / "party.db")


def summarise(party: Party, s: Any, errors: Errors, crowd: dict[str, int], status: int, real_s: float,
              journal: Path) -> dict[str, Any]:
    finished: dict[str, int] = {}
    started: dict[str, int] = {}
    events: dict[str, int] = {}
    with sqlite3.connect(journal) as db:
        for setup, done in db.execute("SELECT setup, finished FROM games"):
            kind = json.loads(setup).get("game", "?")
            started[kind] = started.get(kind, 0) + 1
            if done:
                finished[kind] = finished.get(kind, 0) + 1
        for ev, n in db.execute("SELECT json_extract(body, '$.event'), COUNT(*) FROM events GROUP BY 1"
                                if _has_body(db) else "SELECT 'event', COUNT(*) FROM events"):
            events[str(ev)] = n
    samples = party.samples
    warm = next((x for x in samples if party.warm_at is not None and x["t"] >= party.warm_at), samples[0] if samples
                else None)
    end = samples[-1] if samples else None
    growth = (end["rss_mib"] / warm["rss_mib"] - 1.0) * 100 if warm and end else None
    pub = party.publisher.counts if party.publisher is not None else {}
    out: dict[str, Any] = {
        "seed": party.opts.seed, "table_s": round(party.table_s, 1), "real_s": round(real_s, 1),
        "table_s_asked": party.opts.table_s, "cut_short_by_real_limit": party.cut_short,
        "status": status, "failsafes": list(s.failsafes), "timeouts": list(s.timeouts),
        "errors": len(errors.lines), "error_lines": errors.lines[:20], "tracebacks": errors.tracebacks[:5],
        "events_refused": errors.rejected,
        "rss_warm_mib": warm["rss_mib"] if warm else None, "rss_end_mib": end["rss_mib"] if end else None,
        "rss_growth_pct": round(growth, 2) if growth is not None else None, "warm_at_s": party.warm_at,
        "fds": {"warm": warm["fds"] if warm else None, "end": end["fds"] if end else None,
                "min": min(x["fds"] for x in samples), "max": max(x["fds"] for x in samples)} if samples else {},
        "threads": {"warm": warm["threads"] - warm["blink"] if warm else None,
                    "end": end["threads"] - end["blink"] if end else None,
                    "min": min(x["threads"] - x["blink"] for x in samples),
                    "max": max(x["threads"] - x["blink"] for x in samples),
                    "os_warm": warm["tasks"] - warm["blink"] if warm else None,
                    "os_end": end["tasks"] - end["blink"] if end else None,
                    "os_max": max(x["tasks"] - x["blink"] for x in samples),
                    "blink_max": max(x["blink"] for x in samples)} if samples else {},
        "games_started": started, "games_finished": finished, "restarts": party.restarts,
        "switches": party.switches, "recoveries": party.recoveries, "presses": party.presses, "throws": party.throws,
        "back_to_back": party.back_to_back, "rethrows": party.rethrows, "calls": {
            k: events.get(k, 0) for k in ("throw", "hit", "miss", "catch", "overturn")},
        "journal_events": sum(events.values()), "questions": len(s.questions),
        "power_cycles": party.power_cycles, "radio_changes": party.radio_changes,
        "broker_restarts": party.broker_restarts, "phone": crowd, "phone_joins_asked": party.phone_joins_asked,
        "bridge": ({"applied": party.companion.bridge.applied, "errors": party.companion.bridge.errors}
                   if party.companion is not None else {}),
        "mqtt_received": crowd.get("mqtt"), "publisher": pub,
        "grew": party.grew, "samples": samples, "warm_detail": party.warm_detail, "end_detail": party.end_detail,
    }
    out["missed"] = missed(out)
    out["ok"] = not out["missed"]
    return out


#: how far the end may be above the warm-up level and still count as flat: a phone socket or two being reconnected
#: at the moment of the sample, one thread of a reconnect in flight
FD_MARGIN, THREAD_MARGIN = 6, 2


def missed(sm: dict[str, Any]) -> list[str]:
    """The goals a summary misses: 0 failsafes, 0 error lines, the scenario never stuck, RSS growth < 10 % after
    the warm-up, fds and threads flat (the end within a small margin of the warm-up level)."""
    out = []
    if sm["failsafes"]:
        out.append(f"{len(sm['failsafes'])} failsafes")
    if sm["errors"]:
        out.append(f"{sm['errors']} error lines")
    if sm["timeouts"]:
        out.append(f"the scenario got stuck: {sm['timeouts'][0]}")
    growth = sm["rss_growth_pct"]
    if growth is None or growth >= 10.0:
        out.append(f"RSS growth {growth} % (goal < 10 %)")
    fd, th = sm["fds"], sm["threads"]
    if not fd or fd["end"] > fd["warm"] + FD_MARGIN:
        out.append(f"fds not flat: {fd}")
    if not th or th["end"] > th["warm"] + THREAD_MARGIN or th["os_end"] > th["os_warm"] + THREAD_MARGIN:
        out.append(f"threads not flat: {th}")
    return out


def _has_body(db: sqlite3.Connection) -> bool:
    return "body" in [r[1] for r in db.execute("PRAGMA table_info(events)")]


def screen(sm: dict[str, Any]) -> str:
    """The one-screen summary."""
    th, fd = sm["threads"], sm["fds"]
    lines = [
        f"party soak seed {sm['seed']}: {sm['table_s']:.0f} s of table time in {sm['real_s']:.0f} s real "
        f"-> {'OK' if sm['ok'] else 'FAILED: ' + '; '.join(sm['missed'])}",
        f"  failsafes {len(sm['failsafes'])}, error lines {sm['errors']}, tracebacks {len(sm['tracebacks'])}, "
        f"scenario timeouts {len(sm['timeouts'])}, events refused by the rules {sm['events_refused']}",
        f"  RSS {sm['rss_warm_mib']} MiB after warm-up ({sm['warm_at_s']} s) -> {sm['rss_end_mib']} MiB at the end: "
        f"{sm['rss_growth_pct']} % (goal < 10 %)",
        f"  fds warm {fd.get('warm')} end {fd.get('end')} (min {fd.get('min')}, max {fd.get('max')}); threads warm "
        f"{th.get('warm')} end {th.get('end')} (max {th.get('max')}), OS threads warm {th.get('os_warm')} end "
        f"{th.get('os_end')} (max {th.get('os_max')}), besides 0-{th.get('blink_max')} seat-light blink threads",
        f"  games started {sm['games_started']}",
        f"  games finished {sm['games_finished']}; {sm['restarts']} restarts, {sm['switches']} via switch game, "
        f"{sm['recoveries']} games that did not start",
        f"  {sm['presses']} presses, {sm['throws']} throws ({sm['back_to_back']} back-to-back runs, "
        f"{sm['rethrows']} catch+re-throw), calls {sm['calls']}, {sm['questions']} questions",
        f"  radio: {sm['radio_changes']} loss/jitter changes, {sm['power_cycles']} device power cycles; "
        f"broker restarts {sm['broker_restarts']}",
        f"  phones: {sm['phone']}; bridge {sm['bridge']}",
        f"  MQTT received by the subscriber: {sm['mqtt_received']}; publisher {sm['publisher']}",
    ]
    if sm["warm_detail"] != sm["end_detail"]:
        lines.append(f"  after warm-up: {sm['warm_detail']}\n  at the end:    {sm['end_detail']}")
    seen: dict[str, int] = {}
    for x in sm["failsafes"] + sm["timeouts"] + sm["error_lines"]:
        head = x.splitlines()[0][:160]
        where = [ln.strip() for ln in x.splitlines()[1:] if ln.strip().startswith("File ")]
        key = head + (f"  <- {where[-1][:120]}" if where else "")
        seen[key] = seen.get(key, 0) + 1
    lines += [f"  ! {n} x {key}" for key, n in list(seen.items())[:10]]
    lines += [f"  grew: {g}" for g in sm["grew"]]
    lines += [f"  traceback:\n{t}" for t in sm["tracebacks"][:2]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hours", type=float, default=None, help="table time to play, in hours (default 4)")
    ap.add_argument("--minutes", type=float, default=None, help="table time to play, in minutes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--speed", type=float, default=6.0, help="x real time while keys and throws are busy (default 6)")
    ap.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    ap.add_argument("--real-limit", type=float, default=float("inf"), metavar="S",
                    help="stop after S real seconds, whatever the table time (reported)")
    ap.add_argument("--progress", action="store_true", help="a line of figures on stderr at every sample")
    ap.add_argument("--clear-mock-pin-history", action="store_true",
                    help="empty the mock pins' state histories at every sample (the simulation rig's own growth)")
    ap.add_argument("--count-objects", action="store_true",
                    help="show which kinds of Python object grew in number after the warm-up")
    ap.add_argument("--no-phones", action="store_true", help="no companion and no crowd")
    ap.add_argument("--no-junk", action="store_true", help="phones send no malformed messages")
    ap.add_argument("--no-hostile-names", action="store_true", help="phones send plain names only")
    ap.add_argument("--no-mqtt", action="store_true", help="no broker, no publisher")
    ap.add_argument("--no-broker-restart", action="store_true")
    ap.add_argument("--no-back-to-back", action="store_true", help="one throw at a time")
    ap.add_argument("--no-radio-faults", action="store_true", help="no packet loss, no power cycles")
    ap.add_argument("--crowd", metavar="URL", help=argparse.SUPPRESS)
    ap.add_argument("--broker-port", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.crowd:
        return Crowd(args.crowd, args.broker_port, args.seed, junk=not args.no_junk).main()
    hours = args.hours if args.hours is not None else (args.minutes / 60 if args.minutes is not None else 4.0)
    opts = Options(seed=args.seed, table_s=hours * 3600, speed=args.speed, phones=not args.no_phones,
                   junk=not args.no_junk, hostile_names=not args.no_hostile_names, mqtt=not args.no_mqtt,
                   broker_restart=not args.no_broker_restart, back_to_back=not args.no_back_to_back,
                   radio_faults=not args.no_radio_faults, sample_s=20.0 if hours <= 0.25 else 60.0,
                   game_s=(30.0, 75.0) if hours <= 0.25 else (40.0, 100.0),
                   real_limit_s=args.real_limit, progress=args.progress, count_objects=args.count_objects,
                   clear_mock_pin_history=args.clear_mock_pin_history)
    if shutil.which("mosquitto") is None and not os.path.exists("/usr/sbin/mosquitto") and opts.mqtt:
        print("soak_party: mosquitto is not installed (tests/install-system-deps.sh)", file=sys.stderr)
        return 2
    # stopped with SIGTERM: unwind as for Ctrl-C, so the broker, the crowd and the rig are closed and the temp dir goes
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with tempfile.TemporaryDirectory(prefix="burrito-party-") as tmp:
        sm = run_party(opts, Path(tmp))
    print(json.dumps(sm) if args.json else screen(sm))
    return 0 if sm["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
