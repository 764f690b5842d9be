"""A game plugin that cannot be imported: it needs a package that is not installed."""

import burrito_table_missing_dependency  # noqa: F401

GAME = None
