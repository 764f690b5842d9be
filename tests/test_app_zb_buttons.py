"""Zombie Burrito's button mapping: advantage chooser, "Battle!" and a false one, cancel cursor, revive picker."""

from __future__ import annotations

from typing import Any

from game.games.zombie_burrito import rules as zb
from game.games.zombie_burrito.buttons import ZombieMapper
from game.log import Table
from hardware.events import SeatEvent

TEAMS = {"zombies": [1, 2], "survivors": [3, 4]}


def table() -> Table:
    t, _ = Table.start({"event": "setup", "game": "zombie-burrito", "seats": 4, "options": {"teams": TEAMS}})
    return t


def feed(m: ZombieMapper, t: Table, panel: int, button: str, action: str = "press", at: float = 1.0) -> list[dict[str, Any]]:
    out = m.handle(SeatEvent(t=at, seat=panel, button=button, action=action), t.state)
    for ev in out:
        t.step(t.check(dict(ev)))
    return out


def test_set_opens_the_chooser_own_side_first_war_moves_and_set_lays_that_kind() -> None:
    """SET, WAR, SET on a Zombie seat lays the Zombie side's second kind (by name); the chooser shows on the card."""
    m, t = ZombieMapper([1, 2, 3, 4]), table()
    assert feed(m, t, 1, "SET") == []
    assert m.choosers[1].line().startswith("< zombie ")
    feed(m, t, 1, "WAR", at=1.2)
    out = feed(m, t, 1, "SET", at=1.4)
    assert out == [{"t": 1.4, "event": "advantage", "seat": 1, "side": "zombie",
                    "kind": sorted(t.state.catalog["zombie"])[1]}]
    assert 1 not in m.choosers


def test_duel_or_a_set_hold_cancels_the_chooser_without_laying_anything() -> None:
    m, t = ZombieMapper([1, 2, 3, 4]), table()
    feed(m, t, 3, "SET")
    assert feed(m, t, 3, "DUEL") == [] and 3 not in m.choosers
    feed(m, t, 3, "SET", at=2.0)
    assert feed(m, t, 3, "SET", "hold", at=2.8) == [] and 3 not in m.choosers and t.state.sets == []


def test_war_tap_is_battle_and_war_hold_is_a_false_battle_written_at_the_press_time() -> None:
    """A WAR tap declares on release (valid); a WAR held 0.8 s is a false call: the team loses the battle."""
    m, t = ZombieMapper([1, 2, 3, 4]), table()
    feed(m, t, 2, "WAR", at=1.0)
    assert m.blocks(1.5)  # events after the press wait: it may yet become a false call
    assert feed(m, t, 2, "WAR", "release", at=1.1) == [{"t": 1.0, "event": "declare", "seat": 2}]
    m2, t2 = ZombieMapper([1, 2, 3, 4]), table()
    feed(m2, t2, 2, "WAR", at=1.0)
    assert feed(m2, t2, 2, "WAR", "hold", at=1.8) == [{"t": 1.0, "event": "declare", "seat": 2, "valid": False}]
    assert feed(m2, t2, 2, "WAR", "release", at=2.0) == []
    assert t2.state.markers == {"zombies": 0, "survivors": 1}


def test_at_battle_setup_a_team_member_moves_the_team_cursor_and_set_cancels_that_kind() -> None:
    """The Survivors laid a Zombie-side set: in setup, BRAWL/WAR on a Survivor seat choose which Zombie set goes."""
    m, t = ZombieMapper([1, 2, 3, 4]), table()
    for ev in ({"t": 0.5, "event": "advantage", "seat": 1, "side": "zombie", "kind": "hunger"},
               {"t": 0.6, "event": "advantage", "seat": 2, "side": "zombie", "kind": "thick-skull"},
               {"t": 0.7, "event": "advantage", "seat": 3, "side": "zombie", "kind": "shamble"},
               {"t": 0.8, "event": "declare", "seat": 1}):
        t.step(t.check(ev))
    assert t.state.battle.phase == "setup"
    assert ZombieMapper.cancel_kinds(t.state.battle, "survivors") == ["hunger", "thick-skull"]
    assert feed(m, t, 1, "WAR", at=1.0) == [] and m.cancel_cursor["zombies"] == 0  # Zombies have nothing to cancel
    feed(m, t, 4, "WAR", at=1.1)
    out = feed(m, t, 3, "SET", at=1.3)  # a teammate confirms: the cursor is the team's
    assert out == [{"t": 1.3, "event": "cancel", "team": "survivors", "kind": "thick-skull"}]
    assert zb.sets_left(t.state.battle, "zombies") == {"hunger": 1, "thick-skull": 0}


def test_duel_spends_a_revive_on_the_picked_eliminated_teammate() -> None:
    """With a revive in force and seat 1 out, DUEL on seat 2 opens the picker, SET revives seat 1."""
    m, t = ZombieMapper([1, 2, 3, 4]), table()
    for ev in ({"t": 0.5, "event": "advantage", "seat": 2, "side": "zombie", "kind": "rise-again"},
               {"t": 0.8, "event": "declare", "seat": 1},
               {"t": 1.0, "event": "throw", "seat": 3, "burrito": 2},
               {"t": 1.3, "event": "hit", "burrito": 2, "seat": 1}):
        t.step(t.check(ev))
    assert 1 not in t.state.battle.alive and t.state.battle.revives_left["zombies"] == 1
    feed(m, t, 2, "DUEL", at=2.0)
    assert m.choosers[2].line() == "revive: < seat 1 >"
    assert feed(m, t, 2, "SET", at=2.2) == [{"t": 2.2, "event": "revive", "seat": 1}]
    assert 1 in t.state.battle.alive


def test_prepare_credits_a_rethrow_of_a_landed_burrito_to_a_teammate_still_in() -> None:
    """After burrito 2's first hit, the referee's next call of it gets an inferred throw by a Survivor still in."""
    from game.registry import GAMES

    t = table()
    for ev in ({"t": 0.8, "event": "declare", "seat": 3},
               {"t": 1.3, "event": "hit", "burrito": 2, "seat": 1}):
        t.step(t.check(ev))
    call = {"t": 3.0, "event": "hit", "burrito": 2, "seat": 2, "evidence": {}}
    extra = GAMES["zombie-burrito"].prepare(t.state, call)
    assert extra == [{"event": "throw", "seat": 3, "burrito": 2, "inferred": True}]
    assert GAMES["zombie-burrito"].prepare(t.state, dict(call, burrito=1)) == []  # burrito 1 never landed
