"""One test per Zombie Burrito rule the table knows about, named after the rule.

Quotes are from ``../shared/rules/zombie-burrito.txt``; ``z<N>`` tests guard the
choices written down in ``docs/zombie-burrito.md``. Default catalog kinds used
here: zombie thick-skull (lives 1), rise-again (revives 1), hunger (lives 1,
revives 1), shamble (text only); survivor body-armor (lives 1), first-aid
(revives 1), safehouse (lives 1, revives 1), flare (text only).
"""

from __future__ import annotations

import pytest
from test_zb_helpers import adv, ev, play, said, survivors_sweep, throw_hit, zombies_sweep

from game.games.zombie_burrito import rules as zb
from game.log import LogError


def active(summary, n=0):
    return summary["battles"][n]["active"]


# --- Dividing into teams -------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_teams_are_equal_for_an_even_player_count(seats):
    teams = zb.parse_setup({"event": "setup", "game": zb.name, "seats": seats, "options": {"seed": 11}}).options["teams"]
    assert len(teams["zombies"]) == len(teams["survivors"]) == seats // 2


@pytest.mark.parametrize("seats", [3, 5])
def test_an_odd_player_count_gives_one_extra_zombie(seats):
    teams = zb.parse_setup({"event": "setup", "game": zb.name, "seats": seats, "options": {"seed": 5}}).options["teams"]
    assert len(teams["zombies"]) == len(teams["survivors"]) + 1
    assert sorted(teams["zombies"] + teams["survivors"]) == list(range(1, seats + 1))


def test_z1_dealt_teams_come_from_the_seed_and_keep_the_seat_numbers():
    deals = {tuple(zb.deal_teams(6, seed)["zombies"]) for seed in range(40)}
    assert len(deals) > 5  # the seed shuffles
    assert zb.deal_teams(6, 123) == zb.deal_teams(6, 123)  # and the same seed deals the same
    summary, _ = play([], seats=6, seed=123)
    assert summary["teams"] == zb.deal_teams(6, 123)


def test_given_teams_are_used_as_they_are():
    summary, _ = play([], seats=3, teams={"zombies": [3, 1], "survivors": [2]})
    assert summary["teams"] == {"zombies": [1, 3], "survivors": [2]}


@pytest.mark.parametrize(
    ("teams", "problem"),
    [
        ({"zombies": [1, 2], "survivors": [3]}, "without a team"),
        ({"zombies": [1, 2, 3], "survivors": [4]}, "unbalanced"),
        ({"zombies": [1], "survivors": [2, 3, 4]}, "unbalanced"),
        ({"zombies": [1, 2], "survivors": [2, 3]}, "twice"),
        ({"zombies": [1, 5], "survivors": [3, 4]}, "not a seat"),
        ({"zombies": [1, 2]}, "'teams'"),
    ],
)
def test_teams_that_do_not_cover_the_seats_or_are_unbalanced_are_bad_input(teams, problem):
    with pytest.raises(LogError, match=problem):
        play([], seats=4, teams=teams)


def test_an_odd_table_with_the_extra_survivor_instead_of_the_extra_zombie_is_bad_input():
    with pytest.raises(LogError, match="unbalanced"):
        play([], seats=5, teams={"zombies": [1, 2], "survivors": [3, 4, 5]})


# --- Gameplay --------------------------------------------------------------------------------


def test_the_game_starts_with_the_zombie_burrito_countdown():
    _, cues = play([])
    assert "3.. 2.. 1.. Zombie Burrito!" in cues[1].text
    assert any(c.kind == "sound" and c.text == "countdown" for c in cues)


def test_z2_the_opening_caller_is_drawn_from_the_seed():
    callers = {play([], seed=s)[1][1].seats for s in range(30)}
    assert len(callers) > 1
    assert play([], seed=9)[1][1] == play([], seed=9)[1][1]


def test_advantage_sets_laid_down_during_play_apply_in_the_next_battle():
    s, _ = play([adv(1, 2, "zombie", "thick-skull"), adv(2, 4, "survivor", "first-aid"), ev(3, "declare", seat=1)])
    assert active(s) == {"zombies": ["thick-skull"], "survivors": ["first-aid"]}


