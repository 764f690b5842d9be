"""How the table app publishes: the ``--broker`` options and attaching a publisher to a ``TableApp``.

The app needs no knowledge of MQTT: the publisher listens to the cues the app already hands to ``on_cues`` (a game's
opening, every written event, time running on to the end) and reads the device host's health itself.
"""

from __future__ import annotations

import argparse
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.venue.publisher import Publisher


def _checked(check: Callable[[str], object]) -> Callable[[str], str]:
    """An argparse type: a bad value stops the command before anything is opened (exit 2, argparse's message)."""

    def parse(text: str) -> str:
        try:
            check(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        return text

    return parse


def add_broker_args(parser: Any) -> None:
    from game.venue.topics import check_name, parse_broker

    parser.add_argument("--broker", metavar="URL", type=_checked(parse_broker),
                        help="publish games, calls, standings and device health to this MQTT broker "
                             "(mqtt://host[:port]; see docs/venue.md)")
    parser.add_argument("--venue", default="default", metavar="NAME", type=_checked(lambda n: check_name("venue", n)),
                        help="venue name in the topics (default 'default')")
    parser.add_argument("--table", default=None, metavar="NAME", type=_checked(lambda n: check_name("table", n)),
                        help="table name in the topics (default: the host name)")


def attach_publisher(app: Any, args: Any, host: Any = None) -> Publisher | None:
    """A started publisher fed by ``app`` (and ``host``'s device health), or None without ``--broker``."""
    url = getattr(args, "broker", None)
    if not url:
        return None
    from game.venue.publisher import Publisher

    table = getattr(args, "table", None) or socket.gethostname().split(".")[0]
    publisher = Publisher(url, getattr(args, "venue", None) or "default", table)
    app.on_cues.append(lambda cues: publisher.table_changed(app))
    publisher.start()
    if host is not None and hasattr(host, "health"):
        publisher.watch_devices(host.health)
    return publisher
