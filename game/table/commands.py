"""``burrito-table play`` and ``burrito-table demo``."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

from game.venue.hook import add_broker_args


def add_commands(subparsers: Any) -> None:
    demo = subparsers.add_parser(
        "demo", help="bots play a complete game through simulation mode (default: Throw Throw Burrito)",
        description="Four bots play a complete two-round game of Throw Throw Burrito through simulation mode: "
                    "mock GPIO pins for the seat buttons, virtual burritos and badges over a pty. In a window when "
                    "a display exists; headless (SDL dummy driver, play-by-play printed) otherwise.")
    games = _games()
    demo.add_argument("--game", default=games[0] if games else None, choices=games,
                      help=f"which game the bots play (default {games[0] if games else '-'})")
    demo.add_argument("--headless", action="store_true", help="no window: SDL's dummy drivers, print the play-by-play")
    demo.add_argument("--speed", type=float, default=None, metavar="X",
                      help="table time per wall-clock second (default: 1 in a window, as fast as possible headless)")
    demo.add_argument("--seed", type=int, default=7, help="the bots' choices (default 7)")
    demo.add_argument("--journal", metavar="DB", help="keep the game in this SQLite journal (default: a temporary one)")
    demo.add_argument("--size", metavar="WxH", help="window size, e.g. 1920x1080 (default 1280x720)")
    demo.add_argument("--mute", action="store_true", help="no sound")
    demo.add_argument("--audio-device", metavar="NAME", help="audio output device, by (part of) its name")
    demo.add_argument("--no-referee", action="store_true", help="bots feed table events directly even if the referee is there")
    demo.add_argument("--max-seconds", type=float, default=900.0, help=argparse.SUPPRESS)
    add_broker_args(demo)
    demo.set_defaults(func=cmd_demo)
    add_play(subparsers)


def _games() -> list[str]:
    from game.registry import GAMES

    return list(GAMES)


def add_play(subparsers: Any) -> None:
    play = subparsers.add_parser(
        "play", help="run the table: lobby, live scoreboard, calls, sound (simulation mode without hardware)",
        description="The table app. Seats join in the lobby; the referee and the rules run the game; the journal keeps "
                    "every event, and an unfinished game is offered for resume. Without GPIO or a receiver it runs in "
                    "simulation mode and says so: keys press the seat buttons, F9/F10/F11 throw virtual burritos.")
    play.add_argument("--sim", action="store_true", help="simulation mode: mock pins and virtual devices")
    play.add_argument("--config", metavar="FILE", help="pin map TOML (default: the user file, else the shipped one)")
    play.add_argument("--journal", metavar="DB", help="SQLite journal (default ~/.local/share/burrito-table/journal.db)")
    play.add_argument("--port", help="receiver port (default $BURRITO_RECEIVER or hwgrep://303a:1001)")
    play.add_argument("--pairings", metavar="FILE", help="pairing file (default ~/.config/burrito-table/pairings.json)")
    play.add_argument("--windowed", action="store_true", help="a window instead of full screen")
    play.add_argument("--size", metavar="WxH", help="screen size, e.g. 1920x1080 (default: the display's)")
    play.add_argument("--headless", action="store_true", help="SDL's dummy drivers (tests)")
    play.add_argument("--mute", action="store_true", help="no sound")
    play.add_argument("--audio-device", metavar="NAME", help="audio output device, by (part of) its name")
    play.add_argument("--settings", metavar="FILE",
                      help="house settings JSON (default ~/.config/burrito-table/settings.json; the table menu writes it)")
    play.add_argument("--shutdown-command", default="", metavar="CMD",
                      help="run when the table menu's shut down is chosen (kiosk: 'sudo -n /usr/bin/systemctl poweroff')")
    play.add_argument("--no-web", action="store_true", help="no phone companion (it is on by default)")
    play.add_argument("--web-port", type=int, default=8080, metavar="N",
                      help="the phone companion's port (default 8080; 0 picks a free one)")
    play.add_argument("--web-host", default="0.0.0.0", metavar="ADDR",
                      help="the address it listens on (default 0.0.0.0: the local network)")
    play.add_argument("--web-pin", metavar="DIGITS",
                      help="operator PIN, 4-12 digits (default $BURRITO_WEB_PIN, else a new one printed at start)")
    play.add_argument("--web-url", metavar="URL", help="the address phones use, for the QR codes (default: found)")
    play.add_argument("--max-frames", type=int, default=0, help=argparse.SUPPRESS)
    add_broker_args(play)
    play.set_defaults(func=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    from game.table.runner import run_play

    try:
        return run_play(args, out=sys.stdout)  # today's stdout, not the one at import (runner's default)
    except ValueError as exc:
        print(f"burrito-table: play: {exc}", file=sys.stderr)
        return 2


#: table time per wall-clock second a demo may run at: slower than a twentieth is a wait, not a demo (one step of a
#: 1e-300 speed would outlast the machine); 0 is "as fast as the machine goes"
SPEEDS = (0.05, 1000.0)


def _demo_bounds(args: argparse.Namespace) -> str:
    """Why the demo's pace or time limit cannot be run, or ""; checked before anything opens."""
    speed = args.speed
    if speed is not None and not (speed == 0 or (math.isfinite(speed) and SPEEDS[0] <= speed <= SPEEDS[1])):
        return f"--speed must be 0 (as fast as possible) or {SPEEDS[0]:g}-{SPEEDS[1]:g} times real time, got {speed:g}"
    if not (math.isfinite(args.max_seconds) and args.max_seconds > 0):
        return f"--max-seconds must be a number of seconds > 0, got {args.max_seconds:g}"
    return ""


def cmd_demo(args: argparse.Namespace) -> int:
    from game.table.runner import run_demo

    why = _demo_bounds(args)
    if why:
        print(f"burrito-table: demo: {why}", file=sys.stderr)
        return 2
    try:
        return run_demo(args, out=sys.stdout)  # today's stdout, not the one at import (runner's default)
    except ValueError as exc:
        print(f"burrito-table: demo: {exc}", file=sys.stderr)
        return 2
