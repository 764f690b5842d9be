"""``burrito-table pins`` and ``burrito-table doctor``.

Exit status: 0 all well, 1 a problem was found (the doctor's checks), 2 the pin
map is invalid (every problem is printed, one per line, and nothing starts).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from .bom import add_command as add_bom_command
from .gpio import FactoryError, factory_name, make_factory
from .lights import CUES
from .mcp23017 import ExpanderError
from .panels import BusError, open_table
from .pinmap import PinMap, PinMapError, load_pinmap
from .wiring import markdown_table, text_table, wiring_svg


def add_commands(subparsers: Any) -> None:
    """Register ``pins`` and ``doctor`` on the burrito-table command line."""
    p = subparsers.add_parser("pins", help="print the wiring table of the pin map",
                              description="Print the wiring: seat, button, BCM pin, physical pin, expander and port.")
    p.add_argument("--config", metavar="FILE", help="pin map TOML (default: XDG user file, else the shipped one)")
    p.add_argument("--markdown", action="store_true", help="print a markdown table")
    p.add_argument("--svg", metavar="FILE", help="also write an SVG wiring diagram to FILE")
    p.set_defaults(func=cmd_pins)

    d = subparsers.add_parser("doctor", help="check the pin map, the pin factory, the buttons and the lights",
                              description="Check the config and the pin factory, then test every button and light. "
                                          "With a terminal it asks you to press each button; --auto simulates the "
                                          "presses through the mock pin factory (laptops, CI).")
    d.add_argument("--config", metavar="FILE", help="pin map TOML")
    d.add_argument("--mock", action="store_true", help="use gpiozero's MockFactory (same as GPIOZERO_PIN_FACTORY=mock)")
    d.add_argument("--auto", action="store_true", help="simulate every press (needs the mock factory)")
    d.add_argument("--timeout", type=float, default=10.0, metavar="S", help="seconds to wait for each press (default 10)")
    d.set_defaults(func=cmd_doctor)

    add_bom_command(subparsers)


def _load(config: str | None, err: TextIO) -> PinMap | None:
    try:
        return load_pinmap(config)
    except PinMapError as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=err)
        return None


def cmd_pins(args: argparse.Namespace) -> int:
    pm = _load(args.config, sys.stderr)
    if pm is None:
        return 2
    sys.stdout.write(markdown_table(pm) if args.markdown else text_table(pm))
    if args.svg:
        try:
            Path(args.svg).write_text(wiring_svg(pm), encoding="utf-8")
        except OSError as exc:
            print(f"error: {args.svg}: cannot write the SVG: {exc.strerror or exc}", file=sys.stderr)
            return 1
        print(f"wrote {args.svg}", file=sys.stderr)
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    interactive = sys.stdin.isatty() and not args.auto
    return run_doctor(args.config, mock=args.mock, auto=args.auto, timeout=args.timeout,
                      interactive=interactive, out=sys.stdout, err=sys.stderr)


def run_doctor(config: str | None, *, mock: bool = False, auto: bool = False, timeout: float = 10.0,
               interactive: bool = False, out: TextIO = sys.stdout, factory: Any = None, bus: Any = None,
               ask: Callable[[str], str] = input, err: TextIO | None = None) -> int:
    """The doctor's checks; returns the exit status.  ``factory``/``bus`` are for tests.

    The checklist goes to ``out``; a bad pin map and the verdict of a failed run go to ``err`` (standard
    error), so a script that keeps only errors still sees why the doctor failed.
    """
    err = sys.stderr if err is None else err

    def say(msg: str) -> None:
        print(msg, file=out, flush=True)

    def failed(status: int, what: str) -> int:
        print(f"burrito-table: doctor: {what}", file=err, flush=True)
        return status

    pm = _load(config, err)
    if pm is None:
        return 2
    say(f"ok   config {pm.source}: {pm.seats} seats, buttons {', '.join(pm.buttons)}, "
        f"{len(pm.expanders)} expander(s)")
    try:
        factory = factory or make_factory("mock" if mock else None)
    except FactoryError as exc:
        say(f"FAIL pin factory: {exc}")
        return failed(1, f"pin factory: {exc}")
    name = factory_name(factory)
    say(f"ok   pin factory: {name}")
    if auto and name != "mock":
        say("FAIL --auto simulates presses and needs the mock factory (add --mock)")
        return failed(1, "--auto simulates presses and needs the mock factory (add --mock)")
    try:
        table = open_table(pm, factory, bus=bus)
    except (ExpanderError, BusError) as exc:
        say(f"FAIL expanders: {exc}")
        return failed(1, f"expanders: {exc}")
    except Exception as exc:  # gpiozero pin errors: a pin in use, no such pin on this board...
        say(f"FAIL pins: {type(exc).__name__}: {exc}")
        return failed(1, f"pins: {type(exc).__name__}: {exc}")
    problems = 0
    tested = auto or interactive
    try:
        for exp in pm.expanders.values():
            say(f"ok   expander {exp.name} answers at 0x{exp.address:02X}")
        stuck = table.pressed_at_start()
        if stuck:
            problems += 1
            say(f"FAIL reads pressed before any press: {', '.join(stuck)} (stuck button, short to GND, "
                f"or table.pull_up is wrong for this wiring)")
        if table.lights is not None and not table.lights.pwm:
            say("warn the pin factory cannot do PWM: lights are on/off only")
        if tested:
            problems += _button_test(table, pm, auto=auto, timeout=timeout, say=say)
            problems += _light_test(table, pm, auto=auto, say=say, ask=ask)
        else:
            say("skip button and light test: no terminal to prompt (use --mock --auto to simulate)")
    finally:
        table.close()
    for f in table.source.faults():
        problems += 1
        say(f"FAIL {f.message}")
    if problems:
        say(f"{problems} problem(s) found")
        return failed(1, f"{problems} problem(s) found (the list is on standard output)")
    # "all good" only when every check ran: a skipped button test has proved nothing about the buttons.
    say("all good" if tested else "config and pins ok; buttons and lights NOT tested (no terminal)")
    return 0


def _button_test(table: Any, pm: PinMap, *, auto: bool, timeout: float, say: Callable[[str], None]) -> int:
    problems = 0
    for seat, button, ref in pm.button_pins():
        where = f"{ref.text}" + (f" (GPIO{ref.bcm}, pin {ref.physical})" if ref.is_gpio else "")
        if auto:
            table.sim.set_button(seat, button, True)
        else:
            say(f"     seat {seat}: press and release {button} [{where}]")
        got = _wait_press(table, timeout)
        if auto:
            table.sim.set_button(seat, button, False)
        if got is None:
            problems += 1
            say(f"FAIL seat {seat} {button} [{where}]: no press within {timeout:g} s (check its wire and GND)")
        elif (got.seat, got.button) != (seat, button):
            problems += 1
            say(f"FAIL seat {seat} {button} [{where}]: got seat {got.seat} {got.button} instead (wires swapped?)")
        else:
            say(f"ok   seat {seat} {button} [{where}]")
        _wait_release(table, pm, timeout)
    return problems


def _wait_press(table: Any, timeout: float) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for e in table.source.poll():
            if e.action == "press":
                return e
        time.sleep(0.002)
    return None


def _wait_release(table: Any, pm: PinMap, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        table.source.poll()
        if not any(table.source.is_pressed(s, b) for s, b, _ in pm.button_pins()):
            return
        time.sleep(0.002)


def _light_test(table: Any, pm: PinMap, *, auto: bool, say: Callable[[str], None], ask: Callable[[str], str]) -> int:
    lights = table.lights
    if lights is None:
        return 0
    problems = 0
    expected = {"idle": lambda v: 0 < v < 1 or not lights.pwm, "winner": lambda v: v == 1, "out": lambda v: v == 0}
    for cue in CUES:
        lights.cue_all(cue)
        if auto:
            time.sleep(0.05)
            check = expected.get(cue)
            for panel in pm.seat_panels():
                led = lights.leds[panel.seat]
                if check is not None and not check(float(led.value)):
                    problems += 1
                    say(f"FAIL seat {panel.seat} light [{panel.light.text}]: cue {cue} left it at {led.value}")
                if cue in ("battle", "answer") and led._blink_thread is None:
                    problems += 1
                    say(f"FAIL seat {panel.seat} light [{panel.light.text}]: cue {cue} does not animate")
        else:
            say(f"     all lights: {cue}")
            time.sleep(1.5)
    if not auto:
        answer = ask("Did every seat light show idle, battle, answer, out and winner? [y/n] ").strip().lower()
        if not answer.startswith("y"):
            problems += 1
            say("FAIL lights: not every light cycled (check the transistor, the LED supply and the pin map)")
    if problems == 0:
        say(f"ok   lights cycled through {', '.join(CUES)} on {len(lights.leds)} seats")
    lights.cue_all("out")
    return problems
