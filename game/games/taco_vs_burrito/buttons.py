"""Taco vs Burrito at the table: seat buttons -> moves, and what the shared screen and each seat's screen show.

The rules (``game.games.taco_vs_burrito.rules``) run the card game; this module is the table around them.

Buttons (a seat panel's four buttons get new names, docs/hardware.md):

==========  =====  ==============================================================================
button      wired  does
==========  =====  ==============================================================================
LEFT        SET    previous card in my hand / previous option
RIGHT       BRAWL  next card / next option
PLAY        WAR    tap: pick the card (then LEFT/RIGHT choose the meal, target or item, PLAY confirms;
                   the last option is "back"); hold: peek (the shared screen shows my hand while held)
NO BUENO    DUEL   block the card waiting in the block window, at any moment
==========  =====  ==============================================================================

PLAY acts on its *release* (a tap), so a hold can be a peek without also picking a card.

Every NO BUENO press becomes a ``block`` stamped with the press's edge time; the game mode
(:class:`TacoMapper`) judges the race: the earliest edge wins, and a press less than
:data:`RACE_S` after the winning one lost the same race (nobody reacts to a block that fast).

The options of a picked card are the rules' own ``legal_moves``, so no sequence of presses can make an illegal
move. :func:`build_view` gives the shared screen's :class:`TacoView` (meals face down as the variant says, hands
only as the hand mode allows) and :func:`seat_screen_view` one seat's own display, from ``player_view`` only.
:class:`PanelBots` play seats *at the buttons* (the demo), through :func:`press_plan`.
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from game.games.taco_vs_burrito import rules as tvb
from game.games.taco_vs_burrito.bots import Bot, make_bot
from game.table.buttons import ButtonMapper, Feedback
from hardware.events import SeatEvent

#: the panel's wired button -> its Taco vs Burrito meaning
BUTTONS = {"SET": "LEFT", "BRAWL": "RIGHT", "WAR": "PLAY", "DUEL": "NO BUENO"}
#: a NO BUENO press this soon after the winning block lost the same race (human reaction time is ~200 ms+)
RACE_S = 0.2
#: hand display modes: per-seat screens, hold-to-peek on the shared screen, or every hand open (learning)
HAND_MODES = ("screens", "peek", "open")
BACK = "< back"


# -- the hand browser ------------------------------------------------------------------------------------


def card_label(card: str | None, catalog: tvb.Catalog | None = None) -> str:
    """What a card is called on screen; ``None`` is a face-down card."""
    if card is None:
        return "face down"
    if catalog is not None:
        try:
            return catalog[card].label
        except KeyError:
            pass
    return card.replace("-", " ").title()


def option_label(move: dict[str, Any], seat: int, catalog: tvb.Catalog | None = None) -> str:
    """One option of a picked card, in the words of the seat that picks it."""
    kind = move["event"]
    if kind == "discard":
        return "discard (trash)"
    if kind == "place":
        return "my meal" if move["meal"] == seat else f"seat {move['meal']}'s meal"
    if kind == "choose":
        return f"take {card_label(move['item'], catalog)}"
    card = move["card"]
    if card == "crafty-crow":
        item = move.get("item")
        return f"steal {card_label(item, catalog) if item else 'blind'} from seat {move['target']}"
    if card == "trash-panda":
        return f"take {card_label(move['item'], catalog)} from the trash"
    if card == "order-envy":
        return f"swap with seat {move['target']}"
    if card == "food-fight":
        return "FOOD FIGHT!"
    return str(move)


@dataclass
class Option:
    label: str
    move: dict[str, Any] | None  # None: back to the hand


@dataclass
class SeatCursor:
    """One seat's browsing: the hand cursor, and once a card is picked, the cursor over its options."""

    seat: int
    index: int = 0
    stage: str = "hand"  # hand, option
    card: str | None = None
    option: int = 0
    peeking: bool = False
    play_down: float | None = None
    held: bool = False


