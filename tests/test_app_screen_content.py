"""What the screens say, not only where: scores as announced, ties ranked as ties, card names instead of ids, the
winner's whole game, a refused NO BUENO explained, and a demo header that claims only what the game uses."""

from __future__ import annotations

import io

import pygame

from game.cli import build_parser
from game.games.taco_vs_burrito.buttons import refusal
from game.games.taco_vs_burrito.mode import TacoPresenter, card_words
from game.games.throw_throw_burrito.screens import ranks
from game.games.throw_throw_burrito.screens import sample_views as ttb_views
from game.log import Table
from game.rules.base import Cue
from game.table import layout
from game.table.present import Presenter
from game.table.runner import run_demo
from hardware.events import SeatEvent
from tests.test_app_taco import MakeApp, make_app, run  # noqa: F401 - the fixture


def test_a_score_changes_with_its_call_not_before() -> None:
    """A hit written while the countdown is still on screen: the cards keep the old score until HIT! is shown."""
    p = Presenter()
    p.snapshot = dict
    p.feed([Cue(0.0, "say", "Seat 2 counts: 3, 2, 1, Burrito!", (2,))], 0.0, {"seat 4": 1})
    p.feed([Cue(0.5, "say", "HIT! Seat 4 is hit by seat 2"), Cue(0.5, "sound", "hit")], 0.5, {"seat 4": 0})
    assert p.moment(0.6) is not None and p.moment(0.6).screen == "countdown"
    assert p.announced(0.6) == {"seat 4": 1}
    later = 0.6 + 2.05
    assert p.moment(later) is not None and p.moment(later).big == "HIT!"
    assert p.announced(later) == {"seat 4": 0}


def test_a_score_with_no_moment_waiting_shows_at_once() -> None:
    """A set laid with nothing on screen is on the card at once (no lag where there is no call)."""
    p = Presenter()
    p.snapshot = dict
    p.feed([Cue(0.0, "say", "Seat 1 lays down a set")], 0.0, {"seat 1": 1})
    assert p.announced(0.1) == {"seat 1": 1}


def test_a_four_way_tie_is_four_firsts() -> None:
    """Standard competition ranking: equal points share the place; the next place skips."""
    assert ranks([1, 1, 1, 1]) == [1, 1, 1, 1]
    assert ranks([5, 4, 4, 2]) == [1, 2, 2, 4]


def test_the_round_end_says_1_pt_and_ranks_ties_alike() -> None:
    """The drawn texts of the tied round end: "1=" four times, "1 pt" (not "1 pts")."""
    v = ttb_views(4)["round_tie"]
    surf = pygame.Surface((1920, 1080))
    p = layout.Painter(surf)
    layout.draw(surf, v, painter=p)
    texts = [d.text for d in p.drawn if d.kind == "text" and d.layer == p.layer]
    assert texts.count("1=") == 4 and "1 pt" in texts and "1 pts" not in texts


def test_the_winner_screen_shows_both_rounds() -> None:
    """The winner is not shown at round 2's 0: every seat's points in both rounds, the winner first."""
    v = ttb_views(4)["winner"]
    surf = pygame.Surface((1920, 1080))
    p = layout.Painter(surf)
    layout.draw(surf, v, painter=p)
    lines = [d.text for d in p.drawn if d.kind == "text" and d.text.startswith("seat ")]
    assert lines[0].startswith("seat 3: 5 + 4 = 9")
    assert all("+" in line for line in lines)


def test_the_ticker_names_cards_not_ids() -> None:
    assert card_words("Seat 1 puts tummy-ache-3 in seat 2's meal") == "Seat 1 puts Tummy Ache 3 in seat 2's meal"
    pr = TacoPresenter()
    pr.feed([Cue(1.0, "say", "Seat 2 discards hot-sauce-boss")], 1.0, None)
    assert list(pr.ticker) == ["Seat 2 discards Hot Sauce Boss"]
    assert "hot-sauce-boss" in pr.lines[-1]  # the play-by-play keeps the rules' words


def test_refusal_names_the_rule() -> None:
    """No card waiting, your own card, no No Bueno in hand: the words a refused press shows."""
    state = Table.start({"event": "setup", "game": "taco-vs-burrito", "seats": 3,
                         "options": {"seed": 4, "variant": "open"}})[0].state
    assert refusal(state, 2) == "no card to block"


def test_a_refused_no_bueno_says_why_on_the_seat_s_card(make_app: MakeApp) -> None:
    """A seat with no No Bueno slams the button while a card waits: the rules refuse it, and that seat's card on
    the shared screen says why (it no longer vanishes without a word)."""
    app, clock, _ = make_app(deck=["ingredient-1"] * 40)
    app.inject({"t": clock() + 0.1, "event": "place", "seat": 1, "card": "ingredient-1", "meal": 1})
    run(app, clock, 0.3)
    app.seat_event(SeatEvent(clock(), 2, "DUEL", "press"))
    run(app, clock, 0.5)
    assert app.rejected
    seat2 = app.view(clock()).extra["taco"].seats[1]
    assert seat2.flash == "NO BUENO? no No Bueno in hand"
    run(app, clock, 3.0)
    assert app.view(clock()).extra["taco"].seats[1].flash == ""  # said for a moment, then gone


def test_the_taco_demo_header_claims_no_devices() -> None:
    """Taco vs Burrito uses no burritos, badges or referee, and its demo says so."""
    args = build_parser().parse_args(["demo", "--game", "taco-vs-burrito", "--headless", "--speed", "0", "--mute",
                                      "--max-seconds", "2"])
    out = io.StringIO()
    run_demo(args, out)
    head = "\n".join(out.getvalue().splitlines()[:5])
    assert "none (Taco vs Burrito does not use them)" in head
    assert "calls: the referee" not in head and "virtual devices over the pty" not in head
