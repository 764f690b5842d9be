"""One test per evidence rule of the referee (docs/referee.md, R1-R12), on hand-made device and seat events."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from firmware_bridge.host.events import DeviceEvent, LinkEvent
from game.log import Table
from game.referee import Question, Referee
from game.referee import referee as R
from game.referee.evidence import evidence_lines
from hardware.events import SeatEvent

BURRITOS = {"burrito-1": 1, "burrito-2": 2}
BADGES = {"badge-1": 1, "badge-2": 2, "badge-3": 3, "badge-4": 4}
_seq = itertools.count(1)


def dev(device: str, kind: str, t: float, peak: float | None = None) -> DeviceEvent:
    return DeviceEvent(t, device, "badge" if device.startswith("badge") else "burrito", kind, next(_seq),
                       int(t * 1e6), peak)


def throw(burrito: str, launch: float, contact: float, kind: str = "impact") -> list[DeviceEvent]:
    return [dev(burrito, "pickup", launch - 0.8), dev(burrito, "launch", launch), dev(burrito, kind, contact, 9.0)]


def duel(fighters: frozenset[int] = frozenset({1, 2})) -> Referee:
    ref = Referee(4, BURRITOS, BADGES)
    ref.context(True, fighters, 0.0)
    return ref


def run(ref: Referee, events: list[DeviceEvent | LinkEvent], until: float, step: float = 0.05,
        presses: list[SeatEvent] | None = None) -> list[dict[str, Any] | Question]:
    """Deliver each event at its own t (arrival = stamp) and poll every ``step`` up to ``until``."""
    out: list[dict[str, Any] | Question] = []
    evs = sorted(events, key=lambda e: e.t)
    ps = sorted(presses or [], key=lambda e: e.t)
    now = 0.0
    while now <= until:
        while evs and evs[0].t <= now:
            ref.device(evs.pop(0))
        while ps and ps[0].t <= now:
            ref.seat(ps.pop(0))
        out += ref.poll(now)
        now = round(now + step, 6)
    return out


def calls(out: list) -> list[tuple[str, int | None]]:
    return [(c["event"], c.get("seat")) for c in out if isinstance(c, dict)]


def questions(out: list) -> list[Question]:
    return [q for q in out if isinstance(q, Question)]


def test_r1_hit_is_a_burrito_impact_matched_by_a_badge_impact_inside_the_window() -> None:
    ref = duel()
    out = run(ref, throw("burrito-1", 1.0, 1.5) + [dev("badge-2", "impact", 1.5025)], until=3.0)
    assert calls(out) == [("hit", 2)]
    hit = out[0]
    assert hit["t"] == pytest.approx(1.5025) and hit["evidence"]["gap_ms"] == pytest.approx(2.5)
    assert hit["evidence"]["badge_device"] == "badge-2" and hit["evidence"]["burrito_device"] == "burrito-1"
    json.dumps(hit)  # the journal stores it


def test_r1_badge_impact_outside_the_window_is_not_the_same_contact() -> None:
    ref = duel()
    gap = (R.HIT_WINDOW_MS + 5) / 1000
    evs = throw("burrito-1", 1.0, 1.5) + [dev("badge-2", "impact", 1.5 + gap), dev("burrito-1", "bounce", 1.6)]
    out = run(ref, evs, until=4.0)
    assert calls(out) == [("miss", None)]


def test_r2_miss_is_called_only_after_the_miss_settle_time_so_a_late_badge_still_counts() -> None:
    ref = duel()
    for e in throw("burrito-1", 1.0, 1.5):
        ref.device(e)
    assert ref.poll(1.5 + R.MISS_SETTLE_S - 0.05) == []
    ref.device(dev("badge-2", "impact", 1.501))  # arrives late, still within the settle time
    assert calls(ref.poll(1.5 + R.MISS_SETTLE_S + 0.01)) == [("hit", 2)]


def test_r2_hit_waits_for_its_tie_window_plus_latency_then_is_called() -> None:
    ref = duel()
    for e in throw("burrito-1", 1.0, 1.5) + [dev("badge-2", "impact", 1.5)]:
        ref.device(e)
    assert ref.poll(1.5 + 0.045) == []
    assert calls(ref.poll(1.5 + 0.045 + R.LATENCY_S + 0.011)) == [("hit", 2)]


def test_r3_first_contact_decides_a_bounce_into_another_badge_is_no_second_hit() -> None:
    ref = duel()
    evs = throw("burrito-1", 1.0, 1.5) + [dev("badge-2", "impact", 1.501), dev("burrito-1", "bounce", 1.7),
                                          dev("badge-1", "impact", 1.7), dev("burrito-1", "bounce", 1.95)]
    assert calls(run(ref, evs, until=4.0)) == [("hit", 2)]


def test_r3_contact_followed_by_a_long_fall_with_no_badge_is_asked_not_called_a_miss() -> None:
    ref = duel()
    evs = throw("burrito-1", 1.0, 1.5) + [dev("burrito-1", "bounce", 1.9)]
    out = run(ref, evs, until=1.5 + R.MISS_SETTLE_S + 0.1)
    qs = questions(out)
    assert calls(out) == [] and len(qs) == 1 and qs[0].seats == (1, 2)
    out = run_answers(ref, qs[0], {2: "yes", 1: "no"}, 4.0)
    assert calls(out) == [("hit", 2)] and out[-1]["evidence"]["confirmed_by_people"] is True


def run_answers(ref: Referee, q: Question, answers: dict[int, str], t: float) -> list:
    for seat, a in answers.items():
        assert ref.seat(SeatEvent(t, seat, ref.buttons[q.options.index(a)], "press"))
    return ref.poll(t + 0.01)


def test_r4_catch_claimed_by_the_other_fighter_makes_the_thrower_lose() -> None:
    ref = duel()
    out = run(ref, throw("burrito-1", 1.0, 1.5, "catch"), until=4.0, presses=[SeatEvent(2.0, 2, "SET", "press")])
    assert calls(out) == [("throw", 1), ("catch", 2)]
    table, _ = Table.start({"event": "setup", "game": "throw-throw-burrito", "seats": 4})
    table.apply(table.check({"t": 0.0, "event": "declare", "seat": 3, "battle": "duel"}))
    table.apply(table.check({"t": 0.1, "event": "pick", "seat": 3, "players": [1, 2]}))
    for c in out:
        table.apply(table.check({k: v for k, v in c.items() if k != "evidence"}))
    table.finish()
    assert table.summary()["battles"][0]["loser"] == 1


def test_r4_a_claim_pressed_before_the_catch_reaches_the_referee_still_counts() -> None:
    """The detector calls a catch only after a short look at the hand (about 0.7 s): a catcher who presses at once,
    while the burrito's verdict is still on its way, has claimed it, and is not asked."""
    ref = duel()
    pickup, launch, catch = throw("burrito-1", 1.0, 1.5, "catch")
    ref.device(pickup)
    ref.device(launch)
    out = ref.poll(1.7)
    assert ref.seat(SeatEvent(1.8, 2, "SET", "press"))  # taken as a claim: burrito 1 is still unresolved
    out += ref.poll(2.1)
    ref.device(catch)  # arrives at 2.2, stamped at its contact (1.5)
    now = 2.2
    while now <= 4.5:
        out += ref.poll(now)
        now = round(now + 0.05, 6)
    assert calls(out) == [("throw", 1), ("catch", 2)] and questions(out) == []


