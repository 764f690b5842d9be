"""The shared screen: arcade-style drawing of a ``View`` with pygame primitives and the default font.

Readable from 3 m: the smallest text is 1/30 of the screen height, numbers and calls are far bigger. Everything is
sized from the surface height (any 16:9 size from 1280x720 to 1920x1080), no image or font is loaded from disk.

``python -m game.table.screens DIR`` writes one PNG per screen (the README screenshots, ``docs/screens/``).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pygame

from game.table.present import SeatView, View

BG = (12, 10, 40)
BG2 = (26, 18, 70)
GOLD = (255, 200, 20)
PINK = (255, 60, 150)
CYAN = (20, 220, 255)
LIME = (120, 255, 90)
RED = (255, 60, 60)
ORANGE = (255, 140, 20)
WHITE = (250, 250, 255)
GREY = (120, 120, 150)
DARK = (8, 6, 24)
ACCENTS = {"HIT!": RED, "MISS": CYAN, "CATCH!": LIME, "TIE!": ORANGE, "FOUL!": PINK, "OUT!": PINK}
ROLE_COLOURS = {"idle": (70, 60, 150), "fighter": RED, "declarer": GOLD, "out": (50, 50, 60), "winner": GOLD,
                "empty": (40, 40, 55), "joined": LIME}

_fonts: dict[int, pygame.font.Font] = {}


def forget_fonts() -> None:
    """Drop the cached fonts (call after ``pygame.quit()``: a later game in the same process makes fresh ones)."""
    _fonts.clear()


def _wrap(words: list[str], f: pygame.font.Font, width: float) -> list[str]:
    """Words onto lines no wider than ``width`` (a single word wider than that gets a line of its own)."""
    lines: list[str] = []
    for word in words:
        if lines and f.size(lines[-1] + " " + word)[0] <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def font(px: int) -> pygame.font.Font:
    px = max(8, int(px))
    if not pygame.font.get_init():
        _fonts.clear()  # fonts made before a pygame.quit() are dead
        pygame.font.init()
    f = _fonts.get(px)
    if f is not None:
        try:
            f.get_height()  # a font made before a pygame.quit() + init() elsewhere is dead
        except pygame.error:
            _fonts.clear()
            f = None
    if f is None:
        f = _fonts[px] = pygame.font.Font(None, px)
    return f


#: the smallest text size (units of h/1080) for anything players read during play: its text box is at least 28 px
#: tall at 1080p, readable across a living room (the layout check in tests/test_app_layout.py holds every screen to it)
MIN_TEXT = 40
#: the smallest text box, in pixels at 1080p, that the layout check accepts for text players read
MIN_TEXT_PX = 28


@dataclass
class Drawn:
    """One thing a ``Painter`` drew that the layout check looks at: a text's box, or an opaque panel."""

    kind: str  # "text" or "panel"
    rect: pygame.Rect
    layer: int  # 0, then +1 after each veil: what is under a veil is background
    text: str = ""
    role: str = "play"  # "play": players read it during play (held to MIN_TEXT_PX); "aside": the sim banner, a fault's detail
    area: pygame.Rect | None = None  # the card, box or screen the text must stay inside


