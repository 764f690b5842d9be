"""Taco vs Burrito bots for empty seats, and a driver that plays whole games as table-event logs.

Three levels:

- ``easy``: a uniformly random legal move; slams NO BUENO now and then at random.
- ``normal``: greedy, aiming at the leader: the move that most raises (its score - the best other score)
  right now; blocks any card that would lower that.
- ``hard``: a one-round heuristic ranks the moves (score margin after it, minus the damage the opponents
  can be expected to do before its next turn, minus what the card was worth to keep; No Buenos saved for
  big swings); the best few are then played out for a few turns in worlds sampled from the cards this
  seat has not seen (``_worlds``), every seat playing a fast greedy policy (``_policy``), and the best
  summed outcome wins. It ends the game only when ending wins.

Bots see only what their seat may see (``taco_vs_burrito.player_view``): their own hand, the meals the
variant lets them look at, the trash and the hand sizes. Every bot is seeded; the same seed plays the same
game. ``play_game`` returns the log (setup line first), which replays to the same result.
"""

from __future__ import annotations

import copy
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from game.games.taco_vs_burrito import rules as tvb
from game.log import Table

LEVELS = ("easy", "normal", "hard")
Move = dict[str, Any]
UNKNOWN = None  # a face-down meal card


class Bot:
    """Base: the shared bookkeeping. Subclasses choose moves, Food Fight picks and blocks."""

    level = "easy"

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    def move(self, state: tvb.State) -> Move:
        """A legal move (without ``t``) for the turn or the Food Fight choice this seat owes."""
        return self.rng.choice(tvb.legal_moves(state))

    def block(self, state: tvb.State) -> bool:
        """Whether to slam NO BUENO on the card now waiting (only asked when the seat may block)."""
        return self.rng.random() < 0.3


class EasyBot(Bot):
    level = "easy"


class _Eval:
    """Scores as one seat sees them: face-down cards count as an average placeable card."""

    def __init__(self, state: tvb.State, seat: int) -> None:
        self.seat = seat
        self.view = tvb.player_view(state, seat)
        self.kinds = state.kinds
        self.values = state.values
        self.n = state.seats
        self.meals: list[list[str | None]] = self.view["meals"]
        full = Counter(state.catalog.full_deck()) if state.setup.options["deck"] is None else Counter(
            state.setup.options["deck"]
        )
        seen = Counter(self.view["hand"]) + Counter(self.view["trash"])
        for m in self.meals:
            seen.update(c for c in m if c is not UNKNOWN)
        self.unseen = full - seen
        placeable = [c for c in self.unseen.elements() if self.kinds[c] in ("ingredient", "tummy-ache")]
        self.unknown_value = sum(self.values[c] for c in placeable) / len(placeable) if placeable else 0.0

    def meal_score(self, meal: list[str | None]) -> float:
        total = 0.0
        bosses = 0
        for c in meal:
            if c is UNKNOWN:
                total += self.unknown_value
            elif self.kinds[c] == "hot-sauce-boss":
                bosses += 1
            else:
                total += self.values[c]
        return total * 2**bosses

    def scores(self, meals: list[list[str | None]]) -> list[float]:
        return [self.meal_score(m) for m in meals]

    def margin(self, scores: list[float], seat: int | None = None) -> float:
        """Score minus the best other score: above 0 means winning."""
        me = (seat or self.seat) - 1
        return scores[me] - max(s for i, s in enumerate(scores) if i != me)

    def after(self, move: Move) -> tuple[list[list[str | None]], str | None]:
        """The meals once ``move`` takes effect, and the card it brings into the hand (if any)."""
        meals = [list(m) for m in self.meals]
        me = self.seat - 1
        card: str | None = move.get("card")
        gained: str | None = None
        if move["event"] == "place":
            meals[move["meal"] - 1].append(card)
        elif move["event"] == "choose":
            gained = move["item"]
        elif move["event"] == "play" and card is not None:
            kind = self.kinds[card]
            if kind == "crafty-crow":
                target = meals[move["target"] - 1]
                item = move.get("item")
                if item is None:
                    item = UNKNOWN
                    target.pop()
                else:
                    target.remove(item)
                meals[me].append(item)
            elif kind == "order-envy":
                t = move["target"] - 1
                meals[me], meals[t] = meals[t], meals[me]
            elif kind == "trash-panda":
                gained = move["item"]
        if gained is not None and self.kinds[gained] == "health-inspector":
            meals[me] = []
            gained = None
        return meals, gained


