"""The referee: device and seat events in, table events (with their evidence) and questions out.

Deterministic: no wall clock, no global random. Time comes only from event ``t`` and ``poll(now)``. Device events may
arrive in any order (radio resends); the referee rebuilds each burrito's timeline from everything it has and makes a
call for a contact only once the evidence around it has settled (see ``docs/referee.md``, rules R1-R12).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any

from firmware_bridge.host.events import DeviceEvent, LinkEvent
from hardware.events import SeatEvent

#: R1. Widest burrito-impact/badge-impact gap that is one contact. Measured by ``benchmarks/bench_referee.py --window``
#: through the real detector plus clock-sync error: max 3.9 ms over 2,000 contacts; the window is ~2.5x that.
HIT_WINDOW_MS = 10.0
#: R5. Two badges hit by one burrito closer than this are "at once": the order is inside the measurement error.
BADGE_ORDER_MS = 6.0
#: R6. Measured tie gaps closer than this to the tie window are asked, not called (gap error p99 ~2 ms).
TIE_MARGIN_MS = 3.0
#: R2. Radio latency allowed for a badge event behind its burrito event (resends at 60/120/240 ms).
LATENCY_S = 0.25
#: R2. How long a contact with no badge waits before it is called a miss (40 % loss: 2 of 1,000 badges came after 1 s).
MISS_SETTLE_S = 2.0
#: R2. Longest a badge takes from a contact to queue its impact for the radio (detector decision). Measured by
#: ``benchmarks/bench_referee.py`` through the real detector: see its "badge impact decided after" row; ~3x its max.
BADGE_DETECT_S = 0.1
#: R3. Longest a burrito takes from a bounce to queue it for the radio (detector decision; ``bench_referee.py``).
BURRITO_DETECT_S = 0.15
#: R2. With heartbeats: how long a miss waits for every badge to report an empty send queue before it asks instead.
MISS_CAP_S = 5.0
#: R6. Longest wait for the impact of a burrito still airborne inside another hit's tie window.
AIRBORNE_CAP_S = 1.0
#: R4. How long the catcher has to claim a catch with any button.
CLAIM_S = 2.0
#: R4. How long after a launch a press may still claim a catch whose verdict has not arrived: the longest flight
#: (about 1.2 s), the detector's look at the hand (0.7 s) and the radio's resends.
VERDICT_WAIT_S = 2.5
#: R9. Pickups this soon after a battle closes are burritos going back to the middle, not fouls.
GRACE_S = 5.0
#: R11. A hold within this long after a call challenges it.
CHALLENGE_S = 3.0
#: R10. Time to answer a question.
ANSWER_S = 8.0
#: R3. A first contact followed by a fall this long was above the floor (a person's hands or arm, or furniture).
FALL_S = 0.25

#: R12. Option i of a question is button i: SET for the first ("yes", "right"), DUEL for the second ("no", "wrong"),
#: as docs/hardware.md says ("SET confirms the call shown, DUEL disputes it") and the question screen shows.
ANSWER_BUTTONS: tuple[str, ...] = ("SET", "DUEL", "BRAWL", "WAR")


@dataclass(frozen=True)
class Question:
    """A question for the table: shown on screen, ``seats`` lit; answered with button ``i`` for ``options[i]``."""

    id: int
    t: float
    text: str
    seats: tuple[int, ...]
    options: tuple[str, ...]
    deadline: float


@dataclass(frozen=True)
class Backlog:
    """A device's heartbeat: at table time ``t`` (the heartbeat's own device stamp, through clock sync) it had
    ``pending`` messages waiting for an ACK and had given up ``gave_up`` (a wrapping counter) since it booted.

    ``Referee.device`` takes this or any event with the same attributes (a host's heartbeat event). ``pending == 0``
    at ``t`` proves that everything the device detected before ``t`` has reached the host.
    """

    t: float
    device: str
    pending: int
    gave_up: int


@dataclass
class _Contact:
    """The first contact of one flight of one burrito."""

    burrito: int
    device: str
    kind: str  # "impact" or "catch"
    t: float
    peak_g: float | None
    launch_t: float | None
    pickup_t: float | None
    fell: bool  # it fell from a height after the contact (first bounce >= FALL_S later)
    decided: bool = False
    next_t: float | None = None  # its next event after the contact (bounce, rest, pickup...), once known


@dataclass
class _Ask:
    """An open question and what to do with its answers."""

    q: Question
    purpose: str  # "hit?", "catch?", "grab?", "tie?", "challenge", "first?"
    contact: _Contact | None = None
    data: dict[str, Any] = field(default_factory=dict)
    answers: dict[int, str] = field(default_factory=dict)


class Referee:
    """Turns device and seat events into table events for the rules engine (API in ``docs/referee.md``)."""

    def __init__(self, seats: int, burritos: dict[str, int], badges: dict[str, int], tie_window_ms: float = 45.0,
                 answer_buttons: tuple[str, ...] = ANSWER_BUTTONS) -> None:
        if not 2 <= seats <= 12:
            raise ValueError(f"Referee: seats must be 2-12, got {seats}")
        for name, seat in badges.items():
            if not 1 <= seat <= seats:
                raise ValueError(f"Referee: badge {name!r} is on seat {seat}, not a seat 1..{seats}")
        self.seats = seats
        self.burritos = dict(burritos)
        self.badges = dict(badges)
        self.tie_window = tie_window_ms / 1000.0
        self.buttons = answer_buttons
        self._events: dict[str, list[DeviceEvent]] = {}
        self._seen: set[tuple[str, int, int]] = set()
        self._link: dict[str, list[tuple[float, str]]] = {}
        self._backlog: dict[str, list[tuple[float, int, int]]] = {}  # device -> (t, pending, gave_up), by t
        self._ctx: list[tuple[float, bool, frozenset[int]]] = [(float("-inf"), False, frozenset())]
        self._decided: dict[tuple[str, float], _Contact] = {}
        self._used_badges: set[tuple[str, float]] = set()
        self._claims: list[tuple[float, int]] = []
        #: burrito -> (seat, catch t): the catcher holds it -- valid only in that battle and until a pickup or rest
        self._holder: dict[int, tuple[int, float]] = {}
        self._asks: list[_Ask] = []
        self._next_id = 1
        self._out: list[dict[str, Any] | Question] = []
        self._emitted_t = float("-inf")
        self._last_call: tuple[float, dict[str, Any]] | None = None
        self._pickups_done: set[tuple[str, float]] = set()
        self._assigned: dict[tuple[str, float], list[DeviceEvent]] = {}
        self._taken: set[tuple[str, float]] = set()
        #: burrito -> t of its last hit/miss/catch call with no throw logged since (the rules saw it land: D8)
        self._landed_at: dict[int, float] = {}
        self._tie_votes: dict[frozenset[tuple[str, float]], tuple[bool, dict[str, Any]]] = {}
        self.challenges: list[dict[str, Any]] = []
        #: (seat, button) presses taken as answers or catch claims: only their release and hold are the referee's
        self._pressed: set[tuple[int, str]] = set()
        self.late: list[dict[str, Any]] = []  # evidence that arrived after its contact was called

    # ------------------------------------------------------------------ inputs

    def context(self, battle_open: bool, fighters: frozenset[int], t: float) -> None:
        """The rules' view after a step: is a battle (or its declaration window) on, and who may throw."""
        if battle_open == self._ctx[-1][1] and frozenset(fighters) == self._ctx[-1][2]:
            return
        i = bisect.bisect_right([c[0] for c in self._ctx], t)
        self._ctx.insert(i, (t, battle_open, frozenset(fighters)))

    def device(self, ev: DeviceEvent | LinkEvent | Backlog | Any) -> None:
        """A device, link or heartbeat (``Backlog``) event, any order; duplicates and unknown devices are ignored."""
        if isinstance(ev, LinkEvent):
            states = self._link.setdefault(ev.device, [])
            bisect.insort(states, (ev.t, ev.state))
            return
        if not isinstance(ev, DeviceEvent):
            pending, gave_up = getattr(ev, "pending", None), getattr(ev, "gave_up", None)
            if isinstance(pending, int) and isinstance(gave_up, int) and (ev.device in self.badges
                                                                         or ev.device in self.burritos):
                reports = self._backlog.setdefault(ev.device, [])
                if (ev.t, pending, gave_up) not in reports:
                    bisect.insort(reports, (float(ev.t), pending, gave_up))
            return
        if ev.device not in self.burritos and ev.device not in self.badges:
            return
        key = (ev.device, ev.seq, ev.device_t_us)
        if key in self._seen:
            return
        self._seen.add(key)
        evs = self._events.setdefault(ev.device, [])
        bisect.insort(evs, ev, key=lambda e: e.t)
        if ev.device in self.badges and ev.kind == "impact":
            for c in self._decided.values():
                if c.kind == "impact" and abs(c.t - ev.t) * 1000 <= HIT_WINDOW_MS and \
                        (ev.device, round(ev.t, 6)) not in self._used_badges:
                    self.late.append({"device": ev.device, "t": ev.t, "contact": c.device, "contact_t": c.t})

    def seat(self, ev: SeatEvent) -> bool:
        """A button event; True if it was an answer, a catch claim or a challenge (the app must not use it).

        A release or hold is the referee's only if it took that button's press: the app's button mapper must see the
        end of every press it saw begin (a SET it keeps pending waits for its release).
        """
        key = (ev.seat, ev.button)
        if ev.action == "release":
            if key in self._pressed:
                self._pressed.discard(key)
                return True
            return False
        if ev.action == "press":
            for ask in self._asks:
                if ev.seat in ask.q.seats and ev.t <= ask.q.deadline:
                    if ev.button in self.buttons and self.buttons.index(ev.button) < len(ask.q.options):
                        ask.answers[ev.seat] = ask.q.options[self.buttons.index(ev.button)]
                        self._pressed.add(key)
                        return True
            if self._battle_at(ev.t)[0] and (self._open_catch(ev.t) or self._awaiting_verdict(ev.t)):
                self._claims.append((ev.t, ev.seat))
                self._pressed.add(key)
                return True
            return False
        if key in self._pressed:
            return True  # an answer or a claim held down is still that, not a challenge
        # hold: a challenge of the last call
        if self._last_call is not None and ev.t - self._last_call[0] <= CHALLENGE_S:
            if any(a.purpose == "challenge" for a in self._asks):
                return True
            call = self._last_call[1]
            seats = sorted({s for s in (call.get("seat"), ev.seat) if s} | set(self._battle_at(call["t"])[1]))
            text = (f"Seat {ev.seat} challenges: {_describe(call)}. Was the call right?")
            self._ask("challenge", text, tuple(seats), ("right", "wrong"), ev.t, data={"call": call, "by": ev.seat})
            return True
        return False

    # ------------------------------------------------------------------ output

    def horizon(self, now: float) -> float:
        """Every call with ``t`` below this has been returned: the app may step seat events older than it."""
        pending = [c.t for c in self._contacts() if not c.decided]
        return min([now - MISS_SETTLE_S - CLAIM_S] + pending) if pending else now - LATENCY_S

    def poll(self, now: float) -> list[dict[str, Any] | Question]:
        """Calls whose evidence has settled by ``now`` (in timestamp order) and new questions."""
        self._close_asks(now)
        self._pickup_fouls(now)
        while self._decide(now):  # a call can change the next one's plan (R10: a landed burrito thrown again)
            pass
        out, self._out = self._out, []
        return out

    def subject(self, question_id: int) -> dict[str, Any] | None:
        """What an open question is about (for simulated players and the screen); None once it is closed."""
        for a in self._asks:
            if a.q.id == question_id:
                out: dict[str, Any] = {"purpose": a.purpose}
                if a.contact is not None:
                    out.update(burrito=a.contact.burrito, contact_t=a.contact.t)
                if "burrito" in a.data:
                    out.update(burrito=a.data["burrito"], contact_t=a.data["t"])
                if "call" in a.data:
                    out.update(call=a.data["call"])
                if "gap" in a.data:
                    out.update(gap_ms=a.data["gap"])
                if "catcher" in a.data:
                    out.update(catcher=a.data["catcher"])
                return out
        return None

    # ------------------------------------------------------------------ context helpers

    def _battle_at(self, t: float) -> tuple[bool, frozenset[int]]:
        i = bisect.bisect_right([c[0] for c in self._ctx], t) - 1
        return self._ctx[i][1], self._ctx[i][2]

    def _battle_id(self, t: float) -> int | None:
        """Which open stretch of the context ``t`` falls in (index of its first entry), None if no battle is on."""
        i = bisect.bisect_right([c[0] for c in self._ctx], t) - 1
        if not self._ctx[i][1]:
            return None
        while i > 0 and self._ctx[i - 1][1]:
            i -= 1
        return i

    def _same_battle(self, t1: float, t2: float) -> bool:
        b = self._battle_id(t1)
        return b is not None and b == self._battle_id(t2)

    def _known_holder(self, c: _Contact) -> int | None:
        """The seat that certainly held burrito ``c`` when it was launched, or None.

        Only a catch makes a holder known, and only while nothing can have changed hands: the catch was in this
        battle, the burrito was not picked up or set down since, and the catcher still fights. A stale holder
        would name a thrower who was not there -- a throw by a non-fighter is "grabbed while not fighting", a bruise.
        """
        known = self._holder.get(c.burrito)
        if known is None:
            return None
        seat, since = known
        end = c.launch_t if c.launch_t is not None else c.t
        if any(since < ev.t <= end and ev.kind in ("pickup", "rest") for ev in self._events.get(c.device, [])):
            return None
        if not self._same_battle(since, c.t) or seat not in self._battle_at(c.t)[1]:
            return None
        return seat

    def _closed_since(self, t: float) -> float:
        """When the battle before ``t`` closed (-inf if never)."""
        last = float("-inf")
        for (_t0, open0, _), (t1, open1, _) in zip(self._ctx, self._ctx[1:]):
            if t1 <= t and open0 and not open1:
                last = t1
        return last

    def _badge_of(self, seat: int) -> str | None:
        return next((d for d, s in self.badges.items() if s == seat), None)

    def _offline(self, device: str, t: float, until: float | None = None) -> bool:
        """Was the device offline at ``t``, or (``until``) did it go offline between ``t`` and ``until``?"""
        states = self._link.get(device, [])
        i = bisect.bisect_right(states, (t, "~")) - 1
        if i >= 0 and states[i][1] == "offline":
            return True
        return until is not None and any(t < st <= until and state == "offline" for st, state in states)

    def _after_known(self, c: _Contact, now: float) -> bool:
        """R3: is what the burrito did after the contact known (its next event), or certainly nothing soon?

        A floor miss bounces within FALL_S; a contact above the floor (a hand, an arm, furniture) falls first. Until
        the next event is in, a miss cannot be told from a touch. With burrito heartbeats, one stamped after
        ``FALL_S + BURRITO_DETECT_S`` with an empty queue proves no bounce came in time; otherwise MISS_SETTLE_S.
        """
        if c.next_t is not None:
            return True
        reports = self._backlog.get(c.device)
        if not reports:
            return now >= c.t + MISS_SETTLE_S
        after = c.t + FALL_S + BURRITO_DETECT_S
        return now >= c.t + MISS_CAP_S or any(t >= after and p == 0 for t, p, _ in reports)

    def _unconfirmed_badges(self, c: _Contact, now: float) -> tuple[bool, list[str], dict[str, float]]:
        """R2: may a contact with no badge impact be called a miss yet?

        Returns (ready, badges that never confirmed, badge -> t of the heartbeat that cleared it). A badge that sends
        heartbeats is clear once one stamped after the contact (plus detection time) reports an empty send queue and
        nothing given up since the contact; until then its impact may still be on the radio, so the miss waits (up to
        MISS_CAP_S, then it is asked). A badge with no heartbeat at all falls back to the MISS_SETTLE_S wait.
        """
        after = c.t + HIT_WINDOW_MS / 1000 + BADGE_DETECT_S
        unconfirmed: list[str] = []
        cleared: dict[str, float] = {}
        settle = False
        for badge in self.badges:
            if self._offline(badge, c.t, now):
                continue  # R7 asks about offline fighters' badges
            reports = self._backlog.get(badge)
            if not reports:
                settle = True
                continue
            before = [g for t, _, g in reports if t <= c.t]
            base = before[-1] if before else None
            clear = next((t for t, p, g in reports if t >= after and p == 0 and (base is None or g == base)), None)
            if clear is None:
                unconfirmed.append(badge)
            else:
                cleared[badge] = round(clear, 6)
        if unconfirmed:
            return now >= c.t + MISS_CAP_S, unconfirmed, cleared
        return not settle or now >= c.t + MISS_SETTLE_S, [], cleared

    # ------------------------------------------------------------------ timelines

    def _contacts(self) -> list[_Contact]:
        """First contact of every flight of every burrito, rebuilt from all its events (they arrive in any order)."""
        out: list[_Contact] = []
        for dev, number in self.burritos.items():
            flying, launch_t, pickup_t, cur = False, None, None, None
            for ev in self._events.get(dev, []):
                if cur is not None and cur.next_t is None and ev.t > cur.t:
                    cur.next_t = ev.t
                if ev.kind == "pickup":
                    flying, pickup_t, cur = False, ev.t, None
                elif ev.kind == "launch":
                    flying, launch_t, cur = True, ev.t, None
                elif ev.kind in ("impact", "catch") and flying:
                    flying = False
                    key = (dev, ev.t)
                    cur = self._decided.get(key) or _Contact(number, dev, ev.kind, ev.t, ev.peak_g, launch_t,
                                                             pickup_t, False)
                    out.append(cur)
                elif ev.kind in ("bounce", "impact") and cur is not None:
                    if cur.kind == "impact" and not cur.decided and ev.t - cur.t >= FALL_S:
                        cur.fell = True
                    cur = None
        out.sort(key=lambda c: c.t)
        return out

    def _airborne(self, dev: str, t: float) -> bool:
        """Was this burrito launched at or before ``t`` with no contact seen since?"""
        flying = False
        for ev in self._events.get(dev, []):
            if ev.t > t:
                break
            flying = ev.kind == "launch" or (flying and ev.kind not in ("impact", "catch", "pickup"))
        return flying

    def _badge_hits(self, t: float) -> list[DeviceEvent]:
        w = HIT_WINDOW_MS / 1000.0
        return sorted((e for d in self.badges for e in self._events.get(d, [])
                       if e.kind == "impact" and abs(e.t - t) <= w and (d, round(e.t, 6)) not in self._used_badges),
                      key=lambda e: e.t)

    def _open_catch(self, t: float) -> bool:
        return any(c.kind == "catch" and not c.decided and 0 <= t - c.t <= CLAIM_S for c in self._contacts())

    # ------------------------------------------------------------------ deciding

    def _asked(self, c: _Contact) -> bool:
        return any(a.contact is not None and a.contact.t == c.t and a.contact.device == c.device for a in self._asks)

    def _awaiting_verdict(self, t: float) -> bool:
        """R4: a burrito launched shortly before ``t`` whose contact has not reached the referee yet. The detector tells
        a catch from a landing only after a short look at the hand (about 0.7 s), so a catcher who presses at once
        claims a catch that is still on its way; an older flight with no contact is lost, not pending."""
        for dev in self.burritos:
            launches = [e.t for e in self._events.get(dev, []) if e.kind == "launch" and e.t <= t]
            if launches and t - launches[-1] <= VERDICT_WAIT_S and self._unresolved_flight(dev, t):
                return True
        return False

    def _unresolved_flight(self, dev: str, until: float) -> bool:
        """Launched by ``until`` with no contact or pickup seen after it: its impact may still be on the radio."""
        last_launch = None
        for ev in self._events.get(dev, []):
            if ev.kind == "launch" and ev.t <= until:
                last_launch = ev.t
            elif last_launch is not None and ev.t > last_launch and ev.kind in ("impact", "catch", "pickup"):
                last_launch = None
        return last_launch is not None

    def _assign(self, contacts: list[_Contact]) -> None:
        """R1: pair undecided burrito impacts with unused badge impacts, closest pairs first."""
        pairs = sorted((abs(h.t - c.t), i, h.device, h.t, c, h) for i, c in enumerate(contacts) if c.kind == "impact"
                       for h in self._badge_hits(c.t))
        self._assigned, self._taken = {}, set()
        done: set[tuple[str, float]] = set()
        for _, _, dev, t, c, h in pairs:
            if (c.device, c.t) in done or (dev, t) in self._taken:
                continue
            done.add((c.device, c.t))
            self._taken.add((dev, t))
            self._assigned[(c.device, c.t)] = [h]

    def _decide(self, now: float) -> bool:
        """Commit the calls that are ready, up to the first that changes later plans; True if it should run again."""
        plans: list[tuple[_Contact, list[dict[str, Any]] | None]] = []
        self._assign([c for c in self._contacts() if not c.decided])
        for c in self._contacts():
            if not c.decided:
                plans.append((c, None if self._asked(c) else self._plan(c, now)))
        # Calls go out in time order: a contact waits for every earlier one, and a hit or catch (a loss) waits for
        # everything inside its tie window, so the rules engine sees both halves of a tie together.
        i = 0
        while i < len(plans):
            c, plan = plans[i]
            if plan is None:
                return False
            group: list[tuple[_Contact, list[dict[str, Any]] | None]] = [(c, plan)]
            if plan and plan[-1]["event"] in ("hit", "catch"):
                reach = self.tie_window + HIT_WINDOW_MS / 1000
                group += [p for p in plans[i + 1:] if p[0].t - c.t <= reach]
                if any(p is None for _, p in group):
                    return False
                if now < c.t + self.tie_window + AIRBORNE_CAP_S and any(
                        self._unresolved_flight(d, c.t + self.tie_window) for d in self.burritos if d != c.device):
                    return False
                if not self._tie_band_ok(group, now):
                    return False
            for gc, gp in group:
                self._commit(gc, gp or [], emit=False)
            self._emit(sorted((e for _, gp in group for e in (gp or [])), key=lambda e: e["t"]))
            i += len(group)
            if i < len(plans):
                return True
        return False

    def _plan(self, c: _Contact, now: float) -> list[dict[str, Any]] | None:
        """The events for contact ``c`` if its evidence has settled, else None (maybe after asking)."""
        battle, fighters = self._battle_at(c.t)
        ev: dict[str, Any] = {"burrito_device": c.device, "contact": c.kind, "contact_t": round(c.t, 6),
                              "launch_t": _r(c.launch_t), "peak_g": c.peak_g, "fighters": sorted(fighters)}
        if c.kind == "catch":
            claims = [s for t, s in self._claims if 0 <= t - c.t <= CLAIM_S]
            if not claims:
                if now < c.t + CLAIM_S:
                    return None
                self._ask_contact("catch?", c, f"Burrito {c.burrito} was caught. Did you catch it?",
                                  tuple(sorted(fighters)) or self._all(), now)
                return None
            if len(set(claims)) > 1:
                self._ask_contact("catch?", c, f"Burrito {c.burrito} was caught. Did you catch it?",
                                  tuple(sorted(set(claims))), now)
                return None
            return self._catch_events(c, claims[0], dict(ev, decided="catcher claimed it with a button",
                                                         confirmed_by=[claims[0]]))
        hits = self._assigned.get((c.device, c.t), [])
        spare = [h for h in self._badge_hits(c.t) if (h.device, h.t) not in self._taken]
        if hits and spare and now < c.t + AIRBORNE_CAP_S and any(
                self._unresolved_flight(d, c.t + HIT_WINDOW_MS / 1000) for d in self.burritos if d != c.device):
            return None  # the spare badge may belong to another burrito whose impact is still on the radio
        if hits and spare:
            both = sorted(hits + spare, key=lambda e: e.t)
            if (both[1].t - both[0].t) * 1000 < BADGE_ORDER_MS:
                seats = tuple(sorted(self.badges[h.device] for h in both))
                self._ask_contact("first?", c, f"Burrito {c.burrito} touched seats {_seats(seats)} at once: "
                                  "were you touched first?", seats, now, {"hits": both})
                return None
            hits = both[:1]  # R5: clearly first; the later badge is a bounce
        if hits:
            if now < c.t + max(self.tie_window, HIT_WINDOW_MS / 1000) + LATENCY_S:
                return None
            h = min(hits, key=lambda e: abs(e.t - c.t))
            hit = self._hit(c, h, dict(ev))
            pre = self._rethrow(c, self.badges[h.device], fighters, ask_at=now, then=[hit])
            return None if pre is None else pre + [hit]
        ready, unconfirmed, cleared = self._unconfirmed_badges(c, now)
        if not ready or not self._after_known(c, now):
            return None
        offline = sorted(s for s in fighters if (b := self._badge_of(s)) is None or self._offline(b, c.t, now))
        if offline:
            self._ask_contact("hit?", c, f"Burrito {c.burrito} touched something; a badge is offline. "
                              "Were you hit by it?", tuple(offline), now, {"why": "badge offline"})
            return None
        if unconfirmed:
            seats = tuple(sorted({self.badges[b] for b in unconfirmed}))
            self._ask_contact("hit?", c, f"Burrito {c.burrito} touched something; badge {_seats(seats)} could not "
                              "confirm it. Were you hit by it?", seats, now,
                              {"why": f"{', '.join(unconfirmed)} still had unsent messages {MISS_CAP_S:g} s later"})
            return None
        if cleared:
            ev["badges_clear"] = cleared
        if c.next_t is None and fighters:
            self._ask_contact("hit?", c, f"Burrito {c.burrito} touched something and did not bounce. "
                              "Did it touch you?", tuple(sorted(fighters)), now,
                              {"why": "no bounce came back from it: it did not land on the floor"})
            return None
        if c.fell and fighters:
            self._ask_contact("hit?", c, f"Burrito {c.burrito} touched something above the floor and fell. "
                              "Did it touch you?", tuple(sorted(fighters)), now,
                              {"why": "it fell from a height after the contact: a hand, an arm or furniture"})
            return None
        return [dict(t=c.t, event="miss", burrito=c.burrito,
                     evidence=dict(ev, decided="impact with no badge impact within "
                                   f"{HIT_WINDOW_MS:g} ms" + ("; every badge's heartbeat after it showed nothing "
                                                              "left to send" if cleared else ""),
                                   badges_online=True))]

    def _hit(self, c: _Contact, h: DeviceEvent, ev: dict[str, Any]) -> dict[str, Any]:
        seat = self.badges[h.device]
        ev.update(badge_device=h.device, badge_t=round(h.t, 6), gap_ms=round((h.t - c.t) * 1000, 2),
                  decided=f"burrito and badge impacts {abs(h.t - c.t) * 1000:.1f} ms apart "
                          f"(window {HIT_WINDOW_MS:g} ms)")
        return dict(t=h.t, event="hit", burrito=c.burrito, seat=seat, evidence=ev)

    def _rethrow(self, c: _Contact, victim: int, fighters: frozenset[int], ask_at: float | None = None,
                 then: list[dict[str, Any]] | None = None) -> list[dict[str, Any]] | None:
        """A ``throw`` for a burrito the rules saw land (D8) and nobody was seen to pick up: the rules ignore any
        contact of a landed burrito until a grab or throw. The thrower is the known holder (R10), else in a
        two-fighter battle the other fighter; in a War (``ask_at`` given) the candidates are asked and None is
        returned; otherwise nothing (the rules then ignore the contact, and the journal keeps its evidence)."""
        landed = self._landed_at.get(c.burrito)
        if landed is None or not self._same_battle(landed, c.t):
            return []  # a new battle starts with the burritos in the middle: the rules need no throw
        thrower = self._known_holder(c)
        why = f"seat {thrower} caught it and held it since"
        if thrower is None and victim in fighters and len(fighters) == 2:
            thrower = next(iter(fighters - {victim}))
            why = f"seat {thrower} is the only other fighter"
        if thrower is None and ask_at is not None and then and len(fighters - {victim}) > 1 and victim in fighters:
            # A War: several fighters could have thrown it again, and the rules ignore a landed burrito's contacts
            # until someone throws it (D8). Ask the candidates rather than name one.
            self._ask_contact("thrower?", c, f"Burrito {c.burrito} hit seat {victim} after it had landed once in "
                              "this battle. Did you throw it?", tuple(sorted(fighters - {victim})), ask_at,
                              {"then": then})
            return None
        if thrower is None or thrower == victim:
            return []
        return [dict(t=c.launch_t if c.launch_t is not None else c.t, event="throw", seat=thrower, burrito=c.burrito,
                     evidence={"burrito_device": c.device, "launch_t": _r(c.launch_t), "fighters": sorted(fighters),
                               "decided": f"thrown again after its last call; {why}", "thrower": f"seat {thrower}"})]

    def _catch_events(self, c: _Contact, catcher: int, ev: dict[str, Any]) -> list[dict[str, Any]] | None:
        """The catch (and the throw it implies), or None after asking who threw it."""
        _, fighters = self._battle_at(c.t)
        if fighters and catcher not in fighters:
            ev["decided"] += f"; seat {catcher} is not fighting: a miss (D9)"
            return [dict(t=c.t, event="miss", burrito=c.burrito, evidence=ev)]
        thrower = self._known_holder(c)
        if thrower is not None:
            ev["thrower"] = f"seat {thrower}: caught it earlier in this battle and held it since"
        elif len(fighters - {catcher}) == 1:
            thrower = next(iter(fighters - {catcher}))
            ev["thrower"] = f"seat {thrower}: the only other fighter"
        out: list[dict[str, Any]] = []
        if thrower is not None and thrower != catcher:
            out.append(dict(t=c.launch_t if c.launch_t is not None else c.t, event="throw", seat=thrower,
                            burrito=c.burrito, evidence=dict(ev, decided="thrower inferred for the catch")))
        elif thrower is None:
            self._ask_contact("thrower?", c, f"Seat {catcher} caught burrito {c.burrito}. Did you throw it?",
                              tuple(sorted(fighters - {catcher})), c.t + CLAIM_S, {"catcher": catcher, "ev": ev})
            return None
        out.append(dict(t=c.t, event="catch", burrito=c.burrito, seat=catcher, evidence=ev))
        return out

    def _emit(self, events: list[dict[str, Any]]) -> None:
        for e in events:
            if e["t"] < self._emitted_t:  # never backwards: the evidence keeps the measured times
                e["evidence"]["measured_t"] = e["t"]
                e["t"] = self._emitted_t
            self._emitted_t = e["t"]
            self._out.append(e)
            if e["event"] in ("hit", "miss", "catch"):
                self._last_call = (e["t"], e)

    def _commit(self, c: _Contact, plan: list[dict[str, Any]], emit: bool = True) -> None:
        c.decided = True
        self._decided[(c.device, c.t)] = c
        for e in plan:
            ev = e.get("evidence", {})
            if ev.get("badge_device"):
                self._used_badges.add((ev["badge_device"], ev["badge_t"]))
        if not plan:
            return
        if emit:
            self._emit(plan)
        last = plan[-1]
        if any(e["event"] == "throw" for e in plan):
            self._landed_at.pop(c.burrito, None)
        if last["event"] in ("hit", "miss", "catch"):
            self._landed_at[c.burrito] = c.t
        if last["event"] == "catch":
            self._holder[c.burrito] = (last["seat"], c.t)
        else:
            self._holder.pop(c.burrito, None)

    def _tie_band_ok(self, group: list[tuple[_Contact, list[dict[str, Any]] | None]], now: float) -> bool:
        """R6: two losses whose gap is within TIE_MARGIN of the tie window are voted on, not called."""
        losses = [p[-1] for _, p in group if p and p[-1]["event"] in ("hit", "catch")]
        if len(losses) < 2:
            return True
        first, second = sorted(losses, key=lambda e: e["t"])[:2]
        gap = (second["t"] - first["t"]) * 1000
        w = self.tie_window * 1000
        if abs(gap - w) >= TIE_MARGIN_MS:
            return True
        key = frozenset((gc.device, gc.t) for gc, _ in group)
        vote = self._tie_votes.get(key)
        if vote is None:
            if not any(a.purpose == "tie?" for a in self._asks):
                seats = tuple(sorted({e["seat"] for e in losses}))
                self._ask("tie?", f"Seats {_seats(seats)} lost {gap:.0f} ms apart (tie window {w:g} ms): "
                          "a tie? Everyone votes.", self._all(), ("tie", "no tie"), now,
                          data={"key": key, "gap": gap})
            return False
        is_tie, people = vote
        second["evidence"]["measured_t"] = second["t"]
        second["t"] = first["t"] + (self.tie_window if is_tie else self.tie_window + 0.001)
        for e in (first, second):
            e["evidence"].update(people, tie_vote="tie" if is_tie else "no tie")
            e["evidence"]["decided"] += (f"; measured gap {gap:.1f} ms is within the measurement error of the "
                                         f"{w:g} ms tie window, so the table voted")
        return True

    # ------------------------------------------------------------------ questions

    def _all(self) -> tuple[int, ...]:
        return tuple(range(1, self.seats + 1))

    def _ask(self, purpose: str, text: str, seats: tuple[int, ...], options: tuple[str, ...], t: float,
             contact: _Contact | None = None, data: dict[str, Any] | None = None) -> _Ask:
        q = Question(self._next_id, t, text, seats, options, t + ANSWER_S)
        self._next_id += 1
        ask = _Ask(q, purpose, contact, data or {})
        self._asks.append(ask)
        self._out.append(q)
        return ask

    def _ask_contact(self, purpose: str, c: _Contact, text: str, seats: tuple[int, ...], t: float,
                     data: dict[str, Any] | None = None) -> None:
        if self._asked(c):
            return
        self._ask(purpose, text, seats, ("yes", "no"), t, c, data)

    def _close_asks(self, now: float) -> None:
        for ask in list(self._asks):
            # Every asked seat answers, or time runs out: one early "yes" never settles it, since a second "yes"
            # would contradict it (and then nobody is bruised).
            done = len(ask.answers) == len(ask.q.seats) or now > ask.q.deadline
            if not done:
                continue
            self._asks.remove(ask)
            self._resolve(ask, now)

    def _resolve(self, ask: _Ask, now: float) -> None:
        yes = sorted(s for s, a in ask.answers.items() if a == "yes")
        people = {"question": ask.q.text, "answers": {str(s): a for s, a in sorted(ask.answers.items())},
                  "confirmed_by_people": True}
        c = ask.contact
        if ask.purpose == "challenge":
            wrong = sum(1 for a in ask.answers.values() if a == "wrong")
            right = sum(1 for a in ask.answers.values() if a == "right")
            call = ask.data["call"]
            record = {"t": now, "by": ask.data["by"], "call": _describe(call), "answers": people["answers"],
                      "upheld": wrong <= right}
            self.challenges.append(record)
            if wrong > right:
                # The log's undo (D21, Z15): the rules fold the game again without the call, so its bruise goes
                # back and an elimination is reversed. The rules accept it only for the last call.
                ev0: dict[str, Any] = dict(t=max(now, self._emitted_t), event="overturn", call=call["event"],
                                           **{k: call[k] for k in ("seat", "burrito") if k in call},
                                           evidence=dict(people, call_t=call["t"], challenged_by=ask.data["by"],
                                                         decided=f"challenge by seat {ask.data['by']} upheld: "
                                                         f"{wrong} wrong, {right} right (R11)"))
                self._emitted_t = ev0["t"]
                self._out.append(ev0)
                self._last_call = None  # nothing left to challenge until the next call
            if wrong > right and call["event"] == "miss" and self._battle_at(now)[0]:
                self._ask("victim?", f"The miss of burrito {call['burrito']} was overturned. Were you hit by it?",
                          tuple(sorted(self._battle_at(now)[1])), ("yes", "no"), now, data={"call": call})
            return
        if ask.purpose == "victim?":
            if len(yes) == 1 and self._battle_at(now)[0]:
                call = ask.data["call"]
                ev: dict[str, Any] = dict(t=max(now, self._emitted_t), event="foul", seat=yes[0],
                          evidence=dict(people, decided=f"challenge overturned the miss at {call['t']:.3f}: "
                                        f"seat {yes[0]} says it was hit (a foul ends the battle with its bruise)"))
                self._emitted_t = ev["t"]
                self._out.append(ev)
            return
        if ask.purpose == "grab?":
            if len(yes) == 1:
                ev = dict(t=max(float(ask.data["t"]), self._emitted_t), event="grab", seat=yes[0],
                          burrito=ask.data["burrito"],
                          evidence=dict(people, burrito_device=ask.data["device"], pickup_t=round(ask.data["t"], 6),
                                        decided="pickup with no battle on; the holder said so"))
                self._emitted_t = ev["t"]
                self._out.append(ev)
            return
        if ask.purpose == "tie?":
            tie = sum(1 for a in ask.answers.values() if a == "tie")
            no = sum(1 for a in ask.answers.values() if a == "no tie")
            if tie == no:  # a split vote: the device timestamps decide after all
                people["confirmed_by_people"] = False
            self._tie_votes[ask.data["key"]] = (tie > no if tie != no else ask.data["gap"] <= self.tie_window * 1000,
                                                people)
            return
        assert c is not None
        battle, fighters = self._battle_at(c.t)
        base = {"burrito_device": c.device, "contact": c.kind, "contact_t": round(c.t, 6), "launch_t": _r(c.launch_t),
                "peak_g": c.peak_g, "fighters": sorted(fighters), **people}
        plan: list[dict[str, Any]] | None
        if ask.purpose == "hit?":
            if len(yes) == 1:
                plan = (self._rethrow(c, yes[0], fighters) or []) + [dict(t=c.t, event="hit", burrito=c.burrito, seat=yes[0],
                             evidence=dict(base, decided=f"no badge confirmed it ({ask.data.get('why')}); "
                                           f"seat {yes[0]} said it was hit"))]
            else:
                plan = [dict(t=c.t, event="miss", burrito=c.burrito,
                             evidence=dict(base, decided=_unsettled(yes, ask, "nobody said they were hit")))]
        elif ask.purpose == "first?":
            hits = ask.data["hits"]
            if len(yes) == 1:
                h = next(x for x in hits if self.badges[x.device] == yes[0])
                plan = (self._rethrow(c, yes[0], fighters) or []) + [self._hit(c, h, dict(base))]
                plan[-1]["evidence"]["decided"] += f"; several badges at once, seat {yes[0]} said it was first"
            else:
                plan = [dict(t=c.t, event="miss", burrito=c.burrito,
                             evidence=dict(base, decided="several badges at once and no single first touch "
                                           "confirmed: no bruise without evidence"))]
            for h in hits:
                self._used_badges.add((h.device, round(h.t, 6)))
        elif ask.purpose == "catch?":
            if len(yes) == 1:
                plan = self._catch_events(c, yes[0], dict(base, decided=f"seat {yes[0]} said it caught it"))
                if plan is None:
                    return
            else:
                plan = [dict(t=c.t, event="miss", burrito=c.burrito,
                             evidence=dict(base, decided=_unsettled(yes, ask, "nobody claimed the catch") +
                                           ": no call against a thrower"))]
        elif ask.purpose == "thrower?" and "then" in ask.data:
            then = [dict(e, evidence=dict(e["evidence"], **people)) for e in ask.data["then"]]
            if len(yes) == 1:
                plan = [dict(t=c.launch_t if c.launch_t is not None else c.t, event="throw", seat=yes[0],
                             burrito=c.burrito, evidence=dict(base, decided=f"seat {yes[0]} said it threw it "
                                                              "again"))] + then
            else:
                then[-1]["evidence"]["decided"] += ("; who threw it again is unknown ("
                                                    + _unsettled(yes, ask, "nobody said they threw it")
                                                    + "), so the rules ignore it as landed (D8)")
                plan = then
        elif ask.purpose == "thrower?":
            catcher = ask.data["catcher"]
            ev = dict(ask.data["ev"], **people)
            if len(yes) == 1:
                plan = [dict(t=c.launch_t if c.launch_t is not None else c.t, event="throw", seat=yes[0],
                             burrito=c.burrito, evidence=dict(ev, decided=f"seat {yes[0]} said it threw")),
                        dict(t=c.t, event="catch", burrito=c.burrito, seat=catcher, evidence=ev)]
            else:
                plan = [dict(t=c.t, event="miss", burrito=c.burrito,
                             evidence=dict(ev, decided="the thrower is unknown: the catch costs nobody"))]
        else:  # pragma: no cover - every purpose is handled above
            raise AssertionError(ask.purpose)
        self._commit(c, plan)

    # ------------------------------------------------------------------ fouls

    def _pickup_fouls(self, now: float) -> None:
        """R9: a burrito picked up with no battle on (outside the grace after a battle) is a foul by someone."""
        for dev, number in self.burritos.items():
            for ev in self._events.get(dev, []):
                if ev.kind != "pickup" or (dev, ev.t) in self._pickups_done or now < ev.t + LATENCY_S:
                    continue
                self._pickups_done.add((dev, ev.t))
                battle, _ = self._battle_at(ev.t)
                if battle or ev.t - self._closed_since(ev.t) <= GRACE_S:
                    continue
                self._ask("grab?", f"Burrito {number} was picked up with no battle on. Is it you?", self._all(),
                          ("yes", "no"), now, data={"t": ev.t, "burrito": number, "device": dev})


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def _unsettled(yes: list[int], ask: _Ask, nobody: str) -> str:
    """Why a question gave no call: contradictory answers, no "yes", or no answer at all."""
    if len(yes) > 1:
        return f"seats {_seats(yes)} all said yes: the answers contradict each other, so no bruise"
    return nobody if ask.answers else "no answer: no bruise without evidence"


def _seats(seats: tuple[int, ...] | list[int]) -> str:
    return " and ".join(str(s) for s in seats)


def _describe(call: dict[str, Any]) -> str:
    e = call["event"]
    if e == "hit":
        return f"burrito {call['burrito']} hit seat {call['seat']}"
    if e == "miss":
        return f"burrito {call['burrito']} missed"
    if e == "catch":
        return f"seat {call['seat']} caught burrito {call['burrito']}"
    return f"{e} by seat {call.get('seat')}"
