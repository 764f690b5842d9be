"""Throw Throw Burrito's own screens: battle, duel pick, end of round, the Fear Me badge, tie-break, final, winner.

The drawing kit and the screens every game shares (lobby, scoreboard, countdown, call, question, menu, failsafe) are
in :mod:`game.table.screens`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pygame

from game.games.throw_throw_burrito.rules import name as GAME_NAME
from game.table.howto import Page
from game.table.present import View
from game.table.screens import (
    CYAN,
    DARK,
    GOLD,
    LIME,
    ORANGE,
    PINK,
    RED,
    WHITE,
    Painter,
    background,
    big_box,
    sample_seats,
    scoreboard_base,
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
    fighters = _fighters(v)
    scoreboard_base(p, v, highlight=fighters)
    box = pygame.Rect(0, 0, int(p.w * 0.46), p.px(250))
    box.center = (p.w // 2, int(p.h * 0.5))
    p.panel(box, DARK, RED, width=10, radius=36)
    p.text(v.title, 150, RED, (box.centerx, box.top + p.px(85)), max_w=box.width * 0.9)
    p.text(versus(v) if v.big else v.sub, 52, WHITE, (box.centerx, box.top + p.px(170)), max_w=box.width * 0.92)
    if v.big and v.sub:
        p.text(v.sub, 34, GOLD, (box.centerx, box.top + p.px(220)), shadow=False, max_w=box.width * 0.92)


def draw_pick(p: Painter, v: View) -> None:
    chosen = set(v.chosen)
    scoreboard_base(p, v, highlight=chosen | {v.cursor})
    box = big_box(p, v.title, GOLD, height=330)
    p.text(v.sub, 52, WHITE, (box.centerx, box.top + p.px(110)), max_w=box.width * 0.9)
    picks = "  +  ".join(who(v, s) for s in v.chosen) or "nobody yet"
    p.text(f"picked: {picks}", 48, LIME, (box.centerx, box.top + p.px(180)), max_w=box.width * 0.9)
    p.text(f"cursor on {who(v, v.cursor)}", 60, GOLD, (box.centerx, box.top + p.px(255)))


def draw_round_end(p: Painter, v: View) -> None:
    scoreboard_base(p, v, dim=True)
    box = big_box(p, v.title, GOLD, height=600)
    ranked = sorted(v.seats, key=lambda s: (-s.points, s.seat))
    for i, sv in enumerate(ranked[:6]):
        y = box.top + p.px(120 + 78 * i)
        colour = GOLD if i == 0 else WHITE
        p.text(f"{i + 1}.  {sv.name.upper() if sv.name else f'SEAT {sv.seat}'}", 64, colour, (box.left + box.width * 0.32, y))
        p.text(f"{sv.points} pts", 64, colour, (box.left + box.width * 0.66, y))
        if sv.bruises:
            p.text(f"{sv.bruises} bruise{'s' if sv.bruises != 1 else ''}", 36, RED, (box.left + box.width * 0.86, y),
                   shadow=False)


def draw_badge(p: Painter, v: View) -> None:
    scoreboard_base(p, v, dim=True)
    p.star((p.w / 2, p.h * 0.45), p.px(300), GOLD)
    p.text(v.title or "FEAR ME", 120, DARK, (p.w / 2, p.h * 0.47), shadow=False)
    p.text(v.big, 110, WHITE, (p.w / 2, p.h * 0.8))
    p.text(v.sub, 52, GOLD, (p.w / 2, p.h * 0.89))


def draw_tiebreak(p: Painter, v: View) -> None:
    scoreboard_base(p, v, highlight=_fighters(v), dim=True)
    box = big_box(p, v.title, ORANGE, height=460)
    p.text(versus(v, "  vs  "), 110, ORANGE, (box.centerx, box.top + p.px(190)),
           max_w=box.width * 0.9)
    p.text(v.sub, 44, WHITE, (box.centerx, box.top + p.px(330)), max_w=box.width * 0.92)


def draw_final(p: Painter, v: View) -> None:
    scoreboard_base(p, v, highlight=_fighters(v), dim=True)
    box = big_box(p, v.title, PINK, height=460)
    p.text(versus(v, "  vs  "), 110, PINK, (box.centerx, box.top + p.px(190)),
           max_w=box.width * 0.9)
    p.text(v.sub, 44, WHITE, (box.centerx, box.top + p.px(330)), max_w=box.width * 0.92)
    badge = next((s.seat for s in v.seats if s.badge), None)
    if badge:
        p.star((box.right - p.px(70), box.top + p.px(70)), p.px(60), GOLD)


def draw_winner(p: Painter, v: View) -> None:
    background(p, GOLD)
    # confetti: a fixed pattern (no random), so screenshots are stable
    colours = (PINK, CYAN, LIME, GOLD, ORANGE)
    for i in range(90):
        x = ((i * 733) % 1000) / 1000 * p.w
        y = (((i * 397) % 1000) / 1000 + v.progress) % 1.0 * p.h
        pygame.draw.rect(p.s, colours[i % 5], (x, y, p.px(18), p.px(34)))
    p.text(v.title or "WINNER", 110, GOLD, (p.w / 2, p.h * 0.22))
    p.text(v.big, 260, WHITE, (p.w / 2, p.h * 0.47), max_w=p.w * 0.9)
    p.text(v.sub, 80, LIME, (p.w / 2, p.h * 0.68))
    ranked = sorted(v.seats, key=lambda s: (-s.points, s.seat))
    line = "   ".join(f"{who(v, s.seat)}: {s.points}" for s in ranked)
    p.text(line, 44, WHITE, (p.w / 2, p.h * 0.82), max_w=p.w * 0.9)


SCREENS: dict[str, Callable[[Painter, View], None]] = {
    "battle": draw_battle, "pick": draw_pick, "round_end": draw_round_end, "badge": draw_badge,
    "tiebreak": draw_tiebreak, "final": draw_final, "winner": draw_winner,
}


def sample_views() -> dict[str, View]:
    """One View per screen of this game, with fixed made-up content (the screenshot tests and docs/screens)."""
    ticker = ["Seat 2 counts: 3, 2, 1, Burrito!", "Seat 4 loses the brawl (hit): Burrito Bruise!", "BRAWL! called by seat 1"]
    return {
        "battle": View("battle", game=GAME_NAME, seats=sample_seats(4, {2: "fighter", 4: "fighter", 1: "declarer"}), title="BRAWL!",
                       big="2 vs 4", sub="declared by seat 1", round=1, tokens_left=3, ticker=ticker),
        "pick": View("pick", game=GAME_NAME, seats=sample_seats(), title="DUEL!", sub="Seat 3: pick two duellists (yourself allowed)",
                     cursor=4, chosen=[3], hint="BRAWL <  WAR >  move   -   SET pick   -   DUEL un-pick",
                     tokens_left=4, ticker=ticker),
        "round_end": View("round_end", game=GAME_NAME, seats=sample_seats(), title="ROUND 1 OVER", tokens_left=0, ticker=ticker),
        "badge": View("badge", game=GAME_NAME, seats=sample_seats(), title="FEAR ME", big="SEAT 3", sub="holds the Fear Me badge",
                      tokens_left=0, ticker=ticker),
        "tiebreak": View("tiebreak", game=GAME_NAME, seats=sample_seats(), title="TIE-BREAK DUEL", big="1 vs 3",
                         sub="Tied on 5 points: seat 1, seat 3. Tie-break DUEL!", round=2, tokens_left=0, ticker=ticker),
        "final": View("final", game=GAME_NAME, seats=sample_seats(), title="FINAL DUEL", big="1 vs 3",
                      sub="FINAL DUEL: seat 1 against the Fear Me badge, seat 3!", round=2, tokens_left=0, ticker=ticker),
        "winner": View("winner", game=GAME_NAME, seats=sample_seats(4, {3: "winner"}), title="WINNER", big="SEAT 3", sub="wins the game!",
                       round=2, tokens_left=0),
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