def test_z5_a_set_laid_down_during_a_battle_does_not_count():
    s, cues = play([ev(1, "declare", seat=1), adv(2, 2, "zombie", "thick-skull")])
    assert active(s) == {"zombies": [], "survivors": []}
    assert "during a battle does not count" in said(cues)


def test_an_unknown_advantage_kind_is_bad_input():
    with pytest.raises(LogError, match="line 2: unknown zombie advantage kind 'laser'"):
        play([adv(1, 1, "zombie", "laser")])


def test_a_kind_of_the_other_side_is_an_unknown_kind():
    with pytest.raises(LogError, match="unknown survivor advantage kind 'thick-skull'"):
        play([adv(1, 1, "survivor", "thick-skull")])


# --- Battles -----------------------------------------------------------------------------------


def test_battle_is_declared_by_a_seat_and_listed_with_its_declarer():
    s, cues = play([ev(1, "declare", seat=3)])
    assert s["battles"] == [
        {"declarer": 3, "active": {"zombies": [], "survivors": []}, "out": [], "restarts": 0, "winner": None}
    ]
    assert "BATTLE! called by seat 3" in said(cues)


def test_a_false_battle_loses_the_battle_for_the_callers_team():
    s, _ = play([adv(1, 4, "survivor", "body-armor"), ev(2, "declare", seat=2, valid=False)])
    assert s["markers"] == {"zombies": 0, "survivors": 1}
    assert s["battles"] == [
        {"declarer": 2, "active": {"zombies": [], "survivors": []}, "out": [], "restarts": 0, "winner": "survivors"}
    ]


def test_a_false_battle_discards_all_sets():
    s, _ = play([adv(1, 4, "survivor", "body-armor"), ev(2, "declare", seat=2, valid=False), ev(3, "declare", seat=1)])
    assert active(s, 1) == {"zombies": [], "survivors": []}


def test_z12_a_second_battle_call_during_a_battle_is_ignored():
    s, cues = play([ev(1, "declare", seat=1), ev(2, "declare", seat=3, valid=False)])
    assert len(s["battles"]) == 1 and s["markers"] == {"zombies": 0, "survivors": 0}
    assert "already on" in said(cues)


# --- Setting up the battle ----------------------------------------------------------------------


def test_each_team_uses_only_its_own_sides_sets():
    # Zombie 1 lays a Survivor set: it does not help the Zombies (it cancels).
    s, _ = play([adv(1, 1, "survivor", "body-armor"), adv(2, 3, "zombie", "thick-skull"), ev(3, "declare", seat=1)])
    assert active(s) == {"zombies": [], "survivors": []}


def test_duplicate_sets_apply_once():
    events = [adv(1, 1, "zombie", "thick-skull"), adv(2, 2, "zombie", "thick-skull"), ev(3, "declare", seat=1),
              *throw_hit(4, 3, 1, 2), *throw_hit(5, 3, 1, 2)]
    s, _ = play(events)
    assert active(s) == {"zombies": ["thick-skull"], "survivors": []}
    assert s["battles"][0]["out"] == [1]  # one extra hit, not two


def test_sets_of_the_other_side_cancel_that_sides_sets_one_for_one():
    events = [adv(1, 3, "survivor", "body-armor"), adv(2, 4, "survivor", "first-aid"),
              adv(3, 1, "survivor", "flare"), ev(4, "declare", seat=1), ev(5, "grab", seat=1, burrito=1)]
    s, _ = play(events)
    # One Zombie-held Survivor set removes one of the Survivors' two different sets.
    assert len(active(s)["survivors"]) == 1


def test_both_teams_cancel_each_others_sets():
    events = [adv(1, 1, "zombie", "rise-again"), adv(2, 3, "survivor", "first-aid"),
              adv(3, 2, "survivor", "flare"), adv(4, 4, "zombie", "shamble"), ev(5, "declare", seat=1)]
    s, _ = play(events)
    assert active(s) == {"zombies": [], "survivors": []}


