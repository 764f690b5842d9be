"""Seat buttons -> table events (docs/hardware.md, Throw Throw Burrito's button meanings)."""

from __future__ import annotations

from game.games.throw_throw_burrito import rules as ttb
from game.table.buttons import ButtonMapper
from hardware.events import SeatEvent


def state(seats: int = 4):
    return ttb.new_state(ttb.parse_setup({"event": "setup", "game": "throw-throw-burrito", "seats": seats}))


def ev(t: float, seat: int, button: str, action: str = "press") -> SeatEvent:
    return SeatEvent(t, seat, button, action)


def test_a_set_press_is_written_once_released_and_the_take_back_time_is_over() -> None:
    m, st = ButtonMapper([1, 2, 3, 4], take_back_s=1.5), state()
    assert m.handle(ev(1.0, 2, "SET"), st) == []
    assert m.blocks(1.2)  # still held: it may become a take-back
    m.handle(ev(1.1, 2, "SET", "release"), st)
    assert m.due_sets(2.0) == []
    assert m.due_sets(2.6) == [{"t": 1.0, "event": "set", "seat": 2}]


def test_holding_set_takes_back_the_seats_last_pending_set_and_counts_nothing_itself() -> None:
    m, st = ButtonMapper([1, 2, 3, 4]), state()
    m.handle(ev(1.0, 3, "SET"), st)
    m.handle(ev(1.1, 3, "SET", "release"), st)
    m.handle(ev(1.5, 3, "SET"), st)
    m.handle(ev(2.3, 3, "SET", "hold"), st)
    m.handle(ev(2.6, 3, "SET", "release"), st)
    assert m.due_sets(10.0) == [] and m.pending == []
    assert any("takes back" in text for _, text in m.notes)


def test_a_pending_set_older_than_an_event_being_written_goes_first() -> None:
    """The journal is in time order: a later battle call forces an earlier released set out first."""
    m, st = ButtonMapper([1, 2, 3, 4]), state()
    m.handle(ev(1.0, 1, "SET"), st)
    m.handle(ev(1.1, 1, "SET", "release"), st)
    assert m.due_sets(1.3, force_before=1.2) == [{"t": 1.0, "event": "set", "seat": 1}]


def test_battle_buttons_declare_their_battle_at_the_press_time() -> None:
    m, st = ButtonMapper([1, 2, 3, 4]), state()
    assert m.handle(ev(5.0, 4, "WAR"), st) == [{"t": 5.0, "event": "declare", "seat": 4, "battle": "war"}]
    assert m.handle(ev(6.0, 1, "BRAWL"), st)[0]["battle"] == "brawl"
    assert m.handle(ev(7.0, 2, "DUEL"), st)[0]["battle"] == "duel"


def test_panels_map_to_game_seats_clockwise_over_the_seats_that_joined() -> None:
    m, st = ButtonMapper([2, 4, 5]), state(3)
    assert m.handle(ev(1.0, 4, "WAR"), st)[0]["seat"] == 2
    assert m.handle(ev(1.0, 1, "WAR"), st) == [] and "not in this game" in m.notes[-1][1]


def test_the_duel_declarer_moves_a_cursor_with_brawl_and_war_and_picks_with_set() -> None:
    st = state()
    for e in ({"t": 1.0, "event": "declare", "seat": 3, "battle": "duel"},):
        ttb.advance(st, e["t"])
        ttb.step(st, ttb.check_event(st.setup, e))
    ttb.advance(st, 2.0)
    assert st.battle is not None and st.battle.awaiting_pick
    m = ButtonMapper([1, 2, 3, 4])
    assert m.handle(ev(2.1, 3, "SET"), st) == []  # picks itself (the cursor starts on the declarer)
    m.handle(ev(2.2, 3, "WAR"), st)  # -> seat 4
    m.handle(ev(2.3, 3, "WAR"), st)  # -> seat 1 (wraps)
    m.handle(ev(2.4, 3, "BRAWL"), st)  # back to seat 4
    assert m.picking is not None and m.picking.cursor == 4
    out = m.handle(ev(2.5, 3, "SET"), st)
    assert out == [{"t": 2.5, "event": "pick", "seat": 3, "players": [3, 4]}]
    # another seat's buttons are not picks
    assert m.handle(ev(2.6, 1, "DUEL"), st)[0]["event"] == "declare"


def test_duel_unpicks_the_last_pick() -> None:
    st = state()
    ttb.step(st, ttb.check_event(st.setup, {"t": 1.0, "event": "declare", "seat": 1, "battle": "duel"}))
    ttb.advance(st, 2.0)
    m = ButtonMapper([1, 2, 3, 4])
    m.handle(ev(2.1, 1, "SET"), st)
    m.handle(ev(2.2, 1, "DUEL"), st)
    assert m.picking is not None and m.picking.chosen == []


def test_brawl_and_war_held_together_five_seconds_open_the_menu_once_and_are_not_battle_calls() -> None:
    m, st = ButtonMapper([1, 2, 3, 4]), state()
    first = m.handle(ev(1.0, 2, "BRAWL"), st)
    assert m.handle(ev(1.05, 2, "WAR"), st) == []  # the second button of the chord is no call
    assert m.combos(5.9) == []
    assert m.combos(6.1) == [2]
    assert m.combos(7.0) == []  # once per hold
    assert first and first[0]["event"] == "declare"  # the first button alone was a call (it is ignored in a battle)
