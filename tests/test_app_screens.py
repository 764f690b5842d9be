"""Screenshot tests: every screen drawn headless and compared with its reference PNG, within a tolerance.

Regenerate the references after a deliberate change with ``APP_REGENERATE_SCREENS=1 pytest tests/test_app_screens.py``
(and the README pictures with ``python -m game.table.screens docs/screens``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

from game.games.throw_throw_burrito.screens import SCREENS as TTB_SCREENS
from game.games.throw_throw_burrito.screens import sample_views as ttb_views
from game.table.screens import SCREENS, render, sample_views

REF = Path(__file__).parent / "app_reference"
SIZE = (1280, 720)
SMALL = (320, 180)
#: font rasterisation differs a little between FreeType builds: allow a small mean error and a few changed pixels
MEAN_TOL = 4.0
CHANGED_TOL = 0.03


def _small_bytes(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(pygame.transform.smoothscale(surface, SMALL), "RGB")


def difference(a: pygame.Surface, b: pygame.Surface) -> tuple[float, float]:
    """(mean absolute channel error, fraction of pixels off by more than 40 in some channel), at 320x180."""
    x, y = _small_bytes(a), _small_bytes(b)
    total = sum(abs(p - q) for p, q in zip(x, y))
    changed = sum(1 for i in range(0, len(x), 3)
                  if max(abs(x[i] - y[i]), abs(x[i + 1] - y[i + 1]), abs(x[i + 2] - y[i + 2])) > 40)
    return total / len(x), changed / (len(x) // 3)


VIEWS = {**sample_views(), **ttb_views()}


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_screen_matches_its_reference_image(name: str) -> None:
    """Each screen (lobby ... winner, failsafe, menu) looks as approved, within the font tolerance."""
    got = render(VIEWS[name], SIZE)
    ref = REF / f"{name}.png"
    if os.environ.get("APP_REGENERATE_SCREENS") or not ref.exists():
        if not os.environ.get("APP_REGENERATE_SCREENS"):
            pytest.fail(f"{ref} is missing: run with APP_REGENERATE_SCREENS=1 to create it")
        REF.mkdir(exist_ok=True)
        pygame.image.save(got, str(ref))
    mean, changed = difference(got, pygame.image.load(str(ref)))
    assert mean <= MEAN_TOL and changed <= CHANGED_TOL, f"{name}: mean error {mean:.2f}, {changed:.1%} pixels changed"


def test_the_comparison_catches_a_wrong_screen() -> None:
    """The tolerance is tight enough that a different call (MISS instead of HIT) fails the comparison."""
    hit = render(VIEWS["call"], SIZE)
    other = VIEWS["call"]
    other = type(other)(**{**other.__dict__, "big": "MISS", "gap": ""})
    mean, changed = difference(hit, render(other, SIZE))
    assert mean > MEAN_TOL or changed > CHANGED_TOL


def test_every_issue_screen_has_a_sample_and_a_drawer() -> None:
    """Lobby, scoreboard, battle call, countdown, call, question, round end, badge, tie-break, final duel, winner."""
    wanted = {"lobby", "scoreboard", "battle", "countdown", "call", "question", "round_end", "badge", "tiebreak",
              "final", "winner", "failsafe", "menu", "pick"}
    assert wanted <= set(VIEWS) and wanted <= set(SCREENS) | set(TTB_SCREENS)


@pytest.mark.parametrize("size", [(1280, 720), (1600, 900), (1920, 1080)])
def test_screens_scale_to_any_16_9_size_with_text_sized_from_the_height(size: tuple[int, int]) -> None:
    """Drawn at 720p and 1080p the picture is the same layout: the downscaled images agree."""
    for name in ("scoreboard", "call", "winner"):
        a = render(VIEWS[name], size)
        b = render(VIEWS[name], (1280, 720))
        mean, _ = difference(a, b)
        assert mean < 6.0, f"{name} at {size}: mean error {mean:.2f} against 720p"
