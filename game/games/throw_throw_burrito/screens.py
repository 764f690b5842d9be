"""Throw Throw Burrito's own screens: battle, duel pick, end of round, the Fear Me badge, tie-break, final, winner.

The drawing kit and the screens every game shares (lobby, scoreboard, countdown, call, question, menu, failsafe) are
in :mod:`game.table.screens`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pygame

from game.games.throw_throw_burrito.rules import name as GAME_NAME
from game.table.howto import Page
from game.table.present import SeatView, View
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
    big_box,
    columns,
    inner,
    sample_seats,
    scoreboard_base,
    split_rows,
    ticker_lines,
)


def _fighters(v: View) -> set[int]:
    out = set()
    for part in v.big.replace("SEAT", "").split("vs"):
        part = part.strip()
        if part.isdigit():
            out.add(int(part))
    return out


def who(v: View, seat: int) -> str:
    """A seat as the screen calls it: its player's name (``SeatView.name``), else "seat N"."""
    named = next((sv.name for sv in v.seats if sv.seat == seat and sv.name), "")
    return named or f"seat {seat}"


def versus(v: View, sep: str = " vs ") -> str:
    """ "2 vs 4" (``View.big``) as "Ana vs seat 4"."""
    parts = [x.strip() for x in v.big.split("vs")]
    return sep.join(who(v, int(x)) if x.isdigit() else x for x in parts)


def draw_battle(p: Painter, v: View) -> None:
    """The battle call in the middle of the table, the newest announcement under it (never under the box)."""
    mid = scoreboard_base(p, v, highlight=_fighters(v), centre=False)
    box = pygame.Rect(0, 0, min(mid.width, int(p.w * 0.5)), int(min(mid.height * 0.72, p.px(300))))
    box.midtop = (mid.centerx, mid.top)
    p.panel(box, DARK, RED, width=10, radius=36)
    rows = split_rows(box.inflate(-p.px(30), -p.px(20)), 4)
    title = pygame.Rect(rows[0].left, rows[0].top, rows[0].width, rows[1].bottom - rows[0].top)
    p.text(v.title, min(150, title.height / p.u * 1.3), RED, title.center, area=title)
    line = versus(v) if v.big else v.sub
    p.text(line, min(60, rows[2].height / p.u * 1.2), WHITE, rows[2].center, area=rows[2])
    if v.big and v.sub:
        p.text(v.sub, min(52, rows[3].height / p.u * 1.15), GOLD, rows[3].center, shadow=False, area=rows[3])
    below = pygame.Rect(mid.left, box.bottom + p.px(10), mid.width, mid.bottom - box.bottom - p.px(10))
    if below.height >= p.px(36):
        ticker_lines(p, v, below, lines=max(1, min(2, int(below.height / p.px(46)))))


def draw_pick(p: Painter, v: View) -> None:
    chosen = set(v.chosen)
    scoreboard_base(p, v, highlight=chosen | {v.cursor}, dim=True)
    box = big_box(p, v.title, GOLD, height=360)
    rows = split_rows(inner(p, box), 3)
    p.text(v.sub, 52, WHITE, rows[0].center, area=rows[0])
    picks = "  +  ".join(who(v, s) for s in v.chosen) or "nobody yet"
    p.text(f"picked: {picks}", 52, LIME, rows[1].center, area=rows[1])
    p.text(f"cursor on {who(v, v.cursor)}", 60, GOLD, rows[2].center, area=rows[2])
    if v.hint:
        from game.table.screens import hint_line

        hint_line(p, v)


def ranks(points: list[int]) -> list[int]:
    """Standard competition ranking (1, 1, 3...): equal points share a place, as a four-way tie is four firsts."""
    return [1 + sum(1 for q in points if q > pt) for pt in points]


def pts(n: int) -> str:
    return f"{n} pt" if abs(n) == 1 else f"{n} pts"