def seat_moves(state: tvb.State, seat: int) -> list[dict[str, Any]]:
    """The legal moves that are ``seat``'s to make now (its turn, or its Food Fight choice)."""
    if state.phase == "choose" and state.fight is not None and state.fight.winner == seat:
        return tvb.legal_moves(state)
    if state.phase == "move" and state.turn == seat:
        return tvb.legal_moves(state)
    return []


def options_for(state: tvb.State, seat: int, card: str | None) -> list[Option]:
    """The options of a picked card (or of the Food Fight choice), own meal first, discard then back last."""
    cat = state.catalog
    moves = seat_moves(state, seat)
    if state.phase == "choose":
        return [Option(option_label(m, seat, cat), m) for m in moves]
    mine = [m for m in moves if m.get("card") == card]
    main = [m for m in mine if m["event"] != "discard"]
    main.sort(key=lambda m: (m.get("meal", 0) != seat, m.get("meal", 0), m.get("target", 0)))
    out = [Option(option_label(m, seat, cat), m) for m in main]
    out += [Option(option_label(m, seat, cat), m) for m in mine if m["event"] == "discard"]
    out.append(Option(BACK, None))
    return out


def refusal(state: Any, seat: int) -> str:
    """Why the rules refuse a NO BUENO from ``seat`` now ("" when they take it): the words on the seat's card."""
    if state is None:
        return ""
    p = state.pending
    if state.phase != "window" or p is None:
        return "no card to block"
    if p.top_seat == seat:
        return "your own card"
    if "no-bueno" not in state.hands[seat - 1]:
        return "no No Bueno in hand"
    return ""


class HandBrowser:
    """LEFT / RIGHT / PLAY / NO BUENO presses of every seat -> table events (dicts on host time ``t``).

    ``seatmap`` maps panel -> game seat for the seats people sit at. ``notes`` collects short feedback for the
    screen ("not your turn").
    """

    def __init__(self, seatmap: dict[int, int]) -> None:
        self.seatmap = dict(seatmap)
        self.cursors = {seat: SeatCursor(seat) for seat in self.seatmap.values()}
        self.notes: list[tuple[float, int, str]] = []

    def cursor(self, seat: int) -> SeatCursor:
        return self.cursors.setdefault(seat, SeatCursor(seat))

    def handle(self, ev: SeatEvent, state: tvb.State) -> list[dict[str, Any]]:
        seat = self.seatmap.get(ev.seat)
        name = BUTTONS.get(ev.button)
        if seat is None or name is None:
            return []
        c = self.cursor(seat)
        self.sync(state)
        if name == "NO BUENO":
            return [{"t": ev.t, "event": "block", "seat": seat}] if ev.action == "press" else []
        if name == "PLAY":
            return self._play(ev, c, state)
        if ev.action != "press":
            return []
        step = 1 if name == "RIGHT" else -1
        if c.stage == "hand":
            hand = state.hands[seat - 1]
            if hand:
                c.index = (c.index + step) % len(hand)
        else:
            opts = options_for(state, seat, c.card)
            c.option = (c.option + step) % len(opts)
        return []

    def _play(self, ev: SeatEvent, c: SeatCursor, state: tvb.State) -> list[dict[str, Any]]:
        if ev.action == "press":
            c.play_down, c.held = ev.t, False
            return []
        if ev.action == "hold":
            c.held, c.peeking = True, True
            return []
        # release: a tap picks or confirms; the end of a hold ends the peek
        was_hold = c.held
        c.peeking, c.held, c.play_down = False, False, None
        if was_hold:
            return []
        seat = c.seat
        if c.stage == "hand":
            if state.phase == "choose" and seat_moves(state, seat):
                c.stage, c.card, c.option = "option", None, 0
                return []
            hand = state.hands[seat - 1]
            if not hand:
                return []
            card = hand[c.index % len(hand)]
            if not seat_moves(state, seat):
                who = state.turn if state.phase == "move" else None
                self.notes.append((ev.t, seat, f"seat {who}'s turn" if who else "wait for the block window"))
                return []
            c.stage, c.card, c.option = "option", card, 0
            return []
        opts = options_for(state, seat, c.card)
        pick = opts[c.option % len(opts)]
        c.stage, c.card, c.option = "hand", None, 0
        if pick.move is None:
            return []
        return [{"t": ev.t, **pick.move}]

    def sync(self, state: tvb.State) -> None:
        """Keep cursors valid as the game moves on: a picked card whose moves are gone goes back to the hand."""
        for seat, c in self.cursors.items():
            hand = state.hands[seat - 1]
            c.index = c.index % len(hand) if hand else 0
            if c.stage == "option":
                if state.phase == "choose" and seat_moves(state, seat):
                    continue
                if c.card is None or c.card not in hand or not seat_moves(state, seat):
                    c.stage, c.card, c.option = "hand", None, 0
            elif state.phase == "choose" and seat_moves(state, seat):
                c.stage, c.card, c.option = "option", None, 0


