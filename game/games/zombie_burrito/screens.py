"""Zombie Burrito's screens: the team table, Team Markers on every screen, battle setup, the fight, the winners.

Drawn from a ``View`` whose ``extra`` carries the game's data (``game.games.zombie_burrito.mode``: ``markers``, ``teams``,
``battle`` and each moment's snapshot). Importing this module registers its backdrop for the shared screens
(call, countdown, question, menu), so they show the teams and the markers too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pygame

from game.table import screens as sc
from game.table.howto import Page
from game.table.present import SeatView, View
from game.table.screens import CYAN, DARK, GOLD, GREY, LIME, ORANGE, PINK, RED, WHITE, Painter

ZOMBIE = (110, 230, 70)
SURVIVOR = (255, 150, 30)
TEAM_COLOUR = {"zombies": ZOMBIE, "survivors": SURVIVOR}
TEAM_NAME = {"zombies": "ZOMBIES", "survivors": "SURVIVORS"}
BACKDROP = (150, 60, 220)


def markers_strip(p: Painter, v: View) -> None:
    """The Team Markers, always on screen: three tokens per team, the flipped ones filled."""
    markers = v.extra.get("markers")
    if markers is None:
        return
    to_win = int(v.extra.get("to_win", 3))
    y = p.px(112)
    r = p.px(24)
    for team, x0, sign in (("zombies", p.px(60), 1), ("survivors", p.w - p.px(60), -1)):
        colour = TEAM_COLOUR[team]
        label = p.text(TEAM_NAME[team], 46, colour, (x0 + sign * p.px(110), y), shadow=True)
        start = label.right + p.px(40) if sign > 0 else label.left - p.px(40)
        for i in range(to_win):
            cx = start + sign * i * r * 2.6
            if i < markers.get(team, 0):
                pygame.draw.circle(p.s, colour, (int(cx), int(y)), r)
                pygame.draw.circle(p.s, WHITE, (int(cx), int(y)), r, max(2, p.px(4)))
            else:
                pygame.draw.circle(p.s, DARK, (int(cx), int(y)), r)
                pygame.draw.circle(p.s, GREY, (int(cx), int(y)), r, max(2, p.px(4)))


def zb_card(p: Painter, sv: SeatView, center: tuple[float, float], n: int, highlight: bool = False) -> None:
    cw, ch = 360, 210
    rect = pygame.Rect(0, 0, p.px(cw), p.px(ch))
    rect.center = (int(center[0]), int(center[1]))
    team = TEAM_COLOUR.get(sv.team, GREY)
    out = sv.role == "out"
    if highlight:
        pygame.draw.rect(p.s, GOLD, rect.inflate(p.px(26), p.px(26)), border_radius=p.px(30))
    p.panel(rect, (24, 24, 34) if out else (30, 26, 70), GREY if out else team,
            width=9 if sv.role in ("fighter", "declarer", "winner") else 5)
    head = pygame.Rect(rect.left, rect.top, rect.width, p.px(ch * 0.3))
    pygame.draw.rect(p.s, (60, 60, 70) if out else team, head, border_top_left_radius=p.px(22),
                     border_top_right_radius=p.px(22))
    side = {"zombies": "ZOMBIE", "survivors": "SURVIVOR"}.get(sv.team, "")
    p.text(f"{sv.name.upper() if sv.name else f'SEAT {sv.seat}'}  {side}", ch * 0.2, DARK if not out else GREY, head.center, shadow=False,
           max_w=head.width * 0.94)
    body_y = rect.top + rect.height * 0.56
    if sv.role == "out":
        p.text("OUT", ch * 0.36, GREY, (rect.centerx, body_y))
    elif sv.role in ("fighter", "declarer"):
        p.text("IN", ch * 0.36, team, (rect.left + rect.width * 0.28, body_y))
        if sv.lives:
            p.text(f"+{sv.lives} hit{'s' if sv.lives != 1 else ''}", ch * 0.19, GOLD,
                   (rect.left + rect.width * 0.68, body_y), shadow=False)
    elif sv.role == "winner":
        p.text("WINNER", ch * 0.3, GOLD, (rect.centerx, body_y))
    else:
        p.text(f"sets {sv.sets}", ch * 0.22, CYAN, (rect.centerx, body_y), shadow=False)
    if sv.note:
        p.text(sv.note, ch * 0.16, WHITE, (rect.centerx, rect.bottom - p.px(ch * 0.14)), shadow=False,
               max_w=rect.width * 0.92)
    if sv.device:
        p.text(sv.device, ch * 0.15, ORANGE, (rect.centerx, rect.bottom + p.px(16)), shadow=False)
    if sv.flash:
        pygame.draw.rect(p.s, WHITE, rect.inflate(-p.px(10), -p.px(10)), width=p.px(8), border_radius=p.px(18))


def zb_base(p: Painter, v: View, highlight: set[int] | None = None, dim: bool = False, ticker: bool = True) -> None:
    """Backdrop, seat cards round the table in team colours, the markers, the ticker, banner and hint."""
    sc.background(p, BACKDROP)
    n = len(v.seats)
    for sv, pos in zip(v.seats, sc.seat_positions(p, n)):
        zb_card(p, sv, pos, n, highlight=bool(highlight and sv.seat in highlight))
    cx, cy = p.w / 2, p.h * 0.55
    for i, line in enumerate(v.ticker[-3:] if ticker else []):
        colour = WHITE if i == len(v.ticker[-3:]) - 1 else GREY
        p.text(line, 34, colour, (cx, cy + p.px(40 + 44 * i)), shadow=False, max_w=p.w * 0.48)
    if v.banner:
        strip = pygame.Rect(0, p.px(12), p.w, p.px(56))
        pygame.draw.rect(p.s, GOLD, strip)
        p.text(v.banner, 34, DARK, strip.center, shadow=False, max_w=p.w * 0.95)
    if v.hint:
        p.text(v.hint, 34, WHITE, (p.w / 2, p.h - p.px(42)), shadow=False, max_w=p.w * 0.95)
    if dim:
        sc.scoreboard_veil(p)
    markers_strip(p, v)  # above the veil: the markers are always readable


def draw_board(p: Painter, v: View) -> None:
    zb_base(p, v)
    cx, cy = p.w / 2, p.h * 0.55
    p.text("ZOMBIE BURRITO", 96, ZOMBIE, (cx, cy - p.px(130)))
    p.text(v.sub, 38, WHITE, (cx, cy - p.px(50)), shadow=False, max_w=p.w * 0.5)


def draw_teams(p: Painter, v: View) -> None:
    zb_base(p, v, highlight=None, dim=True)
    box = sc.big_box(p, v.title or "THE TEAMS", GOLD, height=520)
    teams = v.extra.get("teams", {})
    for team, fx in (("zombies", 0.27), ("survivors", 0.73)):
        x = box.left + box.width * fx
        p.text(TEAM_NAME[team], 80, TEAM_COLOUR[team], (x, box.top + p.px(120)))
        seats = teams.get(team, [])
        p.text("seats " + ", ".join(map(str, seats)), 64, WHITE, (x, box.top + p.px(220)), max_w=box.width * 0.44)
        p.text(f"{len(seats)} player{'s' if len(seats) != 1 else ''}", 40, GREY, (x, box.top + p.px(290)), shadow=False)
    p.text(v.sub or "Sit with your team!", 56, LIME, (box.centerx, box.bottom - p.px(120)))
    p.text("teammates sit side by side: the card colours show where", 34, WHITE,
           (box.centerx, box.bottom - p.px(60)), shadow=False, max_w=box.width * 0.9)


def draw_battle(p: Painter, v: View) -> None:
    decl = {int(v.big.split()[-1])} if v.big.split() and v.big.split()[-1].isdigit() else set()
    zb_base(p, v, highlight=decl)
    colour = TEAM_COLOUR.get(v.extra.get("team", ""), RED)
    box = pygame.Rect(0, 0, int(p.w * 0.46), p.px(260))
    box.center = (p.w // 2, int(p.h * 0.5))
    p.panel(box, DARK, colour, width=10, radius=36)
    p.text(v.title, 150, RED, (box.centerx, box.top + p.px(85)), max_w=box.width * 0.9)
    p.text(f"{v.big.lower()} {v.sub}", 52, colour, (box.centerx, box.top + p.px(180)), max_w=box.width * 0.92)


def _team_columns(p: Painter, box: pygame.Rect) -> list[tuple[str, float]]:
    return [("zombies", box.left + box.width * 0.26), ("survivors", box.left + box.width * 0.74)]


def draw_setup(p: Painter, v: View) -> None:
    """Battle setup: each team's sets, the cancellations chosen, the cursor of a team still choosing, what is left."""
    b = v.extra.get("battle", {})
    zb_base(p, v, highlight={b.get("declarer", 0)}, dim=True)
    box = sc.big_box(p, v.title or "BATTLE SETUP", CYAN, height=640)
    p.text(v.sub, 36, GREY, (box.centerx, box.top + p.px(70)), shadow=False)
    for team, x in _team_columns(p, box):
        t = b.get("teams", {}).get(team, {})
        colour = TEAM_COLOUR[team]
        y = box.top + p.px(130)
        p.text(TEAM_NAME[team], 60, colour, (x, y))
        own = t.get("own", {})
        left = t.get("left", {})
        y += p.px(62)
        p.text("advantage sets:" if own else "no advantage sets", 32, GREY, (x, y), shadow=False)
        for kind, copies in own.items():
            y += p.px(46)
            kept = left.get(kind, 0)
            label = f"{kind} x{copies}" if copies > 1 else kind
            if kept <= 0:
                r = p.text(label, 42, GREY, (x, y), shadow=False)
                pygame.draw.line(p.s, RED, (r.left, r.centery), (r.right, r.centery), max(2, p.px(5)))
            else:
                p.text(label + (f"  (x{kept} left)" if kept != copies else ""), 42, WHITE, (x, y), shadow=False)
        y = box.top + p.px(470)
        chosen = t.get("chosen", [])
        if t.get("cancels"):
            p.text(f"cancels: {t['cancels']}  (chosen: {', '.join(chosen) or 'none yet'})", 32, GOLD, (x, y),
                   shadow=False, max_w=box.width * 0.46)
        cur = t.get("cursor")
        if cur:
            chip = pygame.Rect(0, 0, int(box.width * 0.42), p.px(64))
            chip.center = (int(x), y + p.px(62))
            p.panel(chip, colour, WHITE, width=4, radius=18)
            p.text(f"< cancel {cur} >", 40, DARK, chip.center, shadow=False, max_w=chip.width * 0.92)
    p.text("advantages left after cancelling shown in white", 28, GREY, (box.centerx, box.bottom - p.px(30)),
           shadow=False)


