"""The ``burrito-table replay`` contract: JSON on stdout, exit 0; bad input exit 2 with one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from replay_helpers import replay, write_log
from ttb_helpers import ev, hit_battle, lines, setup

ROOT = Path(__file__).resolve().parent.parent


def write(tmp_path: Path, rows: list[str]) -> str:
    return write_log(tmp_path, rows, "game.jsonl")


def test_replay_json_prints_one_object_with_the_contract_keys(tmp_path, capsys):
    path = write(tmp_path, lines([ev(1, "set", seat=2), *hit_battle(3, 2, "brawl", thrower=3, target=1)]))
    code, out, err = replay(capsys, path, "--json")
    assert code == 0 and err == ""
    summary = json.loads(out)
    assert summary["game"] == "throw-throw-burrito" and summary["seats"] == 4 and summary["round"] == 1
    assert summary["rounds"] == [
        {
            "round": 1,
            "points": {"1": -1, "2": 3, "3": 0, "4": 0},
            "bruises": {"1": 1, "2": 0, "3": 0, "4": 0},
            "winner": None,
            "sets": {"1": 0, "2": 1, "3": 0, "4": 0},
            "battle_sets": {"1": 0, "2": 1, "3": 0, "4": 0},
        }
    ]
    assert summary["badge"] is None and summary["winner"] is None
    b = summary["battles"][0]
    assert {k: b[k] for k in ("round", "kind", "declarer", "players", "loser")} == {
        "round": 1, "kind": "brawl", "declarer": 2, "players": [1, 3], "loser": 1
    }


def test_replay_of_an_unfinished_game_exits_0(tmp_path, capsys):
    code, out, _ = replay(capsys, write(tmp_path, lines([ev(1, "declare", seat=1, battle="duel")])), "--json")
    assert code == 0 and json.loads(out)["battles"][0]["loser"] is None


def test_replay_without_json_prints_a_readable_play_by_play(tmp_path, capsys):
    code, out, _ = replay(capsys, write(tmp_path, lines(hit_battle(3, 2, "brawl", thrower=3, target=1))))
    assert code == 0 and "HIT! Seat 1 is hit by seat 3" in out and "Standings" in out


def test_readable_standings_count_points_and_bruises_in_singular_and_plural(tmp_path, capsys):
    """"1 bruise" and "1 pt", never "1 bruises"; more than one (and none) take the plural."""
    events = [ev(1, "set", seat=2), *hit_battle(3, 2, "brawl", thrower=3, target=1),
              *hit_battle(10, 2, "brawl", thrower=3, target=1), *hit_battle(20, 2, "brawl", thrower=1, target=3)]
    code, out, _ = replay(capsys, write(tmp_path, lines(events)))
    row = next(line for line in out.splitlines() if line.startswith("  Round 1"))
    assert code == 0
    assert row.endswith("seat 2: 7 pts (0 bruises), seat 4: 0 pts (0 bruises), "
                        "seat 3: -1 pt (1 bruise), seat 1: -2 pts (2 bruises)")


def test_an_ignored_foul_is_said_in_the_play_by_play(tmp_path, capsys):
    code, out, _ = replay(capsys, write(tmp_path, lines([ev(1, "foul", seat=2)])))
    assert code == 0 and "Foul by seat 2 ignored" in out


BAD = [
    ("bad JSON", ['{"t": 1, "event": "set", "seat": 1'], 2, "bad JSON"),
    ("not an object", ["[1, 2]"], 2, "JSON object"),
    ("unknown event", [json.dumps(ev(1, "dance", seat=1))], 2, "unknown event 'dance'"),
    ("missing field", [json.dumps({"t": 1, "event": "set"})], 2, "missing field 'seat'"),
    ("missing t", [json.dumps({"event": "set", "seat": 1})], 2, "missing field 't'"),
    ("negative t", [json.dumps(ev(-1, "set", seat=1))], 2, "'t'"),
    ("wrong type", [json.dumps(ev(1, "set", seat="2"))], 2, "whole number"),
    ("bool seat", [json.dumps(ev(1, "set", seat=True))], 2, "whole number"),
    ("seat out of range", [json.dumps(ev(1, "set", seat=5))], 2, "outside 1..4"),
    ("burrito out of range", [json.dumps(ev(1, "grab", seat=1, burrito=3))], 2, "outside 1..2"),
    ("bad battle", [json.dumps(ev(1, "declare", seat=1, battle="fight"))], 2, "'battle'"),
    ("bad valid", [json.dumps(ev(1, "declare", seat=1, battle="war", valid="no"))], 2, "'valid'"),
    ("bad pick", [json.dumps(ev(1, "pick", seat=1, players=[2, 2]))], 2, "twice"),
    ("time backwards", [json.dumps(ev(5, "set", seat=1)), json.dumps(ev(4, "set", seat=1))], 3, "backwards"),
]


@pytest.mark.parametrize(("what", "rows", "line", "problem"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_exits_2_with_one_line_naming_the_line_and_nothing_on_stdout(tmp_path, capsys, what, rows, line, problem):
    path = write(tmp_path, [json.dumps(setup())] + rows)
    for flags in ((), ("--json",)):
        code, out, err = replay(capsys, path, *flags)
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and f"line {line}: " in err and problem in err


BAD_SETUPS = [
    ({"event": "set", "seat": 1, "t": 0}, "setup"),
    ({"event": "setup", "game": "chess", "seats": 4}, "unknown game"),
    ({"event": "setup", "game": "throw-throw-burrito", "seats": 1}, "seats"),
    ({"event": "setup", "game": "throw-throw-burrito", "seats": 7}, "seats"),
    ({"event": "setup", "game": "throw-throw-burrito", "seats": 13, "options": {"two_decks": True}}, "seats"),
    ({"event": "setup", "game": "throw-throw-burrito"}, "seats"),
    ({"event": "setup", "game": "throw-throw-burrito", "seats": 4, "options": {"tie_window": 5}}, "unknown setup option"),
    ({"event": "setup", "game": "throw-throw-burrito", "seats": 4, "options": {"seed": 1.5}}, "seed"),
    ({"event": "setup", "game": "throw-throw-burrito", "seats": 4, "options": {"tie_window_ms": -1}}, "tie_window_ms"),
    ({"event": "setup", "game": "throw-throw-burrito", "seats": 4, "options": []}, "options"),
]


@pytest.mark.parametrize(("obj", "problem"), BAD_SETUPS)
def test_a_bad_setup_is_bad_input_on_line_1(tmp_path, capsys, obj, problem):
    code, out, err = replay(capsys, write(tmp_path, [json.dumps(obj)]), "--json")
    assert code == 2 and out == "" and "line 1: " in err and problem in err and err.count("\n") == 1


def test_an_empty_log_and_a_missing_file_are_bad_input(tmp_path, capsys):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert replay(capsys, str(empty), "--json")[0] == 2
    code, out, err = replay(capsys, str(tmp_path / "nope.jsonl"), "--json")
    assert code == 2 and out == "" and "cannot read" in err


def test_the_console_script_runs_replay_in_a_fresh_process(tmp_path):
    path = write(tmp_path, lines(hit_battle(3, 2, "brawl", thrower=3, target=1)))
    done = subprocess.run([sys.executable, "-m", "game", "replay", path, "--json"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and json.loads(done.stdout)["battles"][0]["loser"] == 1


def test_replay_evidence_explains_every_call_and_says_when_there_was_none(tmp_path, capsys):
    hit = ev(3.5, "hit", burrito=1, seat=1)
    hit["evidence"] = {"burrito_device": "burrito-1", "contact": "impact", "contact_t": 3.4981, "launch_t": 3.1,
                       "badge_device": "badge-1", "badge_t": 3.5, "gap_ms": 1.9,
                       "decided": "burrito and badge impacts 1.9 ms apart (window 10 ms)"}
    rows = lines([ev(1, "declare", seat=2, battle="brawl"), ev(3.1, "throw", seat=3, burrito=1), hit])
    code, out, _ = replay(capsys, write(tmp_path, rows), "--evidence")
    assert code == 0
    evidence = out.split("Evidence", 1)[1]
    assert "badge-1 impact at 3.500 s, 1.9 ms after the burrito" in evidence
    assert "no device evidence" in evidence  # the throw was entered by hand
    code, out, _ = replay(capsys, write(tmp_path, rows), "--json", "--evidence")
    assert [c["event"] for c in json.loads(out)["calls"]] == ["throw", "hit"]
