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
    seat_positions,
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


def card_chip(p: Painter, card: str | None, center: tuple[float, float], h: float, selected: bool = False,
              caption: bool = False) -> pygame.Rect:
    """One card, ``h`` units tall; ``selected`` gets a gold frame; ``caption`` writes its name under it."""
    colour, face = chip_face(card)
    rect = pygame.Rect(0, 0, p.px(h * 0.7), p.px(h))
    rect.center = (int(center[0]), int(center[1]))
    if selected:
        glow = rect.inflate(p.px(h * 0.18), p.px(h * 0.18))
        pygame.draw.rect(p.s, GOLD, glow, border_radius=p.px(h * 0.16))
    p.panel(rect, colour if card is not None else BACK[0], DARK, width=max(2, h / 22), radius=h * 0.12)
    size = h * (0.5 if len(face) <= 2 else 0.26)
    p.text(face, size, DARK if card is not None else WHITE, rect.center, shadow=False, max_w=rect.width * 0.9)
    if caption and card is not None:
        name = NAMES.get(card, "")
        if name:
            p.text(name, h * 0.17, WHITE, (rect.centerx, rect.bottom + p.px(h * 0.14)), shadow=False)
    return rect


def chip_row(p: Painter, cards: list[str | None], center: tuple[float, float], h: float, max_w: float,
             cursor: int | None = None) -> None:
    """Cards side by side, centred; they overlap when the row would be wider than ``max_w`` pixels."""
    if not cards:
        return
    step = p.px(h * 0.78)
    if step * len(cards) > max_w:
        step = max(1, int(max_w / len(cards)))
    x0 = center[0] - step * (len(cards) - 1) / 2
    for i, c in enumerate(cards):
        card_chip(p, c, (x0 + i * step, center[1]), h, selected=cursor == i)


def seat_box(p: Painter, sp: SeatPanel, center: tuple[float, float], n: int, hand: HandShow | None) -> None:
    w, h = (400, 250) if n <= 4 else (330, 230)
    rect = pygame.Rect(0, 0, p.px(w), p.px(h))
    rect.center = (int(center[0]), int(center[1]))
    colour = GOLD if sp.turn or sp.winner else (70, 60, 150)
    if sp.turn or sp.winner:
        pygame.draw.rect(p.s, GOLD, rect.inflate(p.px(24), p.px(24)), border_radius=p.px(30))
    p.panel(rect, (30, 26, 70), colour, width=8 if sp.turn else 5)
    head = pygame.Rect(rect.left, rect.top, rect.width, p.px(58))
    pygame.draw.rect(p.s, colour, head, border_top_left_radius=p.px(22), border_top_right_radius=p.px(22))
    label = (sp.name.upper() if sp.name else f"SEAT {sp.seat}") + (f"  bot: {sp.bot}" if sp.bot else "")
    p.text(label, 44, DARK, (head.centerx - p.px(40), head.centery), shadow=False, max_w=rect.width * 0.7)
    score = "?" if sp.score is None else str(sp.score)
    p.text(score, 64, WHITE, (head.right - p.px(50), head.centery + p.px(2)), shadow=False)
    if sp.flash:
        p.text(sp.flash, 30, PINK, (rect.centerx, rect.top - p.px(24)))
    meal_y = head.bottom + p.px(62)
    if sp.meal:
        chip_row(p, list(sp.meal), (rect.centerx, meal_y), 96, rect.width * 0.92)
    else:
        p.text("empty meal", 34, GREY, (rect.centerx, meal_y), shadow=False)
    low = rect.bottom - p.px(40)
    if hand is not None:
        chip_row(p, list(hand.cards), (rect.centerx, low), 62, rect.width * 0.92, cursor=hand.cursor)
    else:
        backs = min(sp.hand_size, 8)
        for i in range(backs):
            x = rect.left + p.px(26) + i * p.px(22)
            r = pygame.Rect(0, 0, p.px(28), p.px(40))
            r.center = (int(x), int(low))
            p.panel(r, BACK[0], DARK, width=2, radius=5)
        p.text(f"{sp.hand_size} in hand", 32, CYAN, (rect.left + rect.width * 0.68, low), shadow=False)


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
            return
        _table(p, v, accent, dim)
        _dimmed[(p.w, p.h)] = (key, p.s.copy())
        return
    _table(p, v, accent, dim)