def draw_cancel(p: Painter, v: View) -> None:
    zb_base(p, v, dim=True)
    by = v.extra.get("by", "")
    box = sc.big_box(p, v.title or "CANCELLED", TEAM_COLOUR.get(by, CYAN), height=520)
    r = p.text(v.big, 110, WHITE, (box.centerx, box.top + p.px(130)), max_w=box.width * 0.8)
    pygame.draw.line(p.s, RED, (r.left, r.centery), (r.right, r.centery), max(3, p.px(10)))
    p.text(v.sub, 40, GOLD, (box.centerx, box.top + p.px(230)), shadow=False, max_w=box.width * 0.92)
    p.text("advantages left", 36, GREY, (box.centerx, box.top + p.px(300)), shadow=False)
    for team, x in _team_columns(p, box):
        left = v.extra.get("left", {}).get(team, [])
        p.text(TEAM_NAME[team], 50, TEAM_COLOUR[team], (x, box.top + p.px(360)))
        p.text(", ".join(left) or "none", 42, WHITE, (x, box.top + p.px(420)), shadow=False, max_w=box.width * 0.44)


def draw_advantages(p: Painter, v: View) -> None:
    zb_base(p, v, dim=True)
    box = sc.big_box(p, v.title or "ADVANTAGES IN FORCE", GOLD, height=620)
    active = v.extra.get("active", {})
    for team, x in _team_columns(p, box):
        p.text(TEAM_NAME[team], 60, TEAM_COLOUR[team], (x, box.top + p.px(110)))
        rows = active.get(team, [])
        if not rows:
            p.text("no advantage", 44, GREY, (x, box.top + p.px(190)), shadow=False)
        for i, (kind, text) in enumerate(rows[:4]):
            y = box.top + p.px(190 + 100 * i)
            p.text(kind, 46, WHITE, (x, y), max_w=box.width * 0.44)
            p.text(text, 28, GOLD, (x, y + p.px(42)), shadow=False, max_w=box.width * 0.46)


