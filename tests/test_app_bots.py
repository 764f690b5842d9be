"""The demo's bots answer the referee's questions with what really happened (never a blanket "yes")."""

from __future__ import annotations

from types import SimpleNamespace

from game.games.throw_throw_burrito.bots import Bots
from game.referee import Question


def bots_with(flights):
    app = SimpleNamespace(referee=SimpleNamespace(tie_window=0.045))
    b = Bots(app, rig=None, seed=1)  # type: ignore[arg-type]
    b.flights = list(flights)
    return b


def q(seats, options=("yes", "no")):
    return Question(1, 10.0, "?", tuple(seats), tuple(options), 18.0)


def test_only_the_seat_really_hit_says_yes_to_were_you_hit():
    b = bots_with([(10.0, 2, 1, 4, "hit")])
    subject = {"purpose": "hit?", "burrito": 1, "contact_t": 10.01}
    assert [b.answer(q([2, 4]), subject, s) for s in (2, 4)] == [1, 0]  # seat 2 "no", seat 4 "yes"


def test_only_the_real_thrower_says_yes_to_did_you_throw_it():
    b = bots_with([(5.0, 1, 2, 3, "hit"), (10.0, 3, 2, 1, "hit")])
    subject = {"purpose": "thrower?", "burrito": 2, "contact_t": 10.0}
    assert [b.answer(q([2, 3]), subject, s) for s in (2, 3)] == [1, 0]


def test_a_catch_is_claimed_by_the_catcher_only_and_a_miss_by_nobody():
    b = bots_with([(10.0, 1, 1, 2, "catch"), (20.0, 1, 2, 3, "miss")])
    assert b.answer(q([2, 3]), {"purpose": "catch?", "burrito": 1, "contact_t": 10.0}, 2) == 0
    assert b.answer(q([2, 3]), {"purpose": "catch?", "burrito": 1, "contact_t": 10.0}, 3) == 1
    assert b.answer(q([2, 3]), {"purpose": "hit?", "burrito": 2, "contact_t": 20.0}, 3) == 1


def test_tie_votes_follow_the_measured_gap():
    b = bots_with([])
    vote = q([1, 2, 3, 4], ("tie", "no tie"))
    assert b.answer(vote, {"purpose": "tie?", "gap_ms": 44.0}, 1) == 0
    assert b.answer(vote, {"purpose": "tie?", "gap_ms": 47.5}, 1) == 1
