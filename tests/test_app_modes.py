"""The game-modes seam: the registry, the lobby choosing game and variant, the mode following the setup line."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import game.table.mode as modes
from game.journal import Journal
from game.registry import GAMES
from game.table.clock import SteppedClock
from game.table.loop import Lobby, TableApp
from game.table.mode import GameMode, Mapper
from game.table.sim import open_sim, press
from hardware.events import SeatEvent
from tests.test_app_loop import run

ROOT = Path(__file__).resolve().parents[1]


def test_the_modes_docstring_example_runs() -> None:
    """The protocol's documented example is a doctest that passes."""
    result = doctest.testmod(modes)
    assert result.attempted >= 5 and result.failed == 0


def test_docs_app_md_example_matches_the_modes_docstring() -> None:
    """docs/app.md shows the same runnable example as the module (kept in step)."""
    doc = (ROOT / "docs/app.md").read_text()
    block = re.search(r"```pycon\n(.*?)```", doc, re.S)
    assert block is not None, "docs/app.md has no pycon example"
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.group(1), {}, "docs/app.md", "docs/app.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 3


def test_registry_keys_are_rules_names_and_every_mode_meets_the_protocol() -> None:
    """Each registered mode is a GameMode, keyed by its rules name, whose mapper is a Mapper and whose setup replays."""
    from game.log import Table

    assert list(GAMES)[:2] == ["throw-throw-burrito", "zombie-burrito"]
    for name, mode in GAMES.items():
        assert isinstance(mode, GameMode) and mode.name == name
        assert isinstance(mode.mapper([1, 2, 3, 4]), Mapper)
        lo, hi = mode.seats
        for n in (lo, min(hi, 6)):
            for i in range(len(mode.variants)):
                table, _ = Table.start(mode.setup(n, i, seed=5))
                assert table.setup.seats >= n  # a mode may fill empty places (Taco vs Burrito: bots)


def test_zombie_teams_are_dealt_as_two_balanced_arcs_so_teammates_sit_together() -> None:
    """For every seat count 2-6 and many seeds: the Zombies get ceil(n/2) neighbouring seats, the Survivors the rest."""
    zb = GAMES["zombie-burrito"]
    for n in range(2, 7):
        for seed in range(40):
            teams = zb.setup(n, seed=seed)["options"]["teams"]
            z = teams["zombies"]
            assert len(z) == (n + 1) // 2 and sorted(z + teams["survivors"]) == list(range(1, n + 1))
            # neighbours round the table: exactly one seat of the arc has its clockwise neighbour outside it
            assert sum(1 for s in z if s % n + 1 not in z) == 1
        # which arc is the Zombies' is drawn: every start seat turns up over 40 seeds
        assert len({tuple(zb.setup(n, seed=s)["options"]["teams"]["zombies"]) for s in range(40)}) == n


def _ev(panel: int, button: str, action: str = "press", t: float = 0.0) -> SeatEvent:
    return SeatEvent(t=t, seat=panel, button=button, action=action)


def test_lobby_war_steps_from_ttb_variants_to_zombie_burrito_and_back() -> None:
    """BRAWL/WAR on a joined panel cycle game and variant: TTB standard, TTB small room, Zombie Burrito, ..."""
    lobby = Lobby(4, seed=1)
    for p in (1, 2, 3):
        lobby.seat_event(_ev(p, "SET"))
    assert lobby.setup()["game"] == "throw-throw-burrito" and lobby.setup()["options"] == {}
    lobby.seat_event(_ev(1, "WAR"))
    assert lobby.setup()["options"] == {"small_room": True}
    lobby.seat_event(_ev(1, "WAR"))
    v = lobby.view("")
    assert v.title == "Zombie Burrito" and lobby.setup()["game"] == "zombie-burrito"
    assert lobby.setup()["options"]["teams"] == GAMES["zombie-burrito"].setup(3, seed=1)["options"]["teams"]
    lobby.seat_event(_ev(2, "BRAWL"))
    assert lobby.view("").title == "Throw Throw Burrito"


def test_lobby_refuses_to_start_zombie_burrito_with_more_than_six_seats() -> None:
    """Seven joined panels: DUEL does not start Zombie Burrito (2-6 players), and the screen says why."""
    lobby = Lobby(8, seed=1)
    for p in range(1, 8):
        lobby.seat_event(_ev(p, "SET"))
    lobby.seat_event(_ev(1, "WAR"))
    lobby.seat_event(_ev(1, "WAR"))
    lobby.seat_event(_ev(1, "DUEL"))
    assert lobby.choice is None and "needs 2-6 seats" in lobby.view("").sub


def test_the_app_follows_the_setup_line_mode_and_resume_keeps_it(tmp_path: Path) -> None:
    """Starting a ZB game switches mapper, presenter and screens to ZB; resuming it in a fresh app does too."""
    from game.games.zombie_burrito.buttons import ZombieMapper
    from game.games.zombie_burrito.mode import ZombiePresenter

    clock = SteppedClock()
    rig = open_sim(clock, devices=False)
    try:
        with Journal(str(tmp_path / "t.db")) as journal:
            app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], use_referee=False)
            app.start(GAMES["zombie-burrito"].setup(4, seed=2))
            assert isinstance(app.mapper, ZombieMapper) and isinstance(app.presenter, ZombiePresenter)
            run(app, clock, 0.2, speed=0)
            assert app.view(clock()).game == "zombie-burrito"
            game_id = app.live.game_id
            app2 = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], use_referee=False)
            app2.resume(game_id)
            assert app2.mode.name == "zombie-burrito" and isinstance(app2.mapper, ZombieMapper)
    finally:
        rig.close()


def test_lobby_panels_choose_zombie_burrito_and_start_it_through_mock_pins(tmp_path: Path) -> None:
    """Panels join with MockFactory presses, WAR twice selects Zombie Burrito, DUEL starts it with arc teams."""
    clock = SteppedClock()
    rig = open_sim(clock, devices=False)

    def tap(panel: int, button: str) -> None:
        press(rig, panel, button, True)
        run(app, clock, 0.1, speed=0)
        press(rig, panel, button, False)
        run(app, clock, 0.1, speed=0)

    try:
        with Journal(str(tmp_path / "t.db")) as journal:
            app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], use_referee=False)
            app.lobby_seed = 11
            app.open_lobby()
            for p in (1, 2, 3, 4):
                tap(p, "SET")
            tap(3, "WAR")
            tap(3, "WAR")
            tap(3, "DUEL")
            assert app.live is not None and app.live.table.setup.game == "zombie-burrito"
            assert app.state.teams == GAMES["zombie-burrito"].setup(4, seed=11)["options"]["teams"]
    finally:
        rig.close()


def test_every_zombie_burrito_sound_cue_has_a_clip() -> None:
    """Sound cues of a whole simulated ZB game (set, battle, countdown, hit, catch, revive, tie, marker, win) all play."""
    import json

    from game.games.zombie_burrito.sim import simulate
    from game.log import Table
    from game.table.sound import EFFECTS

    log = simulate(seats=5, seed=4)
    table, cues = Table.start(json.loads(json.dumps(log[0])))
    names = {c.text for c in cues if c.kind == "sound"}
    for ev in log[1:]:
        names |= {c.text for c in table.apply(table.check(dict(ev))) if c.kind == "sound"}
    names |= {c.text for c in table.finish() if c.kind == "sound"}
    names.discard("set")  # laying a set is silent on purpose: cards go down all game long
    assert {"battle", "countdown", "hit", "marker", "win"} <= names and names <= set(EFFECTS)
