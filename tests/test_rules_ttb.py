"""One test per Throw Throw Burrito rule the table knows about, named after the rule.

Quotes are from ``../shared/rules/throw-throw-burrito.txt``; ``d<N>`` tests guard the
choices in ``docs/rules-decisions.md``.
"""

from __future__ import annotations

import pytest
from ttb_helpers import ev, hit_battle, penalty, play, said

from game.log import LogError


def battles(summary):
    return [(b["kind"], b["declarer"], b["players"], b["loser"]) for b in summary["battles"]]


def points(summary, rnd=1):
    return {int(s): p for s, p in summary["rounds"][rnd - 1]["points"].items()}


def bruises(summary, rnd=1):
    return {int(s): p for s, p in summary["rounds"][rnd - 1]["bruises"].items()}


# --- Scoring ---------------------------------------------------------------------------


def test_a_set_of_three_ordinary_cards_scores_one_point():
    s, _ = play([ev(1, "set", seat=2), ev(2, "set", seat=2), ev(3, "set", seat=4)])
    assert points(s) == {1: 0, 2: 2, 3: 0, 4: 1}


def test_a_battle_set_scores_two_points():
    s, _ = play([ev(1, "declare", seat=3, battle="war")])
    assert points(s)[3] == 2
    assert s["rounds"][0]["battle_sets"]["3"] == 1


def test_a_bruise_is_minus_one_point():
    s, _ = play([ev(1, "set", seat=1), *hit_battle(5, 2, "brawl", thrower=3, target=1)])
    assert points(s) == {1: 0, 2: 2, 3: 0, 4: 0}
    assert bruises(s) == {1: 1, 2: 0, 3: 0, 4: 0}


# --- Battles -----------------------------------------------------------------------------


def test_brawl_is_between_the_declarers_left_and_right_neighbours():
    s, _ = play([ev(1, "declare", seat=2, battle="brawl")], seats=5)
    assert battles(s) == [("brawl", 2, [1, 3], None)]


def test_brawl_neighbours_wrap_around_the_table():
    s, _ = play([ev(1, "declare", seat=1, battle="brawl")], seats=5)
    assert battles(s)[0][2] == [2, 5]


def test_war_is_everyone_but_the_declarer():
    s, _ = play([ev(1, "declare", seat=3, battle="war")], seats=5)
    assert battles(s)[0][2] == [1, 2, 4, 5]


def test_duel_is_between_the_two_players_the_declarer_picks_itself_included():
    s, _ = play([ev(1, "declare", seat=3, battle="duel"), ev(2, "pick", seat=3, players=[4, 3])])
    assert battles(s)[0][2] == [3, 4]


def test_duel_waits_for_the_pick_with_no_players():
    s, cues = play([ev(1, "declare", seat=3, battle="duel")])
    assert battles(s) == [("duel", 3, [], None)]
    assert "pick two duellists" in said(cues)


def test_stop_everything_no_set_counts_during_a_battle():
    s, cues = play([ev(1, "declare", seat=1, battle="war"), ev(2, "set", seat=1), ev(2.1, "set", seat=3)])
    assert points(s) == {1: 2, 2: 0, 3: 0, 4: 0}
    assert "Stop everything" in said(cues)


def test_d13_a_set_inside_the_declaration_window_does_not_count():
    s, _ = play([ev(1, "declare", seat=1, battle="war"), ev(1.1, "set", seat=2)])
    assert points(s)[2] == 0


def test_d13_a_declaration_during_a_battle_is_ignored():
    s, cues = play([ev(1, "declare", seat=1, battle="war"), ev(3, "declare", seat=2, battle="brawl")])
    assert len(s["battles"]) == 1 and points(s)[2] == 0
    assert "already on" in said(cues)


# --- Hitting, missing and catching -----------------------------------------------------------


def test_a_hit_on_a_battling_player_loses_the_battle_for_that_player():
    s, _ = play(hit_battle(1, 2, "brawl", thrower=1, target=3))
    assert battles(s) == [("brawl", 2, [1, 3], 3)]
    assert bruises(s)[3] == 1