class Painter:
    """Drawing helpers in units of the screen height (1 unit = h/1080 px).

    Every text and panel is recorded in ``drawn`` (what the layout check inspects): a text's box, the area it must
    stay inside, its role; ``veil`` starts a new layer, so the dimmed board under a box is not held to the rules.
    """

    def __init__(self, surface: pygame.Surface) -> None:
        self.s = surface
        self.w, self.h = surface.get_size()
        self.u = self.h / 1080.0
        self.drawn: list[Drawn] = []
        self.layer = 0

    @property
    def screen(self) -> pygame.Rect:
        return pygame.Rect(0, 0, self.w, self.h)

    def px(self, v: float) -> int:
        return int(round(v * self.u))

    def _fitting_font(self, txt: str, size: float, width: float | None) -> pygame.font.Font:
        """The font at ``size`` units, made smaller (never squeezed) until ``txt`` is no wider than ``width``."""
        px = max(8, self.px(size))
        f = font(px)
        if width is None or width <= 0:
            return f
        while px > 8 and f.size(txt)[0] > width:
            px = max(8, min(px - 1, int(px * width / max(1, f.size(txt)[0]))))
            f = font(px)
        return f

    def text(self, txt: str, size: float, colour: tuple[int, int, int], center: tuple[float, float],
             shadow: bool = True, max_w: float | None = None, *, area: pygame.Rect | None = None,
             role: str = "play") -> pygame.Rect:
        """One line centred on ``center``; too wide for ``max_w`` or ``area`` it gets a smaller font, not a squeeze."""
        width = max_w
        if area is not None:
            width = area.width * 0.96 if width is None else min(width, area.width * 0.96)
        f = self._fitting_font(txt, size, width)
        img = f.render(txt, True, colour)
        r = img.get_rect(center=(int(center[0]), int(center[1])))
        if shadow:
            off = max(2, int(f.get_height() / 16))
            self.s.blit(f.render(txt, True, DARK), r.move(off, off))
        self.s.blit(img, r)
        self.drawn.append(Drawn("text", r.copy(), self.layer, txt, role, area.copy() if area is not None else None))
        return r

    def fit(self, txt: str, size: float, colour: tuple[int, int, int], box: pygame.Rect, shadow: bool = False,
            role: str = "play", min_size: float = MIN_TEXT, max_lines: int = 4, top: bool = False
            ) -> list[pygame.Rect]:
        """``txt`` inside ``box``: the biggest size from ``size`` down to ``min_size`` at which it fits, wrapped
        onto up to ``max_lines`` lines, centred (``top``: from the top of the box); if nothing fits, it shrinks
        further (and the layout check says so)."""
        words = txt.split()
        width = box.width * 0.96
        sizes = [float(size)]
        while sizes[-1] * 0.94 > min_size:
            sizes.append(sizes[-1] * 0.94)
        sizes.append(float(min_size))  # the smallest readable size, exactly, before going under it
        while self.px(sizes[-1] * 0.94) >= 8:
            sizes.append(sizes[-1] * 0.94)
        for s in sizes:
            f = font(self.px(s))
            lines = [txt] if f.size(txt)[0] <= width else _wrap(words, f, width)  # one line keeps its spacing
            lh = f.get_linesize()
            if (len(lines) <= max_lines and lh * len(lines) <= box.height
                    and all(f.size(line)[0] <= width for line in lines)):
                break
        y0 = box.top if top else box.centery - lh * len(lines) / 2
        out = []
        for i, line in enumerate(lines):
            out.append(self.text(line, s, colour, (box.centerx, y0 + lh * (i + 0.5)), shadow=shadow, area=box,
                                 role=role))
        return out

    def panel(self, rect: pygame.Rect, fill: tuple[int, int, int], border: tuple[int, int, int], width: float = 6,
              radius: float = 22) -> None:
        pygame.draw.rect(self.s, fill, rect, border_radius=self.px(radius))
        pygame.draw.rect(self.s, border, rect, width=max(2, self.px(width)), border_radius=self.px(radius))
        self.drawn.append(Drawn("panel", rect.copy(), self.layer))

    def fill(self, rect: pygame.Rect, colour: tuple[int, int, int]) -> None:
        """An opaque strip (a banner): drawn over text, it hides it, so it is recorded like a panel."""
        pygame.draw.rect(self.s, colour, rect)
        self.drawn.append(Drawn("panel", rect.copy(), self.layer))

    def veil(self) -> None:
        """Everything drawn so far becomes background (dimmed under a box or a call)."""
        self.layer += 1

    def star(self, center: tuple[float, float], r: float, colour: tuple[int, int, int]) -> None:
        cx, cy = center
        pts = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            rr = r if i % 2 == 0 else r * 0.45
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        pygame.draw.polygon(self.s, colour, pts)
        pygame.draw.polygon(self.s, DARK, pts, width=max(1, int(r / 10)))

    def burrito(self, center: tuple[float, float], r: float, colour: tuple[int, int, int]) -> None:
        """A foam burrito: a rounded wrap with a filling stripe."""
        cx, cy = center
        rect = pygame.Rect(0, 0, int(r * 2.4), int(r * 1.3))
        rect.center = (int(cx), int(cy))
        pygame.draw.ellipse(self.s, colour, rect)
        pygame.draw.ellipse(self.s, DARK, rect, width=max(1, int(r / 6)))
        pygame.draw.line(self.s, GOLD, (rect.left + r * 0.5, cy), (rect.right - r * 0.5, cy), max(1, int(r / 4)))


_backgrounds: dict[tuple[int, int, tuple[int, int, int]], pygame.Surface] = {}
_veils: dict[tuple[int, int], pygame.Surface] = {}


def background(p: Painter, accent: tuple[int, int, int] = PINK) -> None:
    """The striped arcade backdrop, drawn once per size and colour, then blitted (it is most of the pixels)."""
    key = (p.w, p.h, accent)
    bg = _backgrounds.get(key)
    if bg is None:
        bg = _backgrounds[key] = pygame.Surface((p.w, p.h))
        _paint_background(Painter(bg), accent)
    p.s.blit(bg, (0, 0))


