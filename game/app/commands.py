"""``burrito-table play`` and ``burrito-table demo`` (issue 6)."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_commands(subparsers: Any) -> None:
    demo = subparsers.add_parser(
        "demo", help="four bots play a complete two-round game through simulation mode",
        description="Four bots play a complete two-round game of Throw Throw Burrito through simulation mode: "
                    "mock GPIO pins for the seat buttons, virtual burritos and badges over a pty. In a window when "
                    "a display exists; headless (SDL dummy driver, play-by-play printed) otherwise.")
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
    demo.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    from game.app.runner import run_demo

    try:
        return run_demo(args)
    except ValueError as exc:
        print(f"burrito-table: demo: {exc}", file=sys.stderr)
        return 2
