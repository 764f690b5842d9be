"""The shared screen: arcade-style drawing of a ``View`` with pygame primitives and the default font.

Readable from 3 m: the smallest text is 1/30 of the screen height, numbers and calls are far bigger. Everything is
sized from the surface height (any 16:9 size from 1280x720 to 1920x1080), no image or font is loaded from disk.

``python -m game.table.screens DIR`` writes one PNG per screen (the README screenshots, ``docs/screens/``).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
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


class Painter:
    """Drawing helpers in units of the screen height (1 unit = h/1080 px)."""

    def __init__(self, surface: pygame.Surface) -> None:
        self.s = surface
        self.w, self.h = surface.get_size()
        self.u = self.h / 1080.0

    def px(self, v: float) -> int:
        return int(round(v * self.u))

    def text(self, txt: str, size: float, colour: tuple[int, int, int], center: tuple[float, float],
             shadow: bool = True, max_w: float | None = None) -> pygame.Rect:
        f = font(self.px(size))
        img = f.render(txt, True, colour)
        if max_w is not None and img.get_width() > max_w > 0:
            scale = max_w / img.get_width()
            img = pygame.transform.smoothscale(img, (int(img.get_width() * scale), max(1, int(img.get_height() * scale))))
        r = img.get_rect(center=(int(center[0]), int(center[1])))
        if shadow:
            sh = f.render(txt, True, DARK) if max_w is None or img.get_width() == f.size(txt)[0] else None
            if sh is not None:
                off = max(2, self.px(size / 16))
                self.s.blit(sh, r.move(off, off))
        self.s.blit(img, r)
        return r

    def panel(self, rect: pygame.Rect, fill: tuple[int, int, int], border: tuple[int, int, int], width: float = 6,
              radius: float = 22) -> None:
        pygame.draw.rect(self.s, fill, rect, border_radius=self.px(radius))
        pygame.draw.rect(self.s, border, rect, width=max(2, self.px(width)), border_radius=self.px(radius))

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


def seat_positions(p: Painter, n: int) -> list[tuple[float, float]]:
    """Seats clockwise round the table, seat 1 at the bottom left (as seen from above)."""
    cx, cy = p.w / 2, p.h * 0.55
    rx, ry = p.w * 0.39, p.h * 0.33
    out = []
    for i in range(n):
        a = math.pi / 2 + 2 * math.pi * (i + 0.5) / n
        out.append((cx + rx * math.cos(a), cy + ry * math.sin(a)))
    return out


def seat_card(p: Painter, sv: SeatView, center: tuple[float, float], n: int, highlight: bool = False) -> None:
    cw, ch = (390, 230) if n <= 6 else (270, 170)
    rect = pygame.Rect(0, 0, p.px(cw), p.px(ch))
    rect.center = (int(center[0]), int(center[1]))
    role = sv.role
    colour = ROLE_COLOURS.get(role, ROLE_COLOURS["idle"])
    if sv.colour is not None and role in ("idle", "joined"):
        colour = sv.colour  # the player's own colour, while no battle role outshouts it
    fill = (30, 26, 70) if role not in ("out", "empty") else (24, 24, 34)
    if highlight:
        glow = rect.inflate(p.px(26), p.px(26))
        pygame.draw.rect(p.s, GOLD, glow, border_radius=p.px(30))
    p.panel(rect, fill, colour, width=8 if role in ("fighter", "winner", "declarer") else 5)
    head = pygame.Rect(rect.left, rect.top, rect.width, p.px(ch * 0.27))
    pygame.draw.rect(p.s, colour, head, border_top_left_radius=p.px(22), border_top_right_radius=p.px(22))
    label = sv.name.upper() if sv.name and role != "joined" else f"SEAT {sv.seat}" if sv.seat else f"PANEL {sv.panel}"
    p.text(label, ch * 0.22, DARK if role != "out" else GREY, head.center, shadow=False)
    if role == "empty":
        p.text("press to join", ch * 0.16, GREY, (rect.centerx, rect.centery + p.px(ch * 0.12)), shadow=False)
        return
    if role == "joined":
        if sv.name:
            p.text(sv.name, ch * 0.3, sv.colour or LIME, (rect.centerx, rect.centery + p.px(ch * 0.05)), max_w=rect.width * 0.9)
            if sv.note:
                p.text(sv.note, ch * 0.13, WHITE, (rect.centerx, rect.bottom - p.px(ch * 0.14)), shadow=False,
                       max_w=rect.width * 0.92)
            return
        p.text("READY!", ch * 0.3, LIME, (rect.centerx, rect.centery + p.px(ch * 0.12)))
        return
    p.text(str(sv.points), ch * 0.42, WHITE if role != "out" else GREY,
           (rect.left + rect.width * 0.3, rect.top + rect.height * 0.58))
    small = ch * 0.17
    p.text(f"sets {sv.sets}", small, CYAN, (rect.left + rect.width * 0.73, rect.top + rect.height * 0.45), shadow=False)
    p.text(f"battle {sv.battle_sets}", small, GOLD, (rect.left + rect.width * 0.73, rect.top + rect.height * 0.60),
           shadow=False)
    # bruises: a red burrito each
    r = p.px(ch * 0.06)
    for i in range(min(sv.bruises, 6)):
        p.burrito((rect.left + rect.width * 0.58 + i * r * 2.6, rect.top + rect.height * 0.82), r, RED)
    if sv.bruises:
        p.text(f"-{sv.bruises}", small, RED, (rect.left + rect.width * 0.3, rect.top + rect.height * 0.86), shadow=False)
    if sv.badge:
        p.star((rect.right - p.px(8), rect.top + p.px(8)), p.px(ch * 0.2), GOLD)
    if sv.pending:
        p.text(f"+{sv.pending}?", ch * 0.2, LIME, (rect.left + rect.width * 0.3, rect.top + rect.height * 0.35))
    if sv.device:
        p.text(sv.device, small, ORANGE, (rect.centerx, rect.bottom + p.px(16)), shadow=False)
    if sv.flash:
        fl = rect.inflate(-p.px(10), -p.px(10))
        pygame.draw.rect(p.s, WHITE, fl, width=p.px(8), border_radius=p.px(18))
        p.text(sv.flash + "!", ch * 0.2, WHITE, (rect.centerx, rect.bottom - p.px(ch * 0.12)))


#: a game's own backdrop for the shared screens (call, countdown, question, menu), registered by its screens module
BASES: dict[str, Callable[[Painter, View, set[int] | None, bool], None]] = {}


def scoreboard_base(p: Painter, v: View, highlight: set[int] | None = None, dim: bool = False) -> None:
    base = BASES.get(v.game)
    if base is not None:
        base(p, v, highlight, dim)
        return
    background(p, PINK if v.screen != "battle" else RED)
    n = len(v.seats)
    for sv, pos in zip(v.seats, seat_positions(p, n)):
        seat_card(p, sv, pos, n, highlight=bool(highlight and sv.seat in highlight))
    # the middle of the table: round, bruise tokens left, the last announcements
    cx, cy = p.w / 2, p.h * 0.55
    p.text(f"ROUND {v.round}", 80, GOLD, (cx, cy - p.px(150)))
    p.text("BRUISES LEFT", 30, WHITE, (cx, cy - p.px(85)), shadow=False)
    r = p.px(22)
    total = max(v.tokens_left, 0)
    for i in range(total):
        p.burrito((cx + (i - (total - 1) / 2) * r * 2.8, cy - p.px(40)), r, RED)
    if total == 0:
        p.text("none", 36, GREY, (cx, cy - p.px(40)), shadow=False)
    for i, line in enumerate(v.ticker[-3:]):
        colour = WHITE if i == len(v.ticker[-3:]) - 1 else GREY
        p.text(line, 36, colour, (cx, cy + p.px(20 + 46 * i)), shadow=False, max_w=p.w * 0.5)
    if v.banner:
        p.text(v.banner, 34, DARK, (p.w / 2, p.px(40)), shadow=False)
        strip = pygame.Rect(0, p.px(12), p.w, p.px(56))
        pygame.draw.rect(p.s, GOLD, strip)
        p.text(v.banner, 34, DARK, strip.center, shadow=False, max_w=p.w * 0.95)
    if v.hint:
        p.text(v.hint, 34, WHITE, (p.w / 2, p.h - p.px(42)), shadow=False, max_w=p.w * 0.95)
    if dim:
        scoreboard_veil(p)


def scoreboard_veil(p: Painter) -> None:
    """Darken what is drawn so far (one cached translucent surface per size)."""
    veil = _veils.get((p.w, p.h))
    if veil is None:
        veil = _veils[(p.w, p.h)] = pygame.Surface((p.w, p.h))
        veil.fill((0, 0, 0))
        veil.set_alpha(150)
    p.s.blit(veil, (0, 0))


def big_box(p: Painter, title: str, colour: tuple[int, int, int], height: float = 520) -> pygame.Rect:
    rect = pygame.Rect(0, 0, int(p.w * 0.7), p.px(height))
    rect.center = (p.w // 2, int(p.h * 0.52))
    p.panel(rect, DARK, colour, width=12, radius=40)
    if title:
        tag = pygame.Rect(0, 0, int(p.w * 0.36), p.px(90))
        tag.center = (rect.centerx, rect.top)
        p.panel(tag, colour, DARK, width=6, radius=28)
        p.text(title, 70, DARK, tag.center, shadow=False, max_w=tag.width * 0.92)
    return rect


def draw(surface: pygame.Surface, v: View) -> None:
    """Draw one frame of ``v`` on ``surface``."""
    from game.registry import GAMES

    p = Painter(surface)
    mode = GAMES.get(v.game)
    fn = mode.screens().get(v.screen) if mode is not None else None
    if fn is None:
        fn = SCREENS.get(v.screen) or HOST_SCREENS.get(v.screen) or draw_scoreboard
    fn(p, v)
    for overlay in OVERLAYS:
        overlay(p, v)


#: the party host's screens (how-to-play, attract mode, house settings) and overlays (device warnings), filled in by
#: ``game.table.host_screens`` (which imports this module, never the other way round)
HOST_SCREENS: dict[str, Callable[[Painter, View], None]] = {}
OVERLAYS: list[Callable[[Painter, View], None]] = []


def draw_scoreboard(p: Painter, v: View) -> None:
    scoreboard_base(p, v)


def draw_lobby(p: Painter, v: View) -> None:
    background(p, CYAN)
    p.text("BURRITO TABLE", 150, GOLD, (p.w / 2, p.px(140)))
    p.text(v.title or "Throw Throw Burrito", 70, WHITE, (p.w / 2, p.px(250)))
    if v.options:
        p.text("  ".join(f"[{o}]" if i == v.cursor else o for i, o in enumerate(v.options)), 46, CYAN,
               (p.w / 2, p.px(320)), shadow=False, max_w=p.w * 0.9)
    n = len(v.seats)
    for sv, pos in zip(v.seats, seat_positions(p, n)):
        seat_card(p, sv, (pos[0], pos[1] + p.px(60)), n)
    p.text(v.sub or "press any button to join", 48, LIME, (p.w / 2, p.h * 0.6))
    if v.hint:
        p.text(v.hint, 36, WHITE, (p.w / 2, p.h * 0.67), shadow=False, max_w=p.w * 0.6)
    if v.banner:
        strip = pygame.Rect(0, p.px(12), p.w, p.px(56))
        pygame.draw.rect(p.s, GOLD, strip)
        p.text(v.banner, 34, DARK, strip.center, shadow=False, max_w=p.w * 0.95)


def draw_countdown(p: Painter, v: View) -> None:
    scoreboard_base(p, v, dim=True)
    word = v.big or "3"
    colour = {"3": CYAN, "2": LIME, "1": GOLD}.get(word, PINK)
    size = 520 if len(word) == 1 else 300
    if v.title:
        p.text(v.title, 60, WHITE, (p.w / 2, p.h * 0.2), max_w=p.w * 0.9)
    p.text(word, size, colour, (p.w / 2, p.h * 0.55), max_w=p.w * 0.92)


def draw_call(p: Painter, v: View) -> None:
    scoreboard_base(p, v, dim=True)
    colour = ACCENTS.get(v.big, GOLD)
    box = big_box(p, "", colour, height=560)
    p.text(v.big, 300, colour, (box.centerx, box.top + p.px(190)), max_w=box.width * 0.9)
    p.text(v.sub, 60, WHITE, (box.centerx, box.top + p.px(360)), max_w=box.width * 0.92)
    if v.gap:
        p.text(v.gap, 56, GOLD, (box.centerx, box.top + p.px(460)), max_w=box.width * 0.92)


def draw_question(p: Painter, v: View) -> None:
    scoreboard_base(p, v, highlight=set(v.chosen), dim=True)
    box = big_box(p, v.title, CYAN, height=560)
    p.text(v.sub, 62, WHITE, (box.centerx, box.top + p.px(150)), max_w=box.width * 0.92)
    keys = ("SET", "DUEL", "BRAWL", "WAR")
    for i, opt in enumerate(v.options[:4]):
        x = box.left + box.width * (i + 1) / (min(len(v.options), 4) + 1)
        chip = pygame.Rect(0, 0, int(box.width * 0.2), p.px(120))
        chip.center = (int(x), box.top + p.px(300))
        p.panel(chip, (30, 26, 70), [LIME, RED, CYAN, GOLD][i], width=8)
        p.text(opt, 46, WHITE, (chip.centerx, chip.top + p.px(45)), max_w=chip.width * 0.9)
        p.text(keys[i], 34, [LIME, RED, CYAN, GOLD][i], (chip.centerx, chip.top + p.px(92)), shadow=False)
    who = ", ".join(f"seat {s}" for s in v.chosen)
    p.text(f"answering: {who}", 40, GOLD, (box.centerx, box.top + p.px(420)), shadow=False, max_w=box.width * 0.9)
    bar = pygame.Rect(box.left + p.px(60), box.bottom - p.px(70), int((box.width - p.px(120)) * v.progress), p.px(30))
    pygame.draw.rect(p.s, CYAN, bar, border_radius=p.px(12))


def draw_failsafe(p: Painter, v: View) -> None:
    p.s.fill((60, 0, 20))
    p.text(v.title, 80, GOLD, (p.w / 2, p.h * 0.2))
    p.text(v.big, 200, WHITE, (p.w / 2, p.h * 0.42))
    p.text(v.sub, 44, ORANGE, (p.w / 2, p.h * 0.62), shadow=False, max_w=p.w * 0.92)
    p.text(v.hint, 40, WHITE, (p.w / 2, p.h * 0.75), shadow=False, max_w=p.w * 0.92)


def draw_menu(p: Painter, v: View) -> None:
    scoreboard_base(p, v, dim=True)
    box = big_box(p, v.title, CYAN, height=560)
    gap = min(110, 300 / max(1, len(v.options) - 1))  # four items (house settings) still clear the hint line
    for i, opt in enumerate(v.options):
        y = box.top + p.px(140 + gap * i)
        if i == v.cursor:
            sel = pygame.Rect(0, 0, int(box.width * 0.8), p.px(90))
            sel.center = (box.centerx, y)
            p.panel(sel, CYAN, WHITE, width=4)
        p.text(opt, 64, DARK if i == v.cursor else WHITE, (box.centerx, y), shadow=i != v.cursor)
    p.text(v.hint, 36, GOLD, (box.centerx, box.bottom - p.px(50)), shadow=False, max_w=box.width * 0.9)


def draw_resume(p: Painter, v: View) -> None:
    draw_lobby(p, v)
    box = big_box(p, v.title, LIME, height=360)
    p.text(v.sub, 56, WHITE, (box.centerx, box.top + p.px(130)), max_w=box.width * 0.9)
    p.text(v.hint, 48, LIME, (box.centerx, box.top + p.px(240)), max_w=box.width * 0.9)


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


def sample_views() -> dict[str, View]:
    """One View per screen, with fixed made-up content."""
    ticker = ["Seat 2 counts: 3, 2, 1, Burrito!", "Seat 4 loses the brawl (hit): Burrito Bruise!", "BRAWL! called by seat 1"]
    lobby = [SeatView(seat=0, panel=p, role="joined" if p in (1, 2, 4) else "empty") for p in range(1, 7)]
    flash = sample_seats()
    flash[1].flash = "SET"
    flash[1].pending = 1
    flash[3].device = "badge offline"
    return {
        "lobby": View("lobby", lobby, title="Throw Throw Burrito", options=["standard", "small room"], cursor=0,
                      sub="3 seats ready - DUEL on a ready seat starts",
                      hint="BRAWL / WAR: variant    hold SET: leave"),
        "scoreboard": View("scoreboard", flash, round=1, tokens_left=3, ticker=ticker, banner="SIMULATION MODE"),
        "countdown": View("countdown", sample_seats(), big="2", title="Seat 2 counts", tokens_left=3, ticker=ticker),
        "call": View("call", sample_seats(4, {2: "fighter", 4: "fighter"}), big="HIT!",
                     sub="seat 4 is hit by seat 2  -  burrito 1", gap="seat 4 hit 18 ms before seat 2",
                     tokens_left=3, ticker=ticker),
        "question": View("question", sample_seats(), title="THE TABLE ASKS",
                         sub="Burrito 2 landed but no badge felt it. Did it hit seat 4?", options=["yes, a hit", "no, a miss"],
                         chosen=[2, 4], progress=0.6, tokens_left=3, ticker=ticker),
        "failsafe": View("failsafe", sample_seats(), title="THE TABLE HIT A SNAG", big="PAUSED",
                         sub="OSError: [Errno 5] Input/output error (receiver unplugged?)",
                         hint="Scores are safe in the journal. Any SET: carry on. Hold BRAWL+WAR 5 s: menu"),
        "menu": View("menu", sample_seats(), title="TABLE MENU",
                     options=["Back to the game", "Restart: new game", "Shut down the table"], cursor=1,
                     hint="BRAWL / WAR move  -  SET choose  -  DUEL back", tokens_left=3),
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
    sys.exit(main())