def _paint_background(p: Painter, accent: tuple[int, int, int]) -> None:
    p.s.fill(BG)
    band = max(8, p.px(60))
    for i in range(-p.h // band, p.w // band + 2):
        x = i * band * 2
        pygame.draw.polygon(p.s, BG2, [(x, 0), (x + band, 0), (x + band + p.h // 2, p.h), (x + p.h // 2, p.h)])
    pygame.draw.rect(p.s, accent, (0, 0, p.w, p.px(12)))
    pygame.draw.rect(p.s, accent, (0, p.h - p.px(12), p.w, p.px(12)))


def card_size(n: int) -> tuple[int, int]:
    """A seat card's size in units for ``n`` seats: as big as the ring round the table allows."""
    for most, size in ((4, (420, 240)), (6, (400, 230)), (8, (340, 200)), (10, (300, 180))):
        if n <= most:
            return size
    return (280, 170)


@dataclass
class TableLayout:
    """Where the seat cards go round the table, and the free middle of the table between them."""

    cards: list[pygame.Rect]
    middle: pygame.Rect


def table_layout(p: Painter, n: int, top: float = 80, bottom: float = 80,
                 card: tuple[int, int] | None = None) -> TableLayout:
    """Seats clockwise round the table, seat 1 at the bottom left (as seen from above), spaced evenly along a
    rectangle between a ``top`` band (banner, markers) and a ``bottom`` band (the hint), so no two cards overlap;
    ``middle`` is the largest centred rectangle no card covers."""
    cw, ch = p.px((card or card_size(n))[0]), p.px((card or card_size(n))[1])
    margin = p.px(16)
    y0, y1 = p.px(top), p.h - p.px(bottom)
    cx, cy = p.w / 2, (y0 + y1) / 2
    rx, ry = p.w / 2 - margin - cw / 2, (y1 - y0) / 2 - ch / 2
    perimeter = 4 * (rx + ry)
    cards, sides = [], []
    for i in range(n):
        s = (i + 0.5) * perimeter / n  # from the bottom middle, clockwise: bottom, left, top, right
        if s < rx:
            x, y, side = cx - s, cy + ry, "bottom"
        elif s < rx + 2 * ry:
            x, y, side = cx - rx, cy + ry - (s - rx), "left"
        elif s < 3 * rx + 2 * ry:
            x, y, side = cx - rx + (s - rx - 2 * ry), cy - ry, "top"
        elif s < 3 * rx + 4 * ry:
            x, y, side = cx + rx, cy - ry + (s - 3 * rx - 2 * ry), "right"
        else:
            x, y, side = cx + rx - (s - 3 * rx - 4 * ry), cy + ry, "bottom"
        r = pygame.Rect(0, 0, cw, ch)
        r.center = (int(x), int(y))
        cards.append(r)
        sides.append(side)
    gap = p.px(14)
    middle = pygame.Rect(margin, y0, p.w - 2 * margin, y1 - y0)
    for want in (("top", "bottom"), ("left", "right")):
        for r, side in zip(cards, sides):
            if side not in want or not r.colliderect(middle):
                continue
            if side == "top":
                middle.height -= r.bottom + gap - middle.top
                middle.top = r.bottom + gap
            elif side == "bottom":
                middle.height = r.top - gap - middle.top
            elif side == "left":
                middle.width -= r.right + gap - middle.left
                middle.left = r.right + gap
            else:
                middle.width = r.left - gap - middle.left
    return TableLayout(cards, middle)


def seat_positions(p: Painter, n: int) -> list[tuple[float, float]]:
    """The centre of each seat's card (``table_layout``)."""
    return [r.center for r in table_layout(p, n).cards]


def split_rows(rect: pygame.Rect, n: int) -> list[pygame.Rect]:
    """``rect`` cut into ``n`` equal rows, top to bottom."""
    h = rect.height / n
    return [pygame.Rect(rect.left, int(rect.top + i * h), rect.width, int(h)) for i in range(n)]


def columns(rect: pygame.Rect, shares: tuple[float, ...]) -> list[pygame.Rect]:
    """``rect`` cut into columns of these shares of its width, left to right."""
    out, x = [], float(rect.left)
    for s in shares:
        w = rect.width * s
        out.append(pygame.Rect(int(x), rect.top, int(w), rect.height))
        x += w
    return out


def text_size(row: pygame.Rect, p: Painter, biggest: float = 56) -> float:
    """The text size (units) whose box fills most of a ``row`` of that many pixels, never under ``MIN_TEXT``."""
    return max(MIN_TEXT, min(biggest, row.height / p.u * 1.15))


def seat_card(p: Painter, sv: SeatView, rect: pygame.Rect, highlight: bool = False) -> None:
    """One seat's card: the seat (and a button just pressed) in the header, points big, sets and battle sets, bruises."""
    role = sv.role
    colour = ROLE_COLOURS.get(role, ROLE_COLOURS["idle"])
    name, own = getattr(sv, "name", ""), getattr(sv, "colour", None)  # a player's name and colour, when known
    if own is not None and role in ("idle", "joined"):
        colour = own  # the player's own colour, while no battle role outshouts it
    fill = (30, 26, 70) if role not in ("out", "empty") else (24, 24, 34)
    if highlight:
        glow = rect.inflate(p.px(26), p.px(26))
        pygame.draw.rect(p.s, GOLD, glow, border_radius=p.px(30))
    p.panel(rect, fill, colour, width=8 if role in ("fighter", "winner", "declarer") else 5)
    head, body = header(p, rect, colour)
    label = name.upper() if name and role != "joined" else f"SEAT {sv.seat}" if sv.seat else f"PANEL {sv.panel}"
    if sv.flash:
        label += f"  {sv.flash}!"
    if sv.pending:
        label += f"  +{sv.pending}?"
    p.text(label, text_size(head, p), header_ink(colour) if role != "out" else GREY, head.center, shadow=False,
           area=head)
    if sv.badge:
        p.star((rect.right - p.px(4), rect.top + p.px(4)), head.height * 0.6, GOLD)
    if role == "empty":
        p.fit("press to join", 48, GREY, body.inflate(-p.px(10), -p.px(10)))
        return
    if role == "joined":
        if sv.note:  # the name card's prompt (BRAWL / WAR: name, SET: colour) under the name being chosen
            top, low = split_rows(body.inflate(-p.px(10), -p.px(10)), 2)
            p.fit(name or "READY!", 70, own or LIME, top, shadow=True, max_lines=1)
            p.fit(sv.note, 40, WHITE, low, max_lines=2)
            return
        p.fit(name or "READY!", 70, own or LIME, body.inflate(-p.px(10), -p.px(10)), shadow=True, max_lines=1)
        return
    rows = split_rows(body.inflate(-p.px(8), -p.px(8)), 3)
    left = pygame.Rect(rows[0].left, rows[0].top, int(rows[0].width * 0.42), rows[0].height * 2)
    right = [pygame.Rect(left.right, r.top, r.right - left.right, r.height) for r in rows]
    small = text_size(rows[0], p, 52)
    p.text(str(sv.points), min(110, left.height / p.u * 1.1), WHITE if role != "out" else GREY, left.center, area=left)
    p.text(f"sets {sv.sets}", small, CYAN, right[0].center, shadow=False, area=right[0])
    p.text(f"battle {sv.battle_sets}", small, GOLD, right[1].center, shadow=False, area=right[1])
    if sv.device:
        p.text(sv.device, small, ORANGE, rows[2].center, shadow=False, area=rows[2])
    else:
        low = pygame.Rect(rows[2].left, rows[2].top, left.width, rows[2].height)
        if sv.bruises:
            p.text(f"-{sv.bruises}", small, RED, low.center, shadow=False, area=low)
        r = min(right[2].height * 0.38, right[2].width / (2.6 * max(1, min(sv.bruises, 6))))
        for i in range(min(sv.bruises, 6)):
            p.burrito((right[2].left + r * 1.4 + i * r * 2.6, right[2].centery), r, RED)
    if sv.flash:
        fl = rect.inflate(-p.px(10), -p.px(10))
        pygame.draw.rect(p.s, WHITE, fl, width=p.px(6), border_radius=p.px(18))


def header(p: Painter, rect: pygame.Rect, colour: tuple[int, int, int], share: float = 0.27
           ) -> tuple[pygame.Rect, pygame.Rect]:
    """A card's coloured header band and the body under it."""
    head = pygame.Rect(rect.left, rect.top, rect.width, max(int(rect.height * share), p.px(44)))
    pygame.draw.rect(p.s, colour, head, border_top_left_radius=p.px(22), border_top_right_radius=p.px(22))
    body = pygame.Rect(rect.left, head.bottom, rect.width, rect.bottom - head.bottom)
    return head, body


def header_ink(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Dark text on a light header, white on a dark one (dark on purple could not be read across the room)."""
    r, g, b = colour
    return DARK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else WHITE


#: a game's own backdrop for the shared screens (call, countdown, question, menu), registered by its screens module
BASES: dict[str, Callable[[Painter, View, set[int] | None, bool], None]] = {}


def banner_strip(p: Painter, v: View) -> None:
    """The band along the top: simulation mode or the demo, or (orange) a device that needs looking at."""
    if v.banner:
        strip = pygame.Rect(0, p.px(12), p.w, p.px(56))
        p.fill(strip, ORANGE if v.extra.get("device_warnings") else GOLD)
        p.text(v.banner, 40, DARK, strip.center, shadow=False, area=strip, role="aside")


def hint_line(p: Painter, v: View) -> None:
    if v.hint:
        band = pygame.Rect(p.px(16), p.h - p.px(76), p.w - p.px(32), p.px(60))
        p.text(v.hint, 42, WHITE, band.center, shadow=False, area=band)


def ticker_lines(p: Painter, v: View, area: pygame.Rect, lines: int = 3) -> None:
    """The last announcements, newest (white) at the bottom, wrapped rather than shrunk: as many as ``area`` holds."""
    if not v.ticker:
        return
    size = text_size(pygame.Rect(0, 0, 1, int(area.height / lines)), p, 44)
    f = font(p.px(size))
    lh = f.get_linesize()
    bottom = area.bottom
    for k, line in enumerate(reversed(v.ticker[-lines:])):
        wrapped = _wrap(line.split(), f, area.width * 0.96)
        if bottom - lh * len(wrapped) < area.top:
            break
        for i, part in enumerate(wrapped):
            y = bottom - lh * (len(wrapped) - i - 0.5)
            p.text(part, size, WHITE if k == 0 else GREY, (area.centerx, y), shadow=False, area=area)
        bottom -= lh * len(wrapped)


def scoreboard_base(p: Painter, v: View, highlight: set[int] | None = None, dim: bool = False,
                    centre: bool = True) -> pygame.Rect:
    """The table: backdrop, seat cards, banner and hint; ``centre`` draws the round, the bruises left and the
    ticker in the middle. Returns the middle of the table (free for a screen's own box when ``centre`` is off)."""
    base = BASES.get(v.game)
    if base is not None:
        base(p, v, highlight, dim)
        return table_layout(p, max(1, len(v.seats))).middle
    background(p, PINK if v.screen != "battle" else RED)
    n = len(v.seats)
    layout = table_layout(p, max(1, n))
    for sv, rect in zip(v.seats, layout.cards):
        seat_card(p, sv, rect, highlight=bool(highlight and sv.seat in highlight))
    mid = layout.middle
    if centre:
        rows = split_rows(mid, 6)
        p.text(f"ROUND {v.round}", min(100, rows[0].height / p.u * 1.3), GOLD, rows[0].center, area=rows[0])
        p.text("BRUISES LEFT", text_size(rows[1], p, 44), WHITE, rows[1].center, shadow=False, area=rows[1])
        total = max(v.tokens_left, 0)
        r = min(rows[2].height * 0.4, mid.width / max(1, total) / 3)
        for i in range(total):
            p.burrito((mid.centerx + (i - (total - 1) / 2) * r * 2.8, rows[2].centery), r, RED)
        if total == 0:
            p.text("none", text_size(rows[2], p, 48), GREY, rows[2].center, shadow=False, area=rows[2])
        ticker_lines(p, v, pygame.Rect(mid.left, rows[3].top, mid.width, rows[5].bottom - rows[3].top))
    banner_strip(p, v)
    hint_line(p, v)
    if dim:
        scoreboard_veil(p)
    return mid


def scoreboard_veil(p: Painter) -> None:
    """Darken what is drawn so far (one cached translucent surface per size); it becomes background."""
    veil = _veils.get((p.w, p.h))
    if veil is None:
        veil = _veils[(p.w, p.h)] = pygame.Surface((p.w, p.h))
        veil.fill((0, 0, 0))
        veil.set_alpha(150)
    p.s.blit(veil, (0, 0))
    p.veil()


def big_box(p: Painter, title: str, colour: tuple[int, int, int], height: float = 520, width: float = 0.7
            ) -> pygame.Rect:
    rect = pygame.Rect(0, 0, int(p.w * width), p.px(height))
    rect.center = (p.w // 2, int(p.h * 0.52))
    p.panel(rect, DARK, colour, width=12, radius=40)
    if title:
        tag = pygame.Rect(0, 0, int(p.w * 0.36), p.px(90))
        tag.center = (rect.centerx, rect.top)
        p.panel(tag, colour, DARK, width=6, radius=28)
        p.text(title, 70, DARK, tag.center, shadow=False, area=tag.inflate(-p.px(20), -p.px(8)))
    return rect


def inner(p: Painter, box: pygame.Rect, top: float = 60, pad: float = 40) -> pygame.Rect:
    """The part of a big box under its title tag, inside its border."""
    return pygame.Rect(box.left + p.px(pad), box.top + p.px(top), box.width - 2 * p.px(pad),
                       box.height - p.px(top) - p.px(pad * 0.6))


def draw(surface: pygame.Surface, v: View, painter: Painter | None = None) -> None:
    """Draw one frame of ``v`` on ``surface`` (with ``painter``: the layout check reads what it recorded)."""
    from game.registry import GAMES

    p = painter if painter is not None else Painter(surface)
    mode = GAMES.get(v.game)
    fn = mode.screens().get(v.screen) if mode is not None else None
    if fn is None:
        fn = SCREENS.get(v.screen) or HOST_SCREENS.get(v.screen) or draw_scoreboard
    fn(p, v)


#: the party host's screens (how-to-play, attract mode, house settings), filled in by ``game.table.host_screens``
#: (which imports this module, never the other way round)
HOST_SCREENS: dict[str, Callable[[Painter, View], None]] = {}


def draw_scoreboard(p: Painter, v: View) -> None:
    scoreboard_base(p, v)


def draw_lobby(p: Painter, v: View) -> None:
    """Panels round the table, and in the middle the game and every variant, one per line, the chosen one lit."""
    background(p, CYAN)
    layout = table_layout(p, max(1, len(v.seats)), top=80, bottom=20)
    for sv, rect in zip(v.seats, layout.cards):
        seat_card(p, sv, rect)
    mid = layout.middle
    opts = v.options or ["standard"]
    head_h = min(mid.height * 0.2, p.px(110))
    extra = str(v.extra.get("host_hint", ""))  # the party host's lobby buttons (names, how to play, learning)
    foot_h = min(mid.height * (0.4 if extra else 0.24), p.px(240 if extra else 120))
    title_row = pygame.Rect(mid.left, mid.top, mid.width, int(head_h * 0.45))
    game_row = pygame.Rect(mid.left, title_row.bottom, mid.width, int(head_h * 0.55))
    p.text("BURRITO TABLE", text_size(title_row, p, 60), GOLD, title_row.center, area=title_row)
    p.text(v.title or "Throw Throw Burrito", min(90, game_row.height / p.u * 1.3), WHITE, game_row.center,
           area=game_row)
    listing = pygame.Rect(mid.left, game_row.bottom, mid.width, mid.bottom - int(foot_h) - game_row.bottom)
    cols = 1 if len(opts) <= 3 or listing.height / len(opts) >= p.px(50) else 2
    per = -(-len(opts) // cols)
    row_h = min(listing.height / per, p.px(70))
    top = listing.centery - row_h * per / 2
    for i, o in enumerate(opts):
        col, row = divmod(i, per)
        cw = listing.width / cols
        r = pygame.Rect(int(listing.left + col * cw + p.px(6)), int(top + row * row_h + p.px(3)),
                        int(cw - p.px(12)), int(row_h - p.px(6)))
        lit = i == v.cursor
        if lit:
            p.panel(r, CYAN, WHITE, width=3, radius=16)
        p.text(o, text_size(r, p, 50), DARK if lit else CYAN, r.center, shadow=False, area=r.inflate(-p.px(8), 0))
    foot = pygame.Rect(mid.left, mid.bottom - int(foot_h), mid.width, int(foot_h))
    rows = split_rows(foot, 4 if extra else 2)
    sub_row, hint_row = rows[0], rows[1]
    p.text(v.sub or "press any button to join", text_size(sub_row, p, 50), LIME, sub_row.center, area=sub_row)
    if v.hint:
        p.text(v.hint, text_size(hint_row, p, 44), WHITE, hint_row.center, shadow=False, area=hint_row)
    if extra:
        p.fit(extra, 44, GOLD, rows[2].union(rows[3]), max_lines=2)
    banner_strip(p, v)


def draw_countdown(p: Painter, v: View) -> None:
    scoreboard_base(p, v, dim=True)
    word = v.big or "3"
    colour = {"3": CYAN, "2": LIME, "1": GOLD}.get(word, PINK)
    size = 520 if len(word) == 1 else 300
    if v.title:
        p.text(v.title, 60, WHITE, (p.w / 2, p.h * 0.2), max_w=p.w * 0.9)
    p.text(word, size, colour, (p.w / 2, p.h * 0.57), max_w=p.w * 0.92)


def draw_call(p: Painter, v: View) -> None:
    scoreboard_base(p, v, dim=True)
    colour = ACCENTS.get(v.big, GOLD)
    box = big_box(p, "", colour, height=560)
    area = inner(p, box, top=30)
    p.text(v.big, 280, colour, (box.centerx, box.top + p.px(180)), area=area)
    p.fit(v.sub, 60, WHITE, pygame.Rect(area.left, box.top + p.px(310), area.width, p.px(110)))
    if v.gap:
        p.text(v.gap, 56, GOLD, (box.centerx, box.top + p.px(470)), area=area)


def draw_question(p: Painter, v: View) -> None:
    scoreboard_base(p, v, highlight=set(v.chosen), dim=True)
    box = big_box(p, v.title, CYAN, height=600)
    area = inner(p, box)
    p.fit(v.sub, 60, WHITE, pygame.Rect(area.left, area.top, area.width, p.px(150)))
    keys = ("SET", "DUEL", "BRAWL", "WAR")
    shown = v.options[:4]
    for i, opt in enumerate(shown):
        x = box.left + box.width * (i + 1) / (len(shown) + 1)
        chip = pygame.Rect(0, 0, int(box.width / (len(shown) + 1) * 0.9), p.px(140))
        chip.center = (int(x), area.top + p.px(250))
        p.panel(chip, (30, 26, 70), [LIME, RED, CYAN, GOLD][i], width=8)
        top, low = split_rows(chip.inflate(-p.px(16), -p.px(12)), 2)
        p.text(opt, 52, WHITE, top.center, area=top)
        p.text(keys[i], 44, [LIME, RED, CYAN, GOLD][i], low.center, shadow=False, area=low)
    who = ", ".join(f"seat {s}" for s in v.chosen)
    p.text(f"answering: {who}", 44, GOLD, (box.centerx, area.top + p.px(380)), shadow=False, area=area)
    bar = pygame.Rect(box.left + p.px(60), box.bottom - p.px(60), int((box.width - p.px(120)) * v.progress), p.px(26))
    pygame.draw.rect(p.s, CYAN, bar, border_radius=p.px(12))


def draw_failsafe(p: Painter, v: View) -> None:
    p.s.fill((60, 0, 20))
    p.text(v.title, 80, GOLD, (p.w / 2, p.h * 0.2), area=p.screen)
    p.text(v.big, 200, WHITE, (p.w / 2, p.h * 0.42), area=p.screen)
    p.fit(v.sub, 48, ORANGE, pygame.Rect(p.w * 0.05, p.h * 0.55, p.w * 0.9, p.h * 0.13), role="aside")
    p.fit(v.hint, 48, WHITE, pygame.Rect(p.w * 0.05, p.h * 0.7, p.w * 0.9, p.h * 0.13))


def draw_menu(p: Painter, v: View) -> None:
    scoreboard_base(p, View(**{**v.__dict__, "hint": ""}), dim=True)  # the hint goes in the box, once
    box = big_box(p, v.title, CYAN, height=140 + 110 * max(3, len(v.options)))
    area = inner(p, box)
    for i, opt in enumerate(v.options):
        y = box.top + p.px(120 + 110 * i)
        sel = pygame.Rect(0, 0, int(box.width * 0.8), p.px(90))
        sel.center = (box.centerx, y)
        if i == v.cursor:
            p.panel(sel, CYAN, WHITE, width=4)
        p.text(opt, 64, DARK if i == v.cursor else WHITE, (box.centerx, y), shadow=i != v.cursor,
               area=sel.inflate(-p.px(20), 0))
    p.text(v.hint, 42, GOLD, (box.centerx, box.bottom - p.px(50)), shadow=False, area=area)


def draw_resume(p: Painter, v: View) -> None:
    """The unfinished games (``options``, newest first; with more than one the ``cursor`` one lit), a line on
    older ones (``sub``) and the keys; a view without ``options`` offers one game, described in ``sub``."""
    draw_lobby(p, View(v.screen, v.seats, title=v.title, sub=" ", banner=v.banner))  # no "press to join"
    scoreboard_veil(p)
    games, note = (v.options, v.sub) if v.options else ([v.sub], "")
    row_h = 90
    height = 100 + row_h * len(games) + (70 if note else 0) + 110
    box = big_box(p, v.title, LIME, height=height, width=0.8)
    area = inner(p, box)
    y = box.top + p.px(100 + row_h / 2)
    for i, text in enumerate(games):
        row = pygame.Rect(0, 0, area.width, p.px(row_h - 10))
        row.center = (box.centerx, int(y))
        lit = len(games) > 1 and i == v.cursor
        if lit:
            p.panel(row, LIME, WHITE, width=4)
        p.text(text, 52, DARK if lit else WHITE, row.center, shadow=not lit, area=row.inflate(-p.px(24), 0))
        y += p.px(row_h)
    if note:
        p.text(note, 40, GOLD, (box.centerx, int(y - p.px(row_h / 2) + p.px(50))), shadow=False, area=area)
    p.text(v.hint, 46, LIME, (box.centerx, box.bottom - p.px(62)), area=area)  # one line: its spacing matters


#: The screens every game shares; a game's own screens (``GameMode.screens()``) come first.
SCREENS = {
    "lobby": draw_lobby, "scoreboard": draw_scoreboard, "countdown": draw_countdown, "call": draw_call,
    "question": draw_question, "failsafe": draw_failsafe, "menu": draw_menu, "resume": draw_resume,
}

# -- sample views: the screenshot tests and the README pictures -------------------------------------------


def sample_seats(n: int = 4, roles: dict[int, str] | None = None) -> list[SeatView]:
    pts = [4, 2, 5, 1, 3, 0, 2, 1, 0, 3, 1, 2]
    out = []
    for s in range(1, n + 1):
        sv = SeatView(seat=s, panel=s, points=pts[s - 1], sets=pts[s - 1] % 3 + 1, battle_sets=s % 2,
                      bruises=(s + 1) % 3, badge=s == 3)
        if roles and s in roles:
            sv.role = roles[s]
        out.append(sv)
    return out


def sample_views(seats: int = 4) -> dict[str, View]:
    """One View per shared screen, with fixed made-up content, for ``seats`` seats (panels in the lobby)."""
    ticker = ["Seat 2 counts: 3, 2, 1, Burrito!", "Seat 4 loses the brawl (hit): Burrito Bruise!", "BRAWL! called by seat 1"]
    panels = max(seats, 6) if seats == 4 else seats
    lobby = [SeatView(seat=0, panel=p, role="joined" if p in (1, 2, 4) else "empty") for p in range(1, panels + 1)]
    flash = sample_seats(seats)
    flash[1].flash = "SET"
    flash[1].pending = 1
    flash[-1].device = "badge offline"
    last = seats
    return {
        "lobby": View("lobby", lobby, title="Throw Throw Burrito", options=["standard", "small room"], cursor=0,
                      sub="3 seats ready - DUEL on a ready seat starts",
                      hint="BRAWL / WAR: game and variant    hold SET: leave"),
        "scoreboard": View("scoreboard", flash, round=1, tokens_left=3, ticker=ticker, banner="SIMULATION MODE"),
        "countdown": View("countdown", sample_seats(seats), big="2", title="Seat 2 counts", tokens_left=3,
                          ticker=ticker),
        "call": View("call", sample_seats(seats, {2: "fighter", last: "fighter"}), big="HIT!",
                     sub=f"seat {last} is hit by seat 2  -  burrito 1", gap=f"seat {last} hit 18 ms before seat 2",
                     tokens_left=3, ticker=ticker),
        "question": View("question", sample_seats(seats), title="THE TABLE ASKS",
                         sub=f"Burrito 2 landed but no badge felt it. Did it hit seat {last}?",
                         options=["yes, a hit", "no, a miss"], chosen=[2, last], progress=0.6, tokens_left=3,
                         ticker=ticker),
        "failsafe": View("failsafe", sample_seats(seats), title="THE TABLE HIT A SNAG", big="PAUSED",
                         sub="OSError: [Errno 5] Input/output error (receiver unplugged?)",
                         hint="Scores are safe in the journal. Any SET: carry on. Hold BRAWL+WAR 5 s: menu"),
        "menu": View("menu", sample_seats(seats), title="TABLE MENU",
                     options=["Back to the game", "Restart: new game", "Shut down the table"], cursor=1,
                     hint="BRAWL / WAR move  -  SET choose  -  DUEL back", tokens_left=3),
        "resume": View("resume", lobby, title="UNFINISHED GAMES",
                       options=["Zombie Burrito - 5 seats - started today 21:14 - 57 events",
                                "Throw Throw Burrito - 4 seats - started yesterday 20:02 - 133 events",
                                "Taco vs Burrito - 3 seats - started Sat 19:40 - 12 events"], cursor=1,
                       sub="2 older unfinished games: burrito-table stats lists them",
                       hint="BRAWL / WAR: choose    SET: carry on    DUEL: new game"),
    }


def render(v: View, size: tuple[int, int] = (1280, 720)) -> pygame.Surface:
    surf = pygame.Surface(size)
    draw(surf, v)
    return surf


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0] if argv else "docs/screens")
    out.mkdir(parents=True, exist_ok=True)
    pygame.font.init()
    from game.registry import GAMES

    views = sample_views()
    for mode in GAMES.values():
        views.update(mode.sample_views())
    for name, v in views.items():
        pygame.image.save(render(v, (1280, 720)), str(out / f"{name}.png"))
        print(out / f"{name}.png")
    return 0


if __name__ == "__main__":
    # run from the imported module: the games register their backdrops (``BASES``) there, not in ``__main__``
    from game.table.screens import main as _main

    sys.exit(_main())
