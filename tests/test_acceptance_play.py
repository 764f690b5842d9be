"""Acceptance: ``burrito-table play --sim`` played by hand through its real input path.

Each case runs the real ``run_play`` loop (SDL dummy drivers, a stepped clock at 16x real time) and posts SDL key events:
the seat keys of docs/hardware.md go through the keyboard panel to gpiozero MockFactory pins (and the simulated MCP23017
expanders of the six- and twelve-panel pin maps), F9/F10/F11 play accelerometer traces through the virtual devices'
detector, the pty and the device host to the referee. Every case asserts that no failsafe screen appeared, that the
journal grew, that the expected calls were made, and that the table asked nobody anything.

Coverage: every player count of every game (Throw Throw Burrito 2-12, Zombie Burrito 2-6, Taco vs Burrito 2-6), with
the variants spread over the counts so that every variant is played; panels that are not neighbours; the table menu
(open, back, restart, shut down cancelled, shut down); a resume after the app was killed; a challenge that overturns a
call.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game.registry import lobby_choices
from game.table.loop import MENU_ITEMS
from game.table.scripted import TWELVE, Script, chord, join_and_start, press, tap, until
from tests.xdisplay import xvfb

CHOICES = [c for c, _ in lobby_choices()]
SHUTDOWN = [k for k, _ in MENU_ITEMS].index("shutdown")


def choice(game: str, variant: int) -> int:
    return CHOICES.index((game, variant))


def calls_made(app: Any, kinds: tuple[str, ...]) -> list[str]:
    return [e["event"] for e in app.live.table.events if e["event"] in kinds]


def clean(s: Script) -> None:
    """What every case asserts: no failsafe, nothing timed out, no question, a journal that grew."""
    assert s.failsafes == [], s.failsafes
    assert s.timeouts == [], (s.timeouts, s.events()[-5:])
    assert s.questions == [], s.questions
    assert len(s.events()) >= 2


def battle_on(app: Any) -> bool:
    b = app.state.battle
    return b is not None and b.loser is None and bool(b.fighters)


def ttb_battle(n: int) -> Iterator[Any]:
    """Game seat 1 calls a battle whose fighters include seat 2: a Duel with two seats, else a Brawl (neighbours)."""
    yield from press(1, "DUEL" if n == 2 else "BRAWL")
    yield until(battle_on, 3.0, "the battle")


# -- Throw Throw Burrito: every count 2-12 -------------------------------------------------------------------------

TTB_CASES = [(n, (n + 1) % 2) for n in range(2, 13)]  # standard at odd counts, small room at even ones


@pytest.mark.parametrize(("seats", "variant"), TTB_CASES, ids=[f"{n}-seats-{'small-room' if v else 'standard'}"
                                                               for n, v in TTB_CASES])
def test_throw_throw_burrito_by_hand(tmp_path: Path, seats: int, variant: int) -> None:
    """Join, choose the variant, start; a battle; F10 is called a miss and F9 a hit on seat 2, with no question."""
    def scenario(s: Script) -> Iterator[Any]:
        yield from join_and_start(list(range(1, seats + 1)), choice("throw-throw-burrito", variant))
        yield 2.0  # the opening "3, 2, 1, Burrito!"
        yield from ttb_battle(seats)
        yield from tap("f10")
        yield until(lambda app: calls_made(app, ("miss",)), 8.0, "the miss")
        yield from tap("f9")
        yield until(lambda app: calls_made(app, ("hit",)), 8.0, "the hit")
        yield 0.5

    s = Script(tmp_path / "j.db", config=TWELVE if seats > 6 else None)
    assert s.run(scenario) == 0
    clean(s)
    setup = s.app.live.table.setup
    assert setup.seats == seats and bool(setup.options["small_room"]) == bool(variant)
    assert setup.options["two_decks"] == (seats > 6)
    assert s.calls() == [("miss", None), ("hit", 2)]
    assert s.app.state.battles[-1].loser == 2


def test_throw_throw_burrito_catch_by_hand_is_claimed_by_the_catchers_press(tmp_path: Path) -> None:
    """F11: the catch trace plus the catcher's SET press (R4) make a catch: the thrower loses, nobody is asked."""
    def scenario(s: Script) -> Iterator[Any]:
        yield from join_and_start([1, 2], 0)
        yield 4.0
        yield from ttb_battle(2)
        yield from tap("f11")
        yield until(lambda app: calls_made(app, ("catch",)), 8.0, "the catch")
        yield 0.5

    s = Script(tmp_path / "j.db")
    assert s.run(scenario) == 0
    clean(s)
    assert s.calls() == [("catch", 2)] and s.app.state.battles[-1].loser == 1


