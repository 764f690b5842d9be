"""``burrito-table stats`` (match history and player stats from a journal) and ``burrito-table venue``."""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

DEFAULT_JOURNAL = "~/.local/share/burrito-table/journal.db"
DEFAULT_VENUE_DB = "~/.local/share/burrito-table/venue.db"


def add_commands(subparsers: Any) -> None:
    stats = subparsers.add_parser(
        "stats", help="match history and player stats from the journal",
        description="Every game in the journal (who won, how long) and each named player's totals: games, wins, "
                    "bruises given and taken, hits, catches, the fastest call, No Bueno races won. Seats without a "
                    "name stay anonymous.")
    stats.add_argument("--journal", metavar="DB", help=f"SQLite journal (default {DEFAULT_JOURNAL})")
    stats.add_argument("--player", metavar="NAME", help="only this player's games and totals")
    stats.add_argument("--since", metavar="DATE", help="only games started on or after DATE (ISO, UTC by default)")
    stats.add_argument("--json", action="store_true", help="one JSON object instead of text")
    stats.add_argument("--screenshot", metavar="PNG", help="draw the players as attract mode's stats slide shows them")
    stats.set_defaults(func=cmd_stats)

    venue = subparsers.add_parser(
        "venue", help="the venue leaderboard: subscribe to the tables' MQTT broker, keep it in SQLite, show it",
        description="Subscribes to burrito-table/<venue>/+/# on the broker (QoS 1, persistent session) and keeps every "
                    "table's games in an SQLite file; shows the leaderboard on screen (or headless, as JSON lines). "
                    "With --json and no --broker: print the stored leaderboard and exit.")
    venue.add_argument("--broker", metavar="URL", help="mqtt://[user:password@]host[:port]")
    venue.add_argument("--db", metavar="FILE", help=f"venue SQLite file (default {DEFAULT_VENUE_DB})")
    venue.add_argument("--venue", metavar="NAME", help="only this venue's tables (default: every venue on the broker)")
    venue.add_argument("--json", action="store_true", help="print the leaderboard as JSON (after --seconds with --broker)")
    venue.add_argument("--seconds", type=float, default=0.0, metavar="S",
                       help="run this long, then stop (default: until Ctrl-C or the window closes)")
    venue.add_argument("--headless", action="store_true", help="no screen: print the leaderboard as JSON once a second")
    venue.add_argument("--screenshot", metavar="PNG", help="draw the stored leaderboard into a PNG and exit")
    venue.add_argument("--size", metavar="WxH", default="1280x720", help="screen size (default 1280x720)")
    venue.add_argument("--results-only", action="store_true",
                       help="subscribe to finished games and table status only (a chain's head office)")
    venue.add_argument("--no-discovery", action="store_true", help="no Home Assistant discovery for device batteries")
    venue.set_defaults(func=cmd_venue)


def cmd_stats(args: argparse.Namespace) -> int:
    from game.rules.base import brief
    from game.stats import StatsError, journal_records, parse_since, report

    path = str(Path(args.journal or DEFAULT_JOURNAL).expanduser())
    notes: list[str] = []
    try:
        since = parse_since(args.since) if args.since else None
        rep = report(journal_records(path, since, notes), args.player)
    except StatsError as exc:
        return _fail("stats", str(exc), exc.status)
    if args.player is not None and not rep["players"]:
        notes.append(f"no games for player {brief(args.player, 60)} in {path}")
    status = _stats_out(args, rep)
    if status == 0:  # said after the result: a failed run ends with its one line
        for note in notes:
            print(f"burrito-table: stats: {note}", file=sys.stderr)
    return status


def _stats_out(args: argparse.Namespace, rep: dict[str, Any]) -> int:
    from game.stats import text_report

    if args.screenshot:
        from game.venue.screen import save_table_stats_png

        try:
            save_table_stats_png(rep, args.screenshot)
        except (OSError, pygame_error()) as exc:
            return _fail("stats", f"{args.screenshot}: {getattr(exc, 'strerror', None) or exc}", 1)
        return _out("stats", f"wrote {args.screenshot}")
    if args.json:
        return _out("stats", json.dumps(rep, indent=1))
    return _out("stats", "\n".join(text_report(rep)))


def pygame_error() -> type[Exception]:
    import pygame

    return pygame.error


