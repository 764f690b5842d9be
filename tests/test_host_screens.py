"""The party host's screens: each looks as approved (reference PNGs), and every how-to-play page fits its screen."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest
from test_app_screens import CHANGED_TOL, MEAN_TOL, REF, SIZE, difference

from game.registry import GAMES
from game.table.host_screens import sample_views
from game.table.howto import howto_view, pages_of
from game.table.screens import Painter, font, render

VIEWS = sample_views()


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_host_screen_matches_its_reference_image(name: str) -> None:
    """How-to-play, last winners, the named lobby and scoreboard (learning line, device strip), the settings page."""
    got = render(VIEWS[name], SIZE)
    ref = REF / f"host_{name}.png"
    if os.environ.get("APP_REGENERATE_SCREENS") or not ref.exists():
        if not os.environ.get("APP_REGENERATE_SCREENS"):
            pytest.fail(f"{ref} is missing: run with APP_REGENERATE_SCREENS=1 to create it")
        pygame.image.save(got, str(ref))
    mean, changed = difference(got, pygame.image.load(str(ref)))
    assert mean <= MEAN_TOL and changed <= CHANGED_TOL, f"{name}: mean error {mean:.2f}, {changed:.1%} pixels changed"


@pytest.mark.parametrize("game", ["throw-throw-burrito", "zombie-burrito", "taco-vs-burrito"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_every_how_to_play_page_fits_without_shrinking_text(game: str, size: tuple[int, int]) -> None:
    """3-6 pages a game; every line, title and picture label drawn at full size inside its column, readable at 3 m."""
    pages = pages_of(game)
    assert GAMES[game].howto() == pages and 3 <= len(pages) <= 6
    pygame.font.init()
    surf = pygame.Surface(size)
    p = Painter(surf)
    art_right = p.px(70) + int(p.w * 0.44)
    column = (p.w - art_right) * 0.92
    for k, page in enumerate(pages):
        assert 1 <= len(page.lines) <= 4, page.title
        for line in page.lines:
            assert font(p.px(58)).size(line)[0] <= column, f"{game} page {k + 1}: {line!r} is too wide"
        assert font(p.px(110)).size(page.title)[0] <= p.w * 0.9
        render(howto_view(game, k), size)  # every picture draws


def test_docs_screens_has_every_host_screen() -> None:
    docs = Path(__file__).resolve().parents[1] / "docs" / "screens"
    missing = [n for n in VIEWS if not (docs / f"{n}.png").exists()]
    assert not missing, f"run: python -m game.table.screens docs/screens ({missing})"