def draw_fight(p: Painter, v: View) -> None:
    """During the battle: who is in, who is out, extra hits and revives left, the advantages in force."""
    b = v.extra.get("battle", {})
    zb_base(p, v, ticker=False)
    cx, cy = p.w / 2, p.h * 0.55
    panel = pygame.Rect(0, 0, int(p.w * 0.44), p.px(330))
    panel.center = (int(cx), int(cy - p.px(40)))
    if v.ticker:
        p.text(v.ticker[-1], 34, WHITE, (cx, panel.bottom + p.px(40)), shadow=False, max_w=p.w * 0.48)
    p.panel(panel, DARK, RED, width=8, radius=30)
    restarts = b.get("restarts", 0)
    title = "BATTLE!" if not restarts else f"BATTLE! restart {restarts}"
    p.text(title, 70, RED, (panel.centerx, panel.top + p.px(50)))
    for i, team in enumerate(("zombies", "survivors")):
        t = b.get("teams", {}).get(team, {})
        y = panel.top + p.px(120 + 100 * i)
        colour = TEAM_COLOUR[team]
        ins = ", ".join(map(str, t.get("in", []))) or "nobody"
        outs = ", ".join(map(str, t.get("out", []))) or "-"
        p.text(f"{TEAM_NAME[team]}  in: {ins}   out: {outs}", 40, colour, (panel.centerx, y), max_w=panel.width * 0.94)
        extras = []
        if t.get("lives"):
            extras.append(f"+{t['lives']} hit each")
        if t.get("revives"):
            extras.append(f"{t['revives']} revive{'s' if t['revives'] != 1 else ''}")
        kinds = ", ".join(k for k, _ in t.get("active", []))
        line = "  -  ".join(x for x in (kinds, *extras) if x) or "no advantage"
        p.text(line, 30, WHITE, (panel.centerx, y + p.px(42)), shadow=False, max_w=panel.width * 0.94)


