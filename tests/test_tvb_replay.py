"""The ``burrito-table replay`` contract for Taco vs Burrito: the builtin demo log replays to its
golden summary, the ``--json`` object has exactly the contract's keys, and each of the contract's examples of
an illegal move exits 2 with the line number on stderr and nothing on stdout.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from replay_helpers import replay
from test_tvb_rules import CC, HSB, I1, I3, NB, TP, deal, ev, log_lines

from game.log import run_log

DEMO = "data/demo.jsonl"

#: The demo's end (a 3-seat bot game, hard/normal/easy, seed 9); both top scores re-added by hand from the meals.
GOLDEN = {
    "game": "taco-vs-burrito",
    "seats": 3,
    "turn": None,
    "over": True,
    "winners": [1],
    "scores": {"1": 22, "2": 20, "3": 0},
    "draw_pile": 0,
}


def demo_lines() -> list[str]:
    return resources.files("game.games.taco_vs_burrito").joinpath(DEMO).read_text(encoding="utf-8").splitlines()


def test_the_demo_log_replays_to_its_golden_summary(capsys, tmp_path):
    path = tmp_path / "demo-taco-vs-burrito.jsonl"
    path.write_text("\n".join(demo_lines()) + "\n", encoding="utf-8")
    code, out, err = replay(capsys, path, "--json")
    assert code == 0 and err == ""
    summary = json.loads(out)
    assert {k: summary[k] for k in GOLDEN} == GOLDEN
    assert len(summary["meals"]["1"]) == 11 and summary["meals"]["3"] == []
    assert summary["hands"]["2"] == []  # seat 2 played its last card
    assert len(summary["trash"]) == 26
    cards = sum(len(v) for v in summary["meals"].values()) + sum(len(v) for v in summary["hands"].values())
    assert cards + len(summary["trash"]) + summary["draw_pile"] == 56


def test_the_demo_uses_every_kind_of_event_and_action():
    events = [json.loads(line) for line in demo_lines()[1:]]
    assert {e["event"] for e in events} == {"place", "play", "discard", "block", "choose"}
    assert {e["card"] for e in events if e["event"] == "play"} == {CC, TP, "food-fight", "order-envy"}


def test_readable_replay_ends_with_the_standings_and_the_winner(capsys, tmp_path):
    path = tmp_path / "demo-taco-vs-burrito.jsonl"
    path.write_text("\n".join(demo_lines()), encoding="utf-8")
    code, out, _ = replay(capsys, path)
    assert code == 0
    assert out.rstrip().endswith("Winner: seat 1")
    assert "seat 1: 22 points" in out and "SI BUENO" in out and "HEALTH INSPECTOR" in out


def test_json_summary_has_exactly_the_contract_keys_and_turn_is_the_seat_to_move():
    table, _ = run_log(log_lines([ev(1, "discard", 1, card=I1)], seats=3, deck=deal({}, [I1] * 4, seats=3)))
    summary = table.summary()
    assert list(summary) == ["game", "seats", "turn", "over", "winners", "scores", "meals", "hands", "draw_pile", "trash"]
    assert summary["turn"] == 2 and summary["over"] is False and summary["winners"] == []
    assert summary["draw_pile"] == 2 and summary["trash"] == [I1]
    json.dumps(summary)


def write(tmp_path: Path, events: list[dict[str, Any]], hands: dict[int, list[str]], pile: list[str]) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(log_lines(events, deck=deal(hands, pile))) + "\n", encoding="utf-8")
    return path


BURN = [ev(1 + i, "discard", 1 + i % 2, card=I1) for i in range(8)]

ILLEGAL = [
    ("a card not in the hand", [ev(1, "discard", 1, card=HSB)], {}, "line 2: seat 1 has no hot-sauce-boss in hand"),
    ("a move out of turn", [ev(1, "discard", 2, card=I1)], {}, "line 2: seat 2 moved out of turn"),
    (
        "a block without a No Bueno in hand",
        [ev(1, "place", 1, card=I3, meal=1), ev(2, "block", 2)],
        {1: [I3]},
        "line 3: seat 2 blocks without a no-bueno in hand",
    ),
    (
        "a block against a last card",
        [*BURN, ev(9, "place", 1, card=I3, meal=1), ev(9.5, "block", 2)],
        {1: [I3], 2: [NB]},
        "line 11: event 'block' after the game",
    ),
    (
        "a third Trash Panda-on-Trash-Panda",
        [
            ev(1, "discard", 1, card=TP),
            ev(2, "play", 2, card=TP, item=TP),
            ev(6, "play", 1, card=TP, item=TP),
            ev(10, "play", 2, card=TP, item=TP),
        ],
        {1: [TP, TP, TP], 2: [TP, TP]},
        "line 5: seat 2's trash-panda: a Trash Panda was already taken by a Trash Panda 2 times",
    ),
    (
        "a Crafty Crow on an empty meal",
        [ev(1, "play", 1, card=CC, target=2, item=I1)],
        {1: [CC]},
        "line 2: seat 1's crafty-crow targets seat 2's meal, which is empty",
    ),
]


@pytest.mark.parametrize(("events", "hands", "message"), [i[1:] for i in ILLEGAL], ids=[i[0] for i in ILLEGAL])
def test_an_illegal_move_exits_2_with_the_line_and_reason_and_nothing_on_stdout(capsys, tmp_path, events, hands, message):
    path = write(tmp_path, events, hands, [])
    code, out, err = replay(capsys, path, "--json")
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_a_move_stamped_inside_the_block_window_exits_2(capsys, tmp_path):
    path = write(tmp_path, [ev(1, "place", 1, card=I3, meal=1), ev(3.5, "discard", 2, card=I1)], {1: [I3]}, [])
    code, out, err = replay(capsys, path)
    assert code == 2 and out == "" and "line 3:" in err and "block window" in err


def test_an_illegal_move_changes_nothing_and_the_journal_does_not_store_it(tmp_path):
    from game.games.taco_vs_burrito import rules as tvb
    from game.journal import Journal, JournaledTable
    from game.rules.base import RuleInputError

    setup = json.loads(log_lines([], deck=deal({1: [I3]}, []))[0])
    with Journal(str(tmp_path / "j.sqlite")) as journal:
        live, _ = JournaledTable.new(journal, setup)
        live.submit({"t": 1.0, "event": "place", "seat": 1, "card": I3, "meal": 1})
        before = (tvb.summary(live.table.state), live.table.state.t)
        with pytest.raises(RuleInputError, match="seat 2 blocks without a no-bueno"):
            live.submit({"t": 2.0, "event": "block", "seat": 2})
        assert (tvb.summary(live.table.state), live.table.state.t) == before
        assert len(journal.load(live.game_id)[1]) == 1
