"""Taco vs Burrito, the table's rules (``../shared/rules/taco-vs-burrito.txt``).

Pure: ``state + timestamped table event -> state + cues``. The table runs the
whole card game (deck, hands, meals, turns, score); the seats send moves.
Quotes in the comments are from the rulebook; choices where it is silent or
ambiguous are in ``docs/taco-vs-burrito.md`` (cited here as "T<n>").

The deck is data: ``load_catalog()`` reads ``taco_deck.toml`` (outside the
pure path) and ``parse_setup`` hands the catalog to the state.

Example, two seats and a stacked deck::

    >>> from game.games.taco_vs_burrito import rules as tvb
    >>> deck = ["ingredient-3"] * 10 + ["hot-sauce-boss", "ingredient-1"]
    >>> setup = tvb.parse_setup({"event": "setup", "game": "taco-vs-burrito", "seats": 2,
    ...                          "options": {"deck": deck}})
    >>> state = tvb.new_state(setup)
    >>> ev = tvb.check_event(setup, {"t": 1.0, "event": "place", "seat": 1, "card": "hot-sauce-boss", "meal": 1})
    >>> _ = tvb.advance(state, 1.0); _ = tvb.step(state, ev); _ = tvb.finish(state)
    >>> tvb.summary(state)["meals"]["1"], tvb.summary(state)["turn"]
    (['hot-sauce-boss'], 2)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from game.rules.base import (
    Cue,
    Event,
    History,
    RuleInputError,
    SeededRandom,
    Setup,
    brief,
    check_time,
    counted,
    need_choice,
    need_int,
    need_number,
    need_seats,
    overturn_apply,
    overturn_check_event,
    overturn_dropped,
    overturn_target,
    parse_players,
    read_game_data,
    read_setup_file,
    setup_options,
)

name = "taco-vs-burrito"

KINDS = (
    "ingredient",
    "tummy-ache",
    "hot-sauce-boss",
    "health-inspector",
    "no-bueno",
    "crafty-crow",
    "trash-panda",
    "food-fight",
    "order-envy",
)
PLACEABLE = ("ingredient", "tummy-ache", "hot-sauce-boss")
ACTIONS = ("crafty-crow", "trash-panda", "food-fight", "order-envy")
VARIANTS = ("open", "secret", "super-secret")
EVENTS = ("place", "play", "discard", "block", "choose", "overturn")
#: The table's calls: what a challenge may overturn (T19). The table decides which No Bueno slammed first.
CALLS = ("block",)
HAND_SIZE = 5
#: T1: a countdown long enough to reach a big button across a party table.
DEFAULT_WINDOW_MS = 3000.0
#: T6: "Can I Trash Panda a Trash Panda? Yes, but only two times in a game."
PANDA_ON_PANDA_LIMIT = 2
EPS = 1e-9  # seconds; a block stamped exactly at the deadline still counts


# --- the deck as data -----------------------------------------------------------------


class CatalogError(ValueError):
    """A deck file that cannot be used: ``str()`` is one line naming the file and the card."""


@dataclass(frozen=True, slots=True)
class Card:
    name: str
    kind: str
    value: int
    count: int
    label: str
    pictures: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Catalog:
    """The cards of one box; immutable, so states share it instead of copying it."""

    cards: tuple[Card, ...]
    source: str = "taco_deck.toml"

    def __deepcopy__(self, memo: dict[int, Any]) -> Catalog:
        return self

    def __getitem__(self, card: str) -> Card:
        for c in self.cards:
            if c.name == card:
                return c
        raise KeyError(card)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.cards)

    def full_deck(self) -> list[str]:
        """Every card of the box in catalog order (the order before the shuffle)."""
        return [c.name for c in self.cards for _ in range(c.count)]


def parse_catalog(text: str, source: str = "taco_deck.toml") -> Catalog:
    """Check a deck file's text; every problem is one line naming ``source`` and the card."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{source}: bad TOML: {exc}") from None
    raw = data.get("card")
    if not isinstance(raw, list) or not raw:
        raise CatalogError(f"{source}: no [[card]] tables")
    cards: list[Card] = []
    seen: set[str] = set()
    for i, entry in enumerate(raw, start=1):
        where = f"{source}: card {i}"
        if not isinstance(entry, dict):
            raise CatalogError(f"{where}: must be a table")
        unknown = sorted(set(entry) - {"name", "kind", "value", "count", "label", "pictures"})
        if unknown:
            raise CatalogError(f"{where}: unknown key(s) {', '.join(unknown)}")
        card_name = entry.get("name")
        if (
            not isinstance(card_name, str)
            or not card_name
            or not all(ch.islower() or ch.isdigit() or ch == "-" for ch in card_name)
        ):
            raise CatalogError(f"{where}: 'name' must be lowercase letters, digits and dashes, got {brief(card_name)}")
        where = f"{source}: card {i} ({card_name})"
        if card_name in seen:
            raise CatalogError(f"{where}: name used twice")
        seen.add(card_name)
        kind = entry.get("kind")
        if kind not in KINDS:
            raise CatalogError(f"{where}: 'kind' must be one of {', '.join(KINDS)}, got {brief(kind)}")
        value = entry.get("value", 0)
        if type(value) is not int:
            raise CatalogError(f"{where}: 'value' must be a whole number, got {brief(value)}")
        if kind == "ingredient" and value <= 0:
            raise CatalogError(f"{where}: an ingredient's 'value' must be above 0, got {value}")
        if kind == "tummy-ache" and value >= 0:
            raise CatalogError(f"{where}: a tummy ache's 'value' must be below 0, got {value}")
        if kind not in ("ingredient", "tummy-ache") and value != 0:
            raise CatalogError(f"{where}: a {kind} has no 'value', got {value}")
        if kind in ACTIONS + ("no-bueno", "health-inspector", "hot-sauce-boss") and card_name != kind:
            # The log names action cards by their kind (the log contract).
            raise CatalogError(f"{where}: a {kind} card must be named {brief(kind)}")
        count = entry.get("count")
        if type(count) is not int or count < 0:
            raise CatalogError(f"{where}: 'count' must be a whole number >= 0, got {brief(count)}")
        label = entry.get("label", card_name)
        pictures = entry.get("pictures", [])
        if not isinstance(label, str) or not isinstance(pictures, list) or not all(isinstance(p, str) for p in pictures):
            raise CatalogError(f"{where}: 'label' must be text and 'pictures' a list of text")
        cards.append(Card(card_name, kind, value, count, label, tuple(pictures)))
    return Catalog(tuple(cards), source)


