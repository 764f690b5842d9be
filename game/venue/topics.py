"""The MQTT contract between a table and a venue: topics, payload schema version, broker URLs.

Topics (``<venue>`` and ``<table>`` are the names given on the command line, ``/``, ``+`` and ``#`` refused)::

    burrito-table/<venue>/<table>/status                 retained; the last will sets it to "offline"
    burrito-table/<venue>/<table>/game/started           QoS 1, seq 0
    burrito-table/<venue>/<table>/game/call              QoS 1, one per journaled event, seq = its journal seq
    burrito-table/<venue>/<table>/game/standings         retained, the newest standings of the game in play
    burrito-table/<venue>/<table>/game/ended             QoS 1, seq = events + 1, the game's record (game.stats)
    burrito-table/<venue>/<table>/device/<device>/health retained, battery, link and counters of one device

Every payload is a JSON object with ``"v": SCHEMA_VERSION``; game messages carry ``game`` (the table's game key) and
``seq``, so (table, game, seq) names a message exactly once and a venue can upsert it any number of times.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from game.rules.base import brief

SCHEMA_VERSION = 1
ROOT = "burrito-table"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class BrokerURLError(ValueError):
    """A broker URL or a venue/table name that cannot be used: one line."""


@dataclass(frozen=True)
class Broker:
    host: str
    port: int
    username: str | None = None
    password: str | None = None


def parse_broker(url: str) -> Broker:
    """``mqtt://[user[:password]@]host[:port]`` (port 1883 by default); a bare ``host[:port]`` is accepted too."""
    text = url if "://" in url else f"mqtt://{url}"
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise BrokerURLError(f"--broker {brief(url, 60)}: {brief(str(exc), 80)}") from None
    if parts.scheme != "mqtt":
        raise BrokerURLError(f"--broker {brief(url, 60)}: only mqtt:// is supported (TLS: bridge through a local mosquitto)")
    if not parts.hostname:
        raise BrokerURLError(f"--broker {brief(url, 60)}: no host")
    return Broker(parts.hostname, port or 1883, parts.username, parts.password)


def check_name(what: str, name: str) -> str:
    """A venue or table name usable as one topic level."""
    if not _NAME.match(name):
        raise BrokerURLError(f"--{what} {brief(name, 60)}: use letters, digits, '-', '_' or '.' (at most 64), no '/', '+', '#'")
    return name


def table_topic(venue: str, table: str, *parts: str) -> str:
    return "/".join((ROOT, venue, table, *parts))


def parse_topic(topic: str) -> tuple[str, str, tuple[str, ...]] | None:
    """``(venue, table, rest)`` of a table topic, or None for anything else."""
    parts = topic.split("/")
    if len(parts) < 4 or parts[0] != ROOT:
        return None
    return parts[1], parts[2], tuple(parts[3:])
