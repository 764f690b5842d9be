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


def zb_card(p: Painter, sv: SeatView, rect: pygame.Rect, highlight: bool = False) -> None:
    team = TEAM_COLOUR.get(sv.team, GREY)
    out = sv.role == "out"
    if highlight:
        pygame.draw.rect(p.s, GOLD, rect.inflate(p.px(26), p.px(26)), border_radius=p.px(30))
    p.panel(rect, (24, 24, 34) if out else (30, 26, 70), GREY if out else team,
            width=9 if sv.role in ("fighter", "declarer", "winner") else 5)
    head, body = sc.header(p, rect, (60, 60, 70) if out else team, share=0.3)
    side = {"zombies": "ZOMBIE", "survivors": "SURVIVOR"}.get(sv.team, "")
    who = sv.name.upper() if sv.name else f"SEAT {sv.seat}"
    label = f"{who}  {side}" + (f"  {sv.flash}!" if sv.flash else "")
    p.text(label, sc.text_size(head, p), DARK if not out else WHITE, head.center, shadow=False, area=head)
    main, low = sc.split_rows(body.inflate(-p.px(8), -p.px(6)), 2)
    if sv.note:
        p.text(sv.note, sc.text_size(low, p, 44), WHITE, low.center, shadow=False, area=low)
    elif sv.device:
        p.text(sv.device, sc.text_size(low, p, 44), ORANGE, low.center, shadow=False, area=low)
    else:
        main = body.inflate(-p.px(8), -p.px(6))
    big = min(80, main.height / p.u * 1.1)
    if sv.role == "out":
        p.text("OUT", big, GREY, main.center, area=main)
    elif sv.role in ("fighter", "declarer"):
        if sv.lives:
            left, right = sc.columns(main, (0.45, 0.55))
            p.text("IN", big, team, left.center, area=left)
            p.text(f"+{sv.lives} hit{'s' if sv.lives != 1 else ''}", sc.text_size(right, p, 50), GOLD, right.center,
                   shadow=False, area=right)
        else:
            p.text("IN", big, team, main.center, area=main)
    elif sv.role == "winner":
        p.text("WINNER", big, GOLD, main.center, area=main)
    else:
        p.text(f"sets {sv.sets}", min(60, big), CYAN, main.center, shadow=False, area=main)
    if sv.flash:
        pygame.draw.rect(p.s, WHITE, rect.inflate(-p.px(10), -p.px(10)), width=p.px(6), border_radius=p.px(18))


#: the band the markers strip takes at the top of every Zombie Burrito screen, in units
TOP = 150


def zb_base(p: Painter, v: View, highlight: set[int] | None = None, dim: bool = False, ticker: bool = True
            ) -> pygame.Rect:
    """Backdrop, seat cards round the table in team colours, the markers, the ticker, banner and hint; returns the
    middle of the table (the ticker takes its lower part when ``ticker`` is on)."""
    sc.background(p, BACKDROP)
    n = len(v.seats)
    layout = sc.table_layout(p, max(1, n), top=TOP)
    for sv, rect in zip(v.seats, layout.cards):
        zb_card(p, sv, rect, highlight=bool(highlight and sv.seat in highlight))
    mid = layout.middle
    if ticker and v.ticker:
        lines = 3 if mid.height > p.px(380) else 2
        band = pygame.Rect(mid.left, mid.bottom - p.px(48) * lines, mid.width, p.px(48) * lines)
        sc.ticker_lines(p, v, band, lines)
        mid = pygame.Rect(mid.left, mid.top, mid.width, band.top - mid.top)
    sc.banner_strip(p, v)
    sc.hint_line(p, v)
    if dim:
        sc.scoreboard_veil(p)
    markers_strip(p, v)  # above the veil: the markers are always readable
    return mid


def draw_board(p: Painter, v: View) -> None:
    mid = zb_base(p, v)
    title, sub = sc.split_rows(mid, 2)
    p.text("ZOMBIE BURRITO", min(96, title.height / p.u * 1.2), ZOMBIE, title.center, area=title)
    if v.sub:
        p.fit(v.sub, 48, WHITE, sub, max_lines=2)