def cmd_venue(args: argparse.Namespace) -> int:
    from game.venue.service import StoreError, VenueService, VenueStore
    from game.venue.topics import BrokerURLError

    _log_warnings("venue")
    if not 0 <= args.seconds < 1e9:  # NaN fails this too
        return _fail("venue", f"--seconds: expected a number of seconds >= 0, got {args.seconds!r}", 2)
    path = Path(args.db or DEFAULT_VENUE_DB).expanduser()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        store = VenueStore(str(path), read_only=not args.broker)
    except StoreError as exc:
        return _fail("venue", str(exc), exc.status)
    except OSError as exc:
        return _fail("venue", f"venue store {path}: {exc.strerror or exc}", 1)
    try:
        if args.screenshot:
            from game.venue.screen import save_png

            save_png(store.report(), args.screenshot, _size(args.size))
            return _out("venue", f"wrote {args.screenshot}")
        if not args.broker:
            if args.json:
                return _out("venue", json.dumps(store.report(), indent=1))
            return _fail("venue", "--broker URL is needed (or --json / --screenshot for the stored board)", 2)
        try:
            service = VenueService(args.broker, store, args.venue, discovery=not args.no_discovery,
                                   results_only=args.results_only)
        except BrokerURLError as exc:
            return _fail("venue", str(exc), 2)
        return _run_venue(args, service, store)
    except StoreError as exc:
        return _fail("venue", str(exc), exc.status)
    except sqlite3.Error as exc:
        return _fail("venue", f"venue store {path}: {exc}", 1)
    except ValueError as exc:
        return _fail("venue", str(exc), 2)
    finally:
        store.close()


def _log_warnings(command: str) -> None:
    """Warnings from the background parts (a refused message, a skipped row) are printed, one line each."""
    import logging

    root = logging.getLogger()
    if not root.handlers:
        logging.basicConfig(level=logging.WARNING, format=f"burrito-table: {command}: %(message)s")


def _fail(command: str, message: str, status: int) -> int:
    line = " ".join(message.split())
    print(f"burrito-table: {command}: {line if len(line) <= 400 else line[:397] + '...'}", file=sys.stderr)
    return status


def _out(command: str, text: str) -> int:
    """Print the result. A full or failing standard output, or a reader that went away, is left to the command
    line's one handler (``game.cli.main``), so every command says it the same way: one line and exit 1, or quiet."""
    print(text)
    sys.stdout.flush()
    return 0


def _size(text: str) -> tuple[int, int]:
    from game.table.runner import parse_size

    return parse_size(text)


#: how long the venue waits for its broker's answer at start before it says so and exits
CONNECT_TIMEOUT_S = 5.0


def _run_venue(args: argparse.Namespace, service: Any, store: Any) -> int:
    service.start_checked(CONNECT_TIMEOUT_S)
    end = time.monotonic() + args.seconds if args.seconds > 0 else None
    try:
        if args.json or args.headless:
            while end is None or time.monotonic() < end:
                time.sleep(0.2 if end is not None else 1.0)
                if args.headless and not args.json:
                    status = _out("venue", json.dumps(store.report(), separators=(",", ":")))
                    if status:
                        return status
            if args.json:
                return _out("venue", json.dumps(store.report(), indent=1))
            return 0
        return run_screen(store, _size(args.size), end)
    except KeyboardInterrupt:
        return 0
    finally:
        service.stop()


def run_screen(store: Any, size: tuple[int, int], end: float | None) -> int:
    """The venue's own screen: redrawn once a second from the SQLite file until closed (or ``end``)."""
    import pygame

    from game.table.runner import display_reason, go_headless, open_screen
    from game.venue.screen import draw_venue

    headless = display_reason() is None
    if headless:
        go_headless()
        print("No display found: the leaderboard is drawn off-screen only (use --json or --headless to see it).")
    screen = open_screen(headless, size, fullscreen=False)
    pygame.display.set_caption("Burrito Table - venue")
    try:
        drawn = 0.0
        while end is None or time.monotonic() < end:
            if time.monotonic() - drawn >= 1.0:
                draw_venue(screen, store.report())
                pygame.display.flip()
                drawn = time.monotonic()
            for ev in pygame.event.get():
                if ev.type == pygame.QUIT or (ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE):
                    return 0
            time.sleep(0.1)
        return 0
    finally:
        pygame.quit()
        from game.table.screens import forget_fonts

        forget_fonts()
