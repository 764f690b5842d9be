"""The ``burrito-table`` command line.

Each part of the project adds its own subcommands: ``game`` owns ``demo`` and
``replay``; ``hardware.cli`` and ``firmware_bridge.cli`` add theirs through an
``add_commands(subparsers)`` function, so this module stays a thin dispatcher.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

#: Modules that contribute subcommands with ``add_commands(subparsers)``.
COMMAND_MODULES = (
    "game.commands",
    "game.table.commands",
    "game.venue.commands",
    "hardware.cli",
    "firmware_bridge.cli",
    "firmware_bridge.host.commands",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="burrito-table",
        description="A party-table referee for foam-burrito card games.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if not exc.name or not (name == exc.name or name.startswith(exc.name + ".")):
                raise  # a real import error inside the module, not the module missing
            continue
        module.add_commands(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; each handler returns the process exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # The reader went away (``| head``): not an error of ours; keep the traceback off stderr.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