def test_a_duplicate_survives_the_loss_of_one_copy():
    events = [adv(1, 3, "survivor", "first-aid"), adv(2, 4, "survivor", "first-aid"),
              adv(3, 1, "survivor", "flare"), ev(4, "declare", seat=1),
              ev(5, "cancel", team="zombies", kind="first-aid"), ev(6, "grab", seat=1, burrito=1)]
    s, cues = play(events)
    assert active(s) == {"zombies": [], "survivors": ["first-aid"]}
    assert "still applies" in said(cues)


def test_a_chosen_cancellation_removes_the_named_kind():
    events = [adv(1, 3, "survivor", "body-armor"), adv(2, 4, "survivor", "flare"),
              adv(3, 1, "zombie", "shamble"), adv(3.5, 2, "survivor", "flare"),
              ev(4, "declare", seat=1), ev(5, "cancel", team="zombies", kind="flare")]
    s, _ = play(events)
    assert active(s)["survivors"] == ["body-armor"]


def test_z4_cancellations_not_chosen_are_made_at_the_first_grab_fewest_copies_then_strongest_then_by_name():
    events = [adv(1, 3, "survivor", "flare"), adv(1.1, 3, "survivor", "flare"),
              adv(1.2, 4, "survivor", "body-armor"), adv(1.3, 4, "survivor", "safehouse"),
              adv(1.4, 3, "survivor", "first-aid"),
              adv(2, 1, "survivor", "flare"), adv(2.1, 2, "survivor", "flare"),
              ev(3, "declare", seat=1), ev(4, "grab", seat=1, burrito=1)]
    s, cues = play(events)
    # Single copies go first, strongest first: safehouse (1+1), then body-armor/first-aid (1) by name.
    assert active(s)["survivors"] == ["first-aid", "flare"]
    auto = [c.text for c in cues if "(automatic)" in c.text]
    assert auto == ["The Zombies cancel the Survivors' safehouse set (automatic)",
                    "The Zombies cancel the Survivors' body-armor set (automatic)"]


def test_z4_an_automatic_cancellation_takes_both_copies_of_a_duplicate_when_nothing_else_is_left():
    events = [adv(1, 3, "survivor", "flare"), adv(1.1, 4, "survivor", "flare"),
              adv(2, 1, "survivor", "flare"), adv(2.1, 2, "survivor", "body-armor"),
              ev(3, "declare", seat=2), ev(4, "throw", seat=2, burrito=1)]
    s, _ = play(events)
    assert active(s)["survivors"] == []


def test_z3_a_cancelling_set_with_nothing_to_cancel_is_discarded_for_nothing():
    s, cues = play([adv(1, 1, "survivor", "flare"), adv(2, 3, "zombie", "shamble"),
                    adv(3, 2, "zombie", "hunger"), ev(4, "declare", seat=3), ev(5, "grab", seat=3, burrito=2)])
    assert active(s) == {"zombies": [], "survivors": []}
    assert "nothing left to cancel" in said(cues)


def test_the_zombie_team_cancels_first_in_the_announcements():
    events = [adv(1, 1, "survivor", "flare"), adv(2, 3, "survivor", "first-aid"),
              adv(3, 4, "zombie", "shamble"), adv(4, 2, "zombie", "rise-again"),
              ev(5, "declare", seat=3), ev(6, "grab", seat=3, burrito=2)]
    _, cues = play(events)
    auto = [c.text for c in cues if "(automatic)" in c.text]
    assert auto[0].startswith("The Zombies cancel") and auto[1].startswith("The Survivors cancel")