class NormalBot(Bot):
    """Greedy: the best immediate margin; Tummy Aches go to the leader because that is what raises it."""

    level = "normal"

    def move(self, state: tvb.State) -> Move:
        ev = _Eval(state, self.seat)
        base = ev.margin(ev.scores(ev.meals))
        best: list[Move] = []
        best_value = float("-inf")
        for move in tvb.legal_moves(state):
            meals, gained = ev.after(move)
            value = ev.margin(ev.scores(meals)) - base
            value += 0.01 * (_keep_worth(ev, gained) - _keep_worth(ev, move.get("card")))
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif abs(value - best_value) <= 1e-9:
                best.append(move)
        return self.rng.choice(best)

    def block(self, state: tvb.State) -> bool:
        return _block_gain(state, self.seat) >= 1.0


def _keep_worth(ev: _Eval, card: str | None) -> float:
    """What a card in hand is worth keeping, in points (a rough guide for both smart levels)."""
    if card is None:
        return 0.0
    kind = ev.kinds[card]
    if kind == "ingredient":
        return 0.8 * ev.values[card]
    return {
        "tummy-ache": 1.0,
        "hot-sauce-boss": 3.0,
        "no-bueno": 5.0,
        "order-envy": 4.0,
        "crafty-crow": 2.5,
        "trash-panda": 1.5,
        "food-fight": 1.0,
    }.get(kind, 0.0)


def _block_gain(state: tvb.State, seat: int) -> float:
    """How much this seat's margin rises if it blocks the waiting card (flipping whether it takes effect)."""
    return _block_outcome(state, seat)[0]


def _block_outcome(state: tvb.State, seat: int) -> tuple[float, float]:
    """(margin gained by blocking, margin once the card resolves after the block), as this seat sees it."""
    p = state.pending
    if p is None or p.move["event"] == "discard":
        return 0.0, 0.0
    ev = _Eval(state, seat)
    move = p.move if (p.move["event"] != "place" or state.variant == "open" or p.seat == seat) else None
    if move is None:
        # A face-down card: nothing to go on.
        base = ev.margin(ev.scores(ev.meals))
        return 0.0, base
    mover = _Eval(state, p.seat)
    meals_effect, _ = mover.after(move)
    if state.variant != "open":
        meals_effect = [
            m if tvb.can_look(state, seat, i + 1) else [UNKNOWN] * len(m) for i, m in enumerate(meals_effect)
        ]
    with_effect = ev.margin(ev.scores(meals_effect))
    without = ev.margin(ev.scores(ev.meals))
    if p.move["event"] == "play" and state.kinds[p.card] == "order-envy" and p.move["target"] == seat:
        with_effect -= 3.0  # the hand goes too, No Buenos and all
    takes_effect = len(p.chain) % 2 == 0
    if takes_effect:
        return without - with_effect, without
    return with_effect - without, with_effect


