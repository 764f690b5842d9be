"""Player names in what people see and hear: "Seat 3" becomes "Ana" in announcements, the play-by-play and the
standings. The setup line's ``"players": {"<seat>": {"name": "...", "colour": "#RRGGBB"}}`` is checked by
``game.rules.base.parse_players`` (every game's ``parse_setup`` calls it; the rules import nothing else).
"""

from __future__ import annotations

import re

from game.rules.base import NAME_MAX, Player, parse_players

__all__ = ["NAME_MAX", "Player", "display_name", "name_seats", "parse_players", "players_json"]


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