def test_a_hit_on_a_non_battler_is_a_miss():
    s, cues = play(hit_battle(1, 2, "brawl", thrower=1, target=2))
    assert battles(s)[0][3] is None
    assert "not fighting: MISS" in said(cues)


def test_after_a_miss_a_battling_player_may_throw_again():
    s, _ = play(
        [
            ev(1, "declare", seat=2, battle="brawl"),
            ev(2, "throw", seat=1, burrito=1),
            ev(2.5, "miss", burrito=1),
            ev(3, "grab", seat=3, burrito=1),
            ev(3.2, "throw", seat=3, burrito=1),
            ev(3.5, "hit", burrito=1, seat=1),
        ]
    )
    assert battles(s)[0][3] == 1


def test_a_catch_makes_the_thrower_lose():
    s, cues = play(
        [ev(1, "declare", seat=2, battle="brawl"), ev(2, "throw", seat=1, burrito=1), ev(2.4, "catch", burrito=1, seat=3)]
    )
    assert battles(s)[0][3] == 1
    assert s["battles"][0]["reason"] == "caught"


def test_a_hit_then_a_bounce_still_counts_as_the_hit():
    s, _ = play(
        [
            ev(1, "declare", seat=3, battle="war"),
            ev(2, "throw", seat=1, burrito=1),
            ev(2.5, "hit", burrito=1, seat=2),
            ev(2.51, "hit", burrito=1, seat=4),  # bounced off seat 2 onto seat 4 inside the tie window
            ev(2.6, "miss", burrito=1),  # then the floor
        ]
    )
    assert battles(s)[0][3] == 2 and s["battles"][0]["tie"] is None
    assert bruises(s) == {1: 0, 2: 1, 3: 0, 4: 0}


def test_a_hit_that_arrives_after_its_battle_was_decided_is_ignored():
    s, _ = play(
        [
            ev(1, "declare", seat=3, battle="war"),
            ev(2, "throw", seat=1, burrito=1),
            ev(2.1, "throw", seat=4, burrito=2),
            ev(2.5, "hit", burrito=1, seat=2),
            ev(2.7, "hit", burrito=2, seat=1),  # 200 ms later: outside the tie window
            ev(2.8, "catch", burrito=2, seat=4),
        ]
    )
    assert battles(s)[0][3] == 2 and sum(bruises(s).values()) == 1


# --- Losing without a throw ------------------------------------------------------------------


def test_an_invalid_battle_set_loses_the_battle_without_a_throw():
    s, _ = play([ev(1, "declare", seat=2, battle="war", valid=False)])
    assert battles(s) == [("war", 2, [2], 2)]
    assert points(s)[2] == -1  # no battle-set points, one bruise


def test_grabbing_a_burrito_while_not_in_the_battle_loses_it_for_the_grabber():
    s, _ = play([ev(1, "declare", seat=2, battle="brawl"), ev(2, "grab", seat=4, burrito=1)])
    assert battles(s) == [("brawl", 2, [1, 3], 4)]
    assert bruises(s)[4] == 1


def test_grabbing_with_no_battle_on_costs_a_bruise_but_is_not_a_battle():
    s, _ = play([penalty(1, 3)])
    assert s["battles"] == [] and bruises(s)[3] == 1
    assert s["penalties"][0]["seat"] == 3


def test_after_a_battle_the_burritos_are_back_in_the_middle():
    s, _ = play(
        [
            ev(1, "declare", seat=2, battle="brawl"),
            ev(2, "grab", seat=1, burrito=1),
            ev(2.1, "grab", seat=3, burrito=2),
            ev(3, "foul", seat=3),
            ev(5, "declare", seat=4, battle="brawl"),  # seats 1 and 3 again
            ev(6, "grab", seat=1, burrito=2),  # not "holding two": burrito 1 went back
        ]
    )
    assert battles(s)[1][3] is None


# --- Fouls -----------------------------------------------------------------------------------


def test_a_foul_by_a_fighter_loses_the_battle():
    s, _ = play([ev(1, "declare", seat=2, battle="brawl"), ev(2, "foul", seat=1)])
    assert battles(s)[0][3] == 1 and s["battles"][0]["reason"] == "foul"