def press_plan(state: tvb.State, cursor: SeatCursor, move: dict[str, Any]) -> list[str]:
    """The button taps (LEFT/RIGHT/PLAY names) that make ``move`` from ``cursor``: how a bot or a test plays
    through the buttons exactly as a person would."""
    taps: list[str] = []
    seat = cursor.seat
    if move["event"] == "block":
        return ["NO BUENO"]
    if move["event"] != "choose":
        hand = state.hands[seat - 1]
        if cursor.stage == "option":
            taps += _steps(cursor.option, len(options_for(state, seat, cursor.card)) - 1,
                           len(options_for(state, seat, cursor.card)))
            taps.append("PLAY")  # back
        here = cursor.index % len(hand)
        taps += _steps(here, hand.index(move["card"]), len(hand))
        taps.append("PLAY")
        opts = options_for(state, seat, move["card"])
        start = 0
    else:
        opts = options_for(state, seat, None)
        start = cursor.option if cursor.stage == "option" else 0
        if cursor.stage != "option":
            taps.append("PLAY")
    want = next(i for i, o in enumerate(opts) if o.move == move)
    taps += _steps(start, want, len(opts))
    taps.append("PLAY")
    return taps


def _steps(here: int, there: int, n: int) -> list[str]:
    right = (there - here) % n
    left = (here - there) % n
    return ["RIGHT"] * right if right <= left else ["LEFT"] * left


# -- what the screens draw -----------------------------------------------------------------------------------


@dataclass
class SeatPanel:
    """One seat on the shared screen."""

    seat: int
    score: int | None  # None while the meal is face down
    meal: list[str | None]
    hand_size: int
    bot: str = ""  # the bot level for an empty seat
    turn: bool = False
    winner: bool = False
    flash: str = ""
    name: str = ""  # the player's name (setup line ``players``), shown instead of SEAT n


@dataclass
class HandShow:
    """A hand shown on a screen: the cards, the cursor, and the options of a picked card."""

    seat: int
    cards: list[str]
    cursor: int = 0
    options: list[str] = field(default_factory=list)
    option: int = 0
    picked: str | None = None
    meal: list[str | None] = field(default_factory=list)


@dataclass
class TacoView:
    """Everything the shared screen shows of a Taco vs Burrito table (``game.games.taco_vs_burrito.screens`` draws it)."""

    screen: str  # table, window, foodfight, over
    seats: list[SeatPanel]
    variant: str = "open"
    hands_mode: str = "peek"
    draw_pile: int = 0
    trash_top: str | None = None
    trash: int = 0
    title: str = ""
    big: str = ""
    sub: str = ""
    countdown: float = 0.0  # seconds left in the block window
    progress: float = 0.0  # 0..1 of the window left
    chain: list[int] = field(default_factory=list)
    flipped: list[tuple[int, str]] = field(default_factory=list)
    hands: list[HandShow] = field(default_factory=list)  # shown hands: a peek, or every hand when open
    choosing: list[HandShow] = field(default_factory=list)  # seats choosing a picked card's option (no cards)
    ticker: list[str] = field(default_factory=list)
    banner: str = ""
    hint: str = ""
    race: str = ""  # "seat 3 was 42 ms late"


