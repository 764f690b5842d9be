"""A game plugin whose screens module (``SCREENS``, ``sample_views``, ``HOWTO``) is missing from the package."""

from game.games.throw_throw_burrito import rules
from game.table.mode import GameMode


class NoSampleViews(GameMode):
    name = "no-sample-views"
    title = "No Sample Views"
    seats = (2, 4)
    rules = rules
    screens_module = "bt_no_sample_views.screens"  # never shipped


GAME = NoSampleViews()
