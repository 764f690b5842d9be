"""The game's log subcommands: ``replay`` (a log file or a journal) and ``record`` (a log into a journal).

The live table's ``play`` and ``demo`` live in ``game.table.commands``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable
from typing import Any

from game.journal import Journal, JournaledTable, JournalError
from game.log import LogError, read_log, run_log
from game.referee.evidence import evidence_lines
from game.registry import game_for
from game.rules.base import Cue, RuleInputError
from game.rules.players import Player, name_seats


def add_commands(subparsers: Any) -> None:
    replay = subparsers.add_parser("replay", help="replay a table-event log and print what happened")
    replay.add_argument("file", nargs="?", help="a JSON Lines table-event log ('-' for standard input)")
    replay.add_argument("--json", action="store_true", help="print one JSON summary object instead of the play-by-play")
    replay.add_argument(
        "--evidence", action="store_true",
        help="also show, for every call, the evidence the referee used (timestamps, devices, time gaps)",
    )
    replay.add_argument("--journal", metavar="DB", help="replay a game from an SQLite journal instead of a file")
    replay.add_argument("--game", type=int, help="with --journal: the game id (default: the newest)")
    replay.set_defaults(func=cmd_replay)

    record = subparsers.add_parser(
        "record", help="feed a log into a journal event by event, as a live table does; resumes an unfinished game"
    )
    record.add_argument("file", help="a JSON Lines table-event log")
    record.add_argument("--journal", metavar="DB", required=True, help="the SQLite journal file")
    record.add_argument("--pace", type=float, default=0.0, metavar="S", help="seconds to wait between events")
    record.set_defaults(func=cmd_record)


def play_by_play(cues: Iterable[Cue], players: dict[int, Player] | None = None) -> list[str]:
    """The readable lines: announcements, and notes in brackets, with the table time; seats by their players' names."""
    named = players or {}
    return [f"{c.t:8.2f}  {name_seats(c.text, named)}" if c.kind == "say" else f"{c.t:8.2f}  ({name_seats(c.text, named)})"
            for c in cues if c.kind in ("say", "note")]


CALLS = ("grab", "throw", "hit", "miss", "catch", "foul")


def evidence_section(events: Iterable[dict[str, Any]]) -> list[str]:
    """Why each call was made, for a disputed call: the referee's evidence, event by event."""
    out = ["", "Evidence"]
    for event in events:
        if event.get("event") in CALLS:
            out += ["  " + line for line in evidence_lines(event)]
    return out


def _run(lines: Iterable[str], where: str, as_json: bool, evidence: bool = False) -> int:
    try:
        table, cues = run_log(lines, where)
    except LogError as exc:
        print(f"burrito-table: {exc}", file=sys.stderr)
        return 2
    summary = table.summary()
    if as_json:
        if evidence:
            summary["calls"] = [e for e in table.events if e.get("event") in CALLS]
        json.dump(summary, sys.stdout)
        sys.stdout.write("\n")
    else:
        ending = [name_seats(line, table.setup.players) for line in game_for(table.rules.name).standings(summary)]
        extra = evidence_section(table.events) if evidence else []
        print("\n".join(play_by_play(cues, table.setup.players) + ending + extra))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    if args.journal:
        return _replay_journal(args)
    if args.file is None:
        print("burrito-table: replay needs a FILE or --journal DB", file=sys.stderr)
        return 2
    if args.file == "-":
        return _run(sys.stdin, "<stdin>", args.json, args.evidence)
    try:
        with open(args.file, encoding="utf-8") as handle:
            # Read it all first: bad input must leave stdout empty.
            lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"burrito-table: {args.file}: cannot read: {exc}", file=sys.stderr)
        return 2
    return _run(lines, args.file, args.json, args.evidence)


def _replay_journal(args: argparse.Namespace) -> int:
    try:
        with Journal(args.journal) as journal:
            games = journal.games()
            if not games:
                raise JournalError(f"journal {args.journal}: holds no game")
            game_id = args.game if args.game is not None else games[-1][0]
            setup, events = journal.load(game_id)
    except JournalError as exc:
        print(f"burrito-table: {exc}", file=sys.stderr)
        return 2
    lines = [json.dumps(setup)] + [json.dumps(e) for e in events]
    return _run(lines, f"{args.journal} game {game_id}", args.json, args.evidence)


def cmd_record(args: argparse.Namespace) -> int:
    """Play a log into the journal the way a live table would: check, journal durably, then show.

    If the journal's newest unfinished game began with the same setup, the
    events it already holds are skipped, so a killed table picks up where it was.
    """
    try:
        with open(args.file, encoding="utf-8") as handle:
            entries = list(read_log(handle.read().splitlines(), args.file))
    except (OSError, UnicodeDecodeError) as exc:
        print(f"burrito-table: {args.file}: cannot read: {exc}", file=sys.stderr)
        return 2
    except LogError as exc:
        print(f"burrito-table: {exc}", file=sys.stderr)
        return 2
    if not entries:
        print(f"burrito-table: {args.file}: empty log", file=sys.stderr)
        return 2
    number = entries[0][0]
    try:
        with Journal(args.journal) as journal:
            live = None
            for game_id in journal.unfinished()[:1]:
                setup, done = journal.load(game_id)
                if setup == entries[0][1]:
                    live = JournaledTable.resume(journal, game_id)
                    print(f"resumed game {game_id} after {len(done)} events", flush=True)
            if live is None:
                live, cues = JournaledTable.new(journal, entries[0][1])
                _print_cues(cues, live.table.setup.players)
            for _number, obj in entries[1 + len(live.table.events):]:
                _print_cues(live.submit(obj), live.table.setup.players)
                print(f"journaled {len(live.table.events)}", flush=True)
                if args.pace:
                    time.sleep(args.pace)
            _print_cues(live.finish(), live.table.setup.players)
    except (RuleInputError, JournalError) as exc:
        print(f"burrito-table: {args.file}: line {number}: {exc}", file=sys.stderr)
        return 2
    return 0


def _print_cues(cues: list[Cue], players: dict[int, Player] | None = None) -> None:
    for line in play_by_play(cues, players):
        print(line, flush=True)