@pytest.mark.parametrize(
    ("events", "problem"),
    [
        ([ev(1, "cancel", team="zombies", kind="flare")], "no battle is on"),
        ([adv(1, 3, "survivor", "flare"), ev(2, "declare", seat=1), ev(3, "cancel", team="zombies", kind="flare")],
         "laid no survivor set to cancel with"),
        ([adv(1, 3, "survivor", "flare"), adv(1.5, 1, "survivor", "flare"), ev(2, "declare", seat=1),
          ev(3, "cancel", team="zombies", kind="body-armor")], "have no body-armor set"),
        ([adv(1, 3, "survivor", "flare"), adv(1.5, 1, "survivor", "flare"), ev(2, "declare", seat=1),
          ev(3, "grab", seat=1, burrito=1), ev(4, "cancel", team="zombies", kind="flare")], "too late"),
        ([adv(1, 3, "survivor", "flare"), adv(1.1, 3, "survivor", "flare"), adv(1.5, 1, "survivor", "flare"),
          ev(2, "declare", seat=1), ev(3, "cancel", team="zombies", kind="flare"),
          ev(4, "cancel", team="zombies", kind="flare")], "no survivor set left to cancel with"),
        ([ev(1, "cancel", team="zombies", kind="shamble")], "unknown survivor advantage kind 'shamble'"),
    ],
    ids=["no battle", "no cancelling set", "kind not held", "after the first grab", "used up", "wrong side"],
)
def test_an_impossible_cancellation_is_bad_input(events, problem):
    with pytest.raises(LogError, match=problem):
        play(events)


def test_a_bad_cancellation_changes_nothing_in_the_state():
    setup = zb.parse_setup({"event": "setup", "game": zb.name, "seats": 4, "options": {"teams": {"zombies": [1, 2], "survivors": [3, 4]}}})
    state = zb.new_state(setup)
    zb.step(state, zb.check_event(setup, adv(1, 3, "survivor", "flare")))
    zb.step(state, zb.check_event(setup, ev(2, "declare", seat=1)))
    before = zb.summary(state)
    with pytest.raises(zb.RuleInputError):
        zb.step(state, zb.check_event(setup, ev(3, "cancel", team="zombies", kind="flare")))
    assert zb.summary(state) == before and state.t == 2


# --- The battle ----------------------------------------------------------------------------------


def test_the_declarer_starts_holding_their_teams_burrito():
    # No throw was seen: a catch of the Zombie burrito puts out the seat holding it, the declarer.
    s, _ = play([ev(1, "declare", seat=2), ev(2, "catch", burrito=1, seat=3)])
    assert s["battles"][0]["out"] == [2]


def test_the_other_burrito_starts_on_the_table():
    s, cues = play([ev(1, "declare", seat=2), ev(2, "catch", burrito=2, seat=1)])
    assert s["battles"][0]["out"] == []
    assert "nobody threw" in said(cues)


def test_a_hit_by_the_other_teams_burrito_puts_you_out():
    s, cues = play([ev(1, "declare", seat=1), *throw_hit(2, 1, 3, 1)])
    assert s["battles"][0]["out"] == [3]
    assert "HIT! Seat 3 is out" in said(cues)


def test_a_hit_that_then_bounces_still_puts_you_out():
    s, _ = play([ev(1, "declare", seat=1), *throw_hit(2, 1, 3, 1), ev(2.4, "miss", burrito=1)])
    assert s["battles"][0]["out"] == [3]


def test_z8_a_bounce_onto_a_second_player_is_not_a_second_hit():
    s, cues = play([ev(1, "declare", seat=1), *throw_hit(2, 1, 3, 1), ev(2.4, "hit", burrito=1, seat=4)])
    assert s["battles"][0]["out"] == [3] and s["battles"][0]["winner"] is None
    assert "after its flight was decided" in said(cues)


def test_your_own_teams_burrito_is_harmless():
    s, cues = play([ev(1, "declare", seat=1), *throw_hit(2, 1, 2, 1)])
    assert s["battles"][0]["out"] == []
    assert "harmless" in said(cues)


def test_a_catch_puts_the_thrower_out():
    s, cues = play([ev(1, "declare", seat=3), ev(2, "throw", seat=4, burrito=2), ev(2.3, "catch", burrito=2, seat=1)])
    assert s["battles"][0]["out"] == [4]
    assert "CATCH! Seat 1 catches the Survivor burrito: seat 4 is out" in said(cues)


