"""Taco vs Burrito: a card game of meals, Tummy Aches and No Bueno blocks, dealt and run by the table.

``rules`` (pure, seeded) with its deck in ``data/``, ``buttons`` (the hand browser and the No Bueno race),
``screens`` and ``seat_screens``, ``bots`` and the game's ``GAME`` object (``mode``), registered in the
``burrito_table.games`` entry points.
"""

from game.games.taco_vs_burrito.mode import GAME

__all__ = ["GAME"]
