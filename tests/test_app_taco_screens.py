"""Screenshot tests of the Taco vs Burrito screens, and the per-seat OLED pictures (luma's dummy device).

Regenerate the references after a deliberate change with
``APP_REGENERATE_SCREENS=1 pytest tests/test_app_taco_screens.py`` (docs pictures:
``python -m game.games.taco_vs_burrito.screens docs/screens``).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game.games.taco_vs_burrito.buttons import HandBrowser, build_view
from game.games.taco_vs_burrito.screens import SCREENS, render, sample_views
from game.log import Table

REF = Path(__file__).parent / "app_reference"
SIZE = (1280, 720)
SMALL = (320, 180)
#: font rasterisation differs a little between FreeType builds: allow a small mean error and a few changed pixels
MEAN_TOL = 4.0
CHANGED_TOL = 0.03
VIEWS = sample_views()


def difference(a: pygame.Surface, b: pygame.Surface) -> tuple[float, float]:
    """(mean absolute channel error, fraction of pixels off by more than 40 in some channel), at 320x180."""
    x = pygame.image.tobytes(pygame.transform.smoothscale(a, SMALL), "RGB")
    y = pygame.image.tobytes(pygame.transform.smoothscale(b, SMALL), "RGB")
    total = sum(abs(p - q) for p, q in zip(x, y))
    changed = sum(1 for i in range(0, len(x), 3)
                  if max(abs(x[i] - y[i]), abs(x[i + 1] - y[i + 1]), abs(x[i + 2] - y[i + 2])) > 40)
    return total / len(x), changed / (len(x) // 3)


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_taco_screen_matches_its_reference_image(name: str) -> None:
    """Each TvB screen (table, peek, open hands, secret, choosing, countdown, Food Fight, game over) looks as
    approved, within the font tolerance."""
    got = render(VIEWS[name], SIZE)
    ref = REF / f"taco_{name}.png"
    if os.environ.get("APP_REGENERATE_SCREENS"):
        REF.mkdir(exist_ok=True)
        pygame.image.save(got, str(ref))
    assert ref.exists(), f"{ref} is missing: run with APP_REGENERATE_SCREENS=1 to create it"
    mean, changed = difference(got, pygame.image.load(str(ref)))
    assert mean <= MEAN_TOL and changed <= CHANGED_TOL, f"{name}: mean error {mean:.2f}, {changed:.1%} pixels changed"


def test_every_screen_has_a_sample() -> None:
    """No TvB screen is left out of the screenshot set."""
    assert set(SCREENS) <= {v.screen for v in VIEWS.values()}


def test_the_comparison_catches_a_wrong_countdown() -> None:
    """The tolerance is tight enough that a Si Bueno (two blocks, gold) instead of a No Bueno (pink) fails."""
    a = render(VIEWS["window"], SIZE)
    b = render(replace(VIEWS["window"], chain=[3, 1], countdown=2.9, progress=0.97), SIZE)
    mean, changed = difference(a, b)
    assert mean > MEAN_TOL or changed > CHANGED_TOL


def test_secret_meals_draw_as_card_backs_not_faces() -> None:
    """The Secret table hides meal cards: its picture differs from the open one where the meals are."""
    mean, changed = difference(render(VIEWS["table"], SIZE), render(VIEWS["secret"], SIZE))
    assert changed > CHANGED_TOL


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_a_live_table_view_draws_at_both_ends_of_the_size_range(size: tuple[int, int]) -> None:
    """A view built from a live table (not a sample) draws at 720p and 1080p without error."""
    state = Table.start({"event": "setup", "game": "taco-vs-burrito", "seats": 5,
                         "options": {"seed": 2, "variant": "secret"}})[0].state
    view = build_view(state, HandBrowser({1: 1}), {s: "normal" for s in range(2, 6)}, "open", 0.0)
    surf = render(view, size)
    assert surf.get_size() == size