def test_a_foul_by_a_seat_not_fighting_or_with_no_battle_is_ignored_and_said():
    s, cues = play([ev(0.5, "foul", seat=2), ev(1, "declare", seat=2, battle="brawl"), ev(2, "foul", seat=4)])
    assert battles(s)[0][3] is None and sum(bruises(s).values()) == 0
    assert said(cues).count("Foul by seat") == 2


def test_d6_holding_two_burritos_loses_the_battle():
    s, _ = play(
        [ev(1, "declare", seat=3, battle="war"), ev(2, "grab", seat=1, burrito=1), ev(2.1, "grab", seat=1, burrito=2)]
    )
    assert battles(s)[0][3] == 1 and s["battles"][0]["reason"] == "held two burritos"


# --- One bruise per battle, ties ---------------------------------------------------------------


def test_only_one_bruise_is_handed_out_per_battle():
    s, _ = play(
        [
            *hit_battle(1, 3, "war", thrower=1, target=2),
            ev(3, "foul", seat=4),
            ev(3.1, "catch", burrito=2, seat=4),
            ev(3.2, "grab", seat=2, burrito=1),  # a grab with no battle: a penalty, not a 2nd bruise of the war
        ]
    )
    assert len(s["battles"]) == 1
    assert sum(bruises(s).values()) == 2 and len(s["penalties"]) == 1


def test_simultaneous_hits_make_a_tie_duel_inside_the_same_battle():
    s, cues = play(
        [
            ev(1, "declare", seat=3, battle="war"),
            ev(2, "throw", seat=1, burrito=1),
            ev(2, "throw", seat=2, burrito=2),
            ev(2.5, "hit", burrito=1, seat=2),
            ev(2.52, "hit", burrito=2, seat=1),
            ev(5, "throw", seat=2, burrito=1),
            ev(5.4, "hit", burrito=1, seat=1),
        ]
    )
    b = s["battles"][0]
    assert (b["players"], b["tie"], b["loser"]) == ([1, 2, 4], [1, 2], 1)
    assert len(s["battles"]) == 1 and sum(bruises(s).values()) == 1
    assert "hit 20 ms apart" in said(cues)


@pytest.mark.parametrize(("gap_ms", "tie"), [(0, True), (45, True), (46, False)])
def test_d1_hits_at_most_the_tie_window_apart_are_simultaneous(gap_ms, tie):
    s, _ = play(
        [
            ev(1, "declare", seat=2, battle="brawl"),
            ev(2, "throw", seat=1, burrito=1),
            ev(2, "throw", seat=3, burrito=2),
            ev(10.0, "hit", burrito=1, seat=3),
            ev(10.0 + gap_ms / 1000, "hit", burrito=2, seat=1),
        ]
    )
    assert (s["battles"][0]["tie"] == [1, 3]) is tie
    assert s["battles"][0]["loser"] == (None if tie else 3)


def test_the_tie_window_option_changes_what_is_simultaneous():
    events = [
        ev(1, "declare", seat=2, battle="brawl"),
        ev(2, "throw", seat=1, burrito=1),
        ev(2, "throw", seat=3, burrito=2),
        ev(3.0, "hit", burrito=1, seat=3),
        ev(3.08, "hit", burrito=2, seat=1),
    ]
    assert play(events)[0]["battles"][0]["loser"] == 3
    assert play(events, tie_window_ms=100)[0]["battles"][0]["tie"] == [1, 3]


def test_d10_a_hit_and_a_catch_inside_the_tie_window_tie_too():
    s, _ = play(
        [
            ev(1, "declare", seat=3, battle="war"),
            ev(2, "throw", seat=1, burrito=1),
            ev(2, "throw", seat=2, burrito=2),
            ev(2.5, "hit", burrito=1, seat=4),
            ev(2.51, "catch", burrito=2, seat=1),  # seat 2's throw is caught: seat 2 loses
        ]
    )
    assert s["battles"][0]["tie"] == [2, 4]


