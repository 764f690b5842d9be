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


def draw_lobby_codes(surface: pygame.Surface, view: Any, base_url: str, book: Any) -> None:
    """Each panel's join code under its seat card on the lobby screen (the cards are where ``draw_lobby`` put them)."""
    from game.table.screens import Painter, seat_positions

    p = Painter(surface)
    n = len(view.seats)
    size = p.px(150 if n <= 6 else 110)
    joined = set(book.joined())
    for sv, pos in zip(view.seats, seat_positions(p, n)):
        panel = sv.panel
        surf = qr_surface(join_url(base_url, book.join_code(panel)), size)
        cx, cy = pos[0], pos[1] + p.px(60)
        half = p.px((390 if n <= 6 else 270) / 2)
        rect = surf.get_rect(midleft=(int(cx + half + p.px(12)), int(cy)))
        if rect.right > p.w:
            rect.midright = (int(cx - half - p.px(12)), int(cy))
        surface.blit(surf, rect)
        label = "phone in" if panel in joined else f"phone: panel {panel}"
        p.text(label, 24, (255, 255, 255), (rect.centerx, rect.bottom + p.px(16)), shadow=False)
