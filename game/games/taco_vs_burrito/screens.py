"""The shared screen for Taco vs Burrito: the table, the No Bueno countdown, the Food Fight and the end.

Drawn with the app's arcade helpers (``game.table.screens``: backdrop, fonts, seat positions), from a
:class:`~game.games.taco_vs_burrito.buttons.TacoView` only, so the screenshot tests build views by hand. Cards are chips coloured
by kind with their value in big type (readable from 3 m); a face-down card is a card back with a "?".

``python -m game.games.taco_vs_burrito.screens DIR`` writes one PNG per screen (``docs/screens/taco_*.png``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame

from game.games.taco_vs_burrito.buttons import HandShow, SeatPanel, TacoView
from game.games.taco_vs_burrito.rules import name as tvb_name
from game.table import screens as _sc
from game.table.howto import Page
from game.table.screens import (
    CYAN,
    DARK,
    GOLD,
    GREY,
    LIME,
    ORANGE,
    PINK,
    RED,
    WHITE,
    Painter,
    background,
)

PURPLE = (170, 90, 255)
#: chip colour and face text of each card
CHIPS: dict[str, tuple[tuple[int, int, int], str]] = {
    "ingredient-1": (LIME, "+1"), "ingredient-2": (LIME, "+2"), "ingredient-3": (LIME, "+3"),
    "tummy-ache-1": (RED, "-1"), "tummy-ache-2": (RED, "-2"), "tummy-ache-3": (RED, "-3"),
    "hot-sauce-boss": (ORANGE, "x2"), "health-inspector": (GREY, "INSP"), "no-bueno": (PINK, "NO"),
    "crafty-crow": (CYAN, "CROW"), "trash-panda": ((150, 150, 170), "PANDA"), "food-fight": (GOLD, "FIGHT"),
    "order-envy": (PURPLE, "ENVY"),
}
NAMES = {"hot-sauce-boss": "hot sauce", "no-bueno": "no bueno", "crafty-crow": "crafty crow",
         "trash-panda": "trash panda", "food-fight": "food fight", "order-envy": "order envy"}
BACK = ((60, 40, 120), "?")


def chip_face(card: str | None) -> tuple[tuple[int, int, int], str]:
    if card is None:
        return BACK
    if card in CHIPS:
        return CHIPS[card]
    kind_value = card.rsplit("-", 1)
    if card.startswith("ingredient-") and kind_value[-1].isdigit():
        return LIME, f"+{kind_value[-1]}"
    if card.startswith("tummy-ache-") and kind_value[-1].isdigit():
        return RED, f"-{kind_value[-1]}"
    return GREY, card[:5].upper()


def chip_width(p: Painter, card: str | None, h: float) -> int:
    """A card ``h`` units tall is 0.7 h wide, wider when its face is a word, so the word is never squeezed."""
    face = chip_face(card)[1]
    if len(face) <= 2:
        return p.px(h * 0.7)
    return max(p.px(h * 0.7), _sc.font(p.px(face_size(h, face))).size(face)[0] + p.px(16))


def face_size(h: float, face: str) -> float:
    return max(_sc.MIN_TEXT, h * (0.5 if len(face) <= 2 else 0.3))


def card_chip(p: Painter, card: str | None, center: tuple[float, float], h: float, selected: bool = False,
              caption: bool = False) -> pygame.Rect:
    """One card, ``h`` units tall; ``selected`` gets a gold frame; ``caption`` writes its name under it."""
    colour, face = chip_face(card)
    rect = pygame.Rect(0, 0, chip_width(p, card, h), p.px(h))
    rect.center = (int(center[0]), int(center[1]))
    if selected:
        glow = rect.inflate(p.px(h * 0.18), p.px(h * 0.18))
        pygame.draw.rect(p.s, GOLD, glow, border_radius=p.px(h * 0.16))
    p.panel(rect, colour if card is not None else BACK[0], DARK, width=max(2, h / 22), radius=h * 0.12)
    p.text(face, face_size(h, face), DARK if card is not None else WHITE, rect.center, shadow=False,
           area=rect.inflate(-p.px(4), 0))
    if caption and card is not None:
        name = NAMES.get(card, "")
        if name:
            p.text(name, max(_sc.MIN_TEXT, h * 0.17), WHITE, (rect.centerx, rect.bottom + p.px(h * 0.14)),
                   shadow=False)
    return rect


def chip_row(p: Painter, cards: list[str | None], center: tuple[float, float], h: float, max_w: float,
             cursor: int | None = None) -> None:
    """Cards side by side, centred; a row wider than ``max_w`` pixels gets smaller cards (down to the smallest
    readable face), and only then do the cards overlap."""
    if not cards:
        return
    gap = p.px(10)
    while True:
        widths = [chip_width(p, c, h) for c in cards]
        total = sum(widths) + gap * (len(cards) - 1)
        if total <= max_w or h * 0.5 <= _sc.MIN_TEXT:
            break
        h *= 0.92
    step_gap = gap if total <= max_w else gap - (total - max_w) / max(1, len(cards) - 1)
    x = center[0] - min(total, max_w) / 2
    for i, (c, w) in enumerate(zip(cards, widths)):
        card_chip(p, c, (x + w / 2, center[1]), h, selected=cursor == i)
        x += w + step_gap


def tvb_card_size(n: int) -> tuple[int, int]:
    return (460, 290) if n <= 4 else (420, 280)


def seat_box(p: Painter, sp: SeatPanel, rect: pygame.Rect, hand: HandShow | None) -> None:
    colour = GOLD if sp.turn or sp.winner else (70, 60, 150)
    if sp.turn or sp.winner:
        pygame.draw.rect(p.s, GOLD, rect.inflate(p.px(24), p.px(24)), border_radius=p.px(30))
    p.panel(rect, (30, 26, 70), colour, width=8 if sp.turn else 5)
    head, body = _sc.header(p, rect, colour, share=0.2)
    name_r, score_r = _sc.columns(head.inflate(-p.px(16), 0), (0.78, 0.22))
    who = sp.name.upper() if sp.name else f"SEAT {sp.seat}"
    label = who + (f"  bot: {sp.bot}" if sp.bot else "")
    note = sp.flash if len(sp.flash) > 10 else ""  # a sentence (a refused NO BUENO) takes the meal's row a moment
    if sp.flash and not note:
        label = f"{who}: {sp.flash}"
    ink = _sc.header_ink(colour)
    p.text(label, 44, ink, name_r.center, shadow=False, area=name_r)
    score = "?" if sp.score is None else str(sp.score)
    p.text(score, 56, ink, score_r.center, shadow=False, area=score_r)
    meal_r, hand_r = _sc.split_rows(body.inflate(-p.px(12), -p.px(10)), 2)
    if note:
        p.fit(note, 48, PINK, meal_r, shadow=True, max_lines=2)
    elif sp.meal:
        chip_row(p, list(sp.meal), meal_r.center, meal_r.height / p.u * 0.92, meal_r.width)
    else:
        p.text("empty meal", 44, GREY, meal_r.center, shadow=False, area=meal_r)
    if hand is not None:
        chip_row(p, list(hand.cards), hand_r.center, hand_r.height / p.u * 0.86, hand_r.width * 0.96,
                 cursor=hand.cursor)
    else:
        backs_r, count_r = _sc.columns(hand_r, (0.42, 0.58))
        backs = min(sp.hand_size, 8)
        bw = min(p.px(28), backs_r.width / max(1, backs) * 0.8)
        for i in range(backs):
            r = pygame.Rect(0, 0, int(bw), int(min(backs_r.height * 0.8, p.px(56))))
            r.center = (int(backs_r.left + bw * 0.7 + i * bw * 1.15), backs_r.centery)
            pygame.draw.rect(p.s, BACK[0], r, border_radius=p.px(5))
            pygame.draw.rect(p.s, DARK, r, width=2, border_radius=p.px(5))
        p.text(f"{sp.hand_size} in hand", 44, CYAN, count_r.center, shadow=False, area=count_r)


_dimmed: dict[tuple[int, int], tuple[str, pygame.Surface]] = {}


def table_base(p: Painter, v: TacoView, accent: tuple[int, int, int] = LIME, dim: bool = False) -> None:
    """The table seen from above: seats with meals and hands, the pile and the trash; ``dim`` veils it for a box.

    A dimmed table (under the countdown, which redraws every frame) is kept until the table itself changes: the
    full-screen veil is most of a frame's cost.
    """
    if dim:
        key = repr((v.seats, v.variant, v.hands_mode, v.draw_pile, v.trash_top, v.trash, v.title, v.ticker,
                    v.hands, v.banner, accent))
        cached = _dimmed.get((p.w, p.h))
        if cached is not None and cached[0] == key:
            p.s.blit(cached[1], (0, 0))
            p.veil()
            return
        _table(p, v, accent, dim)
        _dimmed[(p.w, p.h)] = (key, p.s.copy())
        return
    _table(p, v, accent, dim)


def _table(p: Painter, v: TacoView, accent: tuple[int, int, int], dim: bool) -> None:
    background(p, accent)
    n = len(v.seats)
    open_hands = {h.seat: h for h in v.hands} if v.hands_mode == "open" else {}
    layout = _sc.table_layout(p, max(1, n), top=80 if v.banner else 24, bottom=80, card=tvb_card_size(n))
    for sp, rect in zip(v.seats, layout.cards):
        seat_box(p, sp, rect, open_hands.get(sp.seat))
    mid = layout.middle
    variant = {"open": "", "secret": "SECRET: meals face down", "super-secret": "SUPER SECRET: nobody looks"}
    shares = (0.2, 0.42, 0.12, 0.26) if variant.get(v.variant) else (0.2, 0.48, 0.0, 0.32)
    parts, y = [], float(mid.top)
    for sh in shares:
        parts.append(pygame.Rect(mid.left, int(y), mid.width, int(mid.height * sh)))
        y += mid.height * sh
    title_r, piles_r, variant_r, ticker_r = parts
    p.text(v.title or "TACO vs BURRITO", min(72, title_r.height / p.u * 1.2), GOLD, title_r.center, area=title_r)
    # the draw pile and the trash, each with its label beside it
    ch = min(140, piles_r.height / p.u * 0.9)
    left, right = _sc.columns(piles_r, (0.5, 0.5))
    pile = pygame.Rect(0, 0, p.px(ch * 0.7), p.px(ch))
    pile.center = (left.right - p.px(ch * 0.45), left.centery)
    for k in range(min(3, max(1, v.draw_pile // 10))):
        p.panel(pile.move(p.px(4) * k, -p.px(4) * k), BACK[0], DARK, width=3, radius=12)
    top_pile = pile.move(p.px(4) * (min(3, max(1, v.draw_pile // 10)) - 1), -p.px(4) * (min(3, max(1, v.draw_pile // 10)) - 1))
    p.text(str(v.draw_pile), min(60, ch * 0.42), WHITE, top_pile.center, area=top_pile)
    label_l = pygame.Rect(left.left, left.top, pile.left - p.px(10) - left.left, left.height)
    p.text("draw", 44, GREY, (label_l.right - p.px(60), label_l.centery), shadow=False, area=label_l)
    trash_c = (right.left + p.px(ch * 0.45) + p.px(10), right.centery)
    if v.trash_top is not None:
        tr = card_chip(p, v.trash_top, trash_c, ch)
    else:
        tr = pygame.Rect(0, 0, p.px(ch * 0.7), p.px(ch))
        tr.center = (int(trash_c[0]), int(trash_c[1]))
        p.panel(tr, (20, 16, 50), GREY, 3, 12)
    label_r = pygame.Rect(tr.right + p.px(10), right.top, right.right - tr.right - p.px(10), right.height)
    p.text(f"trash {v.trash}", 44, GREY, (label_r.left + p.px(80), label_r.centery), shadow=False, area=label_r)
    if variant.get(v.variant):
        p.text(variant[v.variant], min(48, variant_r.height / p.u * 1.15), PINK, variant_r.center, shadow=False,
               area=variant_r)
    _sc.ticker_lines(p, _sc.View("", [], ticker=v.ticker), ticker_r, lines=2)
    if v.banner:
        strip = pygame.Rect(0, p.px(12), p.w, p.px(56))
        p.fill(strip, GOLD)
        p.text(v.banner, 40, DARK, strip.center, shadow=False, area=strip, role="aside")
    if v.hint and not dim:
        band = pygame.Rect(p.px(16), p.h - p.px(76), p.w - p.px(32), p.px(60))
        p.text(v.hint, 42, WHITE, band.center, shadow=False, area=band)
    if v.race and not dim:
        p.text(v.race, 44, PINK, (p.w / 2, p.h - p.px(95)), max_w=p.w * 0.9)
    if dim:
        _sc.scoreboard_veil(p)  # one cached translucent surface per size


def box(p: Painter, title: str, colour: tuple[int, int, int], height: float, width: float = 0.62) -> pygame.Rect:
    rect = pygame.Rect(0, 0, int(p.w * width), p.px(height))
    rect.center = (p.w // 2, int(p.h * 0.5))
    p.panel(rect, DARK, colour, width=12, radius=40)
    if title:
        tag = pygame.Rect(0, 0, int(p.w * 0.34), p.px(86))
        tag.center = (rect.centerx, rect.top)
        p.panel(tag, colour, DARK, width=6, radius=28)
        p.text(title, 62, DARK, tag.center, shadow=False, area=tag.inflate(-p.px(20), 0))
    return rect


def peek_panel(p: Painter, hand: HandShow) -> None:
    """Hold-to-peek: one seat's hand big along the bottom while that seat holds PLAY (over the table)."""
    p.veil()  # a panel over the table: what it covers is not read while it is up
    rect = pygame.Rect(0, 0, int(p.w * 0.94), p.px(320))
    rect.midbottom = (p.w // 2, p.h - p.px(16))
    p.panel(rect, DARK, CYAN, width=8, radius=30)
    head = pygame.Rect(rect.left, rect.top + p.px(10), rect.width, p.px(56))
    p.text(f"SEAT {hand.seat}'S HAND (peek: keep holding PLAY)", 44, CYAN, head.center, shadow=False, area=head)
    body = pygame.Rect(rect.left + p.px(20), head.bottom, rect.width - p.px(40), rect.bottom - head.bottom - p.px(16))
    cards_r, meal_r = _sc.columns(body, (0.72, 0.28)) if hand.meal else (body, None)
    cards: list[str | None] = list(hand.cards)
    chip_row(p, cards, cards_r.center, min(190, cards_r.height / p.u * 0.8), cards_r.width * 0.96,
             cursor=hand.cursor if hand.picked is None else None)
    if hand.meal and meal_r is not None:
        label = pygame.Rect(meal_r.left, meal_r.top, meal_r.width, p.px(50))
        p.text("my meal", 44, GREY, label.center, shadow=False, area=label)
        chips = pygame.Rect(meal_r.left, label.bottom, meal_r.width, meal_r.bottom - label.bottom)
        chip_row(p, list(hand.meal), chips.center, min(110, chips.height / p.u * 0.85), chips.width * 0.96)


def draw_table(p: Painter, v: TacoView) -> None:
    table_base(p, v)
    _overlays(p, v)


def draw_window(p: Painter, v: TacoView) -> None:
    """The block window: the waiting card, the No Bueno chain, and a big countdown that runs out."""
    table_base(p, v, accent=PINK, dim=True)
    colour = PINK if len(v.chain) % 2 else GOLD
    b = box(p, v.title, colour, 600)
    area = b.inflate(-p.px(60), -p.px(60))
    p.text(v.big, 96, WHITE, (b.centerx, b.top + p.px(110)), area=area)
    if v.sub:
        p.text(v.sub, 48, GREY, (b.centerx, b.top + p.px(180)), shadow=False, area=area)
    p.text(f"{v.countdown:.1f}", 200, colour, (b.centerx, b.top + p.px(310)), area=area)
    bar = pygame.Rect(b.left + p.px(60), b.top + p.px(420), int((b.width - p.px(120)) * v.progress), p.px(30))
    pygame.draw.rect(p.s, colour, bar, border_radius=p.px(14))
    chain = "   ".join(("NO BUENO" if i % 2 == 0 else "SI BUENO") + f" seat {s}" for i, s in enumerate(v.chain))
    p.text(chain or "nobody has blocked", 48, colour if chain else GREY, (b.centerx, b.top + p.px(510)), area=area)
    if v.hint:
        band = pygame.Rect(p.px(16), p.h - p.px(76), p.w - p.px(32), p.px(60))
        p.text(v.hint, 44, WHITE, band.center, shadow=False, area=band)
    # the race, and any NO BUENO the rules refused (its seat's card is under the veil now), under the box
    said = [v.race] if v.race else []
    said += [f"seat {sp.seat}: {sp.flash}" for sp in v.seats if len(sp.flash) > 10]
    if said:
        band = pygame.Rect(p.px(16), b.bottom + p.px(8), p.w - p.px(32), p.h - p.px(80) - b.bottom - p.px(8))
        for line, row in zip(said[:2], _sc.split_rows(band, min(2, len(said)))):
            p.text(line, 46, PINK, row.center, area=row)
    _overlays(p, v)


def draw_foodfight(p: Painter, v: TacoView) -> None:
    table_base(p, v, accent=GOLD, dim=True)
    b = box(p, v.title or "FOOD FIGHT", GOLD, 560, width=0.8)
    area = b.inflate(-p.px(40), -p.px(60))
    p.text(v.sub, 56, WHITE, (b.centerx, b.top + p.px(100)), area=area)
    cards = v.flipped
    if cards:
        step = min(p.px(260), int(area.width / len(cards)))
        x0 = b.centerx - step * (len(cards) - 1) / 2
        for i, (seat, card) in enumerate(cards):
            card_chip(p, card, (x0 + i * step, b.top + p.px(290)), 190)
            cell = pygame.Rect(int(x0 + i * step - step / 2), b.top + p.px(400), step, p.px(60))
            p.text(f"seat {seat}", 48, CYAN, cell.center, shadow=False, area=cell)
    _overlays(p, v)


def draw_over(p: Painter, v: TacoView) -> None:
    table_base(p, v, accent=GOLD, dim=True)
    b = box(p, v.title or "GAME OVER", GOLD, 860)
    area = b.inflate(-p.px(60), -p.px(70))
    p.text(v.big, 110, GOLD, (b.centerx, b.top + p.px(120)), area=area)
    p.text(v.sub, 56, LIME, (b.centerx, b.top + p.px(205)), area=area)
    scores = [s.score or 0 for s in v.seats]
    ranked = sorted(v.seats, key=lambda s: (-(s.score or 0), s.seat))
    table = pygame.Rect(area.left, b.top + p.px(250), area.width, area.bottom - b.top - p.px(250))
    rows = _sc.split_rows(table, max(6, len(ranked)))
    for sp, row in zip(ranked, rows):
        colour = GOLD if sp.winner else WHITE
        place = 1 + sum(1 for q in scores if q > (sp.score or 0))
        tied = sum(1 for q in scores if q == (sp.score or 0)) > 1
        c0, c1, c2, c3 = _sc.columns(row, (0.12, 0.3, 0.3, 0.28))
        size = min(56, row.height / p.u * 1.1)
        p.text(f"{place}{'=' if tied else '.'}", size, colour, c0.center, area=c0)
        p.text(f"SEAT {sp.seat}", size, colour, c1.center, area=c1)
        score = sp.score if sp.score is not None else "?"
        p.text(f"{score} pt" if score in (1, -1) else f"{score} pts", size, colour, c2.center, area=c2)
        p.text(f"{len(sp.meal)} card{'s' if len(sp.meal) != 1 else ''}", max(40, size * 0.8), GREY, c3.center,
               shadow=False, area=c3)


def choose_strip(p: Painter, hand: HandShow, y: float) -> None:
    """A seat choosing where its picked card goes: the options in a row, the cursor's one lit."""
    p.veil()
    opts = hand.options
    rect = pygame.Rect(0, 0, int(p.w * 0.96), p.px(130))
    rect.center = (p.w // 2, int(y))
    p.panel(rect, DARK, LIME, width=6, radius=26)
    what = NAMES.get(hand.picked or "", (hand.picked or "a card").replace("-", " "))
    label = pygame.Rect(rect.left + p.px(16), rect.top, p.px(360), rect.height)
    p.fit(f"SEAT {hand.seat}: {what} ->", 44, LIME, label.inflate(0, -p.px(10)), max_lines=2)
    if not opts:
        return
    cur = hand.option % len(opts)
    first = max(0, min(cur - 1, len(opts) - 4))  # a long list (a Crow's many items) scrolls with the cursor
    shown = opts[first:first + 4]
    left = label.right + p.px(10)
    step = (rect.right - p.px(16) - left) / len(shown)
    for i, text in enumerate(shown, start=first):
        cx = left + step * (i - first + 0.5)
        chip = pygame.Rect(0, 0, int(step * 0.96), p.px(104))
        chip.center = (int(cx), rect.centery)
        lit = i == cur
        p.panel(chip, LIME if lit else (30, 26, 70), WHITE if lit else GREY, width=4, radius=16)
        p.fit(text, 44, DARK if lit else WHITE, chip.inflate(-p.px(12), -p.px(8)), max_lines=2)


def _overlays(p: Painter, v: TacoView) -> None:
    if v.hands_mode != "open":
        for hand in v.hands[:1]:
            peek_panel(p, hand)
            if hand.options:
                choose_strip(p, hand, p.h - p.px(420))
    for i, hand in enumerate(v.choosing[:2]):
        choose_strip(p, hand, p.h - p.px(170 + 150 * i))


SCREENS = {"table": draw_table, "window": draw_window, "foodfight": draw_foodfight, "over": draw_over}


def draw(surface: pygame.Surface, v: TacoView) -> None:
    """Draw one frame of ``v`` on ``surface``."""
    SCREENS.get(v.screen, draw_table)(Painter(surface), v)


# -- sample views: screenshot tests and docs pictures --------------------------------------------------------


def sample_seats(n: int = 4, secret: bool = False) -> list[SeatPanel]:
    meals: list[list[str | None]] = [
        ["ingredient-3", "tummy-ache-1", "ingredient-2"], ["hot-sauce-boss", "ingredient-1"], ["tummy-ache-2"],
        ["ingredient-2", "ingredient-3", "ingredient-1", "hot-sauce-boss"], [], ["ingredient-1"]]
    scores = [4, 2, -2, 12, 0, 1]
    out = []
    for s in range(1, n + 1):
        meal = meals[s - 1]
        shown: list[str | None] = [None] * len(meal) if secret else list(meal)
        out.append(SeatPanel(s, None if secret else scores[s - 1], shown, 5 - (s % 3), bot="" if s == 1 else
                             ("hard" if s == 2 else "normal"), turn=s == 2))
    return out


def sample_views(n: int = 4) -> dict[str, TacoView]:
    """One TacoView per screen and hand mode, with fixed made-up content, for ``n`` seats."""
    ticker = ["Seat 1 puts Ingredient 3 in its own meal", "Seat 2 plays Crafty Crow on seat 4's meal"]
    hand = HandShow(1, ["ingredient-3", "no-bueno", "crafty-crow", "tummy-ache-2", "order-envy"], cursor=2,
                    meal=["ingredient-3", "tummy-ache-1", "ingredient-2"])
    hint = "LEFT / RIGHT browse  -  tap PLAY pick  -  hold PLAY peek  -  NO BUENO block"
    open_hands = [HandShow(s, c, cursor=0) for s, c in
                  [(1, ["ingredient-3", "no-bueno", "crafty-crow"]), (2, ["food-fight", "ingredient-1"]),
                   (3, ["tummy-ache-3", "trash-panda", "no-bueno", "ingredient-2"]), (4, ["order-envy"]),
                   (5, ["health-inspector", "ingredient-2"]), (6, ["hot-sauce-boss"])] if s <= n]
    refused = sample_seats(n)
    refused[-1].flash = "NO BUENO? your own card"  # a press the rules refuse says why on the card
    over = sample_seats(n)
    over[min(3, n - 1)].winner = True
    for sp in over:
        sp.turn = False
    return {
        "table": TacoView("table", refused, draw_pile=28, trash_top="no-bueno", trash=6,
                          title="SEAT 2'S TURN", ticker=ticker, hint=hint, banner="SIMULATION MODE"),
        "peek": TacoView("table", sample_seats(n), draw_pile=28, trash_top="no-bueno", trash=6,
                         title="SEAT 2'S TURN", ticker=ticker, hands=[hand]),
        "open": TacoView("table", sample_seats(n), hands_mode="open", draw_pile=21, trash_top="tummy-ache-1",
                         trash=9, title="SEAT 2'S TURN", ticker=ticker, hands=open_hands, hint=hint),
        "secret": TacoView("table", sample_seats(n, secret=True), variant="secret", draw_pile=28,
                           trash_top="food-fight", trash=6, title="SEAT 2'S TURN", ticker=ticker),
        "choose": TacoView("table", sample_seats(n), draw_pile=28, trash_top="no-bueno", trash=6,
                           title="SEAT 1'S TURN", ticker=ticker,
                           choosing=[HandShow(1, [], options=["steal Ingredient 3 from seat 2", "steal Ingredient 1 "
                                                              f"from seat {n}", "discard (trash)", "< back"],
                                              option=0, picked="crafty-crow")]),
        "window": TacoView("window", refused, draw_pile=27, trash_top="no-bueno", trash=6,
                           title="SEAT 2 PLAYS", big="CRAFTY CROW", sub=f"on seat {n}", countdown=1.8, progress=0.6,
                           chain=[1], hint="NO BUENO! answer with another to make it a Si Bueno",
                           race=f"seat {n} was 42 ms late: seat 1 won the No Bueno race"),
        "foodfight": TacoView("foodfight", sample_seats(n), draw_pile=20, trash_top="food-fight", trash=7,
                              title="FOOD FIGHT", sub="seat 2 wins: pick one card",
                              flipped=[(s, c) for s, c in [(2, "tummy-ache-1"), (3, "ingredient-3"), (4, "ingredient-2"),
                                       (5, "trash-panda"), (6, "no-bueno"), (1, "crafty-crow")] if s <= n]),
        "over": TacoView("over", over, draw_pile=0, trash_top="order-envy", trash=30, title="GAME OVER",
                         big=f"SEAT {min(4, n)}", sub="wins!"),
    }


def render(v: TacoView, size: tuple[int, int] = (1280, 720)) -> pygame.Surface:
    surf = pygame.Surface(size)
    draw(surf, v)
    return surf


def bench(frames: int = 120, size: tuple[int, int] = (1920, 1080)) -> list[tuple[str, float, float]]:
    """(screen, median ms, p95 ms) of drawing each sample view ``frames`` times at ``size``, headless."""
    import statistics
    import time

    surf = pygame.Surface(size)
    out = []
    for name, v in sample_views().items():
        draw(surf, v)  # warm the backdrop and font caches, as a running table has
        times = []
        for _ in range(frames):
            t = time.perf_counter()
            draw(surf, v)
            times.append((time.perf_counter() - t) * 1000)
        times.sort()
        out.append((name, statistics.median(times), times[int(len(times) * 0.95) - 1]))
    return out


def main(argv: list[str] | None = None) -> int:
    """``DIR``: write the screenshots; ``--bench``: print the frame time of each screen at 1080p."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--bench":
        import os
        import platform

        pygame.font.init()
        print(f"Taco vs Burrito screens at 1920x1080, headless; {os.cpu_count()} cores, Python {platform.python_version()}")
        print(f"{'screen':<12} {'median ms':>10} {'p95 ms':>8}")
        for name, med, p95 in bench():
            print(f"{name:<12} {med:>10.2f} {p95:>8.2f}")
        return 0
    out = Path(argv[0] if argv else "docs/screens")
    out.mkdir(parents=True, exist_ok=True)
    pygame.font.init()
    for name, v in sample_views().items():
        path = out / f"taco_{name}.png"
        pygame.image.save(render(v, (1280, 720)), str(path))
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())


# -- in the table app (game.games.taco_vs_burrito.mode): the mode's screens draw the TacoView it puts in View.extra -------------


def _from_app(fn: Callable[[Painter, TacoView], None]) -> Callable[[Painter, Any], None]:
    def drawer(p: Painter, v: Any) -> None:
        fn(p, v.extra["taco"])

    return drawer


APP_SCREENS: dict[str, Callable[[Painter, Any], None]] = {f"taco_{k}": _from_app(f) for k, f in SCREENS.items()}


def _base(p: Painter, v: Any, highlight: set[int] | None, dim: bool) -> None:
    """The shared screens (menu, failsafe, questions) over the Taco vs Burrito table."""
    tv = v.extra.get("taco")
    if tv is None:
        background(p, LIME)
        return
    table_base(p, tv, dim=dim)


_sc.BASES[tvb_name] = _base


#: how to play, for the lobby (hold WAR) and attract mode: the rulebook's essentials and this table's buttons
HOWTO: tuple[Page, ...] = tuple(replace(p, accent=ORANGE) for p in (
    Page("BUILD A MEAL", ("Put cards in your Taco", "or Burrito. Ingredients add,", "Tummy Aches take away.",
                          "Biggest meals win."), "meal"),
    Page("YOUR BUTTONS", ("LEFT / RIGHT browse your hand,", "PLAY picks a card and its meal,", "PLAY again confirms.",
                          "Hold PLAY to peek at your hand."), "buttons", ("LEFT", "RIGHT", "PLAY", "NO BUENO")),
    Page("NO BUENO!", ("A card is played against you?", "Slam NO BUENO before the", "countdown ends to block it.",
                       "Block a block: Si Bueno!"), "nobueno"),
    Page("WATCH OUT", ("The Health Inspector sends", "a whole meal to the trash.", "The last card played",
                       "ends the game: top score wins."), "inspector"),
    )
)
def app_sample_views(n: int = 4) -> dict[str, Any]:
    """The sample views as the table app draws them: a ``View`` carrying the ``TacoView`` in ``extra``."""
    from game.table.present import View

    out: dict[str, Any] = {}
    for name, tv in sample_views(n).items():
        out[f"taco_{name}"] = View(f"taco_{tv.screen}", [], game=tvb_name, banner=tv.banner, extra={"taco": tv})
    return out