def test_r4_a_press_long_after_a_lost_flight_is_no_claim() -> None:
    """A launch whose contact never arrives does not make every later press a claim."""
    ref = duel()
    for e in throw("burrito-1", 1.0, 1.5, "catch")[:2]:
        ref.device(e)
    ref.poll(1.5)
    assert not ref.seat(SeatEvent(1.0 + R.VERDICT_WAIT_S + 0.5, 2, "SET", "press"))


def test_r4_unclaimed_catch_is_asked_of_the_fighters() -> None:
    ref = duel()
    out = run(ref, throw("burrito-1", 1.0, 1.5, "catch"), until=1.5 + R.CLAIM_S + 0.1)
    qs = questions(out)
    assert calls(out) == [] and qs and qs[0].seats == (1, 2)
    assert calls(run_answers(ref, qs[0], {2: "yes", 1: "no"}, 4.0)) == [("throw", 1), ("catch", 2)]


def test_r4_catch_claimed_by_a_non_fighter_is_a_miss() -> None:
    ref = duel()
    out = run(ref, throw("burrito-1", 1.0, 1.5, "catch"), until=4.0, presses=[SeatEvent(2.0, 4, "SET", "press")])
    assert calls(out) == [("miss", None)]


@pytest.mark.parametrize("gap_ms,tie", [(0, True), (20, True), (30, True), (55, False), (100, False)])
def test_r6_two_hits_within_the_tie_window_reach_the_rules_together_and_make_a_tie(gap_ms: float, tie: bool) -> None:
    ref = duel()
    g = gap_ms / 1000
    evs = throw("burrito-1", 1.0, 1.5) + throw("burrito-2", 1.1, 1.5 + g) + [
        dev("badge-2", "impact", 1.5), dev("badge-1", "impact", 1.5 + g)]
    out = run(ref, evs, until=4.0)
    assert sorted(calls(out)) == [("hit", 1), ("hit", 2)]
    table, _ = Table.start({"event": "setup", "game": "throw-throw-burrito", "seats": 4})
    table.apply(table.check({"t": 0.0, "event": "declare", "seat": 3, "battle": "duel"}))
    table.apply(table.check({"t": 0.1, "event": "pick", "seat": 3, "players": [1, 2]}))
    for c in out:
        table.apply(table.check({k: v for k, v in c.items() if k != "evidence"}))
    table.finish()
    assert (table.state.battles[0].tie == [1, 2]) is tie