# -- Zombie Burrito: every count 2-6 --------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", range(2, 7), ids=lambda n: f"{n}-seats")
def test_zombie_burrito_by_hand(tmp_path: Path, seats: int) -> None:
    """A "Battle!" from a Zombie's panel; the Zombie burrito (1) hits a Survivor with F9: called, no question."""
    target: list[int] = []

    def scenario(s: Script) -> Iterator[Any]:
        yield from join_and_start(list(range(1, seats + 1)), choice("zombie-burrito", 0))
        st = s.app.state
        caller = st.teams["zombies"][0]
        target.append(st.teams["survivors"][0])
        yield 3.0  # the teams, then "3.. 2.. 1.. Zombie Burrito!"
        yield from press(caller, "WAR")  # no battle on: a tap of WAR is "Battle!"
        yield until(lambda app: app.state.battle is not None, 3.0, "the battle")
        for _ in range((target[0] - 2) % seats):  # the sim target starts at seat 2
            yield from tap("up")
        yield 1.0
        yield from tap("f9")
        yield until(lambda app: calls_made(app, ("hit",)), 8.0, "the hit")
        yield 0.5

    s = Script(tmp_path / "j.db")
    assert s.run(scenario) == 0
    clean(s)
    assert s.calls() == [("hit", target[0])]
    assert target[0] in s.app.state.battles[-1].out or s.app.state.battles[-1].alive.get(target[0], 0) >= 0


# -- Taco vs Burrito: every count 2-6, every variant ----------------------------------------------------------------

TVB_CASES = [(n, (n - 2) % 5) for n in range(2, 7)]


@pytest.mark.parametrize(("seats", "variant"), TVB_CASES,
                         ids=[f"{n}-seats-{lobby_choices()[choice('taco-vs-burrito', v)][1].split(': ', 1)[1]}"
                              for n, v in TVB_CASES])
def test_taco_vs_burrito_by_hand(tmp_path: Path, seats: int, variant: int) -> None:
    """The seat whose turn it is taps PLAY twice (pick the card, confirm its first option): a move is journaled."""
    def moves(app: Any) -> list[str]:
        return calls_made(app, ("place", "play", "discard"))

    def scenario(s: Script) -> Iterator[Any]:
        yield from join_and_start(list(range(1, seats + 1)), choice("taco-vs-burrito", variant))
        yield 2.0
        while len(moves(s.app)) < 2:
            st = s.app.state
            done = len(moves(s.app))
            if st.phase == "move" and st.turn is not None and (variant != 4 or st.turn == 1):
                yield from press(s.app.seatmap[st.turn - 1], "WAR")
                yield from press(s.app.seatmap[st.turn - 1], "WAR")
            yield until(lambda app, d=done: len(moves(app)) > d, 8.0, "the next move (a bot's, in vs bots)")
            yield until(lambda app: app.state.phase == "move", 8.0, "the next turn")
        yield 0.5

    s = Script(tmp_path / "j.db")
    assert s.run(scenario) == 0
    clean(s)
    assert s.app.live.table.setup.game == "taco-vs-burrito" and s.app.live.table.setup.seats == seats
    assert len(calls_made(s.app, ("place", "play", "discard"))) >= 2


# -- panels that are not neighbours, the menu, resume, a challenge --------------------------------------------------


def test_non_neighbouring_panels_credit_the_hit_to_the_right_player(tmp_path: Path) -> None:
    """Panels 1, 3 and 5 join: game seat 2 is panel 3, and F9 at seat 2 hits the badge paired at panel 3."""
    def scenario(s: Script) -> Iterator[Any]:
        yield from join_and_start([1, 3, 5], 0)
        yield 4.0
        yield from press(1, "BRAWL")  # game seat 1 calls: its neighbours, game seats 2 and 3, fight
        yield until(battle_on, 3.0, "the brawl")
        yield from tap("f9")
        yield until(lambda app: calls_made(app, ("hit",)), 8.0, "the hit")
        yield 0.5

    s = Script(tmp_path / "j.db")
    assert s.run(scenario) == 0
    clean(s)
    assert s.app.seatmap == [1, 3, 5] and s.app.ignored_badges == {"badge-2": 2, "badge-4": 4, "badge-6": 6}
    hit = [e for e in s.events() if e["event"] == "hit"][0]
    assert hit["seat"] == 2 and hit["evidence"]["badge_device"] == "badge-3"
    assert s.app.state.rounds[0].bruises == [0, 1, 0]


