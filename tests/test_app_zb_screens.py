"""Zombie Burrito screenshot tests: each ZB screen drawn headless and compared with its reference PNG.

Regenerate after a deliberate change: ``APP_REGENERATE_SCREENS=1 pytest tests/test_app_zb_screens.py``.
"""

from __future__ import annotations

import os

import pygame
import pytest

from game.games.zombie_burrito.screens import sample_views
from game.table.screens import render
from tests.test_app_screens import CHANGED_TOL, MEAN_TOL, REF, SIZE, difference

VIEWS = sample_views()


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_zombie_screen_matches_its_reference_image(name: str) -> None:
    """Teams, board, countdown, battle call, setup, cancellation, advantages, fight, call, tie, question, marker, winner."""
    got = render(VIEWS[name], SIZE)
    ref = REF / f"{name}.png"
    if os.environ.get("APP_REGENERATE_SCREENS"):
        pygame.image.save(got, str(ref))
    assert ref.exists(), f"{ref} is missing: run with APP_REGENERATE_SCREENS=1 to create it"
    mean, changed = difference(got, pygame.image.load(str(ref)))
    assert mean <= MEAN_TOL and changed <= CHANGED_TOL, f"{name}: mean error {mean:.2f}, {changed:.1%} pixels changed"


def test_team_markers_are_on_every_zombie_screen() -> None:
    """The markers strip is drawn on every ZB screen: changing the markers changes the top-left corner's pixels."""
    for name, v in VIEWS.items():
        other = type(v)(**{**v.__dict__, "extra": dict(v.extra, markers={"zombies": 0, "survivors": 0})})
        a, b = render(v, SIZE), render(other, SIZE)
        strip = pygame.Rect(0, 80, SIZE[0], 70)
        assert pygame.image.tobytes(a.subsurface(strip), "RGB") != pygame.image.tobytes(b.subsurface(strip), "RGB"), name


def test_the_setup_screen_shows_a_different_cursor_differently() -> None:
    """The cancel cursor is drawn: moving it to another kind fails the comparison with the reference."""
    v = VIEWS["zb_setup"]
    battle = {**v.extra["battle"], "teams": {**v.extra["battle"]["teams"]}}
    battle["teams"]["zombies"] = dict(battle["teams"]["zombies"], cursor=None)
    other = type(v)(**{**v.__dict__, "extra": dict(v.extra, battle=battle)})
    mean, changed = difference(render(v, SIZE), render(other, SIZE))
    assert changed > 0.002
