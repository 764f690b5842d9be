"""Property tests over Zombie Burrito (hypothesis): balanced teams, one Team Marker per battle.

The log generator mixes every event kind with time gaps around the tie window;
``cancel`` and ``revive`` events are kept only when they are legal in the state
they arrive in (otherwise they are bad input by contract), and the log stops
when the game is won.
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

from game.games.zombie_burrito import rules as zb
from game.games.zombie_burrito.sim import simulate
from game.journal import Journal, JournaledTable
from game.log import Table, run_log
from game.rules.base import RuleInputError

GAPS = [0.0, 0.01, 0.03, 0.045, 0.05, 0.3, 1.0, 3.0]
KINDS = ["advantage", "advantage", "declare", "cancel", "grab", "throw", "throw_hit", "throw_hit", "throw_hit",
         "trade", "hit", "miss", "catch", "foul", "revive"]
CATALOG = zb.load_catalog()


def _legal_cancels(state: zb.State) -> list[tuple[str, str]]:
    battle = state.battle
    if battle is None or battle.phase != "setup":
        return []
    return [(team, kind) for team in zb.TEAMS if battle.cancels[team] > len(battle.chosen[team])
            for kind, n in sorted(zb.sets_left(battle, zb.OTHER[team]).items()) if n > 0]


def _in(state: zb.State, team: str, draw: st.DrawFn, seat: st.SearchStrategy[int]) -> int:
    """Mostly a seat of ``team`` still in the battle, sometimes any seat."""
    battle = state.battle
    pool = [x for x in state.teams[team] if battle is not None and x in battle.alive]
    return draw(st.sampled_from(pool)) if pool and draw(st.integers(0, 3)) else draw(seat)


@st.composite
def valid_logs(draw: st.DrawFn) -> list[dict[str, Any]]:
    seats = draw(st.integers(2, 6))
    options: dict[str, Any] = {"seed": draw(st.integers(0, 2**32)), "tie_window_ms": draw(st.sampled_from([0, 45, 100]))}
    setup = {"event": "setup", "game": zb.name, "seats": seats, "options": options}
    table, _ = Table.start(copy.deepcopy(setup))
    state: zb.State = table.state
    seat = st.integers(1, seats)
    log = [setup]
    t = 0.0
    for _ in range(draw(st.integers(0, 120))):
        t = round(t + draw(st.sampled_from(GAPS)), 3)
        kind = draw(st.sampled_from(KINDS))
        events: list[dict[str, Any]] = []
        if kind == "advantage":
            side = draw(st.sampled_from(zb.SIDES))
            events.append({"event": kind, "seat": draw(seat), "side": side, "kind": draw(st.sampled_from(sorted(CATALOG[side])))})
        elif kind == "declare":
            events.append({"event": kind, "seat": draw(seat)} | ({"valid": False} if draw(st.integers(0, 9)) == 0 else {}))
        elif kind == "cancel":
            legal = _legal_cancels(state)
            if legal:
                team, k = draw(st.sampled_from(legal))
                events.append({"event": kind, "team": team, "kind": k})
        elif kind == "revive":
            battle = state.battle
            out = [] if battle is None else battle.out
            events.append({"event": kind, "seat": draw(st.sampled_from(out)) if out else draw(seat)})
        elif kind in ("grab", "throw", "hit", "catch"):
            events.append({"event": kind, "seat": draw(seat), "burrito": draw(st.integers(1, 2))})
        elif kind == "miss":
            events.append({"event": kind, "burrito": draw(st.integers(1, 2))})
        elif kind == "foul":
            events.append({"event": kind, "seat": draw(seat)})
        elif kind == "throw_hit":
            b = draw(st.integers(1, 2))
            events += [{"event": "throw", "seat": draw(seat), "burrito": b},
                       {"event": draw(st.sampled_from(["hit", "hit", "catch"])), "seat": draw(seat), "burrito": b}]
        else:  # trade: both burritos thrown by fighters still in, then two contacts a few ms apart
            z, s = _in(state, "zombies", draw, seat), _in(state, "survivors", draw, seat)
            events += [{"event": "throw", "seat": z, "burrito": 1},
                       {"event": "throw", "seat": s, "burrito": 2},
                       {"event": draw(st.sampled_from(["hit", "hit", "catch"])), "seat": _in(state, "survivors", draw, seat), "burrito": 1},
                       {"event": draw(st.sampled_from(["hit", "hit", "catch"])), "seat": _in(state, "zombies", draw, seat), "burrito": 2}]
        stop = False
        for i, event in enumerate(events):
            if i:
                t = round(t + draw(st.sampled_from(GAPS[:5])), 3)
            event = {"t": t, **event}
            try:
                table.advance(t)
            except RuleInputError:
                stop = True  # the game was won while time ran on: nothing may follow
                break
            checked = table.check(copy.deepcopy(event))
            try:
                zb.check_state(state, checked)
            except RuleInputError:
                continue  # an impossible cancel or revive: the table would refuse it
            table.step(checked)
            log.append(event)
            if zb.is_over(state):
                stop = True
                break
        if stop:
            break
    return log


SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 6), st.integers(-(2**70), 2**70))
def test_dealt_teams_are_always_balanced_as_the_rulebook_says(seats, seed):
    teams = zb.deal_teams(seats, seed)
    assert sorted(teams["zombies"] + teams["survivors"]) == list(range(1, seats + 1))
    # "the same number of Zombie and Survivor Team Markers ... If there's an odd number of players,
    # grab 1 extra Zombie Team Marker."
    assert len(teams["zombies"]) - len(teams["survivors"]) == seats % 2


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 6), st.data())
def test_given_teams_are_accepted_exactly_when_balanced(seats, data):
    order = data.draw(st.permutations(range(1, seats + 1)))
    cut = data.draw(st.integers(0, seats))
    teams = {"zombies": list(order[:cut]), "survivors": list(order[cut:])}
    balanced = cut == (seats + 1) // 2
    try:
        zb.parse_setup({"event": "setup", "game": zb.name, "seats": seats, "options": {"teams": teams}})
        accepted = True
    except RuleInputError:
        accepted = False
    assert accepted == balanced


@SETTINGS
@given(valid_logs())
def test_exactly_one_team_marker_moves_per_decided_battle(log):
    check_one_marker_per_battle(log)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2**32))
def test_exactly_one_team_marker_moves_per_battle_in_simulated_games(seats, seed):
    # The bot's games have ties, revives, cancellations and false calls in plenty.
    check_one_marker_per_battle(simulate(seats=seats, seed=seed))


def check_one_marker_per_battle(log: list[dict[str, Any]]) -> None:
    setup = zb.parse_setup(copy.deepcopy(log[0]))
    state = zb.new_state(setup)
    decided = 0
    for event in log[1:]:
        markers_before = dict(state.markers)
        zb.advance(state, event["t"])
        zb.step(state, zb.check_event(setup, copy.deepcopy(event)))
        now = [b for b in state.battles if b.winner is not None]
        moved = {team: state.markers[team] - markers_before[team] for team in zb.TEAMS}
        assert sum(moved.values()) == len(now) - decided
        for battle in now[decided:]:
            assert moved[battle.winner] >= 1
        decided = len(now)
    zb.finish(state)
    s = zb.summary(state)
    assert sum(s["markers"].values()) == sum(1 for b in s["battles"] if b["winner"])
    for team in zb.TEAMS:
        assert s["markers"][team] == sum(1 for b in s["battles"] if b["winner"] == team)
    assert (s["winner"] is not None) == (max(s["markers"].values()) == 3)


@SETTINGS
@given(valid_logs())
def test_a_battle_is_won_only_when_the_other_team_has_nobody_left(log):
    table, _ = run_log(json.dumps(e) for e in log)
    s = table.summary()
    for b in s["battles"]:
        assert len(b["out"]) == len(set(b["out"]))
        for team in zb.TEAMS:
            assert b["active"][team] == sorted(set(b["active"][team]))
        if b["winner"] is None or not b["out"]:
            continue  # still on, or a false "Battle!"
        loser = zb.OTHER[b["winner"]]
        assert set(s["teams"][loser]) <= set(b["out"])
        assert not set(s["teams"][b["winner"]]) <= set(b["out"])
    assert sum(1 for b in s["battles"] if b["winner"] is None) <= 1


@settings(max_examples=40, deadline=None)
@given(valid_logs())
def test_the_reducer_form_leaves_the_old_state_untouched(log):
    assert_reducer_leaves_old_state(zb, log)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # one fsync per event
@given(valid_logs(), st.floats(0, 1))
def test_resuming_from_the_journal_gives_the_same_game(log, split):
    table, _ = run_log(json.dumps(e) for e in log)
    expected = table.summary()
    cut = 1 + int(split * (len(log) - 1))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "journal.db")
        with Journal(path) as journal:
            live, _ = JournaledTable.new(journal, copy.deepcopy(log[0]))
            for event in log[1:cut]:
                live.submit(copy.deepcopy(event))
        with Journal(path) as journal:
            (game_id,) = journal.unfinished() or [journal.games()[-1][0]]
            live = JournaledTable.resume(journal, game_id)
            for event in log[cut:]:
                live.submit(copy.deepcopy(event))
            live.table.finish()
            assert live.table.summary() == expected
