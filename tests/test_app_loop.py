"""The table loop end to end: a MockFactory press to the screen, a virtual burrito hit to a bruise, the failsafe,
resuming a journaled game."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from game.journal import Journal
from game.table.clock import SteppedClock
from game.table.loop import TableApp
from game.table.runner import STEP_S
from game.table.sim import emit, open_sim, press
from hardware.events import SeatEvent

SETUP = {"event": "setup", "game": "throw-throw-burrito", "seats": 4, "options": {"seed": 3}}


def run(app: TableApp, clock: SteppedClock, seconds: float, until=lambda: False, speed: float = 4.0) -> bool:
    """Step the loop for ``seconds`` of table time at ``speed`` x real time; True as soon as ``until()``."""
    for _ in range(int(seconds / STEP_S)):
        app.step(clock.advance(STEP_S))
        if until():
            return True
        if speed:
            time.sleep(STEP_S / speed)
    return until()


@pytest.fixture
def rig_app(tmp_path: Path):
    clock = SteppedClock()
    rig = open_sim(clock, seats=4)
    journal = Journal(str(tmp_path / "table.db"))
    app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], devices=rig.host,
                   device_map=rig.device_map)
    yield rig, app, clock
    rig.close()
    journal.close()


def test_a_mockfactory_press_shows_on_the_very_next_frame_and_a_virtual_hit_becomes_a_bruise(rig_app) -> None:
    """Button to screen, burrito to bruise: the whole path through pins, device host, referee, rules and journal."""
    rig, app, clock = rig_app
    app.start(SETUP)
    synced = run(app, clock, 15.0, until=lambda: len([h for h in rig.host.health() if h.synced]) >= 6)
    assert synced, [(h.name, h.synced) for h in rig.host.health()]
    press(rig, 1, "BRAWL", True)
    now = clock.advance(STEP_S)
    app.step(now)
    assert app.view(now).seats[0].flash == "BRAWL"  # the frame right after the edge shows the press
    press(rig, 1, "BRAWL", False)
    assert run(app, clock, 5.0, until=lambda: app.state.battle is not None and app.state.battle.fighters == {2, 4})
    t = clock() + 0.3
    emit(rig, "burrito-1", "pickup", t)
    emit(rig, "burrito-1", "launch", t + 0.3)
    emit(rig, "burrito-1", "impact", t + 0.7, 3.0)
    emit(rig, "badge-4", "impact", t + 0.702, 2.5)
    assert run(app, clock, 8.0, until=lambda: app.state.rounds[0].bruises[3] == 1), app.presenter.lines
    battle = app.state.battles[-1]
    assert battle.loser == 4 and battle.reason == "hit"
    _, events = app.journal.load(app.live.game_id)
    hit = next(e for e in events if e["event"] == "hit")
    assert hit["seat"] == 4 and hit["evidence"]["badge_device"] == "badge-4"  # the journal keeps the evidence
    # ... on table time, like the event itself, so replay --evidence lines up with the play-by-play
    assert abs(hit["evidence"]["badge_t"] - hit["t"]) < 0.5 and abs(hit["evidence"]["contact_t"] - hit["t"]) < 0.5
    assert any("HIT!" in line for line in app.presenter.lines)


def test_an_exception_in_a_step_lands_on_the_failsafe_screen_and_any_set_carries_on(rig_app) -> None:
    """The failsafe keeps the game state and says what went wrong instead of crashing."""
    rig, app, clock = rig_app
    app.start(SETUP)
    press(rig, 2, "SET", True)
    run(app, clock, 0.2)
    press(rig, 2, "SET", False)
    run(app, clock, 2.5, until=lambda: app.state.rounds[0].sets[1] == 1)
    assert app.state.rounds[0].sets[1] == 1
    real = app.presenter.feed
    app.presenter.feed = lambda *a, **k: (_ for _ in ()).throw(RuntimeError("screen broke"))  # type: ignore[method-assign]
    press(rig, 3, "BRAWL", True)
    run(app, clock, 0.2)
    press(rig, 3, "BRAWL", False)
    run(app, clock, 0.3)
    view = app.view(clock())
    assert view.screen == "failsafe" and "screen broke" in view.sub
    assert app.state.rounds[0].sets[1] == 1  # state intact
    app.presenter.feed = real  # type: ignore[method-assign]
    press(rig, 1, "SET", True)
    run(app, clock, 0.1)
    press(rig, 1, "SET", False)
    run(app, clock, 0.1)
    assert app.error is None and app.view(clock()).screen != "failsafe"


def test_an_unfinished_game_resumes_with_the_same_state_and_seat_map(tmp_path: Path) -> None:
    """Restarted, the table folds the journal again: same points, and the panels keep their game seats."""
    clock = SteppedClock()
    rig = open_sim(clock, seats=4, devices=False)
    try:
        with Journal(str(tmp_path / "t.db")) as journal:
            app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[2, 3, 4], use_referee=False)
            app.start({"event": "setup", "game": "throw-throw-burrito", "seats": 3})
            app.inject({"t": clock() + 0.1, "event": "set", "seat": 1})
            app.inject({"t": clock() + 0.2, "event": "declare", "seat": 3, "battle": "war"})
            run(app, clock, 1.0, speed=0)
            points = app.live.table.summary()["rounds"][0]["points"]
            assert journal.unfinished() == [app.live.game_id]
        with Journal(str(tmp_path / "t.db")) as journal:
            again = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], use_referee=False)
            again.resume(journal.unfinished()[0])
            assert again.live.table.summary()["rounds"][0]["points"] == points
            assert again.seatmap == [2, 3, 4]
            run(again, clock, 0.1, speed=0)  # time runs on: the open declaration window closes as it did live
            assert again.state.battle is not None and again.state.battle.kind == "war"
    finally:
        rig.close()


def test_the_lobby_offers_every_unfinished_game_newest_first_and_resumes_the_one_chosen(tmp_path: Path) -> None:
    """A Zombie Burrito game and a later Throw Throw Burrito game left unfinished: the lobby names both, newest
    first; WAR moves to the older one and SET resumes that one, not the newest."""
    from game.registry import GAMES

    clock = SteppedClock()
    rig = open_sim(clock, seats=4, devices=False)
    try:
        with Journal(str(tmp_path / "t.db")) as journal:
            app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], use_referee=False)
            app.start(GAMES["zombie-burrito"].setup(4, seed=2))
            zombie = app.live.game_id
            app.start(SETUP)
            app.inject({"t": clock() + 0.1, "event": "set", "seat": 2})
            run(app, clock, 0.5, speed=0)
            ttb = app.live.game_id
        with Journal(str(tmp_path / "t.db")) as journal:
            again = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], use_referee=False)
            again.open_lobby()
            lobby = again.lobby
            assert lobby is not None and [g for g, _ in lobby.offers] == [ttb, zombie]
            view = again.view(clock())
            assert view.screen == "resume" and view.cursor == 0 and view.sub == ""
            assert view.options[0].startswith("Throw Throw Burrito - 4 seats - started today ")
            assert view.options[1].startswith("Zombie Burrito - 4 seats - started today ")
            # how far each got: the Zombie game was set up and left before anything was played
            assert re.search(r" - \d+ events?$", view.options[0]), view.options[0]
            assert view.options[1].endswith(" - nothing played yet"), view.options[1]
            for button in ("WAR", "SET"):
                press(rig, 3, button, True)
                run(again, clock, 0.1, speed=0)
                press(rig, 3, button, False)
                run(again, clock, 0.1, speed=0)
            assert again.live is not None and again.live.game_id == zombie and again.mode.name == "zombie-burrito"
    finally:
        rig.close()


def test_the_lobby_offers_the_newest_three_unfinished_games_and_counts_the_older_ones(tmp_path: Path) -> None:
    clock = SteppedClock()
    rig = open_sim(clock, seats=4, devices=False)
    try:
        with Journal(str(tmp_path / "t.db")) as journal:
            app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], use_referee=False)
            ids = []
            for _ in range(5):
                app.start(SETUP)
                ids.append(app.live.game_id)
            app.open_lobby()
            assert app.lobby is not None and [g for g, _ in app.lobby.offers] == ids[:1:-1]
            assert app.view(clock()).sub == "2 older unfinished games: burrito-table stats lists them"
            app.lobby.seat_event(SeatEvent(clock(), 1, "DUEL", "press"))  # DUEL: a new game instead
            assert app.lobby.resume is None and app.view(clock()).screen == "lobby"
    finally:
        rig.close()


def test_a_late_event_is_written_at_the_last_time_with_its_lateness_kept(tmp_path: Path) -> None:
    """An event older than one already written loses nothing: it goes in at the last time, marked late_ms."""
    clock = SteppedClock()
    rig = open_sim(clock, seats=4, devices=False)
    try:
        with Journal(str(tmp_path / "t.db")) as journal:
            app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], use_referee=False)
            app.start(SETUP)
            t0 = clock()
            app.inject({"t": t0 + 1.0, "event": "set", "seat": 1})
            run(app, clock, 1.2, speed=0)
            app.inject({"t": t0 + 0.5, "event": "set", "seat": 2})
            run(app, clock, 0.1, speed=0)
            _, events = journal.load(app.live.game_id)
            assert [e["seat"] for e in events] == [1, 2]
            assert events[1]["t"] == events[0]["t"] and events[1]["late_ms"] == pytest.approx(500, abs=1)
    finally:
        rig.close()


def test_the_lobby_does_not_offer_a_game_that_was_won_but_killed_before_its_finished_mark(tmp_path: Path) -> None:
    """The winning event and the finished mark are two commits: a kill between them leaves a game that is over but
    listed as unfinished. The lobby folds it, marks it finished and offers only the game that can go on."""
    import sqlite3
    from importlib import resources

    from game.cli import main

    db = str(tmp_path / "t.db")
    log = tmp_path / "demo.jsonl"  # Taco vs Burrito's demo is won by its last event
    log.write_text(resources.files("game.games.taco_vs_burrito").joinpath("data/demo.jsonl").read_text("utf-8"))
    assert main(["record", str(log), "--journal", db]) == 0
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE games SET finished = 0")  # what the kill leaves behind
    clock = SteppedClock()
    rig = open_sim(clock, seats=4, devices=False)
    try:
        with Journal(db) as journal:
            (won,) = journal.unfinished()
            app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], use_referee=False)
            app.start(SETUP)
            going = app.live.game_id
            app.open_lobby()
            assert app.lobby is not None and [g for g, _ in app.lobby.offers] == [going]
            assert app.view(clock()).sub == ""  # not counted among older unfinished games either
            assert journal.games() == [(won, True), (going, False)]
    finally:
        rig.close()
