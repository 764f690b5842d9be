"""Match history and player stats, folded from the journal.

A game is read back exactly as the table played it: its setup and events go through the game's pure rules again, and
each event is looked at with the state just before it (who threw the burrito that hit, when the battle was called) and
just after it (whether a Burrito Bruise was handed out). Nothing is stored twice: the journal stays the one record.

Players are the names chosen at the table: the setup line's optional ``players`` key
(``{"<seat>": {"name": ..., "colour": ...}}``). A seat without a name is anonymous: it counts in the match history but
has no player line.

The same ``game_record`` is what a table publishes at the end of a game (``game.venue``), so a venue leaderboard and
``burrito-table stats`` on one table add up the same way.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from game.journal import Journal, JournalError
from game.log import Table
from game.rules.base import RuleInputError, brief

#: Counted stats: summed over games for a player (``fastest_*`` are minima, handled apart).
COUNTS = ("games", "wins", "bruises_given", "bruises_taken", "hits", "hit_by", "catches", "throws", "no_bueno_won")
#: Fastest times: the smallest over games, ``None`` when it never happened.
FASTEST = ("fastest_call_s", "fastest_no_bueno_s")


@dataclass
class SeatStats:
    """One seat's play in one game."""

    seat: int
    name: str | None
    games: int = 1
    wins: int = 0
    bruises_given: int = 0
    bruises_taken: int = 0
    hits: int = 0
    hit_by: int = 0
    catches: int = 0
    throws: int = 0
    no_bueno_won: int = 0
    fastest_call_s: float | None = None
    fastest_no_bueno_s: float | None = None

    def faster(self, key: str, value: float) -> None:
        old = getattr(self, key)
        value = round(value, 3)
        if old is None or value < old:
            setattr(self, key, value)

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("seat", "name", *COUNTS, *FASTEST)}


@dataclass
class GameRecord:
    """One game of the match history: who sat where, who won, what each seat did."""

    game_id: int
    game: str
    started: float
    finished: bool
    duration_s: float
    events: int
    winners: list[int]
    seats: list[SeatStats] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "game": self.game,
            "started": self.started,
            "started_utc": _utc(self.started),
            "finished": self.finished,
            "duration_s": self.duration_s,
            "events": self.events,
            "winners": list(self.winners),
            "seats": [s.as_dict() for s in self.seats],
        }


