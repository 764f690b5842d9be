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


def draw_lobby_codes(surface: pygame.Surface, view: Any, base_url: str, book: Any) -> list[pygame.Rect]:
    """Each panel's join code beside its seat card on the lobby screen (the cards ``draw_lobby`` laid out): to its
    right if that is free (so a row of cards shares its gaps out one each), else to its left, above or below it, never
    over the middle where the game and its variants are read, else over the card."""
    from game.table.screens import Painter, table_layout

    p = Painter(surface)
    n = len(view.seats)
    layout = table_layout(p, max(1, n), top=80, bottom=20)  # as draw_lobby lays the lobby out
    joined = set(book.joined())
    screen = surface.get_rect()
    placed: list[pygame.Rect] = []
    for sv, card in zip(view.seats, layout.cards):
        size = max(p.px(90), min(card.height - p.px(36), p.px(170)))
        surf = qr_surface(join_url(base_url, book.join_code(sv.panel)), size)
        gap = p.px(10)
        sides = [surf.get_rect(midleft=(card.right + gap, card.centery - gap)),
                 surf.get_rect(midright=(card.left - gap, card.centery - gap)),
                 surf.get_rect(midbottom=(card.centerx, card.top - gap - p.px(34))),
                 surf.get_rect(midtop=(card.centerx, card.bottom + gap))]
        inside = surf.get_rect(bottomright=(card.right - gap, card.bottom - gap))
        others = [c for c in layout.cards if c is not card]
        rect = next((r for r in sides
                     if screen.contains(r.inflate(0, p.px(40))) and r.collidelist(others) < 0
                     and not r.inflate(0, p.px(40)).colliderect(layout.middle)  # the game and its variants
                     and r.inflate(gap, p.px(40)).collidelist(placed) < 0), inside)
        placed.append(rect)
        surface.blit(surf, rect)
        label = "phone in" if sv.panel in joined else f"phone: panel {sv.panel}"
        p.text(label, 24, (255, 255, 255), (rect.centerx, rect.bottom + p.px(16)), shadow=False, role="aside")
    return placed
