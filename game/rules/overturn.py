"""Overturning a call: an upheld challenge undoes the table's last call and everything that followed from it.

Every game's rules take an ``overturn`` event (``{"t", "event": "overturn", "call": KIND}``, plus ``seat`` and/or
``burrito`` naming the call when the game's calls have them). The rules are pure folds over the log, so the undo is a
fold too: each state keeps the events it has applied (``history``), and an overturn folds them again from the setup
without the overturned call, then lets time run on to the overturn. Whatever the call did is undone with it: the
bruise it handed out goes back, an elimination is reversed, the battle it ended goes on, the round it ended is not
over. Events after the call are applied again to the corrected state (a set laid in the challenge window still
counts; a battle call made while the re-opened battle is on is ignored and noted, as the rules say of any such call).

Only the game's last call may be overturned, once: a challenge comes within seconds of the call it disputes
(docs/referee.md, R11), and a later call was judged on the state the earlier one made. A call that ended the game is
final (no event may follow the win). Decisions: D21 (docs/rules-decisions.md), Z15 (docs/zombie-burrito.md),
T19 (docs/taco-vs-burrito.md).

    >>> from game.log import run_log
    >>> log = ['{"event": "setup", "game": "throw-throw-burrito", "seats": 3}',
    ...        '{"t": 1.0, "event": "declare", "seat": 1, "battle": "brawl"}',
    ...        '{"t": 2.0, "event": "throw", "seat": 2, "burrito": 1}',
    ...        '{"t": 2.5, "event": "hit", "seat": 3, "burrito": 1}',
    ...        '{"t": 4.0, "event": "overturn", "call": "hit", "seat": 3, "burrito": 1}']
    >>> table, _ = run_log(log)
    >>> table.state.rounds[0].bruises, table.state.battle.loser, table.state.battle.fighters
    ([0, 0, 0], None, {2, 3})
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, overload

from game.rules.base import Cue, Event, RuleInputError, need_choice, need_int

OVERTURN = "overturn"


class History:
    """The events a state has applied: append-only, and copied in O(1).

    Bots and the copy-then-step reducer deep-copy states many times a move; copying a game's whole history each time
    made that quadratic. Copies share one buffer and each remembers its own length; a copy that appends after another
    copy did takes its own buffer first. Events are never changed once applied, so sharing them is safe.
    """

    __slots__ = ("_buf", "_n")

    def __init__(self, events: list[Event] | None = None) -> None:
        self._buf: list[Event] = list(events) if events else []
        self._n = len(self._buf)

    def append(self, ev: Event) -> None:
        if self._n != len(self._buf):
            self._buf = self._buf[: self._n]
        self._buf.append(ev)
        self._n += 1

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Event: ...
    @overload
    def __getitem__(self, i: slice) -> list[Event]: ...
    def __getitem__(self, i: int | slice) -> Event | list[Event]:
        return self._buf[: self._n][i]

    def __iter__(self) -> Iterator[Event]:
        return iter(self._buf[: self._n])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, History) and self[:] == other[:]

    def __repr__(self) -> str:
        return f"History({self._n} events)"

    def __copy__(self) -> History:
        twin = History.__new__(History)
        twin._buf, twin._n = self._buf, self._n
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> History:
        return self.__copy__()


def check_event(obj: dict[str, Any], calls: tuple[str, ...], seats: int, burritos: int | None) -> Event:
    """The fields of an ``overturn`` line: which kind of call, and the seat and burrito it named (if given)."""
    need_choice(obj, "call", calls)
    if "seat" in obj:
        need_int(obj, "seat", 1, seats)
    if "burrito" in obj:
        if burritos is None:
            raise RuleInputError("field 'burrito': this game's calls name no burrito")
        need_int(obj, "burrito", 1, burritos)
    return obj


def target(state: Any, ev: Event, calls: tuple[str, ...]) -> int:
    """Index in ``state.history`` of the call ``ev`` overturns; raises ``RuleInputError`` if it is not the last call
    (or was overturned already). Changes nothing."""
    history: History = state.history
    last = next((i for i in range(len(history) - 1, -1, -1) if history[i]["event"] in calls + (OVERTURN,)), None)
    if last is None or history[last]["event"] == OVERTURN:
        raise RuleInputError(f"overturn of a {ev['call']}: there is no call to overturn since the last overturn"
                             if last is not None else f"overturn of a {ev['call']}: no call has been made")
    call = history[last]
    named: dict[str, Any] = {k: ev[k] for k in ("seat", "burrito") if k in ev}
    if call["event"] != ev["call"] or any(call.get(k) != v for k, v in named.items()):
        raise RuleInputError(f"overturn names a {ev['call']}{_fields(named)}, but the last call is the "
                             f"{call['event']}{_fields(call)} at t={call['t']:g}")
    return last


def apply(state: Any, ev: Event, calls: tuple[str, ...], new_state: Callable[[Any], Any],
          advance: Callable[[Any, float], list[Cue]], step: Callable[[Any, Event], list[Cue]]) -> Event:
    """Fold ``state`` again without the call ``ev`` overturns (in place); returns that call."""
    i = target(state, ev, calls)
    history: History = state.history
    call = history[i]
    fresh = new_state(state.setup)
    for e in history[:i] + history[i + 1:]:
        advance(fresh, e["t"])
        try:
            step(fresh, e)
        except RuleInputError:
            # A later event that only made sense after the call (say, a move the call's outcome allowed) is
            # dropped from the corrected state; the journal keeps it, and the overturn's cue says so.
            fresh.history.append(dict(e, dropped=True))
    advance(fresh, ev["t"])
    for name in _fields_of(state):
        setattr(state, name, getattr(fresh, name))
    state.t = ev["t"]
    state.history.append(ev)
    return call


def dropped(state: Any) -> list[Event]:
    """Events the last overturn could not apply again to the corrected state."""
    out = []
    for e in reversed(state.history[:-1]):
        if e["event"] == OVERTURN:
            break
        if e.get("dropped"):
            out.append(e)
    return out[::-1]


def _fields_of(state: Any) -> list[str]:
    slots = getattr(type(state), "__dataclass_fields__", None)
    assert slots is not None, "rules states are dataclasses"
    return list(slots)


def _fields(e: dict[str, Any]) -> str:
    parts = [f"{k} {e[k]}" for k in ("seat", "burrito") if k in e]
    return f" ({', '.join(parts)})" if parts else ""