class HardBot(Bot):
    """Heuristic ranking, then short rollouts of the best moves in sampled worlds (hidden cards guessed, never read)."""

    level = "hard"

    #: Rollout budget per decision: sampled worlds, candidate moves tried, turns per rollout.
    worlds = 12
    candidates = 4
    max_turns = 4

    def move(self, state: tvb.State) -> Move:
        ev = _Eval(state, self.seat)
        view = ev.view
        last = len(view["hand"]) == 1 and view["phase"] == "move"
        ranked: list[tuple[float, int, Move]] = []
        for i, move in enumerate(tvb.legal_moves(state)):
            ranked.append((self._value(ev, move, last), -i, move))
        ranked.sort(key=lambda r: (r[0], r[1]), reverse=True)
        if last or len(ranked) == 1 or self.worlds <= 0:
            return ranked[0][2]
        # Look-ahead: the heuristic's best few, each played out in the same sampled worlds.
        top = [r[2] for r in ranked[: self.candidates]]
        worlds = _worlds(state, self.seat, self.worlds, self.rng)
        me = self.seat - 1
        best, best_value = top[0], float("-inf")
        for move in top:
            sm = _sim_move(move)
            value = sum(_rollout(w.copy(), me, sm, view["flipped"], self.max_turns) for w in worlds)
            if value > best_value + 1e-9:
                best, best_value = move, value
        return best

    def _value(self, ev: _Eval, move: Move, last: bool) -> float:
        meals, gained = ev.after(move)
        scores = ev.scores(meals)
        margin = ev.margin(scores)
        if last:
            # A last card cannot be blocked and ends the game: only the final margin counts.
            return margin + (1000.0 if margin > 0 else 500.0 if margin == 0 else 0.0)
        card = move.get("card")
        view = ev.view
        keep = self._future(ev)
        value = margin - self._threat(ev, scores, len(view["hand"]) - (1 if card else 0))
        value += keep * (_keep_worth(ev, gained) - self._worth(ev, card))
        if card is not None and move["event"] != "discard":
            value -= self._block_risk(ev, move, margin - ev.margin(ev.scores(ev.meals)))
        if card is not None and ev.kinds[card] == "food-fight":
            value += 1.5  # a card for the hand and, often, the next turn
        if view["draw_pile"] == 0 and len(view["hand"]) == 2 and margin < 0:
            # Ending next turn would lose: a Trash Panda keeps the hand at two cards.
            value += 2.0 if move.get("card") and ev.kinds[move["card"]] == "trash-panda" else 0.0
        return value

    def _future(self, ev: _Eval) -> float:
        """How much cards kept in hand still matter: 1 with many turns left, 0 when the game is about to end.

        With the pile empty, the game ends at the latest when the smallest hand runs out.
        """
        view = ev.view
        others = [h for i, h in enumerate(view["hand_sizes"]) if i != self.seat - 1]
        rounds = view["draw_pile"] / ev.n + min(others + [len(view["hand"])])
        return max(0.0, min(1.0, (rounds - 1) / 3))

    def _worth(self, ev: _Eval, card: str | None) -> float:
        if card is None:
            return 0.0
        kind = ev.kinds[card]
        if kind == "order-envy":
            # Worth most near the end, when meals stop changing and a last card cannot be blocked.
            return 4.0 + 8.0 / (1 + ev.view["draw_pile"] / ev.n)
        if kind == "no-bueno":
            return 6.0
        return _keep_worth(ev, card)

    def _block_risk(self, ev: _Eval, move: Move, gain: float) -> float:
        """Expected loss if an opponent holding a No Bueno blocks this move (only a gain can be lost)."""
        if gain <= 0:
            return 0.0
        p_nb = self._p_holds(ev, "no-bueno", max(ev.view["hand_sizes"][o] for o in self._others(ev)))
        return 0.3 * p_nb * gain

    def _others(self, ev: _Eval) -> list[int]:
        return [o for o in range(ev.n) if o != self.seat - 1]

    def _p_holds(self, ev: _Eval, kind: str, hand: int) -> float:
        total = sum(ev.unseen.values())
        if total <= 0:
            return 0.0
        k = sum(c for name, c in ev.unseen.items() if ev.kinds[name] == kind)
        return 1.0 - (1.0 - k / total) ** hand

    def _threat(self, ev: _Eval, scores: list[float], my_hand: int) -> float:
        """Expected margin lost to the opponents' replies before this seat moves again.

        Each opponent is assumed to aim at its leader; if that is this seat, it does the worst it
        probably can: swap meals (Order Envy), steal the best item (Crafty Crow), or add the worst
        Tummy Ache, weighted by the chance it holds such a card.
        """
        me = self.seat - 1
        mine = scores[me]
        meal = ev.meals  # the current meal contents are close enough for the item that would be stolen
        total = 0.0
        for o in self._others(ev):
            leader = max((i for i in range(ev.n) if i != o), key=lambda i: scores[i])
            if leader != me:
                continue
            hand = ev.view["hand_sizes"][o]
            losses = []
            if mine > scores[o]:
                losses.append(self._p_holds(ev, "order-envy", hand) * (mine - scores[o]) * 2)
            if meal[me]:
                best_item = max(
                    (abs(ev.values[c]) * 2 if c is not UNKNOWN and ev.kinds[c] != "hot-sauce-boss" else abs(mine) / 2)
                    for c in meal[me]
                )
                losses.append(self._p_holds(ev, "crafty-crow", hand) * best_item)
            bosses = sum(1 for c in meal[me] if c is not UNKNOWN and ev.kinds[c] == "hot-sauce-boss")
            losses.append(self._p_holds(ev, "tummy-ache", hand) * 2.5 * 2**bosses)
            total += max(losses)
        return 0.5 * total

    def block(self, state: tvb.State) -> bool:
        gain = _block_gain(state, self.seat)
        hand = state.hands[self.seat - 1]
        if len(hand) == 1:
            # The block would be the last card and end the game: only if that wins.
            gain, final = _block_outcome(state, self.seat)
            return gain > 0 and final > 0
        nb = hand.count("no-bueno")
        threshold = (3.0 if nb >= 2 else 5.0) * self._future(_Eval(state, self.seat))
        return gain >= max(threshold, 1.0)