def draw_teams(p: Painter, v: View) -> None:
    zb_base(p, v, highlight=None, dim=True)
    box = sc.big_box(p, v.title or "THE TEAMS", GOLD, height=560)
    area = sc.inner(p, box)
    teams = v.extra.get("teams", {})
    top = pygame.Rect(area.left, area.top, area.width, int(area.height * 0.62))
    for (team, _), col in zip(_team_columns(p, box), sc.columns(top, (0.5, 0.5))):
        r1, r2, r3 = sc.split_rows(col.inflate(-p.px(16), 0), 3)
        p.text(TEAM_NAME[team], 80, TEAM_COLOUR[team], r1.center, area=r1)
        seats = teams.get(team, [])
        p.text("seats " + ", ".join(map(str, seats)), 64, WHITE, r2.center, area=r2)
        p.text(f"{len(seats)} player{'s' if len(seats) != 1 else ''}", 48, GREY, r3.center, shadow=False, area=r3)
    low1, low2 = sc.split_rows(pygame.Rect(area.left, top.bottom, area.width, area.bottom - top.bottom), 2)
    p.text(v.sub or "Sit with your team!", 56, LIME, low1.center, area=low1)
    p.text("teammates sit side by side: the card colours show where", 44, WHITE, low2.center, shadow=False, area=low2)


def draw_battle(p: Painter, v: View) -> None:
    decl = {int(v.big.split()[-1])} if v.big.split() and v.big.split()[-1].isdigit() else set()
    mid = zb_base(p, v, highlight=decl)
    colour = TEAM_COLOUR.get(v.extra.get("team", ""), RED)
    box = pygame.Rect(0, 0, min(mid.width, int(p.w * 0.5)), min(mid.height, p.px(260)))
    box.center = mid.center
    p.panel(box, DARK, colour, width=10, radius=36)
    r1, r2 = sc.split_rows(box.inflate(-p.px(30), -p.px(20)), 2)
    p.text(v.title, min(150, r1.height / p.u * 1.3), RED, r1.center, area=r1)
    p.text(f"{v.big.lower()} {v.sub}", min(56, r2.height / p.u * 1.1), colour, r2.center, area=r2)


def _team_columns(p: Painter, box: pygame.Rect) -> list[tuple[str, float]]:
    return [("zombies", box.left + box.width * 0.26), ("survivors", box.left + box.width * 0.74)]


def draw_setup(p: Painter, v: View) -> None:
    """Battle setup: each team's sets, the cancellations chosen, the cursor of a team still choosing, what is left."""
    b = v.extra.get("battle", {})
    zb_base(p, v, highlight={b.get("declarer", 0)}, dim=True)
    box = sc.big_box(p, v.title or "BATTLE SETUP", CYAN, height=700)
    area = sc.inner(p, box, top=50)
    head, body = pygame.Rect(area.left, area.top, area.width, p.px(50)), None
    p.text(v.sub, 44, GREY, head.center, shadow=False, area=head)
    body = pygame.Rect(area.left, head.bottom, area.width, area.bottom - head.bottom)
    for (team, _), col in zip(_team_columns(p, box), sc.columns(body, (0.5, 0.5))):
        col = col.inflate(-p.px(16), 0)
        t = b.get("teams", {}).get(team, {})
        colour = TEAM_COLOUR[team]
        own = t.get("own", {})
        left = t.get("left", {})
        lines = sc.split_rows(col, 9)
        p.text(TEAM_NAME[team], 60, colour, lines[0].center, area=lines[0])
        p.text("advantage sets:" if own else "no advantage sets", 44, GREY, lines[1].center, shadow=False,
               area=lines[1])
        for row, (kind, copies) in zip(lines[2:6], own.items()):
            kept = left.get(kind, 0)
            label = f"{kind} x{copies}" if copies > 1 else kind
            if kept <= 0:
                r = p.text(label, 48, GREY, row.center, shadow=False, area=row)
                pygame.draw.line(p.s, RED, (r.left, r.centery), (r.right, r.centery), max(2, p.px(5)))
            else:
                p.text(label + (f"  (x{kept} left)" if kept != copies else ""), 48, WHITE, row.center, shadow=False,
                       area=row)
        chosen = t.get("chosen", [])
        if t.get("cancels"):
            cancel = pygame.Rect(col.left, lines[6].top, col.width, lines[7].bottom - lines[6].top)
            p.fit(f"cancels: {t['cancels']}  (chosen: {', '.join(chosen) or 'none yet'})", 44, GOLD, cancel,
                  max_lines=2)
        cur = t.get("cursor")
        if cur:
            chip = lines[8].inflate(-p.px(20), 0)
            p.panel(chip, colour, WHITE, width=4, radius=18)
            p.text(f"< cancel {cur} >", 44, DARK, chip.center, shadow=False, area=chip.inflate(-p.px(12), 0))
    sc.hint_line(p, v)