@lru_cache(maxsize=8)
def load_catalog(path: str | None = None) -> Catalog:
    """The deck file: the packaged ``taco_deck.toml``, or a maker's own file at ``path``."""
    if path is None:
        text = read_game_data(__package__ or "game.games.taco_vs_burrito", "data/deck.toml")
        return parse_catalog(text, "taco_deck.toml")
    try:
        text = read_setup_file(path).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CatalogError(f"{path}: cannot read: {exc}") from None
    return parse_catalog(text, path)


# --- setup and event checks -------------------------------------------------------------


def parse_setup(obj: dict[str, Any], catalog: Catalog | None = None) -> Setup:
    """Check line 1: 2-6 seats and the options ``seed``, ``deck``, ``first``, ``variant``, ``no_bueno_window_ms``."""
    raw = setup_options(obj, ("seed", "deck", "first", "variant", "no_bueno_window_ms"))
    cat = catalog if catalog is not None else load_catalog()
    seats = need_seats(obj, 6)
    options: dict[str, Any] = {
        "seed": 0,
        "deck": None,
        "first": 1,
        "variant": "open",
        "no_bueno_window_ms": DEFAULT_WINDOW_MS,
    }
    if "seed" in raw:
        if type(raw["seed"]) is not int:
            raise RuleInputError(f"setup option 'seed' must be a whole number, got {brief(raw['seed'])}")
        options["seed"] = raw["seed"]
    if "first" in raw:
        options["first"] = need_int(raw, "first", 1, seats)
    if "variant" in raw:
        options["variant"] = need_choice(raw, "variant", VARIANTS)
    if "no_bueno_window_ms" in raw:
        options["no_bueno_window_ms"] = need_number(raw, "no_bueno_window_ms")
    kinds = {c.name: c.kind for c in cat.cards}
    if "deck" in raw:
        deck = raw["deck"]
        if not isinstance(deck, list):
            raise RuleInputError(f"setup option 'deck' must be a list of card names, got {brief(deck)}")
        for i, card in enumerate(deck, start=1):
            if not isinstance(card, str) or card not in kinds:  # an object or list entry is not a card name
                raise RuleInputError(f"setup option 'deck': card {i} is {brief(card)}, not a card of {cat.source}")
        options["deck"] = list(deck)
        cards = deck
    else:
        cards = cat.full_deck()
    fillers = sum(1 for c in cards if kinds[c] != "health-inspector")
    if fillers < HAND_SIZE * seats:
        # T17: every seat must be able to hold 5 cards that are not Health Inspectors.
        raise RuleInputError(
            f"the deck has {fillers} cards that are not Health Inspectors; {seats} seats need {HAND_SIZE * seats}"
        )
    options["catalog"] = cat
    return Setup(game=name, seats=seats, options=options, players=parse_players(obj, seats))