def test_r6_hits_whose_gap_is_inside_the_error_band_of_the_tie_window_are_voted_on() -> None:
    ref = duel()
    evs = throw("burrito-1", 1.0, 1.5) + throw("burrito-2", 1.1, 1.546) + [
        dev("badge-2", "impact", 1.5), dev("badge-1", "impact", 1.546)]
    out = run(ref, evs, until=3.0)
    qs = questions(out)
    assert calls(out) == [] and qs and qs[0].options == ("tie", "no tie") and qs[0].seats == (1, 2, 3, 4)
    out = run_answers(ref, qs[0], {1: "tie", 2: "tie", 3: "tie", 4: "no tie"}, 3.1)
    out += ref.poll(3.2)
    hits = [c for c in out if isinstance(c, dict)]
    assert len(hits) == 2 and hits[1]["t"] - hits[0]["t"] <= 0.045 + 1e-9
    assert hits[1]["evidence"]["measured_t"] == pytest.approx(1.546) and hits[1]["evidence"]["tie_vote"] == "tie"


def test_r5_one_burrito_on_two_badges_at_once_is_asked_and_clearly_first_is_called() -> None:
    ref = duel(frozenset({1, 2, 3}))
    out = run(ref, throw("burrito-1", 1.0, 1.5) + [dev("badge-2", "impact", 1.5), dev("badge-3", "impact", 1.502)],
              until=3.0)
    qs = questions(out)
    assert calls(out) == [] and qs[0].seats == (2, 3)
    ref2 = duel(frozenset({1, 2, 3}))
    out2 = run(ref2, throw("burrito-1", 1.0, 1.5) + [dev("badge-2", "impact", 1.5), dev("badge-3", "impact", 1.509)],
               until=3.0)
    assert calls(out2) == [("hit", 2)]


