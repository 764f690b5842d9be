"""Zombie Burrito at the table: the game's ``GAME`` object.

Seats are fixed panels, and the rulebook wants teammates side by side, so the lobby deals the Team Markers as two
arcs of the table: the Zombies (one more for an odd count) take ``ceil(n/2)`` neighbouring seats from a seat drawn
from the lobby's seed, the Survivors the rest. The setup line carries the ``teams`` (the rules' own deal, Z1,
would scatter them round the table). The screen shows the arcs from the first frame on.

Buttons: :mod:`game.games.zombie_burrito.buttons`.

Hits, catches and misses come from the referee, the burritos told apart by device id (``burrito-1`` is the
Zombie burrito, ``burrito-2`` the Survivor one: ``DeviceMap.burritos``). The sensors cannot say *who* threw a
burrito; after its flight is decided the rules ignore its contacts until a ``grab`` or ``throw`` (Z8), so
:meth:`ZombieBurrito.prepare` writes a ``throw`` before the referee's next call of that burrito, credited to the
seat that caught it if it was a teammate, else the first of its team still in, and marked ``"inferred": true``.
The thrower changes nothing for a hit or a miss; for a catch the referee names the thrower itself (its holder
knowledge, or a question to the table) and writes that ``throw`` first.
"""

from __future__ import annotations

import random
import re
from types import MappingProxyType
from typing import Any

from game.games.zombie_burrito import rules as zb
from game.games.zombie_burrito.buttons import ZombieMapper
from game.rules.base import Cue
from game.table.mode import GameMode
from game.table.present import DURATIONS, Moment, Presenter, SeatView, View


def deal_arcs(seats: int, seed: int) -> dict[str, list[int]]:
    """Balanced teams as two arcs of neighbouring seats; which arc is the Zombies' is drawn from ``seed``."""
    start = random.Random(seed).randrange(seats)
    ring = [(start + i) % seats + 1 for i in range(seats)]
    z = zb.team_sizes(seats)["zombies"]
    return {"zombies": sorted(ring[:z]), "survivors": sorted(ring[z:])}


ZB_COUNT = ("3", "2", "1", "ZOMBIE BURRITO!")
BATTLE_COUNT = ("3", "2", "1", "BATTLE!")


def _markers_copy(st: Any) -> dict[str, int]:
    return dict(st.markers)


