"""Zombie Burrito: Zombies against Survivors, advantage sets, battles with two burritos, Team Markers.

``rules`` (pure) with its advantage catalog in ``data/``, ``buttons``, ``screens``, ``bots`` (the demo players and
the event-level simulator) and the game's ``GAME`` object (``mode``), registered in the ``burrito_table.games``
entry points.
"""

from game.games.zombie_burrito.mode import GAME

__all__ = ["GAME"]