def test_r7_badge_offline_asks_that_fighter_and_no_answer_gives_no_bruise() -> None:
    ref = duel()
    evs: list = [LinkEvent(0.5, "badge-2", "badge", "offline", "no frame for 3.0 s")] + throw("burrito-1", 1.0, 1.5)
    out = run(ref, evs, until=1.5 + R.MISS_SETTLE_S + 0.1)
    qs = questions(out)
    assert calls(out) == [] and qs[0].seats == (2,)
    out = ref.poll(qs[0].deadline + 0.01)
    assert calls(out) == [("miss", None)] and "no answer" in out[0]["evidence"]["decided"]


def test_r7_badge_offline_confirmed_hit_is_journaled_as_confirmed_by_people() -> None:
    ref = duel()
    out = run(ref, [LinkEvent(0.5, "badge-2", "badge", "offline", "x")] + throw("burrito-1", 1.0, 1.5), until=3.6)
    out = run_answers(ref, questions(out)[0], {2: "yes"}, 4.0)
    assert calls(out) == [("hit", 2)]
    assert out[0]["evidence"]["confirmed_by_people"] and out[0]["evidence"]["answers"] == {"2": "yes"}


def test_r8_hit_on_a_non_battler_is_called_on_that_seat_and_the_rules_make_it_a_miss() -> None:
    ref = duel()
    out = run(ref, throw("burrito-1", 1.0, 1.5) + [dev("badge-4", "impact", 1.501)], until=3.0)
    assert calls(out) == [("hit", 4)] and out[0]["evidence"]["fighters"] == [1, 2]


def test_r9_pickup_with_no_battle_on_asks_who_holds_it_and_the_holder_gets_a_grab() -> None:
    ref = Referee(4, BURRITOS, BADGES)
    out = run(ref, [dev("burrito-2", "pickup", 1.0)], until=2.0)
    q = questions(out)[0]
    assert q.seats == (1, 2, 3, 4)
    out = run_answers(ref, q, {1: "no", 2: "no", 3: "yes", 4: "no"}, 3.0)
    assert calls(out) == [("grab", 3)] and out[0]["burrito"] == 2


def test_r9_pickups_just_after_a_battle_are_burritos_going_back_to_the_middle() -> None:
    ref = duel()
    ref.context(False, frozenset(), 1.0)
    assert run(ref, [dev("burrito-1", "pickup", 1.0 + R.GRACE_S - 1)], until=R.GRACE_S + 2) == []


def test_r10_throw_again_after_a_miss_then_a_hit_still_counts_in_the_rules() -> None:
    ref = duel()
    evs = throw("burrito-1", 1.0, 1.5) + [dev("burrito-1", "bounce", 1.6)] + throw("burrito-1", 3.5, 4.0) + [
        dev("badge-2", "impact", 4.001)]
    out = run(ref, evs, until=7.0)
    assert calls(out) == [("miss", None), ("throw", 1), ("hit", 2)]
    table, _ = Table.start({"event": "setup", "game": "throw-throw-burrito", "seats": 4})
    table.apply(table.check({"t": 0.0, "event": "declare", "seat": 3, "battle": "duel"}))
    table.apply(table.check({"t": 0.1, "event": "pick", "seat": 3, "players": [1, 2]}))
    for c in out:
        table.apply(table.check({k: v for k, v in c.items() if k != "evidence"}))
    table.finish()
    assert table.summary()["battles"][0]["loser"] == 2


def test_r11_challenge_of_a_miss_overturned_gives_the_confirmed_victim_the_loss_as_a_foul() -> None:
    ref = duel()
    out = run(ref, throw("burrito-1", 1.0, 1.5) + [dev("burrito-1", "bounce", 1.6)], until=3.6)
    assert calls(out) == [("miss", None)]
    assert ref.seat(SeatEvent(4.0, 1, "SET", "hold"))
    q = questions(ref.poll(4.0))[0]
    assert q.options == ("right", "wrong") and 1 in q.seats
    out = run_answers(ref, q, {1: "wrong", 2: "wrong"}, 4.5)
    q2 = questions(out)[0]
    out = run_answers(ref, q2, {2: "yes", 1: "no"}, 5.0)
    assert calls(out) == [("foul", 2)] and "overturned" in out[0]["evidence"]["decided"]
    assert ref.challenges[0]["upheld"] is False


