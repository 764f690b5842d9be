"""The table-event log: JSON Lines, a setup line then timestamped events.

``read_log`` checks every line against the contract and stops at the first
bad one with a ``LogError`` that names the line; it never half-applies a log.
``Table`` folds checked events through a game's rules and is what replay,
the journal, the demo and the tests all share.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from game.rules import rules_for
from game.rules.base import Cue, Event, RuleInputError, Setup, bound, brief


class LogError(ValueError):
    """Bad input in a log: ``str()`` is one line, ``where: line N: problem``."""

    def __init__(self, line: int, problem: str, where: str = "log") -> None:
        problem = bound(problem)
        super().__init__(f"{where}: line {line}: {problem}")
        self.line = line
        self.problem = problem


_decoder = json.JSONDecoder()
_scan_once = _decoder.scan_once  # type: ignore[attr-defined]  # the C scanner, minus decode()'s regexes


def parse_line(text: str, line: int, where: str = "log") -> dict[str, Any]:
    """One JSON object from one log line."""
    try:
        obj, end = _scan_once(text, 0)
    except (StopIteration, ValueError, RecursionError):
        end = -1
    if end != len(text):
        # Surrounding white space, trailing junk or bad JSON: the full decoder, for its exact message.
        try:
            obj = _decoder.decode(text)
        except json.JSONDecodeError as exc:
            raise LogError(line, f"bad JSON: {exc.msg} at column {exc.colno}", where) from None
        except RecursionError:
            raise LogError(line, "bad JSON: nested too deeply", where) from None
        except ValueError as exc:  # a number of more than 4300 digits (Python's int limit)
            raise LogError(line, f"bad JSON: {str(exc).split(';')[0]}", where) from None
    if not isinstance(obj, dict):
        raise LogError(line, f"expected a JSON object, got {type(obj).__name__}", where)
    return obj


@dataclass
class Table:
    """A game in progress: setup, rules, state and the events accepted so far."""

    setup: Setup
    rules: ModuleType
    state: Any
    events: list[Event] = field(default_factory=list)
    last_t: float = 0.0

    @classmethod
    def start(cls, setup_obj: dict[str, Any]) -> tuple[Table, list[Cue]]:
        """A fresh table from a setup object; raises ``RuleInputError`` on a bad setup."""
        if setup_obj.get("event") != "setup":
            raise RuleInputError("the first line must be the setup event")
        rules = rules_for(setup_obj.get("game"))
        setup = rules.parse_setup(setup_obj)
        state = rules.new_state(setup)
        opening = getattr(rules, "opening_cues", None)
        cues = opening(state) if opening else []
        return cls(setup, rules, state), cues

    @property
    def over(self) -> bool:
        """The game is won: no event may follow."""
        return bool(self.rules.is_over(self.state))

    def check(self, obj: dict[str, Any]) -> Event:
        """Validate an event against the contract without applying it."""
        event = self.rules.check_event(self.setup, obj)
        if event["t"] < self.last_t:
            raise RuleInputError(f"time goes backwards: t={event['t']} after t={self.last_t}")
        if self.over:
            raise RuleInputError(f"event {brief(event['event'])} after the game was won")
        return event

    def advance(self, t: float) -> list[Cue]:
        """Let time run to ``t``; raises if the game is (now) over, since no event may follow."""
        cues = self.rules.advance(self.state, t)
        if self.over:
            raise RuleInputError("event after the game was won")
        return cues

    def step(self, event: Event) -> list[Cue]:
        """Apply a checked event once time has been advanced to it."""
        cues = self.rules.step(self.state, event)
        self.last_t = event["t"]
        self.events.append(event)
        return cues

    def refold(self) -> None:
        """Back to the state after the accepted events alone, after a step that failed partway (a rules bug, a journal
        that could not take the event): the rules are pure, so folding the events again gives exactly that state."""
        state = self.rules.new_state(self.setup)
        opening = getattr(self.rules, "opening_cues", None)
        if opening:
            opening(state)  # as ``start`` did: a game's opening may deal or draw
        for event in self.events:
            self.rules.advance(state, event["t"])
            self.rules.step(state, event)
        self.state = state
        self.last_t = self.events[-1]["t"] if self.events else 0.0

    def apply(self, event: Event) -> list[Cue]:
        """Advance time to a checked event and apply it."""
        cues = self.advance(event["t"])
        return cues + self.step(event)

    def finish(self) -> list[Cue]:
        """The end of the log: close every open window."""
        return self.rules.finish(self.state)

    def summary(self) -> dict[str, Any]:
        return self.rules.summary(self.state)


def read_log(lines: Iterable[str], where: str = "log") -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line number, object)`` for each non-blank line."""
    for number, text in enumerate(lines, start=1):
        if text.strip():
            yield number, parse_line(text, number, where)


def run_log(lines: Iterable[str], where: str = "log") -> tuple[Table, list[Cue]]:
    """Fold a whole log; returns the finished table and every cue in order.

    Raises ``LogError`` naming the first bad line. This is ``Table.check`` +
    ``Table.apply`` per line, written as one flat loop because replay speed is
    a product goal (see ``benchmarks/bench_replay.py``).
    """
    table: Table | None = None
    cues: list[Cue] = []
    number = 0
    try:
        for number, text in enumerate(lines, start=1):
            if not text or text.isspace():
                continue
            obj = parse_line(text, number, where)
            if table is None:
                table, opening = Table.start(obj)
                cues += opening
                rules, state, setup, events = table.rules, table.state, table.setup, table.events
                check, advance, step, is_over = rules.check_event, rules.advance, rules.step, rules.is_over
                last_t = 0.0
                continue
            if is_over(state):
                raise RuleInputError(f"event {brief(obj.get('event'))} after the game was won")
            event = check(setup, obj)
            t = event["t"]
            if t < last_t:
                raise RuleInputError(f"time goes backwards: t={t} after t={last_t}")
            cues += advance(state, t)
            if is_over(state):
                raise RuleInputError(f"event {brief(event['event'])} after the game was won")
            cues += step(state, event)
            events.append(event)
            last_t = t
    except RuleInputError as exc:
        raise LogError(number, str(exc), where) from None
    if table is None:
        raise LogError(1, "empty log: no setup line", where)
    table.last_t = last_t
    cues += table.finish()
    return table, cues
