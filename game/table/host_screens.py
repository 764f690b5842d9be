"""The party host's screens: how-to-play pages, attract mode's last winners, the house settings page, and the
device-warning strip drawn over every screen of a live game.

``game.app.screens.draw`` looks these up after its own (so they never replace a game's screen) and draws the
overlay last.
"""

from __future__ import annotations

import pygame

from game.app import screens as sc
from game.app.attract import draw_winners
from game.app.howto import draw_howto
from game.app.present import View
from game.app.screens import CYAN, DARK, GOLD, ORANGE, WHITE, Painter


def draw_settings(p: Painter, v: View) -> None:
    """The table menu's settings page: a compact list (eight lines fit the menu box)."""
    sc.scoreboard_base(p, v, dim=True)
    box = sc.big_box(p, v.title, CYAN, height=860)
    n = max(1, len(v.options))
    step = (box.height - p.px(200)) / n
    for i, opt in enumerate(v.options):
        y = box.top + p.px(100) + step * (i + 0.5)
        if i == v.cursor:
            sel = pygame.Rect(0, 0, int(box.width * 0.86), int(step * 0.86))
            sel.center = (box.centerx, int(y))
            p.panel(sel, CYAN, WHITE, width=4)
        p.text(opt, 50, DARK if i == v.cursor else WHITE, (box.centerx, y), shadow=i != v.cursor, max_w=box.width * 0.82)
    p.text(v.hint, 32, GOLD, (box.centerx, box.bottom - p.px(50)), shadow=False, max_w=box.width * 0.9)


def draw_device_warnings(p: Painter, v: View) -> None:
    """Low batteries and offline devices, on top of whatever a live game shows: never silent."""
    warnings = v.extra.get("device_warnings")
    if not warnings:
        return
    text = "   |   ".join(str(w) for w in warnings[:4]) + (f"   (+{len(warnings) - 4} more)" if len(warnings) > 4 else "")
    strip = pygame.Rect(0, p.px(70), p.w, p.px(54))
    pygame.draw.rect(p.s, ORANGE, strip)
    pygame.draw.rect(p.s, DARK, strip, width=max(2, p.px(4)))
    p.text("DEVICES: " + text, 34, DARK, strip.center, shadow=False, max_w=p.w * 0.96)


SCREENS = {"howto": draw_howto, "attract_winners": draw_winners, "settings": draw_settings}


def overlay(p: Painter, v: View) -> None:
    draw_device_warnings(p, v)
