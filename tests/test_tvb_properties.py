"""Property tests over random seeded Taco vs Burrito games played by bots.

For any seed, seat count, bot mix and variant:
- cards are conserved: draw pile + hands + meals + trash + flipped (+ the card and No Buenos waiting in
  the block window) = the full deck, after every event;
- every score is (ingredients - tummy aches) x 2 per Hot Sauce Boss;
- the game always ends (``run_game`` raises past 2,000 events);
- the log replays to the identical result, and the copy-then-step reducer agrees with the live table.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.games.taco_vs_burrito import rules as tvb
from game.games.taco_vs_burrito.bots import LEVELS, run_game
from game.log import Table, run_log
from game.rules.base import apply

games = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**40),
        "levels": st.lists(st.sampled_from(LEVELS), min_size=2, max_size=6),
        "variant": st.sampled_from(tvb.VARIANTS),
        "first": st.integers(1, 6),
        "window_ms": st.sampled_from([0.0, 500.0, 3000.0]),
    }
)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(game: dict[str, Any], on_event: Any = None) -> tuple[list[dict[str, Any]], tvb.State]:
    first = (game["first"] - 1) % len(game["levels"]) + 1
    return run_game(game["levels"], game["seed"], variant=game["variant"], first=first,
                    window_ms=game["window_ms"], on_event=on_event)


def independent_score(meal: list[str]) -> int:
    """The rulebook's formula, written again from the card names alone."""
    points = sum(int(c.rsplit("-", 1)[1]) for c in meal if c.startswith("ingredient-"))
    aches = sum(int(c.rsplit("-", 1)[1]) for c in meal if c.startswith("tummy-ache-"))
    return (points - aches) * 2 ** meal.count("hot-sauce-boss")


@SETTINGS
@given(games)
def test_cards_are_conserved_after_every_event(game):
    full = Counter(tvb.load_catalog().full_deck())
    checked = []

    def conserved(state: tvb.State, event: dict[str, Any]) -> None:
        zones = tvb.zones(state)
        assert Counter(c for cards in zones.values() for c in cards) == full, event
        assert all(tvb.score(state, s) == independent_score(state.meals[s - 1]) for s in range(1, state.seats + 1))
        assert "health-inspector" not in zones["hands"]
        checked.append(event)

    log, state = play(game, conserved)
    assert len(checked) == len(log) - 1
    assert tvb.is_over(state) and state.turn is None


@SETTINGS
@given(games)
def test_the_game_always_ends_with_a_last_card_and_the_top_scores_win(game):
    log, state = play(game)
    assert tvb.is_over(state)
    # The game ended on the event that played the last card in its seat's hand.
    table, _ = Table.start(dict(log[0]))
    for event in log[1:-1]:
        table.apply(table.check(dict(event)))
    last = log[-1]
    table.advance(last["t"])  # the open window closes and the ender's turn begins
    assert not tvb.is_over(table.state)
    assert last["seat"] == state.ended_by and len(table.state.hands[last["seat"] - 1]) == 1
    scores = [independent_score(m) for m in state.meals]
    assert tvb.winners(state) == [s + 1 for s, p in enumerate(scores) if p == max(scores)]


@SETTINGS
@given(games)
def test_replay_is_identical(game):
    log, state = play(game)
    lines = [json.dumps(e) for e in log]
    first, cues1 = run_log(lines)
    second, cues2 = run_log(lines)
    assert first.summary() == second.summary() == tvb.summary(state)
    assert cues1 == cues2


@settings(max_examples=15, deadline=None)
@given(games)
def test_the_copy_then_step_reducer_matches_the_live_table(game):
    log, _ = play(game)
    table, _ = Table.start(dict(log[0]))
    state = table.state
    for event in log[1:]:
        checked = tvb.check_event(table.setup, dict(event))
        new, _ = apply(tvb, state, checked)
        tvb.advance(state, checked["t"])
        tvb.step(state, dict(checked))
        assert tvb.summary(new) == tvb.summary(state)
        state = new
    tvb.finish(state)
    assert tvb.is_over(state)