def check_event(setup: Setup, obj: dict[str, Any]) -> Event:
    """Validate one later line's fields; legality against the game state is ``step``'s job."""
    kind = obj.get("event")
    if kind not in EVENTS:
        if kind is None:
            raise RuleInputError("missing field 'event'")
        raise RuleInputError(f"unknown event {brief(kind)} (expected one of {', '.join(EVENTS)})")
    obj["t"] = check_time(obj)
    n = setup.seats
    cat: Catalog = setup.options["catalog"]
    need_int(obj, "seat", 1, n)
    if kind == "overturn":
        overturn_check_event(obj, CALLS, n, None)
    if kind in ("place", "play", "discard"):
        _need_card(obj, "card", cat)
    if kind == "place":
        need_int(obj, "meal", 1, n)
    elif kind == "play":
        card_kind = cat[obj["card"]].kind
        if card_kind not in ACTIONS:
            how = {
                "no-bueno": "a No Bueno is played with a 'block' event",
                "health-inspector": "a Health Inspector is never played: it goes off when drawn",
            }.get(card_kind, f"a {card_kind} is put in a meal with a 'place' event")
            raise RuleInputError(f"cannot 'play' {obj['card']}: {how}")
        if card_kind in ("crafty-crow", "order-envy"):
            need_int(obj, "target", 1, n)
        if card_kind == "trash-panda" or (card_kind == "crafty-crow" and setup.options["variant"] == "open"):
            _need_card(obj, "item", cat)
        elif card_kind == "crafty-crow" and "item" in obj:
            _need_card(obj, "item", cat)
    elif kind == "choose":
        _need_card(obj, "item", cat)
    return obj


def _need_card(obj: dict[str, Any], key: str, cat: Catalog) -> str:
    if key not in obj:
        raise RuleInputError(f"missing field '{key}'")
    value = obj[key]
    if not isinstance(value, str) or value not in cat.names:
        raise RuleInputError(f"field '{key}' is {brief(value)}, not a card name of {cat.source}")
    return value


# --- state -------------------------------------------------------------------------------


@dataclass(slots=True)
class Pending:
    """A placed or played card waiting out the block window, with the No Buenos stacked on it."""

    seat: int
    card: str
    move: Event
    opened: float
    deadline: float
    #: Seats that blocked, in order; an odd number blocks the card (T9).
    chain: list[int] = field(default_factory=list)

    @property
    def top_seat(self) -> int:
        return self.chain[-1] if self.chain else self.seat


@dataclass(slots=True)
class Fight:
    """A Food Fight: who is still flipping, every card flipped so far, the winner once there is one."""

    caller: int
    flipped: list[tuple[int, str]] = field(default_factory=list)
    rounds: int = 0
    winner: int | None = None


@dataclass(slots=True)
class State:
    setup: Setup
    seats: int
    catalog: Catalog
    window: float
    variant: str
    rng: SeededRandom
    #: The draw pile, top LAST (``pile[-1]`` is the next card drawn).
    pile: list[str]
    hands: list[list[str]]
    meals: list[list[str]]
    trash: list[str] = field(default_factory=list)
    turn: int | None = None
    #: "move" (the seat to move may place, play or discard), "window", "choose" or "over".
    phase: str = "move"
    pending: Pending | None = None
    fight: Fight | None = None
    panda_pandas: int = 0
    t: float = 0.0
    turns: int = 0
    ended_by: int | None = None
    opening: list[Cue] = field(default_factory=list)
    kinds: dict[str, str] = field(default_factory=dict)
    values: dict[str, int] = field(default_factory=dict)
    #: Every event applied, in order: an overturn folds them again without the call (T19).
    history: History = field(default_factory=History)
    overturned: list[dict[str, Any]] = field(default_factory=list)


def new_state(setup: Setup) -> State:
    """Shuffle (or take the given deck), deal 5 each, replace Health Inspectors, and start the first turn."""
    o = setup.options
    cat: Catalog = o["catalog"]
    rng = SeededRandom(o["seed"])
    if o["deck"] is not None:
        deck = list(o["deck"])  # top first
    else:
        deck = cat.full_deck()
        rng.shuffle(deck)
    n = setup.seats
    state = State(
        setup=setup,
        seats=n,
        catalog=cat,
        window=o["no_bueno_window_ms"] / 1000.0,
        variant=o["variant"],
        rng=rng,
        pile=deck[::-1],
        hands=[[] for _ in range(n)],
        meals=[[] for _ in range(n)],
        kinds={c.name: c.kind for c in cat.cards},
        values={c.name: c.value for c in cat.cards},
    )
    first = o["first"]
    order = [(first - 1 + i) % n + 1 for i in range(n)]
    # Contract: "Dealing is one card at a time, starting with `first` and going clockwise, 5 rounds, from the top."
    for _ in range(HAND_SIZE):
        for seat in order:
            state.hands[seat - 1].append(state.pile.pop())
    cues = state.opening
    cues.append(Cue(0.0, "say", f"Taco vs Burrito: {n} seats, {_variant_text(state.variant)}. Seat {first} goes first."))
    # "No player should begin the game with a Health Inspector card in their hand. If you have a Health
    # Inspector, shuffle it back in the deck and take a new card." Contract: after the whole deal, each goes
    # back at a seeded position and the seat takes the top card. T5: never back on top ("a new card").
    for seat in order:
        hand = state.hands[seat - 1]
        while True:
            inspectors = [c for c in hand if state.kinds[c] == "health-inspector"]
            if not inspectors:
                break
            hand.remove(inspectors[0])
            below = rng.randint(1, len(state.pile))  # cards above it, counted from the top
            state.pile.insert(len(state.pile) - below, inspectors[0])
            hand.append(state.pile.pop())
            cues.append(Cue(0.0, "note", f"Seat {seat} had a Health Inspector: back in the deck, new card", (seat,)))
    _begin_turn(state, first, 0.0, cues)
    return state


