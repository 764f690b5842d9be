"""Property tests over random valid Throw Throw Burrito logs (hypothesis).

The generator mixes every event kind with time gaps around the tie and
declaration windows, and stops at the end of the game (an event after it would
be bad input).
"""

from __future__ import annotations

import copy
import json
import os
import tempfile
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from replay_helpers import assert_reducer_leaves_old_state

from game.games.throw_throw_burrito import rules as ttb
from game.journal import Journal, JournaledTable
from game.log import Table, run_log

GAPS = [0.0, 0.01, 0.03, 0.045, 0.05, 0.2, 0.6, 2.0]


@st.composite
def valid_logs(draw: st.DrawFn) -> list[dict[str, Any]]:
    two_decks = draw(st.booleans())
    seats = draw(st.integers(2, 12 if two_decks else 6))
    burritos = 4 if two_decks else 2
    options = {"two_decks": two_decks, "small_room": draw(st.booleans()), "seed": draw(st.integers(0, 2**32))}
    setup = {"event": "setup", "game": ttb.name, "seats": seats, "options": options}
    table, _ = Table.start(copy.deepcopy(setup))
    seat = st.integers(1, seats)
    burrito = st.integers(1, burritos)
    kinds = ["set", "declare", "pick", "grab", "throw", "throw", "hit", "hit", "miss", "catch", "foul"]
    log = [setup]
    t = 0.0
    for _ in range(draw(st.integers(0, 160))):
        t = round(t + draw(st.sampled_from(GAPS)), 3)
        kind = draw(st.sampled_from(kinds))
        event: dict[str, Any] = {"t": t, "event": kind}
        if kind in ("set", "declare", "pick", "grab", "throw", "foul", "hit", "catch"):
            event["seat"] = draw(seat)
        if kind in ("grab", "throw", "hit", "miss", "catch"):
            event["burrito"] = draw(burrito)
        if kind == "declare":
            event["battle"] = draw(st.sampled_from(ttb.BATTLE_KINDS))
            event["valid"] = draw(st.sampled_from([True, True, True, False]))
        if kind == "pick":
            event["players"] = draw(st.lists(seat, min_size=2, max_size=2, unique=True))
        try:
            table.advance(t)
        except ValueError:
            break  # the game was won while time ran on: nothing may follow
        table.step(table.check(copy.deepcopy(event)))
        log.append(event)
        if table.rules.is_over(table.state):
            break
    return log


def replay(log: list[dict[str, Any]]) -> dict[str, Any]:
    table, _ = run_log([json.dumps(e) for e in log])
    return table.summary()


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(valid_logs())
def test_exactly_one_bruise_per_resolved_battle_and_never_more_than_the_tokens(log):
    s = replay(log)
    tokens = 12 if s["options"]["two_decks"] else 6
    for rnd in s["rounds"]:
        given_out = sum(rnd["bruises"].values())
        resolved = [b for b in s["battles"] if b["round"] == rnd["round"] and b["loser"] is not None]
        bruising = [b for b in resolved if b["purpose"] == "battle"]
        penalties = [p for p in s["penalties"] if p["round"] == rnd["round"]]
        assert given_out == len(bruising) + len(penalties)
        assert given_out <= tokens
        if rnd["winner"] is not None or rnd["round"] < s["round"]:
            assert given_out == tokens  # a round ends only when the last token is handed out
    assert all(b["loser"] is None or b["loser"] in range(1, s["seats"] + 1) for b in s["battles"])


@SETTINGS
@given(valid_logs())
def test_points_are_sets_plus_two_per_valid_battle_set_minus_bruises(log):
    s = replay(log)
    for rnd in s["rounds"]:
        for seat, pts in rnd["points"].items():
            assert pts == rnd["sets"][seat] + 2 * rnd["battle_sets"][seat] - rnd["bruises"][seat]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # one fsync per event
@given(valid_logs(), st.floats(0, 1))
def test_replaying_or_resuming_from_the_journal_gives_identical_state(log, split):
    expected = replay(log)
    assert replay(log) == expected  # determinism
    cut = 1 + int(split * (len(log) - 1))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "journal.db")
        with Journal(path) as journal:
            live, _ = JournaledTable.new(journal, copy.deepcopy(log[0]))
            for event in log[1:cut]:
                live.submit(copy.deepcopy(event))
        with Journal(path) as journal:  # a restarted table
            (game_id,) = journal.unfinished() or [journal.games()[-1][0]]
            live = JournaledTable.resume(journal, game_id)
            for event in log[cut:]:
                live.submit(copy.deepcopy(event))
            live.table.finish()
            assert live.table.summary() == expected


@settings(max_examples=60, deadline=None)
@given(valid_logs())
def test_the_reducer_form_leaves_the_old_state_untouched(log):
    assert_reducer_leaves_old_state(ttb, log)
