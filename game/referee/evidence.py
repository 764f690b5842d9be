"""Human lines that explain a call from its ``evidence`` key, for ``burrito-table replay --evidence`` and the screen.

>>> for line in evidence_lines({"t": 12.5031, "event": "hit", "burrito": 1, "seat": 3, "evidence": {
...         "burrito_device": "burrito-1", "contact": "impact", "contact_t": 12.5012, "launch_t": 12.1,
...         "badge_device": "badge-3", "badge_t": 12.5031, "gap_ms": 1.9, "peak_g": 9.5,
...         "decided": "burrito and badge impacts 1.9 ms apart (window 10 ms)"}}):
...     print(line)
12.503 s  hit: burrito 1 hit seat 3
  burrito-1 launch at 12.100 s, flight 401 ms
  burrito-1 impact at 12.501 s (peak 9.5 g)
  badge-3 impact at 12.503 s, 1.9 ms after the burrito
  decided: burrito and badge impacts 1.9 ms apart (window 10 ms)
  confirmed by people: no
"""

from __future__ import annotations

import math
from typing import Any

from game.rules.base import brief


def _num(value: object) -> float | None:
    """A finite number from evidence, or None: evidence is data from a log and may be anything."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def _at(value: object) -> str:
    """A time of the evidence as ``12.345 s``, or what was there instead."""
    n = _num(value)
    return f"{n:.3f} s" if n is not None else f"an unknown time ({brief(value)})" if value is not None else "an unknown time"


def _text(value: object) -> str:
    """A name or a sentence from the evidence, bounded: a log's strings may be megabytes."""
    return value if isinstance(value, str) and len(value) <= 200 else brief(value, 200)


def _what(event: dict[str, Any]) -> str:
    kind = _text(event.get("event", "?"))
    burrito, seat = _text(event.get("burrito")), _text(event.get("seat"))
    if kind == "hit":
        return f"burrito {burrito} hit seat {seat}"
    if kind == "miss":
        return f"burrito {burrito} missed"
    if kind == "catch":
        return f"seat {seat} caught burrito {burrito}"
    if kind in ("throw", "grab"):
        return f"seat {seat} {kind}s burrito {burrito}"
    if kind == "foul":
        return f"seat {seat} loses the battle"
    if kind == "overturn":
        named = ", ".join(f"{k} {_text(event[k])}" for k in ("seat", "burrito") if k in event)
        return f"the last {_text(event.get('call'))} call{f' ({named})' if named else ''} is undone"
    if kind == "block":
        return f"seat {seat}'s No Bueno was first"
    return kind


def evidence_lines(event: dict[str, Any]) -> list[str]:
    """Why the referee made this call: timestamps, devices, gaps, the rule, and who confirmed it.

    An event without evidence (a button press, a hand-written log line) gets one line saying so. Evidence is
    read as it comes: a missing or ill-typed entry is shown as unknown, never a crash of ``replay --evidence``.
    """
    t = _num(event.get("t"))
    head = f"{t:.3f} s  {_text(event.get('event'))}: {_what(event)}" if t is not None else _what(event)
    ev = event.get("evidence")
    if not isinstance(ev, dict):
        return [head, "  no device evidence: entered by the table or a person"]
    lines = [head]
    dev = _text(ev["burrito_device"]) if ev.get("burrito_device") else None
    launch, contact_t = _num(ev.get("launch_t")), _num(ev.get("contact_t"))
    if dev and launch is not None:
        flight = f", flight {(contact_t - launch) * 1000:.0f} ms" if contact_t is not None else ""
        lines.append(f"  {dev} launch at {launch:.3f} s{flight}")
    if dev and _num(ev.get("pickup_t")) is not None:
        lines.append(f"  {dev} pickup at {_at(ev['pickup_t'])}")
    if dev and contact_t is not None:
        peak_g = _num(ev.get("peak_g"))
        peak = f" (peak {peak_g:.1f} g)" if peak_g is not None else ""
        lines.append(f"  {dev} {_text(ev.get('contact', 'contact'))} at {contact_t:.3f} s{peak}")
    if ev.get("badge_device"):
        gap = _num(ev.get("gap_ms"))
        side = "" if gap is None else f", {abs(gap):.1f} ms {'after' if gap >= 0 else 'before'} the burrito"
        lines.append(f"  {_text(ev['badge_device'])} impact at {_at(ev.get('badge_t'))}{side}")
    clear = ev.get("badges_clear")
    if isinstance(clear, dict) and clear:
        shown = ", ".join(f"{_text(d)} at {_at(at)}" for d, at in list(clear.items())[:20])
        lines.append("  nothing left to send (heartbeats): " + shown)
    measured = _num(ev.get("measured_t"))
    if measured is not None:
        lines.append(f"  measured at {measured:.3f} s; logged at {_at(event.get('t'))} to keep the log in order")
    fighters = ev.get("fighters")
    if fighters:
        seats = ", ".join(_text(s) for s in fighters[:20]) if isinstance(fighters, list) else _text(fighters)
        lines.append(f"  fighting: seats {seats}")
    if ev.get("thrower"):
        lines.append(f"  thrower: {_text(ev['thrower'])}")
    if ev.get("decided"):
        lines.append(f"  decided: {_text(ev['decided'])}")
    if ev.get("question"):
        answers = ev.get("answers")
        said = (", ".join(f"seat {_text(s)} {_text(a)}" for s, a in list(answers.items())[:20])
                if isinstance(answers, dict) else "") or "nobody answered"
        lines.append(f"  asked: {_text(ev['question'])} -- {said}")
    if ev.get("tie_vote"):
        lines.append(f"  table vote: {_text(ev['tie_vote'])}")
    lines.append(f"  confirmed by people: {'yes' if ev.get('confirmed_by_people') else 'no'}")
    return lines
