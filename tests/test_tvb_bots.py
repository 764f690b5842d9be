"""Taco vs Burrito bots: seeded, legal, and each level plays the way it is described.

Win rates are measured in ``benchmarks/bench_taco_bots.py``, not here.
"""

from __future__ import annotations

import json

import pytest
from test_tvb_rules import I1, I3, NB, OE, T3, deal, ev, log_lines

from game.games.taco_vs_burrito import rules as tvb
from game.games.taco_vs_burrito.bots import HardBot, NormalBot, make_bot, play_game, run_game
from game.log import run_log


def state_after(events, hands, pile, seats=2, **options) -> tvb.State:
    """The table state once ``events`` are applied and the last block window has closed."""
    table, _ = run_log(log_lines(events, seats, deck=deal(hands, pile, seats), **options))
    return table.state


def test_the_same_seed_plays_the_same_game_and_another_seed_another():
    a = play_game(["hard", "normal", "easy"], 5)
    assert a == play_game(["hard", "normal", "easy"], 5)
    assert a != play_game(["hard", "normal", "easy"], 6)


def test_a_bot_game_is_a_table_event_log_that_replays_to_the_end():
    log, state = run_game(["easy", "hard"], 3, variant="super-secret")
    assert log[0] == {"event": "setup", "game": "taco-vs-burrito", "seats": 2,
                      "options": {"seed": 3, "first": 1, "variant": "super-secret", "no_bueno_window_ms": 3000.0}}
    table, _ = run_log([json.dumps(e) for e in log])
    assert table.summary() == tvb.summary(state) and table.summary()["over"]
    times = [e["t"] for e in log[1:]]
    assert times == sorted(times)


def test_normal_puts_a_tummy_ache_in_the_leaders_meal():
    events = [ev(1, "place", 1, card=I3, meal=3), ev(5, "place", 2, card=I1, meal=2), ev(9, "discard", 3, card=I1)]
    state = state_after(events, {1: [I3, T3]}, [I1, I1, I1, I1], seats=3)
    assert NormalBot(1, 0).move(state) == {"event": "place", "seat": 1, "card": T3, "meal": 3}


def test_normal_blocks_any_card_that_hurts_it_and_lets_harmless_ones_through():
    hurt = state_after([], {1: [T3]}, [I1])
    tvb.step(hurt, tvb.check_event(hurt.setup, ev(1, "place", 1, card=T3, meal=2)))
    harmless = state_after([], {1: [I1]}, [I1])
    tvb.step(harmless, tvb.check_event(harmless.setup, ev(1, "place", 1, card=I1, meal=2)))
    assert NormalBot(2, 0).block(hurt) is True
    assert NormalBot(2, 0).block(harmless) is False


def pending_against_seat_2(card: str, **fields) -> tvb.State:
    """Seat 2 leads with an Ingredient 3 and holds two No Buenos; seat 1 has just played ``card``."""
    events = [ev(1, "discard", 1, card=I1), ev(2, "place", 2, card=I3, meal=2)]
    state = state_after(events, {1: [card], 2: [I3, NB, NB]}, [I1] * 10)
    tvb.step(state, tvb.check_event(state.setup, ev(10, "play" if card == OE else "place", 1, card=card, **fields)))
    return state


def test_hard_saves_no_buenos_for_big_swings():
    small = pending_against_seat_2(I1, meal=1)
    assert NormalBot(2, 0).block(small) is True
    assert HardBot(2, 0).block(small) is False
    swap = pending_against_seat_2(OE, target=2)
    assert HardBot(2, 0).block(swap) is True


def test_hard_plays_its_last_card_to_win():
    events = [ev(1, "discard", 1, card=I1), ev(2, "place", 2, card=I3, meal=2)] + [
        ev(6 + i, "discard", 1 + i % 2, card=I1) for i in range(6)
    ]
    state = state_after(events, {1: [OE], 2: [I3]}, [])
    assert state.hands[0] == [OE] and state.turn == 1
    assert HardBot(1, 0).move(state) == {"event": "play", "seat": 1, "card": OE, "target": 2}


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_bots_decide_only_on_what_their_seat_may_see(level):
    """Secret variant: swapping the face-down card in seat 2's meal with one seat 1 cannot see changes nothing."""
    moves = []
    for hidden, other in ((T3, I3), (I3, T3)):
        events = [ev(1, "discard", 1, card=I1), ev(2, "place", 2, card=hidden, meal=2)]
        state = state_after(events, {1: [T3, I3], 2: [hidden]}, [I1, I1, other, I1], variant="secret")
        moves.append(make_bot(level, 1, 42).move(state))
    assert moves[0] == moves[1]


def test_an_unknown_level_is_an_error():
    with pytest.raises(ValueError, match="unknown bot level 'expert'"):
        make_bot("expert", 1, 0)


def test_a_game_that_does_not_end_within_the_event_budget_is_an_error():
    with pytest.raises(RuntimeError, match="did not end within 5 events"):
        run_game(["easy", "easy"], 1, max_events=5)


def test_hard_samples_hidden_cards_only_from_what_its_seat_has_not_seen():
    """Each sampled world keeps the seat's own hand, the other hand sizes and the pile size, conserves the
    deck, and never puts a Health Inspector in a hand: the look-ahead guesses, it does not peek."""
    import random
    from collections import Counter

    from game.games.taco_vs_burrito.bots import _worlds

    table, _ = run_log(log_lines([ev(1, "discard", 1, card=I1)], 3, deck=deal({1: [I1, I3, NB]}, [OE, T3] + [I1] * 8, 3)))
    state = table.state
    full = Counter(state.setup.options["deck"])
    for world in _worlds(state, 2, 5, random.Random(0)):
        assert world.hands[1] == state.hands[1]
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert len(world.pile) == len(state.pile)
        cards = Counter(world.pile) + Counter(world.trash)
        for zone in world.hands + world.meals:
            cards.update(zone)
        assert cards == full
        assert all(state.kinds[c] != "health-inspector" for h in world.hands for c in h)
