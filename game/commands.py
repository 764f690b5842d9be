"""The game's log subcommands: ``replay`` (a log file or a journal) and ``record`` (a log into a journal).

The live table's ``play`` and ``demo`` live in ``game.table.commands``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Iterable
from typing import Any

from game.journal import Journal, JournaledTable, JournalError
from game.log import LogError, read_log, run_log
from game.referee.evidence import evidence_lines
from game.registry import game_for
from game.rules.base import Cue, RuleInputError, bound
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

    games = subparsers.add_parser(
        "games", help="list the installed games: version and status (a plugin that does not load says why)")
    games.add_argument("--json", action="store_true", help="one JSON object per game instead of a table")
    games.set_defaults(func=cmd_games)


def play_by_play(cues: Iterable[Cue], players: dict[int, Player] | None = None) -> list[str]:
    """The readable lines: announcements, and notes in brackets, with the table time; seats by their players' names."""
    named = players or {}
    return [f"{c.t:8.2f}  {name_seats(c.text, named)}" if c.kind == "say" else f"{c.t:8.2f}  ({name_seats(c.text, named)})"
            for c in cues if c.kind in ("say", "note")]


CALLS = ("grab", "throw", "hit", "miss", "catch", "foul", "block", "overturn")


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
        print(bound(f"burrito-table: {args.file}: cannot read: {_why(exc)}"), file=sys.stderr)
        return 2
    return _run(lines, args.file, args.json, args.evidence)


def _replay_journal(args: argparse.Namespace) -> int:
    try:
        with Journal(args.journal, read_only=True) as journal:  # a read: never creates or changes the file
            games = journal.games()
            if not games:
                raise JournalError(f"journal {args.journal}: holds no game")
            game_id = args.game if args.game is not None else games[-1][0]
            setup, events = journal.load(game_id)
    except JournalError as exc:
        print(f"burrito-table: {exc}", file=sys.stderr)
        return exc.status
    lines = [json.dumps(setup)] + [json.dumps(e) for e in events]
    return _run(lines, f"{args.journal} game {game_id}", args.json, args.evidence)


def _why(exc: OSError | UnicodeDecodeError) -> str:
    """What went wrong, without the file name again (it leads the line already)."""
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text ({exc.reason} at byte {exc.start})"
    return exc.strerror or str(exc)


def cmd_games(args: argparse.Namespace) -> int:
    """Every entry point of the game plugin group, loaded or not: a maker sees at once which package is broken."""
    from game.registry import GAMES

    rows = [{"game": p.name, "title": p.game.title if p.game else "", "distribution": p.distribution,
             "version": p.version, "status": "ok" if p.ok else p.cause} for p in GAMES.plugins()]
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return 0
    table = [("GAME", "TITLE", "PACKAGE", "VERSION", "STATUS")]
    table += [(r["game"], r["title"], r["distribution"], r["version"], r["status"]) for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(4)]
    for cells in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(cells[:4], widths)) + "  " + cells[4])
    return 0


def cmd_record(args: argparse.Namespace) -> int:
    """Play a log into the journal the way a live table would: check, journal durably, then show.

    The whole log is checked first, so bad input writes nothing (not even a new journal file). An unfinished
    game is resumed only if its setup is the log's and its journaled events are the log's first events, so a
    killed table picks up where it was and two different games are never spliced; when several qualify, the
    one furthest along is resumed. A log the journal already holds whole, finished, is not written again.
    """
    pace = args.pace
    if not (isinstance(pace, float) and math.isfinite(pace) and pace >= 0):
        print(f"burrito-table: record: --pace must be a number of seconds >= 0, got {pace}", file=sys.stderr)
        return 2
    try:
        with open(args.file, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        entries = list(read_log(lines, args.file))
        if not entries:
            raise LogError(1, "empty log: no setup line", args.file)
        checked, _ = run_log(lines, args.file)  # every line checked before anything is written
    except (OSError, UnicodeDecodeError) as exc:
        print(bound(f"burrito-table: {args.file}: cannot read: {_why(exc)}"), file=sys.stderr)
        return 2
    except LogError as exc:
        print(f"burrito-table: {exc}", file=sys.stderr)
        return 2
    setup = entries[0][1]
    expected = [json.loads(json.dumps(e)) for e in checked.events]  # as the journal stores them
    try:
        with Journal(args.journal) as journal:
            done = _already_recorded(journal, setup, expected)
            if done is not None:  # a run killed after the game's end: recording it again would be a copy
                print(f"game {done} already holds this whole log, finished: nothing to write", flush=True)
                return 0
            game_id, notes = _resumable(journal, setup, expected)
            for note in notes:
                print(note, flush=True)
            if game_id is not None:
                live = JournaledTable.resume(journal, game_id)
                print(f"resumed game {game_id} after {len(live.table.events)} events", flush=True)
            else:
                live, cues = JournaledTable.new(journal, setup)
                _print_cues(cues, live.table.setup.players)
            for number, obj in entries[1 + len(live.table.events):]:
                try:
                    cues = live.submit(obj)
                except RuleInputError as exc:  # checked above: only a rules module that disagrees with itself
                    raise JournalError(f"{args.file}: line {number}: {exc}") from None
                _print_cues(cues, live.table.setup.players)
                print(f"journaled {len(live.table.events)}", flush=True)
                if pace:
                    time.sleep(pace)
            _print_cues(live.finish(), live.table.setup.players)
    except JournalError as exc:
        print(f"burrito-table: {exc}", file=sys.stderr)
        return exc.status
    return 0


def _already_recorded(journal: Journal, setup: dict[str, Any], expected: list[dict[str, Any]]) -> int | None:
    """A finished game that is exactly this log, if the journal holds one."""
    unfinished = set(journal.unfinished())
    for game_id, _finished in reversed(journal.games()):
        if game_id in unfinished or journal.count(game_id) != len(expected) or journal.setup(game_id) != setup:
            continue
        if journal.load(game_id)[1] == expected:
            return game_id
    return None


def _resumable(journal: Journal, setup: dict[str, Any], expected: list[dict[str, Any]]) -> tuple[int | None, list[str]]:
    """The unfinished game this log continues, if any, and what was said about the others with its setup.

    An unfinished game that cannot be read back stops the recording: it might be this very game, and a new
    game started beside it would look like a resume that lost events.
    """
    best: tuple[int, int] | None = None
    notes = []
    for game_id in journal.unfinished():  # newest first
        if journal.setup(game_id) != setup:
            continue
        _, done = journal.load(game_id)
        if done == expected[: len(done)]:
            if best is None or len(done) > best[1]:
                best = (game_id, len(done))
            continue
        differ = next((i for i, (a, b) in enumerate(zip(done, expected), start=1) if a != b), len(expected) + 1)
        notes.append(f"game {game_id} has this setup but is another game (its event {differ} is not the log's "
                     f"event {differ}): left as it is")
    if best is None and notes:
        notes.append("starting a new game beside it")
    return (best[0] if best else None), notes


def _print_cues(cues: list[Cue], players: dict[int, Player] | None = None) -> None:
    for line in play_by_play(cues, players):
        print(line, flush=True)
