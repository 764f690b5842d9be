"""The detector with the gyroscope on: "up" kept through a turn, and a flight told from a hand by gravity.

A free body reads no gravity, a held one reads the hand's 1 g up; the accelerometer alone cannot say where "up" is
once the burrito has turned, the gyroscope can. Traces come from firmware_bridge.physim, whose gyroscope is modelled
on the LSM6DSO (offset, noise, gain error, 70 mdps steps) from its own random stream.
"""

from __future__ import annotations

import math
import random

from firmware_bridge import physim
from firmware_bridge.firmware.detector import ST_REST, Detector
from firmware_bridge.traces import TOLERANCE_US, Trace, match_events


def run(tr: Trace, gyro: bool, params: dict[str, float] | None = None) -> list[tuple[int, str, float]]:
    det = Detector(tr.device, params)
    out: list[tuple[int, str, float]] = []
    if gyro:
        assert len(tr.gyro) == len(tr.samples)
        for (t, ax, ay, az), (gx, gy, gz) in zip(tr.samples, tr.gyro):
            out.extend(det.feed(t, ax, ay, az, gx, gy, gz))
    else:
        for s in tr.samples:
            out.extend(det.feed(*s))
    return out + det.flush()


def _wrong(tr: Trace, found: list[tuple[int, str, float]], kinds: tuple[str, ...]) -> list[tuple[str, int, int]]:
    """(kind, missed, false) for each kind with an error."""
    _, missed, false = match_events(tr.truth, [(e[0], e[1]) for e in found], TOLERANCE_US)
    out = []
    for k in kinds:
        mi = sum(1 for _, kk in missed if kk == k)
        fa = sum(1 for _, kk in false if kk == k)
        if mi or fa:
            out.append((k, mi, fa))
    return out


