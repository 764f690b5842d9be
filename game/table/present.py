"""What the screen shows: a plain ``View`` built from the rules state and the cues, and the order of the moments.

The screens (``game.table.screens``) draw a ``View`` and nothing else, so the screenshot tests build Views by hand
and the loop builds them from a live game. The :class:`Presenter` turns cues into *moments* (battle call,
countdown, call, end of round, badge, tie-break, final duel, winner) shown one after another for a few seconds
each, over the live scoreboard.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from game.rules.base import Cue

#: seconds each moment stays on screen
DURATIONS = {"battle": 2.2, "countdown": 2.0, "call": 2.6, "round_end": 3.5, "badge": 3.0, "tiebreak": 2.6,
             "final": 2.8, "winner": 3600.0}
CLOSE_CALL_S = 0.3  # a second hit this soon after the deciding one gets its gap shown


@dataclass
class SeatView:
    seat: int  # game seat (0 in the lobby: an empty chair)
    panel: int
    points: int = 0
    sets: int = 0
    battle_sets: int = 0
    bruises: int = 0
    badge: bool = False
    role: str = "idle"  # idle, fighter, declarer, out, winner, empty, joined
    flash: str = ""  # the button just pressed (shown at once)
    pending: int = 0  # sets waiting out the take-back time
    device: str = ""  # e.g. "badge offline"
    team: str = ""  # Zombie Burrito: "zombies" / "survivors"
    lives: int = 0  # Zombie Burrito: extra hits left in this battle
    note: str = ""  # a line under the card (Zombie Burrito: the set being chosen, "holds the burrito")
    name: str = ""  # the player's name (setup line ``players``), else the card says SEAT n
    colour: tuple[int, int, int] | None = None  # the player's colour for the card's head


@dataclass
class View:
    screen: str  # lobby, scoreboard, battle, countdown, call, question, round_end, badge, tiebreak, final, winner, failsafe, menu
    seats: list[SeatView]
    title: str = ""
    big: str = ""
    sub: str = ""
    gap: str = ""
    round: int = 1
    tokens_left: int = 6
    ticker: list[str] = field(default_factory=list)
    banner: str = ""  # SIMULATION / DEMO strip
    progress: float = 0.0  # 0..1 for countdown digits, question deadline, chord hold
    options: list[str] = field(default_factory=list)
    cursor: int = 0
    chosen: list[int] = field(default_factory=list)
    hint: str = ""
    accent: str = "gold"
    game: str = ""  # whose screens draw it (a registered game's name; "" for the shared screens only)
    extra: dict[str, Any] = field(default_factory=dict)  # a game's own data for its screens


@dataclass
class Moment:
    screen: str
    title: str = ""
    big: str = ""
    sub: str = ""
    gap: str = ""
    seats: tuple[int, ...] = ()
    start: float = -1.0  # host time it went on screen
    duration: float = 2.0
    extra: dict[str, Any] = field(default_factory=dict)  # a game's snapshot for its screen
    batch: int = 0  # which ``feed`` made it (the presenter's ``announced`` numbers wait for it)


class Presenter:
    """Cues in, moments out; remembers the last announcements for the ticker."""

    def __init__(self, pace: float = 1.0) -> None:
        self.pace = pace  # moment durations are multiplied by this (the headless demo shows them briefly)
        self.countdown_s: float | None = None  # the house setting for the countdown moment (None: DURATIONS)
        self.queue: deque[Moment] = deque()
        self.current: Moment | None = None
        self.ticker: deque[str] = deque(maxlen=4)
        self.lines: list[str] = []  # every say/note, for the headless play-by-play
        self._last_hit: tuple[float, int, Moment] | None = None
        self._last_say = ""
        self.winner: int | None = None
        self._event: dict[str, Any] | None = None
        #: a game's copy of the numbers its cards show (scores...), taken after each ``feed``; None: no copies,
        #: the cards read the live state
        self.snapshot: Callable[[Any], Any] | None = None
        self._batch = 0
        self._snaps: deque[tuple[int, Any]] = deque()

    def announced(self, now: float) -> Any:
        """The numbers as of what the screen has shown so far: a call still waiting its turn behind another moment
        (a HIT! queued after the countdown) does not change the scores on the cards before it is on screen.
        None without a ``snapshot``, or before any."""
        self._advance(now)
        if not self._snaps:
            return None
        waiting = [m.batch for m in self.queue if m.batch]
        if not waiting:
            while len(self._snaps) > 1:
                self._snaps.popleft()
            return self._snaps[-1][1]
        first = min(waiting)
        while len(self._snaps) > 1 and self._snaps[1][0] < first:
            self._snaps.popleft()  # older copies are never shown again
        return self._snaps[0][1] if self._snaps[0][0] < first else None

    def busy(self, now: float) -> bool:
        """True while a moment is on screen or waiting (the demo's bots wait for it, as people would)."""
        self._advance(now)
        return self.current is not None and self.current.screen != "winner" or bool(self.queue)

    def moment(self, now: float) -> Moment | None:
        self._advance(now)
        return self.current

    def _advance(self, now: float) -> None:
        cur = self.current
        if cur is not None and cur.start >= 0 and now - cur.start < cur.duration:
            return
        if cur is not None and cur.screen == "winner":
            return
        self.current = self.queue.popleft() if self.queue else None
        if self.current is not None:
            self.current.start = now
            # a long backlog is shown faster, so the screen never lags the game by much
            if len(self.queue) > 2:
                self.current.duration = min(self.current.duration, 1.2)

    def _push(self, m: Moment) -> None:
        if m.screen == "countdown" and self.countdown_s is not None:
            m.duration = self.countdown_s
        m.duration *= self.pace
        m.batch = self._batch
        if m.screen in ("battle", "countdown"):
            # a new battle call replaces a countdown still waiting; calls and round moments stay in order
            self.queue = deque(q for q in self.queue if q.screen not in ("countdown",))
        self.queue.append(m)

    def feed(self, cues: list[Cue], host_t: float, state: Any, event: dict[str, Any] | None = None) -> None:
        """Turn one batch of cues (from one event or tick) into moments; ``host_t`` is when they happened.

        ``event`` is the table event that caused them, if any: its burrito number goes on the call screen.
        """
        self._event = event
        self._batch += 1
        for cue in cues:
            if cue.kind in ("say", "note"):
                line = cue.text if cue.kind == "say" else f"({cue.text})"
                self.lines.append(f"{cue.t:8.2f}  {line}")
                if cue.kind == "say":
                    self.ticker.append(cue.text)
                    self._last_say = cue.text
                    self._say(cue, state)
                else:
                    self._note(cue, host_t)
            elif cue.kind == "sound":
                self._sound(cue, state, host_t)
        if self.snapshot is not None and state is not None:
            self._snaps.append((self._batch, self.snapshot(state)))

    def _overturned(self, cue: Cue) -> bool:
        """An upheld challenge: the call comes off, and what it undid goes under it (every game's rules say
        "OVERTURNED! ..." then one line per bruise, player or marker given back)."""
        text = cue.text
        if text.startswith("OVERTURNED!"):
            # The overturned call and its aftermath still waiting (the countdown back to play, a round's end) come
            # off the screen: the rules have undone them.
            if self.current is not None and self.current.screen in ("call", "countdown", "round_end"):
                self.current.duration = 0.0
            self.queue = deque(q for q in self.queue if q.screen not in ("call", "countdown", "round_end"))
            self._push(Moment("call", title="CHALLENGE UPHELD", big="OVERTURNED", sub=text.removeprefix("OVERTURNED! "),
                              seats=cue.seats, duration=DURATIONS["call"]))
            return True
        last = self.queue[-1] if self.queue else self.current
        if last is not None and last.big == "OVERTURNED" and (
                "goes back" in text or "back in the battle" in text or "goes on" in text or "not over" in text):
            last.sub = f"{last.sub}. {text}"
            return True
        return False

    def _say(self, cue: Cue, state: Any) -> None:
        text = cue.text
        if self._overturned(cue):
            return
        if "counts: 3, 2, 1, Burrito!" in text or text.startswith("Back to back") or text.startswith("Round 2!"):
            self._push(Moment("countdown", title=text.split(":")[0] if "counts" in text else "", seats=cue.seats,
                              duration=DURATIONS["countdown"]))
        elif text.startswith("Last bruise! Round"):
            m = re.match(r"Last bruise! Round (\d+)", text)
            self._push(Moment("round_end", title=f"ROUND {m.group(1) if m else ''} OVER", sub=text.split(". ", 1)[-1],
                              duration=DURATIONS["round_end"]))
        elif text.startswith("Tied on"):
            kind = "DUEL" if "DUEL" in text else "WAR"
            self._push(Moment("tiebreak", title=f"TIE-BREAK {kind}", big=" vs ".join(str(s) for s in cue.seats),
                              sub=text, seats=cue.seats, duration=DURATIONS["tiebreak"]))
        elif text.startswith("FINAL DUEL"):
            self._push(Moment("final", title="FINAL DUEL", big=" vs ".join(str(s) for s in cue.seats), sub=text,
                              seats=cue.seats, duration=DURATIONS["final"]))
        elif text.startswith(("Brawl:", "War:", "Duel:")) or text.startswith("Battles at the same moment"):
            kind = "WAR" if text.startswith("Battles") else text.split(":")[0].upper()
            self._push(Moment("battle", title=f"{kind}!", big=" vs ".join(str(s) for s in cue.seats),
                              sub="everyone fights!" if text.startswith("Battles") else text, seats=cue.seats,
                              duration=DURATIONS["battle"]))
        elif re.match(r"Seat \d+, pick two duellists", text):
            self._push(Moment("battle", title="DUEL!", big="", sub=text, seats=cue.seats, duration=1.5))
        elif " loses the " in text and "Burrito Bruise" in text and self.queue and self.queue[-1].screen == "call":
            self.queue[-1].sub = text  # the bruise line under the call it follows
        elif text.startswith("FOUL!"):
            self._push(Moment("call", title="FOUL", big="FOUL!", sub=text, seats=cue.seats, duration=DURATIONS["call"]))
        elif re.match(r"Seat \d+ is out", text):
            self._push(Moment("call", title="OUT", big="OUT!", sub=text, seats=cue.seats, duration=1.6))

    def _note(self, cue: Cue, host_t: float) -> None:
        m = re.match(r"Hit on seat (\d+) ignored: no battle is on", cue.text)
        if m and self._last_hit is not None:
            t0, first, moment = self._last_hit
            gap = cue.t - t0
            if 0 <= gap <= CLOSE_CALL_S:
                moment.gap = f"seat {first} hit {round(gap * 1000)} ms before seat {m.group(1)}"
                if moment.start >= 0:  # already on screen: keep it up a little longer
                    moment.duration = max(moment.duration, host_t - moment.start + 1.5)

    def _sound(self, cue: Cue, state: Any, host_t: float) -> None:
        name = cue.text
        say = self._last_say
        if name in ("brawl", "war", "duel"):
            m = re.search(r"called by seat (\d+)", say)
            invalid = "does not match" in say
            self._push(Moment("battle", title=f"{name.upper()}!", big="",
                              sub=(f"called by seat {m.group(1)}" if m else "") + (" - the set does not match!" if invalid else ""),
                              seats=cue.seats, duration=DURATIONS["battle"]))
        elif name == "countdown":
            if not self.queue or self.queue[-1].screen != "countdown":
                self._push(Moment("countdown", seats=cue.seats, duration=DURATIONS["countdown"]))
        elif name in ("hit", "miss", "catch", "tie"):
            big = {"hit": "HIT!", "miss": "MISS", "catch": "CATCH!", "tie": "TIE!"}[name]
            gap = ""
            if name == "tie":
                g = re.search(r"hit (\d+) ms apart", say)
                gap = f"{g.group(1)} ms apart: inside the tie window" if g else ""
            line = _call_line(say)
            ev = self._event
            if ev is not None and "burrito" in ev and name != "tie":
                line += f"  -  burrito {ev['burrito']}"
            mo = Moment("call", title=name.upper(), big=big, sub=line, gap=gap, duration=DURATIONS["call"])
            self._push(mo)
            if name == "hit":
                hm = re.search(r"Seat (\d+) is hit", say)
                if hm:
                    self._last_hit = (cue.t, int(hm.group(1)), mo)
        elif name == "badge":
            m = re.search(r"Seat (\d+) takes", say)
            self._push(Moment("badge", title="FEAR ME", big=f"SEAT {m.group(1)}" if m else "", sub="holds the Fear Me badge",
                              duration=DURATIONS["badge"]))
        elif name == "win":
            m = re.search(r"Seat (\d+) wins the game", say)
            self.winner = int(m.group(1)) if m else None
            self._push(Moment("winner", title="WINNER", big=f"SEAT {self.winner}", sub="wins the game!",
                              duration=DURATIONS["winner"]))


def _call_line(say: str) -> str:
    """The call's who and which burrito, in plain words, from the rules' announcement."""
    m = re.match(r"HIT! Seat (\d+) is hit(?: by seat (\d+))?", say)
    if m:
        return f"seat {m.group(1)} is hit" + (f" by seat {m.group(2)}" if m.group(2) else "")
    m = re.match(r"CATCH! Seat (\d+) catches seat (\d+)'s burrito", say)
    if m:
        return f"seat {m.group(1)} catches seat {m.group(2)}'s burrito: seat {m.group(2)} loses"
    m = re.match(r"Burrito (\d+) misses", say)
    if m:
        return f"burrito {m.group(1)} hits nobody - throw again!"
    m = re.match(r"Seat (\d+) is not fighting: MISS", say)
    if m:
        return f"seat {m.group(1)} is not in this battle: a miss"
    m = re.match(r"TIE! (.*) hit (\d+) ms apart: (.*)", say)
    if m:
        return f"{m.group(1)}: {m.group(3)}"
    return say
