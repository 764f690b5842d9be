"""The layout check: every screen of every installed game, at 1280x720 and 1920x1080, for every seat count the game
allows (2 to its most), drawn from its sample views; and the checker itself, fed planted faults.

What is checked is what the ``Painter`` really drew (``game.table.layout``): each text's box inside its card or area,
no two texts overlapping, no panel painted over a text, and text players read at least 28 px tall at 1080p.
"""

from __future__ import annotations

import time

import pygame
import pytest

from game.registry import GAMES
from game.table import layout
from game.table.present import View
from game.table.screens import MIN_TEXT, MIN_TEXT_PX, WHITE, Painter, sample_seats


@pytest.fixture(scope="module", autouse=True)
def _fonts() -> None:
    pygame.font.init()


def test_every_screen_of_every_game_passes_the_layout_check() -> None:
    """No screen of any game, at either size or any seat count, has a text out of its area, an overlap, a text
    painted over, or player text under 28 px at 1080p. Screens a game adds reach the check through its
    ``sample_views(seats=...)``."""
    surfaces = {size: pygame.Surface(size) for size in layout.SIZES}
    drawn = 0
    bad: list[str] = []
    start = time.perf_counter()
    for name, size, v in layout.every_screen():
        drawn += 1
        bad += [f"{name} {size[0]}x{size[1]}: {line}" for line in layout.check(v, size, surfaces[size])]
    assert not bad, f"{len(bad)} layout problems, the first:\n" + "\n".join(bad[:15])
    # coverage: each game's every seat count, both sizes; the lobby for 2 to 12 panels
    for mode in GAMES.values():
        lo, hi = mode.seats
        assert any(f"{mode.name}/" in n and f"({hi} seats)" in n for n, _, _ in layout.every_screen()), mode.name
    assert drawn > 500, drawn
    assert time.perf_counter() - start < 60


def test_each_game_offers_sample_views_for_every_seat_count() -> None:
    """A game with screens of its own shows them in the check: its sample views draw at each seat count."""
    for mode in GAMES.values():
        lo, hi = mode.seats
        for n in (max(2, lo), hi):
            views = mode.sample_views(seats=n)
            assert views, f"{mode.name} has no sample views"


def _painter() -> Painter:
    return Painter(pygame.Surface((1920, 1080)))


def test_the_checker_finds_a_planted_overlap() -> None:
    p = _painter()
    p.text("SEAT 1'S TURN", 72, WHITE, (960, 300))
    p.text("SEAT 2", 72, WHITE, (1000, 310))
    found = layout.problems(p)
    assert any("overlaps" in line for line in found), found


def test_the_checker_finds_text_out_of_its_card_and_too_small() -> None:
    p = _painter()
    card = pygame.Rect(100, 100, 200, 100)
    p.text("PANDA", 60, WHITE, (card.right, card.centery), area=None)
    p.drawn[-1].area = card  # the face drawn half off its card
    p.text("reminder", 28, WHITE, (960, 900))
    found = layout.problems(p)
    assert any("sticks out" in line for line in found), found
    assert any("px tall at 1080p" in line for line in found), found


def test_the_checker_finds_a_panel_painted_over_a_text() -> None:
    """The lobby's fault: a card drawn over the game's title."""
    p = _painter()
    p.text("Taco vs Burrito", 70, WHITE, (960, 250))
    p.panel(pygame.Rect(900, 200, 400, 200), (0, 0, 0), WHITE)
    assert any("painted over" in line for line in layout.problems(p))


def test_what_is_under_a_veil_is_background() -> None:
    """The dimmed board under a box is not held to the rules; what is drawn over the veil is."""
    p = _painter()
    p.text("ticker line", 36, WHITE, (960, 500))
    p.veil()
    p.panel(pygame.Rect(400, 300, 1100, 500), (0, 0, 0), WHITE)
    p.text("HIT!", 200, WHITE, (960, 520))
    assert layout.problems(p) == []


def test_the_fitting_helper_wraps_before_it_shrinks_below_the_minimum() -> None:
    """A reminder too long for one line is wrapped at a readable size, inside its box."""
    p = _painter()
    box = pygame.Rect(200, 200, 600, 200)
    text = "Each Zombie takes 1 extra hit, and once this battle 1 eliminated Zombie comes back in."
    rects = p.fit(text, 44, WHITE, box)
    assert len(rects) >= 2
    assert all(box.contains(r) and r.height >= MIN_TEXT_PX for r in rects)
    assert layout.problems(p) == []


def test_the_minimum_size_is_28_px_at_1080p() -> None:
    p = _painter()
    r = p.text("sets 3", MIN_TEXT, WHITE, (500, 500))
    assert r.height >= MIN_TEXT_PX == 28


def test_a_seat_card_keeps_its_texts_inside_at_twelve_seats() -> None:
    """The smallest cards (twelve seats) still hold points, sets, battle sets and a device line, readable."""
    v = View("scoreboard", sample_seats(12), ticker=["a"], banner="SIMULATION MODE")
    v.seats[0].device = "badge offline"
    v.seats[1].flash, v.seats[1].pending = "BRAWL", 2
    assert layout.check(v, (1920, 1080)) == []