def draw_round_end(p: Painter, v: View) -> None:
    """The round's points, best first; tied seats share a place ("1=")."""
    scoreboard_base(p, v, dim=True)
    box = big_box(p, v.title, GOLD, height=620)
    ranked = sorted(v.seats, key=lambda s: (-s.points, s.seat))
    places = ranks([s.points for s in ranked])
    area = inner(p, box, top=70)
    cols = 1 if len(ranked) <= 6 else 2
    per = -(-len(ranked) // cols)
    rows = split_rows(area, max(per, 4))
    cw = area.width / cols
    for i, (sv, place) in enumerate(zip(ranked, places)):
        col, row = divmod(i, per)
        cell = pygame.Rect(int(area.left + col * cw), rows[row].top, int(cw), rows[row].height)
        parts = columns(cell, (0.18, 0.32, 0.25, 0.25))
        colour = GOLD if place == 1 else WHITE
        tied = places.count(place) > 1
        size = min(64, cell.height / p.u * 1.1)
        p.text(f"{place}{'=' if tied else '.'}", size, colour, parts[0].center, area=parts[0])
        p.text(sv.name.upper() if sv.name else f"SEAT {sv.seat}", size, colour, parts[1].center, area=parts[1])
        p.text(pts(sv.points), size, colour, parts[2].center, area=parts[2])
        if sv.bruises:
            p.text(f"-{sv.bruises} bruise{'s' if sv.bruises != 1 else ''}", max(40, size * 0.7), RED,
                   parts[3].center, shadow=False, area=parts[3])


def draw_badge(p: Painter, v: View) -> None:
    """The Fear Me badge: a big star with the words on a plate across it, the holder under it."""
    scoreboard_base(p, v, dim=True)
    centre = (p.w / 2, p.h * 0.42)
    p.star(centre, p.px(300), GOLD)
    plate = pygame.Rect(0, 0, p.px(620), p.px(130))
    plate.center = (int(centre[0]), int(centre[1] + p.px(20)))
    p.panel(plate, DARK, GOLD, width=6, radius=30)
    p.text(v.title or "FEAR ME", 110, GOLD, plate.center, area=plate.inflate(-p.px(20), 0))
    p.text(v.big, 110, WHITE, (p.w / 2, p.h * 0.8), area=p.screen)
    p.text(v.sub, 56, GOLD, (p.w / 2, p.h * 0.9), area=p.screen)


def draw_tiebreak(p: Painter, v: View) -> None:
    scoreboard_base(p, v, highlight=_fighters(v), dim=True)
    box = big_box(p, v.title, ORANGE, height=460)
    area = inner(p, box)
    p.text(versus(v, "  vs  "), 110, ORANGE, (box.centerx, box.top + p.px(170)), area=area)
    p.fit(v.sub, 52, WHITE, pygame.Rect(area.left, box.top + p.px(270), area.width, p.px(140)))


def draw_final(p: Painter, v: View) -> None:
    scoreboard_base(p, v, highlight=_fighters(v), dim=True)
    box = big_box(p, v.title, PINK, height=460)
    area = inner(p, box)
    p.text(versus(v, "  vs  "), 110, PINK, (box.centerx, box.top + p.px(170)), area=area)
    p.fit(v.sub, 52, WHITE, pygame.Rect(area.left, box.top + p.px(270), area.width, p.px(140)))
    badge = next((s.seat for s in v.seats if s.badge), None)
    if badge:
        p.star((box.right - p.px(70), box.top + p.px(70)), p.px(60), GOLD)


def confetti(p: Painter, progress: float, keep_clear: pygame.Rect) -> None:
    """A fixed pattern (no random, so screenshots are stable) that never falls across ``keep_clear``."""
    colours = (PINK, CYAN, LIME, GOLD, ORANGE)
    for i in range(90):
        x = ((i * 733) % 1000) / 1000 * p.w
        y = (((i * 397) % 1000) / 1000 + progress) % 1.0 * p.h
        r = pygame.Rect(int(x), int(y), p.px(18), p.px(34))
        if not r.colliderect(keep_clear):
            pygame.draw.rect(p.s, colours[i % 5], r)


def draw_winner(p: Painter, v: View) -> None:
    """The winner, then every seat's points in both rounds (the game is won by duels, not by a points total)."""
    background(p, GOLD)
    plate = pygame.Rect(0, 0, int(p.w * 0.8), int(p.h * 0.84))
    plate.center = (p.w // 2, int(p.h * 0.52))
    confetti(p, v.progress, plate)
    p.panel(plate, DARK, GOLD, width=8, radius=40)
    area = plate.inflate(-p.px(40), -p.px(30))
    top = split_rows(pygame.Rect(area.left, area.top, area.width, int(area.height * 0.5)), 4)
    p.text(v.title or "WINNER", 100, GOLD, top[0].center, area=top[0])
    big = pygame.Rect(area.left, top[1].top, area.width, top[2].bottom - top[1].top)
    p.text(v.big, 200, WHITE, big.center, area=big)
    p.text(v.sub, 72, LIME, top[3].center, area=top[3])
    table = pygame.Rect(area.left, top[3].bottom, area.width, area.bottom - top[3].bottom)
    rounds: dict[str, list[int]] = v.extra.get("round_points", {})
    winner = _fighters(v)
    order = sorted(v.seats, key=lambda s: (s.seat not in winner, -sum(rounds.get(str(s.seat), [s.points])), s.seat))
    cols = 2 if len(order) <= 6 else 3
    per = -(-len(order) // cols)
    rows = split_rows(table, max(per, 3))
    cw = table.width / cols
    for i, sv in enumerate(order):
        col, row = divmod(i, per)
        cell = pygame.Rect(int(table.left + col * cw), rows[row].top, int(cw), rows[row].height)
        per_round = rounds.get(str(sv.seat), [sv.points])
        line = f"{who(v, sv.seat)}: " + " + ".join(map(str, per_round)) + (f" = {pts(sum(per_round))}"
                                                                          if len(per_round) > 1 else " pts")
        p.text(line, min(52, cell.height / p.u * 1.1), GOLD if sv.seat in winner else WHITE, cell.center,
               shadow=False, area=cell.inflate(-p.px(10), 0))


SCREENS: dict[str, Callable[[Painter, View], None]] = {
    "battle": draw_battle, "pick": draw_pick, "round_end": draw_round_end, "badge": draw_badge,
    "tiebreak": draw_tiebreak, "final": draw_final, "winner": draw_winner,
}


def sample_views(seats: int = 4) -> dict[str, View]:
    """One View per screen of this game, with fixed made-up content (the screenshot tests and docs/screens)."""
    ticker = ["Seat 2 counts: 3, 2, 1, Burrito!", "Seat 4 loses the brawl (hit): Burrito Bruise!", "BRAWL! called by seat 1"]
    last = seats
    third = min(3, seats)
    tie = sample_seats(seats)
    for sv in tie:
        sv.points = 1
    round_points: dict[str, Any] = {str(s): [p, (s * 3) % 5] for s, p in
                                    zip(range(1, seats + 1), [4, 2, 5, 1, 3, 0, 2, 1, 0, 3, 1, 2])}
    won: list[SeatView] = sample_seats(seats, {third: "winner"})
    for sv in won:
        sv.points = round_points[str(sv.seat)][1]
    return {
        "battle": View("battle", game=GAME_NAME, seats=sample_seats(seats, {2: "fighter", last: "fighter", 1: "declarer"}),
                       title="BRAWL!", big=f"2 vs {last}", sub="declared by seat 1", round=1, tokens_left=3,
                       ticker=ticker),
        "pick": View("pick", game=GAME_NAME, seats=sample_seats(seats), title="DUEL!",
                     sub=f"Seat {third}: pick two duellists (yourself allowed)", cursor=last, chosen=[third],
                     hint="BRAWL <  WAR >  move   -   SET pick   -   DUEL un-pick", tokens_left=4, ticker=ticker),
        "round_end": View("round_end", game=GAME_NAME, seats=sample_seats(seats), title="ROUND 1 OVER", tokens_left=0,
                          ticker=ticker),
        "round_tie": View("round_end", game=GAME_NAME, seats=tie, title="ROUND 2 OVER", tokens_left=0, ticker=ticker),
        "badge": View("badge", game=GAME_NAME, seats=sample_seats(seats), title="FEAR ME", big=f"SEAT {third}",
                      sub="holds the Fear Me badge", tokens_left=0, ticker=ticker),
        "tiebreak": View("tiebreak", game=GAME_NAME, seats=sample_seats(seats), title="TIE-BREAK DUEL",
                         big=f"1 vs {third}", sub=f"Tied on 5 points: seat 1, seat {third}. Tie-break DUEL!", round=2,
                         tokens_left=0, ticker=ticker),
        "final": View("final", game=GAME_NAME, seats=sample_seats(seats), title="FINAL DUEL", big=f"1 vs {third}",
                      sub=f"FINAL DUEL: seat 1 against the Fear Me badge, seat {third}!", round=2, tokens_left=0,
                      ticker=ticker),
        "winner": View("winner", game=GAME_NAME, seats=won, title="WINNER", big=f"SEAT {third}", sub="wins the game!",
                       round=2, tokens_left=0, extra={"round_points": round_points}),
    }


#: how to play, for the lobby (hold WAR) and attract mode: the rulebook's essentials and this table's buttons
HOWTO: tuple[Page, ...] = tuple(replace(p, accent=PINK) for p in (
    Page("COLLECT SETS", ("Pass cards round the table,", "one at a time, no turns.", "Three of a kind: press SET.",
                          "Each set is 1 point."), "cards", ("+1",)),
    Page("BATTLE SETS", ("Three Brawl, War or Duel cards:", "press that button. 2 points,",
                         "and a battle starts at once!"), "buttons", ("SET", "BRAWL", "WAR", "DUEL")),
    Page("BRAWL, WAR, DUEL", ("Brawl: your two neighbours fight.", "War: everyone else fights.",
                              "Duel: pick two duellists", "(BRAWL / WAR move, SET picks)."), "table", ("brawl",)),
    Page("THROW!", ("Grab a burrito and throw it", "at the other fighter.", "Hit them and they lose:",
                    "a Burrito Bruise (-1 point)."), "throw", ("HIT!",)),
    Page("CATCH IT", ("Catch a burrito thrown at you", "and the thrower loses.", "Hits at the same moment:",
                      "the table calls a tie Duel."), "throw", ("CATCH!",)),
    Page("WIN", ("Last Bruise handed out:", "most points wins the round.", "Round 1's winner: Fear Me badge.",
                 "Round 2's winner duels it."), "badge"),
    )
)
__all__ = ["HOWTO", "SCREENS", "sample_views", "ranks", "GREY"]