def test_a_catch_after_the_burrito_touched_something_is_no_catch():
    s, _ = play([ev(1, "declare", seat=3), ev(2, "throw", seat=4, burrito=2), ev(2.3, "miss", burrito=2),
                 ev(2.4, "catch", burrito=2, seat=1)])
    assert s["battles"][0]["out"] == []


def test_catching_your_own_teams_burrito_is_a_pass():
    s, _ = play([ev(1, "declare", seat=3), ev(2, "throw", seat=4, burrito=2), ev(2.3, "catch", burrito=2, seat=3),
                 ev(3, "throw", seat=3, burrito=2), ev(3.3, "hit", burrito=2, seat=1)])
    assert s["battles"][0]["out"] == [1]


def test_z9_touching_the_other_teams_burrito_is_ignored_and_left_to_the_referee():
    s, cues = play([ev(1, "declare", seat=1), ev(2, "grab", seat=3, burrito=1), ev(2.5, "throw", seat=3, burrito=1)])
    assert s["battles"][0]["out"] == []
    assert "the referee may call a foul" in said(cues)


def test_a_foul_puts_the_player_out():
    s, _ = play([ev(1, "declare", seat=1), ev(2, "foul", seat=4)])
    assert s["battles"][0]["out"] == [4]


def test_an_out_player_may_not_throw():
    s, cues = play([ev(1, "declare", seat=1), *throw_hit(2, 1, 3, 1), *throw_hit(3, 3, 1, 2)])
    assert s["battles"][0]["out"] == [3]
    assert "Seat 3 is out and may not touch a burrito" in said(cues)


def test_the_battle_ends_when_a_team_has_nobody_left_and_the_winners_flip_a_team_marker():
    s, cues = play(zombies_sweep(1))
    b = s["battles"][0]
    assert b["out"] == [3, 4] and b["winner"] == "zombies"
    assert s["markers"] == {"zombies": 1, "survivors": 0}
    assert "Seat 1 counts: 3.. 2.. 1.. Zombie Burrito!" in said(cues)


def test_the_battle_goes_on_while_each_team_has_someone_in():
    s, _ = play([ev(1, "declare", seat=1), *throw_hit(2, 1, 3, 1)])
    assert s["battles"][0]["winner"] is None and s["markers"] == {"zombies": 0, "survivors": 0}


def test_all_sets_are_discarded_after_every_battle():
    events = [adv(1, 1, "zombie", "thick-skull"), adv(1.5, 3, "survivor", "flare"), *zombies_sweep(2),
              adv(10, 2, "zombie", "shamble"), ev(11, "declare", seat=2)]
    s, _ = play(events)
    assert active(s, 0)["zombies"] == ["thick-skull"]
    assert active(s, 1) == {"zombies": ["shamble"], "survivors": []}


def test_a_hit_that_arrives_after_its_battle_was_decided_is_ignored():
    events = [*zombies_sweep(1), ev(3.5, "hit", burrito=2, seat=1)]
    s, _ = play(events)
    assert s["battles"][0]["out"] == [3, 4]


def test_a_hit_with_no_battle_on_is_ignored():
    s, cues = play([ev(1, "hit", burrito=1, seat=3)])
    assert s["battles"] == [] and "no battle is on" in said(cues)


# --- Ties ----------------------------------------------------------------------------------------


def final_two(gap: float, **extra):
    """Seats 1 and 3 left; at t=10 seat 1 hits 3 and ``gap`` seconds later seat 3 hits 1."""
    return [
        ev(1, "declare", seat=1),
        *throw_hit(2, 1, 4, 1),  # survivor 4 out
        *throw_hit(3, 3, 2, 2),  # zombie 2 out
        ev(9.7, "throw", seat=1, burrito=1), ev(9.7, "throw", seat=3, burrito=2),
        ev(10.0, "hit", burrito=1, seat=3), ev(10.0 + gap, "hit", burrito=2, seat=1),
    ]


