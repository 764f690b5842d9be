"""QR codes for the lobby: one per seat panel, drawn onto the lobby screen, each with that panel's join link.

segno makes the code; it is drawn module by module into a pygame surface (cached per link: a link changes only
when its join code is spent or the table goes back to the lobby).
"""

from __future__ import annotations

import socket
from typing import Any

import pygame
import segno

_cache: dict[tuple[str, int], pygame.Surface] = {}


def qr_surface(text: str, size: int) -> pygame.Surface:
    """``text`` as a QR code about ``size`` pixels square, dark on white with the standard 4-module quiet zone."""
    key = (text, size)
    surf = _cache.get(key)
    if surf is not None:
        return surf
    code = segno.make(text, error="m")
    rows = list(code.matrix)
    n = len(rows) + 8
    scale = max(1, size // n)
    surf = pygame.Surface((n * scale, n * scale))
    surf.fill((255, 255, 255))
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                surf.fill((0, 0, 0), pygame.Rect((x + 4) * scale, (y + 4) * scale, scale, scale))
    if len(_cache) > 64:
        _cache.clear()
    _cache[key] = surf
    return surf


def join_url(base: str, code: str) -> str:
    return f"{base.rstrip('/')}/join/{code}"


def lan_address() -> str:
    """This machine's address on the local network as its hostname resolves, else 127.0.0.1 (no packet is sent)."""
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            addr = str(info[4][0])
            if not addr.startswith("127."):
                return addr
    except OSError:
        pass
    return "127.0.0.1"


LABEL_SIZE = 24  # units (1080ths of the screen height) of the "phone: panel N" line under each code
MIN_SCALE = 2  # pixels per module: at one, a code on a TV is too small to scan from a seat (the last resort)


def _modules(text: str) -> int:
    """The side of ``text``'s QR code in modules, its quiet zone included."""
    n = _modules_cache.get(text)
    if n is None:
        if len(_modules_cache) > 64:
            _modules_cache.clear()
        n = _modules_cache[text] = len(list(segno.make(text, error="m").matrix)) + 8
    return n


_modules_cache: dict[str, int] = {}


def _spots(card: pygame.Rect, w: int, h: int, gap: int) -> list[pygame.Rect]:
    """Where a ``w`` x ``h`` box (a code and its label) may sit beside ``card``, best first: right, left, above,
    below, each centred on that side of the card, then slid to either end of it."""
    right, left = card.right + gap, card.left - gap - w
    above, below = card.top - gap - h, card.bottom + gap
    mid_y, mid_x = card.centery - h // 2, card.centerx - w // 2
    return [pygame.Rect(x, y, w, h) for x, y in (
        (right, mid_y), (left, mid_y), (mid_x, above), (mid_x, below),
        (right, card.top), (right, card.bottom - h), (left, card.top), (left, card.bottom - h),
        (card.left, above), (card.right - w, above), (card.left, below), (card.right - w, below))]


def _fit(cands: list[list[pygame.Rect]], gap: int, budget: int = 20000) -> list[pygame.Rect] | None:
    """One box per card from its candidates, no two within ``gap`` of each other; None if there is no such choice.

    A depth-first search that places the most hemmed-in card next and drops, from every card still to place, the
    boxes the new one rules out (so a dead end shows at once, not a dozen cards later); each card's candidates are
    tried in their order of preference."""
    tries = [budget]

    def go(left: dict[int, list[pygame.Rect]], chosen: dict[int, pygame.Rect]) -> dict[int, pygame.Rect] | None:
        if not left:
            return chosen
        i = min(left, key=lambda k: (len(left[k]), k))
        for r in left[i]:
            tries[0] -= 1
            if tries[0] < 0:
                return None
            grown = r.inflate(gap, gap)
            rest = {k: [q for q in v if not grown.colliderect(q)] for k, v in left.items() if k != i}
            if all(rest.values()) and (done := go(rest, {**chosen, i: r})) is not None:
                return done
        return None

    found = go(dict(enumerate(cands)), {})
    return None if found is None else [found[i] for i in range(len(cands))]


def draw_lobby_codes(surface: pygame.Surface, view: Any, base_url: str, book: Any,
                     painter: Any = None) -> list[pygame.Rect]:
    """Each panel's join code, its label under it, beside its seat card on the lobby screen (the cards
    ``draw_lobby`` laid out). Every code and label stays off every card and the middle, where the game and its
    variants are read, and off each other: the codes shrink, all alike, down to ``MIN_SCALE`` pixels a module (then
    one) until they all fit; only a screen too small for that puts a code over the bottom corner of its own card.
    The labels are recorded in ``painter`` (if given) as ``draw`` records texts."""
    from game.table.screens import Painter, font, table_layout

    p = painter if painter is not None else Painter(surface)
    n = len(view.seats)
    layout = table_layout(p, max(1, n), top=80, bottom=20)  # as draw_lobby lays the lobby out
    joined = set(book.joined())
    screen = surface.get_rect()
    gap = p.px(8)
    label_font = font(max(8, p.px(LABEL_SIZE)))
    label_h = label_font.get_linesize() + p.px(4)
    seats = []
    for sv, card in zip(view.seats, layout.cards):
        url = join_url(base_url, book.join_code(sv.panel))
        label = "phone in" if sv.panel in joined else f"phone: panel {sv.panel}"
        seats.append((card, url, label))
    blocked = [*layout.cards, layout.middle]
    placed: list[pygame.Rect] | None = None
    scale = 1
    for scale in [*range(p.px(170) // min(_modules(url) for _, url, _ in seats), MIN_SCALE - 1, -1), 1]:
        cands = []
        for card, url, _ in seats:
            side = scale * _modules(url)
            if side > max(p.px(90), min(card.height - p.px(36), p.px(170))):  # a card's height less its name strip
                break
            cands.append([r for r in _spots(card, side, side + label_h, gap)
                          if screen.contains(r) and r.inflate(gap, gap).collidelist(blocked) < 0])
        if len(cands) == len(seats) and (placed := _fit(cands, gap)) is not None:
            break
    if placed is None:
        sides = [scale * _modules(url) for _, url, _ in seats]
        placed = [pygame.Rect(card.right - gap - side, card.bottom - gap - side - label_h, side, side + label_h)
                  for (card, _, _), side in zip(seats, sides)]
    codes = []
    for (_, url, label), box in zip(seats, placed):
        surf = qr_surface(url, scale * _modules(url))
        rect = surf.get_rect(midtop=box.midtop)
        surface.blit(surf, rect)
        codes.append(rect)
        p.text(label, LABEL_SIZE, (255, 255, 255), (rect.centerx, rect.bottom + label_h / 2), shadow=False,
               max_w=rect.width, role="aside")  # a smaller font rather than a label past its code
    return codes
