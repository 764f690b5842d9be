"""Player names and colours from the setup line: ``"players": {"<seat>": {"name": "...", "colour": "#RRGGBB"}}``.

A name is part of the game's record (the journal, the play-by-play and the announcer use it), so it is checked
like any other setup field: a bad one is bad input, not silently dropped. Seats without an entry stay anonymous
("Seat N"). Names are unique at a table (case-insensitive): two "Sam"s would make every call ambiguous.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from game.rules.base import RuleInputError

#: longest name the screens fit in a seat box at 1280x720 and the announcer says in one breath
NAME_MAX = 16
_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")


@dataclass(frozen=True, slots=True)
class Player:
    """One seat's player: a name, a colour, or both."""

    name: str | None = None
    colour: str | None = None


def parse_players(obj: dict[str, Any], seats: int) -> dict[int, Player]:
    """The setup line's optional ``players`` object, checked: seat -> Player (1-based game seats)."""
    raw = obj.get("players")
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise RuleInputError(f"setup 'players' must be an object of seat -> {{name, colour}}, got {raw!r}")
    out: dict[int, Player] = {}
    seen: dict[str, str] = {}
    for key, entry in raw.items():
        if not (isinstance(key, str) and key.isdigit() and 1 <= int(key) <= seats):
            raise RuleInputError(f"setup 'players': seat {key!r} is not a seat number 1..{seats}")
        where = f"setup 'players' seat {key}"
        if not isinstance(entry, dict):
            raise RuleInputError(f"{where}: expected an object with 'name' and/or 'colour', got {entry!r}")
        unknown = sorted(set(entry) - {"name", "colour"})
        if unknown:
            raise RuleInputError(f"{where}: unknown key(s) {', '.join(unknown)} (known: name, colour)")
        name = entry.get("name")
        if name is not None:
            if not isinstance(name, str) or not name.strip() or not name.isprintable() or len(name) > NAME_MAX:
                raise RuleInputError(f"{where}: 'name' must be 1-{NAME_MAX} printable characters, got {name!r}")
            name = " ".join(name.split())
            if name.casefold() in seen:
                raise RuleInputError(f"{where}: the name {name!r} is already seat {seen[name.casefold()]}'s")
            seen[name.casefold()] = key
        colour = entry.get("colour")
        if colour is not None and not (isinstance(colour, str) and _COLOUR.fullmatch(colour)):
            raise RuleInputError(f"{where}: 'colour' must be #RRGGBB, got {colour!r}")
        out[int(key)] = Player(name=name, colour=colour.upper() if colour else None)
    return out


def players_json(players: dict[int, Player]) -> dict[str, dict[str, str]]:
    """The setup line's form of ``players`` (what the lobby writes)."""
    out: dict[str, dict[str, str]] = {}
    for seat, p in sorted(players.items()):
        entry = {k: v for k, v in (("name", p.name), ("colour", p.colour)) if v}
        if entry:
            out[str(seat)] = entry
    return out


_SEAT = re.compile(r"\b([Ss])eat (\d+)\b(?!\))")
_SEATS_PAIR = re.compile(r"\b[Ss]eats (\d+) and (\d+)\b")


def display_name(seat: int, players: dict[int, Player]) -> str:
    """What to call a seat: its player's name, or "Seat N"."""
    p = players.get(seat)
    return p.name if p is not None and p.name else f"Seat {seat}"


def name_seats(text: str, players: dict[int, Player]) -> str:
    """A rules announcement with "Seat N" / "seat N" replaced by the player's name where the seat has one.

    The rules speak in seats (they are pure and the same log may be replayed without names); every place that
    shows or says an announcement to people puts the names in here.
    """
    if not players or "eat" not in text:
        return text

    def pair(m: re.Match[str]) -> str:
        a, b = int(m[1]), int(m[2])
        if a in players and players[a].name or b in players and players[b].name:
            return f"{display_name(a, players)} and {display_name(b, players)}"
        return m[0]

    def one(m: re.Match[str]) -> str:
        p = players.get(int(m[2]))
        return p.name if p is not None and p.name else m[0]

    return _SEAT.sub(one, _SEATS_PAIR.sub(pair, text))