def draw_cancel(p: Painter, v: View) -> None:
    zb_base(p, v, dim=True)
    by = v.extra.get("by", "")
    box = sc.big_box(p, v.title or "CANCELLED", TEAM_COLOUR.get(by, CYAN), height=560)
    area = sc.inner(p, box)
    r1, r2, r3, r4, r5 = sc.split_rows(area, 5)
    r = p.text(v.big, 110, WHITE, r1.center, area=r1)
    pygame.draw.line(p.s, RED, (r.left, r.centery), (r.right, r.centery), max(3, p.px(10)))
    p.text(v.sub, 48, GOLD, r2.center, shadow=False, area=r2)
    p.text("advantages left", 44, GREY, r3.center, shadow=False, area=r3)
    for (team, _), c4, c5 in zip(_team_columns(p, box), sc.columns(r4, (0.5, 0.5)), sc.columns(r5, (0.5, 0.5))):
        left = v.extra.get("left", {}).get(team, [])
        p.text(TEAM_NAME[team], 56, TEAM_COLOUR[team], c4.center, area=c4)
        p.text(", ".join(left) or "none", 48, WHITE, c5.center, shadow=False, area=c5.inflate(-p.px(12), 0))


def draw_advantages(p: Painter, v: View) -> None:
    """ADVANTAGES IN FORCE: each team's kinds with their reminder text, wrapped big enough to read across the room."""
    zb_base(p, v, dim=True)
    box = sc.big_box(p, v.title or "ADVANTAGES IN FORCE", GOLD, height=800)
    box.center = (p.w // 2, int(p.h * 0.56))
    area = sc.inner(p, box, top=50)
    active = v.extra.get("active", {})
    for (team, _), col in zip(_team_columns(p, box), sc.columns(area, (0.5, 0.5))):
        col = col.inflate(-p.px(20), 0)
        head = pygame.Rect(col.left, col.top, col.width, p.px(70))
        p.text(TEAM_NAME[team], 60, TEAM_COLOUR[team], head.center, area=head)
        rows = active.get(team, [])
        body = pygame.Rect(col.left, head.bottom, col.width, col.bottom - head.bottom)
        if not rows:
            p.text("no advantage", 48, GREY, (body.centerx, body.top + p.px(40)), shadow=False, area=body)
            continue
        for (kind, text), cell in zip(rows[:3], sc.split_rows(body, max(2, min(3, len(rows))))):
            name = pygame.Rect(cell.left, cell.top, cell.width, p.px(56))
            p.text(kind, 52, WHITE, name.center, area=name)
            p.fit(text, 44, GOLD, pygame.Rect(cell.left, name.bottom, cell.width, cell.bottom - name.bottom), top=True)


def draw_fight(p: Painter, v: View) -> None:
    """During the battle: who is in, who is out, extra hits and revives left, the advantages in force."""
    b = v.extra.get("battle", {})
    mid = zb_base(p, v, ticker=False)
    lines = split = sc.split_rows(mid, 6)
    panel = pygame.Rect(mid.left, mid.top, mid.width, split[4].bottom - mid.top)
    if v.ticker:
        p.text(v.ticker[-1], sc.text_size(split[5], p, 44), WHITE, split[5].center, shadow=False, area=split[5])
    p.panel(panel, DARK, RED, width=8, radius=30)
    inside = panel.inflate(-p.px(24), -p.px(12))
    lines = sc.split_rows(inside, 5)
    restarts = b.get("restarts", 0)
    title = "BATTLE!" if not restarts else f"BATTLE! restart {restarts}"
    p.text(title, min(70, lines[0].height / p.u * 1.2), RED, lines[0].center, area=lines[0])
    for i, team in enumerate(("zombies", "survivors")):
        t = b.get("teams", {}).get(team, {})
        colour = TEAM_COLOUR[team]
        ins = ", ".join(map(str, t.get("in", []))) or "nobody"
        outs = ", ".join(map(str, t.get("out", []))) or "-"
        row, more = lines[1 + 2 * i], lines[2 + 2 * i]
        p.text(f"{TEAM_NAME[team]}  in: {ins}   out: {outs}", sc.text_size(row, p, 52), colour, row.center, area=row)
        extras = []
        if t.get("lives"):
            extras.append(f"+{t['lives']} hit each")
        if t.get("revives"):
            extras.append(f"{t['revives']} revive{'s' if t['revives'] != 1 else ''}")
        kinds = ", ".join(k for k, _ in t.get("active", []))
        line = "  -  ".join(x for x in (kinds, *extras) if x) or "no advantage"
        p.text(line, sc.text_size(more, p, 46), WHITE, more.center, shadow=False, area=more)


def draw_marker(p: Painter, v: View) -> None:
    zb_base(p, v, dim=True)
    team = v.extra.get("team", "")
    colour = TEAM_COLOUR.get(team, GOLD)
    box = sc.big_box(p, v.title or "BATTLE WON", colour, height=480)
    area = sc.inner(p, box)
    big = pygame.Rect(area.left, area.top, area.width, int(area.height * 0.5))
    r2, r3 = sc.split_rows(pygame.Rect(area.left, big.bottom, area.width, area.bottom - big.bottom), 2)
    p.text(v.big, 170, colour, big.center, area=big)
    p.text(v.sub, 60, WHITE, r2.center, area=r2)
    m = v.extra.get("markers", {})
    p.text(f"Zombies {m.get('zombies', 0)}  -  Survivors {m.get('survivors', 0)}", 52, GOLD, r3.center, shadow=False,
           area=r3)


def draw_winner(p: Painter, v: View) -> None:
    team = v.extra.get("team") or v.extra.get("winner") or ""
    colour = TEAM_COLOUR.get(team, GOLD)
    sc.background(p, colour)
    plate = pygame.Rect(0, 0, int(p.w * 0.8), int(p.h * 0.74))
    plate.midtop = (p.w // 2, p.px(TOP))
    colours = (PINK, CYAN, LIME, GOLD, ORANGE)
    for i in range(90):  # fixed confetti (stable screenshots), never across the words
        x = ((i * 733) % 1000) / 1000 * p.w
        y = (((i * 397) % 1000) / 1000 + v.progress) % 1.0 * p.h
        r = pygame.Rect(int(x), int(y), p.px(18), p.px(34))
        if not r.colliderect(plate) and r.top > p.px(TOP):
            pygame.draw.rect(p.s, colours[i % 5], r)
    p.panel(plate, DARK, colour, width=8, radius=40)
    markers_strip(p, v)
    r1, r2, r3, r4 = sc.split_rows(plate.inflate(-p.px(40), -p.px(30)), 4)
    p.text(v.title or "WINNERS", 100, GOLD, r1.center, area=r1)
    p.text(v.big, 200, colour, r2.center, area=r2.inflate(0, p.px(40)))
    p.text(v.sub, 80, WHITE, r3.center, area=r3)
    seats = v.extra.get("teams", {}).get(team, [])
    if seats:
        p.text("seats " + ", ".join(map(str, seats)), 60, WHITE, r4.center, area=r4)


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


def sample_views(n: int = 4) -> dict[str, View]:
    """One View per Zombie Burrito screen, with fixed made-up content (``n`` seats: the first half Zombies, as at
    4 seats Zombies 1-2, Survivors 3-4)."""
    half = (n + 1) // 2
    teams = {"zombies": list(range(1, half + 1)), "survivors": list(range(half + 1, n + 1))}
    base_extra: dict[str, Any] = {"markers": {"zombies": 1, "survivors": 2}, "teams": teams, "to_win": 3}
    ticker = ["Seat 3 lays down Survivor advantage body-armor: Each Survivor takes 1 extra hit before being out.",
              "BATTLE! called by seat 1 (Zombies)", "The Zombies cancel the Survivors' body-armor set"]

    def seats(roles: dict[int, str] | None = None, lives: dict[int, int] | None = None,
              notes: dict[int, str] | None = None) -> list[SeatView]:
        out = []
        for s in range(1, n + 1):
            sv = SeatView(seat=s, panel=s, team="zombies" if s <= half else "survivors", sets=(s * 2) % 3)
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