# --- the hard bot's look-ahead: determinized rollouts --------------------------------------------

_KEEP_ORDER = {  # which card a fast rollout player keeps or takes first (higher = better)
    "order-envy": 9.0, "no-bueno": 8.0, "hot-sauce-boss": 6.0, "crafty-crow": 4.0, "trash-panda": 2.0,
    "food-fight": 1.5, "tummy-ache": 1.0, "health-inspector": -9.0,
}


class _Sim:
    """A stripped-down copy of one *sampled* game (hidden cards dealt at random) for fast rollouts.

    Seats are 0-based here. ``tot``/``bos`` cache each meal's sum and Hot Sauce Boss count so a
    score is one shift. Every seat plays the fast greedy policy ``_policy``; blocks follow ``_wants_block``.
    Not the rules engine: no times, no cues, no checks (the moves come from ``legal_moves`` or the policy).
    """

    __slots__ = ("n", "hands", "meals", "tot", "bos", "pile", "trash", "pandas", "kinds", "values", "rng", "turns")

    def __init__(self, n: int, hands: list[list[str]], meals: list[list[str]], pile: list[str], trash: list[str],
                 pandas: int, kinds: dict[str, str], values: dict[str, int], rng: random.Random) -> None:
        self.n, self.hands, self.meals, self.pile, self.trash = n, hands, meals, pile, trash
        self.pandas, self.kinds, self.values, self.rng = pandas, kinds, values, rng
        self.tot = [sum(values[c] for c in m) for m in meals]
        self.bos = [sum(1 for c in m if kinds[c] == "hot-sauce-boss") for m in meals]
        self.turns = 0

    def copy(self) -> _Sim:
        s = object.__new__(_Sim)
        s.n, s.kinds, s.values, s.rng, s.pandas, s.turns = self.n, self.kinds, self.values, self.rng, self.pandas, 0
        s.hands = [list(h) for h in self.hands]
        s.meals = [list(m) for m in self.meals]
        s.tot, s.bos, s.pile, s.trash = list(self.tot), list(self.bos), list(self.pile), list(self.trash)
        return s

    def scores(self) -> list[int]:
        return [t << b for t, b in zip(self.tot, self.bos)]

    # -- effects --------------------------------------------------------------------------------
    def scores_after(self, s: int, move: tuple[Any, ...]) -> list[int]:
        """The scores once ``move`` by seat ``s`` takes effect (no change to the sim)."""
        tot, bos = list(self.tot), list(self.bos)
        kind = move[0]
        if kind == "place":
            c, m = move[1], move[2]
            if self.kinds[c] == "hot-sauce-boss":
                bos[m] += 1
            else:
                tot[m] += self.values[c]
        elif kind == "crow":
            o, item = move[1], move[2]
            if item is not None:
                if self.kinds[item] == "hot-sauce-boss":
                    bos[o] -= 1
                    bos[s] += 1
                else:
                    v = self.values[item]
                    tot[o] -= v
                    tot[s] += v
        elif kind == "envy":
            o = move[1]
            tot[s], tot[o] = tot[o], tot[s]
            bos[s], bos[o] = bos[o], bos[s]
        return [t << b for t, b in zip(tot, bos)]

    def _add(self, m: int, c: str) -> None:
        self.meals[m].append(c)
        if self.kinds[c] == "hot-sauce-boss":
            self.bos[m] += 1
        else:
            self.tot[m] += self.values[c]

    def _remove(self, m: int, c: str) -> None:
        self.meals[m].remove(c)
        if self.kinds[c] == "hot-sauce-boss":
            self.bos[m] -= 1
        else:
            self.tot[m] -= self.values[c]

    def _to_hand(self, s: int, c: str) -> None:
        if self.kinds[c] == "health-inspector":
            self._inspect(s, c)
        else:
            self.hands[s].append(c)

    def _inspect(self, s: int, c: str) -> None:
        self.trash.extend(self.meals[s])
        self.trash.append(c)
        self.meals[s] = []
        self.tot[s] = self.bos[s] = 0

    def effect(self, s: int, move: tuple[Any, ...], last: bool) -> int:
        """Apply an unblocked move's effect; returns the seat whose turn is next."""
        kind = move[0]
        nxt = (s + 1) % self.n
        if kind == "place":
            self._add(move[2], move[1])
            return nxt
        if kind == "crow":
            o, item = move[1], move[2]
            if item is None or item not in self.meals[o]:
                item = self.rng.choice(self.meals[o])  # a blind pick in the Secret variants
            self._remove(o, item)
            self._add(s, item)
            self.trash.append("crafty-crow")
        elif kind == "envy":
            o = move[1]
            self.meals[s], self.meals[o] = self.meals[o], self.meals[s]
            self.hands[s], self.hands[o] = self.hands[o], self.hands[s]
            self.tot[s], self.tot[o] = self.tot[o], self.tot[s]
            self.bos[s], self.bos[o] = self.bos[o], self.bos[s]
            self.trash.append("order-envy")
        elif kind == "panda":
            self.trash.remove(move[1])
            if self.kinds[move[1]] == "trash-panda":
                self.pandas += 1
            self.trash.append("trash-panda")
            self._to_hand(s, move[1])
        elif kind == "fight":
            self.trash.append("food-fight")
            if not last:
                return self._fight(s)
        return nxt

    def _fight(self, caller: int) -> int:
        n, kinds, values, pile = self.n, self.kinds, self.values, self.pile
        flipping = [(caller + i) % n for i in range(n)]
        flipped: list[str] = []
        while True:
            flips = []
            for f in flipping:
                if not pile:
                    pile.extend(flipped)
                    self.rng.shuffle(pile)
                    return (caller + 1) % n
                c = pile.pop()
                flips.append((f, c))
                flipped.append(c)
            best = max((values[c] for _, c in flips if kinds[c] == "ingredient"), default=0)
            if best <= 0:
                continue
            top = [f for f, c in flips if kinds[c] == "ingredient" and values[c] == best]
            if len(top) == 1:
                win = top[0]
                pick = max(flipped, key=lambda c: _KEEP_ORDER.get(kinds[c], values[c] * 0.8))
                flipped.remove(pick)
                self._to_hand(win, pick)
                pile.extend(flipped)
                self.rng.shuffle(pile)
                return win
            flipping = top

    # -- a whole turn ---------------------------------------------------------------------------
    def begin(self, s: int) -> int:
        """The draw at the start of seat ``s``'s turn; a Health Inspector passes the turn on."""
        while self.pile:
            c = self.pile.pop()
            if self.kinds[c] != "health-inspector":
                self.hands[s].append(c)
                return s
            self._inspect(s, c)
            s = (s + 1) % self.n
        return s

    def play(self, s: int, move: tuple[Any, ...]) -> int | None:
        """Seat ``s`` makes ``move`` (its card leaves the hand); the next seat to move, or None when over."""
        self.turns += 1
        hand = self.hands[s]
        card = move[-1] if move[0] == "discard" else _MOVE_CARD[move[0]] if move[0] != "place" else move[1]
        hand.remove(card)
        if move[0] == "discard":
            self.trash.append(card)
            return None if not hand else (s + 1) % self.n
        if not hand:
            self.effect(s, move, last=True)
            return None
        blocked = False
        top = s
        before = self.scores()
        after = self.scores_after(s, move)
        while True:
            blocker = None
            for j in range(self.n):
                if j == top or "no-bueno" not in self.hands[j] or len(self.hands[j]) < 2:
                    continue
                # Seat j blocks if flipping the outcome (effect or not) raises its margin by 2 or more.
                gain = float(_margin(after, j) - _margin(before, j))
                if not blocked:
                    gain = -gain + (3.0 if move[0] == "envy" and move[1] == j else 0.0)
                if gain >= 2.0:
                    blocker = j
                    break
            if blocker is None:
                break
            self.hands[blocker].remove("no-bueno")
            self.trash.append("no-bueno")
            blocked = not blocked
            top = blocker
        if blocked:
            self.trash.append(card)
            return (s + 1) % self.n
        return self.effect(s, move, last=False)


