"""The game's subcommands: ``replay`` (a log file) and ``demo`` (the built-in game)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from importlib import resources
from typing import Any

from game.log import LogError, run_log
from game.rules.base import Cue

DEMO_LOG = "demo-throw-throw-burrito.jsonl"


def add_commands(subparsers: Any) -> None:
    replay = subparsers.add_parser("replay", help="replay a table-event log and print what happened")
    replay.add_argument("file", help="a JSON Lines table-event log ('-' for standard input)")
    replay.add_argument("--json", action="store_true", help="print one JSON summary object instead of the play-by-play")
    replay.set_defaults(func=cmd_replay)

    demo = subparsers.add_parser("demo", help="play a complete two-round demo game and print it")
    demo.set_defaults(func=cmd_demo)


def play_by_play(cues: Iterable[Cue]) -> list[str]:
    """The readable lines: announcements and notes, with the table time."""
    return [f"{c.t:8.2f}  {'' if c.kind == 'say' else '(' }{c.text}{'' if c.kind == 'say' else ')'}"
            for c in cues if c.kind in ("say", "note")]


def standings(summary: dict[str, Any]) -> list[str]:
    """Final standings: per round points and bruises, the badge and the winner."""
    out = ["", "Standings"]
    for rnd in summary["rounds"]:
        seats = sorted(rnd["points"], key=lambda s: (-rnd["points"][s], int(s)))
        row = ", ".join(f"seat {s}: {rnd['points'][s]} pts ({rnd['bruises'][s]} bruises)" for s in seats)
        won = f" - won by seat {rnd['winner']}" if rnd["winner"] else ""
        out.append(f"  Round {rnd['round']}{won}: {row}")
    if summary.get("badge"):
        out.append(f"  Fear Me badge: seat {summary['badge']}")
    out.append(f"  Winner: seat {summary['winner']}" if summary.get("winner") else "  No winner yet")
    return out


def _run(lines: Iterable[str], where: str, as_json: bool) -> int:
    try:
        table, cues = run_log(lines, where)
    except LogError as exc:
        print(f"burrito-table: {exc}", file=sys.stderr)
        return 2
    summary = table.summary()
    if as_json:
        json.dump(summary, sys.stdout)
        sys.stdout.write("\n")
    else:
        print("\n".join(play_by_play(cues) + standings(summary)))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    if args.file == "-":
        return _run(sys.stdin, "<stdin>", args.json)
    try:
        with open(args.file, encoding="utf-8") as handle:
            # Read it all first: bad input must leave stdout empty.
            lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"burrito-table: {args.file}: cannot read: {exc}", file=sys.stderr)
        return 2
    return _run(lines, args.file, args.json)


def cmd_demo(args: argparse.Namespace) -> int:
    text = resources.files("game.data").joinpath(DEMO_LOG).read_text(encoding="utf-8")
    print("Throw Throw Burrito: a scripted four-seat game\n")
    return _run(text.splitlines(), DEMO_LOG, as_json=False)