def _variant_text(variant: str) -> str:
    return {"open": "meals face up", "secret": "Secret (meals face down)", "super-secret": "Super Secret"}[variant]


def opening_cues(state: State) -> list[Cue]:
    """The deal and the first draw, which ``new_state`` did."""
    return list(state.opening)


def _next_seat(state: State, seat: int) -> int:
    """ "After the first player begins, move clockwise around the table." """
    return seat % state.seats + 1


# --- time --------------------------------------------------------------------------------


def advance(state: State, t: float) -> list[Cue]:
    """Let time run to ``t``: a block window whose deadline is before ``t`` closes and its card resolves."""
    cues: list[Cue] = []
    p = state.pending
    if state.phase == "window" and p is not None and p.deadline + EPS < t:
        _resolve(state, p.deadline, cues, last=False)
    return cues


def finish(state: State) -> list[Cue]:
    """End of the log: "open windows close and the next turn begins, with its draw"."""
    return advance(state, float("inf"))


def is_over(state: State) -> bool:
    return state.phase == "over"


# --- events --------------------------------------------------------------------------------


def check_state(state: State, ev: Event) -> None:
    """Raise ``RuleInputError`` if a checked event is illegal in this state; changes nothing.

    ``step`` calls it first, so a bad event never half-applies; a live table calls it (after
    ``advance`` to the event's time) before journaling.
    """
    if state.phase == "over":
        raise RuleInputError(f"event '{ev['event']}' after the game is over")
    t = ev["t"]
    if t < state.t:
        raise RuleInputError(f"time goes backwards: t={t} after t={state.t}")
    kind = ev["event"]
    seat = ev["seat"]
    p = state.pending
    if kind == "overturn":
        overturn_target(state, ev, CALLS)
        return
    if kind == "block":
        if state.phase != "window" or p is None:
            raise RuleInputError(f"seat {seat} blocks, but no card is waiting in the block window")
        if p.top_seat == seat:
            what = "its own card" if not p.chain else "its own No Bueno"
            raise RuleInputError(f"seat {seat} cannot block {what}")
        if "no-bueno" not in state.hands[seat - 1]:
            raise RuleInputError(f"seat {seat} blocks without a no-bueno in hand")
        return
    if state.phase == "window":
        assert p is not None
        raise RuleInputError(
            f"seat {seat}'s {kind} at t={t:g} comes before seat {p.seat}'s {p.card} leaves the block window"
            f" (at t={p.deadline:g})"
        )
    if state.phase == "choose":
        fight = state.fight
        assert fight is not None and fight.winner is not None
        if kind != "choose":
            raise RuleInputError(f"seat {seat}'s {kind}: seat {fight.winner} must first choose a Food Fight card")
        if seat != fight.winner:
            raise RuleInputError(f"seat {seat} chooses, but seat {fight.winner} won the Food Fight")
        if ev["item"] not in [c for _, c in fight.flipped]:
            raise RuleInputError(f"seat {seat} chooses {ev['item']}, which was not flipped in this Food Fight")
        return
    if kind == "choose":
        raise RuleInputError(f"seat {seat} chooses, but no Food Fight is waiting for a choice")
    if seat != state.turn:
        raise RuleInputError(f"seat {seat} moved out of turn: it is seat {state.turn}'s turn")
    card = ev["card"]
    if card not in state.hands[seat - 1]:
        raise RuleInputError(f"seat {seat} has no {card} in hand")
    if kind == "place":
        if state.kinds[card] not in PLACEABLE:
            raise RuleInputError(f"cannot place {card} in a meal: only Ingredients, Tummy Aches and Hot Sauce Bosses")
    elif kind == "play":
        _check_play(state, ev)


def step(state: State, ev: Event) -> list[Cue]:
    """Apply one checked event at its time (``advance`` to it first); an illegal move raises ``RuleInputError``."""
    check_state(state, ev)
    t = ev["t"]
    state.t = t
    cues: list[Cue] = []
    kind = ev["event"]
    seat = ev["seat"]
    if kind == "overturn":
        _on_overturn(state, ev, t, cues)  # it writes the history it folded
        return cues
    state.history.append(ev)
    if kind == "block":
        _on_block(state, ev, t, cues)
        return cues
    if kind == "choose":
        _on_choose(state, ev, t, cues)
        return cues
    hand = state.hands[seat - 1]
    card = ev["card"]
    hand.remove(card)
    state.turns += 1
    if kind == "discard":
        # "You cannot skip a turn but you can discard a card." T15: a discard cannot be blocked.
        state.trash.append(card)
        cues.append(Cue(t, "say", f"Seat {seat} discards {card}", (seat,)))
        if not hand:
            _game_over(state, seat, t, cues)  # T3: the last card, discarded, ends the game too
        else:
            _begin_turn(state, _next_seat(state, seat), t, cues)
        return cues
    state.pending = Pending(seat, card, ev, t, t + state.window)
    cues.append(Cue(t, "say", _move_text(state, ev), (seat,)))
    if not hand:
        # "The game is over when ANY player plays their last card. ... You cannot block a player's last card!"
        cues.append(Cue(t, "say", f"Seat {seat}'s last card: it cannot be blocked!", (seat,)))
        _resolve(state, t, cues, last=True)
        return cues
    state.phase = "window"
    cues.append(Cue(t, "sound", "countdown"))
    return cues


