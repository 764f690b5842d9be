"""One folder per game, each a plugin: ``rules.py`` (pure), ``data/``, ``buttons.py``, ``screens.py``, ``bots.py``,
and an ``__init__.py`` that exports one ``GAME`` object. The table finds them through :mod:`game.registry`, never by
name; see docs/writing-a-game.md.
"""
