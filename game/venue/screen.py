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
    MIN_TEXT,
    ORANGE,
    RED,
    WHITE,
    Drawn,
    Painter,
    background,
    font,
)

log = logging.getLogger(__name__)

Colour = tuple[int, int, int]
STATE_COLOURS: dict[str, Colour] = {"playing": GOLD, "online": LIME, "idle": LIME, "offline": GREY}
LOW_BATTERY_PCT = 20


#: the smallest text here: a box of at least ``MIN_TEXT_PX`` at 1080p, as the layout check wants of what players read
TEXT = MIN_TEXT + 4
ROW = TEXT + 4


def _cell(p: Painter, text: str, size: float, colour: Colour, x: float, y: float, align: str = "left",
          max_w: float | None = None, area: pygame.Rect | None = None) -> pygame.Rect:
    """One line aligned on ``x``; too wide for ``max_w`` it is cut short with a dot, never drawn smaller (names are
    the long ones). Recorded in ``p.drawn`` like ``Painter.text``, for the layout check."""
    f = font(p.px(size))
    if max_w is not None and f.size(text)[0] > max_w:
        while len(text) > 1 and f.size(text + ".")[0] > max_w:
            text = text[:-1]
        text += "."
    img = f.render(text, True, colour)
    r = img.get_rect()
    if align == "left":
        r.midleft = (int(x), int(y))
    elif align == "right":
        r.midright = (int(x), int(y))
    else:
        r.center = (int(x), int(y))
    p.s.blit(img, r)
    p.drawn.append(Drawn("text", r.copy(), p.layer, text, "play", area.copy() if area is not None else None))
    return r


def _secs(v: float | None) -> str:
    return "-" if v is None else f"{v:.2f}s"


#: header, key, the widest value it is sized for
COLUMNS: list[tuple[str, str, str]] = [
    ("GAMES", "games", "888"), ("WINS", "wins", "888"), ("HITS", "hits", "8888"), ("CATCH", "catches", "888"),
    ("BRUISES", "bruises", "888/888"), ("NO BUENO", "no_bueno_won", "888"), ("FASTEST", "fastest_call_s", "88.88s")]


def _value(pl: dict[str, Any], key: str) -> str:
    if key == "bruises":
        return f"{pl['bruises_given']}/{pl['bruises_taken']}"
    if key == "fastest_call_s":
        return _secs(pl.get(key))
    return str(pl.get(key, 0))


