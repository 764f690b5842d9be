"""``burrito-table replay`` for Zombie Burrito: its log contract, bad input, and the golden demo log."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from replay_helpers import replay, write_log
from test_zb_helpers import adv, ev, lines, zombies_sweep

DEMO = "data/demo.jsonl"


def write(tmp_path: Path, rows: list[str]) -> str:
    return write_log(tmp_path, rows, "zb.jsonl")


def test_replay_json_prints_exactly_the_contract_object(tmp_path, capsys):
    path = write(tmp_path, lines([adv(0.5, 2, "zombie", "thick-skull"), adv(0.7, 1, "zombie", "thick-skull"),
                                  *zombies_sweep(1)]))
    code, out, err = replay(capsys, path, "--json")
    assert code == 0 and err == ""
    assert json.loads(out) == {
        "game": "zombie-burrito", "seats": 4, "teams": {"zombies": [1, 2], "survivors": [3, 4]},
        "markers": {"zombies": 1, "survivors": 0}, "winner": None,
        "battles": [{"declarer": 1, "active": {"zombies": ["thick-skull"], "survivors": []}, "out": [3, 4],
                     "restarts": 0, "winner": "zombies"}],
    }


def test_replay_without_json_prints_the_play_by_play_and_the_team_standings(tmp_path, capsys):
    code, out, _ = replay(capsys, write(tmp_path, lines(zombies_sweep(1))))
    assert code == 0
    assert "HIT! Seat 3 is out" in out and "Zombies (seats 1, 2): 1 Team Marker(s)" in out and "No winner yet" in out


def test_an_unfinished_battle_is_listed_with_no_winner(tmp_path, capsys):
    code, out, _ = replay(capsys, write(tmp_path, lines([ev(1, "declare", seat=4)])), "--json")
    assert code == 0 and json.loads(out)["battles"][0]["winner"] is None


def test_the_golden_demo_log_replays_to_its_known_summary(capsys):
    path = str(resources.files("game.games.zombie_burrito").joinpath(DEMO))
    code, out, err = replay(capsys, path, "--json")
    assert code == 0 and err == ""
    assert json.loads(out) == {
        "game": "zombie-burrito", "seats": 4, "teams": {"zombies": [1, 2], "survivors": [3, 4]},
        "markers": {"zombies": 3, "survivors": 1}, "winner": "zombies",
        "battles": [
            # first-aid x2, one cancelled: it still applies; seat 3 revived, so out from its last exit
            {"declarer": 1, "active": {"zombies": ["thick-skull"], "survivors": ["first-aid"]}, "out": [2, 4, 3],
             "restarts": 0, "winner": "zombies"},
            # a false "Battle!" by a Survivor
            {"declarer": 4, "active": {"zombies": [], "survivors": []}, "out": [], "restarts": 0, "winner": "zombies"},
            # shamble cancelled automatically; the final two hit 20 ms apart and restart
            {"declarer": 3, "active": {"zombies": [], "survivors": []}, "out": [1, 4, 2], "restarts": 1,
             "winner": "survivors"},
            {"declarer": 2, "active": {"zombies": ["hunger"], "survivors": []}, "out": [3, 4], "restarts": 0,
             "winner": "zombies"},
        ],
    }
    code, out, _ = replay(capsys, path)
    lines_out = out.splitlines()
    assert code == 0 and lines_out[-1] == "  Winner: the Zombies"
    for said in ("(they still have 1, so it still applies)", "REVIVE! Seat 3 is back in",
                 "harmless", "CATCH! Seat 4 catches the Zombie burrito: seat 2 is out",
                 "no Battle set! The Survivors lose the battle", "(automatic)", "TIE! Seats 2 and 3 are out 20 ms apart",
                 "flip their third Team Marker and win the game!"):
        assert said in out, said


BAD = [
    ("unknown advantage kind", [adv(1, 1, "zombie", "laser")], 2, "unknown zombie advantage kind 'laser'"),
    ("bad side", [ev(1, "advantage", seat=1, side="vampire", kind="x")], 2, "'side'"),
    ("missing kind", [ev(1, "advantage", seat=1, side="zombie")], 2, "missing field 'kind'"),
    ("seat out of range", [ev(1, "declare", seat=5)], 2, "outside 1..4"),
    ("seat zero", [ev(1, "foul", seat=0)], 2, "outside 1..4"),
    ("burrito out of range", [ev(1, "grab", seat=1, burrito=3)], 2, "outside 1..2"),
    ("bad valid", [ev(1, "declare", seat=1, valid="no")], 2, "'valid'"),
    ("bad team", [ev(1, "cancel", team="vampires", kind="flare")], 2, "'team'"),
    ("unknown event", [ev(1, "set", seat=1)], 2, "unknown event 'set'"),
    ("time backwards", [ev(5, "declare", seat=1), ev(4, "foul", seat=3)], 3, "backwards"),
    ("revive with none left",
     [ev(1, "declare", seat=1), ev(2, "throw", seat=1, burrito=1), ev(2.3, "hit", burrito=1, seat=3),
      ev(3, "revive", seat=3)], 5, "no revive left"),
    ("cancel with nothing to cancel with", [ev(1, "declare", seat=1), ev(2, "cancel", team="survivors", kind="shamble")],
     3, "laid no zombie set"),
]


@pytest.mark.parametrize(("what", "events", "line", "problem"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_exits_2_with_one_line_naming_the_line_and_nothing_on_stdout(tmp_path, capsys, what, events, line, problem):
    path = write(tmp_path, lines(events))
    for flags in ((), ("--json",)):
        code, out, err = replay(capsys, path, *flags)
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and f"line {line}: " in err and problem in err


def zb_setup(seats=4, **options):
    return {"event": "setup", "game": "zombie-burrito", "seats": seats, "options": options}


BAD_SETUPS = [
    (zb_setup(1), "'seats' must be 2-6"),
    (zb_setup(7), "'seats' must be 2-6"),
    ({"event": "setup", "game": "zombie-burrito"}, "missing 'seats'"),
    (zb_setup(4, teams={"zombies": [1, 2], "survivors": [3]}), "seat(s) 4 without a team"),
    (zb_setup(4, teams={"zombies": [1, 2, 3], "survivors": [4]}), "unbalanced"),
    (zb_setup(4, seed="x"), "'seed'"),
    (zb_setup(4, tie_window_ms=-5), "'tie_window_ms'"),
    (zb_setup(4, two_decks=True), "unknown setup option(s): two_decks"),
    (zb_setup(4, catalog={"zombie": {}}), "missing side 'survivor'"),
    (zb_setup(4, catalog={"zombie": {"x": {"lives": -1, "text": "t"}}, "survivor": {}}), "zombie.x: 'lives'"),
    (zb_setup(4, catalog={"zombie": {"x": {"lifes": 1, "text": "t"}}, "survivor": {}}), "unknown effect(s) 'lifes'"),
    ({"event": "setup", "game": "zombie-burrito", "seats": 4, "options": [1]}, "'options' must be an object"),
]


@pytest.mark.parametrize(("obj", "problem"), BAD_SETUPS)
def test_a_bad_zombie_burrito_setup_is_bad_input_on_line_1(tmp_path, capsys, obj, problem):
    code, out, err = replay(capsys, write(tmp_path, [json.dumps(obj)]), "--json")
    assert code == 2 and out == "" and "line 1: " in err and problem in err and err.count("\n") == 1