def _table(p: Painter, v: TacoView, accent: tuple[int, int, int], dim: bool) -> None:
    background(p, accent)
    n = len(v.seats)
    open_hands = {h.seat: h for h in v.hands} if v.hands_mode == "open" else {}
    for sp, pos in zip(v.seats, seat_positions(p, n)):
        seat_box(p, sp, pos, n, open_hands.get(sp.seat))
    cx, cy = p.w / 2, p.h * 0.5
    p.text(v.title or "TACO vs BURRITO", 72, GOLD, (cx, cy - p.px(170)), max_w=p.w * 0.4)
    # the draw pile and the trash
    pile = pygame.Rect(0, 0, p.px(100), p.px(140))
    pile.center = (int(cx - p.px(110)), int(cy - p.px(30)))
    for k in range(min(3, max(1, v.draw_pile // 10))):
        p.panel(pile.move(p.px(6) * k, -p.px(6) * k), BACK[0], DARK, width=3, radius=12)
    p.text(str(v.draw_pile), 60, WHITE, pile.move(p.px(6) * 2, -p.px(12)).center)
    p.text("draw", 30, GREY, (pile.centerx, pile.bottom + p.px(22)), shadow=False)
    if v.trash_top is not None:
        card_chip(p, v.trash_top, (cx + p.px(110), cy - p.px(30)), 140)
    else:
        p.panel(pygame.Rect(int(cx + p.px(60)), int(cy - p.px(100)), p.px(100), p.px(140)), (20, 16, 50), GREY, 3, 12)
    p.text(f"trash {v.trash}", 30, GREY, (cx + p.px(110), pile.bottom + p.px(22)), shadow=False)
    variant = {"open": "", "secret": "SECRET: meals face down", "super-secret": "SUPER SECRET: nobody looks"}
    if variant.get(v.variant):
        p.text(variant[v.variant], 32, PINK, (cx, cy + p.px(95)), shadow=False)
    for i, line in enumerate(v.ticker[-2:]):
        p.text(line, 32, WHITE if i == len(v.ticker[-2:]) - 1 else GREY, (cx, cy + p.px(135 + 40 * i)),
               shadow=False, max_w=p.w * 0.42)
    if v.banner:
        strip = pygame.Rect(0, p.px(12), p.w, p.px(56))
        pygame.draw.rect(p.s, GOLD, strip)
        p.text(v.banner, 34, DARK, strip.center, shadow=False, max_w=p.w * 0.95)
    if v.hint and not dim:
        p.text(v.hint, 32, WHITE, (p.w / 2, p.h - p.px(40)), shadow=False, max_w=p.w * 0.95)
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
        p.text(title, 62, DARK, tag.center, shadow=False, max_w=tag.width * 0.92)
    return rect


def peek_panel(p: Painter, hand: HandShow) -> None:
    """Hold-to-peek: one seat's hand big along the bottom while that seat holds PLAY."""
    rect = pygame.Rect(0, 0, int(p.w * 0.9), p.px(300))
    rect.midbottom = (p.w // 2, p.h - p.px(16))
    p.panel(rect, DARK, CYAN, width=8, radius=30)
    p.text(f"SEAT {hand.seat}'S HAND (peek: keep holding PLAY)", 40, CYAN, (rect.centerx, rect.top + p.px(36)),
           shadow=False)
    cards: list[str | None] = list(hand.cards)
    chip_row(p, cards, (rect.centerx - rect.width * 0.12, rect.top + p.px(160)), 170, rect.width * 0.7,
             cursor=hand.cursor if hand.picked is None else None)
    if hand.meal:
        p.text("my meal", 30, GREY, (rect.right - rect.width * 0.13, rect.top + p.px(90)), shadow=False)
        chip_row(p, list(hand.meal), (rect.right - rect.width * 0.13, rect.top + p.px(170)), 90, rect.width * 0.22)


def draw_table(p: Painter, v: TacoView) -> None:
    table_base(p, v)
    _overlays(p, v)


def draw_window(p: Painter, v: TacoView) -> None:
    """The block window: the waiting card, the No Bueno chain, and a big countdown that runs out."""
    table_base(p, v, accent=PINK, dim=True)
    colour = PINK if len(v.chain) % 2 else GOLD
    b = box(p, v.title, colour, 560)
    p.text(v.big, 96, WHITE, (b.centerx, b.top + p.px(120)), max_w=b.width * 0.9)
    if v.sub:
        p.text(v.sub, 44, GREY, (b.centerx, b.top + p.px(185)), shadow=False, max_w=b.width * 0.9)
    p.text(f"{v.countdown:.1f}", 210, colour, (b.centerx, b.top + p.px(310)))
    bar = pygame.Rect(b.left + p.px(60), b.top + p.px(410), int((b.width - p.px(120)) * v.progress), p.px(34))
    pygame.draw.rect(p.s, colour, bar, border_radius=p.px(14))
    chain = "   ".join(("NO BUENO" if i % 2 == 0 else "SI BUENO") + f" seat {s}" for i, s in enumerate(v.chain))
    p.text(chain or "nobody has blocked", 44, colour if chain else GREY, (b.centerx, b.top + p.px(480)),
           max_w=b.width * 0.92)
    if v.hint:
        p.text(v.hint, 40, WHITE, (p.w / 2, p.h - p.px(40)), shadow=False, max_w=p.w * 0.95)
    if v.race:
        p.text(v.race, 44, PINK, (p.w / 2, p.h - p.px(95)), max_w=p.w * 0.9)
    _overlays(p, v)


def draw_foodfight(p: Painter, v: TacoView) -> None:
    table_base(p, v, accent=GOLD, dim=True)
    b = box(p, v.title or "FOOD FIGHT", GOLD, 520, width=0.8)
    p.text(v.sub, 52, WHITE, (b.centerx, b.top + p.px(100)), max_w=b.width * 0.9)
    cards = v.flipped
    if cards:
        step = min(p.px(150), int(b.width * 0.92 / len(cards)))
        x0 = b.centerx - step * (len(cards) - 1) / 2
        for i, (seat, card) in enumerate(cards):
            card_chip(p, card, (x0 + i * step, b.top + p.px(280)), 180)
            p.text(f"seat {seat}", 34, CYAN, (x0 + i * step, b.top + p.px(400)), shadow=False)
    _overlays(p, v)


def draw_over(p: Painter, v: TacoView) -> None:
    table_base(p, v, accent=GOLD, dim=True)
    b = box(p, v.title or "GAME OVER", GOLD, 600)
    p.text(v.big, 120, GOLD, (b.centerx, b.top + p.px(140)), max_w=b.width * 0.9)
    p.text(v.sub, 56, LIME, (b.centerx, b.top + p.px(230)))
    ranked = sorted(v.seats, key=lambda s: (-(s.score or 0), s.seat))
    for i, sp in enumerate(ranked[:6]):
        y = b.top + p.px(310 + 62 * i)
        colour = GOLD if sp.winner else WHITE
        p.text(f"SEAT {sp.seat}", 52, colour, (b.left + b.width * 0.3, y))
        p.text(f"{sp.score if sp.score is not None else '?'} pts", 52, colour, (b.left + b.width * 0.55, y))
        p.text(f"{len(sp.meal)} cards", 36, GREY, (b.left + b.width * 0.78, y), shadow=False)


def choose_strip(p: Painter, hand: HandShow, y: float) -> None:
    """A seat choosing where its picked card goes: the options in a row, the cursor's one lit."""
    opts = hand.options
    rect = pygame.Rect(0, 0, int(p.w * 0.94), p.px(120))
    rect.center = (p.w // 2, int(y))
    p.panel(rect, DARK, LIME, width=6, radius=26)
    what = NAMES.get(hand.picked or "", (hand.picked or "a card").replace("-", " "))
    p.text(f"SEAT {hand.seat}: {what} ->", 36, LIME, (rect.left + p.px(170), rect.centery), shadow=False,
           max_w=p.px(300))
    if not opts:
        return
    cur = hand.option % len(opts)
    first = max(0, min(cur - 2, len(opts) - 5))  # a long list (a Crow's many items) scrolls with the cursor
    shown = opts[first:first + 5]
    left = rect.left + p.px(340)
    step = (rect.right - p.px(20) - left) / len(shown)
    for i, label in enumerate(shown, start=first):
        cx = left + step * (i - first + 0.5)
        chip = pygame.Rect(0, 0, int(step * 0.94), p.px(76))
        chip.center = (int(cx), rect.centery)
        lit = i == cur
        p.panel(chip, LIME if lit else (30, 26, 70), WHITE if lit else GREY, width=4, radius=16)
        p.text(label, 30, DARK if lit else WHITE, chip.center, shadow=False, max_w=chip.width * 0.92)


def _overlays(p: Painter, v: TacoView) -> None:
    if v.hands_mode != "open":
        for hand in v.hands[:1]:
            peek_panel(p, hand)
            if hand.options:
                choose_strip(p, hand, p.h - p.px(380))
    for i, hand in enumerate(v.choosing[:2]):
        choose_strip(p, hand, p.h - p.px(160 + 140 * i))


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


def sample_views() -> dict[str, TacoView]:
    """One TacoView per screen and hand mode, with fixed made-up content."""
    ticker = ["Seat 1 puts ingredient-3 in its own meal", "Seat 2 plays Crafty Crow on seat 4's meal"]
    hand = HandShow(1, ["ingredient-3", "no-bueno", "crafty-crow", "tummy-ache-2", "order-envy"], cursor=2,
                    meal=["ingredient-3", "tummy-ache-1", "ingredient-2"])
    hint = "LEFT / RIGHT browse  -  tap PLAY pick  -  hold PLAY peek  -  NO BUENO block"
    open_hands = [HandShow(s, c, cursor=0) for s, c in
                  [(1, ["ingredient-3", "no-bueno", "crafty-crow"]), (2, ["food-fight", "ingredient-1"]),
                   (3, ["tummy-ache-3", "trash-panda", "no-bueno", "ingredient-2"]), (4, ["order-envy"])]]
    over = sample_seats()
    over[3].winner = True
    for sp in over:
        sp.turn = False
    return {
        "table": TacoView("table", sample_seats(), draw_pile=28, trash_top="no-bueno", trash=6,
                          title="SEAT 2'S TURN", ticker=ticker, hint=hint, banner="SIMULATION MODE"),
        "peek": TacoView("table", sample_seats(), draw_pile=28, trash_top="no-bueno", trash=6,
                         title="SEAT 2'S TURN", ticker=ticker, hands=[hand]),
        "open": TacoView("table", sample_seats(), hands_mode="open", draw_pile=21, trash_top="tummy-ache-1",
                         trash=9, title="SEAT 2'S TURN", ticker=ticker, hands=open_hands, hint=hint),
        "secret": TacoView("table", sample_seats(secret=True), variant="secret", draw_pile=28,
                           trash_top="food-fight", trash=6, title="SEAT 2'S TURN", ticker=ticker),
        "choose": TacoView("table", sample_seats(), draw_pile=28, trash_top="no-bueno", trash=6,
                           title="SEAT 1'S TURN", ticker=ticker,
                           choosing=[HandShow(1, [], options=["steal Ingredient 3 from seat 2", "steal Ingredient 1 "
                                                              "from seat 4", "discard (trash)", "< back"],
                                              option=0, picked="crafty-crow")]),
        "window": TacoView("window", sample_seats(), draw_pile=27, trash_top="no-bueno", trash=6,
                           title="SEAT 2 PLAYS", big="CRAFTY CROW", sub="on seat 4", countdown=1.8, progress=0.6,
                           chain=[3], hint="NO BUENO! answer with another to make it a Si Bueno",
                           race="seat 4 was 42 ms late: seat 3 won the No Bueno race"),
        "foodfight": TacoView("foodfight", sample_seats(), draw_pile=20, trash_top="food-fight", trash=7,
                              title="FOOD FIGHT", sub="seat 3 wins: pick one card",
                              flipped=[(2, "tummy-ache-1"), (3, "ingredient-3"), (4, "ingredient-2"),
                                       (1, "crafty-crow")]),
        "over": TacoView("over", over, draw_pile=0, trash_top="order-envy", trash=30, title="GAME OVER",
                         big="SEAT 4", sub="wins!"),
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
