"""Attract mode: after a few idle minutes in the lobby the screen cycles how-to-play pages, the last winners, the
table's player stats and a quiet bot demo, like an arcade cabinet between players. Any press returns to the lobby (and does nothing else).

The demo is a second table with no panels, no sound and an in-memory journal, fed a shipped bot game
(``GameMode.demo_log``) at real pace, so it is drawn by the very screens of a live game. The winners come
from the table's journal: finished games replayed, names and all.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

import pygame

from game.log import run_log
from game.rules.players import Player, display_name
from game.table.howto import howto_view, pages_of
from game.table.present import View
from game.table.screens import CYAN, DARK, GOLD, GREY, LIME, PINK, WHITE, Painter, background

log = logging.getLogger(__name__)

#: lobby idle time before attract mode starts (nobody pressed anything)
IDLE_S = 180.0
#: how long each how-to page and the winners stay up
SLIDE_S = 7.0
#: how long a bot demo plays before the next game's pages
DEMO_S = 40.0


@dataclass(frozen=True)
class Slide:
    kind: str  # "howto", "winners", "demo"
    game: str
    page: int = 0
    duration: float = SLIDE_S


def playlist() -> list[Slide]:
    """Every installed game in lobby order: its how-to pages, the last winners, its bot demo."""
    from game.registry import GAMES

    out: list[Slide] = []
    for g in GAMES:
        out += [Slide("howto", g, k) for k in range(len(pages_of(g)))]
        out.append(Slide("winners", g))
        out.append(Slide("demo", g, duration=DEMO_S))
    first = next((k for k, sl in enumerate(out) if sl.kind == "winners"), len(out) - 1)
    out.insert(first + 1, Slide("stats", ""))  # the table's players (game.stats), once a round of the show
    return out


def last_winners(journal: Any, most: int = 5) -> list[str]:
    """One line per recent finished and won game, newest first ("Throw Throw Burrito: Ana", a team with its players)."""
    out: list[str] = []
    for game_id, finished in reversed(journal.games()):
        if not finished or len(out) >= most:
            continue
        try:
            setup, events = journal.load(game_id)
            table, _ = run_log([json.dumps(setup)] + [json.dumps(e) for e in events], f"game {game_id}")
        except Exception as exc:  # noqa: BLE001 - a damaged game is left out of the list, never shown broken
            log.info("attract: game %s not shown: %s", game_id, exc)
            continue
        line = winner_line(table.setup.game, table.summary(), table.setup.players)
        if line:
            out.append(line)
    return out


def winner_line(game: str, summary: dict[str, Any], players: dict[int, Player]) -> str | None:
    """ "Throw Throw Burrito: Ana": a seat that won, several ("winners"), or a team ("winner" names a team in
    "teams") with its players."""
    from game.registry import GAMES

    mode = GAMES.get(game)
    title = mode.title if mode is not None else game
    team = summary.get("winner")
    if isinstance(team, str) and team in summary.get("teams", {}):
        who = ", ".join(display_name(int(s), players) for s in summary["teams"][team])
        return f"{title}: the {team.title()} ({who})"
    winners = summary.get("winners") or ([summary["winner"]] if summary.get("winner") else [])
    if not winners:
        return None
    return f"{title}: " + " and ".join(display_name(int(s), players) for s in winners)


class _NoPanels:
    """The demo table's panels: none. Its bots' moves come from the log, never from the seats' buttons."""

    lights = None

    class source:  # noqa: N801 - the attribute name TableApp reads
        @staticmethod
        def poll(now: float) -> list[Any]:
            return []


class Demo:
    """A shipped bot game (``GameMode.demo_log``) replayed at real pace on a table of its own (no sound, no
    lights, in-memory journal)."""

    def __init__(self, game: str, now: float, clock: Any, make_table: Any) -> None:
        from game.journal import Journal
        from game.registry import GAMES

        lines = [json.loads(x) for x in GAMES[game].demo_log() if x.strip()]
        self.setup, self.events = lines[0], lines[1:]
        self.journal = Journal(":memory:")
        seats = int(self.setup["seats"])
        self.app = make_table(panels=_NoPanels(), journal=self.journal, clock=clock, seatmap=list(range(1, seats + 1)),
                            use_referee=False, sound=None, banner="BOT DEMO - press any button to play", mode=game)
        self.app.start(self.setup)
        self.start = now
        self.next = 0

    def step(self, now: float) -> None:
        elapsed = now - self.start
        while self.next < len(self.events) and self.events[self.next]["t"] <= elapsed:
            ev = dict(self.events[self.next])
            ev["t"] = self.start + ev["t"]
            self.app.inject(ev)
            self.next += 1
        self.app.step(now)

    def view(self, now: float) -> View:
        return self.app.view(now)

    def close(self) -> None:
        self.journal.close()