def test_the_final_two_hitting_each_other_at_the_same_moment_restart_alone():
    s, cues = play(final_two(0.02))
    b = s["battles"][0]
    assert b["restarts"] == 1 and b["winner"] is None and b["out"] == [4, 2]
    assert "TIE! Seats 1 and 3" in said(cues)


def test_after_a_tie_restart_the_next_out_decides_the_battle():
    s, _ = play([*final_two(0.02), *throw_hit(12, 3, 1, 2)])
    b = s["battles"][0]
    assert b["restarts"] == 1 and b["winner"] == "survivors" and b["out"] == [4, 2, 1]


def test_the_restart_keeps_the_advantages():
    events = [
        adv(0.5, 2, "zombie", "thick-skull"), ev(1, "declare", seat=1),
        *throw_hit(2, 1, 4, 1), *throw_hit(3, 3, 2, 2), *throw_hit(4, 3, 2, 2),  # 4 out; 2 out after its extra hit
        *throw_hit(5, 3, 1, 2),  # seat 1 spends its extra hit
        ev(9.7, "throw", seat=1, burrito=1), ev(9.7, "throw", seat=3, burrito=2),
        ev(10.0, "hit", burrito=1, seat=3), ev(10.02, "hit", burrito=2, seat=1),  # tie
        *throw_hit(12, 3, 1, 2),
    ]
    s, _ = play(events)
    b = s["battles"][0]
    # Z11: thick-skull still applies, so seat 1 takes an extra hit again after the restart.
    assert b["restarts"] == 1 and b["winner"] is None and b["active"]["zombies"] == ["thick-skull"]
    assert play([*events, *throw_hit(13, 3, 1, 2)])[0]["battles"][0]["winner"] == "survivors"


def test_hits_further_apart_than_the_tie_window_are_no_tie():
    s, cues = play(final_two(0.2))
    b = s["battles"][0]
    assert b["restarts"] == 0 and b["winner"] == "zombies" and b["out"] == [4, 2, 3]
    assert "Hit on seat 1 ignored" in said(cues)


def test_z10_the_tie_window_defaults_to_45_ms_inclusive():
    assert play(final_two(0.045))[0]["battles"][0]["restarts"] == 1
    assert play(final_two(0.046))[0]["battles"][0]["restarts"] == 0


def test_the_tie_window_is_a_setup_option():
    assert play(final_two(0.1), tie_window_ms=150)[0]["battles"][0]["restarts"] == 1
    assert play(final_two(0.0), tie_window_ms=0)[0]["battles"][0]["winner"] == "zombies"


def test_a_late_hit_or_catch_that_does_not_empty_the_other_team_is_no_tie():
    events = [*final_two(0)[:-2], ev(10.0, "hit", burrito=1, seat=3), ev(10.01, "catch", burrito=2, seat=1)]
    # Seat 1 catches seat 3's throw 10 ms after hitting seat 3: that catch puts out seat 3 again,
    # not the last Zombie.
    assert play(events)[0]["battles"][0]["winner"] == "zombies"
    events = [*final_two(0)[:-2], ev(10.0, "hit", burrito=2, seat=1), ev(10.01, "catch", burrito=2, seat=3)]
    assert play(events)[0]["battles"][0]["winner"] == "survivors"  # burrito 2 already hit: no catch


def test_two_catches_at_the_same_moment_by_the_final_two_are_a_tie():
    events = [
        ev(1, "declare", seat=1), *throw_hit(2, 1, 4, 1), *throw_hit(3, 3, 2, 2),
        ev(9.7, "throw", seat=1, burrito=1), ev(9.7, "throw", seat=3, burrito=2),
        ev(10.0, "catch", burrito=1, seat=3), ev(10.03, "catch", burrito=2, seat=1),
    ]
    s, _ = play(events)
    assert s["battles"][0]["restarts"] == 1 and s["battles"][0]["winner"] is None


# --- Winning --------------------------------------------------------------------------------------


def test_the_first_team_to_three_team_markers_wins_the_game():
    events = [*zombies_sweep(1), *survivors_sweep(10), *zombies_sweep(20), *zombies_sweep(30)]
    s, cues = play(events)
    assert s["markers"] == {"zombies": 3, "survivors": 1} and s["winner"] == "zombies"
    assert "win the game" in said(cues)


