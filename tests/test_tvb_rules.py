"""One test per Taco vs Burrito rule, named after it.

Quotes are from ``../shared/rules/taco-vs-burrito.txt``; ``t<N>`` tests guard the choices in
``docs/taco-vs-burrito.md``. Games are set up with the ``deck`` option (top first), so every hand,
draw and flip is known: ``deal`` builds that deck from the hands each seat should get.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from game.games.taco_vs_burrito import rules as tvb
from game.log import LogError, run_log
from game.rules.base import Cue

I1, I2, I3 = "ingredient-1", "ingredient-2", "ingredient-3"
T1, T2, T3 = "tummy-ache-1", "tummy-ache-2", "tummy-ache-3"
HSB, HI, NB = "hot-sauce-boss", "health-inspector", "no-bueno"
CC, TP, FF, OE = "crafty-crow", "trash-panda", "food-fight", "order-envy"


def deal(hands: dict[int, list[str]], pile: list[str], seats: int = 2, first: int = 1) -> list[str]:
    """The deck (top first) that deals ``hands`` one card at a time clockwise from ``first``, then ``pile``."""
    order = [(first - 1 + i) % seats + 1 for i in range(seats)]
    full = {s: list(hands.get(s, [])) + [I1] * (5 - len(hands.get(s, []))) for s in order}
    return [full[s][r] for r in range(5) for s in order] + list(pile)


def ev(t: float, event: str, seat: int, **fields: Any) -> dict[str, Any]:
    return {"t": t, "event": event, "seat": seat, **fields}


def log_lines(events: list[dict[str, Any]], seats: int = 2, **options: Any) -> list[str]:
    setup = {"event": "setup", "game": "taco-vs-burrito", "seats": seats, "options": options}
    return [json.dumps(setup)] + [json.dumps(e) for e in events]


def play(
    events: list[dict[str, Any]],
    hands: dict[int, list[str]] | None = None,
    pile: list[str] | None = None,
    seats: int = 2,
    **options: Any,
) -> tuple[dict[str, Any], list[Cue], tvb.State]:
    """Replay a log on a stacked deck; returns the ``--json`` summary, every cue and the end state."""
    if hands is not None or pile is not None:
        options["deck"] = deal(hands or {}, pile or [], seats, options.get("first", 1))
    table, cues = run_log(log_lines(events, seats, **options))
    return table.summary(), cues, table.state


def bad(events: list[dict[str, Any]], match: str, **kwargs: Any) -> LogError:
    with pytest.raises(LogError, match=match) as info:
        play(events, **kwargs)
    return info.value


def said(cues: list[Cue]) -> str:
    return "\n".join(c.text for c in cues if c.kind in ("say", "note"))


def hand(summary: dict[str, Any], seat: int) -> Counter[str]:
    return Counter(summary["hands"][str(seat)])


def discards(pairs: list[tuple[int, str]], t0: float = 1.0) -> list[dict[str, Any]]:
    """A discard per (seat, card), one second apart (discards open no block window)."""
    return [ev(t0 + i, "discard", seat, card=card) for i, (seat, card) in enumerate(pairs)]


def burn(rounds: int, seats: int = 2, t0: float = 1.0, card: str = I1) -> list[dict[str, Any]]:
    """``rounds`` rounds in which every seat, from seat 1, discards ``card``."""
    return discards([(s, card) for _ in range(rounds) for s in range(1, seats + 1)], t0)


# --- Setup ---------------------------------------------------------------------------------


def test_setup_deals_five_each_one_card_at_a_time_clockwise_from_first():
    deck = [I1, I2, I3] * 5 + [T1]
    s, _, _ = play([], seats=3, first=2, deck=deck)
    assert hand(s, 2) == Counter({I1: 5, T1: 1})  # seat 2 is first: card 1, 4, 7... and the first draw
    assert hand(s, 3) == Counter({I2: 5})
    assert hand(s, 1) == Counter({I3: 5})
    assert s["draw_pile"] == 0 and s["turn"] == 2


def test_setup_a_health_inspector_in_a_starting_hand_goes_back_into_the_deck_and_is_replaced():
    pile = [I3, T2, T3, T1]
    s, cues, state = play([], hands={1: [HI, I1, I1, I1, I1]}, pile=pile)
    assert HI not in hand(s, 1) and hand(s, 1)[I3] == 1  # the seat takes the top card in its place
    assert "Health Inspector: back in the deck" in said(cues)
    everything = Counter(c for zone in tvb.zones(state).values() for c in zone)
    assert everything == Counter(deal({1: [HI, I1, I1, I1, I1]}, pile))


def test_t5_a_replaced_health_inspector_never_goes_back_on_top():
    # With one card left under it, the only seeded position is below that card: the seat gets a new card.
    s, _, _ = play([], hands={1: [HI, I1, I1, I1, I1]}, pile=[I3])
    assert hand(s, 1) == Counter({I1: 4, I3: 1}) and s["meals"]["1"] == []
    assert s["trash"] == [HI]  # then seat 1's first draw is the Inspector: an empty meal goes to the trash


def test_setup_the_youngest_chosen_seat_goes_first():
    s, _, _ = play([], hands={}, pile=[I2], seats=3, first=3)
    assert s["turn"] == 3 and hand(s, 3)[I2] == 1


def test_setup_the_shuffle_is_seeded():
    a, _, _ = play([], seats=4, seed=11)
    b, _, _ = play([], seats=4, seed=11)
    c, _, _ = play([], seats=4, seed=12)
    assert a == b
    assert a["hands"] != c["hands"]
    assert sum(len(h) for h in a["hands"].values()) + a["draw_pile"] + len(a["trash"]) == 56


@pytest.mark.parametrize(
    ("setup", "match"),
    [
        ({"seats": 1}, "seats"),
        ({"seats": 7}, "seats"),
        ({"seats": 2, "options": {"seeds": 1}}, "unknown setup option"),
        ({"seats": 2, "options": {"variant": "hidden"}}, "variant"),
        ({"seats": 2, "options": {"first": 3}}, "first"),
        ({"seats": 2, "options": {"seed": "x"}}, "seed"),
        ({"seats": 2, "options": {"no_bueno_window_ms": -5}}, "no_bueno_window_ms"),
        ({"seats": 2, "options": {"deck": [I1] * 9 + ["taco"]}}, "card 10 is 'taco'"),
        ({"seats": 2, "options": {"deck": [I1] * 9 + [HI, HI]}}, "9 cards that are not Health Inspectors"),
        ({"seats": 2, "options": {"deck": "shuffled"}}, "list of card names"),
    ],
)
def test_setup_bad_input_is_a_one_line_error(setup, match):
    line = json.dumps({"event": "setup", "game": "taco-vs-burrito", **setup})
    with pytest.raises(LogError, match=match) as info:
        run_log([line])
    assert "line 1" in str(info.value) and "\n" not in str(info.value)


# --- Turns -----------------------------------------------------------------------------------


def test_turn_draw_a_card_then_play_one():
    s, _, _ = play([ev(1, "discard", 1, card=I1)], hands={}, pile=[I2, I3])
    assert hand(s, 1) == Counter({I1: 4, I2: 1})  # drew, then discarded
    assert hand(s, 2) == Counter({I1: 5, I3: 1}) and s["turn"] == 2


def test_turns_move_clockwise_and_wrap_around():
    # Seats 2, 3, 1 move in that order: each event's seat is checked against the turn.
    s, _, _ = play(discards([(2, I1), (3, I1), (1, I1)]), hands={}, pile=[], seats=3, first=2)
    assert s["turn"] == 2


def test_after_the_draw_pile_runs_out_the_draw_is_skipped_and_the_trash_is_never_reshuffled():
    s, cues, _ = play(burn(2), hands={}, pile=[I3])
    assert s["draw_pile"] == 0 and len(s["trash"]) == 4
    assert hand(s, 1) == Counter({I1: 3, I3: 1}) and hand(s, 2) == Counter({I1: 3})
    assert "no draw, the pile is empty" in said(cues)


def test_the_game_ends_at_once_when_anyone_plays_their_last_card():
    events = burn(4) + [ev(9, "place", 1, card=I3, meal=1)]
    s, cues, _ = play(events, hands={1: [I3], 2: [NB]}, pile=[])
    assert s["over"] and s["turn"] is None and s["winners"] == [1]
    assert s["meals"]["1"] == [I3] and s["scores"] == {"1": 3, "2": 0}
    assert "last card" in said(cues)


def test_a_last_card_cannot_be_blocked():
    events = burn(4) + [ev(9, "place", 1, card=I3, meal=1), ev(9.5, "block", 2)]
    err = bad(events, "line 11: .*after the game", hands={1: [I3], 2: [NB]}, pile=[])
    assert err.line == 11


def test_t3_discarding_the_last_card_also_ends_the_game():
    s, _, _ = play(burn(4) + discards([(1, I3)], 9), hands={1: [I3]}, pile=[])
    assert s["over"] and s["winners"] == [1, 2]


def test_a_move_out_of_turn_is_bad_input():
    bad([ev(1, "discard", 2, card=I1)], "line 2: seat 2 moved out of turn: it is seat 1's turn", hands={}, pile=[])


def test_a_card_not_in_the_hand_is_bad_input():
    bad([ev(1, "discard", 1, card=OE)], "seat 1 has no order-envy in hand", hands={}, pile=[])


def test_a_move_before_the_block_window_closes_is_bad_input():
    events = [ev(1, "place", 1, card=I2, meal=1), ev(2, "discard", 2, card=I1)]
    bad(events, "comes before seat 1's ingredient-2 leaves the block window", hands={1: [I2]}, pile=[])


def test_at_the_end_of_the_log_the_window_closes_and_the_next_turn_begins_with_its_draw():
    s, _, _ = play([ev(1, "place", 1, card=I2, meal=1)], hands={1: [I2]}, pile=[T1, I3])
    assert s["meals"]["1"] == [I2] and s["turn"] == 2 and hand(s, 2)[I3] == 1 and s["draw_pile"] == 0


# --- Placing and scoring -------------------------------------------------------------------------


def test_ingredients_tummy_aches_and_hot_sauce_bosses_go_into_any_meal():
    events = [
        ev(1, "place", 1, card=T2, meal=2),
        ev(5, "place", 2, card=HSB, meal=1),
        ev(9, "place", 1, card=I3, meal=2),
    ]
    s, _, _ = play(events, hands={1: [T2, I3], 2: [HSB]}, pile=[])
    assert s["meals"] == {"1": [HSB], "2": [T2, I3]}
    assert s["scores"] == {"1": 0, "2": 1}


def test_action_cards_are_played_not_placed():
    bad([ev(1, "place", 1, card=CC, meal=1)], "cannot place crafty-crow", hands={1: [CC]}, pile=[])
    bad([ev(1, "play", 1, card=I3)], "cannot 'play' ingredient-3", hands={1: [I3]}, pile=[])
    bad([ev(1, "play", 1, card=NB)], "'block' event", hands={1: [NB]}, pile=[])


def test_score_is_ingredients_minus_tummy_aches_times_two_per_hot_sauce_boss():
    state = play([], hands={}, pile=[])[2]
    kinds, values = state.kinds, state.values
    assert tvb.meal_score([I3, I2, T1], kinds, values) == 4
    assert tvb.meal_score([I3, I2, T1, HSB], kinds, values) == 8
    # "If you have 2 Hot Sauce Bosses, multiply by 4. ... doubles Ingredients AND Tummy Aches!"
    assert tvb.meal_score([I3, I2, T1, HSB, HSB], kinds, values) == 16
    assert tvb.meal_score([T3, HSB, HSB, I1], kinds, values) == -8
    assert tvb.meal_score([HSB], kinds, values) == 0


def test_the_score_formula_holds_in_a_replayed_game():
    events = [ev(1, "place", 1, card=HSB, meal=1), ev(5, "place", 2, card=T3, meal=1), ev(9, "place", 1, card=HSB, meal=1)]
    s, _, _ = play(events, hands={1: [HSB, HSB], 2: [T3]}, pile=[])
    assert s["scores"]["1"] == -12


def test_t14_every_seat_tied_on_the_top_score_wins():
    events = burn(4, seats=3) + [ev(20, "place", 1, card=I3, meal=1)]
    s, _, _ = play(events, hands={1: [I3], 3: [I1]}, pile=[], seats=3)
    assert s["winners"] == [1]
    s, _, _ = play(burn(4, seats=2) + discards([(1, I1)], 20), hands={}, pile=[])
    assert s["over"] and s["winners"] == [1, 2]


# --- Health Inspector --------------------------------------------------------------------------------


def test_a_drawn_health_inspector_trashes_the_meal_and_ends_the_turn():
    events = [ev(1, "place", 1, card=I3, meal=1), ev(5, "discard", 2, card=I1)]
    s, cues, _ = play(events, hands={1: [I3]}, pile=[I1, I1, HI, T1])
    assert s["meals"]["1"] == [] and Counter(s["trash"]) == Counter({I3: 1, HI: 1, I1: 1})
    assert s["turn"] == 2 and hand(s, 2)[T1] == 1  # seat 1's turn is over: seat 2 draws
    assert "HEALTH INSPECTOR" in said(cues)


def test_a_health_inspector_draw_cannot_be_blocked():
    events = [ev(1, "place", 1, card=I3, meal=1), ev(5, "discard", 2, card=I1), ev(5.5, "block", 2)]
    bad(events, "no card is waiting in the block window", hands={1: [I3], 2: [NB]}, pile=[I1, I1, HI, T1])


# --- No Bueno ------------------------------------------------------------------------------------------


def test_no_bueno_blocks_a_card_which_goes_to_the_trash_with_no_effect():
    s, cues, _ = play([ev(1, "place", 1, card=I3, meal=1), ev(2, "block", 2)], hands={1: [I3], 2: [NB]}, pile=[])
    assert s["meals"]["1"] == [] and Counter(s["trash"]) == Counter({I3: 1, NB: 1})
    assert s["turn"] == 2 and "NO BUENO! Seat 2 blocks" in said(cues)


def test_si_bueno_a_no_bueno_on_a_no_bueno_lets_the_card_through():
    events = [ev(1, "place", 1, card=I3, meal=1), ev(2, "block", 2), ev(3, "block", 1)]
    s, cues, _ = play(events, hands={1: [I3, NB], 2: [NB]}, pile=[])
    assert s["meals"]["1"] == [I3] and Counter(s["trash"]) == Counter({NB: 2})
    assert "SI BUENO" in said(cues)


def test_no_buenos_keep_chaining_an_odd_number_blocks_the_card():
    events = [ev(1, "place", 1, card=I3, meal=1), ev(2, "block", 2), ev(3, "block", 1), ev(4, "block", 3)]
    s, _, _ = play(events, hands={1: [I3, NB], 2: [NB], 3: [NB]}, pile=[], seats=3)
    assert s["meals"]["1"] == [] and Counter(s["trash"]) == Counter({NB: 3, I3: 1})


def test_each_block_opens_the_window_again():
    events = [ev(1, "place", 1, card=I3, meal=1), ev(3.9, "block", 2), ev(6.5, "block", 1), ev(9.6, "discard", 2, card=I1)]
    s, _, _ = play(events, hands={1: [I3, NB], 2: [NB]}, pile=[])
    assert s["meals"]["1"] == [I3]
    late = events[:3] + [ev(9.4, "discard", 2, card=I1)]  # the second block's window lasts until 9.5
    bad(late, "before seat 1's ingredient-3 leaves the block window \\(at t=9.5\\)", hands={1: [I3, NB], 2: [NB]}, pile=[])


def test_t1_a_block_exactly_at_the_deadline_counts_and_the_default_window_is_3_seconds():
    s, _, _ = play([ev(1, "place", 1, card=I3, meal=1), ev(4, "block", 2)], hands={1: [I3], 2: [NB]}, pile=[])
    assert s["meals"]["1"] == []
    bad([ev(1, "place", 1, card=I3, meal=1), ev(4.01, "block", 2)], "no card is waiting", hands={1: [I3], 2: [NB]}, pile=[])


def test_the_no_bueno_window_is_a_setup_option():
    events = [ev(1, "place", 1, card=I3, meal=1), ev(1.6, "block", 2)]
    bad(events, "no card is waiting", hands={1: [I3], 2: [NB]}, pile=[], no_bueno_window_ms=500)


def test_a_seat_cannot_block_its_own_card():
    bad([ev(1, "place", 1, card=I3, meal=1), ev(2, "block", 1)], "seat 1 cannot block its own card", hands={1: [I3, NB]}, pile=[])
    events = [ev(1, "place", 1, card=I3, meal=1), ev(2, "block", 2), ev(2.5, "block", 2)]
    bad(events, "seat 2 cannot block its own No Bueno", hands={1: [I3], 2: [NB, NB]}, pile=[])


def test_a_block_without_a_no_bueno_in_hand_is_bad_input():
    bad([ev(1, "place", 1, card=I3, meal=1), ev(2, "block", 2)], "seat 2 blocks without a no-bueno", hands={1: [I3]}, pile=[])


def test_a_discard_cannot_be_blocked():
    bad([ev(1, "discard", 1, card=I3), ev(1.5, "block", 2)], "no card is waiting", hands={1: [I3], 2: [NB]}, pile=[])


def test_t3_blocking_with_your_last_card_ends_the_game():
    events = [
        ev(1, "discard", 1, card=I1),
        ev(2, "discard", 2, card=I1),
        ev(3, "play", 1, card=TP, item=I1),
        *discards([(2, I1), (1, I1), (2, I1), (1, I1), (2, I1)], 7),
        ev(12, "place", 1, card=I3, meal=1),
        ev(13, "block", 2),
    ]
    s, _, _ = play(events, hands={1: [TP, I3], 2: [NB]}, pile=[])
    assert s["over"] and s["meals"]["1"] == [] and s["winners"] == [1, 2]
    assert hand(s, 1) == Counter({I1: 1}) and hand(s, 2) == Counter()


# --- Crafty Crow ---------------------------------------------------------------------------------------


def test_crafty_crow_steals_an_item_into_your_own_meal():
    events = [ev(1, "place", 1, card=I2, meal=2), ev(5, "discard", 2, card=I1), ev(6, "play", 1, card=CC, target=2, item=I2)]
    s, _, _ = play(events, hands={1: [I2, CC]}, pile=[])
    assert s["meals"] == {"1": [I2], "2": []} and CC in s["trash"]
    assert hand(s, 1) == Counter({I1: 3})  # the item goes in the meal, not the hand


def test_crafty_crow_on_an_empty_meal_is_bad_input():
    bad([ev(1, "play", 1, card=CC, target=2, item=I1)], "seat 2's meal, which is empty", hands={1: [CC]}, pile=[])


def test_crafty_crow_must_target_another_seat_and_an_item_in_its_meal():
    events = [ev(1, "place", 1, card=I2, meal=1), ev(5, "place", 2, card=I3, meal=2)]
    bad(events + [ev(9, "play", 1, card=CC, target=1, item=I2)], "another seat", hands={1: [I2, CC], 2: [I3]}, pile=[])
    bad(events + [ev(9, "play", 1, card=CC, target=2, item=I2)], "has no ingredient-2", hands={1: [I2, CC], 2: [I3]}, pile=[])


# --- Trash Panda ---------------------------------------------------------------------------------------


def test_trash_panda_takes_any_card_from_the_trash_into_the_hand():
    events = [ev(1, "discard", 1, card=OE), ev(2, "discard", 2, card=I1), ev(3, "play", 1, card=TP, item=OE)]
    s, _, _ = play(events, hands={1: [OE, TP]}, pile=[])
    assert hand(s, 1)[OE] == 1 and Counter(s["trash"]) == Counter({TP: 1, I1: 1})


def test_trash_panda_needs_the_card_to_be_in_the_trash():
    bad([ev(1, "play", 1, card=TP, item=OE)], "the trash holds no order-envy", hands={1: [TP]}, pile=[])


def test_trash_panda_on_a_trash_panda_is_allowed_only_twice_per_game():
    events = [
        ev(1, "discard", 1, card=TP),
        ev(2, "play", 2, card=TP, item=TP),
        ev(6, "play", 1, card=TP, item=TP),
        ev(10, "play", 2, card=TP, item=TP),
    ]
    s, _, _ = play(events[:3], hands={1: [TP, TP, TP], 2: [TP, TP]}, pile=[])
    assert hand(s, 1)[TP] == 2 and hand(s, 2)[TP] == 2
    bad(events, "line 5: .*already taken by a Trash Panda 2 times", hands={1: [TP, TP, TP], 2: [TP, TP]}, pile=[])


def test_t6_a_blocked_trash_panda_on_a_trash_panda_does_not_count():
    events = [
        ev(1, "discard", 1, card=TP),
        ev(2, "play", 2, card=TP, item=TP),
        ev(2.5, "block", 1),
        ev(6, "play", 1, card=TP, item=TP),
        ev(10, "play", 2, card=TP, item=TP),
    ]
    s, _, _ = play(events, hands={1: [TP, TP, NB], 2: [TP, TP]}, pile=[])
    assert hand(s, 2)[TP] == 1  # the third attempt is the second that took effect


def test_trash_panda_on_a_health_inspector_trashes_your_own_meal_at_once():
    events = [
        ev(1, "place", 1, card=T3, meal=1),
        ev(5, "discard", 2, card=I1),  # then seat 1 draws the Inspector: its meal goes
        ev(6, "place", 2, card=I3, meal=1),
        ev(10, "play", 1, card=TP, item=HI),
    ]
    s, cues, _ = play(events, hands={1: [T3, TP], 2: [I3]}, pile=[I1, I1, HI, I1, I1, I2])
    assert s["meals"]["1"] == [] and HI not in hand(s, 1)
    assert Counter(s["trash"]) == Counter({T3: 1, HI: 1, I1: 1, I3: 1, TP: 1})
    assert said(cues).count("HEALTH INSPECTOR") == 2


# --- Food Fight ----------------------------------------------------------------------------------------


def ff_game(flips: list[str], then: list[dict[str, Any]], rest: list[str] | None = None, **kw: Any):
    """Seat 2 (first of three) draws a filler, calls a Food Fight at t=1; ``flips`` are the next cards."""
    pile = [T1] + flips + (rest if rest is not None else [I1, I1, I1, I1])
    return play([ev(1, "play", 2, card=FF), *then], hands={2: [FF]}, pile=pile, seats=3, first=2, **kw)


def test_food_fight_flips_start_with_the_caller_and_the_highest_ingredient_wins_and_takes_the_next_turn():
    s, cues, _ = ff_game([I1, I3, I2], [ev(5, "choose", 3, item=I2)])
    assert "Food Fight flips: seat 2 ingredient-1, seat 3 ingredient-3, seat 1 ingredient-2" in said(cues)
    assert s["turn"] == 3 and hand(s, 3) == Counter({I1: 6, I2: 1})  # the pick, then its own turn's draw
    assert FF in s["trash"] and s["draw_pile"] == 2 + 4 - 1


def test_food_fight_waits_for_the_winners_choice():
    s, cues, _ = ff_game([I1, I3, I2], [])
    assert s["turn"] == 3 and s["draw_pile"] == 4 and "Seat 3 wins the Food Fight" in said(cues)
    bad([ev(1, "play", 2, card=FF), ev(5, "discard", 3, card=I1)], "seat 3 must first choose",
        hands={2: [FF]}, pile=[T1, I1, I3, I2, I1], seats=3, first=2)


def test_food_fight_a_tie_flips_again_among_the_tied_starting_with_the_caller():
    s, cues, _ = ff_game([I3, I1, I3, I1, I2], [ev(5, "choose", 1, item=I3)])
    text = said(cues)
    assert "Tie! seat 2 and seat 1 flip again" in text
    assert "Food Fight flips: seat 2 ingredient-1, seat 1 ingredient-2" in text
    assert s["turn"] == 1 and hand(s, 1)[I3] == 1  # any flipped card, from any round


def test_food_fight_with_no_ingredient_everyone_flips_again():
    s, cues, _ = ff_game([T1, NB, HSB, I1, I2, T2], [ev(5, "choose", 3, item=NB)])
    assert said(cues).count("Food Fight flips") == 2
    assert s["turn"] == 3 and hand(s, 3)[NB] == 1


def test_food_fight_the_other_flipped_cards_are_shuffled_back_into_the_draw_pile():
    s, _, state = ff_game([I1, I3, I2], [ev(5, "choose", 3, item=I3)], rest=[T3] * 10)
    assert s["draw_pile"] == 10 + 2 - 1
    assert Counter(state.pile) + Counter(hand(s, 3)) - Counter({I1: 5}) == Counter({T3: 10, I1: 1, I2: 1, I3: 1})


def test_food_fight_is_cancelled_when_the_draw_pile_runs_out():
    s, cues, _ = ff_game([I1, I1], [], rest=[])
    assert "the Food Fight is cancelled" in said(cues)
    assert s["turn"] == 3 and s["draw_pile"] == 1  # both flips went back; seat 3 (next after the caller) drew one
    assert FF in s["trash"]


def test_food_fight_choice_by_someone_else_or_of_an_unflipped_card_is_bad_input():
    kw = {"hands": {2: [FF]}, "pile": [T1, I1, I3, I2, I1], "seats": 3, "first": 2}
    bad([ev(1, "play", 2, card=FF), ev(5, "choose", 1, item=I2)], "seat 3 won the Food Fight", **kw)
    bad([ev(1, "play", 2, card=FF), ev(5, "choose", 3, item=OE)], "not flipped", **kw)
    bad([ev(1, "discard", 2, card=FF), ev(5, "choose", 3, item=I1)], "no Food Fight", **kw)


def test_t4_a_health_inspector_picked_from_a_food_fight_trashes_the_pickers_meal():
    events = [ev(1, "place", 2, card=I3, meal=2), ev(5, "discard", 3, card=I1), ev(6, "discard", 1, card=I1),
              ev(7, "play", 2, card=FF), ev(11, "choose", 2, item=HI)]
    pile = [T1, T1, T1, T1, I3, HI, I1, I1, I1, I1]
    s, _, _ = play(events, hands={2: [I3, FF]}, pile=pile, seats=3, first=2)
    assert s["meals"]["2"] == [] and HI in s["trash"] and HI not in hand(s, 2)


# --- Order Envy ----------------------------------------------------------------------------------------


def test_order_envy_swaps_meal_and_hand():
    events = [ev(1, "place", 1, card=I3, meal=2), ev(5, "discard", 2, card=T1), ev(6, "play", 1, card=OE, target=2)]
    s, _, _ = play(events, hands={1: [OE, I3], 2: [T1, T1, T1, T1, T1]}, pile=[])
    assert s["meals"] == {"1": [I3], "2": []}
    assert hand(s, 1) == Counter({T1: 4}) and hand(s, 2) == Counter({I1: 3})
    assert s["turn"] == 2


def test_order_envy_can_only_be_blocked_before_the_swap():
    events = [ev(1, "play", 1, card=OE, target=2), ev(2, "block", 2)]
    s, _, _ = play(events, hands={1: [OE, I3], 2: [NB]}, pile=[])
    assert hand(s, 1) == Counter({I3: 1, I1: 3}) and OE in s["trash"]
    late = [ev(1, "play", 1, card=OE, target=2), ev(4.5, "block", 1)]  # after the swap seat 1 holds the No Bueno
    bad(late, "no card is waiting", hands={1: [OE, I3], 2: [NB]}, pile=[])


def test_order_envy_as_the_last_card_ends_the_game_after_the_swap():
    events = [ev(1, "place", 1, card=I3, meal=2), *discards([(2, I1), (1, I1), (2, I1), (1, I1), (2, I1), (1, I1), (2, I1)], 5),
              ev(12, "play", 1, card=OE, target=2)]
    s, cues, _ = play(events, hands={1: [I3, OE], 2: [NB]}, pile=[])
    assert s["over"] and s["meals"] == {"1": [I3], "2": []} and s["winners"] == [1]
    assert hand(s, 1) == Counter({NB: 1}) and hand(s, 2) == Counter()
    assert "cannot be blocked" in said(cues)


def test_order_envy_must_target_another_seat():
    bad([ev(1, "play", 1, card=OE, target=1)], "another seat", hands={1: [OE]}, pile=[])


# --- Variants ---------------------------------------------------------------------------------------------


def test_secret_meals_are_face_down_and_only_the_owner_may_look():
    events = [ev(1, "place", 1, card=T3, meal=2)]
    s, cues, state = play(events, hands={1: [T3]}, pile=[], variant="secret")
    assert "face down" in said(cues) and T3 not in said(cues)
    assert tvb.player_view(state, 2)["meals"][1] == [T3]
    assert tvb.player_view(state, 1)["meals"][1] == [None]
    assert s["meals"]["2"] == [T3]  # the replay is the referee's view


def test_super_secret_nobody_looks_not_even_the_owner():
    s, _, state = play([ev(1, "place", 1, card=T3, meal=2)], hands={1: [T3]}, pile=[], variant="super-secret")
    assert tvb.player_view(state, 2)["meals"][1] == [None]
    assert tvb.player_view(state, 1)["meals"][1] == [None]


def test_secret_crafty_crow_picks_blind_from_the_seed():
    events = [ev(1, "place", 1, card=I3, meal=2), ev(5, "place", 2, card=T2, meal=2), ev(9, "play", 1, card=CC, target=2)]
    kw = {"hands": {1: [I3, CC], 2: [T2]}, "pile": [], "variant": "secret"}
    taken = {play(events, seed=seed, **kw)[0]["meals"]["1"][0] for seed in range(12)}
    assert taken == {I3, T2}  # seeded and blind: either card
    assert play(events, seed=3, **kw)[0] == play(events, seed=3, **kw)[0]
    bad(events, "missing field 'item'", hands={1: [I3, CC], 2: [T2]}, pile=[])  # open: the seat picks


# --- Discarding and field checks --------------------------------------------------------------------------


@pytest.mark.parametrize("card", [NB, OE, TP, FF, CC, HSB, I3, T2])
def test_any_card_may_be_discarded_as_the_turns_move(card):
    s, _, _ = play([ev(1, "discard", 1, card=card)], hands={1: [card]}, pile=[])
    assert s["trash"] == [card] and s["turn"] == 2


@pytest.mark.parametrize(
    ("event", "match"),
    [
        ({"t": 1, "event": "eat", "seat": 1}, "unknown event 'eat'"),
        ({"t": 1, "event": "discard", "seat": 3, "card": I1}, "'seat' is 3"),
        ({"t": 1, "event": "discard", "seat": 1}, "missing field 'card'"),
        ({"t": 1, "event": "discard", "seat": 1, "card": "nacho"}, "'nacho', not a card name"),
        ({"t": 1, "event": "place", "seat": 1, "card": I1, "meal": 0}, "'meal' is 0"),
        ({"t": 1, "event": "play", "seat": 1, "card": OE}, "missing field 'target'"),
        ({"t": 1, "event": "play", "seat": 1, "card": TP}, "missing field 'item'"),
        ({"event": "discard", "seat": 1, "card": I1}, "missing field 't'"),
    ],
)
def test_malformed_events_are_one_line_errors_naming_the_line(event, match):
    with pytest.raises(LogError, match=match) as info:
        run_log(log_lines([event], deck=deal({}, [])))
    assert str(info.value).startswith("log: line 2: ")
