"""How to play: a short illustrated sequence per game, from the lobby (hold WAR) and in attract mode.

Each page is a title, at most four short lines (read from 3 m, so few words), and a picture drawn with pygame
primitives like every other screen (no image files). The lines follow the rulebooks in /work/shared/rules and the
buttons follow docs/hardware.md; they teach the first game, the rest is in the rulebook in the box.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from game.table.present import SeatView, View
from game.table.screens import CYAN, DARK, GOLD, GREY, LIME, ORANGE, PINK, RED, WHITE, Painter, background

ZOMBIE = (110, 230, 70)
SURVIVOR = (255, 150, 30)


@dataclass(frozen=True)
class Page:
    """One how-to-play page; a game lists its pages in ``GameMode.howto()``."""

    title: str
    lines: tuple[str, ...]  # at most four, short: they are read from across the room
    picture: str  # a key of PICTURES
    args: tuple[str, ...] = ()
    accent: tuple[int, int, int] = PINK  # the game's colour for the frame and the heading


def pages_of(game: str) -> tuple[Page, ...]:
    """The installed game's how-to pages (none for an unknown game or one that has none)."""
    from game.registry import GAMES

    mode = GAMES.get(game)
    return tuple(mode.howto()) if mode is not None else ()


def howto_view(game: str, page: int, seats: list[SeatView] | None = None, hint: str = "", banner: str = "") -> View:
    """The View of one page of ``game``'s how-to-play (``page`` wraps round); the game must have pages."""
    from game.registry import GAMES

    pages = pages_of(game)
    k = page % len(pages)
    return View("howto", seats or [], title=pages[k].title, banner=banner,
                hint=hint or "WAR: next    BRAWL: back    DUEL: lobby", game=game,
                extra={"howto_page": pages[k], "howto_title": GAMES[game].title.upper(), "page": k,
                       "pages": len(pages)})


def draw_howto(p: Painter, v: View) -> None:
    page: Page = v.extra["howto_page"]
    k = int(v.extra["page"])
    accent = page.accent
    background(p, accent)
    p.text(f"HOW TO PLAY  {v.extra['howto_title']}", 54, accent, (p.w / 2, p.px(80)), max_w=p.w * 0.9)
    p.text(page.title, 110, GOLD, (p.w / 2, p.px(190)), max_w=p.w * 0.9)
    art = pygame.Rect(p.px(70), p.px(280), int(p.w * 0.44), p.px(600))
    p.panel(art, DARK, accent, width=8, radius=30)
    PICTURES.get(page.picture, pic_cards)(p, art, page.args)
    x = art.right + (p.w - art.right) / 2
    for i, line in enumerate(page.lines):
        p.text(line, 58, WHITE, (x, p.px(380 + 100 * i)), max_w=(p.w - art.right) * 0.92)
    # page dots
    n = int(v.extra["pages"])
    for i in range(n):
        c = (int(x + (i - (n - 1) / 2) * p.px(50)), p.px(850))
        pygame.draw.circle(p.s, GOLD if i == k else GREY, c, p.px(14 if i == k else 10))
    if v.hint:
        p.text(v.hint, 40, LIME, (p.w / 2, p.h - p.px(70)), shadow=False, max_w=p.w * 0.9)
    if v.banner:
        strip = pygame.Rect(0, p.px(12), p.w, p.px(56))
        pygame.draw.rect(p.s, GOLD, strip)
        p.text(v.banner, 34, DARK, strip.center, shadow=False, max_w=p.w * 0.95)


# -- pictures ---------------------------------------------------------------------------------------------


def _seat_ring(p: Painter, r: pygame.Rect, n: int, colours: list[tuple[int, int, int]],
               labels: list[str] | None = None) -> list[tuple[float, float]]:
    cx, cy = r.center
    rx, ry = r.width * 0.36, r.height * 0.34
    pts = []
    pygame.draw.ellipse(p.s, (60, 40, 30), pygame.Rect(cx - rx * 0.7, cy - ry * 0.7, rx * 1.4, ry * 1.4))
    for i in range(n):
        a = math.pi / 2 + 2 * math.pi * (i + 0.5) / n
        x, y = cx + rx * math.cos(a), cy + ry * math.sin(a)
        pts.append((x, y))
        pygame.draw.circle(p.s, colours[i], (int(x), int(y)), p.px(48))
        pygame.draw.circle(p.s, DARK, (int(x), int(y)), p.px(48), max(2, p.px(5)))
        p.text(labels[i] if labels else str(i + 1), 48, DARK, (x, y), shadow=False)
    return pts