@dataclass
class SeatScreenView:
    """What one seat's own small display shows: only what ``player_view`` lets that seat know."""

    seat: int
    hand: list[str]
    cursor: int
    options: list[str]
    option: int
    picked: str | None
    turn: int | None
    phase: str
    score: int | None
    countdown: float
    can_block: bool
    line: str


# -- building the views ------------------------------------------------------------------------------------


def hand_show(st: tvb.State, browser: HandBrowser, seat: int) -> HandShow:
    """One seat's hand as it may see it (``player_view``), with its cursor and options."""
    pv = tvb.player_view(st, seat)
    c = browser.cursor(seat)
    opts = [o.label for o in options_for(st, seat, c.card)] if c.stage == "option" else []
    return HandShow(seat, pv["hand"], c.index, opts, c.option, c.card, pv["meals"][seat - 1])


def build_view(st: tvb.State, browser: HandBrowser, bots: dict[int, str], hands_mode: str, table_now: float, *,
               ticker: list[str] | None = None, banner: str = "", race: str = "",
               flash: dict[int, str] | None = None) -> TacoView:
    """The shared screen's view of a game: meals face down where the variant says, hands only as the hand mode
    allows (every hand when open, the peeking seat's while it holds PLAY, none with per-seat screens)."""
    cat = st.catalog
    over = tvb.is_over(st)
    shared: list[list[str | None]] = [
        list(m) if tvb.can_look(st, 0, o + 1) else [None] * len(m) for o, m in enumerate(st.meals)
    ]
    seats = []
    winners = set(tvb.winners(st)) if over else set()
    flash = flash or {}
    for s in range(1, st.seats + 1):
        meal = shared[s - 1]
        score = tvb.score(st, s) if all(c is not None for c in meal) else None
        seats.append(SeatPanel(s, score, meal, len(st.hands[s - 1]), bot=bots.get(s, ""),
                               turn=st.turn == s and st.phase in ("move", "choose"), winner=s in winners,
                               flash=flash.get(s, "")))
    v = TacoView("table", seats, variant=st.variant, hands_mode=hands_mode, draw_pile=len(st.pile),
                 trash_top=st.trash[-1] if st.trash else None, trash=len(st.trash), ticker=list(ticker or []),
                 banner=banner, race=race)
    if over:
        v.screen, v.title = "over", "GAME OVER"
        w = sorted(winners)
        v.big = " & ".join(f"SEAT {s}" for s in w)
        v.sub = "wins!" if len(w) == 1 else "tie for the win!"
    elif st.phase == "window" and st.pending is not None:
        p = st.pending
        v.screen = "window"
        shown = p.card if (p.move["event"] != "place" or st.variant == "open") else None
        v.big = card_label(shown, cat).upper()
        v.title = f"SEAT {p.seat} PLAYS"
        v.sub = _waiting_text(p, st.variant)
        v.countdown = max(0.0, min(st.window, p.deadline - table_now))
        v.progress = max(0.0, min(1.0, v.countdown / st.window)) if st.window > 0 else 0.0
        v.chain = list(p.chain)
        v.hint = "NO BUENO now to block!" if not p.chain else (
            "SI BUENO!" if len(p.chain) % 2 == 0 else "NO BUENO! answer with another to make it a Si Bueno")
    elif st.phase == "choose" and st.fight is not None:
        v.screen, v.title = "foodfight", "FOOD FIGHT"
        v.flipped = list(st.fight.flipped)
        v.sub = f"seat {st.fight.winner} wins: pick one card"
    else:
        who = st.turn
        v.title = f"SEAT {who}'S TURN" if who else ""
        v.hint = "LEFT / RIGHT browse  -  tap PLAY pick  -  hold PLAY peek  -  NO BUENO block"
    if hands_mode == "open":
        v.hands = [hand_show(st, browser, s) for s in range(1, st.seats + 1)]
    elif hands_mode == "peek":
        v.hands = [hand_show(st, browser, c.seat) for c in browser.cursors.values() if c.peeking]
    for c in browser.cursors.values():
        if c.stage == "option" and not c.peeking:
            show = st.variant == "open" or (c.card is not None and st.kinds.get(c.card) not in tvb.PLACEABLE)
            opts = [o.label for o in options_for(st, c.seat, c.card)]
            v.choosing.append(HandShow(c.seat, [], options=opts, option=c.option, picked=c.card if show else None))
    return v