def test_d10_three_simultaneous_hits_make_an_elimination_war_among_them():
    s, _ = play(
        [
            ev(1, "declare", seat=4, battle="war"),
            ev(2, "throw", seat=1, burrito=1),
            ev(2, "throw", seat=2, burrito=2),
            ev(2, "throw", seat=3, burrito=3),
            ev(2.5, "hit", burrito=1, seat=2),
            ev(2.51, "hit", burrito=2, seat=3),
            ev(2.52, "hit", burrito=3, seat=1),
            ev(5, "throw", seat=1, burrito=1),
            ev(5.3, "hit", burrito=1, seat=3),  # seat 3 is out
            ev(7, "throw", seat=2, burrito=2),
            ev(7.3, "hit", burrito=2, seat=1),  # seat 1 is out last: the loser
        ],
        seats=5,
        two_decks=True,
    )
    b = s["battles"][0]
    assert (b["tie"], b["eliminated"], b["loser"]) == ([1, 2, 3], [3, 1], 1)
    assert bruises(s) == {1: 1, 2: 0, 3: 0, 4: 0, 5: 0}


def test_d16_a_foul_while_a_hit_waits_out_the_tie_window_is_ignored():
    s, _ = play(
        [
            ev(1, "declare", seat=2, battle="brawl"),
            ev(2, "throw", seat=1, burrito=1),
            ev(2.5, "hit", burrito=1, seat=3),
            ev(2.51, "foul", seat=1),
        ]
    )
    assert s["battles"][0]["loser"] == 3


# --- Multiple battles at once ------------------------------------------------------------------


def test_battles_declared_at_nearly_the_same_moment_become_one_war_of_everyone():
    s, _ = play(
        [
            ev(1, "declare", seat=2, battle="brawl"),
            ev(1.3, "declare", seat=4, battle="duel"),
            ev(1.5, "declare", seat=1, battle="war", valid=False),
        ]
    )
    # Declarations "at most declare_window_ms after the first one merge"; "every valid declarer scores".
    assert [(b["kind"], b["declarer"], b["players"]) for b in s["battles"]] == [("war", 2, [1, 2, 3, 4])]
    assert points(s)[2] == 2 and points(s)[4] == 2


def test_d5_an_invalid_call_merged_into_the_war_loses_it():
    s, _ = play([ev(1, "declare", seat=2, battle="brawl"), ev(1.2, "declare", seat=4, battle="duel", valid=False)])
    assert battles(s) == [("war", 2, [1, 2, 3, 4], 4)]
    assert points(s) == {1: 0, 2: 2, 3: 0, 4: -1}


def test_d2_a_declaration_after_the_declare_window_is_not_merged():
    s, _ = play([ev(1, "declare", seat=2, battle="brawl"), ev(1.6, "declare", seat=4, battle="duel")])
    assert battles(s) == [("brawl", 2, [1, 3], None)]


def test_the_declare_window_option_changes_what_merges():
    events = [ev(1, "declare", seat=2, battle="brawl"), ev(1.6, "declare", seat=4, battle="duel")]
    assert play(events, declare_window_ms=1000)[0]["battles"][0]["kind"] == "war"


def test_d3_the_first_battle_action_closes_the_declaration_window():
    s, _ = play(
        [
            ev(1, "declare", seat=2, battle="brawl"),
            ev(1.1, "grab", seat=1, burrito=1),
            ev(1.2, "declare", seat=4, battle="war"),  # too late: the brawl is on
        ]
    )
    assert battles(s) == [("brawl", 2, [1, 3], None)]


def test_d3_a_duel_pick_inside_the_window_is_kept():
    s, _ = play([ev(1, "declare", seat=2, battle="duel"), ev(1.1, "pick", seat=2, players=[1, 4])])
    assert battles(s) == [("duel", 2, [1, 4], None)]


def test_d14_a_double_call_by_one_seat_is_one_call():
    s, _ = play([ev(1, "declare", seat=2, battle="brawl"), ev(1.05, "declare", seat=2, battle="brawl")])
    assert battles(s)[0][0] == "brawl" and points(s)[2] == 2


def test_d15_a_pick_from_anyone_but_the_duel_declarer_is_ignored():
    s, cues = play([ev(1, "declare", seat=2, battle="duel"), ev(2, "pick", seat=3, players=[1, 4])])
    assert battles(s)[0][2] == [] and "pick ignored" in said(cues)