def pic_cards(p: Painter, r: pygame.Rect, args: tuple[str, ...]) -> None:
    mark = args[0] if args else "+1"
    w, h = p.px(150), p.px(220)
    for i in range(3):
        card = pygame.Rect(0, 0, w, h)
        card.center = (int(r.centerx + (i - 1) * w * 0.75), int(r.centery - p.px(30) + abs(i - 1) * p.px(20)))
        p.panel(card, WHITE, DARK, width=5, radius=16)
        p.burrito(card.center, p.px(40), ORANGE if mark != "ADV" else ZOMBIE)
    p.text(mark if mark != "ADV" else "ADVANTAGE", 90, LIME, (r.centerx, r.bottom - p.px(90)), max_w=r.width * 0.9)


def pic_buttons(p: Painter, r: pygame.Rect, args: tuple[str, ...]) -> None:
    colours = (LIME, RED, CYAN, GOLD)
    keys = ("SET", "BRAWL", "WAR", "DUEL")
    for i, label in enumerate(args[:4]):
        cx = r.left + r.width * (i + 0.5) / 4
        cy = r.centery - p.px(40)
        pygame.draw.circle(p.s, colours[i], (int(cx), int(cy)), p.px(62))
        pygame.draw.circle(p.s, WHITE, (int(cx), int(cy)), p.px(62), max(2, p.px(6)))
        p.text(label, 40, WHITE, (cx, cy + p.px(110)), max_w=r.width / 4 * 0.95)
        if label != keys[i]:
            p.text(keys[i], 28, GREY, (cx, cy + p.px(155)), shadow=False)


def pic_table(p: Painter, r: pygame.Rect, args: tuple[str, ...]) -> None:
    colours = [(70, 60, 150)] * 6
    colours[0] = GOLD
    colours[1] = colours[5] = RED
    pts = _seat_ring(p, r, 6, colours)
    a, b = pts[1], pts[5]
    pygame.draw.line(p.s, RED, a, b, max(3, p.px(10)))
    p.text("BRAWL!", 64, RED, (r.centerx, r.centery), max_w=r.width * 0.5)
    p.text("you", 36, GOLD, (pts[0][0], pts[0][1] + p.px(75)), shadow=False)


def pic_throw(p: Painter, r: pygame.Rect, args: tuple[str, ...]) -> None:
    word = args[0] if args else "HIT!"
    left = (r.left + r.width * 0.18, r.bottom - p.px(150))
    right = (r.right - r.width * 0.18, r.bottom - p.px(150))
    for (x, y), c in ((left, CYAN), (right, RED if word != "CATCH!" else LIME)):
        pygame.draw.circle(p.s, c, (int(x), int(y - p.px(70))), p.px(40))
        pygame.draw.rect(p.s, c, pygame.Rect(int(x - p.px(40)), int(y - p.px(30)), p.px(80), p.px(130)),
                         border_radius=p.px(20))
    pts = []
    for i in range(21):
        t = i / 20
        pts.append((left[0] + (right[0] - left[0]) * t, left[1] - p.px(90) - math.sin(math.pi * t) * p.px(250)))
    pygame.draw.lines(p.s, GREY, False, pts, max(2, p.px(5)))
    p.burrito(pts[15], p.px(40), ORANGE)
    p.text(word, 110, RED if word != "CATCH!" else LIME, (r.centerx, r.top + p.px(90)))


def pic_badge(p: Painter, r: pygame.Rect, args: tuple[str, ...]) -> None:
    p.star((r.centerx, r.centery - p.px(30)), p.px(200), GOLD)
    p.text("FEAR ME", 70, DARK, (r.centerx, r.centery - p.px(20)), shadow=False)
    p.text("ROUND 1 + ROUND 2", 44, WHITE, (r.centerx, r.bottom - p.px(60)), shadow=False)


