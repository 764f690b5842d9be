"""R11 with an undo: a challenge voted "wrong" makes the referee log an ``overturn``, which the rules apply (D21)."""

from __future__ import annotations

from test_ref_calls import calls, dev, duel, questions, run, run_answers, throw

from game.log import Table
from game.referee.evidence import evidence_lines
from hardware.events import SeatEvent


def duel_table() -> Table:
    table, _ = Table.start({"event": "setup", "game": "throw-throw-burrito", "seats": 4})
    table.apply(table.check({"t": 0.0, "event": "declare", "seat": 3, "battle": "duel"}))
    table.apply(table.check({"t": 0.1, "event": "pick", "seat": 3, "players": [1, 2]}))
    return table


def write(table: Table, out: list) -> None:
    for c in out:
        if isinstance(c, dict):
            table.apply(table.check(dict(c)))


def test_r11_a_hit_challenged_and_voted_wrong_is_overturned_in_the_log_and_the_bruise_goes_back() -> None:
    ref = duel()
    table = duel_table()
    out = run(ref, throw("burrito-1", 1.0, 1.5) + [dev("badge-2", "impact", 1.5025)], until=2.2)
    assert calls(out) == [("hit", 2)]
    write(table, out)
    table.advance(2.2)  # the tie window runs out: the loss and its bruise
    assert table.state.rounds[0].bruises == [0, 1, 0, 0]
    assert ref.seat(SeatEvent(2.5, 2, "SET", "hold"))  # seat 2: "it never touched me"
    q = questions(ref.poll(2.5))[0]
    out = run_answers(ref, q, {s: "wrong" for s in q.seats}, 3.0)
    assert calls(out) == [("overturn", 2)]
    ov = out[0]
    assert ov["call"] == "hit" and ov["burrito"] == 1 and ov["evidence"]["call_t"] == 1.5025
    assert ov["evidence"]["confirmed_by_people"] and "upheld" in ov["evidence"]["decided"]
    write(table, out)
    assert table.state.rounds[0].bruises == [0, 0, 0, 0]
    assert table.state.battle is not None and table.state.battle.loser is None
    assert not ref.seat(SeatEvent(3.5, 1, "SET", "hold"))  # the overturn is not a call to challenge again
    lines = evidence_lines(ov)
    assert "the last hit call (seat 2, burrito 1) is undone" in lines[0] and any("asked:" in x for x in lines)


def test_r11_a_call_voted_right_is_not_overturned() -> None:
    ref = duel()
    run(ref, throw("burrito-1", 1.0, 1.5) + [dev("badge-2", "impact", 1.5025)], until=2.2)
    assert ref.seat(SeatEvent(2.5, 2, "SET", "hold"))
    q = questions(ref.poll(2.5))[0]
    assert calls(run_answers(ref, q, {s: "right" for s in q.seats}, 3.0)) == []