def seat_screen_view(st: tvb.State, browser: HandBrowser, seat: int, table_now: float) -> SeatScreenView:
    """What ``seat``'s own display shows: its hand and choices from ``player_view``, never another seat's hand."""
    pv = tvb.player_view(st, seat)
    c = browser.cursor(seat)
    own = pv["meals"][seat - 1]
    score = tvb.score(st, seat) if all(x is not None for x in own) else None
    countdown = 0.0
    if st.pending is not None and st.phase == "window":
        countdown = max(0.0, st.pending.deadline - table_now)
    opts = [o.label for o in options_for(st, seat, c.card)] if c.stage == "option" else []
    if st.phase == "over":
        line = "game over"
    elif countdown > 0:
        line = "NO BUENO?" if tvb.can_block(st, seat) else "block window"
    elif pv["turn"] == seat:
        line = "your turn" if st.phase == "move" else "pick a card"
    else:
        line = f"seat {pv['turn']}'s turn"
    return SeatScreenView(seat, pv["hand"], c.index, opts, c.option, c.card, pv["turn"], st.phase, score,
                          countdown, tvb.can_block(st, seat), line)


def _waiting_text(p: tvb.Pending, variant: str) -> str:
    m = p.move
    if m["event"] == "place":
        where = "own meal" if m["meal"] == p.seat else f"seat {m['meal']}'s meal"
        return f"into {where}"
    if m.get("target"):
        return f"on seat {m['target']}"
    if m.get("item"):
        return f"for {m['item']}"
    return ""


# -- bots at the panels (the demo, tests) ----------------------------------------------------------------------------

#: the wired button of each Taco vs Burrito name
WIRED = {v: k for k, v in BUTTONS.items()}
TAP_S = 0.08
GAP_S = 0.16


def bots_blocking(st: Any, bots: dict[int, Any], asked: set[tuple[int, int, int]]) -> list[int]:
    """The bot seats that slam NO BUENO on the card now waiting in the block window, each asked once per window
    opening (``asked`` remembers them); the caller decides when each press lands."""
    p = st.pending
    out = []
    for seat, bot in bots.items():
        key = (seat, int(p.opened * 1000), len(p.chain))
        if key in asked or not tvb.can_block(st, seat):
            continue
        asked.add(key)
        if bot.block(st):
            out.append(seat)
    return out


class PanelBots:
    """Bots that play seats *through their panels*: each move becomes LEFT/RIGHT/PLAY taps on the seat's
    buttons (``press_plan``), and a block a NO BUENO tap, driven on the pins by ``press(panel, button, down)``.
    So the demo runs the whole button path (MockFactory pins, debounce, the hand browser) as a person would.
    ``app`` is the shared loop (``game.table.loop.TableApp``) playing this mode; ``levels``: game seat -> level.
    """

    def __init__(self, app: Any, press: Callable[[int, str, bool], None], levels: dict[int, str],
                 seed: int = 7, pace: float = 1.0) -> None:
        self.app = app
        self.press = press
        self.panel = {seat: panel for seat, panel in enumerate(app.seatmap, start=1)}
        self.bots = {seat: make_bot(level, seat, seed * 17 + seat) for seat, level in levels.items()}
        self.rng = random.Random(seed * 104729 + 3)
        self.pace = pace
        self._todo: list[tuple[float, int, Callable[[], None]]] = []
        self._n = itertools.count()
        self.busy_until: dict[int, float] = {}
        self._asked: set[tuple[int, int, int]] = set()
        self.planned: list[tuple[int, dict[str, Any]]] = []

    def _at(self, t: float, fn: Callable[[], None]) -> None:
        heapq.heappush(self._todo, (t, next(self._n), fn))

    def tap(self, t: float, seat: int, name: str) -> None:
        panel, button = self.panel[seat], WIRED[name]
        self._at(t, lambda: self.press(panel, button, True))
        self._at(t + TAP_S, lambda: self.press(panel, button, False))

    def step(self, now: float) -> None:
        while self._todo and self._todo[0][0] <= now:
            heapq.heappop(self._todo)[2]()
        app = self.app
        st = app.state
        if st is None or app.over or app.buffer or app.mapper.pending:
            return
        if st.phase == "window" and st.pending is not None:
            for seat in bots_blocking(st, self.bots, self._asked):
                left = app.t0 + st.pending.deadline - now
                self.tap(now + self.rng.uniform(0.2, 0.6) * max(0.0, left), seat, "NO BUENO")
            return
        actor = st.turn if st.phase == "move" else (st.fight.winner if st.fight else None)
        if actor is None or actor not in self.bots or now < self.busy_until.get(actor, 0.0):
            return
        move = self.bots[actor].move(st)
        plan = press_plan(st, app.mapper.browser.cursor(actor), move)
        self.planned.append((actor, move))
        t = now + self.rng.uniform(0.4, 1.0) * self.pace
        for name in plan:
            self.tap(t, actor, name)
            t += GAP_S
        self.busy_until[actor] = t + 0.5