def test_end_of_file_closes_open_tie_and_declaration_windows():
    s, _ = play([ev(1, "declare", seat=2, battle="brawl"), ev(2, "throw", seat=1, burrito=1), ev(2.5, "hit", burrito=1, seat=3)])
    assert battles(s)[0][3] == 3
    s, _ = play([ev(1, "declare", seat=2, battle="brawl")])
    assert battles(s)[0][2] == [1, 3]


# --- Winning: rounds, badge, ties, final duel --------------------------------------------------------


def six_bruises(t0: float, seats: list[int]) -> list[dict]:
    return [penalty(t0 + i, s) for i, s in enumerate(seats)]


def test_d20_the_round_ends_the_moment_the_last_bruise_is_handed_out():
    s, _ = play([ev(0.5, "set", seat=2), *six_bruises(1, [1, 1, 3, 3, 4, 4]), ev(10, "set", seat=2)])
    assert s["round"] == 2 and s["rounds"][0]["winner"] == 2
    assert points(s, 1)[2] == 1 and points(s, 2)[2] == 1  # the later set belongs to round 2, counted alone (D20)


def test_the_round_1_winner_takes_the_fear_me_badge():
    s, cues = play([ev(0.5, "set", seat=3), *six_bruises(1, [1, 1, 2, 2, 4, 4])])
    assert s["badge"] == 3 and "Fear Me badge" in said(cues)


def test_two_players_tied_at_the_end_of_a_round_duel():
    s, _ = play([ev(0.5, "set", seat=2), ev(0.6, "set", seat=3), *six_bruises(1, [1, 1, 4, 4, 1, 4])])
    tb = s["battles"][-1]
    assert (tb["kind"], tb["declarer"], tb["players"], tb["loser"], tb["purpose"]) == ("duel", None, [2, 3], None, "tiebreak")
    assert s["round"] == 1  # the round is decided only by the tie-break
    s, _ = play(
        [
            ev(0.5, "set", seat=2),
            ev(0.6, "set", seat=3),
            *six_bruises(1, [1, 1, 4, 4, 1, 4]),
            ev(9, "throw", seat=3, burrito=1),
            ev(9.4, "hit", burrito=1, seat=2),
        ]
    )
    assert s["battles"][-1]["loser"] == 2 and s["rounds"][0]["winner"] == 3 and s["badge"] == 3
    assert s["round"] == 2 and len(s["rounds"]) == 2
    assert sum(bruises(s).values()) == 6  # "Round-end tie-breaks ... hand out no bruise"


def test_three_or_more_tied_fight_a_war_with_elimination_the_last_one_out_loses():
    s, _ = play(
        [
            *six_bruises(1, [4, 4, 4, 4, 4, 4]),  # seats 1, 2, 3 tied on 0
            ev(9, "throw", seat=1, burrito=1),
            ev(9.3, "hit", burrito=1, seat=2),
            ev(10, "grab", seat=2, burrito=2),  # eliminated: "may no longer touch a burrito"
            ev(11, "throw", seat=3, burrito=2),
            ev(11.3, "hit", burrito=2, seat=1),
        ]
    )
    tb = s["battles"][-1]
    assert (tb["kind"], tb["declarer"], tb["players"], tb["eliminated"], tb["loser"]) == ("war", None, [1, 2, 3], [2, 1], 1)
    assert s["rounds"][0]["winner"] == 3 and s["badge"] == 3


def round_one_won_by(seat: int) -> list[dict]:
    others = [s for s in (1, 2, 3, 4) if s != seat]
    return [ev(0.5, "set", seat=seat), *six_bruises(1, others * 2)]


def test_round_2_badge_holder_with_the_most_points_wins_outright():
    s, _ = play([*round_one_won_by(1), ev(20, "set", seat=1), *six_bruises(21, [2, 3, 4, 2, 3, 4])])
    assert s["rounds"][1]["winner"] == 1 and s["winner"] == 1
    assert all(b["purpose"] != "final" for b in s["battles"])


