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

from typing import Any


def _what(event: dict[str, Any]) -> str:
    kind = event.get("event", "?")
    if kind == "hit":
        return f"burrito {event.get('burrito')} hit seat {event.get('seat')}"
    if kind == "miss":
        return f"burrito {event.get('burrito')} missed"
    if kind == "catch":
        return f"seat {event.get('seat')} caught burrito {event.get('burrito')}"
    if kind in ("throw", "grab"):
        return f"seat {event.get('seat')} {kind}s burrito {event.get('burrito')}"
    if kind == "foul":
        return f"seat {event.get('seat')} loses the battle"
    return str(kind)


def evidence_lines(event: dict[str, Any]) -> list[str]:
    """Why the referee made this call: timestamps, devices, gaps, the rule, and who confirmed it.

    An event without evidence (a button press, a hand-written log line) gets one line saying so.
    """
    t = event.get("t")
    head = f"{t:.3f} s  {event.get('event')}: {_what(event)}" if isinstance(t, (int, float)) else _what(event)
    ev = event.get("evidence")
    if not isinstance(ev, dict):
        return [head, "  no device evidence: entered by the table or a person"]
    lines = [head]
    dev = ev.get("burrito_device")
    launch, contact_t = ev.get("launch_t"), ev.get("contact_t")
    if dev and isinstance(launch, (int, float)):
        flight = f", flight {(contact_t - launch) * 1000:.0f} ms" if isinstance(contact_t, (int, float)) else ""
        lines.append(f"  {dev} launch at {launch:.3f} s{flight}")
    if dev and isinstance(ev.get("pickup_t"), (int, float)):
        lines.append(f"  {dev} pickup at {ev['pickup_t']:.3f} s")
    if dev and isinstance(contact_t, (int, float)):
        peak = f" (peak {ev['peak_g']:.1f} g)" if isinstance(ev.get("peak_g"), (int, float)) else ""
        lines.append(f"  {dev} {ev.get('contact', 'contact')} at {contact_t:.3f} s{peak}")
    if ev.get("badge_device"):
        gap = ev.get("gap_ms", 0.0)
        side = "after" if gap >= 0 else "before"
        lines.append(f"  {ev['badge_device']} impact at {ev['badge_t']:.3f} s, {abs(gap):.1f} ms {side} the burrito")
    clear = ev.get("badges_clear")
    if isinstance(clear, dict) and clear:
        lines.append("  nothing left to send (heartbeats): " + ", ".join(f"{d} at {t:.3f} s" for d, t in clear.items()))
    if isinstance(ev.get("measured_t"), (int, float)):
        lines.append(f"  measured at {ev['measured_t']:.3f} s; logged at {t:.3f} s to keep the log in order")
    if ev.get("fighters"):
        lines.append(f"  fighting: seats {', '.join(str(s) for s in ev['fighters'])}")
    if ev.get("thrower"):
        lines.append(f"  thrower: {ev['thrower']}")
    if ev.get("decided"):
        lines.append(f"  decided: {ev['decided']}")
    if ev.get("question"):
        answers = ev.get("answers") or {}
        said = ", ".join(f"seat {s} {a}" for s, a in answers.items()) or "nobody answered"
        lines.append(f"  asked: {ev['question']} -- {said}")
    if ev.get("tie_vote"):
        lines.append(f"  table vote: {ev['tie_vote']}")
    lines.append(f"  confirmed by people: {'yes' if ev.get('confirmed_by_people') else 'no'}")
    return lines