def test_up_is_turned_by_the_gyroscopes_rate() -> None:
    """A body that turns +90 degrees about its x axis sees world "up" move from +z to +y in its own axes (a fixed
    vector seen from the turning body turns by -w dt). Fed in free fall, so nothing pulls "up" back to the reading."""
    det = Detector("burrito")
    t = 1_000_000
    for _ in range(400):  # lying still: "up" is the mean reading
        det.feed(t, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0)
        t += 1200
    w = math.pi / 2 / 0.3  # 90 degrees in 0.3 s
    for _ in range(250):
        det.feed(t, 0.0, 0.0, 0.0, w, 0.0, 0.0)
        t += 1200
    det.feed(t, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    up = det.att
    assert abs(up.ux) < 0.02 and abs(up.uy - 1.0) < 0.02 and abs(up.uz) < 0.03, (up.ux, up.uy, up.uz)


def test_the_gyroscopes_offset_is_learnt_while_it_lies_still() -> None:
    """Lying still, the gyroscope reads only its zero-rate offset; learnt, it does not turn "up" afterwards."""
    det = Detector("burrito")
    t = 1_000_000
    off = math.radians(1.5)
    for _ in range(2000):
        det.feed(t, 0.0, 0.0, 1.0, off, -off, 0.0)
        t += 1200
    assert abs(det.att.gbx - off) < 0.1 * off and abs(det.att.gby + off) < 0.1 * off


def test_with_the_gyroscope_a_pump_fakes_brake_held_at_1_g_is_no_flight() -> None:
    """An arm braking a pump fake sheds its push as fast as fingers open, then holds the burrito at a steady 1 g,
    which a spinning flight can also read: accelerometer only, a false launch and a false catch. With the
    gyroscope, "up" is known and the burrito still feels the hand's 1 g up: no flight."""
    tr = physim.make_trace("handle_only", 4, physim.Condition(15.0, 200.0, 2.0, "pump", "rigid"))
    assert _wrong(tr, run(tr, gyro=False), ("launch", "catch")) == [("launch", 0, 1), ("catch", 0, 1)]
    assert _wrong(tr, run(tr, gyro=True), ("launch", "impact", "catch")) == []
    # the gravity test turns it away alone, and so do the fall along up (it brakes, then eases) and the reading's
    # turn: with all three switched off the false launch is back
    for alone in ({"up_fall_g": 99.0, "path_rise_a": 99.0}, {"flight_up_g": 99.0, "path_rise_a": 99.0},
                  {"flight_up_g": 99.0, "up_fall_g": 99.0}):
        assert _wrong(tr, run(tr, gyro=True, params=alone), ("launch",)) == [], alone
    off = run(tr, gyro=True, params={"flight_up_g": 99.0, "up_fall_g": 99.0, "path_rise_a": 99.0})
    assert ("launch", 0, 1) in _wrong(tr, off, ("launch",))


def test_with_the_gyroscope_a_let_go_that_swings_the_vector_is_still_a_launch() -> None:
    """The fingers' last push swings the reading 0.45 g in 10 ms; the flight's straightness, judged from lags that
    reach back into it, turned the true throw away. With the gyroscope the gravity test rejects the brakes, so the
    straightness is judged past the let-go and the throw is found."""
    tr = physim.make_trace("throw_impact", 0, physim.Condition(2.0, 1666.0, 150.0, "pump", "rigid"))
    assert ("launch", 1, 1) in _wrong(tr, run(tr, gyro=False), ("launch",))
    assert _wrong(tr, run(tr, gyro=True), ("launch", "impact", "catch")) == []


def test_with_the_gyroscope_the_let_go_is_placed_from_the_release_stamp_not_the_candidate() -> None:
    """A candidate can open while the hand still pushes (|a| under 1.5 g at the windup's tail), 10 ms before the
    fingers open; the jerk of their opening then reaches past confirm_skip. It is excused up to release_max_t after
    the release stamp, plus the lags: the throw is found at its let-go, not 63 ms later."""
    tr = physim.make_trace("throw_impact", 19, physim.Condition(15.0, 1666.0, 150.0, "pump", "rigid"))
    assert ("launch", 1, 1) in _wrong(tr, run(tr, gyro=False), ("launch",))
    assert _wrong(tr, run(tr, gyro=True), ("launch", "impact", "catch")) == []


def test_with_the_gyroscope_true_throws_are_still_found() -> None:
    """The gravity test vetoes no real flight: spinning (w^2 r up to 1.1 g) and tumbling throws at every rate and
    noise level, with a still hand and with pump fakes, keep every launch, impact and catch."""
    for rate in (200.0, 833.0, 1666.0):
        for noise in (2.0, 15.0):
            for handling in ("still", "pump"):
                cond = physim.Condition(noise, rate, 30.0, handling, "rigid")
                for sc in ("throw_impact", "throw_catch"):
                    tr = physim.make_trace(sc, 0, cond)
                    assert _wrong(tr, run(tr, gyro=True), ("launch", "impact", "catch")) == [], (cond.label(), sc)


def test_physims_gyroscope_reads_the_bodys_turn() -> None:
    """physim's gyroscope integrates to the turn its body made: over a throw and flight the rate is large
    (0.3-3 rev/s of spin) and lying still it reads only its offset (within 1 dps plus noise)."""
    tr = physim.make_trace("throw_impact", 2, physim.Condition(6.0, 833.0, 30.0, "normal", "rigid"))
    assert len(tr.gyro) == len(tr.samples)
    first = tr.gyro[:200]  # lying still before the pickup
    for j in range(3):
        assert max(abs(g[j]) for g in first) < math.radians(1.0) + 0.01
    assert max(math.sqrt(gx * gx + gy * gy + gz * gz) for gx, gy, gz in tr.gyro) > 2 * math.pi * 0.3 * 0.9


def test_with_the_gyroscope_a_very_still_hand_is_seen_turning_it() -> None:
    """After a catch, a still hand under a noisy part (15 mg, 200 Hz) shows neither tremor nor a sway the
    accelerometer can see, so the catch read as lying still: an impact. A hand still turns what it holds (here
    about 1 dps), and a body lying on something does not: with the gyroscope's offset learnt at rest, the look sees
    the turn and calls the catch. With the turn test switched off the impact is back."""
    tr = physim.make_trace("throw_catch", 33, physim.Condition(15.0, 200.0, 150.0, "still", "rigid"))
    assert _wrong(tr, run(tr, gyro=False), ("catch", "impact")) == [("catch", 1, 0), ("impact", 0, 1)]
    assert _wrong(tr, run(tr, gyro=True), ("launch", "impact", "catch")) == []
    off = run(tr, gyro=True, params={"look_turn_w": 99.0})
    assert _wrong(tr, off, ("catch", "impact")) == [("catch", 1, 0), ("impact", 0, 1)]


def test_the_gyroscopes_offset_is_a_plain_mean_at_first() -> None:
    """The offset is known as soon as it has lain still gyro_bias_t (a plain mean, not a 0.5 s average still
    climbing from 0): the turn test needs it within 0.15 dps. Before any rest it is not trusted at all."""
    det = Detector("burrito")
    t = 1_000_000
    off = math.radians(1.0)
    n = 0
    while det._state != 0 or det.att.gb_t < det.gyro_bias_t:  # ST_REST, averaged long enough
        det.feed(t, 0.0, 0.0, 1.0, off, -off, 0.5 * off)
        t += 1200
        n += 1
        assert n < 2000
    assert abs(det.att.gbx - off) < math.radians(0.01) and abs(det.att.gby + off) < math.radians(0.01)
    assert not Detector("burrito").att.gb_t  # a new detector has learnt nothing


def test_a_rings_partial_cycle_is_not_a_hands_sway() -> None:
    """An impact's body lands on the floor and rocks there: its ring (40 mg rms in the tremor band, dying away)
    moves the two halves' mean vectors by 9 mg, which read as a hand's sway: a catch, 1.6 s late. The ring's
    partial cycle is allowed for whatever its strength (it was only above a hand's tremor), from its band power or
    its spread about the mean, so it is the impact it was, with the gyroscope and without; with both allowances off
    the catch is back."""
    tr = physim.make_trace("throw_impact", 30, physim.Condition(2.0, 200.0, 150.0, "pump", "rocking"))
    for gyro in (False, True):
        assert _wrong(tr, run(tr, gyro=gyro), ("launch", "impact", "catch")) == [], gyro
        off = run(tr, gyro=gyro, params={"look_ring_k": 0.0, "look_spread_k": 0.0})
        assert _wrong(tr, off, ("impact", "catch")) == [("impact", 1, 0), ("catch", 0, 1)], gyro


def test_a_ring_that_dies_fast_is_bounded_by_its_spread() -> None:
    """A dropped burrito rocks hard on the floor (125 mg rms in the band, halving within the look): the halves' mean
    vectors differ by 53 mg, past the band-power allowance for a 6 Hz ring (46 mg), which assumes a steady one. A
    ring about a fixed mean moves its halves' means by at most 0.75x the first half's spread, and this one's spread
    allows it: an impact, with the gyroscope and without. The gyroscope's turn test uses the same bound (twice
    over); with it off, both paths call the landing a catch."""
    tr = physim.make_trace("drop", 40, physim.Condition(2.0, 200.0, 150.0, "pump", "rocking"))
    for gyro in (False, True):
        assert _wrong(tr, run(tr, gyro=gyro), ("launch", "impact", "catch")) == [], gyro
        off = run(tr, gyro=gyro, params={"look_spread_k": 0.0})
        assert _wrong(tr, off, ("impact", "catch")) == [("impact", 1, 0), ("catch", 0, 1)], gyro


def test_with_the_gyroscope_a_hand_moving_it_without_turning_it_is_still_a_hand() -> None:
    """After a catch the hand carries the burrito off: the halves' mean vectors differ by 0.93 g while it turns
    only 0.45 degrees. The gyroscope's turn test says no turn; the accelerometer's sway test still says held, since a
    body lying on something cannot be accelerated. Both are asked: a catch."""
    tr = physim.make_trace("throw_catch", 45, physim.Condition(15.0, 200.0, 150.0, "pump", "rocking"))
    assert _wrong(tr, run(tr, gyro=True), ("launch", "impact", "catch")) == []


def test_with_the_gyroscope_a_pump_fakes_brake_past_the_let_go_is_no_flight() -> None:
    """A hand swings the burrito down at 2 g and brakes: |a| falls as fast as fingers open, dips to 0.17 g and
    climbs back to 0.6 g as the arm reverses, a jerk 30 ms after the release stamp. Its mean reading along "up"
    (0.35 g) passes the gravity test, so the jerk must end it: the let-go is over where |a| first sits on the
    flight's level (or 12 ms after the stamp), and a jerk whose lags lie wholly past that is no free flight. The
    throw that follows is found at its let-go (0.6 s later), and its catch, as without the gyroscope. A window
    fixed at 12 ms plus 20 ms of lags plus 3 samples after the stamp excused this jerk: a false launch, and the
    catch read as an impact."""
    tr = physim.make_trace("throw_catch", 15, physim.Condition(2.0, 200.0, 150.0, "pump", "rigid"))
    for gyro in (False, True):
        assert _wrong(tr, run(tr, gyro=gyro), ("launch", "impact", "catch")) == [], gyro


def test_with_the_gyroscope_a_reading_along_up_that_falls_is_a_hand_not_a_flight() -> None:
    """A free body reads only drag, whose part along "up" climbs through a flight (it rises, slows, then falls
    into its drag) and never falls bar a spin's w^2 r. A pump fake's brake eased by the hand reads 0.85 g along up
    falling to 0.24 g, 0.41 g on average: under the gravity test's 0.5 g. The fall turns it away, and the throw
    0.7 s later is found at its let-go, with its impact (the path test turns it away too)."""
    tr = physim.make_trace("throw_impact", 44, physim.Condition(15.0, 200.0, 2.0, "pump", "rocking"))
    assert _wrong(tr, run(tr, gyro=True), ("launch", "impact", "catch")) == []
    for alone in ({"up_fall_g": 99.0}, {"path_rise_a": 99.0}):
        assert _wrong(tr, run(tr, gyro=True, params=alone), ("launch", "impact", "catch")) == [], alone
    off = run(tr, gyro=True, params={"up_fall_g": 99.0, "path_rise_a": 99.0})
    assert ("launch", 1, 1) in _wrong(tr, off, ("launch",))


def test_with_the_gyroscope_a_body_rocking_on_a_cushion_is_not_a_hands_tremor() -> None:
    """A drop onto a cushion that rocks it: the ring is 4-5 mg in the tremor band and dies slowly enough to pass
    for a hand's sustained tremor, so the impact was called a catch. The gyroscope sees the angle swing 0.2-0.3
    degrees rms about a fixed mean, five times and more a physiological tremor's turn: it is the rocking's band
    power, and the drop's landing is an impact."""
    tr = physim.make_trace("drop", 45, physim.Condition(15.0, 1666.0, 150.0, "pump", "rocking"))
    assert _wrong(tr, run(tr, gyro=True), ("launch", "impact", "catch")) == []
    off = run(tr, gyro=True, params={"look_rock_a": 99.0})
    assert _wrong(tr, off, ("impact", "catch")) == [("impact", 1, 0), ("catch", 0, 1)]


def test_with_the_gyroscope_a_fast_spins_swing_of_a_is_allowed_in_flight() -> None:
    """A throw spinning at 1,000 dps with its sensor off the centre of mass: w^2 r swings |a| from 0.39 to 1.29 g
    as the spin axis wanders, 4 mg over the flight's rise test. The throw was missed and its hit on a body read as
    the launch. With the gyroscope that swing is allowed for (twice w^2 r at the 5 cm bound): launch and impact."""
    tr = physim.make_trace("throw_impact", 42, physim.Condition(15.0, 200.0, 2.0, "pump", "rocking"))
    assert _wrong(tr, run(tr, gyro=True), ("launch", "impact", "catch")) == []
    off = run(tr, gyro=True, params={"spin_r": 0.0})  # no spin allowed for: the throw is missed again
    assert [w[:2] for w in _wrong(tr, off, ("launch",))] == [("launch", 1)]


def test_with_the_gyroscope_a_reading_whose_angle_turns_upward_is_a_hand_not_a_flight() -> None:
    """A free body reads drag, -k|v|v, so the reading's angle below the horizontal is its flight path's above it,
    and gravity only bends that path down. A pump fake's downswing read 0.26 g along up and 0.13 g across, then
    0.37 g and 0.41 g: the angle rose from 63 to 42 degrees below the horizontal, 21 degrees upward, which only a
    push can do. Every other flight test passed it (0.24 g along up on average, under the gravity test's 0.5 g;
    rising, not falling, along up): a false launch and a false catch without this test."""
    tr = physim.make_trace("handle_only", 65, physim.Condition(15.0, 200.0, 150.0, "pump", "rigid"))
    assert _wrong(tr, run(tr, gyro=True), ("launch", "impact", "catch")) == []
    # the smoothed reading along up dips there too: both tests off
    off = run(tr, gyro=True, params={"path_rise_a": 99.0, "up_fall_g": 99.0})
    assert _wrong(tr, off, ("launch", "catch")) == [("launch", 0, 1), ("catch", 0, 1)]


def _flight(drag: list[tuple[float, float, float]], dt: int = 1200, params: dict[str, float] | None = None) -> list[str]:
    """The detector's calls on a body that lies still on +z, is picked up and swung (a windup to 3 g), let go in
    one sample, then reads ``drag`` (g, world axes; the body does not turn) sample by sample, then lands."""
    det = Detector("burrito", params)
    out: list[tuple[int, str, float]] = []
    t = 1_000_000
    samples = [(0.0, 0.0, 1.0)] * 600
    samples += [(0.3 * math.sin(i / 40.0), 0.0, 1.0 + 0.2 * math.sin(i / 25.0)) for i in range(400)]  # carried
    samples += [(0.6 * i / 200.0, 0.0, 1.0 + 2.0 * i / 200.0) for i in range(200)]  # the windup
    samples += drag + [(0.0, 0.0, 4.0)] * 5 + [(0.0, 0.0, 1.0)] * 1500
    for ax, ay, az in samples:
        out.extend(det.feed(t, ax, ay, az, 0.0, 0.0, 0.0))
        t += dt
    return [e[1] for e in out + det.flush()]


def test_the_path_test_keeps_a_flight_whose_drag_turns_as_gravity_bends_its_path() -> None:
    """Released forward and up at 30 degrees at 3 m/s, a body's drag points back and down and turns towards the
    horizontal and past it as gravity bends the path down (g cos(angle) / v: 150 degrees a second): a launch. A
    reading whose angle turns the other way while it grows (so that its part along up still rises, as the up-fall
    test wants), or whose horizontal part swings round smoothly, is no drag: launched only with the path test off
    (and the drag-growth test, which turns the first of them away too)."""
    n = 250  # 300 ms at 833 Hz: the flight window and more

    def reading(start: float, rate: float, size: tuple[float, float] = (0.4, 0.4),
                swing: float = 0.0) -> list[tuple[float, float, float]]:
        out = []
        for i in range(n):
            a = math.radians(start + rate * i * 0.0012)
            d = size[0] + (size[1] - size[0]) * i / n
            turn = math.radians(swing * i / n)  # the horizontal part's direction
            h = -d * math.cos(a)
            out.append((h * math.cos(turn), h * math.sin(turn), -d * math.sin(a)))
        return out

    assert "launch" in _flight(reading(30.0, -150.0, (0.45, 0.35)))
    for drag in (reading(-60.0, 150.0, (0.3, 0.7)), reading(-20.0, 0.0, swing=360.0)):
        assert "launch" not in _flight(drag), drag[-1]
        assert "launch" in _flight(drag, params={"path_rise_a": 99.0, "drag_turn_max": -1.0}), drag[-1]


def test_with_the_gyroscope_the_let_go_ends_when_the_vector_settles_not_only_its_size() -> None:
    """At 200 Hz a 1,000 dps throw's let-go took three samples: |a| fell 1.67 -> 0.80 -> 0.20 g, on the flight's
    level already, while the vector still swung 0.2 g to the next sample. Taken as ended on |a| alone, the swing's
    jerk lay past the let-go, the throw was turned away, and the free fall found it 97 ms late: a miss and a false
    launch. The let-go now ends when the vector too moves no more than noise and the flight's own turn allow."""
    tr = physim.make_trace("throw_impact", 74, physim.Condition(15.0, 200.0, 150.0, "still", "rocking"))
    found = run(tr, gyro=True)
    assert _wrong(tr, found, ("launch", "impact", "catch")) == []
    (true_launch,) = [t for t, k in tr.truth if k == "launch"]
    (launch,) = [e[0] for e in found if e[1] == "launch"]
    assert abs(launch - true_launch) <= 5000  # one sample at 200 Hz


def test_the_path_test_turns_away_a_reading_that_bends_down_faster_than_gravity_can() -> None:
    """Drag of d g means a speed of at least vt sqrt(d) for a burrito whose terminal speed is vt (6 m/s and up), so
    gravity bends the path, and the reading's angle with it, down by at most g / (vt sqrt(d)): 148 degrees a second
    at 0.4 g. A reading that turns down at 300 degrees a second and more is a hand's swing braked, not a flight."""
    n = 250

    def reading(rate: float) -> list[tuple[float, float, float]]:
        out = []
        for i in range(n):
            a = math.radians(30.0 + rate * i * 0.0012)
            d = 0.45 - 0.1 * i / n
            out.append((-d * math.cos(a), 0.0, -d * math.sin(a)))
        return out

    assert "launch" in _flight(reading(-150.0))
    for rate in (-300.0, -600.0):
        assert "launch" not in _flight(reading(rate)), rate
        assert "launch" in _flight(reading(rate), params={"path_vt_min": 1e-6}), rate


def test_with_the_gyroscope_a_pump_fakes_swing_that_bends_down_too_fast_is_no_flight() -> None:
    """A pump fake at 833 Hz with 15 mg of noise: the hand's brake swung the reading's angle down far faster than
    gravity bends a flight's path, and every other flight test passed it. Read as a launch, it put the real throw's
    let-go and its impact out of place; the bend-down test turns it away."""
    tr = physim.make_trace("throw_impact", 81, physim.Condition(15.0, 833.0, 2.0, "pump", "rocking"))
    assert _wrong(tr, run(tr, gyro=True), ("launch", "impact", "catch")) == []
    # the smoothed reading along up dips there too: both tests off
    off = run(tr, gyro=True, params={"path_vt_min": 1e-6, "up_fall_g": 99.0})
    assert ("launch", 1, 1) in _wrong(tr, off, ("launch",))


def test_a_landing_on_a_rocking_cushion_is_judged_by_the_look_not_the_quick_tremor_estimate() -> None:
    """A drop onto a rocking cushion at 200 Hz with 15 mg of noise: the 50 ms tremor estimate sat at 5x the calm
    level by chance and called a hand, so the impact read as a catch. Once a look runs, its long averages judge."""
    tr = physim.make_trace("drop", 84, physim.Condition(15.0, 200.0, 2.0, "pump", "rocking"))
    for gyro in (False, True):
        assert _wrong(tr, run(tr, gyro=gyro), ("launch", "impact", "catch")) == [], gyro


def test_a_slow_catch_found_late_is_stamped_at_its_first_touch_not_40_ms_in() -> None:
    """At 200 Hz with 15 mg of noise a catch whose force rises over 150 ms is found some 40 ms in, and the broken-
    stick fit, sought 40 ms before that, put its bend on the window's first allowed sample: no bend, so the catch was
    stamped where the line through its rise met the flight, 30-33 ms after the touch (ties are decided on it). Sought
    again from further back, the bend stays there and the stamp is 10-12 ms after the touch."""
    for seed in (84, 95):
        tr = physim.make_trace("throw_catch", seed, physim.Condition(15.0, 200.0, 150.0, "pump", "rocking"))
        (touch,) = [t for t, k in tr.truth if k == "catch"]
        for gyro in (False, True):
            found = run(tr, gyro=gyro)
            assert _wrong(tr, found, ("launch", "impact", "catch")) == [], (seed, gyro)
            (catch,) = [e[0] for e in found if e[1] == "catch"]
            assert 0 <= catch - touch <= 15000, (seed, gyro, catch - touch)


def test_the_let_gos_own_fall_in_the_reading_is_no_contact() -> None:
    """A drop out of a pumping hand at 833 Hz: the reading fell from 0.4 g to the flight's 0.07 g as the fingers
    opened, and 16 ms after the launch the line through the readings 10 and 20 ms before, across that fall, missed
    the steady flight by more than 0.3 g: a contact opened there and stood for the impact, and the real impact, 370 ms
    on, read as a bounce. The residual test waits until its line no longer reaches back before the flight began."""
    tr = physim.make_trace("drop", 112, physim.Condition(2.0, 833.0, 150.0, "pump", "rigid"))
    for gyro in (False, True):
        found = run(tr, gyro=gyro)
        assert _wrong(tr, found, ("launch", "impact", "catch")) == [], gyro
        (launch,) = [e[0] for e in found if e[1] == "launch"]
        assert [e for e in found if launch < e[0] < launch + 100_000] == [], gyro


def test_a_pickup_from_where_a_trace_began_lying_is_stamped_where_the_hand_took_it() -> None:
    """Traces that began with the burrito lying on a rocking cushion under 15 mg of noise: still long enough to show
    it lay there, never long enough for a rest. The pickup 0.6-1.1 s in was stamped at the trace's first sample, a
    pickup that did not happen then. It is stamped where a rest's leave test first finds the reading off the vector
    it lay at, back to the start of that run: not at the first sample 2.5 noise sigmas off, which noise gives within
    a few samples of the last still one (190 ms early), nor at the start of the run off it that reaches the newest
    sample, which a gentle hand's slow turn breaks (970 ms late)."""
    for scenario, seed, rate, handling in (("throw_catch", 115, 200.0, "pump"), ("throw_catch", 1, 200.0, "pump"),
                                           ("handle_only", 4, 1666.0, "still")):
        tr = physim.make_trace(scenario, seed, physim.Condition(15.0, rate, 2.0, handling, "rocking"))
        (true_pick,) = [t for t, k in tr.truth if k == "pickup"]
        assert true_pick - tr.samples[0][0] > 500_000
        for gyro in (False, True):
            found = run(tr, gyro=gyro)
            (pick,) = [e[0] for e in found if e[1] == "pickup"]
            assert abs(pick - true_pick) <= TOLERANCE_US["pickup"], (scenario, seed, gyro, pick - true_pick)
            assert _wrong(tr, found, ("launch", "impact", "catch")) == [], (scenario, seed, gyro)


def test_a_slow_catch_in_a_spinning_flight_is_found_before_its_jerk_becomes_the_baseline() -> None:
    """At 833 Hz with 15 mg of noise the jerk is taken over a 40 ms lag, so a catch's jerk fills it over 40 ms. A
    spinning flight's own jerk (its drag turning with the body, 7 g/s here) was followed with a 50 ms time constant
    while the sum was at zero, and took in the catch's before the sum reached its threshold: the catch was found
    300 ms late, at its end. The baseline now follows a rise over four lags (a contact only adds jerk)."""
    tr = physim.make_trace("throw_catch", 120, physim.Condition(15.0, 833.0, 150.0, "pump", "rocking"))
    (touch,) = [t for t, k in tr.truth if k == "catch"]
    found = run(tr, gyro=True)
    assert _wrong(tr, found, ("launch", "impact")) == []
    (catch,) = [e[0] for e in found if e[1] == "catch"]
    assert 0 <= catch - touch <= 40_000, catch - touch


def test_a_slow_catch_the_jerk_sum_found_keeps_a_bend_from_one_jerk_lag_before_it() -> None:
    """The sum's jerk is a difference over one jerk lag (40 ms under 15 mg of noise), so the slow catch it finds may
    have begun up to that long before the sum left zero. The broken-stick fit there found the bend but turned it
    away, as it had not climbed half-way to the fit's cap (a 17 rad/s flight's own turn took most of the cap at
    833 Hz), and the catches were stamped 34-35 ms late, past the 30 ms a call is matched within. A bend within that
    lag needs no such climb: 10 and 22 ms late now. The fit's window stays where it was: started a lag earlier, it
    took a tumbling flight's wobble for the bend on the blind simulator (16-38 ms early)."""
    for seed, rate, surface, late in ((91, 200.0, "rigid", 12_000), (120, 833.0, "rocking", 25_000)):
        tr = physim.make_trace("throw_catch", seed, physim.Condition(15.0, rate, 150.0, "pump", surface))
        (touch,) = [t for t, k in tr.truth if k == "catch"]
        found = run(tr, gyro=True)
        assert _wrong(tr, found, ("launch", "impact", "catch")) == [], seed
        (catch,) = [e[0] for e in found if e[1] == "catch"]
        assert 0 <= catch - touch <= late, (seed, catch - touch)


def test_a_pump_fakes_swing_that_lifts_the_reading_faster_than_drag_can_is_no_flight() -> None:
    """A pump fake's downswing read 0.62-0.65 g for 80 ms, then the arm swung it back up: 0.98 g at the flight
    window's end, 0.87 g of it along up, with no turn to speak of. A free body's drag grows only as gravity speeds
    it up, by 2 g (up - |a|^2) / |v| at most: 0.18 g there. Taken for a flight, it hid the real throw that followed
    and its catch."""
    tr = physim.make_trace("throw_catch", 114, physim.Condition(15.0, 200.0, 150.0, "pump", "rigid"))
    assert _wrong(tr, run(tr, gyro=True), ("launch", "impact", "catch")) == []


def test_a_still_hand_that_turns_the_burrito_is_no_rest_once_the_offset_is_known() -> None:
    """Under 15 mg of noise at 200 Hz a still hand holds the burrito quiet enough for the accelerometer's rest, but
    turns it at 1.6 dps. Taken for a rest 1.2 s after the pickup, it taught the gyroscope's offset that turn (0.9 dps
    off), the pickup was stamped at the hand's next move (1.4 s late), and after a glancing hit the look saw the
    burrito turn as it lay on the floor: a catch. With the offset known, a body that turns is not lying still."""
    tr = physim.make_trace("throw_impact", 81, physim.Condition(15.0, 200.0, 2.0, "still", "rocking"))
    found = run(tr, gyro=True)
    assert _wrong(tr, found, ("pickup", "launch", "impact", "catch")) == []
    (pick,) = [t for t, k in tr.truth if k == "pickup"]
    (launch,) = [t for t, k in tr.truth if k == "launch"]
    assert [e for e in found if e[1] == "rest" and pick < e[0] < launch] == []


def test_an_offset_learnt_from_a_still_hand_is_learnt_again_once_it_lies_still_long_enough() -> None:
    """The first rest may be a still hand's (a table switched on with the burrito in someone's hand): the offset
    then holds the hand's turn, and a burrito set down and lying still reads as turning, which would keep it out of
    rest for good. Quiet to the accelerometer for rest_doubt_t while the gyroscope says it turns, it is lying still
    and the offset is learnt again from there."""
    rng = random.Random(1)
    det = Detector("burrito")
    bias, turn, dt = 0.01, 0.028, 5000  # rad/s: the part's offset, and a still hand's turn (1.6 dps)
    states = []
    for i in range(1300):
        if i < 200:  # 1 s in a still hand, taken for a rest
            a, g = (0.0, 0.0, 1.0), bias + turn
        elif i < 260:  # set down: a 0.3 s turn onto its side
            f = (i - 200) / 60
            a, g = (0.3 * f, 0.0, math.sqrt(1 - 0.09 * f * f)), bias + 1.0
        else:  # lying still for 5.2 s
            a, g = (0.3, 0.0, math.sqrt(0.91)), bias
        det.feed((i + 1) * dt, a[0] + rng.gauss(0, 0.015), a[1] + rng.gauss(0, 0.015), a[2] + rng.gauss(0, 0.015),
                 g, 0.0, 0.0)
        states.append(det._state)
    assert ST_REST in states[:200] and states[260] != ST_REST
    back = (next(i for i in range(260, 1300) if states[i] == ST_REST) - 260) * dt
    assert det.rest_doubt_t <= back <= det.rest_doubt_t + det.still_t + 250_000, back  # + the quiet test settling
    assert abs(det.att.gbx - bias) < 0.001


def test_a_throw_whose_arc_eased_off_before_the_let_go_is_still_a_launch() -> None:
    """An arc can ease its push from 3.4 to 1.1-1.3 g before the fingers open; the let-go then sheds 0.7 g over a
    spinning flight's 0.4-0.6 g, under the accelerometer's 0.8 g release test, and the launch and the catch after it
    were lost. With the gyroscope the bound is 0.65 g: fingers still shed that far faster than a swinging arm (and
    the vector swings as far as |a| falls, or further)."""
    for noise, rate, handling, seed in ((2.0, 200.0, "still", 144), (15.0, 1666.0, "pump", 141)):
        tr = physim.make_trace("throw_catch", seed, physim.Condition(noise, rate, 150.0, handling, "rigid"))
        assert _wrong(tr, run(tr, True), ("launch", "catch")) == [], (noise, rate, seed)


def test_one_noisy_residual_in_a_spinning_flight_does_not_refuse_the_launch() -> None:
    """Under 15 mg of noise the residual of the flight's line reads 0.05-0.11 g, and once 0.206 g: over the 0.2 g
    jerk bound, so a clean 13.8 rad/s flight was refused and its impact lost. With the gyroscope guarding the window,
    a jerk must also clear two sigmas of the residual's own noise."""
    tr = physim.make_trace("throw_impact", 154, physim.Condition(15.0, 833.0, 150.0, "pump", "rigid"))
    assert _wrong(tr, run(tr, True), ("launch", "impact")) == []
    assert ("launch", 1, 1) in _wrong(tr, run(tr, True, {"confirm_noise_k": 0.0}), ("launch", "impact"))


def test_with_the_gyroscope_a_let_go_after_the_arm_eased_off_is_still_a_launch() -> None:
    """The arm eased its push from 2.9 g to 0.47 g over 90 ms, under the spinning flight's 0.73 g, then the fingers
    opened: |a| rose 0.26 g, but the vector swung by 0.95 g in 5 ms (the body's own turn at 18 rad/s moves it 0.06
    g there). No fall of |a| passed for the let-go, so the throw and its catch were lost. The swing of the vector,
    less the body's turn, is the let-go, and the launch is stamped where the vector settles on the flight's."""
    tr = physim.make_trace("throw_catch", 165, physim.Condition(2.0, 1666.0, 150.0, "pump", "rigid"))
    found = run(tr, gyro=True)
    assert _wrong(tr, found, ("launch", "impact", "catch")) == []
    (launch,) = [t for t, k in tr.truth if k == "launch"]
    (stamp,) = [e[0] for e in found if e[1] == "launch"]
    assert abs(stamp - launch) <= 3000, stamp - launch


def test_with_the_gyroscope_a_reading_along_up_that_dips_and_comes_back_is_a_hand() -> None:
    """A pump fake's arm pushed the burrito along at a steady 1.4 g with no spin, and eased its hold: the reading
    along up fell from 0.52 to 0.21 g in 60 ms, then rose to 0.36 g. The flight window's halves read 0.31 and 0.40
    g, a rise, so the halves' test passed it and the flight hid the real throw 700 ms later. Smoothed over 20 ms,
    the fall is there to see, and no free body's reading along up falls."""
    tr = physim.make_trace("throw_impact", 150, physim.Condition(15.0, 200.0, 2.0, "pump", "rigid"))
    assert _wrong(tr, run(tr, gyro=True), ("launch", "impact", "catch")) == []


def test_with_the_gyroscope_a_pump_fakes_brake_that_swings_the_vector_is_no_let_go() -> None:
    """A pump fake's arm braked from 1.6 to 0.87 g over 20 ms at 200 Hz and swung the vector 0.67 g in 15 ms with no
    spin to speak of: an arm redirects its push without turning the body, which the vector sees and |a| does not.
    The vector's let-go bound is therefore the accelerometer's 0.8 g; at 0.65 g that brake passed for a let-go and
    its sag for a flight, and the real throw after it was lost."""
    tr = physim.make_trace("throw_catch", 143, physim.Condition(15.0, 200.0, 2.0, "pump", "rocking"))
    assert _wrong(tr, run(tr, gyro=True), ("launch", "impact", "catch")) == []
    assert _wrong(tr, run(tr, True, {"release_drop": 0.65}), ("launch",)) != []