def test_the_menu_back_restart_and_shut_down_cancelled_then_shut_down(tmp_path: Path) -> None:
    seen: list[str] = []

    def scenario(s: Script) -> Iterator[Any]:
        yield from join_and_start([1, 2, 3], 0)
        first = s.app.live.game_id
        yield from chord(2)
        yield from press(2, "DUEL")  # back to the game
        yield from press(2, "SET")  # a set: the menu must stay shut
        yield 6.0
        seen.append(f"back:{s.app.menu_open}")
        yield from chord(2)
        yield from press(2, "WAR")  # "Restart"
        yield from press(2, "SET")
        yield until(lambda app: app.lobby is not None, 2.0, "the lobby")
        seen.append(f"restart:{s.app.live is None}")
        yield from press(1, "SET")
        yield 6.0
        seen.append(f"lobby:{s.app.menu_open}")
        yield from join_and_start([1, 2], 0)
        seen.append(f"new game:{s.app.live.game_id != first}")
        yield from chord(1)
        for _ in range(SHUTDOWN):
            yield from press(1, "WAR")  # down to "Shut down the table"...
        seen.append(f"cursor:{MENU_ITEMS[s.app.menu_cursor][0]}")
        yield from press(1, "DUEL")  # ...cancelled
        yield 6.0
        seen.append(f"cancelled:{s.app.menu_open}")
        yield from chord(1)
        yield from press(1, "BRAWL")  # the cursor wraps up to "Shut down"
        yield from press(1, "SET")
        yield 1.0
        seen.append("still running")  # not reached: the app has shut down

    s = Script(tmp_path / "j.db")
    assert s.run(scenario) == 0
    assert "shut down requested from the table menu" in s.out.getvalue()
    assert seen == ["back:False", "restart:True", "lobby:False", "new game:True", "cursor:shutdown", "cancelled:False"]
    assert s.failsafes == [] and s.timeouts == []


def _killed_child(journal: str, ready: Any) -> None:
    """Play the first minutes of a game, tell the parent, and keep playing until killed."""
    def scenario(s: Script) -> Iterator[Any]:
        yield from join_and_start([1, 2, 3, 4], 0)
        yield 4.0
        yield from press(1, "SET")
        yield from press(3, "BRAWL")
        yield until(battle_on, 3.0, "the brawl")
        yield 1.0
        ready.set()
        while True:
            yield 1.0

    Script(Path(journal)).run(scenario)


def test_resume_after_the_app_was_killed(tmp_path: Path) -> None:
    """SIGKILL mid-battle; the next start offers the game, SET resumes it, play goes on and reaches the journal."""
    journal = str(tmp_path / "j.db")
    ctx = multiprocessing.get_context("fork")
    ready = ctx.Event()
    child = ctx.Process(target=_killed_child, args=(journal, ready))
    child.start()
    try:
        assert ready.wait(60), "the first table never got going"
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.join(10)
    with sqlite3.connect(journal) as db:
        before = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    assert before >= 2  # the set and the battle call were journaled before the kill

    def scenario(s: Script) -> Iterator[Any]:
        yield until(lambda app: app.lobby is not None and app.lobby.resume is not None, 2.0, "the resume offer")
        yield from press(2, "SET")
        yield until(lambda app: app.live is not None, 2.0, "the resumed game")
        yield until(battle_on, 3.0, "the battle, still on")
        yield from tap("f9")  # burrito 1 at seat 2, a Brawl fighter (seat 3's neighbour)
        yield until(lambda app: calls_made(app, ("hit",)), 8.0, "the hit")
        yield 0.5

    s = Script(Path(journal))
    assert s.run(scenario) == 0
    clean(s)
    assert s.calls() == [("hit", 2)]
    with sqlite3.connect(journal) as db:
        assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] > before


