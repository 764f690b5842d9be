"""Taco vs Burrito on a phone (the companion, ``game.web``): a seat's own hand and the options of each card, and
the moves a phone may make, all from the rules: ``player_view`` for what the seat may know, and the hand
browser's ``options_for`` / ``seat_moves`` (the rules' ``legal_moves``) for what it may do, as its buttons would."""

from __future__ import annotations

from typing import Any

from game.games.taco_vs_burrito import rules as tvb
from game.games.taco_vs_burrito.buttons import card_label, options_for, seat_moves


def phone_view(app: Any, seat: int, now: float) -> dict[str, Any]:
    st = app.state
    pv = tvb.player_view(st, seat)
    cat = st.catalog
    moves = seat_moves(st, seat)
    hand = [{"card": c, "label": card_label(c, cat)} for c in pv["hand"]]
    options: dict[str, list[dict[str, Any]]] = {}
    if moves and st.phase == "move":
        for card in sorted(set(pv["hand"])):
            options[card] = [{"label": o.label, "move": o.move} for o in options_for(st, seat, card) if o.move]
    choose = []
    if moves and st.phase == "choose":
        choose = [{"label": o.label, "move": o.move} for o in options_for(st, seat, None) if o.move]
    # the block window's end on the game's clock: the page counts down from the snapshot's ``table_now``
    window_end = st.pending.deadline if st.phase == "window" and st.pending is not None else None
    own = pv["meals"][seat - 1]
    return {"taco": {"hand": hand, "options": options, "choose": choose, "can_block": tvb.can_block(st, seat),
                     "my_turn": bool(moves), "meal": [card_label(c, cat) if c else "face down" for c in own],
                     "score": tvb.score(st, seat) if all(c is not None for c in own) else None,
                     "bot": seat in getattr(app.mapper, "bots", {}), "window_end": window_end}}


def phone_public(app: Any) -> dict[str, Any]:
    """Seat 0 is nobody's: what a spectator may see (hand sizes, meals as the variant shows them)."""
    st = app.state
    pv = tvb.player_view(st, 0)
    p = pv["pending"]
    pending = {k: p[k] for k in ("seat", "card", "event", "meal", "target", "chain")} if p else None
    return {"taco": {"turn": pv["turn"], "phase": pv["phase"], "variant": pv["variant"], "meals": pv["meals"],
                     "hand_sizes": pv["hand_sizes"], "draw_pile": pv["draw_pile"],
                     "trash_top": pv["trash"][-1] if pv["trash"] else None, "pending": pending,
                     "scores": [tvb.score(st, s) if tvb.can_look(st, 0, s) else None for s in range(1, st.seats + 1)],
                     "winners": tvb.winners(st) if tvb.is_over(st) else []}}


def phone_move(app: Any, seat: int, move: dict[str, Any], t: float) -> str | None:
    """Written only if it is exactly one of the seat's own legal moves right now (as the hand browser checks)."""
    st = app.state
    if seat in getattr(app.mapper, "bots", {}):
        return f"seat {seat} is played by a bot"
    if move not in seat_moves(st, seat):
        return "that move is not yours to make now"
    app.buffer.append({"t": t, **move})
    return None