_MOVE_CARD = {"crow": "crafty-crow", "envy": "order-envy", "panda": "trash-panda", "fight": "food-fight"}


def _margin(scores: list[int], j: int) -> int:
    return scores[j] - max(v for i, v in enumerate(scores) if i != j)


def _policy(sim: _Sim, s: int) -> tuple[Any, ...]:
    """A fast greedy rollout move: the best immediate margin, Trash Panda / Food Fight before a discard."""
    kinds, values, n = sim.kinds, sim.values, sim.n
    tot, bos = sim.tot, sim.bos
    scores = [t << b for t, b in zip(tot, bos)]
    base = _margin(scores, s)
    best: tuple[Any, ...] | None = None
    best_v = -1e9
    val: float
    hand = sim.hands[s]
    for c in sorted(set(hand)):  # sorted: a set's order changes with the hash seed, and ties keep the first
        k = kinds[c]
        if k == "ingredient" or k == "tummy-ache" or k == "hot-sauce-boss":
            v = values[c]
            for m in range(n):
                old = scores[m]
                scores[m] = (tot[m] << (bos[m] + 1)) if k == "hot-sauce-boss" else ((tot[m] + v) << bos[m])
                val = _margin(scores, s) - base
                scores[m] = old
                if val > best_v:
                    best_v, best = val, ("place", c, m)
        elif k == "order-envy":
            for o in range(n):
                if o != s:
                    scores[s], scores[o] = scores[o], scores[s]
                    val = _margin(scores, s) - base - 1.0
                    scores[s], scores[o] = scores[o], scores[s]
                    if val > best_v:
                        best_v, best = val, ("envy", o)
        elif k == "crafty-crow":
            for o in range(n):
                if o == s or not sim.meals[o]:
                    continue
                for item in sorted(set(sim.meals[o])):
                    val = _margin(sim.scores_after(s, ("crow", o, item)), s) - base
                    if val > best_v:
                        best_v, best = val, ("crow", o, item)
        elif k == "trash-panda":
            take = [t for t in sim.trash if kinds[t] != "health-inspector"
                    and (kinds[t] != "trash-panda" or sim.pandas < 2)]
            if take:
                item = max(take, key=lambda t: _KEEP_ORDER.get(kinds[t], values[t] * 0.8))
                val = 0.2 + 0.1 * _KEEP_ORDER.get(kinds[item], values[item] * 0.8)
                if val > best_v:
                    best_v, best = val, ("panda", item)
        elif k == "food-fight":
            if sim.pile and 0.3 > best_v:
                best_v, best = 0.3, ("fight",)
    if best is None or best_v <= 0:
        worst = min(hand, key=lambda c: _KEEP_ORDER.get(kinds[c], values[c] * 0.8))
        if best is None or best_v < -0.5 * _KEEP_ORDER.get(kinds[worst], values[worst] * 0.8) - 0.5:
            return ("discard", worst)
    return best


