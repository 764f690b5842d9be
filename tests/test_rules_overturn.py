"""An upheld challenge undoes the call: the ``overturn`` event in every game's rules (D21, Z15, T19).

Quotes are from ``/work/shared/rules``: "Whoever gets hit loses the battle and takes a Burrito Bruise token" and "A
battle ends the instant a hit lands" (Throw Throw Burrito); "If a Burrito hits you ... you're out" (Zombie Burrito);
No Bueno blocks (Taco vs Burrito). An overturned call never happened, so none of these follow from it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_tvb_rules import HSB, I3, NB, deal
from test_zb_helpers import ev as zev
from test_zb_helpers import play as zplay
from test_zb_helpers import throw_hit

from game.cli import main as commands_main
from game.log import LogError, run_log
from game.rules.base import Cue


def ttb(events: list[dict[str, Any]], seats: int = 3, **options: Any) -> tuple[Any, list[Cue]]:
    lines = [json.dumps({"event": "setup", "game": "throw-throw-burrito", "seats": seats, "options": options})]
    return run_log(lines + [json.dumps(e) for e in events])


def said(cues: list[Cue]) -> str:
    return "\n".join(c.text for c in cues if c.kind in ("say", "note"))


BRAWL_HIT = [{"t": 1.0, "event": "declare", "seat": 1, "battle": "brawl"},
             {"t": 2.0, "event": "throw", "seat": 2, "burrito": 1},
             {"t": 2.5, "event": "hit", "burrito": 1, "seat": 3}]


def test_d21_an_overturned_hit_gives_the_bruise_back_and_the_battle_goes_on() -> None:
    table, cues = ttb(BRAWL_HIT + [{"t": 4.0, "event": "overturn", "call": "hit", "burrito": 1, "seat": 3}])
    st = table.state
    assert st.rounds[0].bruises == [0, 0, 0]
    assert st.battle is not None and st.battle.loser is None and st.battle.fighters == {2, 3}
    assert st.rounds[0].battle_sets == [1, 0, 0]  # the Brawl's battle set stands: only the call is undone
    text = said(cues)
    assert "OVERTURNED! burrito 1 did not hit seat 3" in text and "Seat 3's Burrito Bruise goes back" in text
    assert "The BRAWL goes on: 2 vs 3" in text
    summary = table.summary()
    assert summary["battles"][0]["loser"] is None
    assert summary["overturned"] == [{"t": 4.0, "call": "hit", "seat": 3, "burrito": 1}]


def test_d21_after_an_overturn_the_battle_is_decided_by_the_next_real_hit() -> None:
    table, _ = ttb(BRAWL_HIT + [{"t": 4.0, "event": "overturn", "call": "hit", "seat": 3},
                                {"t": 5.0, "event": "throw", "seat": 3, "burrito": 2},
                                {"t": 5.4, "event": "hit", "burrito": 2, "seat": 2}])
    assert table.state.battles[-1].loser == 2 and table.state.rounds[0].bruises == [0, 1, 0]


def test_d21_events_in_the_challenge_window_are_applied_again_to_the_corrected_state() -> None:
    """A set laid after the call while no battle was on no longer counts: the battle is on again ("no more
    drawing or discarding"); the rules note it."""
    table, cues = ttb(BRAWL_HIT + [{"t": 3.0, "event": "set", "seat": 1},
                                   {"t": 4.0, "event": "overturn", "call": "hit", "seat": 3}])
    assert table.state.rounds[0].sets == [0, 0, 0]
    assert table.state.battle is not None and table.state.battle.loser is None


def test_d21_an_overturned_catch_takes_the_loss_back_from_the_thrower() -> None:
    events = [{"t": 1.0, "event": "declare", "seat": 1, "battle": "duel"},
              {"t": 1.2, "event": "pick", "seat": 1, "players": [2, 3]},
              {"t": 2.0, "event": "throw", "seat": 2, "burrito": 1},
              {"t": 2.5, "event": "catch", "burrito": 1, "seat": 3},
              {"t": 4.0, "event": "overturn", "call": "catch", "seat": 3, "burrito": 1}]
    table, cues = ttb(events)
    assert table.state.rounds[0].bruises == [0, 0, 0] and table.state.battle.loser is None
    assert "Seat 2's Burrito Bruise goes back" in said(cues)


def test_d21_an_overturned_last_bruise_reopens_the_round() -> None:
    """The sixth bruise ends round 1; overturned, the round is not over and round 2 never started."""
    events: list[dict[str, Any]] = []
    t = 1.0
    for i in range(6):
        events += [{"t": t, "event": "declare", "seat": 1, "battle": "brawl"},
                   {"t": t + 1, "event": "throw", "seat": 2, "burrito": 1},
                   {"t": t + 1.5, "event": "hit", "burrito": 1, "seat": 3 if i % 2 else 2}]
        if i % 2 == 0:
            events[-2]["seat"] = 3
        t += 10
    table, _ = ttb(events)
    assert table.state.round == 2
    table, cues = ttb(events + [{"t": t, "event": "overturn", "call": "hit", "seat": events[-1]["seat"]}])
    assert table.state.round == 1 and sum(table.state.rounds[0].bruises) == 5
    assert "Round 1 is not over after all" in said(cues)


@pytest.mark.parametrize(("extra", "problem"), [
    ([{"t": 4.0, "event": "overturn", "call": "miss", "burrito": 1}], "the last call is the hit"),
    ([{"t": 4.0, "event": "overturn", "call": "hit", "seat": 2}], "names a hit .seat 2., but the last call"),
    ([{"t": 4.0, "event": "overturn", "call": "hit"}, {"t": 5.0, "event": "overturn", "call": "hit"}],
     "no call to overturn since the last overturn"),
    ([{"t": 4.0, "event": "overturn", "call": "set"}], "field 'call'"),
])
def test_d21_only_the_last_call_may_be_overturned_once(extra: list[dict[str, Any]], problem: str) -> None:
    with pytest.raises(LogError, match=problem):
        ttb(BRAWL_HIT + extra)


def test_d21_an_overturn_with_no_call_made_is_bad_input() -> None:
    with pytest.raises(LogError, match="no call has been made"):
        ttb([{"t": 1.0, "event": "overturn", "call": "hit"}])


def test_z15_an_overturned_hit_brings_the_player_back_and_the_team_marker_goes_back() -> None:
    """Zombie 1 puts out Survivors 3 and 4: the Zombies flip a marker. Overturn the last hit: seat 4 is back."""
    events = [zev(1, "declare", seat=1), *throw_hit(2, 1, 3, 1), *throw_hit(3, 1, 4, 1)]
    summary, _ = zplay(events)
    assert summary["markers"]["zombies"] == 1
    summary, cues = zplay(events + [zev(5, "overturn", call="hit", seat=4, burrito=1)])
    assert summary["markers"] == {"zombies": 0, "survivors": 0}
    assert summary["battles"][0]["winner"] is None and summary["battles"][0]["out"] == [3]
    text = said(cues)
    assert "OVERTURNED! the Zombie burrito did not hit seat 4" in text
    assert "Team Marker goes back" in text and "Seat 4 is back in the battle" in text
    assert summary["overturned"] == [{"t": 5, "call": "hit", "seat": 4, "burrito": 1}]


def test_z15_an_overturned_elimination_mid_battle_reverses_it() -> None:
    summary, cues = zplay([zev(1, "declare", seat=1), *throw_hit(2, 1, 3, 1),
                           zev(4, "overturn", call="hit", seat=3)])
    assert summary["battles"][0]["out"] == [] and "Seat 3 is back in the battle" in said(cues)


def test_t19_an_overturned_block_is_void_and_the_card_takes_effect() -> None:
    """Seat 2's No Bueno was called first; overturned, it goes back to the hand and the card goes through."""
    deck = deal({1: [I3, HSB], 2: [NB]}, [])
    lines = [json.dumps({"event": "setup", "game": "taco-vs-burrito", "seats": 2, "options": {"deck": deck}})]
    events = [{"t": 1.0, "event": "place", "seat": 1, "card": I3, "meal": 1},
              {"t": 2.0, "event": "block", "seat": 2},
              {"t": 3.0, "event": "overturn", "seat": 2, "call": "block"}]
    table, cues = run_log(lines + [json.dumps(e) for e in events])
    s = table.summary()
    assert s["meals"]["1"] == [I3] and NB in s["hands"]["2"]
    assert "OVERTURNED! Seat 2's No Bueno does not count" in said(cues)
    assert s["overturned"] == [{"t": 3.0, "call": "block", "seat": 2}]
    with pytest.raises(LogError, match="field 'call'"):
        run_log(lines + [json.dumps(e) for e in events[:2]] + [json.dumps(dict(events[2], call="hit"))])


def test_replay_evidence_shows_the_overturn_and_why(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.jsonl"
    lines = [json.dumps({"event": "setup", "game": "throw-throw-burrito", "seats": 3})]
    why = {"decided": "challenge upheld by seat 3: 2 wrong, 1 right", "answers": {"1": "right", "2": "wrong",
                                                                               "3": "wrong"}}
    lines += [json.dumps(e) for e in BRAWL_HIT]
    lines.append(json.dumps({"t": 4.0, "event": "overturn", "call": "hit", "seat": 3, "burrito": 1, "evidence": why}))
    log.write_text("\n".join(lines) + "\n")
    assert commands_main(["replay", str(log), "--evidence"]) == 0
    out = capsys.readouterr().out
    assert "OVERTURNED! burrito 1 did not hit seat 3" in out
    assert "overturn" in out and "challenge upheld by seat 3" in out


def test_a_copied_history_is_independent_of_its_original_though_it_shares_the_buffer() -> None:
    """The copy-then-step reducer must leave the old state alone, and bots copy states thousands of times a move."""
    import copy

    from game.rules.base import History

    a = History([{"t": 1.0}])
    b = copy.deepcopy(a)
    a.append({"t": 2.0})
    b.append({"t": 3.0})
    c = copy.deepcopy(b)
    c.append({"t": 4.0})
    assert [e["t"] for e in a] == [1.0, 2.0]
    assert [e["t"] for e in b] == [1.0, 3.0]
    assert [e["t"] for e in c] == [1.0, 3.0, 4.0]
    assert a[-1] == {"t": 2.0} and b[:1] == [{"t": 1.0}] and len(c) == 3 and a != b