def test_r11_challenge_upheld_changes_nothing_and_late_holds_are_not_challenges() -> None:
    ref = duel()
    run(ref, throw("burrito-1", 1.0, 1.5) + [dev("badge-2", "impact", 1.5)], until=2.0)
    assert not ref.seat(SeatEvent(2.0 + R.CHALLENGE_S + 1, 1, "SET", "hold"))
    ref2 = duel()
    run(ref2, throw("burrito-1", 1.0, 1.5) + [dev("badge-2", "impact", 1.5)], until=2.0)
    assert ref2.seat(SeatEvent(2.5, 2, "SET", "hold"))
    q = questions(ref2.poll(2.5))[0]
    assert calls(run_answers(ref2, q, {s: "right" for s in q.seats}, 3.0)) == []
    assert ref2.challenges[0]["upheld"] is True


def test_r12_referee_is_deterministic_whatever_order_the_radio_delivers_events_in() -> None:
    evs = throw("burrito-1", 1.0, 1.5) + throw("burrito-2", 1.1, 1.52) + [
        dev("badge-2", "impact", 1.5), dev("badge-1", "impact", 1.52), dev("burrito-1", "bounce", 1.9)]
    results = []
    for seed in range(5):
        ref = duel()
        shuffled = evs[:]
        random.Random(seed).shuffle(shuffled)
        for e in shuffled + shuffled[:2]:  # and duplicates
            ref.device(e)
        results.append(ref.poll(5.0))
    assert all(r == results[0] for r in results) and sorted(calls(results[0])) == [("hit", 1), ("hit", 2)]


def test_unknown_devices_and_plain_presses_are_not_the_referees() -> None:
    ref = duel()
    ref.device(dev("badge-9", "impact", 1.0))
    assert ref.poll(5.0) == []
    assert ref.seat(SeatEvent(5.0, 1, "WAR", "press")) is False


def test_bad_referee_setup_is_one_clear_line() -> None:
    with pytest.raises(ValueError, match="badge 'badge-7' is on seat 7"):
        Referee(4, BURRITOS, {"badge-7": 7})


def test_evidence_lines_show_devices_times_and_gaps_for_every_call() -> None:
    ref = duel()
    out = run(ref, throw("burrito-1", 1.0, 1.5) + [dev("badge-2", "impact", 1.5031)], until=3.0)
    lines = evidence_lines(out[0])
    text = "\n".join(lines)
    assert "burrito-1 impact at 1.500 s" in text and "badge-2 impact at 1.503 s, 3.1 ms after" in text
    assert evidence_lines({"t": 1.0, "event": "set", "seat": 1})[1].startswith("  no device evidence")


def test_r12_one_early_yes_does_not_settle_a_question_and_two_yeses_give_no_bruise() -> None:
    """Asked seats all answer (or time runs out) before a call: a second "yes" contradicts the first (demo bots answer
    every question "yes"), and contradictory answers never bruise anyone."""
    ref = duel()
    out = run(ref, throw("burrito-1", 1.0, 1.5) + [dev("burrito-1", "bounce", 1.9)], until=1.5 + R.MISS_SETTLE_S + 0.1)
    q = questions(out)[0]
    assert run_answers(ref, q, {1: "yes"}, 4.0) == []  # seat 2 has not answered yet
    out = run_answers(ref, q, {2: "yes"}, 4.5)
    assert calls(out) == [("miss", None)] and "contradict" in out[0]["evidence"]["decided"]
    ref2 = duel()
    q2 = questions(run(ref2, throw("burrito-1", 1.0, 1.5) + [dev("burrito-1", "bounce", 1.9)], until=3.6))[0]
    assert run_answers(ref2, q2, {2: "yes"}, 4.0) == []
    out = ref2.poll(q2.deadline + 0.01)  # seat 1 never answers: the one "yes" stands
    assert calls(out) == [("hit", 2)] and out[0]["evidence"]["answers"] == {"2": "yes"}