def _check_play(state: State, ev: Event) -> None:
    """An action's target and item must be legal when it is played (T7)."""
    seat, card = ev["seat"], ev["card"]
    kind = state.kinds[card]
    if kind in ("crafty-crow", "order-envy"):
        target = ev["target"]
        if target == seat:
            raise RuleInputError(f"seat {seat}'s {card} must target another seat, not its own")
        if kind == "crafty-crow":
            meal = state.meals[target - 1]
            if not meal:
                raise RuleInputError(f"seat {seat}'s crafty-crow targets seat {target}'s meal, which is empty")
            item = ev.get("item")
            if item is not None and item not in meal:
                raise RuleInputError(f"seat {seat}'s crafty-crow: seat {target}'s meal has no {item}")
    elif kind == "trash-panda":
        item = ev["item"]
        if item not in state.trash:
            raise RuleInputError(f"seat {seat}'s trash-panda: the trash holds no {item}")
        if state.kinds[item] == "trash-panda" and state.panda_pandas >= PANDA_ON_PANDA_LIMIT:
            raise RuleInputError(
                f"seat {seat}'s trash-panda: a Trash Panda was already taken by a Trash Panda"
                f" {PANDA_ON_PANDA_LIMIT} times this game"
            )


def _move_text(state: State, ev: Event) -> str:
    seat, card = ev["seat"], ev["card"]
    if ev["event"] == "place":
        meal = "its own meal" if ev["meal"] == seat else f"seat {ev['meal']}'s meal"
        if state.variant != "open":
            return f"Seat {seat} puts a card face down in {meal}"  # T19
        return f"Seat {seat} puts {card} in {meal}"
    kind = state.kinds[card]
    if kind == "crafty-crow":
        what = ev.get("item") if state.variant == "open" else None
        return f"Seat {seat} plays Crafty Crow on seat {ev['target']}'s meal" + (f" for its {what}" if what else "")
    if kind == "trash-panda":
        return f"Seat {seat} plays Trash Panda for the {ev['item']} in the trash"
    if kind == "food-fight":
        return f"Seat {seat} calls a FOOD FIGHT!"
    return f"Seat {seat} plays Order Envy on seat {ev['target']}"