def draw_marker(p: Painter, v: View) -> None:
    zb_base(p, v, dim=True)
    team = v.extra.get("team", "")
    colour = TEAM_COLOUR.get(team, GOLD)
    box = sc.big_box(p, v.title or "BATTLE WON", colour, height=460)
    p.text(v.big, 170, colour, (box.centerx, box.top + p.px(170)), max_w=box.width * 0.9)
    p.text(v.sub, 60, WHITE, (box.centerx, box.top + p.px(300)))
    m = v.extra.get("markers", {})
    p.text(f"Zombies {m.get('zombies', 0)}  -  Survivors {m.get('survivors', 0)}", 48, GOLD,
           (box.centerx, box.top + p.px(380)), shadow=False)


def draw_winner(p: Painter, v: View) -> None:
    team = v.extra.get("team") or v.extra.get("winner") or ""
    colour = TEAM_COLOUR.get(team, GOLD)
    sc.background(p, colour)
    colours = (PINK, CYAN, LIME, GOLD, ORANGE)
    for i in range(90):  # fixed confetti: stable screenshots
        x = ((i * 733) % 1000) / 1000 * p.w
        y = (((i * 397) % 1000) / 1000 + v.progress) % 1.0 * p.h
        pygame.draw.rect(p.s, colours[i % 5], (x, y, p.px(18), p.px(34)))
    markers_strip(p, v)
    p.text(v.title or "WINNERS", 110, GOLD, (p.w / 2, p.h * 0.24))
    p.text(v.big, 240, colour, (p.w / 2, p.h * 0.47), max_w=p.w * 0.9)
    p.text(v.sub, 80, WHITE, (p.w / 2, p.h * 0.66))
    seats = v.extra.get("teams", {}).get(team, [])
    if seats:
        p.text("seats " + ", ".join(map(str, seats)), 56, WHITE, (p.w / 2, p.h * 0.8))


