"""The table loop's side of the companion (``game.web.bridge``), stepped by hand on a SteppedClock: phone moves
go through the seat's own ``legal_moves``, taps are the seat buttons' path, names reach the setup line, each game's
private view, and a failing companion never stops the table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game.games.taco_vs_burrito import rules as tvb
from game.games.taco_vs_burrito.buttons import seat_moves
from game.journal import Journal
from game.registry import GAMES
from game.table.clock import SteppedClock
from game.table.loop import TableApp
from game.table.runner import STEP_S
from game.table.sim import open_sim
from game.web.bridge import TableBridge, WebEvent


class Rig:
    def __init__(self, tmp: Path) -> None:
        self.clock = SteppedClock(100.0)
        self.sim = open_sim(self.clock, devices=False)
        self.journal = Journal(str(tmp / "j.db"))
        self.app = TableApp(panels=self.sim.panels, journal=self.journal, clock=self.clock, seatmap=[1, 2, 3],
                            use_referee=False)
        self.bridge = TableBridge(4, publish_s=0.0, clock=self.clock)
        self.app.web = self.bridge

    def steps(self, n: int = 3) -> None:
        for _ in range(n):
            self.app.step(self.clock.advance(STEP_S))

    def put(self, kind: str, panel: int, **data: Any) -> None:
        self.bridge.put(WebEvent(kind, panel, self.clock(), data))

    @property
    def live(self) -> Any:
        assert self.app.live is not None, "no game running"
        return self.app.live

    def me(self, panel: int) -> dict[str, Any]:
        return self.bridge.snapshot.private[panel]


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(tmp_path)
    try:
        yield r
    finally:
        r.sim.close()
        r.journal.close()


def start(rig: Rig, game: str, variant: int = 0, seats: int = 3) -> None:
    rig.app.start(GAMES[game].setup(seats, variant, seed=3))
    rig.steps()


def test_a_legal_phone_move_is_written_and_an_illegal_one_is_not(rig: Rig) -> None:
    """Taco vs Burrito: the seat to move sends one of the options its page lists (the rules' legal_moves): it is
    journaled. The same seat out of turn, another seat, or a move not in legal_moves: nothing is written, and only
    that phone is told why."""
    start(rig, tvb.name)
    st = rig.app.state
    seat = st.turn
    other = seat % 3 + 1
    me = rig.me(seat)["taco"]
    assert me["my_turn"] and not rig.me(other)["taco"]["my_turn"]
    listed = [o["move"] for opts in me["options"].values() for o in opts]
    assert sorted(map(str, listed)) == sorted(map(str, seat_moves(st, seat)))  # the page lists exactly these
    events = len(rig.live.table.events)
    not_in_hand = next(c for c in tvb.load_catalog().names if c not in st.hands[seat - 1])
    rig.put("move", seat, move={"event": "discard", "seat": seat, "card": not_in_hand})
    rig.put("move", other, move=seat_moves(st, seat)[0] | {"seat": other})
    rig.steps()
    assert len(rig.live.table.events) == events
    assert "not yours" in rig.me(seat)["note"] and "not yours" in rig.me(other)["note"]
    move = next(m for m in listed if m["event"] == "place")
    rig.put("move", seat, move=move)
    rig.steps()
    written = rig.live.table.events[-1]
    assert {k: written[k] for k in move} == move


def test_no_bueno_from_a_phone_is_the_buttons_block(rig: Rig) -> None:
    """A NO BUENO tap goes through TableApp.seat_event as the DUEL button does: into the mapper's race, then a
    ``block`` for that seat when the rules let it block."""
    start(rig, tvb.name)
    st = rig.app.state
    seat = st.turn
    move = next(m for m in seat_moves(st, seat) if m["event"] == "place")
    rig.put("move", seat, move=move)
    rig.steps()
    st = rig.app.state
    assert st.phase == "window"
    blocker = next((s for s in (1, 2, 3) if tvb.can_block(st, s)), None)
    if blocker is None:
        st.hands[seat % 3].append("no-bueno")  # give the next seat the card it needs
        blocker = seat % 3 + 1
        rig.bridge.publish(rig.app, rig.clock(), force=True)  # a change made behind the rules' back: no cue
    assert rig.me(blocker)["taco"]["can_block"]
    rig.put("tap", blocker, button="DUEL")
    rig.steps(30)
    assert any(e["event"] == "block" and e["seat"] == blocker for e in rig.live.table.events)


def test_a_name_picked_in_the_lobby_is_journaled_in_the_setup_line(rig: Rig) -> None:
    """The phone's name and colour go on the panel's name card (the party host's, as the buttons and a keyboard
    pick them), so the game's setup line carries them as ``players`` (game seats, 1-based); another seat's name is
    refused with a note on that phone; after the start a name change is refused with a note."""
    rig.app.open_lobby()
    rig.steps()
    for panel in (1, 3):
        rig.put("tap", panel, button="SET")
    rig.put("player", 3, name="Zed", colour="#00FF00")
    rig.steps()
    assert rig.me(3)["player"] == {"name": "Zed", "colour": "#00FF00"}
    rig.put("player", 1, name="zed", colour="#FFFFFF")
    rig.steps()
    assert "another seat's name" in rig.me(1)["note"] and rig.me(1)["player"] is None
    lobby = rig.app.lobby
    assert lobby is not None and lobby.joined == {1, 3}
    lobby.variant = 0
    rig.put("tap", 1, button="DUEL")
    rig.steps()
    setup, _ = rig.journal.load(rig.live.game_id)
    assert setup["players"] == {"2": {"name": "Zed", "colour": "#00FF00"}}  # panel 3 is game seat 2
    assert rig.bridge.snapshot.public["seats"][1]["name"] == "Zed"
    rig.put("player", 1, name="Ann", colour="#FFFFFF")
    rig.steps()
    assert "lobby" in rig.me(1)["note"]


def test_zombie_burrito_phone_shows_the_team(rig: Rig) -> None:
    start(rig, "zombie-burrito", seats=3)
    st = rig.app.state
    for seat in (1, 2, 3):
        z = rig.me(seat)["zombie"]
        assert z["team"] == st.team_of[seat] and seat in z["teammates"]
        assert z["markers"] == {"zombies": 0, "survivors": 0}


def test_throw_throw_burrito_phone_shows_score_and_the_battle(rig: Rig) -> None:
    """"You're in this battle": the seats the mode says fight (battle_context), nobody else."""
    start(rig, "throw-throw-burrito")
    assert all(rig.me(s)["score"]["in_battle"] is False for s in (1, 2, 3))
    rig.app.inject({"t": rig.clock(), "event": "declare", "seat": 2, "battle": "war"})
    rig.steps(60)
    _open, fighters = rig.app.mode.battle_context(rig.app.state)
    assert fighters
    assert [rig.me(s)["score"]["in_battle"] for s in (1, 2, 3)] == [s in fighters for s in (1, 2, 3)]


def test_the_table_goes_on_when_the_companion_fails(rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """A listener (the server) that raises, a snapshot that cannot be built, a malformed queued input: each is
    counted and logged; the table never lands on its failsafe screen and keeps writing events."""
    start(rig, tvb.name)

    def boom(*_: Any) -> None:
        raise RuntimeError("server gone")

    rig.bridge.listeners.append(boom)
    rig.put("tap", 1, button="NOPE")  # nothing the server would let through: the loop still survives it
    rig.put("move", 1, move=None)
    rig.steps()
    monkeypatch.setattr("game.web.bridge.build_views", boom)
    rig.steps()
    st = rig.app.state
    seat = st.turn
    rig.app.inject({"t": rig.clock(), **next(m for m in seat_moves(st, seat) if m["event"] == "place")})
    before = len(rig.live.table.events)
    rig.steps()
    assert rig.app.error is None and rig.bridge.errors >= 3
    assert len(rig.live.table.events) == before + 1


def test_operator_pause_stops_the_games_clock_and_resume_goes_on(rig: Rig) -> None:
    """Paused, an open No Bueno window does not close however long the pause, seat presses are not moves, and the
    shared screen says PAUSED; on resume the window has the time it had left."""
    start(rig, tvb.name)
    st = rig.app.state
    seat = st.turn
    rig.put("move", seat, move=next(m for m in seat_moves(st, seat) if m["event"] == "place"))
    rig.steps()
    assert rig.app.state.phase == "window"
    events = len(rig.live.table.events)
    rig.put("operator", 0, action="pause")
    rig.steps()
    before = rig.live.table.last_t
    rig.steps(int(2 * rig.app.state.window / STEP_S))  # twice the window's length
    rig.put("tap", seat % 3 + 1, button="DUEL")
    rig.steps()
    assert rig.app.state.phase == "window" and len(rig.live.table.events) == events
    assert rig.app.view(rig.clock()).big == "PAUSED" and rig.bridge.snapshot.public["paused"]
    rig.put("operator", 0, action="resume")
    rig.steps(int(rig.app.state.window / STEP_S) + 30)
    assert rig.app.state.phase != "window"
    assert rig.live.table.last_t - before < rig.app.state.window + 1.0  # table time did not count the pause