# -- the mapper the loop drives ----------------------------------------------------------------------

THINK_S = (0.9, 2.0)


@dataclass
class Press:
    """A NO BUENO press waiting for the race to be judged."""

    t: float
    seat: int


class TacoMapper:
    """Seat events -> Taco vs Burrito table events, for the shared loop (the ``Mapper`` protocol)."""

    def __init__(self, seatmap: list[int], bot_level: str = "normal", seed: int = 0,
                 bot_seats: Callable[[int], set[int]] | None = None) -> None:
        self.seatmap = list(seatmap)
        #: which game seats bots play, given the seat count (asked when the game starts)
        self.bot_seats = bot_seats or (lambda n: set(range(len(self.seatmap) + 1, n + 1)))
        self.browser = HandBrowser({panel: i + 1 for i, panel in enumerate(self.seatmap)})
        self.chord = ButtonMapper(self.seatmap)  # the table-menu chord (BRAWL + WAR = RIGHT + PLAY held 5 s)
        self.feedback: list[Any] = []
        self.notes: list[tuple[float, str]] = []
        self.pending: list[Press] = []
        self.race_note: tuple[float, str] | None = None
        self.bot_level = bot_level
        self.bots: dict[int, Bot] = {}
        self.rng = random.Random(seed * 7919 + 1)
        self._seed = seed
        self._state: tvb.State | None = None
        self._todo: list[tuple[float, int, dict[str, Any]]] = []
        self._n = itertools.count()
        self._bot_key: Any = None
        self._asked: set[tuple[int, int, int]] = set()
        self._won: Press | None = None
        self._ready: list[dict[str, Any]] = []  # judged or due, waiting for an earlier buffered event
        #: game seat -> (host time, why the rules refused its NO BUENO), shown on the seat's card for a moment
        self.refused: dict[int, tuple[float, str]] = {}

    # -- input ---------------------------------------------------------------------------------------

    def handle(self, ev: SeatEvent, state: Any) -> list[dict[str, Any]]:
        self.track(ev)
        self._see(state)
        seat = self.browser.seatmap.get(ev.seat)
        if seat is None:
            if ev.action == "press":
                self.notes.append((ev.t, f"panel {ev.seat} is not in this game"))
            return []
        if ev.action == "press":
            self.feedback.append(Feedback(ev.t, ev.seat, BUTTONS.get(ev.button, ev.button)))
        out = self.browser.handle(ev, state)
        for note in self.browser.notes:
            self.notes.append((note[0], f"seat {note[1]}: {note[2]}"))
        self.browser.notes.clear()
        keep = []
        for e in out:
            if e["event"] == "block":
                self.pending.append(Press(e["t"], e["seat"]))
            else:
                keep.append(e)
        return keep

    def track(self, ev: SeatEvent) -> dict[str, float]:
        return self.chord.track(ev)

    def refused_event(self, event: dict[str, Any], state: Any, now: float) -> None:
        """The rules refused ``event`` (judged against ``state``, the state it met): a NO BUENO says why on the
        seat's card instead of vanishing."""
        if event.get("event") == "block" and isinstance(event.get("seat"), int):
            why = refusal(state, event["seat"]) or "the rules refuse it"
            self.refused[event["seat"]] = (now, why)
            self.notes.append((now, f"seat {event['seat']}: NO BUENO refused: {why}"))

    def sync(self, state: Any) -> None:
        self._see(state)
        if state is not None:
            self.browser.sync(state)

    def _see(self, state: Any) -> None:
        if state is None or self._state is state:
            return
        self._state = state
        seats = self.bot_seats(state.seats)
        self.bots = {s: make_bot(self.bot_level, s, self._seed * 31 + s) for s in sorted(seats)}
        self.browser.seatmap = {p: s for p, s in self.browser.seatmap.items() if s not in seats}

    # -- time: the race and the bots -----------------------------------------------------------------

    def combos(self, now: float) -> list[int]:
        return self.chord.combos(now)

    def combo_progress(self, now: float) -> tuple[int, float] | None:
        return self.chord.combo_progress(now)

    def oldest_pending(self) -> float | None:
        times = [p.t for p in self.pending] + [t for t, _, _ in self._todo] + [e["t"] for e in self._ready]
        return min(times, default=None)

    def blocks(self, t: float) -> bool:
        """An event at ``t`` waits while a NO BUENO press at or before it is still being judged."""
        return any(p.t <= t for p in self.pending)

    def due_sets(self, until: float, force_before: float | None = None) -> list[dict[str, Any]]:
        """Judged race winners and due bot moves, in time order; with ``force_before`` (the time of the buffered
        event about to be written) only those not later than it, so the journal stays in time order."""
        out = self._ready
        self.pending.sort(key=lambda p: p.t)
        while self.pending and self.pending[0].t + RACE_S <= until:
            first = self.pending.pop(0)
            won = self._won
            if won is not None and first.seat != won.seat and 0 <= first.t - won.t < RACE_S:
                gap = round((first.t - won.t) * 1000)
                self.race_note = (first.t, f"seat {first.seat} was {gap} ms late: seat {won.seat} won the No Bueno race")
                self.notes.append(self.race_note)
                continue
            if won is not None and first.seat == won.seat and 0 <= first.t - won.t < RACE_S:
                continue  # the same seat slamming twice in a blink: one block
            self._won = first
            out.append({"t": first.t, "event": "block", "seat": first.seat})
        self._bot_turn(until)
        while self._todo and self._todo[0][0] <= until:
            out.append(heapq.heappop(self._todo)[2])
        out.sort(key=lambda e: e["t"])
        limit = until if force_before is None else min(until, force_before)
        due = [e for e in out if e["t"] <= limit]
        self._ready = [e for e in out if e["t"] > limit]
        return due

    def _bot_turn(self, until: float) -> None:
        st = self._state
        if st is None or tvb.is_over(st) or not self.bots:
            return
        if st.phase == "window" and st.pending is not None:
            for seat in bots_blocking(st, self.bots, self._asked):
                at = until + self.rng.uniform(0.2, 0.6) * max(0.0, (st.pending.deadline - st.t))
                heapq.heappush(self._todo, (at, next(self._n), {"t": at, "event": "block", "seat": seat}))
            return
        actor = st.turn if st.phase == "move" else (st.fight.winner if st.fight else None)
        if actor is None or actor not in self.bots or self._todo:
            return
        turn_key = (actor, st.turns, st.phase, len(st.trash), len(st.pile))
        if turn_key == self._bot_key:
            return
        self._bot_key = turn_key
        at = until + self.rng.uniform(*THINK_S)
        heapq.heappush(self._todo, (at, next(self._n), {"t": at, **self.bots[actor].move(st)}))