class Attract:
    """Idle watch and the slide show. The loop calls :meth:`touch` on every press and :meth:`tick` every step."""

    def __init__(self, journal: Any, clock: Any, make_table: Any, idle_s: float = IDLE_S) -> None:
        self.journal = journal
        self.clock = clock
        self.make_table = make_table  # TableApp's class: the demo is a table of its own
        self.idle_s = idle_s
        self.last_input = clock()
        self.active = False
        self.slides = playlist()
        self.index = 0
        self.slide_start = 0.0
        self.winners: list[str] = []
        self.demo: Demo | None = None
        self.stats: Any = None  # a game.venue.screen.StatsLoader, started on entering

    def touch(self, now: float) -> bool:
        """A press: True if it only woke the table from attract mode (the lobby must not act on it)."""
        self.last_input = now
        if self.active:
            self.leave()
            return True
        return False

    def tick(self, now: float) -> None:
        if not self.active:
            if now - self.last_input >= self.idle_s:
                self.enter(now)
            return
        slide = self.slides[self.index]
        if now - self.slide_start >= slide.duration:
            self._show(now, (self.index + 1) % len(self.slides))
        elif self.demo is not None:
            self.demo.step(now)

    def enter(self, now: float) -> None:
        self.active = True
        self.winners = last_winners(self.journal)
        from game.venue.screen import StatsLoader

        self.stats = StatsLoader(self.journal.path).start()
        self._show(now, 0)

    def leave(self) -> None:
        self.active = False
        self._end_demo()

    def _end_demo(self) -> None:
        if self.demo is not None:
            self.demo.close()
            self.demo = None

    def _show(self, now: float, index: int) -> None:
        self._end_demo()
        self.index = index
        self.slide_start = now
        slide = self.slides[index]
        if (slide.kind == "winners" and not self.winners) or (slide.kind == "stats" and not self._stats()):
            self._show(now, (index + 1) % len(self.slides))  # nothing to show yet: skip it
            return
        if slide.kind == "demo":
            try:
                self.demo = Demo(slide.game, now, self.clock, self.make_table)
            except Exception as exc:  # noqa: BLE001 - no demo is better than a crash in front of the party
                log.warning("attract: no bot demo of %s: %s", slide.game, exc)

    def _stats(self) -> dict[str, Any] | None:
        """The table's stats once folded, if any player has a name (anonymous seats have no line)."""
        report = self.stats.report if self.stats is not None else None
        return report if report is not None and report["players"] else None

    def view(self, now: float, banner: str = "") -> View:
        slide = self.slides[self.index]
        if slide.kind == "stats":
            return View("attract_stats", [], title="TABLE STATS", banner=banner, hint="press any button to play",
                        extra={"report": self._stats()})
        if slide.kind == "demo" and self.demo is not None:
            v = self.demo.view(now)
            v.hint = "press any button to play"
            return v
        if slide.kind == "winners":
            return View("attract_winners", [], title="LAST WINNERS", options=list(self.winners), banner=banner,
                        hint="press any button to play")
        return howto_view(slide.game, slide.page, hint="press any button to play", banner=banner)


def draw_winners(p: Painter, v: View) -> None:
    background(p, GOLD)
    p.text("BURRITO TABLE", 90, PINK, (p.w / 2, p.px(110)))
    p.text(v.title, 120, GOLD, (p.w / 2, p.px(240)))
    for i, line in enumerate(v.options[:5]):
        y = p.px(400 + 110 * i)
        p.star((p.w * 0.12, y), p.px(36), GOLD if i == 0 else GREY)
        p.text(line, 64 if i == 0 else 52, WHITE if i == 0 else CYAN, (p.w * 0.54, y), max_w=p.w * 0.78)
    if v.hint:
        p.text(v.hint, 44, LIME, (p.w / 2, p.h - p.px(70)), shadow=False)
    if v.banner:
        strip = pygame.Rect(0, p.px(12), p.w, p.px(56))
        pygame.draw.rect(p.s, GOLD, strip)
        p.text(v.banner, 34, DARK, strip.center, shadow=False, max_w=p.w * 0.95)