class ZombiePresenter(Presenter):
    """The rules' Zombie Burrito announcements as moments; each carries a snapshot for its screen in ``extra``."""

    def __init__(self, pace: float = 1.0) -> None:
        super().__init__(pace)
        self._auto_battle: Any = None
        self._auto_done = 0

    def _say(self, cue: Cue, state: Any) -> None:
        text = cue.text
        battle = state.battle if state is not None else None
        if self._overturned(cue):
            return
        m = re.match(r"Zombies: seat\(s\) (.*)\. Survivors: seat\(s\) (.*)\. Sit with your team!", text)
        if m:
            self._push(Moment("zb_teams", title="THE TEAMS", sub="Sit with your team!", duration=4.0))
            return
        m = re.match(r"Seat (\d+) counts: 3\.\. 2\.\. 1\.\. Zombie Burrito!", text)
        if m:
            self._push(Moment("countdown", title=f"Seat {m.group(1)} counts", seats=cue.seats,
                              duration=DURATIONS["countdown"], extra={"words": ZB_COUNT}))
            return
        m = re.match(r"Seat (\d+) holds the (\w+) burrito: 3\.\. 2\.\. 1\.\. Battle!", text)
        if m or text.startswith("Each with your team's burrito"):
            title = f"Seat {m.group(1)} holds the {m.group(2)} burrito" if m else "The last two restart"
            self._push(Moment("countdown", title=title, seats=cue.seats, duration=DURATIONS["countdown"],
                              extra={"words": BATTLE_COUNT}))
            return
        m = re.match(r"BATTLE! called by seat (\d+) \((\w+)\)", text)
        if m:
            self._push(Moment("zb_battle", title="BATTLE!", big=f"SEAT {m.group(1)}",
                              sub=f"called for the {m.group(2)}", seats=cue.seats, duration=DURATIONS["battle"],
                              extra={"team": m.group(2).lower()}))
            return
        if text.startswith("... but seat"):
            self._push(Moment("call", title="FALSE", big="NO BATTLE SET!", sub=text.removeprefix("... but "),
                              seats=cue.seats, duration=DURATIONS["call"]))
            return
        m = re.match(r"The (\w+) cancel the (\w+)' (\S+) set", text)
        if m:
            self._push(Moment("zb_cancel", title="CANCELLED", big=m.group(3), sub=text,
                              duration=2.0, extra={"by": m.group(1).lower(), "left": self._left(battle)}))
            return
        if text.startswith("Survivors to one side"):
            self._push(Moment("zb_advantages", title="ADVANTAGES IN FORCE", duration=3.5,
                              extra={"active": _active_view(state)}))
            return
        calls = (
            (r"HIT! Seat (\d+) takes it: (\d+) extra hit", "HIT!", lambda g: f"seat {g[0]} takes it: {g[1]} extra hit(s) left"),
            (r"HIT! Seat (\d+) is out \(the (\w+) burrito\)", "HIT!",
             lambda g: f"seat {g[0]} is out - the {g[1]} burrito ({'1' if g[1] == 'Zombie' else '2'})"),
            (r"Seat (\d+) is hit by their own team's burrito", "SAFE", lambda g: f"seat {g[0]}: own team's burrito, harmless"),
            (r"CATCH! Seat (\d+) catches the (\w+) burrito: seat (\d+) is out", "CATCH!",
             lambda g: f"seat {g[0]} catches the {g[1]} burrito: seat {g[2]} is out"),
            (r"FOUL! Seat (\d+) is out", "FOUL!", lambda g: f"seat {g[0]} is out"),
            (r"REVIVE! Seat (\d+) is back in for the (\w+) \((\d+)", "REVIVE!",
             lambda g: f"seat {g[0]} is back in for the {g[1]} ({g[2]} revive(s) left)"),
            (r"The (\w+) burrito misses", "MISS", lambda g: f"the {g[0]} burrito hits nobody"),
            (r"TIE! Seats (\d+) and (\d+) are out (\d+) ms apart", "TIE!",
             lambda g: f"seats {g[0]} and {g[1]} are out at once: those two restart"),
        )
        for pattern, big, line in calls:
            m = re.match(pattern, text)
            if m:
                gap = f"{m.group(3)} ms apart: inside the tie window" if big == "TIE!" else ""
                self._push(Moment("call", title=big, big=big, sub=line(m.groups()), gap=gap, seats=cue.seats,
                                  duration=1.4 if big in ("MISS", "SAFE") else DURATIONS["call"]))
                return
        m = re.match(r"The (\w+) win the battle! Team Markers: Zombies (\d+), Survivors (\d+)", text)
        if m:
            self._push(Moment("zb_marker", title="BATTLE WON", big=m.group(1).upper(),
                              sub="flip a Team Marker!", duration=3.0, extra={"team": m.group(1).lower()}))
            return
        m = re.match(r"The (\w+) flip their third Team Marker", text)
        if m:
            self.winner = None
            self._push(Moment("winner", title="WINNERS", big=m.group(1).upper(), sub="win the game!",
                              duration=DURATIONS["winner"], extra={"team": m.group(1).lower()}))

    def _left(self, battle: Any) -> dict[str, list[str]]:
        """The advantages each team has left after this cancellation (the automatic ones come in one batch)."""
        if battle is None:
            return {}
        if battle.removed is None:  # a chosen cancellation: the state already counts it
            return {t: _kinds_line(zb.sets_left(battle, t)) for t in zb.TEAMS}
        if self._auto_battle is not battle:
            self._auto_battle, self._auto_done = battle, 0
        self._auto_done += 1
        order = [(team, kind) for team in zb.TEAMS for kind in battle.removed[team][len(battle.chosen[team]):]]
        out = {}
        for victim in zb.TEAMS:
            left = dict(battle.own[victim])
            gone = list(battle.chosen[zb.OTHER[victim]])
            gone += [k for team, k in order[:self._auto_done] if team == zb.OTHER[victim]]
            for kind in gone:
                left[kind] = left.get(kind, 0) - 1
            out[victim] = _kinds_line(left)
        return out

    def _sound(self, cue: Cue, state: Any, host_t: float) -> None:
        return None  # every Zombie Burrito moment comes from an announcement

    def _note(self, cue: Cue, host_t: float) -> None:
        return None


def _kinds_line(left: dict[str, int]) -> list[str]:
    return [f"{k} x{n}" if n > 1 else k for k, n in sorted(left.items()) if n > 0]


def _active_view(state: Any) -> dict[str, list[tuple[str, str]]]:
    """(kind, reminder) of every advantage in force, per team, plus the totals line."""
    battle = state.battle if state is not None else None
    if battle is None or battle.active is None:
        return {}
    out: dict[str, list[tuple[str, str]]] = {}
    for team in zb.TEAMS:
        side = state.catalog[zb.SIDE_OF[team]]
        out[team] = [(k, side[k]["text"]) for k in battle.active[team]]
    return out


# -- the mode -----------------------------------------------------------------------------------------