def _worlds(state: tvb.State, seat: int, count: int, rng: random.Random) -> list[_Sim]:
    """``count`` samples of the hidden cards consistent with what ``seat`` sees (its ``player_view``).

    The unseen cards (the deck minus the hand, the trash, the visible meal cards and any Food Fight
    flips) are dealt at random into the other hands and the face-down meal cards; the rest, with every
    unseen Health Inspector (never in a hand or meal), is the draw pile in random order.
    """
    view = tvb.player_view(state, seat)
    kinds, values = state.kinds, state.values
    deck = state.setup.options["deck"]
    full = Counter(deck) if deck is not None else Counter(state.catalog.full_deck())
    seen = Counter(view["hand"]) + Counter(view["trash"]) + Counter(view["flipped"])
    for m in view["meals"]:
        seen.update(c for c in m if c is not UNKNOWN)
    unseen = list((full - seen).elements())
    inspectors = [c for c in unseen if kinds[c] == "health-inspector"]
    foods = [c for c in unseen if kinds[c] in tvb.PLACEABLE]
    rest = [c for c in unseen if kinds[c] not in tvb.PLACEABLE and kinds[c] != "health-inspector"]
    me = seat - 1
    out = []
    for _ in range(count):
        rng.shuffle(foods)
        meals: list[list[str]] = []
        i = 0
        for m in view["meals"]:
            hidden = sum(1 for c in m if c is UNKNOWN)
            meals.append([c for c in m if c is not UNKNOWN] + foods[i:i + hidden])
            i += hidden
        cards = foods[i:] + rest
        rng.shuffle(cards)
        hands: list[list[str]] = []
        j = 0
        for o, size in enumerate(view["hand_sizes"]):
            if o == me:
                hands.append(list(view["hand"]))
            else:
                hands.append(cards[j:j + size])
                j += size
        pile = cards[j:] + inspectors
        rng.shuffle(pile)
        out.append(_Sim(state.seats, hands, meals, pile, list(view["trash"]), view["panda_pandas"], kinds, values, rng))
    return out