def _on_overturn(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    """T19: a challenge upheld against the table's block call (which No Bueno slammed first). The block is void: its
    No Bueno goes back to the blocker's hand; the card waits out what is left of its first window, or takes effect."""
    call = overturn_apply(state, ev, CALLS, new_state, advance, step)
    cues.append(Cue(t, "say", f"OVERTURNED! Seat {call['seat']}'s No Bueno does not count: it goes back to the hand",
                    (call["seat"],)))
    for e in overturn_dropped(state):
        cues.append(Cue(t, "note", f"seat {e['seat']}'s {e['event']} at t={e['t']:g} no longer applies"))


def _on_block(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    seat = ev["seat"]
    p = state.pending
    assert p is not None  # check_state made sure
    hand = state.hands[seat - 1]
    hand.remove("no-bueno")
    p.chain.append(seat)
    # "you can block a No Bueno with another No Bueno to make it a Si Bueno! And yes, you can keep
    # playing No Buenos": each block opens the window again (contract).
    p.deadline = t + state.window
    word = "NO BUENO" if len(p.chain) % 2 else "SI BUENO"
    cues.append(Cue(t, "say", f"{word}! Seat {seat} blocks", (seat,)))
    cues.append(Cue(t, "sound", "no-bueno"))
    if not hand:
        # T3: a No Bueno that is the blocker's last card ends the game; nobody may answer it.
        cues.append(Cue(t, "say", f"Seat {seat}'s last card: it cannot be blocked!", (seat,)))
        _resolve(state, t, cues, last=True, ender=seat)


def _resolve(state: State, t: float, cues: list[Cue], last: bool, ender: int | None = None) -> None:
    """The window closes: the card is blocked (odd No Buenos) or takes effect, then the next turn starts."""
    p = state.pending
    assert p is not None
    state.pending = None
    state.phase = "move"
    state.trash.extend("no-bueno" for _ in p.chain)  # "The card goes into the Trash Pile and has no effect."
    seat, card, ev = p.seat, p.card, p.move
    next_seat = _next_seat(state, seat)
    if len(p.chain) % 2:
        state.trash.append(card)
        cues.append(Cue(t, "say", f"Seat {seat}'s {_shown(state, ev)} is blocked and goes in the trash", (seat,)))
    elif ev["event"] == "place":
        state.meals[ev["meal"] - 1].append(card)
        cues.append(Cue(t, "note", f"Seat {seat}'s card is in seat {ev['meal']}'s meal", (seat,)))
    else:
        kind = state.kinds[card]
        if kind == "crafty-crow":
            _crafty_crow(state, seat, ev, t, cues)
            state.trash.append(card)
        elif kind == "trash-panda":
            _trash_panda(state, seat, ev["item"], t, cues)
            state.trash.append(card)
        elif kind == "order-envy":
            _order_envy(state, seat, ev["target"], t, cues)
            state.trash.append(card)
        else:
            state.trash.append(card)  # "The Food Fight is placed in the Trash Pile"
            if last:
                # T3: a game that ends with a Food Fight ends before any flip: flips only move cards to hands.
                cues.append(Cue(t, "note", "The game ends before the Food Fight: hands do not score"))
            else:
                winner = _food_fight(state, seat, t, cues)
                if winner is not None:
                    state.phase = "choose"
                    state.turn = winner
                    cues.append(Cue(t, "light", "answer", (winner,)))
                    return
    if last:
        _game_over(state, ender if ender is not None else seat, t, cues)
        return
    _begin_turn(state, next_seat, t, cues)


def _shown(state: State, ev: Event) -> str:
    if ev["event"] == "place" and state.variant != "open":
        return "face-down card"
    return str(ev["card"])


def _crafty_crow(state: State, seat: int, ev: Event, t: float, cues: list[Cue]) -> None:
    """ "you steal any item from one other player's Taco or Burrito and place it directly in your meal" """
    target = ev["target"]
    meal = state.meals[target - 1]
    item = ev.get("item")
    if item is None:
        # T10: Secret variants, "Opponents playing a CRAFTY CROW must select a card blindly."
        item = meal[state.rng.randrange(len(meal))]
    meal.remove(item)
    state.meals[seat - 1].append(item)
    shown = item if state.variant == "open" else "a face-down card"
    cues.append(Cue(t, "say", f"Crafty Crow! Seat {seat} steals {shown} from seat {target}", (seat, target)))


def _trash_panda(state: State, seat: int, item: str, t: float, cues: list[Cue]) -> None:
    """ "select any card from the Trash Pile and put it into your hand" """
    state.trash.remove(item)
    if state.kinds[item] == "trash-panda":
        state.panda_pandas += 1
    cues.append(Cue(t, "say", f"Trash Panda! Seat {seat} takes {item} from the trash", (seat,)))
    _to_hand(state, seat, item, t, cues)


def _to_hand(state: State, seat: int, card: str, t: float, cues: list[Cue]) -> None:
    """T4: a Health Inspector that reaches a hand goes off at once: the meal and the Inspector go in the trash."""
    if state.kinds[card] == "health-inspector":
        _inspect(state, seat, card, t, cues)
    else:
        state.hands[seat - 1].append(card)


def _inspect(state: State, seat: int, card: str, t: float, cues: list[Cue]) -> None:
    """ "all the contents of your meal must immediately go into the Trash Pile" """
    meal = state.meals[seat - 1]
    state.trash.extend(meal)
    lost = len(meal)
    meal.clear()
    state.trash.append(card)
    cues.append(Cue(t, "say", f"HEALTH INSPECTOR! Seat {seat}'s meal ({lost} cards) goes in the trash", (seat,)))
    cues.append(Cue(t, "sound", "health-inspector"))


def _order_envy(state: State, seat: int, target: int, t: float, cues: list[Cue]) -> None:
    """ "swap your whole Taco/Burrito and your hand with any other player" """
    a, b = seat - 1, target - 1
    state.meals[a], state.meals[b] = state.meals[b], state.meals[a]
    state.hands[a], state.hands[b] = state.hands[b], state.hands[a]
    cues.append(Cue(t, "say", f"ORDER ENVY! Seat {seat} swaps meal and hand with seat {target}", (seat, target)))


def _food_fight(state: State, caller: int, t: float, cues: list[Cue]) -> int | None:
    """Flip until one seat has the single highest Ingredient; None if the pile runs out (cancelled).

    "Each player flips over a card from the Draw Pile beginning with the player who called the Food Fight."
    "What if everyone flips and no one gets an Ingredient? Everyone flips again." "The people who tied flip
    again and the other players are out." Contract: every round starts with the caller, or the first still
    in going clockwise.
    """
    fight = Fight(caller)
    state.fight = fight
    n = state.seats
    flipping = [(caller - 1 + i) % n + 1 for i in range(n)]
    cues.append(Cue(t, "light", "battle", tuple(flipping)))
    while True:
        fight.rounds += 1
        flips: list[tuple[int, str]] = []
        for s in flipping:
            if not state.pile:
                # "If at any time you run out of cards in the Draw Pile and can't complete the Food Fight, the
                # Food Fight is canceled and all flipped cards are shuffled to make the remaining Draw Pile."
                cards = [c for _, c in fight.flipped]
                _return_flips(state, cards)
                state.fight = None
                cues.append(Cue(t, "say", "The draw pile ran out: the Food Fight is cancelled"))
                return None
            card = state.pile.pop()
            flips.append((s, card))
            fight.flipped.append((s, card))
        cues.append(Cue(t, "note", "Food Fight flips: " + ", ".join(f"seat {s} {c}" for s, c in flips)))
        best = max((state.values[c] for _, c in flips if state.kinds[c] == "ingredient"), default=0)
        if best <= 0:
            continue  # no Ingredient: the same seats flip again
        top = [s for s, c in flips if state.kinds[c] == "ingredient" and state.values[c] == best]
        if len(top) == 1:
            fight.winner = top[0]
            cues.append(Cue(t, "say", f"Seat {top[0]} wins the Food Fight and picks a flipped card", (top[0],)))
            return top[0]
        flipping = top  # already in clockwise order from the caller
        cues.append(Cue(t, "say", "Tie! " + " and ".join(f"seat {s}" for s in top) + " flip again"))


def _return_flips(state: State, cards: list[str]) -> None:
    """ "all remaining flipped cards are shuffled into the Draw Pile" (seeded, T12)."""
    state.pile.extend(cards)
    state.rng.shuffle(state.pile)


def _on_choose(state: State, ev: Event, t: float, cues: list[Cue]) -> None:
    fight = state.fight
    assert fight is not None and fight.winner is not None
    seat, item = ev["seat"], ev["item"]
    cards = [c for _, c in fight.flipped]
    cards.remove(item)
    state.fight = None
    state.phase = "move"
    cues.append(Cue(t, "say", f"Seat {seat} takes {item} from the Food Fight", (seat,)))
    _to_hand(state, seat, item, t, cues)
    _return_flips(state, cards)
    # "The winner of the Food Fight takes the next turn."
    _begin_turn(state, seat, t, cues)


def _begin_turn(state: State, seat: int, t: float, cues: list[Cue]) -> None:
    """Draw for the seat to move; a drawn Health Inspector trashes its meal and ends the turn."""
    while True:
        state.turn = seat
        state.phase = "move"
        cues.append(Cue(t, "light", "answer", (seat,)))
        if not state.pile:
            # "When all the cards in the Draw Pile are gone, continue playing but skip the draw part of your
            # turn. DO NOT reshuffle the Trash Pile."
            cues.append(Cue(t, "note", f"Seat {seat}'s turn: no draw, the pile is empty", (seat,)))
            return
        card = state.pile.pop()
        if state.kinds[card] != "health-inspector":
            state.hands[seat - 1].append(card)
            cues.append(Cue(t, "note", f"Seat {seat}'s turn: draws a card ({len(state.pile)} left)", (seat,)))
            return
        # "When you draw a Health Inspector, all the contents of your meal must immediately go into the
        # Trash Pile and your turn is over. ... the Health Inspector is unblockable."
        _inspect(state, seat, card, t, cues)
        seat = _next_seat(state, seat)


def _game_over(state: State, seat: int, t: float, cues: list[Cue]) -> None:
    state.phase = "over"
    state.turn = None
    state.ended_by = seat
    scores = {s: score(state, s) for s in range(1, state.seats + 1)}
    table = ", ".join(f"seat {s}: {p}" for s, p in scores.items())
    win = winners(state)
    cues.append(Cue(t, "say", f"Seat {seat} played its last card: the game is over! {table}"))
    cues.append(Cue(t, "say", "Winner: " + " and ".join(f"seat {s}" for s in win), tuple(win)))
    cues.append(Cue(t, "sound", "win"))
    cues.append(Cue(t, "light", "winner", tuple(win)))


# --- scores, views and legal moves ----------------------------------------------------------


def meal_score(cards: list[str], kinds: dict[str, str], values: dict[str, int]) -> int:
    """ "Add up all Ingredients and subtract all Tummy Aches and then multiply by 2 for each Hot Sauce Boss." """
    total = 0
    bosses = 0
    for c in cards:
        k = kinds[c]
        if k == "hot-sauce-boss":
            bosses += 1
        elif k in ("ingredient", "tummy-ache"):
            total += values[c]
    return int(total * 2**bosses)


def score(state: State, seat: int) -> int:
    return meal_score(state.meals[seat - 1], state.kinds, state.values)


def winners(state: State) -> list[int]:
    """ "The player with the most points wins!" T14: everyone tied on the top score wins."""
    scores = [score(state, s) for s in range(1, state.seats + 1)]
    best = max(scores)
    return [s for s in range(1, state.seats + 1) if scores[s - 1] == best]


def zones(state: State) -> dict[str, list[str]]:
    """Where every card is: the conservation property sums these to the full deck."""
    waiting: list[str] = []
    if state.pending is not None:
        waiting = [state.pending.card] + ["no-bueno"] * len(state.pending.chain)
    return {
        "draw_pile": list(state.pile),
        "hands": [c for h in state.hands for c in h],
        "meals": [c for m in state.meals for c in m],
        "trash": list(state.trash),
        "flipped": [c for _, c in state.fight.flipped] if state.fight else [],
        "waiting": waiting,
    }


def can_look(state: State, viewer: int, owner: int) -> bool:
    """Secret: "Other players can't see the cards you've put in your meal but you can look." Super Secret: nobody."""
    if state.phase == "over" or state.variant == "open":
        return True
    return state.variant == "secret" and viewer == owner


def player_view(state: State, seat: int) -> dict[str, Any]:
    """What one seat may know: its own hand, the meals it may look at (``None`` for a face-down card), the trash."""
    p = state.pending
    pending = None
    if p is not None:
        shown = p.card if (p.move["event"] != "place" or state.variant == "open" or p.seat == seat) else None
        pending = {
            "seat": p.seat,
            "card": shown,
            "event": p.move["event"],
            "meal": p.move.get("meal"),
            "target": p.move.get("target"),
            "item": p.move.get("item") if state.variant == "open" or p.seat == seat else None,
            "chain": list(p.chain),
            "deadline": p.deadline,
        }
    return {
        "seat": seat,
        "seats": state.seats,
        "turn": state.turn,
        "phase": state.phase,
        "variant": state.variant,
        "hand": list(state.hands[seat - 1]),
        "hand_sizes": [len(h) for h in state.hands],
        "meals": [
            list(m) if can_look(state, seat, o + 1) else [None] * len(m) for o, m in enumerate(state.meals)
        ],
        "trash": list(state.trash),
        "draw_pile": len(state.pile),
        "pending": pending,
        "flipped": [c for _, c in state.fight.flipped] if state.fight else [],
        "fight_winner": state.fight.winner if state.fight else None,
        "panda_pandas": state.panda_pandas,
    }


def legal_moves(state: State) -> list[dict[str, Any]]:
    """Every legal move (without ``t``) of the seat to act: a turn's place/play/discard, or a Food Fight choice."""
    if state.phase == "choose":
        assert state.fight is not None and state.fight.winner is not None
        seat = state.fight.winner
        return [{"event": "choose", "seat": seat, "item": c} for c in sorted({c for _, c in state.fight.flipped})]
    if state.phase != "move" or state.turn is None:
        return []
    seat = state.turn
    n = state.seats
    moves: list[dict[str, Any]] = []
    for card in sorted(set(state.hands[seat - 1])):
        kind = state.kinds[card]
        moves.append({"event": "discard", "seat": seat, "card": card})
        if kind in PLACEABLE:
            moves += [{"event": "place", "seat": seat, "card": card, "meal": m} for m in range(1, n + 1)]
        elif kind == "order-envy":
            moves += [{"event": "play", "seat": seat, "card": card, "target": o} for o in range(1, n + 1) if o != seat]
        elif kind == "food-fight":
            moves.append({"event": "play", "seat": seat, "card": card})
        elif kind == "crafty-crow":
            for o in range(1, n + 1):
                if o == seat or not state.meals[o - 1]:
                    continue
                if state.variant == "open":
                    moves += [
                        {"event": "play", "seat": seat, "card": card, "target": o, "item": i}
                        for i in sorted(set(state.meals[o - 1]))
                    ]
                else:
                    moves.append({"event": "play", "seat": seat, "card": card, "target": o})
        elif kind == "trash-panda":
            for item in sorted(set(state.trash)):
                if state.kinds[item] == "trash-panda" and state.panda_pandas >= PANDA_ON_PANDA_LIMIT:
                    continue
                moves.append({"event": "play", "seat": seat, "card": card, "item": item})
    return moves


def can_block(state: State, seat: int) -> bool:
    """True if ``seat`` may slam NO BUENO now."""
    p = state.pending
    return (
        state.phase == "window"
        and p is not None
        and p.top_seat != seat
        and "no-bueno" in state.hands[seat - 1]
    )


# --- the replay summary -----------------------------------------------------------------------


def summary(state: State) -> dict[str, Any]:
    """The ``burrito-table replay --json`` object (its documented contract, docs/taco-vs-burrito.md)."""
    seats = range(1, state.seats + 1)
    over = state.phase == "over"
    turn = state.turn
    if state.phase == "choose" and state.fight is not None:
        turn = state.fight.winner
    return {
        "game": name,
        "seats": state.seats,
        "turn": None if over else turn,
        "over": over,
        "winners": winners(state) if over else [],
        "scores": {str(s): score(state, s) for s in seats},
        "meals": {str(s): list(state.meals[s - 1]) for s in seats},
        "hands": {str(s): list(state.hands[s - 1]) for s in seats},
        "draw_pile": len(state.pile),
        "trash": list(state.trash),
    } | ({"overturned": [dict(o) for o in state.overturned]} if state.overturned else {})


def standings(summary: dict[str, Any]) -> list[str]:
    """The readable ending of ``replay``: scores best first, and the winners."""
    order = sorted(summary["scores"], key=lambda s: (-summary["scores"][s], int(s)))
    out = ["", "Standings"]
    for s in order:
        out.append(f"  seat {s}: {counted(summary['scores'][s], 'point')}"
                   f" ({counted(len(summary['meals'][s]), 'card')} in the meal)")
    if summary["over"]:
        out.append("  Winner: " + " and ".join(f"seat {w}" for w in summary["winners"]))
    else:
        out.append(f"  Not over: seat {summary['turn']} to move, {counted(summary['draw_pile'], 'card')} in the draw pile")
    return out