def draw_board(surface: pygame.Surface, players: list[dict[str, Any]], tables: list[dict[str, Any]] | None,
               title: str, footer: str) -> Painter:
    """Players best first (rank, name, games, wins, hits, catches, bruises given/taken, No Bueno races won, fastest
    call); the tables and their state at the right, when given. Columns are laid out from the right by their widest
    header or value, so none overlaps at any size; the name gets what is left."""
    p = Painter(surface)
    background(p, GOLD)
    p.text(title, 96, GOLD, (p.w / 2, p.px(92)), max_w=p.w * 0.9)
    side = tables is not None
    left, right = p.px(40), (p.w * 0.72 if side else p.w - p.px(40))
    top = p.px(170)
    board = pygame.Rect(int(left), top, int(right - left), p.h - top - p.px(100))
    p.panel(board, DARK, GOLD, width=6, radius=26)
    inner = board.inflate(-p.px(60), 0)
    head_f, row_f = font(p.px(TEXT)), font(p.px(ROW))
    gap = p.px(26)
    edges: list[tuple[str, str, int]] = []
    x = inner.right
    for head, key, widest in reversed(COLUMNS):
        edges.append((head, key, x))
        x -= max(head_f.size(head)[0], row_f.size(widest)[0]) + gap
    name_x = inner.left + p.px(76)
    name_w = x - name_x
    row_h = p.px(66)
    y = board.top + p.px(48)
    _cell(p, "#", TEXT, GREY, inner.left, y, area=board)
    _cell(p, "PLAYER", TEXT, GREY, name_x, y, max_w=name_w, area=board)
    for head, _, edge in edges:
        _cell(p, head, TEXT, GREY, edge, y, "right", area=board)
    rows = max(1, (board.bottom - y - p.px(30)) // row_h)
    if not players:
        p.text("No named players yet: choose a name at the table", ROW, WHITE, board.center, area=board)
    for i, pl in enumerate(players[:rows]):
        y += row_h
        colour = (GOLD, WHITE, ORANGE)[i] if i < 3 else WHITE
        if i % 2 == 0:
            pygame.draw.rect(p.s, (22, 18, 56), (board.left + p.px(12), y - row_h // 2, board.width - p.px(24), row_h))
        _cell(p, str(i + 1), ROW, colour, inner.left, y, area=board)
        _cell(p, str(pl["name"]), ROW, colour, name_x, y, max_w=name_w, area=board)
        for _, key, edge in edges:
            _cell(p, _value(pl, key), ROW, CYAN if key == "wins" else colour, edge, y, "right", area=board)
    if side:
        _draw_tables(p, tables or [], pygame.Rect(int(right + p.px(30)), top, int(p.w - right - p.px(70)),
                                                  board.height))
    p.text(footer, TEXT, WHITE, (p.w / 2, p.h - p.px(52)), shadow=False, max_w=p.w * 0.95)
    return p


def _draw_tables(p: Painter, tables: list[dict[str, Any]], box: pygame.Rect) -> None:
    p.panel(box, DARK, CYAN, width=6, radius=26)
    inner = box.inflate(-p.px(48), 0)
    _cell(p, "TABLES", TEXT, GREY, inner.left, box.top + p.px(48), area=box)
    y = box.top + p.px(120)
    line = p.px(44)
    for t in tables:
        low = [d for d in t.get("devices", []) if d.get("battery_pct") is not None
               and d["battery_pct"] < LOW_BATTERY_PCT]
        height = line * (3 if low else 2)
        if y + height - line // 2 > box.bottom - p.px(16):
            break
        state = t.get("state") or "?"
        colour = STATE_COLOURS.get(state, WHITE)
        pygame.draw.circle(p.s, colour, (inner.left + p.px(14), y), p.px(13))
        text_x = inner.left + p.px(40)
        label = _cell(p, state.upper(), TEXT, colour, inner.right, y, "right", area=box)
        name = str(t["table"]).split("/", 1)[-1]
        _cell(p, name, ROW, WHITE, text_x, y, max_w=label.left - p.px(16) - text_x, area=box)
        games, calls = t.get("games_finished", 0), t.get("calls", 0)
        detail = f"{games} game{'s' if games != 1 else ''}, {calls} call{'s' if calls != 1 else ''}"
        _cell(p, detail, TEXT, GREY, text_x, y + line, max_w=inner.right - text_x, area=box)
        if low:
            worst = min(low, key=lambda d: d["battery_pct"])
            _cell(p, f"{worst['device']} battery {worst['battery_pct']}%", TEXT, RED, text_x, y + 2 * line,
                  max_w=inner.right - text_x, area=box)
        y += height + p.px(22)


def draw_venue(surface: pygame.Surface, report: dict[str, Any], now: float | None = None) -> Painter:
    """The venue screen from a ``VenueStore.report()``."""
    stamp = time.strftime("%H:%M:%S", time.localtime(now if now is not None else time.time()))
    playing = sum(1 for t in report["tables"] if t.get("state") == "playing")
    footer = (f"{report['games_finished']} games finished  -  {report['calls']} calls  -  "
              f"{playing}/{len(report['tables'])} tables playing  -  updated {stamp}")
    return draw_board(surface, report["leaderboard"], report["tables"], "VENUE LEADERBOARD", footer)


def draw_table_stats(surface: pygame.Surface, report: dict[str, Any], hint: str = "") -> Painter:
    """One table's players from its own journal (``game.stats.report``): attract mode's stats slide."""
    games = len(report["games"])
    footer = hint or f"{games} game{'s' if games != 1 else ''} at this table - seats without a name stay anonymous"
    return draw_board(surface, report["players"], None, "TABLE STATS", footer)


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
    never stalls the frame; ``report`` is None until it is ready (or if the journal cannot be read).

    The thread is a supervised part ("table stats"): a fold that fails unexpectedly (a bug, a plugin game's rules
    raising) is logged once and tried again with backoff instead of leaving the slide empty for good. A journal
    refused as bad input (damaged, foreign) is said once and not retried: it stays so until someone mends it."""

    def __init__(self, journal_path: str) -> None:
        from firmware_bridge.supervise import Supervised

        self.journal_path = journal_path
        self.report: dict[str, Any] | None = None
        self._done = threading.Event()
        self._part = Supervised("table stats", self._load, backoff=(0.5, 30.0))

    def start(self) -> StatsLoader:
        self._part.start()
        return self

    def wait(self, timeout: float) -> bool:
        """True once the fold is over (a report, or a journal that cannot be read)."""
        return self._done.wait(timeout)

    def stop(self) -> None:
        self._part.stop(timeout=0.5)

    def _load(self, stop: threading.Event) -> None:
        from game.stats import StatsError, journal_records, report

        try:
            self.report = report(journal_records(self.journal_path))
        except StatsError as exc:
            if exc.status != 2:
                raise  # the environment (a locked or unreadable journal): its supervisor tries again
            log.warning("table stats: %s", exc)  # a damaged game: attract mode simply shows no stats
        self._done.set()


def draw_attract_stats(p: Painter, v: View) -> None:
    """Attract mode's stats slide: ``v.extra["report"]`` is the table's ``game.stats`` report."""
    drawn = draw_table_stats(p.s, v.extra["report"], v.hint)
    p.drawn += drawn.drawn  # what the layout check sees of the slide


HOST_SCREENS["attract_stats"] = draw_attract_stats