def _sim_move(move: Move) -> tuple[Any, ...]:
    """A ``legal_moves`` move in the rollout's terms (0-based seats)."""
    event = move["event"]
    if event == "place":
        return ("place", move["card"], move["meal"] - 1)
    if event == "discard":
        return ("discard", move["card"])
    if event == "choose":
        return ("choose", move["item"])
    kind = move["card"]
    if kind == "crafty-crow":
        return ("crow", move["target"] - 1, move.get("item"))
    if kind == "order-envy":
        return ("envy", move["target"] - 1)
    if kind == "trash-panda":
        return ("panda", move["item"])
    return ("fight",)


def _rollout(sim: _Sim, me: int, move: tuple[Any, ...], flipped: list[str], max_turns: int) -> float:
    """Make ``move`` for seat ``me``, then every seat plays ``_policy`` to the end (or for ``max_turns``).

    The outcome for ``me`` in [0, 1]: 1 a win, 0.4 a shared win, 0 a loss (plus a hair of the margin);
    a cut-short game scores its margin softly.
    """
    if move[0] == "choose":
        rest = list(flipped)
        rest.remove(move[1])
        sim._to_hand(me, move[1])
        sim.pile.extend(rest)
        sim.rng.shuffle(sim.pile)
        nxt: int | None = me
    else:
        nxt = sim.play(me, move)
    while nxt is not None and sim.turns < max_turns:
        nxt = sim.begin(nxt)
        if not sim.hands[nxt]:
            break
        nxt = sim.play(nxt, _policy(sim, nxt))
    m = _margin(sim.scores(), me)
    if nxt is None:
        return (1.0 if m > 0 else 0.4 if m == 0 else 0.0) + 0.002 * max(-20, min(20, m))
    return 0.5 + 0.5 * math.tanh(m / 12.0)