def test_an_event_after_the_game_was_won_is_bad_input():
    events = [*zombies_sweep(1), *zombies_sweep(10), *zombies_sweep(20), ev(40, "declare", seat=3)]
    with pytest.raises(LogError, match="after the game was won"):
        play(events)


def test_a_false_battle_can_win_the_game_for_the_other_team():
    events = [*survivors_sweep(1), *survivors_sweep(10), ev(20, "declare", seat=1, valid=False)]
    s, _ = play(events)
    assert s["winner"] == "survivors" and s["markers"] == {"zombies": 0, "survivors": 3}


# --- Effect primitives --------------------------------------------------------------------------


def test_lives_let_each_member_take_extra_hits_before_being_out():
    events = [adv(1, 4, "survivor", "body-armor"), ev(2, "declare", seat=1),
              *throw_hit(3, 1, 3, 1), *throw_hit(4, 1, 4, 1)]
    s, cues = play(events)
    assert s["battles"][0]["out"] == []
    assert "1 extra hit(s) left" not in said(cues) and "0 extra hit(s) left" in said(cues)
    s, _ = play([*events, *throw_hit(5, 1, 3, 1)])
    assert s["battles"][0]["out"] == [3]


def test_z6_lives_of_different_kinds_add_up():
    events = [adv(1, 3, "survivor", "body-armor"), adv(1.5, 4, "survivor", "safehouse"), ev(2, "declare", seat=1),
              *throw_hit(3, 1, 3, 1), *throw_hit(4, 1, 3, 1)]
    s, _ = play(events)
    assert s["battles"][0]["out"] == []  # two extra hits taken
    assert play([*events, *throw_hit(5, 1, 3, 1)])[0]["battles"][0]["out"] == [3]


def test_z7_lives_do_not_save_a_player_from_a_catch_or_a_foul():
    base = [adv(1, 1, "zombie", "thick-skull"), ev(2, "declare", seat=1)]
    s, _ = play([*base, ev(3, "throw", seat=1, burrito=1), ev(3.3, "catch", burrito=1, seat=3)])
    assert s["battles"][0]["out"] == [1]
    s, _ = play([*base, ev(3, "foul", seat=2)])
    assert s["battles"][0]["out"] == [2]


def test_revives_bring_an_eliminated_teammate_back_during_the_battle():
    events = [adv(1, 3, "survivor", "first-aid"), ev(2, "declare", seat=1), *throw_hit(3, 1, 4, 1),
              ev(4, "revive", seat=4), *throw_hit(5, 1, 3, 1)]
    s, cues = play(events)
    b = s["battles"][0]
    assert b["out"] == [3] and b["winner"] is None
    assert "REVIVE! Seat 4 is back in" in said(cues)


def test_a_seat_revived_and_put_out_again_counts_from_its_last_exit():
    events = [adv(1, 3, "survivor", "first-aid"), ev(2, "declare", seat=1), *throw_hit(3, 1, 4, 1),
              ev(4, "revive", seat=4), *throw_hit(5, 1, 3, 1), *throw_hit(6, 1, 4, 1)]
    b = play(events)[0]["battles"][0]
    assert b["out"] == [3, 4] and b["winner"] == "zombies"


def test_z11_a_revived_seat_comes_back_with_the_teams_full_extra_hits():
    events = [adv(1, 3, "survivor", "safehouse"), ev(2, "declare", seat=1),
              *throw_hit(3, 1, 4, 1), *throw_hit(4, 1, 4, 1), ev(5, "revive", seat=4), *throw_hit(6, 1, 4, 1)]
    assert play(events)[0]["battles"][0]["out"] == []


def test_a_revive_with_no_revive_left_is_bad_input():
    events = [adv(1, 3, "survivor", "first-aid"), ev(2, "declare", seat=1), *throw_hit(3, 1, 4, 1),
              ev(4, "revive", seat=4), *throw_hit(5, 1, 4, 1), ev(6, "revive", seat=4)]
    with pytest.raises(LogError, match="line 9: revive of seat 4: the survivors have no revive left"):
        play(events)


