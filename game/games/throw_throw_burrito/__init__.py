"""Throw Throw Burrito: sets of three, battles with foam burritos, Burrito Bruises, the Fear Me badge.

``rules`` (pure), ``buttons``, ``screens``, ``bots`` and the game's ``GAME`` object (``mode``), registered in the
``burrito_table.games`` entry points.
"""

from game.games.throw_throw_burrito.mode import GAME

__all__ = ["GAME"]
