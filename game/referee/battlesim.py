"""Battle simulator with ground truth: players, grabs, throws, flights, hits, misses, bounces, catches and fumbles.

Two modes:

- **event level** (``simulate``): device events as the host would deliver them -- stamped with the detector's and
  clock sync's measured errors, delivered late by a radio with loss, resends (60 ms doubling), jitter and spikes --
  plus the players' button presses and honest answers to the referee's questions. Thousands of battles a minute.
- **devices** (``play_on_virtual_table``): accelerometer traces (``firmware_bridge.traces``) fed through the real
  detector inside virtual burritos and badges, over the real protocol on a pty, to a real ``DeviceHost``.

Every battle carries its truth: the first contact of each flight and the battle's true outcome. ``run_battle`` drives
the referee and the real rules engine the way the app does and scores the result.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from firmware_bridge.host.events import DeviceEvent, HeartbeatEvent, LinkEvent
from game.log import Table
from game.referee.referee import Backlog, Question, Referee
from hardware.events import SeatEvent

SCENARIOS: tuple[str, ...] = (
    "clean hit", "hit then bounce", "miss then hit", "catch", "fumbled catch", "hit on a non-battler",
    "simultaneous 0 ms", "simultaneous 10 ms", "simultaneous 20 ms", "simultaneous 30 ms", "simultaneous 50 ms",
    "simultaneous 100 ms", "badge offline", "heavy radio loss",
)
SEATS = 4
BURRITOS = {"burrito-1": 1, "burrito-2": 2}
BADGES = {f"badge-{s}": s for s in range(1, SEATS + 1)}
#: Detection delay after the stamped sample, seconds (the detector decides a contact from what follows it).
DETECT_DELAY = {"pickup": (0.40, 0.45), "launch": (0.11, 0.16), "impact": (0.03, 0.30), "catch": (0.20, 0.26),
                "bounce": (0.02, 0.05), "rest": (0.25, 0.30)}
BADGE_DELAY = (0.02, 0.035)


@dataclass
class ErrorModel:
    """Timestamp errors in ms: the detector's per kind, and clock sync's per device (drawn once per battle).

    ``default()`` holds values measured by ``benchmarks/bench_referee.py --measure`` (real detector on simulated
    traces at 833 Hz, ``simulate_clock_sync`` at +-100 ppm drift, 1-20 ms delays, 3 % spikes, 5 % loss); the benchmark
    re-measures them at every run and uses its own.
    """

    burrito_ms: list[float]
    badge_ms: list[float]
    catch_ms: list[float]
    clock_ms: list[float]  # signed

    @classmethod
    def default(cls) -> ErrorModel:
        return cls(burrito_ms=[1.2] * 12 + [0.0] * 3,
                   badge_ms=[1.34, 0.38, 0.31, 0.63, 1.02, 0.95, 0.49, 0.47, 1.27, 1.19, 0.67, 1.1, 0.89, 1.2, 0.22],
                   catch_ms=[0.0, 1.2, 1.2, 1.2, 2.4, 1.2, 0.0, 1.2],
                   clock_ms=[s * e for s in (1, -1) for e in (0.05, 0.12, 0.2, 0.27, 0.27, 0.35, 0.5, 0.7, 1.0, 1.34)])


@dataclass
class RadioModel:
    """Per-attempt loss, one-way delay, spikes; resends after 60 ms doubling to 1 s (PROTOCOL.md)."""

    loss: float = 0.05
    delay_ms: tuple[float, float] = (1.0, 6.0)
    spike_p: float = 0.02
    spike_ms: float = 100.0

    def latency(self, rng: random.Random) -> float:
        wait, gap = 0.0, 0.06
        while rng.random() < self.loss:
            wait += gap
            gap = min(1.0, gap * 2)
        d = rng.uniform(*self.delay_ms) / 1000 + (self.spike_ms / 1000 if rng.random() < self.spike_p else 0.0)
        return wait + d

    def ack_after(self, rng: random.Random) -> float:
        """From the host's receipt to the device's ACK: each lost ACK costs one more resend (60 ms doubling)."""
        wait, gap = rng.uniform(*self.delay_ms) / 1000, 0.06
        while rng.random() < self.loss:
            wait += gap
            gap = min(1.0, gap * 2)
        return wait

    def once(self, rng: random.Random) -> float | None:
        """A message sent once and never resent (a heartbeat): its delay, or None if it is lost."""
        if rng.random() < self.loss:
            return None
        return rng.uniform(*self.delay_ms) / 1000 + (self.spike_ms / 1000 if rng.random() < self.spike_p else 0.0)


@dataclass
class Flight:
    """One throw and its first contact, as it really happened."""

    burrito: int
    thrower: int
    pickup_t: float
    launch_t: float
    contact_t: float
    outcome: str  # "hit" | "miss" | "catch" | "fumble"
    seat: int | None = None  # who was hit, caught or fumbled it
    object_miss: bool = False  # the first contact was furniture, not the floor


@dataclass
class SimBattle:
    scenario: str
    seed: int
    fighters: tuple[int, int]
    declarer: int
    flights: list[Flight]
    deliveries: list[tuple[float, DeviceEvent | LinkEvent | Backlog]] = field(default_factory=list)
    presses: list[SeatEvent] = field(default_factory=list)
    offline: set[int] = field(default_factory=set)

    def truth_calls(self) -> list[tuple[Any, ...]]:
        """The call each flight deserves: (event, burrito, seat)."""
        out: list[tuple[Any, ...]] = []
        for f in self.flights:
            if f.outcome in ("hit", "fumble"):
                out.append(("hit", f.burrito, f.seat))
            elif f.outcome == "catch":
                out.append(("catch", f.burrito, f.seat))
            else:
                out.append(("miss", f.burrito, None))
        return out

    def truth_outcome(self, tie_window_ms: float) -> tuple[str, tuple[int, ...]]:
        """("loser", (seat,)) or ("tie", seats) from the true contact times."""
        losses = []
        for f in self.flights:
            if f.outcome in ("hit", "fumble") and f.seat in self.fighters and f.seat != f.thrower:
                losses.append((f.contact_t, f.seat))
            elif f.outcome == "catch" and f.seat in self.fighters:
                losses.append((f.contact_t, f.thrower))
        losses.sort()
        if not losses:
            return ("open", ())
        first = losses[0][0]
        tied = sorted({s for t, s in losses if t - first <= tie_window_ms / 1000 + 1e-9})
        return ("tie", tuple(tied)) if len(tied) > 1 else ("loser", (losses[0][1],))


def _dev_event(device: str, kind: str, true_t: float, rng: random.Random, err: ErrorModel, clock: dict[str, float],
               seqs: dict[str, int], peak: float | None = None) -> DeviceEvent:
    if kind == "impact":
        e = rng.choice(err.badge_ms if device.startswith("badge") else err.burrito_ms)
    elif kind == "catch":
        e = rng.choice(err.catch_ms)
    elif kind == "launch":
        e = rng.uniform(0.0, 3.6)
    else:
        e = rng.uniform(0.0, 8.0)
    seqs[device] = seqs.get(device, 0) + 1
    stamped = true_t + (e + clock[device]) / 1000.0
    kind_of = "badge" if device.startswith("badge") else "burrito"
    return DeviceEvent(stamped, device, kind_of, kind, seqs[device], int(true_t * 1e6), peak)


#: Seconds between heartbeats (PROTOCOL.md): each says how many messages wait for an ACK.
HEARTBEAT_S = 1.0


def make_battle(scenario: str, seed: int, err: ErrorModel | None = None, radio: RadioModel | None = None,
                heartbeats: bool = True) -> SimBattle:
    """One seeded battle of a scenario: a Duel between two of four seats, with its device events and presses.

    ``heartbeats``: every online device sends a heartbeat each second with its count of messages waiting for an ACK
    (sent once, lost at the radio's loss rate), delivered as ``Backlog`` events; False models a host that does not
    pass them on. They draw from their own random stream, so the battle itself is the same either way.
    """
    if scenario not in SCENARIOS:
        raise ValueError(f"unknown scenario {scenario!r} (known: {', '.join(SCENARIOS)})")
    rng = random.Random(f"{scenario}:{seed}")
    err = err or ErrorModel.default()
    if scenario == "heavy radio loss":
        radio = RadioModel(loss=0.4, delay_ms=(1.0, 20.0), spike_p=0.1, spike_ms=100.0)
    radio = radio or RadioModel()
    a, b = rng.sample(range(1, SEATS + 1), 2)
    declarer = rng.choice([s for s in range(1, SEATS + 1) if s not in (a, b)])
    bystander = next(s for s in range(1, SEATS + 1) if s not in (a, b, declarer))
    t = 1.0 + rng.uniform(0.0, 0.3)
    flights: list[Flight] = []

    def throw(burrito: int, thrower: int, start: float) -> tuple[float, float, float]:
        pick = start + rng.uniform(0.0, 0.3)
        launch = pick + rng.uniform(0.4, 1.2)
        return pick, launch, launch + rng.uniform(0.18, 0.8)

    battle = SimBattle(scenario, seed, (min(a, b), max(a, b)), declarer, flights)
    if scenario.startswith("simultaneous"):
        gap = float(scenario.split()[1]) / 1000
        p1, l1, c1 = throw(1, a, t)
        p2, l2, _ = throw(2, b, t)
        c2 = c1 + gap
        l2 = min(l2, c2 - 0.18)
        p2 = min(p2, l2 - 0.4)
        flights += [Flight(1, a, p1, l1, c1, "hit", b), Flight(2, b, p2, l2, c2, "hit", a)]
    elif scenario == "miss then hit":
        p1, l1, c1 = throw(1, a, t)
        flights.append(Flight(1, a, p1, l1, c1, "miss", object_miss=rng.random() < 0.03))
        p2, l2, c2 = throw(1, a, c1 + rng.uniform(0.6, 1.5))
        flights.append(Flight(1, a, p2, l2, c2, "hit", b))
    else:
        p1, l1, c1 = throw(1, a, t)
        outcome, seat = {"catch": ("catch", b), "fumbled catch": ("fumble", b),
                         "hit on a non-battler": ("hit", bystander)}.get(scenario, ("hit", b))
        flights.append(Flight(1, a, p1, l1, c1, outcome, seat))
        if scenario == "badge offline":
            battle.offline.add(b)
    # the other fighter picks up the other burrito and holds it (unless it threw it in a simultaneous scenario)
    clock = {d: rng.choice(err.clock_ms) for d in list(BURRITOS) + list(BADGES)}
    seqs: dict[str, int] = {}
    out = battle.deliveries
    dev_of = {n: d for d, n in BURRITOS.items()}

    hb_rng = random.Random(f"heartbeats:{scenario}:{seed}")
    queued: dict[str, list[tuple[float, float]]] = {}  # device -> (queued for the radio, ACK back), true time

    def send(device: str, kind: str, true_t: float, peak: float | None = None) -> None:
        seat = BADGES.get(device)
        if seat in battle.offline:
            return
        ev = _dev_event(device, kind, true_t, rng, err, clock, seqs, peak)
        delay = DETECT_DELAY.get(kind, (0.02, 0.05)) if seat is None else BADGE_DELAY
        detected = true_t + rng.uniform(*delay)
        arrival = detected + radio.latency(rng)
        out.append((arrival, ev))
        queued.setdefault(device, []).append((detected, arrival + radio.ack_after(hb_rng)))

    for s in battle.offline:
        out.append((0.2, LinkEvent(0.2, f"badge-{s}", "badge", "offline", "no frame for 3.0 s")))
    if not scenario.startswith("simultaneous"):
        send("burrito-2", "pickup", t + rng.uniform(0.0, 0.4))
    for f in flights:
        dev = dev_of[f.burrito]
        send(dev, "pickup", f.pickup_t)
        send(dev, "launch", f.launch_t)
        if f.outcome == "catch":
            send(dev, "catch", f.contact_t, rng.uniform(1.3, 4.0))
            battle.presses.append(SeatEvent(f.contact_t + rng.uniform(0.3, 1.2), f.seat or 0, "SET", "press"))
            continue
        if f.outcome == "miss":
            send(dev, "impact", f.contact_t, rng.uniform(5.0, 20.0))
            fall = rng.uniform(0.3, 0.5) if f.object_miss else rng.uniform(0.06, 0.18)
            send(dev, "bounce", f.contact_t + fall, rng.uniform(3.0, 8.0))
            send(dev, "rest", f.contact_t + fall + rng.uniform(0.3, 0.6))
            continue
        send(dev, "impact", f.contact_t, rng.uniform(3.0, 15.0) if f.outcome == "hit" else rng.uniform(5.0, 20.0))
        if f.outcome == "hit":
            send(f"badge-{f.seat}", "impact", f.contact_t, rng.uniform(1.5, 6.0))
        fall = rng.uniform(0.3, 0.5)
        send(dev, "bounce", f.contact_t + fall, rng.uniform(5.0, 20.0))
        if scenario == "hit then bounce" and rng.random() < 0.5:
            # it bounces on into a neighbour before the floor: a second badge, never a second hit
            other = rng.choice([s for s in range(1, SEATS + 1) if s != f.seat])
            t2 = f.contact_t + rng.uniform(0.12, fall - 0.05)
            send(dev, "bounce", t2, rng.uniform(2.0, 6.0))
            send(f"badge-{other}", "impact", t2, rng.uniform(1.5, 4.0))
        send(dev, "rest", f.contact_t + fall + rng.uniform(0.3, 0.6))
    if heartbeats:
        end = max(a for a, _ in out) + 8.0
        for device in list(BURRITOS) + list(BADGES):
            if BADGES.get(device) in battle.offline:
                continue
            h = hb_rng.uniform(0.0, HEARTBEAT_S)
            while h < end:
                delay = radio.once(hb_rng)
                if delay is not None:
                    pending = sum(1 for q, acked in queued.get(device, []) if q <= h < acked)
                    out.append((h + delay, Backlog(h + clock[device] / 1000.0, device, pending, 0)))
                h += HEARTBEAT_S
    out.sort(key=lambda x: x[0])
    return battle


@dataclass
class Result:
    """How the referee did on one battle."""

    battle: SimBattle
    calls: list[dict[str, Any]]
    questions: list[Question]
    outcome: tuple[str, tuple[int, ...]]
    call_delays: list[float]
    correct: bool
    why: str = ""

    @property
    def automatic(self) -> bool:
        return self.correct and not self.questions


def _answer(battle: SimBattle, ref: Referee, q: Question, tie_window_ms: float) -> dict[int, str]:
    """Honest players: each asked seat answers from the truth."""
    sub = ref.subject(q.id) or {}
    purpose = sub.get("purpose")
    flight = None
    if "contact_t" in sub:
        flight = min(battle.flights, key=lambda f: abs(f.contact_t - sub["contact_t"]) + 10 * (f.burrito != sub.get(
            "burrito")))
    answers: dict[int, str] = {}
    for s in q.seats:
        if purpose in ("hit?", "first?", "victim?"):
            yes = flight is not None and flight.outcome in ("hit", "fumble") and flight.seat == s
        elif purpose == "catch?":
            yes = flight is not None and flight.outcome == "catch" and flight.seat == s
        elif purpose == "thrower?":
            yes = flight is not None and flight.thrower == s
        elif purpose == "grab?":
            yes = False
        elif purpose == "tie?":
            answers[s] = "tie" if battle.truth_outcome(tie_window_ms)[0] == "tie" else "no tie"
            continue
        else:
            answers[s] = "right"
            continue
        answers[s] = "yes" if yes else "no"
    return answers


def run_battle(battle: SimBattle, tie_window_ms: float = 45.0, step_s: float = 0.02,
               answer_delay: tuple[float, float] = (1.0, 4.0)) -> Result:
    """Drive the referee and the rules engine as the app does; score against the truth."""
    rng = random.Random(f"answers:{battle.scenario}:{battle.seed}")
    ref = Referee(SEATS, BURRITOS, BADGES, tie_window_ms=tie_window_ms)
    table, _ = Table.start({"event": "setup", "game": "throw-throw-burrito", "seats": SEATS,
                            "options": {"tie_window_ms": tie_window_ms}})
    fighters = list(battle.fighters)
    for ev in ({"t": 0.0, "event": "declare", "seat": battle.declarer, "battle": "duel"},
               {"t": 0.1, "event": "pick", "seat": battle.declarer, "players": fighters}):
        table.apply(table.check(ev))
    ref.context(True, frozenset(), 0.0)
    ref.context(True, frozenset(fighters), 0.5)
    table.advance(0.6)
    presses = sorted(battle.presses, key=lambda e: e.t)
    deliveries = list(battle.deliveries)
    end = max([d[0] for d in deliveries] + [p.t for p in presses]) + 12.0
    calls: list[dict[str, Any]] = []
    questions: list[Question] = []
    delays: list[float] = []
    now, di, pi = 0.0, 0, 0
    while now <= end:
        while di < len(deliveries) and deliveries[di][0] <= now:
            ref.device(deliveries[di][1])
            di += 1
        while pi < len(presses) and presses[pi].t <= now:
            ref.seat(presses[pi])
            pi += 1
        for item in ref.poll(now):
            if isinstance(item, Question):
                questions.append(item)
                answers = _answer(battle, ref, item, tie_window_ms)
                for s, a in answers.items():
                    btn = ref.buttons[item.options.index(a)]
                    presses.append(SeatEvent(now + rng.uniform(*answer_delay), s, btn, "press"))
                presses.sort(key=lambda e: e.t)
                continue
            calls.append(item)
            if item["event"] in ("hit", "miss", "catch"):
                contact = item["evidence"].get("contact_t", item["t"])
                delays.append(now - contact)
            ev = table.check({k: v for k, v in item.items() if k != "evidence"} | {"t": max(item["t"], table.last_t)})
            table.apply(ev)
            st = table.state
            open_ = st.battle is not None or bool(st.declaring)
            fighters_now = frozenset(st.battle.fighters) if st.battle else frozenset()
            ref.context(open_, fighters_now, float(ev["t"]))  # type: ignore[arg-type]
        now = round(now + step_s, 6)
    table.finish()
    summary = table.summary()
    b = summary["battles"][0]
    st_battle = table.state.battles[0]
    if st_battle.tie:
        got: tuple[str, tuple[int, ...]] = ("tie", tuple(st_battle.tie))
        if b["loser"] is not None:
            got = ("tie", tuple(st_battle.tie))
    elif b["loser"] is not None:
        got = ("loser", (b["loser"],))
    else:
        got = ("open", ())
    want = battle.truth_outcome(tie_window_ms)
    made = [(c["event"], c["burrito"], c.get("seat")) for c in calls if c["event"] in ("hit", "miss", "catch")]
    made += [("hit", None, c["seat"]) for c in calls if c["event"] == "foul"]
    truth = battle.truth_calls()
    # Compare (event, seat) as multisets: at 0 ms which burrito hit whom cannot matter, only who was hit.
    ok_calls = sorted((m[0], m[2] or 0) for m in made) == sorted((x[0], x[2] or 0) for x in truth)
    why = ""
    if got != want:
        why = f"outcome {got} != truth {want}"
    elif not ok_calls:
        why = f"calls {made} != truth {truth}"
    return Result(battle, calls, questions, got, delays, got == want and ok_calls, why)


def simulate(scenario: str, n: int, first_seed: int = 0, err: ErrorModel | None = None,
             step_s: float = 0.02) -> list[Result]:
    """``n`` seeded battles of one scenario, event level."""
    return [run_battle(make_battle(scenario, seed, err), step_s=step_s) for seed in range(first_seed, first_seed + n)]


# ---------------------------------------------------------------- device mode

def play_on_virtual_table(vt: Any, host: Any, ref: Referee, table: Table, burrito: str, badge: str | None,
                          seed: int, timeout: float = 15.0) -> dict[str, Any]:
    """One throw through the real detector, protocol and host: a ``throw_impact`` trace in ``burrito`` and, when
    ``badge`` is given, a ``badge_hit`` trace in that badge whose impact is the same instant (a hit; without it, a
    miss). ``vt`` is a started ``VirtualTable``, ``host`` a started ``DeviceHost`` on it with synced clocks, ``table``
    a ``Table`` with the battle open and ``ref`` told so. Runs in real time; returns the truth, the calls and delays.
    """
    import queue
    import time

    from firmware_bridge.traces import make_trace

    tr = make_trace("throw_impact", seed)
    first = tr.samples[0][0]
    start = time.monotonic() + 0.2
    impact_us = next(t for t, k in tr.truth if k == "impact")
    contact = start + (impact_us - first) / 1e6
    vt.play_trace(burrito, [(t - first, ax, ay, az) for t, ax, ay, az in tr.samples], start=start)
    if badge is not None:
        bt = make_trace("badge_hit", seed)
        bfirst = bt.samples[0][0]
        bimpact = next(t for t, k in bt.truth if k == "impact")
        bstart = contact - (bimpact - bfirst) / 1e6
        vt.play_trace(badge, [(t - bfirst, ax, ay, az) for t, ax, ay, az in bt.samples], start=bstart)
    end = start + (tr.samples[-1][0] - first) / 1e6 + timeout
    calls: list[dict[str, Any]] = []
    delays: list[float] = []
    devents: list[DeviceEvent] = []
    while time.monotonic() < end:
        try:
            ev = host.events.get(timeout=0.02)
        except queue.Empty:
            ev = None
        if isinstance(ev, (DeviceEvent, LinkEvent, HeartbeatEvent)):
            if isinstance(ev, DeviceEvent):
                devents.append(ev)
            ref.device(ev)
        now = time.monotonic()
        for item in ref.poll(now):
            if isinstance(item, Question):
                calls.append({"question": item.text})
                continue
            calls.append(item)
            if item["event"] in ("hit", "miss", "catch"):
                delays.append(now - item["evidence"].get("contact_t", item["t"]))
            table.apply(table.check({k: v for k, v in item.items() if k != "evidence"}
                                    | {"t": max(item["t"], table.last_t)}))
            st = table.state
            ref.context(st.battle is not None, frozenset(st.battle.fighters) if st.battle else frozenset(), now)
        if any(c.get("event") in ("hit", "miss") for c in calls) and now > contact + 2.0:
            break
    return {"contact_t": contact, "calls": calls, "delays": delays, "device_events": devents}
