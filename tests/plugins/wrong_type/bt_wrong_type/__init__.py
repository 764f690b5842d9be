"""A game plugin whose ``GAME`` is a dict describing a game, not a ``GameMode``."""

GAME = {"name": "wrong-type", "title": "Wrong Type", "seats": (2, 4)}
