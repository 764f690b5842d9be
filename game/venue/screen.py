"""The leaderboard screen: the venue's players and tables, drawn with the table's pygame kit.

``draw_board`` serves the venue (``burrito-table venue``: players over every table, and each table's state) and a
single table (its own journal's players: ``draw_table_stats``, a slide of the table's attract mode). Sized from the
surface height like every table screen, readable from across a room.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import pygame

from game.table.present import View
from game.table.screens import (
    CYAN,
    DARK,
    GOLD,
    GREY,
    HOST_SCREENS,
    LIME,
    ORANGE,
    RED,
    WHITE,
    Painter,
    background,
    font,
)

log = logging.getLogger(__name__)

Colour = tuple[int, int, int]
STATE_COLOURS: dict[str, Colour] = {"playing": GOLD, "online": LIME, "idle": LIME, "offline": GREY}
LOW_BATTERY_PCT = 20


def _cell(p: Painter, text: str, size: float, colour: Colour, x: float, y: float, align: str = "left",
          max_w: float | None = None) -> None:
    img = font(p.px(size)).render(text, True, colour)
    if max_w is not None and img.get_width() > max_w > 0:
        img = pygame.transform.smoothscale(img, (int(max_w), img.get_height()))
    r = img.get_rect()
    if align == "left":
        r.midleft = (int(x), int(y))
    elif align == "right":
        r.midright = (int(x), int(y))
    else:
        r.center = (int(x), int(y))
    p.s.blit(img, r)


def _secs(v: float | None) -> str:
    return "-" if v is None else f"{v:.2f}s"


COLUMNS: list[tuple[str, str, float]] = [  # header, key, right edge as a share of the board's width
    ("GAMES", "games", 0.41), ("WINS", "wins", 0.5), ("HITS", "hits", 0.59), ("CATCH", "catches", 0.68),
    ("BRUISES", "bruises", 0.78), ("NO BUENO", "no_bueno_won", 0.89), ("FASTEST", "fastest_call_s", 1.0)]


def draw_board(surface: pygame.Surface, players: list[dict[str, Any]], tables: list[dict[str, Any]] | None,
               title: str, footer: str) -> None:
    """Players best first (rank, name, games, wins, hits, catches, bruises given/taken, No Bueno races won, fastest
    call); the tables and their state at the right, when given."""
    p = Painter(surface)
    background(p, GOLD)
    p.text(title, 96, GOLD, (p.w / 2, p.px(92)), max_w=p.w * 0.9)
    side = tables is not None
    left, right = p.px(40), (p.w * 0.68 if side else p.w - p.px(40))
    top = p.px(170)
    board = pygame.Rect(int(left), top, int(right - left), p.h - top - p.px(90))
    p.panel(board, DARK, GOLD, width=6, radius=26)
    bw = board.width - p.px(60)
    x0 = board.left + p.px(30)
    row_h = p.px(62)
    y = board.top + p.px(46)
    _cell(p, "#", 34, GREY, x0, y)
    _cell(p, "PLAYER", 34, GREY, x0 + p.px(70), y)
    for head, _, edge in COLUMNS:
        _cell(p, head, 30, GREY, x0 + bw * edge, y, "right")
    rows = max(1, (board.bottom - y - p.px(20)) // row_h)
    if not players:
        p.text("No named players yet: choose a name at the table", 44, WHITE, board.center, max_w=board.width * 0.9)
    for i, pl in enumerate(players[:rows]):
        y += row_h
        colour = (GOLD, WHITE, ORANGE)[i] if i < 3 else WHITE
        if i % 2 == 0:
            pygame.draw.rect(p.s, (22, 18, 56), (board.left + p.px(12), y - row_h // 2, board.width - p.px(24), row_h))
        _cell(p, str(i + 1), 44, colour, x0, y)
        _cell(p, str(pl["name"]), 48, colour, x0 + p.px(70), y, max_w=bw * 0.24)
        for _, key, edge in COLUMNS:
            if key == "bruises":
                text = f"{pl['bruises_given']}/{pl['bruises_taken']}"
            elif key == "fastest_call_s":
                text = _secs(pl.get(key))
            else:
                text = str(pl.get(key, 0))
            _cell(p, text, 44, CYAN if key == "wins" else colour, x0 + bw * edge, y, "right")
    if side:
        _draw_tables(p, tables or [], pygame.Rect(int(right + p.px(30)), top, int(p.w - right - p.px(70)),
                                                  board.height))
    p.text(footer, 34, WHITE, (p.w / 2, p.h - p.px(50)), shadow=False, max_w=p.w * 0.9)


def _draw_tables(p: Painter, tables: list[dict[str, Any]], box: pygame.Rect) -> None:
    p.panel(box, DARK, CYAN, width=6, radius=26)
    _cell(p, "TABLES", 34, GREY, box.left + p.px(30), box.top + p.px(46))
    y = box.top + p.px(110)
    step = p.px(96)
    for t in tables:
        if y > box.bottom - p.px(40):
            break
        state = t.get("state") or "?"
        colour = STATE_COLOURS.get(state, WHITE)
        pygame.draw.circle(p.s, colour, (box.left + p.px(44), y - p.px(12)), p.px(14))
        name = str(t["table"]).split("/", 1)[-1]
        _cell(p, name, 42, WHITE, box.left + p.px(72), y - p.px(12), max_w=box.width * 0.5)
        _cell(p, state.upper(), 30, colour, box.right - p.px(24), y - p.px(12), "right")
        low = [d for d in t.get("devices", []) if d.get("battery_pct") is not None
               and d["battery_pct"] < LOW_BATTERY_PCT]
        games, calls = t.get("games_finished", 0), t.get("calls", 0)
        detail = f"{games} game{'s' if games != 1 else ''}, {calls} call{'s' if calls != 1 else ''}"
        _cell(p, detail, 28, GREY, box.left + p.px(72), y + p.px(24), max_w=box.width * 0.8)
        if low:
            worst = min(low, key=lambda d: d["battery_pct"])
            _cell(p, f"{worst['device']} {worst['battery_pct']}%", 28, RED, box.right - p.px(24), y + p.px(24),
                  "right")
        y += step


def draw_venue(surface: pygame.Surface, report: dict[str, Any], now: float | None = None) -> None:
    """The venue screen from a ``VenueStore.report()``."""
    stamp = time.strftime("%H:%M:%S", time.localtime(now if now is not None else time.time()))
    playing = sum(1 for t in report["tables"] if t.get("state") == "playing")
    footer = (f"{report['games_finished']} games finished  -  {report['calls']} calls  -  "
              f"{playing}/{len(report['tables'])} tables playing  -  updated {stamp}")
    draw_board(surface, report["leaderboard"], report["tables"], "VENUE LEADERBOARD", footer)


def draw_table_stats(surface: pygame.Surface, report: dict[str, Any]) -> None:
    """One table's players from its own journal (``game.stats.report``): attract mode's stats slide."""
    footer = f"{len(report['games'])} games at this table  -  seats without a name stay anonymous"
    draw_board(surface, report["players"], None, "TABLE STATS", footer)


def save_png(report: dict[str, Any], path: str, size: tuple[int, int] = (1280, 720), now: float | None = None) -> None:
    """Draw the venue screen off-screen (no display needed) and write it to ``path``."""
    pygame.font.init()
    surface = pygame.Surface(size)
    draw_venue(surface, report, now)
    pygame.image.save(surface, path)


def save_table_stats_png(report: dict[str, Any], path: str, size: tuple[int, int] = (1280, 720)) -> None:
    """Draw one table's stats screen off-screen and write it to ``path``."""
    pygame.font.init()
    surface = pygame.Surface(size)
    draw_table_stats(surface, report)
    pygame.image.save(surface, path)


class StatsLoader:
    """A table's stats (``game.stats.report`` of its journal), folded on a thread of its own so that a long history
    never stalls the frame; ``report`` is None until it is ready (or if the journal cannot be read)."""

    def __init__(self, journal_path: str) -> None:
        self.journal_path = journal_path
        self.report: dict[str, Any] | None = None
        self._thread = threading.Thread(target=self._load, name="table-stats", daemon=True)

    def start(self) -> StatsLoader:
        self._thread.start()
        return self

    def wait(self, timeout: float) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _load(self) -> None:
        from game.stats import StatsError, journal_records, report

        try:
            self.report = report(journal_records(self.journal_path))
        except StatsError as exc:  # a damaged game: attract mode simply shows no stats
            log.warning("table stats: %s", exc)


def draw_attract_stats(p: Painter, v: View) -> None:
    """Attract mode's stats slide: ``v.extra["report"]`` is the table's ``game.stats`` report."""
    draw_table_stats(p.s, v.extra["report"])
    if v.hint:
        p.text(v.hint, 40, LIME, (p.w / 2, p.h - p.px(130)), shadow=False)


HOST_SCREENS["attract_stats"] = draw_attract_stats
