"""Names and colours chosen in the lobby: buttons cycle fun names and colours no other seat has; a keyboard types one."""

from __future__ import annotations

from game.rules.players import Player, parse_players, players_json
from game.table.names import COLOURS, FUN_NAMES, Naming, rgb


def test_buttons_cycle_names_and_colours_that_no_other_seat_has() -> None:
    n = Naming()
    n.open(1)
    n.open(2)
    a, b = n.cards[1], n.cards[2]
    assert a.name == FUN_NAMES[0] and b.name == FUN_NAMES[1]  # the first free name
    assert a.colour == COLOURS[0][0] and b.colour == COLOURS[1][0]
    n.button(2, "BRAWL")  # back from FUN_NAMES[1]: FUN_NAMES[0] is seat 1's, so it wraps to the last
    assert b.name == FUN_NAMES[-1]
    n.button(2, "WAR")
    assert b.name == FUN_NAMES[1]
    n.button(1, "SET")  # next colour, skipping seat 2's
    assert a.colour == COLOURS[2][0]
    n.button(1, "DUEL")
    assert not n.editing(1) and n.editing(2)
    names = {c.name for c in n.cards.values()}
    colours = {c.colour for c in n.cards.values()}
    assert len(names) == 2 and len(colours) == 2


def test_a_keyboard_types_a_name_into_the_open_card() -> None:
    n = Naming()
    n.open(3)
    assert n.key("a", "a") is False  # not typing yet: the key is a seat key as usual
    assert n.key("return") is True
    for ch in "Zoe  Q":
        n.key(ch, ch)
    n.key("backspace")
    assert n.cards[3].typing == "Zoe  "
    n.key("return")
    assert n.cards[3].name == "Zoe" and n.cards[3].typing is None
    n.key("return")
    n.key("x", "x")
    n.key("escape")
    assert n.cards[3].name == "Zoe"
    # a name another seat holds is refused
    n.open(4)
    n.key("return")
    for ch in "zoe":
        n.key(ch, ch)
    n.key("return")
    assert n.cards[4].name != "zoe"


def test_cards_become_the_setup_lines_players_by_game_seat() -> None:
    n = Naming()
    for panel in (5, 2):
        n.open(panel)
    players = n.players([2, 4, 5])  # game seats 1..3 are panels 2, 4, 5
    assert set(players) == {1, 3}
    assert players[1] == Player(n.cards[2].name, n.cards[2].colour)
    line = players_json(players)
    assert parse_players({"players": line}, 3) == players  # what the lobby writes, the rules accept
    assert rgb("#FF5AA0") == (255, 90, 160)