def test_round_2_another_leader_must_duel_the_badge_holder_for_the_game():
    events = [*round_one_won_by(1), ev(20, "set", seat=2), *six_bruises(21, [1, 3, 4, 1, 3, 4])]
    s, _ = play(events)
    final = s["battles"][-1]
    assert (final["kind"], final["declarer"], final["players"], final["purpose"]) == ("duel", None, [1, 2], "final")
    assert s["rounds"][1]["winner"] == 2 and s["winner"] is None
    s, _ = play([*events, ev(30, "throw", seat=1, burrito=2), ev(30.5, "hit", burrito=2, seat=2)])
    assert s["winner"] == 1 and s["battles"][-1]["loser"] == 2


def test_d12_a_round_2_tie_with_the_badge_holder_is_the_final_duel():
    events = [*round_one_won_by(1), ev(20, "set", seat=1), ev(20.1, "set", seat=2), *six_bruises(21, [3, 4, 3, 4, 3, 4])]
    s, _ = play([*events, ev(30, "throw", seat=2, burrito=1), ev(30.5, "hit", burrito=1, seat=1)])
    assert s["winner"] == 2 and [b["purpose"] for b in s["battles"]] == ["tiebreak"]


def test_an_event_after_the_game_was_won_is_bad_input():
    events = [*round_one_won_by(1), ev(20, "set", seat=1), *six_bruises(21, [2, 3, 4, 2, 3, 4])]
    with pytest.raises(LogError, match="line 16: .*after the game was won"):
        play([*events, ev(40, "set", seat=2)])


# --- Variants ------------------------------------------------------------------------------------


def test_two_player_variant_every_battle_is_between_the_two_players():
    for kind in ("brawl", "war", "duel"):
        s, _ = play([ev(1, "declare", seat=2, battle=kind)], seats=2)
        assert battles(s) == [(kind, 2, [1, 2], None)]  # "a duel needs no pick"


def test_d19_two_player_variant_first_throw_passes_behind_the_back_except_in_duels():
    s, cues = play(
        [ev(1, "declare", seat=1, battle="war"), ev(2, "throw", seat=2, burrito=1), ev(2.5, "miss", burrito=1),
         ev(3, "throw", seat=2, burrito=1)],
        seats=2,
    )
    assert said(cues).count("behind your back") == 1
    s, cues = play([ev(1, "declare", seat=1, battle="duel"), ev(2, "throw", seat=2, burrito=1)], seats=2)
    assert "behind your back" not in said(cues)


def test_small_room_variant_first_throw_passes_behind_the_back():
    events = [ev(1, "declare", seat=1, battle="war"), ev(2, "throw", seat=2, burrito=1)]
    assert "behind your back" in said(play(events, small_room=True)[1])
    assert "behind your back" not in said(play(events)[1])


def test_two_decks_seat_up_to_12_with_12_bruises_and_4_burritos():
    events = [ev(0.5, "set", seat=12)] + [penalty(1 + i, 1 + i % 11) for i in range(11)]
    s, _ = play(events, seats=12, two_decks=True)
    assert sum(bruises(s, 1).values()) == 11 and s["round"] == 1
    s, _ = play([*events, ev(20, "grab", seat=5, burrito=4)], seats=12, two_decks=True)
    assert sum(bruises(s, 1).values()) == 12 and s["round"] == 2 and s["badge"] == 12
    with pytest.raises(LogError, match="burrito"):
        play([ev(1, "grab", seat=1, burrito=3)])
    with pytest.raises(LogError, match="seats"):
        play([], seats=7)


def test_one_deck_round_has_six_bruises():
    s, _ = play(six_bruises(1, [1, 1, 2, 2, 3, 3])[:5])
    assert s["round"] == 1
    s, _ = play(six_bruises(1, [1, 1, 2, 2, 3, 3]))
    assert s["round"] == 2 and s["badge"] == 4


# --- Determinism ---------------------------------------------------------------------------------


def test_d17_the_opening_caller_comes_from_the_seed_and_repeats():
    first = [said(play([], seed=s)[1]).splitlines()[0] for s in range(6)]
    again = [said(play([], seed=s)[1]).splitlines()[0] for s in range(6)]
    assert first == again and len(set(first)) > 1


# --- More decisions (docs/rules-decisions.md) ---------------------------------------------------


