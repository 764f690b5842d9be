"""The ``burrito-table`` command line.

Each part of the project adds its own subcommands: ``game`` owns ``demo`` and
``replay``; ``hardware.cli`` and ``firmware_bridge.cli`` add theirs through an
``add_commands(subparsers)`` function, so this module stays a thin dispatcher.

:func:`main` is also the last line of defence of the bad-input promise (docs/faults.md): a bad option is one line
and exit 2; standard output that cannot be written (a full device, an I/O error) is one line and exit 1; a reader
that went away (``| head -1``) ends the command quietly; Ctrl-C is one line and exit 130. None is a traceback.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from game.rules.base import bound

#: Modules that contribute subcommands with ``add_commands(subparsers)``.
COMMAND_MODULES = (
    "game.commands",
    "game.table.commands",
    "game.venue.commands",
    "hardware.cli",
    "firmware_bridge.cli",
    "firmware_bridge.host.commands",
)


class Parser(argparse.ArgumentParser):
    """argparse with a one-line refusal: a bad option is bad input like any other (exit 2, one stderr line)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, bound(f"{self.prog}: {message} (see {self.prog} --help)", 400) + "\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
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


def _broken_plugins() -> None:
    """Name each game plugin that did not load, one line each, once: every other game and command goes on."""
    from game.registry import GAMES

    if GAMES.loaded():
        for plugin in GAMES.broken():
            print(f"burrito-table: {plugin.line()}", file=sys.stderr)


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush cannot fail again at exit."""
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError, AttributeError):  # not a real file (a test's StringIO): nothing is left to flush
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _run(args: argparse.Namespace) -> int:
    status = int(args.func(args) or 0)
    sys.stdout.flush()  # inside the guard: a full device or a closed pipe is found here, not at interpreter exit
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; each handler returns the process exit status."""
    command = "burrito-table"
    if sys.stdout is None:  # started with standard output closed (``>&-``): there is nowhere to say anything
        print(f"{command}: cannot write standard output: it is closed", file=sys.stderr)
        return 1
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help (0) or a bad option (2, its one line already said)
            if exc.code == 0:
                _broken_plugins()
            sys.stdout.flush()
            return exc.code if isinstance(exc.code, int) else 2
        command = f"burrito-table {args.command}"
        if args.command != "games":  # that command lists them itself
            _broken_plugins()
        return _run(args)
    except BrokenPipeError:
        # The reader went away (``| head``): not an error of ours; keep the traceback off stderr.
        _silence_stdout()
        return 0
    except KeyboardInterrupt:
        _silence_stdout()
        print(f"{command}: interrupted", file=sys.stderr)
        return 130
    except RuntimeError as exc:
        pygame = sys.modules.get("pygame")
        if pygame is None or not isinstance(exc, pygame.error):
            raise
        # SDL could not do what the machine was asked (save a screenshot into a missing folder, open a display): its
        # message names the file or the device
        _silence_stdout()
        print(f"{command}: {bound(str(exc), 400)}", file=sys.stderr)
        return 1
    except OSError as exc:
        if exc.filename is not None or exc.errno not in (errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT):
            raise  # a file a command did not handle: a fault of ours, to be seen and fixed where it happens
        _silence_stdout()
        print(f"{command}: cannot write standard output: {exc.strerror}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
