"""Player names and colours in the setup line (the shared ``players`` key): every game accepts them, checks them,
the journal keeps them and the play-by-play uses them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.rules import rules_for
from game.rules.base import RuleInputError
from game.rules.players import Player, name_seats, parse_players, players_json

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"throw-throw-burrito": 4, "zombie-burrito": 4, "taco-vs-burrito": 3}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_games_setup_accepts_players(game: str) -> None:
    obj = {"event": "setup", "game": game, "seats": GAMES[game],
           "players": {"1": {"name": "Ana", "colour": "#ff8800"}, "3": {"name": "Bob"}}}
    setup = rules_for(game).parse_setup(obj)
    assert setup.players == {1: Player("Ana", "#FF8800"), 3: Player("Bob", None)}
    no_names = rules_for(game).parse_setup({"event": "setup", "game": game, "seats": GAMES[game]})
    assert no_names.players == {}


@pytest.mark.parametrize(("players", "problem"), [
    ({"7": {"name": "Ana"}}, "seat '7' is not a seat number 1..4"),
    ({"one": {"name": "Ana"}}, "seat 'one'"),
    ({"1": {"name": ""}}, "'name' must be 1-16 printable characters"),
    ({"1": {"name": "x" * 17}}, "'name' must be 1-16"),
    ({"1": {"name": "a\nb"}}, "printable"),
    ({"1": {"colour": "red"}}, "'colour' must be #RRGGBB"),
    ({"1": {"nick": "Ana"}}, "unknown key(s) nick"),
    ({"1": {"name": "Ana"}, "2": {"name": "ana"}}, "already seat 1's"),
    ([1, 2], "must be an object"),
])
def test_bad_players_are_bad_input_with_the_seat_named(players: object, problem: str) -> None:
    with pytest.raises(RuleInputError) as err:
        parse_players({"players": players}, 4)
    assert problem in str(err.value)


def test_names_replace_seats_in_announcements_and_anonymous_seats_stay_seats() -> None:
    players = {1: Player("Ana"), 3: Player("Bob"), 4: Player(None, "#00FF00")}
    assert name_seats("HIT! Seat 1 is hit by seat 3", players) == "HIT! Ana is hit by Bob"
    assert name_seats("CATCH! Seat 2 catches seat 3's burrito", players) == "CATCH! Seat 2 catches Bob's burrito"
    assert name_seats("TIE! Seats 1 and 4 are out 3 ms apart", players) == "TIE! Ana and Seat 4 are out 3 ms apart"
    assert name_seats("Seat 4 counts: 3, 2, 1, Burrito!", players) == "Seat 4 counts: 3, 2, 1, Burrito!"
    assert name_seats("Seat 12 wins", {1: Player("Ana")}) == "Seat 12 wins"  # not seat 1 + "2"
    assert players_json(players) == {"1": {"name": "Ana"}, "3": {"name": "Bob"}, "4": {"colour": "#00FF00"}}


def test_replay_and_the_journal_use_the_names(tmp_path: Path) -> None:
    lines = (ROOT / "game/games/throw_throw_burrito/data/demo.jsonl").read_text(encoding="utf-8").splitlines()
    setup = json.loads(lines[0])
    setup["players"] = {"1": {"name": "Ana", "colour": "#FF0000"}, "3": {"name": "Bob"}}
    log = tmp_path / "named.jsonl"
    log.write_text("\n".join([json.dumps(setup)] + lines[1:]) + "\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "game", "replay", str(log)], capture_output=True, text=True, check=True).stdout
    assert "HIT! Ana is hit by Bob" in out and "Brawl: Ana vs Bob" in out and "Seat 2 counts" in out
    db = tmp_path / "j.db"
    subprocess.run([sys.executable, "-m", "game", "record", str(log), "--journal", str(db)], capture_output=True, check=True)
    from game.journal import Journal

    with Journal(str(db)) as journal:
        kept, _ = journal.load(journal.games()[-1][0])
    assert kept["players"] == setup["players"]
    again = subprocess.run([sys.executable, "-m", "game", "replay", "--journal", str(db)], capture_output=True, text=True,
                           check=True).stdout
    assert again == out


def test_a_bad_name_in_a_log_exits_2_with_the_line() -> None:
    bad = json.dumps({"event": "setup", "game": "zombie-burrito", "seats": 4, "players": {"2": {"colour": "#12345"}}})
    res = subprocess.run([sys.executable, "-m", "game", "replay", "-"], input=bad + "\n", capture_output=True, text=True)
    assert res.returncode == 2 and res.stdout == ""
    assert "line 1" in res.stderr and "seat 2: 'colour' must be #RRGGBB" in res.stderr