def test_d4_a_throw_without_a_seen_grab_counts_as_the_grab():
    s, _ = play([ev(1, "declare", seat=2, battle="brawl"), ev(2, "throw", seat=4, burrito=1)])
    assert battles(s)[0][3] == 4  # seat 4 is not fighting: its implied grab loses the brawl


def test_d4_a_hit_with_no_throw_seen_is_credited_to_the_holder_and_counts():
    s, cues = play([ev(1, "declare", seat=2, battle="brawl"), ev(2, "grab", seat=1, burrito=1), ev(3, "hit", burrito=1, seat=3)])
    assert battles(s)[0][3] == 3 and "hit by seat 1" in said(cues)


def test_d7_a_grab_by_an_outsider_during_a_round_end_tie_break_is_ignored():
    s, cues = play([ev(0.5, "set", seat=2), ev(0.6, "set", seat=3), *six_bruises(1, [1, 1, 4, 4, 1, 4]), ev(9, "grab", seat=1, burrito=1)])
    assert s["battles"][-1]["loser"] is None and sum(bruises(s).values()) == 6
    assert "not in this duel" in said(cues)


def test_d8_a_burrito_in_the_air_when_its_battle_ends_cannot_hit_in_the_tie_break_that_follows():
    s, _ = play(
        [
            ev(0.5, "set", seat=2),
            ev(0.6, "set", seat=3),
            *six_bruises(1, [1, 1, 4, 4, 1]),
            ev(9, "declare", seat=1, battle="war"),  # players 2, 3, 4
            ev(10, "throw", seat=2, burrito=1),
            ev(10, "throw", seat=3, burrito=2),
            ev(10.5, "hit", burrito=2, seat=4),  # last bruise: 2 and 3 tied, tie-break duel starts
            ev(10.6, "hit", burrito=1, seat=3),  # seat 2's burrito was still flying: stale
        ]
    )
    assert s["battles"][-1]["purpose"] == "tiebreak" and s["battles"][-1]["loser"] is None


def test_d9_a_catch_by_a_seat_not_fighting_is_a_miss():
    s, cues = play(
        [ev(1, "declare", seat=2, battle="brawl"), ev(2, "throw", seat=1, burrito=1), ev(2.4, "catch", burrito=1, seat=2)]
    )
    assert battles(s)[0][3] is None and "MISS" in said(cues)


def test_d9_hitting_yourself_is_a_miss():
    s, _ = play([ev(1, "declare", seat=2, battle="brawl"), ev(2, "throw", seat=1, burrito=1), ev(2.4, "hit", burrito=1, seat=1)])
    assert battles(s)[0][3] is None


def test_d11_simultaneous_hits_in_an_elimination_war_knock_out_both_while_one_is_left():
    s, _ = play(
        [
            *six_bruises(1, [5, 5, 5, 5, 5, 5]),  # seats 1-4 tied on 0: a War of four
            ev(9, "throw", seat=1, burrito=1),
            ev(9, "throw", seat=2, burrito=2),
            ev(9.5, "hit", burrito=1, seat=3),
            ev(9.52, "hit", burrito=2, seat=4),
            ev(11, "throw", seat=1, burrito=1),
            ev(11.4, "hit", burrito=1, seat=2),
        ],
        seats=5,
    )
    tb = s["battles"][-1]
    assert tb["eliminated"] == [3, 4, 2] and tb["loser"] == 2 and s["badge"] == 1


def test_d11_when_the_last_two_hit_each_other_at_once_they_fight_on():
    s, _ = play(
        [
            ev(0.5, "set", seat=2),
            ev(0.6, "set", seat=3),
            *six_bruises(1, [1, 1, 4, 4, 1, 4]),
            ev(9, "throw", seat=2, burrito=1),
            ev(9, "throw", seat=3, burrito=2),
            ev(9.5, "hit", burrito=1, seat=3),
            ev(9.51, "hit", burrito=2, seat=2),
        ]
    )
    assert s["battles"][-1]["loser"] is None and s["battles"][-1]["tie"] == [2, 3]


def test_d18_the_option_defaults_are_the_documented_ones():
    s, _ = play([])
    assert s["options"] == {"two_decks": False, "small_room": False, "tie_window_ms": 45.0, "declare_window_ms": 500.0,
                            "seed": 0}