def draw_failsafe(p: Painter, v: View) -> None:
    sc.draw_failsafe(p, v)
    markers_strip(p, v)


def _base(p: Painter, v: View, highlight: set[int] | None, dim: bool) -> None:
    zb_base(p, v, highlight, dim)


SCREENS: dict[str, Callable[[Painter, View], None]] = {
    "zb_board": draw_board, "scoreboard": draw_board, "zb_teams": draw_teams, "zb_battle": draw_battle,
    "zb_setup": draw_setup, "zb_cancel": draw_cancel, "zb_advantages": draw_advantages, "zb_fight": draw_fight,
    "zb_marker": draw_marker, "winner": draw_winner, "failsafe": draw_failsafe,
}
sc.BASES["zombie-burrito"] = _base


# -- sample views: screenshot tests and docs/screens ---------------------------------------------------


def sample_views() -> dict[str, View]:
    """One View per Zombie Burrito screen, with fixed made-up content (4 seats: Zombies 1-2, Survivors 3-4)."""
    teams = {"zombies": [1, 2], "survivors": [3, 4]}
    base_extra: dict[str, Any] = {"markers": {"zombies": 1, "survivors": 2}, "teams": teams, "to_win": 3}
    ticker = ["Seat 3 lays down Survivor advantage body-armor: Each Survivor takes 1 extra hit before being out.",
              "BATTLE! called by seat 1 (Zombies)", "The Zombies cancel the Survivors' body-armor set"]

    def seats(roles: dict[int, str] | None = None, lives: dict[int, int] | None = None,
              notes: dict[int, str] | None = None) -> list[SeatView]:
        out = []
        for s in range(1, 5):
            sv = SeatView(seat=s, panel=s, team="zombies" if s <= 2 else "survivors", sets=(s * 2) % 3)
            sv.role = (roles or {}).get(s, "idle")
            sv.lives = (lives or {}).get(s, 0)
            sv.note = (notes or {}).get(s, "")
            out.append(sv)
        return out

    def view(screen: str, ss: list[SeatView], **kw: Any) -> View:
        extra = dict(base_extra, **kw.pop("extra", {}))
        return View(screen, ss, game="zombie-burrito", ticker=kw.pop("ticker", ticker), extra=extra, **kw)

    battle = {"declarer": 1, "phase": "setup", "restarts": 0, "teams": {
        "zombies": {"own": {"hunger": 1, "thick-skull": 2}, "left": {"hunger": 1, "thick-skull": 1}, "cancels": 1,
                    "chosen": [], "cancels_left": 1, "cursor": "body-armor", "active": [], "lives": 0, "revives": 0,
                    "in": [1, 2], "out": []},
        "survivors": {"own": {"body-armor": 1, "first-aid": 1}, "left": {"body-armor": 1, "first-aid": 1},
                      "cancels": 1, "chosen": ["thick-skull"], "cancels_left": 0, "cursor": None, "active": [],
                      "lives": 0, "revives": 0, "in": [3, 4], "out": []}}}
    fight = {"declarer": 1, "phase": "fight", "restarts": 0, "teams": {
        "zombies": {"active": [("hunger", ""), ("thick-skull", "")], "lives": 2, "revives": 1, "in": [1], "out": [2]},
        "survivors": {"active": [("first-aid", "")], "lives": 0, "revives": 0, "in": [3, 4], "out": []}}}
    fight_seats = seats({1: "declarer", 2: "out", 3: "fighter", 4: "fighter"}, {1: 1},
                        {1: "holds the Zombie burrito"})
    return {
        "zb_board": view("zb_board", seats(notes={3: "< survivor body-armor >"}),
                         sub="SET: lay down an advantage set    WAR: Battle!", banner="SIMULATION MODE"),
        "zb_teams": view("zb_teams", seats(), title="THE TEAMS", sub="Sit with your team!"),
        "zb_countdown": view("countdown", seats(), title="Seat 2 counts", big="ZOMBIE BURRITO!"),
        "zb_battle": view("zb_battle", seats({1: "declarer", 2: "fighter", 3: "fighter", 4: "fighter"}),
                          title="BATTLE!", big="SEAT 1", sub="called for the Zombies", extra={"team": "zombies"}),
        "zb_setup": view("zb_setup", seats({1: "declarer", 2: "fighter", 3: "fighter", 4: "fighter"}),
                         title="BATTLE SETUP", sub="declared by seat 1", extra={"battle": battle},
                         hint="BRAWL <  WAR >  choose a set to cancel  -  SET cancels it  -  throw to start"),
        "zb_cancel": view("zb_cancel", seats(), title="CANCELLED", big="body-armor",
                          sub="The Zombies cancel the Survivors' body-armor set",
                          extra={"by": "zombies", "left": {"zombies": ["hunger", "thick-skull"], "survivors": ["first-aid"]}}),
        "zb_advantages": view("zb_advantages", seats(), title="ADVANTAGES IN FORCE", extra={"active": {
            "zombies": [("hunger", "Each Zombie takes 1 extra hit, and once this battle 1 eliminated Zombie comes back in."),
                        ("thick-skull", "Each Zombie takes 1 extra hit before being out.")],
            "survivors": [("first-aid", "Once this battle, bring 1 eliminated Survivor back in.")]}}),
        "zb_fight": view("zb_fight", fight_seats, title="BATTLE!", extra={"battle": fight},
                         hint="DUEL: spend a revive  (BRAWL <  WAR >  pick, SET confirms)"),
        "zb_call": view("call", fight_seats, big="HIT!", sub="seat 2 is out - the Survivor burrito (2)"),
        "zb_tie": view("call", fight_seats, big="TIE!", sub="seats 1 and 3 are out at once: those two restart",
                       gap="20 ms apart: inside the tie window"),
        "zb_question": view("question", fight_seats, title="THE TABLE ASKS",
                            sub="Seat 3 caught burrito 1. Did you throw it?", options=["yes", "no"], chosen=[1],
                            progress=0.5),
        "zb_marker": view("zb_marker", seats(), title="BATTLE WON", big="SURVIVORS", sub="flip a Team Marker!",
                          extra={"team": "survivors"}),
        "zb_winner": view("winner", seats({3: "winner", 4: "winner"}), title="WINNERS", big="SURVIVORS",
                          sub="win the game!", extra={"team": "survivors", "markers": {"zombies": 1, "survivors": 3}}),
    }


#: how to play, for the lobby (hold WAR) and attract mode: the rulebook's essentials and this table's buttons
HOWTO: tuple[Page, ...] = tuple(replace(p, accent=ZOMBIE) for p in (
    Page("TWO TEAMS", ("Zombies against Survivors.", "The table deals the teams:", "sit with your team."),
         "teams"),
    Page("ADVANTAGES", ("Advantage sets help your team", "in the next battle: press SET", "and pick the kind.",
                        "The other team can cancel them."), "cards", ("ADV",)),
    Page("BATTLE!", ("Three battle cards: press WAR", "and shout Battle!", "Each team throws its own burrito",
                     "at the other team."), "buttons", ("ADVANTAGE", "< CHOOSE", "BATTLE!", "REVIVE")),
    Page("OUT!", ("Hit by the other team's burrito:", "you are out. Caught: the", "thrower is out.",
                  "DUEL spends a revive."), "throw", ("OUT!",)),
    Page("TEAM MARKERS", ("The last team standing wins", "the battle and flips a", "Team Marker.",
                          "Three markers win the game."), "markers"),
    )
)