def pic_teams(p: Painter, r: pygame.Rect, args: tuple[str, ...]) -> None:
    _seat_ring(p, r, 6, [ZOMBIE, ZOMBIE, ZOMBIE, SURVIVOR, SURVIVOR, SURVIVOR], ["Z", "Z", "Z", "S", "S", "S"])
    p.text("ZOMBIES", 44, ZOMBIE, (r.left + r.width * 0.25, r.top + p.px(50)), shadow=False)
    p.text("SURVIVORS", 44, SURVIVOR, (r.right - r.width * 0.25, r.top + p.px(50)), shadow=False)


def pic_markers(p: Painter, r: pygame.Rect, args: tuple[str, ...]) -> None:
    for row, (team, colour, flipped) in enumerate((("ZOMBIES", ZOMBIE, 2), ("SURVIVORS", SURVIVOR, 3))):
        y = r.top + r.height * (0.32 + 0.36 * row)
        p.text(team, 48, colour, (r.left + r.width * 0.26, y), shadow=False)
        for i in range(3):
            c = (int(r.left + r.width * (0.55 + 0.15 * i)), int(y))
            pygame.draw.circle(p.s, colour if i < flipped else DARK, c, p.px(42))
            pygame.draw.circle(p.s, WHITE if i < flipped else GREY, c, p.px(42), max(2, p.px(5)))
    p.text("3 = WIN", 56, GOLD, (r.centerx, r.bottom - p.px(50)))


def pic_meal(p: Painter, r: pygame.Rect, args: tuple[str, ...]) -> None:
    cards = (("+3", LIME), ("+2", LIME), ("-2", RED), ("x2", ORANGE))
    w, h = p.px(140), p.px(200)
    for i, (label, c) in enumerate(cards):
        card = pygame.Rect(0, 0, w, h)
        card.center = (int(r.left + r.width * (i + 0.5) / 4), int(r.centery - p.px(40)))
        p.panel(card, WHITE, c, width=8, radius=16)
        p.text(label, 64, c, card.center, shadow=False)
    p.text("BURRITO = 6", 60, GOLD, (r.centerx, r.bottom - p.px(80)))


def pic_nobueno(p: Painter, r: pygame.Rect, args: tuple[str, ...]) -> None:
    c = (r.centerx, r.centery - p.px(40))
    pygame.draw.circle(p.s, RED, c, p.px(150))
    pygame.draw.circle(p.s, WHITE, c, p.px(150), max(3, p.px(8)))
    p.text("NO", 90, WHITE, (c[0], c[1] - p.px(35)), shadow=False)
    p.text("BUENO", 70, WHITE, (c[0], c[1] + p.px(40)), shadow=False)
    bar = pygame.Rect(r.left + p.px(60), r.bottom - p.px(90), int((r.width - p.px(120)) * 0.6), p.px(30))
    pygame.draw.rect(p.s, CYAN, bar, border_radius=p.px(12))


def pic_inspector(p: Painter, r: pygame.Rect, args: tuple[str, ...]) -> None:
    c = (r.centerx, r.centery - p.px(60))
    pygame.draw.circle(p.s, WHITE, c, p.px(110))
    hat = (60, 90, 200)
    pygame.draw.rect(p.s, hat, pygame.Rect(c[0] - p.px(130), c[1] - p.px(140), p.px(260), p.px(50)), border_radius=p.px(10))
    pygame.draw.rect(p.s, hat, pygame.Rect(c[0] - p.px(80), c[1] - p.px(200), p.px(160), p.px(80)), border_radius=p.px(10))
    for dx in (-40, 40):
        pygame.draw.circle(p.s, DARK, (c[0] + p.px(dx), c[1] - p.px(10)), p.px(14))
    pygame.draw.arc(p.s, DARK, pygame.Rect(c[0] - p.px(50), c[1] + p.px(30), p.px(100), p.px(50)), 0.2, math.pi - 0.2,
                    max(2, p.px(6)))
    p.text("INTO THE TRASH!", 56, RED, (r.centerx, r.bottom - p.px(70)), max_w=r.width * 0.9)


PICTURES: dict[str, Callable[[Painter, pygame.Rect, tuple[str, ...]], None]] = {
    "cards": pic_cards, "buttons": pic_buttons, "table": pic_table, "throw": pic_throw, "badge": pic_badge,
    "teams": pic_teams, "markers": pic_markers, "meal": pic_meal, "nobueno": pic_nobueno, "inspector": pic_inspector,
}