class ZombieBurrito(GameMode):
    name = zb.name
    rules = zb
    order = 20
    screens_module = "game.games.zombie_burrito.screens"
    title = "Zombie Burrito"
    seats = (2, 6)
    uses_devices = True
    demo_seats = 4

    def setup(self, seats: int, variant: int = 0, seed: int | None = None) -> dict[str, Any]:
        """Teams dealt as two arcs (teammates side by side); the default catalog unless the variant says."""
        seed = 0 if seed is None else seed
        options: dict[str, Any] = dict(self.variants[variant][1])
        options.update(seed=seed, teams=deal_arcs(seats, seed))
        return {"event": "setup", "game": self.name, "seats": seats, "options": options}

    def mapper(self, seatmap: list[int]) -> ZombieMapper:
        return ZombieMapper(seatmap)

    def presenter(self, pace: float = 1.0) -> ZombiePresenter:
        """Keeps a copy of the Team Markers after each batch of cues: a marker flips on screen with its BATTLE WON
        moment, not while the call before it is still up."""
        pr = ZombiePresenter(pace)
        pr.snapshot = _markers_copy
        return pr

    def battle_context(self, state: Any) -> tuple[bool, frozenset[int]]:
        """Open from "Battle!" (setup too: the first throw ends it) until decided; the fighters are those still in."""
        battle = state.battle
        if battle is None or battle.phase == "over":
            return False, frozenset()
        return True, frozenset(battle.alive)

    def prepare(self, state: Any, event: dict[str, Any]) -> list[dict[str, Any]]:
        """A ``throw`` the referee cannot know, before its call of a burrito whose last flight was decided (Z8)."""
        if state is None or event.get("event") not in ("hit", "miss", "catch") or "evidence" not in event:
            return []
        battle, burrito = state.battle, event.get("burrito")
        if battle is None or battle.phase != "fight" or not isinstance(burrito, int) or burrito not in state.landed or state.pending is not None:
            return []
        team = zb.TEAM_OF_BURRITO[burrito]
        mates = [s for s in state.teams[team] if s in battle.alive]
        if not mates:
            return []
        holder = state.holder.get(burrito)
        seat = holder if holder in mates else mates[0]
        return [{"event": "throw", "seat": seat, "burrito": burrito, "inferred": True}]

    def standings(self, summary: dict[str, Any]) -> list[str]:
        return ["", *zb.standings(summary)]

    def bots(self, app: Any, rig: Any, seed: int, direct: bool) -> Any:
        from game.games.zombie_burrito.bots import ZombieBots

        return ZombieBots(app, rig, seed=seed, direct=direct)

    #: learning mode: what the buttons do on each screen
    hints = MappingProxyType({
        "zb_board": "SET: I laid an advantage set   -   WAR: Battle! (3 matching battle cards)",
        "zb_fight": "Throw your team's burrito at the other team: hit = out, caught = the thrower is out",
        "countdown": "Each team takes its own burrito: throw on BATTLE!",
    })
    house_options = ("tie_window_ms",)

    def known_says(self, seats: int) -> list[str]:
        """The calls the announcer renders before play, so none waits for espeak-ng."""
        seat_ids = range(1, seats + 1)
        raw: list[str] = []
        raw += [f"Seat {a} counts: 3.. 2.. 1.. Zombie Burrito!" for a in seat_ids]
        raw += ["Each with your team's burrito, opposite sides: 3.. 2.. 1.. Battle!",
            "Survivors to one side of the room, Zombies to the other!"]
        raw += [f"Seat {a} holds the {b}: 3.. 2.. 1.. Battle!" for a in seat_ids
            for b in ("Zombie burrito", "Survivor burrito")]
        raw += [f"BATTLE! called by seat {a} ({team})" for a in seat_ids for team in ("Zombies", "Survivors")]
        raw += [f"HIT! Seat {a} is out (the {b})" for a in seat_ids for b in ("Zombie burrito", "Survivor burrito")]
        raw += [f"CATCH! Seat {a} catches the Zombie burrito: seat {b} is out" for a in seat_ids for b in seat_ids if a != b]
        raw += ["The Zombie burrito misses", "The Survivor burrito misses"]
        return raw


    # -- what to draw ----------------------------------------------------------------------------------

    def seat_views(self, app: Any, now: float) -> list[SeatView]:
        st = app.state
        mapper = app.mapper
        mapper.feedback = [f for f in mapper.feedback if now - f.t < 0.6]
        flash = {f.seat: f.text for f in mapper.feedback}
        badges_by_seat = {seat: name for name, seat in app.device_map.badges.items()}
        out = []
        for i, panel in enumerate(app.seatmap):
            seat = i + 1
            sv = SeatView(seat=seat, panel=panel, flash=flash.get(panel, ""))
            name = badges_by_seat.get(panel)  # badges are paired at panels
            if name and app.device_status.get(name) == "offline":
                sv.device = "badge offline"
            if st is not None and seat <= st.seats:
                sv.team = st.team_of[seat]
                sv.sets = sum(1 for s, _, _ in st.sets if s == seat)
                b = st.battle
                if st.winner is not None:
                    sv.role = "winner" if st.team_of[seat] == st.winner else "idle"
                elif b is not None and b.phase != "over":
                    sv.role = "fighter" if seat in b.alive else "out"
                    sv.lives = b.alive.get(seat, 0)
                    if b.declarer == seat and seat in b.alive:
                        sv.role = "declarer"
                    held = [n for n, s in st.holder.items() if s == seat]
                    if held:
                        sv.note = f"holds the {zb.BURRITO_NAME[held[0]]}"
                ch = getattr(mapper, "choosers", {}).get(seat)
                if ch is not None:
                    sv.note = ch.line()
            out.append(sv)
        return out

    def decorate(self, app: Any, v: View) -> None:
        st = app.state
        if st is None:
            return
        shown = app.presenter.announced(app.clock())
        v.extra.update(markers=dict(st.markers) if shown is None else dict(shown),
                       teams={t: list(st.teams[t]) for t in zb.TEAMS},
                       to_win=zb.MARKERS_TO_WIN, winner=st.winner)

    def live_view(self, app: Any, v: View, now: float) -> None:
        from game.table.loop import countdown_label

        st = app.state
        m = app.presenter.moment(now)
        battle = st.battle if st is not None else None
        if battle is not None and battle.phase != "over":
            v.extra["battle"] = battle_view(st, app.mapper)
        if m is not None:
            v.screen, v.title, v.big, v.sub, v.gap = m.screen, m.title, m.big, m.sub, m.gap
            v.extra.update(m.extra)
            v.progress = max(0.0, min(1.0, (now - m.start) / m.duration)) if m.start >= 0 else 0.0
            if m.screen == "countdown":
                v.big = countdown_label(v.progress, m.extra.get("words", ZB_COUNT))
            return
        if battle is None or battle.phase == "over":
            v.screen = "zb_board"
            v.sub = "SET: lay down an advantage set    WAR: Battle!"
            return
        v.screen = "zb_setup" if battle.phase == "setup" else "zb_fight"
        v.title = "BATTLE SETUP" if battle.phase == "setup" else "BATTLE!"
        v.sub = f"declared by seat {battle.declarer}"
        if battle.phase == "setup":
            v.hint = "BRAWL <  WAR >  choose a set to cancel  -  SET cancels it  -  throw to start"
        elif any(battle.revives_left[t] for t in zb.TEAMS):
            v.hint = "DUEL: spend a revive  (BRAWL <  WAR >  pick, SET confirms)"

    def phone_view(self, app: Any, seat: int, card: SeatView, now: float) -> dict[str, Any]:
        from game.games.zombie_burrito.phone import phone_view

        return {**super().phone_view(app, seat, card, now), **phone_view(app, seat)}

    def phone_public(self, app: Any) -> dict[str, Any]:
        from game.games.zombie_burrito.phone import phone_public

        return phone_public(app)


