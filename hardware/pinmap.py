"""The pin map: which seat's buttons and light sit on which pin, read from TOML.

A default map ships with the package (``hardware/pinmap.toml``: six seats,
buttons on two MCP23017 expanders, lights on GPIO).  A user file replaces it
whole, found through ``--config FILE`` or
``$XDG_CONFIG_HOME/burrito-table/pinmap.toml`` (default ``~/.config/...``).

Validation collects *every* problem before giving up, each with where (file
and key path) and what, so a maker fixes the file in one go:

>>> text = '''
... [table]
... seats = 2
... buttons = ["SET"]
... colour = "red"
... [panels.1]
... light = "GPIO5"
... buttons = { SET = "GPIO17", JUMP = "GPIO17" }
... '''
>>> try:
...     parse_pinmap(text, "demo.toml")
... except PinMapError as err:
...     print(err)
demo.toml: 4 problems
  demo.toml: table.colour: unknown key
  demo.toml: panels.1.buttons.JUMP: unknown button 'JUMP' (the layout in table.buttons is SET)
  demo.toml: panels.1.buttons.JUMP: GPIO17 is already used by panels.1.buttons.SET
  demo.toml: table.seats: 2 seats but no panel for seat 2
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .header import I2C_PINS, ID_EEPROM_PINS, PHYSICAL_OF_BCM, UART_PINS, PinNameError, parse_gpio_name

#: Most seats the software handles: two decks of Throw Throw Burrito seat 12.
MAX_SEATS = 12
DEFAULT_BUTTONS: tuple[str, ...] = ("SET", "BRAWL", "WAR", "DUEL")

#: The default keys of each seat in simulation mode: a column of the keyboard per seat (the pin map owns them, as it
#: owns the pins; ``[keyboard.SEAT]`` sections override them).
_COLUMNS: list[tuple[str, str, str, str]] = [
    ("1", "q", "a", "z"), ("2", "w", "s", "x"), ("3", "e", "d", "c"), ("4", "r", "f", "v"),
    ("5", "t", "g", "b"), ("6", "y", "h", "n"), ("7", "u", "j", "m"), ("8", "i", "k", ","),
    ("9", "o", "l", "."), ("0", "p", ";", "/"), ("f1", "f2", "f3", "f4"), ("f5", "f6", "f7", "f8"),
]


def default_keymap(seats: int, buttons: tuple[str, ...] = DEFAULT_BUTTONS) -> dict[str, tuple[int, str]]:
    """Key name -> (seat, button) for the first four buttons of each seat.

    Layouts with more than four buttons need ``[keyboard.SEAT]`` entries in the
    pin map for the extra ones.
    """
    out: dict[str, tuple[int, str]] = {}
    for seat in range(1, min(seats, len(_COLUMNS)) + 1):
        for key, button in zip(_COLUMNS[seat - 1], buttons):
            out[key] = (seat, button)
    return out
#: MCP23017 pin numbers (DIP/SOIC package) for the two 8-bit ports.
MCP_PIN_NUMBER: dict[str, int] = {
    **{f"A{b}": 21 + b for b in range(8)},
    **{f"B{b}": 1 + b for b in range(8)},
}

_EXP_PIN = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*):([AB])([0-7])$")
_BUTTON_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a pin map: where (file: key path) and what."""

    where: str
    what: str

    def __str__(self) -> str:
        return _bounded(f"{self.where}: {self.what}")


#: the longest problem line: a 5,000-character file name or TOML key is shown by its ends and its length
LINE_LIMIT = 400


def _bounded(line: str) -> str:
    """One line of at most about ``LINE_LIMIT`` characters (hardware may not import ``game.rules.base.bound``)."""
    line = line.replace("\n", " ").replace("\r", " ")
    if len(line) <= LINE_LIMIT:
        return line
    return f"{line[:LINE_LIMIT - 100]} ...({len(line) - LINE_LIMIT + 60} characters left out)... {line[-40:]}"


