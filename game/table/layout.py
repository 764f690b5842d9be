"""The layout check: what a screen really drew (``Painter.drawn``) held to the rules of a TV across the room.

Every text's box lies inside its area (its card, its box, the screen), overlaps no other text, is not painted over
by a later panel, and text players read during play is at least ``MIN_TEXT_PX`` tall at 1080p. What was drawn before
a veil (the dimmed board under a box) is background and not checked.

``python -m game.table.layout`` checks every screen of every installed game, as ``tests/test_app_layout.py`` does.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pygame

from game.table.present import View
from game.table.screens import MIN_TEXT_PX, SCREENS, Drawn, Painter, draw, sample_views

SIZES = ((1280, 720), (1920, 1080))


def problems(p: Painter) -> list[str]:
    """Each broken rule of what ``p`` drew, one line each (empty: the screen is fine)."""
    out: list[str] = []
    top = p.layer
    shown = [(i, d) for i, d in enumerate(p.drawn) if d.layer == top]
    texts = [(i, d) for i, d in shown if d.kind == "text" and d.text.strip()]
    screen = p.screen
    for i, t in texts:
        area = t.area.clip(screen) if t.area is not None else screen
        if not area.contains(t.rect):
            where = "the screen" if t.area is None else f"its area {tuple(t.area)}"
            out.append(f"{t.text!r} {tuple(t.rect)} sticks out of {where}")
        if p.h == 1080 and t.role == "play" and t.rect.height < MIN_TEXT_PX:
            out.append(f"{t.text!r} is {t.rect.height} px tall at 1080p (at least {MIN_TEXT_PX})")
        for j, d in shown:
            if j > i and d.kind == "panel" and d.rect.colliderect(t.rect):
                out.append(f"{t.text!r} {tuple(t.rect)} is painted over by a panel {tuple(d.rect)} drawn after it")
                break
    for k, (_, a) in enumerate(texts):
        for _, b in texts[k + 1:]:
            if a.rect.colliderect(b.rect):
                out.append(f"{a.text!r} {tuple(a.rect)} overlaps {b.text!r} {tuple(b.rect)}")
    return out


def screens_of(mode: Any, seats: int) -> dict[str, View]:
    """Every screen of ``mode`` with ``seats`` seats: its own sample views, and the shared screens over its board."""
    own: dict[str, View] = mode.sample_views(seats=seats)
    out = {f"{mode.name}/{k}": v for k, v in own.items()}
    first = next(iter(own.values()), None)
    shared = sample_views(seats=seats)
    for name, v in shared.items():
        if name in ("lobby", "resume"):
            continue  # the lobby shows panels, not a game's seats: checked once per panel count
        board = replace(v, game=mode.name)
        if first is not None:
            board = replace(board, seats=first.seats, extra=dict(first.extra))
        out.setdefault(f"{mode.name}/{name}", board)
    return out


def lobby_screens(panels: int) -> dict[str, View]:
    """The lobby (every game's longest variant list) and the resume offer, with ``panels`` panels."""
    from game.registry import GAMES

    views = sample_views(seats=panels)
    out = {"resume": views["resume"]}
    for mode in GAMES.values():
        out[f"lobby/{mode.name}"] = replace(views["lobby"], title=mode.title, options=[v for v, _ in mode.variants],
                                            cursor=len(mode.variants) - 1)
    return out


def every_screen() -> Iterator[tuple[str, tuple[int, int], View]]:
    """(name, size, view) for every screen of every installed game, each seat count it allows, both sizes."""
    from game.registry import GAMES

    for panels in range(2, 13):
        for name, v in lobby_screens(panels).items():
            for size in SIZES:
                yield f"{name} ({panels} panels)", size, v
    for mode in GAMES.values():
        lo, hi = mode.seats
        for n in range(max(2, lo), hi + 1):
            for name, v in screens_of(mode, n).items():
                for size in SIZES:
                    yield f"{name} ({n} seats)", size, v
    for name in SCREENS:
        if name not in ("lobby", "resume"):
            for size in SIZES:
                yield f"shared/{name} (4 seats)", size, sample_views()[name]
    for module, views in other_samples():
        for name, v in views.items():
            for size in SIZES:
                yield f"{module}/{name}", size, v


def other_samples() -> Iterator[tuple[str, dict[str, View]]]:
    """Sample views of any other screens module of the table app (``game.table.*`` with a ``sample_views()``),
    so screens added beside the shared ones are checked too."""
    import game.table

    for info in sorted(pkgutil.iter_modules(game.table.__path__), key=lambda i: i.name):
        if info.name in ("screens", "layout") or info.ispkg:
            continue
        mod = importlib.import_module(f"game.table.{info.name}")
        fn = getattr(mod, "sample_views", None)
        if callable(fn):
            yield info.name, fn()


def check(view: View, size: tuple[int, int], surface: pygame.Surface | None = None) -> list[str]:
    surf = surface if surface is not None and surface.get_size() == size else pygame.Surface(size)
    p = Painter(surf)
    draw(surf, view, painter=p)
    return problems(p)


def main() -> int:
    pygame.font.init()
    surfaces = {size: pygame.Surface(size) for size in SIZES}
    bad = 0
    count = 0
    for name, size, v in every_screen():
        count += 1
        for line in check(v, size, surfaces[size]):
            bad += 1
            print(f"{name} {size[0]}x{size[1]}: {line}")
    print(f"{count} screens drawn, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["Drawn", "SIZES", "check", "every_screen", "problems", "screens_of"]