def make_bot(level: str, seat: int, seed: int) -> Bot:
    """A bot of ``level`` (easy, normal, hard) for ``seat``."""
    classes: dict[str, type[Bot]] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}
    if level not in classes:
        raise ValueError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")
    return classes[level](seat, seed)


def play_game(levels: Sequence[str], seed: int, **options: Any) -> list[dict[str, Any]]:
    """One whole bot game's table-event log (setup line first); see ``run_game``."""
    return run_game(levels, seed, **options)[0]


def run_game(
    levels: Sequence[str],
    seed: int,
    variant: str = "open",
    first: int = 1,
    window_ms: float = 3000.0,
    max_events: int = 2000,
    on_event: Callable[[tvb.State, dict[str, Any]], None] | None = None,
) -> tuple[list[dict[str, Any]], tvb.State]:
    """Play one whole game with a bot in every seat; returns its table-event log (setup first) and the end state.

    Time is simulated: moves come 0.5-2.5 s apart and blocks are a race inside the window (the
    earliest press wins, as on the table). ``on_event(state, event)`` is called after every event.
    """
    n = len(levels)
    clock = random.Random(seed * 1_000_003 + 17)
    setup = {
        "event": "setup",
        "game": tvb.name,
        "seats": n,
        "options": {"seed": seed, "first": first, "variant": variant, "no_bueno_window_ms": window_ms},
    }
    table, _ = Table.start(copy.deepcopy(setup))
    state: tvb.State = table.state
    bots = [make_bot(level, seat, seed * 31 + seat) for seat, level in enumerate(levels, start=1)]
    log: list[dict[str, Any]] = [setup]
    t = 0.0
    window = window_ms / 1000.0

    def send(event: dict[str, Any]) -> None:
        log.append(dict(event))
        table.apply(table.check(dict(event)))
        if on_event is not None:
            on_event(state, event)

    while not tvb.is_over(state):
        if len(log) > max_events:
            raise RuntimeError(f"game with seed {seed} did not end within {max_events} events")
        if state.phase == "window":
            p = state.pending
            assert p is not None
            presses = []
            for bot in bots:
                if tvb.can_block(state, bot.seat) and bot.block(state):
                    presses.append((round(t + clock.uniform(0.2, 0.8) * window, 3), bot.seat))
            if presses:
                t, seat = min(presses)
                send({"t": t, "event": "block", "seat": seat})
            else:
                t = round(p.deadline + 0.05, 3)
                tvb.advance(state, t)
            continue
        actor = state.turn if state.phase == "move" else state.fight.winner  # type: ignore[union-attr]
        assert actor is not None
        t = round(t + clock.uniform(0.5, 2.5), 3)
        send({"t": t, **bots[actor - 1].move(state)})
    return log, state