class PinMapError(Exception):
    """A pin map that cannot be used; carries every problem found."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = list(problems)
        lines = [f"{source}: {len(problems)} problem{'s' if len(problems) != 1 else ''}"]
        lines += [f"  {p}" for p in problems]
        super().__init__("\n".join(lines))


@dataclass(frozen=True)
class PinRef:
    """A pin on the Pi header (``bcm`` set) or on an expander (``expander`` set)."""

    text: str
    bcm: int | None = None
    expander: str | None = None
    port: str | None = None  # "A" or "B"
    bit: int | None = None

    @property
    def is_gpio(self) -> bool:
        return self.bcm is not None

    @property
    def gpiozero_name(self) -> str:
        """The name gpiozero accepts (``GPIO17``); only for header pins."""
        if self.bcm is None:
            raise ValueError(f"{self.text} is an expander pin, not a GPIO")
        return f"GPIO{self.bcm}"

    @property
    def physical(self) -> int | None:
        """Physical header pin (1-40), or None for an expander pin."""
        return PHYSICAL_OF_BCM[self.bcm] if self.bcm is not None else None

    @property
    def port_name(self) -> str:
        """MCP23017 port label like ``GPA3``, or "" for a header pin."""
        return f"GP{self.port}{self.bit}" if self.port is not None else ""


@dataclass(frozen=True)
class Expander:
    """One MCP23017 on I2C with its INT line (INTA, mirrored) on a GPIO."""

    name: str
    address: int
    interrupt: PinRef


@dataclass(frozen=True)
class Panel:
    """The panel at one seat: its light and its buttons in layout order."""

    seat: int
    light: PinRef
    buttons: dict[str, PinRef]


@dataclass(frozen=True)
class Timing:
    """Debounce and gesture timing, in seconds."""

    debounce_s: float = 0.015
    hold_s: float = 0.8
    stuck_s: float = 30.0
    reorder_s: float = 0.0


@dataclass(frozen=True)
class PinMap:
    """A validated pin map.  Build it with :func:`load_pinmap` or :func:`parse_pinmap`."""

    source: str
    seats: int
    buttons: tuple[str, ...]
    pull_up: bool
    shutdown: PinRef | None
    timing: Timing
    i2c_enabled: bool
    i2c_bus: int
    uart_enabled: bool
    expanders: dict[str, Expander]
    panels: dict[int, Panel]
    keymap: dict[str, tuple[int, str]] = field(default_factory=dict)

    def seat_panels(self) -> list[Panel]:
        """The panels of the seats in use (1..seats), in seat order."""
        return [self.panels[s] for s in range(1, self.seats + 1)]

    def button_pins(self) -> list[tuple[int, str, PinRef]]:
        """Every (seat, button, pin) of the seats in use, seat then layout order."""
        return [(p.seat, b, p.buttons[b]) for p in self.seat_panels() for b in self.buttons]


# ---------------------------------------------------------------------------------------
# loading


def default_pinmap_path() -> Path:
    """The pin map that ships inside the package."""
    return Path(str(resources.files("hardware").joinpath("pinmap.toml")))


def user_pinmap_path(env: dict[str, str] | None = None) -> Path:
    """``$XDG_CONFIG_HOME/burrito-table/pinmap.toml`` (default ``~/.config``)."""
    env = dict(os.environ) if env is None else env
    base = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME", os.path.expanduser("~")), ".config")
    return Path(base) / "burrito-table" / "pinmap.toml"


def resolve_pinmap_path(config: str | os.PathLike[str] | None = None, env: dict[str, str] | None = None) -> Path:
    """Which file to read: ``--config``, else the XDG user file if present, else the default."""
    if config is not None:
        return Path(config)
    user = user_pinmap_path(env)
    return user if user.is_file() else default_pinmap_path()


def load_pinmap(config: str | os.PathLike[str] | None = None, env: dict[str, str] | None = None) -> PinMap:
    """Read and validate the pin map; raise :class:`PinMapError` listing every problem."""
    path = resolve_pinmap_path(config, env)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PinMapError(str(path), [Problem(str(path), f"cannot read the pin map: {exc.strerror or exc}")]) from None
    except UnicodeDecodeError as exc:
        raise PinMapError(str(path), [Problem(str(path), f"not UTF-8 text: {exc.reason} at byte {exc.start}")]) from None
    return parse_pinmap(text, str(path))


def parse_pinmap(text: str, source: str = "<pinmap>") -> PinMap:
    """Parse and validate TOML text; raise :class:`PinMapError` listing every problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PinMapError(source, [Problem(source, f"not valid TOML: {exc}")]) from None
    return _Validator(source, data).run()


