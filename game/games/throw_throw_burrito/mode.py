"""Throw Throw Burrito at the table: the game's ``GAME`` object.

Everything the app shows or maps that only makes sense for this game lives here (points, sets, bruises, the badge,
Duel picking); the loop and the lobby stay game-neutral.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from game.games.throw_throw_burrito import rules
from game.games.throw_throw_burrito.buttons import ThrowThrowBurritoButtons
from game.table.mode import GameMode
from game.table.present import Presenter, SeatView, View


@dataclass(frozen=True)
class Scores:
    """The numbers the cards show, copied from the state after a batch of cues."""

    round: int
    tokens_left: int
    seats: tuple[tuple[int, int, int, int], ...]  # (points, sets, battle sets, bruises) per seat, this round
    round_points: dict[str, list[int]]


def score_copy(st: Any) -> Scores:
    r = st.rounds[-1]
    return Scores(st.round, st.tokens - sum(r.bruises),
                  tuple((r.points(s), r.sets[s - 1], r.battle_sets[s - 1], r.bruises[s - 1]) for s in range(1, st.seats + 1)),
                  {str(s): [rd.points(s) for rd in st.rounds] for s in range(1, st.seats + 1)})


class ThrowThrowBurrito(GameMode):
    name = rules.name
    rules = rules
    order = 10
    screens_module = "game.games.throw_throw_burrito.screens"
    title = "Throw Throw Burrito"
    variants: tuple[tuple[str, dict[str, Any]], ...] = (("standard", {}), ("small room", {"small_room": True}))
    seats = (2, 12)
    uses_devices = True
    demo_seats = 4
    demo_length = "a two-round game"
    table_deals = False  # the cards stay physical: the lobby deals nothing

    def setup(self, seats: int, variant: int = 0, seed: int | None = None) -> dict[str, Any]:
        """The lobby's choice as a setup line: more than six seats play with two decks."""
        options = dict(self.variants[variant][1])
        if seed is not None:
            options["seed"] = seed
        if seats > 6:
            options["two_decks"] = True
        return {"event": "setup", "game": self.name, "seats": seats, "options": options}

    def demo_setup(self, seed: int) -> dict[str, Any]:
        # the demo's game is fixed (seed 7): the bots' ``--seed`` varies their choices, not the deal
        return {"event": "setup", "game": self.name, "seats": 4, "options": {"seed": 7}}

    def presenter(self, pace: float = 1.0) -> Presenter:
        """The shared presenter, keeping a copy of the scores after each batch of cues: the cards show the scores
        as announced, so a hit's -1 lands with its HIT! call, not while the countdown before it is still up."""
        pr = Presenter(pace)
        pr.snapshot = score_copy
        return pr

    def mapper(self, seatmap: list[int]) -> ThrowThrowBurritoButtons:
        return ThrowThrowBurritoButtons(seatmap)

    def battle_context(self, state: Any) -> tuple[bool, frozenset[int]]:
        """Open from the first declaration on (its window and a duel's pick included), so the referee never takes a
        pickup in those moments for a grab with no battle on; the fighters are known once the window closes."""
        battle = state.battle
        if battle is not None and battle.loser is None:
            return True, frozenset(battle.fighters)
        return bool(state.declaring), frozenset()

    #: learning mode: what the buttons do on each screen
    hints = MappingProxyType({
        "scoreboard": "SET: I laid a set of 3   -   BRAWL / WAR / DUEL: I laid that battle set (2 points)",
        "battle": "Fighters: on BURRITO!, grab a burrito and throw it at the other fighter",
        "countdown": "On BURRITO!, go: pass cards (in a battle: grab a burrito and throw it)",
        "call": "Caught a burrito? Press any button on your panel within 2 s",
        "round_end": "Most points wins the round: SET and battle sets add, bruises take away",
        "tiebreak": "A tie-break Duel: the two fighters throw, the first hit loses",
        "final": "The final Duel: the first hit loses the game",
    })
    house_options = ("declare_window_ms", "tie_window_ms")

    def known_says(self, seats: int) -> list[str]:
        """The calls the announcer renders before play, so none waits for espeak-ng."""
        seat_ids = range(1, seats + 1)
        raw: list[str] = []
        raw += [f"Round 1! Seat {a} counts: 3, 2, 1, Burrito!" for a in seat_ids]
        raw += ["Back to back... 3, 2, 1, Burrito!", "Round 2! 3, 2, 1, Burrito!"]
        raw += [f"Seat {a} counts: 3, 2, 1, Burrito!" for a in seat_ids]
        raw += [f"HIT! Seat {a} is hit" for a in seat_ids]
        raw += [f"{k}! called by seat {a}" for a in seat_ids for k in ("BRAWL", "WAR", "DUEL")]
        raw += [f"CATCH! Seat {a} catches seat {1 if a != 1 else 2}'s burrito" for a in seat_ids]
        raw += [f"TIE! seat {a} and seat {b} hit 1 ms apart: tie Duel!" for a in seat_ids for b in seat_ids if a < b]
        raw += [f"Seat {a} lays down a set: +1" for a in seat_ids]
        raw += [f"Burrito {b} misses" for b in range(1, 5 if seats > 6 else 3)]
        return raw


    def bots(self, app: Any, rig: Any, seed: int, direct: bool) -> Any:
        from game.games.throw_throw_burrito.bots import Bots

        return Bots(app, rig, seed=seed, direct=direct)

    # -- what to draw ----------------------------------------------------------------------------------

    def seat_views(self, app: Any, now: float) -> list[SeatView]:
        st = app.state
        out = []
        flash = {}
        app.mapper.feedback = [f for f in app.mapper.feedback if now - f.t < 0.6]
        for f in app.mapper.feedback:
            flash[f.seat] = f.text
        pending: dict[int, int] = {}
        for p in app.mapper.pending:
            pending[p.seat] = pending.get(p.seat, 0) + 1
        badges_by_seat = {seat: name for name, seat in app.device_map.badges.items()}
        shown = app.presenter.announced(now) if st is not None else None
        for i, panel in enumerate(app.seatmap):
            seat = i + 1
            sv = SeatView(seat=seat, panel=panel, flash=flash.get(panel, ""), pending=pending.get(seat, 0))
            name = badges_by_seat.get(panel)  # badges are paired at panels
            if name and app.device_status.get(name) == "offline":
                sv.device = "badge offline"
            if st is not None:
                if shown is not None and i < len(shown.seats):
                    sv.points, sv.sets, sv.battle_sets, sv.bruises = shown.seats[i]
                else:
                    r = st.rounds[-1]
                    sv.points, sv.sets, sv.battle_sets, sv.bruises = (r.points(seat), r.sets[i], r.battle_sets[i],
                                                                      r.bruises[i])
                sv.badge = st.badge == seat
                b = st.battle
                if st.winner == seat:
                    sv.role = "winner"
                elif b is not None and b.loser is None:
                    sv.role = "fighter" if seat in b.fighters else ("out" if seat in b.eliminated else "idle")
                    if b.declarer == seat and seat not in b.fighters:
                        sv.role = "declarer"
            out.append(sv)
        return out

    def decorate(self, app: Any, v: View) -> None:
        st = app.state
        if st is not None:
            shown = app.presenter.announced(app.clock()) or score_copy(st)
            v.round, v.tokens_left = shown.round, shown.tokens_left
            # the winner screen shows every round, not only the last (where the winner may well have 0)
            v.extra["round_points"] = shown.round_points

    def live_view(self, app: Any, v: View, now: float) -> None:
        from game.table.loop import countdown_label

        st = app.state
        m = app.presenter.moment(now)
        if m is not None:
            v.screen, v.title, v.big, v.sub, v.gap = m.screen, m.title, m.big, m.sub, m.gap
            v.progress = max(0.0, min(1.0, (now - m.start) / m.duration)) if m.start >= 0 else 0.0
            if m.screen == "countdown":
                v.big = countdown_label(v.progress)
        elif st is not None and st.battle is not None and st.battle.loser is None:
            b = st.battle
            v.screen = "battle"
            v.title = f"{b.kind.upper()}!" if b.purpose == "battle" else ("FINAL DUEL" if b.purpose == "final" else "TIE-BREAK")
            v.big = " vs ".join(str(s) for s in sorted(b.fighters)) if b.fighters else ""
            v.sub = f"declared by seat {b.declarer}" if b.declarer else ""
            v.progress = 1.0
        p = app.mapper.picking
        if p is not None:
            v.screen, v.title = "pick", "DUEL!"
            v.sub = f"Seat {p.declarer}: pick two duellists (yourself allowed)"
            v.cursor, v.chosen = p.cursor, list(p.chosen)
            v.hint = "BRAWL <  WAR >  move   -   SET pick   -   DUEL un-pick"
GAME = ThrowThrowBurrito()