@pytest.mark.parametrize(
    ("events", "problem"),
    [
        ([ev(1, "revive", seat=3)], "no battle is on"),
        ([adv(1, 3, "survivor", "first-aid"), ev(2, "declare", seat=1), ev(3, "revive", seat=3)], "is not out"),
        ([ev(2, "declare", seat=1), *throw_hit(3, 1, 4, 1), ev(4, "revive", seat=4)], "no revive left"),
    ],
    ids=["no battle", "not out", "no revive advantage"],
)
def test_z13_an_impossible_revive_is_bad_input(events, problem):
    with pytest.raises(LogError, match=problem):
        play(events)


def test_text_only_advantages_are_shown_but_change_nothing():
    s, cues = play([adv(1, 1, "zombie", "shamble"), ev(2, "declare", seat=1), *throw_hit(3, 3, 1, 2)])
    assert s["battles"][0]["out"] == [1]
    assert "Zombies have shamble: Zombies may throw" in said(cues)


def test_a_catalog_in_the_setup_replaces_the_default():
    catalog = {"zombie": {"claws": {"lives": 2, "text": "Two extra hits."}}, "survivor": {}}
    events = [adv(1, 2, "zombie", "claws"), ev(2, "declare", seat=1), *throw_hit(3, 3, 1, 2), *throw_hit(4, 3, 1, 2)]
    s, _ = play(events, catalog=catalog)
    assert s["battles"][0]["active"]["zombies"] == ["claws"] and s["battles"][0]["out"] == []
    with pytest.raises(LogError, match="unknown zombie advantage kind 'thick-skull'"):
        play([adv(1, 2, "zombie", "thick-skull")], catalog=catalog)


def test_z4_a_foul_does_not_end_battle_setup():
    events = [adv(1, 3, "survivor", "flare"), adv(1.5, 1, "survivor", "flare"), ev(2, "declare", seat=1),
              ev(3, "foul", seat=4), ev(4, "cancel", team="zombies", kind="flare")]
    s, _ = play(events)
    assert s["battles"][0]["out"] == [4] and s["battles"][0]["active"]["survivors"] == []


def test_z8_a_grab_makes_a_landed_burrito_live_again():
    base = [ev(1, "declare", seat=1), *throw_hit(2, 1, 3, 1)]
    # The throw after the grab was not seen: the catch is credited to the seat holding the burrito.
    s, _ = play([*base, ev(3, "grab", seat=2, burrito=1), ev(3.5, "catch", burrito=1, seat=4)])
    assert s["battles"][0]["out"] == [3, 2]
    s, cues = play([*base, ev(3.5, "catch", burrito=1, seat=4)])
    assert s["battles"][0]["out"] == [3] and "had already touched something" in said(cues)


def test_z11_unspent_revives_may_be_used_during_a_restart():
    events = [
        adv(0.5, 4, "survivor", "first-aid"), ev(1, "declare", seat=1),
        *throw_hit(2, 1, 4, 1), *throw_hit(3, 3, 2, 2),
        ev(9.7, "throw", seat=1, burrito=1), ev(9.7, "throw", seat=3, burrito=2),
        ev(10.0, "hit", burrito=1, seat=3), ev(10.02, "hit", burrito=2, seat=1),
        ev(11, "revive", seat=4),
    ]
    b = play(events)[0]["battles"][0]
    assert b["restarts"] == 1 and b["out"] == [2] and b["winner"] is None


def test_z14_setup_defaults_and_unknown_options():
    setup = zb.parse_setup({"event": "setup", "game": zb.name, "seats": 3})
    assert setup.options["seed"] == 0 and setup.options["tie_window_ms"] == 45.0
    assert setup.options["teams"] == zb.deal_teams(3, 0)
    with pytest.raises(zb.RuleInputError, match="unknown setup option"):
        zb.parse_setup({"event": "setup", "game": zb.name, "seats": 3, "options": {"tie_window": 45}})