def test_a_challenge_voted_wrong_overturns_the_hit_and_the_bruise_goes_back(tmp_path: Path) -> None:
    """After F9's hit, seat 2 holds SET (a challenge); seats 1 and 2 answer "wrong" with the button the question screen shows for it (DUEL): the log gets an
    overturn, the bruise goes back, the screen says OVERTURNED, and the Duel goes on."""
    screens: list[str] = []

    def scenario(s: Script) -> Iterator[Any]:
        yield from join_and_start([1, 2], 0)
        yield 4.0
        yield from ttb_battle(2)
        yield from tap("f9")
        yield until(lambda app: app.state.rounds[0].bruises[1] == 1, 8.0, "the bruise")
        yield from press(2, "SET", hold=1.0)
        yield until(lambda app: app.question is not None, 2.0, "the challenge question")
        for seat in s.app.question.seats:
            yield from press(s.app.seatmap[seat - 1], "DUEL")  # option 2: "wrong"
        yield until(lambda app: calls_made(app, ("overturn",)), 3.0, "the overturn")
        yield 0.1
        screens.append(s.app.view(s.clock()).big)
        yield 0.5

    s = Script(tmp_path / "j.db")
    assert s.run(scenario) == 0
    assert s.failsafes == [] and s.timeouts == []
    assert [q for q in s.questions if "challenges" not in q] == []  # only the challenge itself was asked
    assert s.calls() == [("hit", 2), ("overturn", 2)]
    assert s.app.state.rounds[0].bruises == [0, 0] and battle_on(s.app)
    assert "OVERTURNED" in screens


def test_xvfb_and_xdotool_smoke(tmp_path: Path) -> None:
    """The real thing once: ``play --sim --windowed`` under Xvfb, keys typed with xdotool, a game started."""
    import shutil

    for tool in ("Xvfb", "xdotool", "xwininfo"):
        assert shutil.which(tool), f"{tool} is missing: run tests/install-system-deps.sh"
    with xvfb("800x600x24") as display:
        play_under_x(display, tmp_path)


def play_under_x(display: str, tmp_path: Path) -> None:
    """Start ``play`` on ``display``, join two panels and call a Duel with xdotool keys, then quit with Escape."""
    import subprocess
    import time

    env = dict(os.environ, DISPLAY=display)
    env.pop("SDL_VIDEODRIVER", None)
    env.pop("SDL_AUDIODRIVER", None)
    journal = tmp_path / "j.db"
    app = None
    try:
        app = subprocess.Popen([sys.executable, "-m", "game", "play", "--sim", "--windowed", "--mute", "--size",
                                "640x360", "--journal", str(journal),
                                # the companion on a port of its own: never 8080, which a test beside may hold
                                "--web-host", "127.0.0.1", "--web-port", "0"], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
        win = ""
        deadline = time.monotonic() + 60  # the window opens once the virtual devices are up (seconds; more on a
        while time.monotonic() < deadline:  # core shared with other tests)
            tree = subprocess.run(["xwininfo", "-root", "-tree"], env=env, capture_output=True, text=True).stdout
            found = [line.split()[0] for line in tree.splitlines() if '"Burrito Table"' in line]
            if found:
                win = found[0]
                break
            time.sleep(0.1)
        assert win, "the table window never appeared: " + (app.poll() is not None and app.communicate()[0] or "")
        subprocess.run(["xdotool", "windowfocus", "--sync", str(int(win, 16))], env=env, check=True)

        def key(*names: str) -> None:
            for name in names:  # XTEST key events, as a keyboard makes them
                subprocess.run(["xdotool", "key", "--delay", "120", name], env=env, check=True)
                time.sleep(0.25)

        def journaled(table: str, timeout: float) -> None:
            """Wait for a first row in the journal's ``table`` (the table's loop may be slow on a busy core)."""
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and rows(journal, table) == 0:
                time.sleep(0.1)

        key("1", "2", "z")  # panels 1 and 2 join, DUEL starts Throw Throw Burrito
        journaled("games", 180)  # started: not a fixed sleep, which a busy core outlasts before the game even starts
        time.sleep(2.5)  # the opening "3, 2, 1, Burrito!" (2 s of table time, which is real time here)
        key("z")  # seat 1 calls a Duel: 1 vs 2
        journaled("events", 60)
        with sqlite3.connect(journal) as db:
            kinds = [json_event(r[0]) for r in db.execute("SELECT body FROM events ORDER BY seq")]
        assert "declare" in kinds, kinds
        key("Escape")
        out, _ = app.communicate(timeout=60)
        assert app.returncode == 0 and "Traceback" not in out and "failsafe" not in out, out
    finally:
        if app is not None and app.poll() is None:
            app.kill()
            app.wait()


def rows(journal: Path, table: str) -> int:
    """Rows in one table of a journal another process writes; 0 while it is not there yet (opened read-only, so
    looking never creates the file)."""
    from contextlib import closing

    if not journal.exists():
        return 0
    try:
        with closing(sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=30)) as db:
            return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    except sqlite3.OperationalError:  # the schema is not written yet
        return 0