def _utc(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _bruise_counts(state: Any) -> list[int] | None:
    """Each seat's Burrito Bruises so far (Throw Throw Burrito), or None for a game without bruises."""
    rounds = getattr(state, "rounds", None)
    if not isinstance(rounds, list | tuple) or not rounds or not hasattr(rounds[0], "bruises"):
        return None  # another game's ``rounds`` (a plugin's count of rounds, say) is not a list of bruise tallies
    return [sum(r.bruises[i] for r in rounds) for i in range(len(rounds[0].bruises))]


def _fighting(battle: Any, seat: int) -> bool:
    """A hit counts only on a seat in the battle (a burrito touching anyone else is a miss, by the rules)."""
    if battle is None:
        return False
    fighters = getattr(battle, "fighters", None)  # Throw Throw Burrito
    if fighters is None:
        fighters = getattr(battle, "alive", {})  # Zombie Burrito: seats still in
    return seat in fighters


def _winners(summary: dict[str, Any]) -> list[int]:
    """Winning seats from a rules summary: one seat, a team's seats, or the tied top scorers."""
    if "winners" in summary:  # Taco vs Burrito
        return sorted(int(s) for s in summary["winners"])
    winner = summary.get("winner")
    if isinstance(winner, str) and "teams" in summary:  # Zombie Burrito: the team's seats
        return sorted(summary["teams"].get(winner, []))
    return [winner] if isinstance(winner, int) else []


def game_record(game_id: int, setup: dict[str, Any], events: list[dict[str, Any]], started: float = 0.0,
                finished: bool | None = None) -> GameRecord:
    """Fold one game and count what each seat did. Raises ``RuleInputError`` for a game the rules refuse."""
    table, _ = Table.start(setup)
    state = table.state
    n = table.setup.seats
    names = {seat: p.name for seat, p in table.setup.players.items() if p.name}  # checked by the rules' parse_setup
    seats = [SeatStats(s, names.get(s)) for s in range(1, n + 1)]
    last_waiting: float | None = None  # Taco vs Burrito: when the card a No Bueno answers was played
    cause: dict[int, int] = {}  # seat -> the seat whose hit or catch made it lose (the bruise's giver)

    def bruises(before: list[int] | None) -> None:
        """Count bruises handed out since ``before``; a loss waits out the tie window, so this runs after time
        advances as well as after each event."""
        after = _bruise_counts(state)
        if before is None or after is None:
            return
        for i, (b, a) in enumerate(zip(before, after)):
            if a > b:
                seats[i].bruises_taken += a - b
                giver = cause.get(i + 1)
                if giver is not None and giver != i + 1:
                    seats[giver - 1].bruises_given += a - b

    for obj in events:
        ev = table.check(obj)
        before = _bruise_counts(state)
        table.advance(ev["t"])
        bruises(before)
        kind, t = ev["event"], ev["t"]
        if kind not in ("hit", "catch"):
            cause.clear()  # losses still waiting are settled by now: a foul or a bad call after is nobody's gift
        thrower = getattr(state, "flight", {}).get(ev.get("burrito")) if "burrito" in ev else None
        battle = getattr(state, "battle", None)
        before = _bruise_counts(state)
        table.step(ev)
        seat = ev.get("seat")
        if kind == "throw" and isinstance(seat, int):
            seats[seat - 1].throws += 1
        elif kind == "hit" and isinstance(seat, int) and isinstance(thrower, int) and _fighting(battle, seat):
            seats[thrower - 1].hits += 1
            seats[seat - 1].hit_by += 1
            cause[seat] = thrower  # the seat hit loses: the thrower gave the bruise
            if battle is not None and t >= battle.t:
                seats[thrower - 1].faster("fastest_call_s", t - battle.t)
        elif kind == "catch" and isinstance(seat, int):
            seats[seat - 1].catches += 1
            if isinstance(thrower, int):
                cause[thrower] = seat  # "If you catch it, the thrower loses"
        elif kind == "block" and isinstance(seat, int):
            # Only the race winner's press is journaled (the table drops the late ones), so a block is a race won.
            seats[seat - 1].no_bueno_won += 1
            if last_waiting is not None:
                seats[seat - 1].faster("fastest_no_bueno_s", t - last_waiting)
        # A played card waits for a No Bueno; a block reopens the window; any other move closes it.
        last_waiting = t if kind in ("play", "block") else None
        bruises(before)
    if finished is not False:
        before = _bruise_counts(state)
        table.finish()  # a game that ended (or a whole log): windows still open close, as replay does
        bruises(before)
    over = table.over
    winners = _winners(table.summary()) if over else []
    for w in winners:
        seats[w - 1].wins = 1
    last_t = table.last_t
    return GameRecord(game_id, table.setup.game, started, over if finished is None else finished, round(last_t, 3),
                      len(events), winners, seats)


class StatsError(ValueError):
    """A journal or argument the stats cannot use: one line; ``status`` 2 for bad input, 1 for the environment."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def journal_records(path: str, since: float | None = None, notes: list[str] | None = None) -> list[GameRecord]:
    """Every game of a journal, oldest first (``since``: started at or after that Unix time).

    A game of a game not installed here (a plugin this table no longer has) cannot be folded: it is listed by
    what the journal holds (game, seats, events, length; no winner, no player figures) and ``notes`` gets one line
    saying so, instead of the whole history being refused."""
    from game.registry import GAMES

    unknown: list[str] = []
    try:
        with Journal(path, read_only=True) as journal:  # the stats never write to a table's journal
            rows = journal.db.execute("SELECT id, started, finished FROM games ORDER BY id").fetchall()
            out = []
            for game_id, started, finished in rows:
                if since is not None and started < since:
                    continue
                setup, events = journal.load(game_id)
                if setup.get("game") not in GAMES:
                    out.append(_as_journaled(game_id, setup, events, started, bool(finished)))
                    unknown.append(f"#{game_id} {brief(setup.get('game'), 40)}")
                    continue
                try:
                    out.append(game_record(game_id, setup, events, started, bool(finished)))
                except RuleInputError as exc:
                    raise StatsError(f"journal {path}: game {game_id}: {exc}") from None
    except JournalError as exc:
        raise StatsError(str(exc), exc.status) from None
    except sqlite3.DatabaseError as exc:
        raise StatsError(f"journal {path}: {exc}", 1) from None
    if unknown and notes is not None:
        shown = ", ".join(unknown[:3]) + (f" and {len(unknown) - 3} more" if len(unknown) > 3 else "")
        notes.append(f"journal {path}: {len(unknown)} game{'s' if len(unknown) != 1 else ''} of a game not "
                     f"installed here ({shown}): listed as journaled, without winners or player figures")
    return out


def _as_journaled(game_id: int, setup: dict[str, Any], events: list[dict[str, Any]], started: float,
                  finished: bool) -> GameRecord:
    """A game the installed rules cannot fold, summarised from the journal alone: its seats stay anonymous."""
    seats = setup.get("seats")
    n = seats if type(seats) is int and 1 <= seats <= 64 else 0
    times = [float(t) for t in (e.get("t") for e in events) if isinstance(t, (int, float)) and 0 <= t < 1e9]
    last = max(times, default=0.0)
    name = setup.get("game")
    return GameRecord(game_id, name[:64] if isinstance(name, str) and name.isprintable() else "?", started,
                      finished, round(last, 3), len(events), [], [SeatStats(s, None) for s in range(1, n + 1)])


def players(records: Iterable[GameRecord]) -> dict[str, dict[str, Any]]:
    """Totals per named player over games: counts summed, fastest times the smallest."""
    out: dict[str, dict[str, Any]] = {}
    for rec in records:
        for s in rec.seats:
            if s.name is None:
                continue
            total = out.setdefault(s.name, {"name": s.name, **{k: 0 for k in COUNTS}, **{k: None for k in FASTEST}})
            add_seat(total, s.as_dict())
    return out


def add_seat(total: dict[str, Any], seat: dict[str, Any]) -> None:
    """Add one game's seat line to a player's totals (shared with the venue service)."""
    for k in COUNTS:
        total[k] += int(seat.get(k) or 0)
    for k in FASTEST:
        v = seat.get(k)
        if v is not None and (total[k] is None or v < total[k]):
            total[k] = v


def ranked(table: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Players best first: wins, then win rate, then hits, then name (a stable, explainable order)."""
    return sorted(table.values(), key=lambda p: (-p["wins"], -(p["wins"] / max(1, p["games"])), -p["hits"], p["name"]))


def parse_since(text: str) -> float:
    """``--since`` as a Unix time: an ISO date (``2026-11-30``) or date-time, UTC unless it says otherwise."""
    try:
        when = dt.datetime.fromisoformat(text)
        if when.tzinfo is None:
            when = when.replace(tzinfo=dt.UTC)
        return when.timestamp()
    except (ValueError, OverflowError):  # not a date, or a date at the ends of time that its offset pushes out
        raise StatsError(f"--since: expected a date such as 2026-11-30 or 2026-11-30T18:00, got {brief(text, 60)}"
                         ) from None


def report(records: list[GameRecord], player: str | None = None) -> dict[str, Any]:
    """The ``stats --json`` object: the match history and the player table (optionally one player's)."""
    table = players(records)
    history = [r.as_dict() for r in records]
    if player is not None:
        history = [g for g in history if any(s["name"] == player for s in g["seats"])]
        table = {k: v for k, v in table.items() if k == player}
    anonymous = sum(1 for r in records for s in r.seats if s.name is None)
    return {"version": 1, "games": history, "players": ranked(table), "anonymous_seats": anonymous}


def _fmt_s(v: float | None) -> str:
    return "-" if v is None else f"{v:.2f} s"


def text_report(rep: dict[str, Any]) -> list[str]:
    """The readable form: one line per game, then the player table."""
    out = [f"Match history ({len(rep['games'])} games)"]
    for g in rep["games"]:
        names = {s["seat"]: s["name"] or f"Seat {s['seat']}" for s in g["seats"]}
        won = " and ".join(names[w] for w in g["winners"]) if g["winners"] else ("no winner" if g["finished"]
                                                                               else "unfinished")
        out.append(f"  #{g['game_id']} {g['started_utc']} {g['game']}, {len(g['seats'])} seats, "
                   f"{g['duration_s']:.0f} s: {won}")
    out.append("")
    out.append("Players" + ("" if rep["players"] else ": none named (seats without a name stay anonymous)"))
    if rep["players"]:
        out.append(f"  {'name':<16} {'games':>5} {'wins':>4} {'hits':>4} {'hit by':>6} {'catches':>7} "
                   f"{'bruises +/-':>11} {'No Bueno':>8} {'fastest call':>12}")
        for p in rep["players"]:
            bruises = f"{p['bruises_given']}/{p['bruises_taken']}"
            out.append(f"  {p['name'][:16]:<16} {p['games']:>5} {p['wins']:>4} {p['hits']:>4} {p['hit_by']:>6} "
                       f"{p['catches']:>7} {bruises:>11} {p['no_bueno_won']:>8} {_fmt_s(p['fastest_call_s']):>12}")
    return out