# ---------------------------------------------------------------------------------------
# validation

_TOP_KEYS = {"table", "timing", "i2c", "uart", "expanders", "panels", "keyboard"}
_TABLE_KEYS = {"seats", "buttons", "pull_up", "shutdown"}
_TIMING_KEYS = {"debounce_ms", "hold_ms", "stuck_s", "reorder_ms"}
_I2C_KEYS = {"enabled", "bus"}
_UART_KEYS = {"enabled"}
_EXPANDER_KEYS = {"address", "interrupt"}
_PANEL_KEYS = {"light", "buttons"}


def _seat_number(key: str) -> int | None:
    """A section name as a seat number: ASCII digits only (``str.isdigit`` also takes "²", which ``int`` refuses)."""
    return int(key) if re.fullmatch(r"[0-9]{1,6}", key) else None


class _Validator:
    def __init__(self, source: str, data: dict[str, Any]) -> None:
        self.source = source
        self.data = data
        self.problems: list[Problem] = []
        self.used: dict[tuple[Any, ...], str] = {}  # pin identity -> key path of first user

    def problem(self, path: str, what: str) -> None:
        self.problems.append(Problem(f"{self.source}: {path}" if path else self.source, what))

    def table(self, value: Any, path: str, allowed: set[str]) -> dict[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.problem(path, f"must be a table, got {type(value).__name__}")
            return {}
        for key in value:
            if key not in allowed:
                self.problem(f"{path}.{key}" if path else key, "unknown key")
        return value

    def number(self, tbl: dict[str, Any], key: str, path: str, default: float, *, integer: bool = False,
               lo: float | None = None, hi: float | None = None) -> float:
        if key not in tbl:
            return default
        v = tbl[key]
        ok_type = isinstance(v, int) if integer else isinstance(v, (int, float))
        if isinstance(v, bool) or not ok_type:
            self.problem(f"{path}.{key}", f"must be {'an integer' if integer else 'a number'}, got {v!r}")
            return default
        if not math.isfinite(v):  # TOML has nan and inf; neither compares as out of range
            self.problem(f"{path}.{key}", f"must be a finite number, got {v!r}")
            return default
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            self.problem(f"{path}.{key}", f"must be between {lo:g} and {hi:g}, got {v!r}")
            return default
        return v

    def boolean(self, tbl: dict[str, Any], key: str, path: str, default: bool) -> bool:
        v = tbl.get(key, default)
        if not isinstance(v, bool):
            self.problem(f"{path}.{key}", f"must be true or false, got {v!r}")
            return default
        return v

    def pin(self, value: Any, path: str, *, gpio_only: bool = False) -> PinRef | None:
        if not isinstance(value, str):
            self.problem(path, f"a pin is written as a string like \"GPIO17\", got {value!r}")
            return None
        m = _EXP_PIN.match(value.strip())
        if m:
            if gpio_only:
                self.problem(path, f"{value} is an expander pin; this needs a GPIO on the Pi header")
                return None
            return PinRef(value, expander=m.group(1), port=m.group(2).upper(), bit=int(m.group(3)))
        try:
            bcm = parse_gpio_name(value)
        except PinNameError as exc:
            self.problem(path, str(exc))
            return None
        return PinRef(value, bcm=bcm)

    def claim(self, ref: PinRef | None, path: str) -> None:
        """Record a pin's use; report a second use and clashes with I2C/UART/ID."""
        if ref is None:
            return
        if ref.bcm is not None:
            key: tuple[Any, ...] = ("gpio", ref.bcm)
            label = f"GPIO{ref.bcm}"
            if self.i2c_enabled and ref.bcm in I2C_PINS:
                self.problem(path, f"{label} is {I2C_PINS[ref.bcm]}, which i2c.enabled gives to I2C")
            if self.uart_enabled and ref.bcm in UART_PINS:
                self.problem(path, f"{label} is {UART_PINS[ref.bcm]}, which uart.enabled gives to the UART")
            if ref.bcm in ID_EEPROM_PINS:
                self.problem(path, f"{label} is reserved for the {ID_EEPROM_PINS[ref.bcm]}")
        else:
            key = ("exp", ref.expander, ref.port, ref.bit)
            label = f"{ref.expander}:{ref.port}{ref.bit}"
        if key in self.used:
            self.problem(path, f"{label} is already used by {self.used[key]}")
        else:
            self.used[key] = path

    def run(self) -> PinMap:
        data = self.table(self.data, "", _TOP_KEYS)
        table = self.table(data.get("table"), "table", _TABLE_KEYS)
        timing_t = self.table(data.get("timing"), "timing", _TIMING_KEYS)
        i2c = self.table(data.get("i2c"), "i2c", _I2C_KEYS)
        uart = self.table(data.get("uart"), "uart", _UART_KEYS)

        seats = int(self.number(table, "seats", "table", 6, integer=True, lo=1, hi=MAX_SEATS))
        pull_up = self.boolean(table, "pull_up", "table", True)
        self.i2c_enabled = self.boolean(i2c, "enabled", "i2c", False)
        i2c_bus = int(self.number(i2c, "bus", "i2c", 1, integer=True, lo=0, hi=31))
        self.uart_enabled = self.boolean(uart, "enabled", "uart", False)

        buttons = self.layout(table.get("buttons", list(DEFAULT_BUTTONS)))

        debounce = self.number(timing_t, "debounce_ms", "timing", 15, lo=0, hi=200) / 1000
        hold = self.number(timing_t, "hold_ms", "timing", 800, lo=50, hi=10000) / 1000
        stuck = self.number(timing_t, "stuck_s", "timing", 30, lo=0.1, hi=3600)
        reorder = self.number(timing_t, "reorder_ms", "timing", 0, lo=0, hi=100) / 1000
        if hold <= debounce:
            self.problem("timing.hold_ms", "must be longer than timing.debounce_ms")
        if stuck <= hold:
            self.problem("timing.stuck_s", "must be longer than timing.hold_ms")

        shutdown = None
        if "shutdown" in table:
            shutdown = self.pin(table["shutdown"], "table.shutdown", gpio_only=True)
            self.claim(shutdown, "table.shutdown")

        expanders = self.expanders(data.get("expanders"))
        panels = self.panels(data.get("panels"), buttons, expanders)

        missing = [s for s in range(1, seats + 1) if s not in panels and s not in self.bad_panels]
        if missing:
            listed = ", ".join(map(str, missing))
            self.problem("table.seats", f"{seats} seats but no panel{'s' if len(missing) > 1 else ''} for seat{'s' if len(missing) > 1 else ''} {listed}")
        uses_expander = any(r.expander for p in panels.values() for r in p.buttons.values())
        if (expanders or uses_expander) and not self.i2c_enabled:
            self.problem("i2c", "the expanders need I2C, but i2c.enabled is false")

        keymap = self.keyboard(data.get("keyboard"), buttons, seats)

        if self.problems:
            raise PinMapError(self.source, self.problems)
        return PinMap(
            source=self.source, seats=seats, buttons=buttons, pull_up=pull_up, shutdown=shutdown,
            timing=Timing(debounce, hold, stuck, reorder), i2c_enabled=self.i2c_enabled, i2c_bus=i2c_bus,
            uart_enabled=self.uart_enabled, expanders=expanders, panels=panels, keymap=keymap,
        )

    def layout(self, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not value:
            self.problem("table.buttons", f"must be a non-empty list of button names, got {value!r}")
            return DEFAULT_BUTTONS
        names: list[str] = []
        for i, name in enumerate(value):
            if not isinstance(name, str) or not _BUTTON_NAME.match(name):
                self.problem(f"table.buttons[{i}]", f"button names are upper-case words like \"SET\", got {name!r}")
            elif name in names:
                self.problem(f"table.buttons[{i}]", f"{name} is listed twice")
            else:
                names.append(name)
        return tuple(names) or DEFAULT_BUTTONS

    def expanders(self, value: Any) -> dict[str, Expander]:
        out: dict[str, Expander] = {}
        if value is None:
            return out
        if not isinstance(value, dict):
            self.problem("expanders", "must be a table of [expanders.NAME] sections")
            return out
        seen_addr: dict[int, str] = {}
        self.declared_expanders = set(value)
        for name, spec in value.items():
            path = f"expanders.{name}"
            if not re.match(r"^[A-Za-z][A-Za-z0-9_-]*$", name):
                self.problem(path, "expander names start with a letter (like E1)")
                continue
            spec = self.table(spec, path, _EXPANDER_KEYS)
            addr = spec.get("address")
            if addr is None:
                self.problem(f"{path}.address", "missing: the MCP23017's I2C address (0x20-0x27, set by A0-A2)")
            elif isinstance(addr, bool) or not isinstance(addr, int) or not 0x20 <= addr <= 0x27:
                self.problem(f"{path}.address", f"an MCP23017 address is 0x20-0x27, got {addr!r}")
                addr = None
            elif addr in seen_addr:
                self.problem(f"{path}.address", f"0x{addr:02X} is already the address of {seen_addr[addr]}")
            else:
                seen_addr[addr] = path
            intr = None
            if "interrupt" not in spec:
                self.problem(f"{path}.interrupt", "missing: the GPIO that the expander's INTA line is wired to")
            else:
                intr = self.pin(spec["interrupt"], f"{path}.interrupt", gpio_only=True)
                self.claim(intr, f"{path}.interrupt")
            if addr is not None and intr is not None:
                out[name] = Expander(name, addr, intr)
        return out

    def panels(self, value: Any, buttons: tuple[str, ...], expanders: dict[str, Expander]) -> dict[int, Panel]:
        out: dict[int, Panel] = {}
        self.bad_panels: set[int] = set()
        if value is None:
            return out
        if not isinstance(value, dict):
            self.problem("panels", "must be a table of [panels.SEAT] sections")
            return out
        declared: set[str] = getattr(self, "declared_expanders", set())
        seen: dict[int, str] = {}
        for key in sorted(value, key=lambda k: (_seat_number(k) is None, _seat_number(k) or 0, k)):
            path = f"panels.{key}"
            seat_no = _seat_number(key)
            if seat_no is None or not 1 <= seat_no <= MAX_SEATS:
                self.problem(path, f"panels are numbered by seat, 1-{MAX_SEATS}")
                continue
            seat = seat_no
            if seat in seen:  # [panels.4] and [panels.04]: which one is meant cannot be guessed
                self.problem(path, f"seat {seat} already has a panel, {seen[seat]}")
                self.bad_panels.add(seat)
                out.pop(seat, None)
                continue
            seen[seat] = path
            spec = self.table(value[key], path, _PANEL_KEYS)
            ok = True
            light = None
            if "light" not in spec:
                self.problem(f"{path}.light", "missing: every seat has a PWM light on a GPIO")
                ok = False
            else:
                light = self.pin(spec["light"], f"{path}.light", gpio_only=True)
                self.claim(light, f"{path}.light")
                ok = ok and light is not None
            btn_spec = spec.get("buttons", {})
            if not isinstance(btn_spec, dict):
                self.problem(f"{path}.buttons", "must be a table like { SET = \"GPIO17\", ... }")
                btn_spec = {}
            pins: dict[str, PinRef] = {}
            for name, pin_text in btn_spec.items():
                bpath = f"{path}.buttons.{name}"
                if name not in buttons:
                    self.problem(bpath, f"unknown button {name!r} (the layout in table.buttons is {', '.join(buttons)})")
                    ok = False
                ref = self.pin(pin_text, bpath)
                if ref is not None and ref.bit == 7:
                    self.problem(bpath, f"{ref.text}: GP{ref.port}7 cannot be an input (MCP23017 datasheet rev. D: "
                                        f"an input there can corrupt SDA); use bits 0-6")
                    ok = False
                    ref = None
                if ref is not None and ref.expander is not None and ref.expander not in expanders:
                    if ref.expander in declared:
                        pass  # the expander itself was reported (e.g. its address is missing)
                    else:
                        self.problem(bpath, f"expander {ref.expander!r} is not defined: add [expanders.{ref.expander}] with its address")
                    ok = False
                self.claim(ref, bpath)
                if ref is None:
                    ok = False
                elif name in buttons:
                    pins[name] = ref
            for name in buttons:
                if name not in btn_spec:
                    self.problem(f"{path}.buttons.{name}", "missing: every panel has every button of the layout")
                    ok = False
            if ok and light is not None:
                out[seat] = Panel(seat, light, {b: pins[b] for b in buttons})
            else:
                self.bad_panels.add(seat)
        return out

    def keyboard(self, value: Any, buttons: tuple[str, ...], seats: int) -> dict[str, tuple[int, str]]:
        """Default key columns, with ``[keyboard.SEAT] BUTTON = "key"`` overrides."""
        chosen: dict[tuple[int, str], tuple[str, str]] = {}  # (seat, button) -> (key, where)
        if value is not None and not isinstance(value, dict):
            self.problem("keyboard", "must be a table of [keyboard.SEAT] sections")
            value = None
        seen: dict[int, str] = {}
        for key, spec in (value or {}).items():
            path = f"keyboard.{key}"
            seat_no = _seat_number(key)
            if seat_no is None or not 1 <= seat_no <= seats:
                self.problem(path, f"keyboard sections are numbered by seat, 1-{seats}")
                continue
            if seat_no in seen:
                self.problem(path, f"seat {seat_no} already has a keyboard section, {seen[seat_no]}")
                continue
            seen[seat_no] = path
            spec = self.table(spec, path, set(buttons))
            for name, keyname in spec.items():
                if name not in buttons:
                    continue  # already reported as an unknown key
                if not isinstance(keyname, str) or not keyname.strip():
                    self.problem(f"{path}.{name}", f"a key is its pygame name like \"q\" or \"f1\", got {keyname!r}")
                    continue
                chosen[(seat_no, name)] = (keyname.strip().lower(), f"{path}.{name}")
        for keyname, target in default_keymap(seats, buttons).items():
            chosen.setdefault(target, (keyname, "the default key map"))
        keymap: dict[str, tuple[int, str]] = {}
        owner: dict[str, str] = {}
        for target, (keyname, where) in sorted(chosen.items(), key=lambda kv: kv[1][1] == "the default key map"):
            if keyname in keymap:
                other = keymap[keyname]
                self.problem(where if where != "the default key map" else owner[keyname],
                             f"key {keyname!r} is already the key of seat {other[0]} {other[1]}"
                             if where != "the default key map" else
                             f"key {keyname!r} is the default key of seat {target[0]} {target[1]}; give that button another key too")
                continue
            keymap[keyname] = target
            owner[keyname] = where
        return keymap