def json_event(body: str) -> str:
    import json

    return str(json.loads(body).get("event"))


# -- to the end with clean presses: no question at all -------------------------------------------------------------


def test_a_whole_two_seat_throw_throw_burrito_game_by_hand_asks_nothing(tmp_path: Path) -> None:
    """Done when: a game played to its winner with clean key presses, and not a single question from the table."""
    def scenario(s: Script) -> Iterator[Any]:
        yield from join_and_start([1, 2], choice("throw-throw-burrito", 0))
        yield 2.0
        while not s.app.over:
            if not battle_on(s.app):
                if s.app.state.battle is None and not s.app.state.declaring:
                    yield from press(1, "DUEL")  # two seats: a Duel needs no pick
                yield until(lambda app: battle_on(app) or app.over, 8.0, "a battle")
                continue
            hits = len(calls_made(s.app, ("hit",)))
            yield from tap("f9")  # seat 2 is hit, every time
            yield until(lambda app, h=hits: len(calls_made(app, ("hit",))) > h, 8.0, "the hit")
            yield until(lambda app: not battle_on(app) or app.over, 3.0, "the battle's end")
            yield 1.0
        yield 1.0

    s = Script(tmp_path / "j.db", limit_s=600.0)
    assert s.run(scenario) == 0
    clean(s)
    summary = s.app.live.table.summary()
    assert summary["winner"] == 1 and [r["winner"] for r in summary["rounds"]] == [1, 1]
    assert len(s.calls()) == 12  # six bruises a round, two rounds


def test_a_whole_two_seat_zombie_burrito_game_by_hand_asks_nothing(tmp_path: Path) -> None:
    def scenario(s: Script) -> Iterator[Any]:
        yield from join_and_start([1, 2], choice("zombie-burrito", 0))
        zombie, survivor = s.app.state.teams["zombies"][0], s.app.state.teams["survivors"][0]
        if survivor != 2:
            yield from tap("up")  # the sim target: the Survivor's seat
        yield 3.0
        while not s.app.over:
            yield from press(s.app.seatmap[zombie - 1], "WAR")  # "Battle!"
            yield until(lambda app: app.state.battle is not None, 3.0, "the battle")
            yield 1.0
            hits = len(calls_made(s.app, ("hit",)))
            yield from tap("f9")  # the Zombie burrito hits the Survivor: the Zombies win the battle
            yield until(lambda app, h=hits: len(calls_made(app, ("hit",))) > h, 8.0, "the hit")
            yield until(lambda app: app.state.battle is None or app.over, 4.0, "the battle's end")
            yield 3.0
        yield 1.0

    s = Script(tmp_path / "j.db", limit_s=300.0)
    assert s.run(scenario) == 0
    clean(s)
    summary = s.app.live.table.summary()
    assert summary["winner"] == "zombies" and summary["markers"]["zombies"] == 3


def test_a_war_by_hand_calls_each_burritos_first_throw_without_a_question(tmp_path: Path) -> None:
    """A War of four: burrito 1 misses (F10), burrito 2 (TAB) hits seat 2 (F9). Neither was thrown before in this
    battle, so nobody is asked who threw it (only a re-throw of a landed burrito in a War is, R10)."""
    def scenario(s: Script) -> Iterator[Any]:
        yield from join_and_start([1, 2, 3, 4], 0)
        yield 2.0
        yield from press(1, "WAR")
        yield until(battle_on, 3.0, "the war")
        yield from tap("f10")
        yield until(lambda app: calls_made(app, ("miss",)), 8.0, "the miss")
        yield from tap("tab")
        yield from tap("f9")
        yield until(lambda app: calls_made(app, ("hit",)), 8.0, "the hit")
        yield 0.5

    s = Script(tmp_path / "j.db")
    assert s.run(scenario) == 0
    clean(s)
    assert s.calls() == [("miss", None), ("hit", 2)]
    hit = [e for e in s.events() if e["event"] == "hit"][0]
    assert hit["burrito"] == 2 and s.app.state.battles[-1].loser == 2