def battle_view(st: Any, mapper: Any) -> dict[str, Any]:
    """Everything the setup and fight screens show about the battle on."""
    b = st.battle
    out: dict[str, Any] = {"declarer": b.declarer, "phase": b.phase, "restarts": b.restarts, "teams": {}}
    for team in zb.TEAMS:
        side = st.catalog[zb.SIDE_OF[team]]
        cursor = None
        if b.phase == "setup" and zb.can_cancel(b, team):
            kinds = ZombieMapper.cancel_kinds(b, team)
            cursor = kinds[getattr(mapper, "cancel_cursor", {}).get(team, 0) % len(kinds)] if kinds else None
        out["teams"][team] = {
            "own": dict(sorted(b.own[team].items())),
            "left": zb.sets_left(b, team) if b.removed is None else {k: 1 for k in (b.active or {}).get(team, [])},
            "cancels": b.cancels[team],
            "chosen": list(b.chosen[team]),
            "cancels_left": b.cancels[team] - len(b.chosen[team]),
            "cursor": cursor,
            "active": [(k, side[k]["text"]) for k in (b.active or {}).get(team, [])],
            "lives": b.lives[team],
            "revives": b.revives_left[team],
            "in": [s for s in st.teams[team] if s in b.alive],
            "out": [s for s in b.out if st.team_of[s] == team and s not in b.alive],
        }
    return out
GAME = ZombieBurrito()
