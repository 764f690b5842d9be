"""Simulated accelerometer traces with ground truth, for the detector's tests and benchmark.

The accelerometer reads *specific force* (acceleration minus gravity) in its own body frame, in g: lying still it reads
1 g "up", in free fall 0 g -- but a body spinning at w rad/s with the sensor r metres off the spin axis reads w^2 r
towards the axis, and a light foam burrito also feels drag.  Each scenario strings segments together (rest, hand,
windup, flight, contact pulses, falls, bounces) and records the true events the detector should report.

Ranges (documented guesses, not measurements; see docs/devices.md):
- hand: sway 0.02-0.08 g at 0.3-2 Hz per axis, slow turning, tremor 8-12 Hz at 0.012-0.03 g;
- windup: the arm's push/centripetal rises to 2.6-7 g over 120-250 ms, the fingers let go over 3-12 ms;
- flight 0.18-0.8 s, spin 0.5-3 rev/s, sensor 0.5-2.5 cm off the axis (up to ~0.9 g), drag 0.05-0.35 g decaying;
- catch: a soft half-sine pulse 1.3-4 g over 30-90 ms, then the hand holds it; body/floor hits 3-20 g over 4-20 ms;
- running: 2.6-3.2 strides/s, stance peak 1.6-2.4 g, airborne dip 50-100 ms at 0.05-0.25 g, the hand keeps its tremor;
- sensor: white noise 1.5-6 mg per axis, bias up to +-40 mg, scale error +-2 %, 0.488 mg steps, clipping at +-16 g.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

Vec = tuple[float, float, float]
Mat = tuple[Vec, Vec, Vec]

UP: Vec = (0.0, 0.0, 1.0)
FULL_SCALE_G = 16.0
LSB_G = 0.000488

BURRITO_SCENARIOS = (
    "rest",
    "pickup",
    "running",
    "throw_impact",
    "throw_spin_impact",
    "throw_catch",
    "juggled_catch",
    "fumbled_catch",
    "body_hit_fall",
    "floor_fall",
    "drop",
)
BADGE_SCENARIOS = ("badge_hit", "badge_running", "badge_jump", "badge_hit_running")


@dataclass
class Trace:
    """Samples (t_us, ax, ay, az) in g, the true events (t_us, kind), and, from a part whose gyroscope is on, its
    angular rate (gx, gy, gz) in rad/s in the same body axes, one per sample (empty when the part has none)."""

    scenario: str
    device: str
    rate_hz: float
    samples: list[tuple[int, float, float, float]] = field(default_factory=list)
    truth: list[tuple[int, str]] = field(default_factory=list)
    gyro: list[tuple[float, float, float]] = field(default_factory=list)
    #: (the settling motion last strayed 0.1 g from where it came to lie, the rest label), t_us: physim's landings
    settle: list[tuple[int, int]] = field(default_factory=list)

    def csv_lines(self) -> Iterator[str]:
        """The trace in the `detect` command's CSV format, header first (gx, gy, gz columns when it has a gyro)."""
        if self.gyro:
            yield "t_us,ax,ay,az,gx,gy,gz\n"
            for (t, ax, ay, az), (gx, gy, gz) in zip(self.samples, self.gyro):
                yield f"{t},{ax:.4f},{ay:.4f},{az:.4f},{gx:.4f},{gy:.4f},{gz:.4f}\n"
            return
        yield "t_us,ax,ay,az\n"
        for t, ax, ay, az in self.samples:
            yield f"{t},{ax:.4f},{ay:.4f},{az:.4f}\n"


# ---------------------------------------------------------------- vector helpers
def _add(a: Vec, b: Vec) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _mul(a: Vec, k: float) -> Vec:
    return (a[0] * k, a[1] * k, a[2] * k)


def _dot(a: Vec, b: Vec) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _norm(a: Vec) -> float:
    return math.sqrt(_dot(a, a))


def _unit(a: Vec) -> Vec:
    n = _norm(a)
    return _mul(a, 1.0 / n) if n > 0 else (1.0, 0.0, 0.0)


def _cross(a: Vec, b: Vec) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _rot(axis: Vec, angle: float) -> Mat:
    """Rodrigues rotation matrix about a unit axis."""
    x, y, z = axis
    c, s = math.cos(angle), math.sin(angle)
    C = 1 - c
    return (
        (c + x * x * C, x * y * C - z * s, x * z * C + y * s),
        (y * x * C + z * s, c + y * y * C, y * z * C - x * s),
        (z * x * C - y * s, z * y * C + x * s, c + z * z * C),
    )


def _matmul(a: Mat, b: Mat) -> Mat:
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)) for i in range(3))  # type: ignore[return-value]


def _mat_t_vec(m: Mat, v: Vec) -> Vec:
    """m^T v: world vector into the body frame when m maps body to world."""
    return (
        m[0][0] * v[0] + m[1][0] * v[1] + m[2][0] * v[2],
        m[0][1] * v[0] + m[1][1] * v[1] + m[2][1] * v[2],
        m[0][2] * v[0] + m[1][2] * v[1] + m[2][2] * v[2],
    )


def _random_unit(rng: random.Random) -> Vec:
    return _unit((rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1)))


def _random_rotation(rng: random.Random) -> Mat:
    return _rot(_random_unit(rng), rng.uniform(0, 2 * math.pi))


def _half_sine(t: float, dur: float) -> float:
    return math.sin(math.pi * t / dur) if 0.0 <= t <= dur else 0.0


# ---------------------------------------------------------------- the builder
class _Builder:
    """Appends samples while tracking time and orientation (body -> world matrix)."""

    def __init__(self, rng: random.Random, rate_hz: float, scenario: str, device: str) -> None:
        self.rng = rng
        self.dt = 1.0 / rate_hz
        self.t = 0.0
        self.t0_us = rng.randrange(1_000_000, 50_000_000)
        self.R: Mat = _random_rotation(rng)
        self.noise = rng.uniform(0.0015, 0.006)
        self.bias: Vec = tuple(rng.uniform(-0.04, 0.04) for _ in range(3))  # type: ignore[assignment]
        self.scale: Vec = tuple(1 + rng.uniform(-0.02, 0.02) for _ in range(3))  # type: ignore[assignment]
        self.jitter = rng.uniform(0.0, 0.02)  # timestamp jitter as a fraction of the period
        self.trace = Trace(scenario, device, rate_hz)
        # hand model, re-drawn per holding person
        self._new_hand()
        self.omega: Vec = (0.0, 0.0, 0.0)

    def _new_hand(self) -> None:
        r = self.rng
        self.sway = [(_random_unit(r), r.uniform(0.02, 0.08), r.uniform(0.3, 2.0), r.uniform(0, 6.3)) for _ in range(3)]
        self.trem_dir = _random_unit(r)
        self.trem_amp = r.uniform(0.012, 0.03)
        self.trem_f = r.uniform(8.0, 12.0)
        self.trem_ph = r.uniform(0, 6.3)
        self.turn = [(_random_unit(r), r.uniform(0.15, 0.6), r.uniform(0.2, 1.0), r.uniform(0, 6.3)) for _ in range(2)]

    def now_us(self) -> int:
        return self.t0_us + int(round(self.t * 1e6))

    def mark(self, kind: str) -> None:
        self.trace.truth.append((self.now_us(), kind))

    def hand_force(self) -> Vec:
        """Specific force of a hand holding the body against gravity: 1 g up + sway + tremor (world frame)."""
        f = UP
        for d, amp, fr, ph in self.sway:
            f = _add(f, _mul(d, amp * math.sin(2 * math.pi * fr * self.t + ph)))
        tr = self.trem_amp * (0.7 + 0.3 * math.sin(2 * math.pi * 0.7 * self.t)) * math.sin(
            2 * math.pi * self.trem_f * self.t + self.trem_ph
        )
        return _add(f, _mul(self.trem_dir, tr))

    def hand_omega(self) -> Vec:
        w: Vec = (0.0, 0.0, 0.0)
        for d, amp, fr, ph in self.turn:
            w = _add(w, _mul(d, amp * math.sin(2 * math.pi * fr * self.t + ph)))
        return w

    def emit(self, f_world: Vec, f_body: Vec = (0.0, 0.0, 0.0), omega: Vec | None = None) -> None:
        """One sample of specific force, then advance time and orientation."""
        body = _add(_mat_t_vec(self.R, f_world), f_body)
        r = self.rng
        vals = []
        for i in range(3):
            v = body[i] * self.scale[i] + self.bias[i] + r.gauss(0.0, self.noise)
            v = max(-FULL_SCALE_G, min(FULL_SCALE_G, round(v / LSB_G) * LSB_G))
            vals.append(v)
        jitter = r.uniform(-self.jitter, self.jitter) * self.dt
        t_us = self.t0_us + int(round((self.t + jitter) * 1e6))
        samples = self.trace.samples
        if samples and t_us <= samples[-1][0]:
            t_us = samples[-1][0] + 1
        samples.append((t_us, vals[0], vals[1], vals[2]))
        w = omega if omega is not None else self.omega
        wn = _norm(w)
        if wn > 0:
            self.R = _matmul(self.R, _rot(_mul(w, 1.0 / wn), wn * self.dt))
        self.t += self.dt

    def run(self, seconds: float, force: Callable[[float], tuple[Vec, Vec, Vec | None]]) -> None:
        """Emit samples for `seconds`; force(tau) -> (world force, body force, omega or None)."""
        n = max(1, int(round(seconds / self.dt)))
        for i in range(n):
            fw, fb, om = force(i * self.dt)
            self.emit(fw, fb, om)

    # ---------------------------------------------------------- segments
    def rest(self, seconds: float) -> None:
        self.omega = (0.0, 0.0, 0.0)
        self.run(seconds, lambda tau: (UP, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)))

    def hold(self, seconds: float) -> None:
        self.run(seconds, lambda tau: (self.hand_force(), (0.0, 0.0, 0.0), self.hand_omega()))

    def pickup(self) -> None:
        """A hand grabs the resting body, lifts it (0.3-0.6 g up over ~0.3 s) and turns it."""
        r = self.rng
        self._new_hand()
        self.mark("pickup")
        lift, dur = r.uniform(0.3, 0.6), r.uniform(0.25, 0.4)
        axis, rate = _random_unit(r), r.uniform(1.5, 3.5)

        def f(tau: float) -> tuple[Vec, Vec, Vec | None]:
            a = lift * math.sin(2 * math.pi * tau / dur) if tau < dur else 0.0
            ramp = min(1.0, tau / 0.05)
            hf = _add(UP, _mul(_add(self.hand_force(), _mul(UP, -1.0)), ramp))
            return _add(hf, _mul(UP, a)), (0.0, 0.0, 0.0), _mul(axis, rate * _half_sine(tau, dur))

        self.run(dur, f)

    def run_with_carrier(self, seconds: float) -> None:
        """Running while holding it: stance pushes, short airborne dips, the hand's tremor throughout."""
        r = self.rng
        stride = 1.0 / r.uniform(2.6, 3.2)
        air = r.uniform(0.05, 0.10)
        peak = r.uniform(1.6, 2.4)
        dip = r.uniform(0.05, 0.25)
        fwd = _unit((r.uniform(-1, 1), r.uniform(-1, 1), 0.0))

        def f(tau: float) -> tuple[Vec, Vec, Vec | None]:
            ph = tau % stride
            stance = stride - air
            if ph < stance:
                vert = dip + (peak - dip) * _half_sine(ph, stance)
            else:
                vert = dip
            hand = _add(self.hand_force(), _mul(UP, -1.0))
            swing = _mul(fwd, 0.3 * math.sin(2 * math.pi * tau / (2 * stride)))
            return _add(_add(_mul(UP, vert), hand), swing), (0.0, 0.0, 0.0), self.hand_omega()

        self.run(stride * max(1, round(seconds / stride)), f)  # whole strides: no jump in force at the end

    def throw(self, spin_rev: tuple[float, float] = (0.5, 3.0)) -> dict:
        """Windup then release; returns the flight parameters.  Marks "launch" at release."""
        r = self.rng
        tw, peak, rel = r.uniform(0.12, 0.25), r.uniform(2.6, 7.0), r.uniform(0.003, 0.012)
        d = _unit((r.uniform(-1, 1), r.uniform(-1, 1), r.uniform(0.1, 0.6)))
        w = 2 * math.pi * r.uniform(*spin_rev)
        axis = _random_unit(r)
        p_off = _mul(_random_unit(r), r.uniform(0.005, 0.025))
        p_perp = _add(p_off, _mul(axis, -_dot(p_off, axis)))
        centri = _mul(p_perp, -w * w / 9.81)  # sensor's w^2 r towards the axis, in g, body frame
        drag0 = r.uniform(0.05, 0.35)

        def windup(tau: float) -> tuple[Vec, Vec, Vec | None]:
            k = tau / tw
            push = peak * math.sin(0.5 * math.pi * k) ** 2
            spin_k = k * k
            return (
                _add(self.hand_force(), _mul(d, push)),
                _mul(centri, spin_k),
                _mul(axis, w * spin_k),
            )

        self.run(tw, windup)
        drag_dir = _mul(d, -1.0)
        base = _add(self.hand_force(), _mul(d, peak))

        def letgo(tau: float) -> tuple[Vec, Vec, Vec | None]:
            k = 1.0 - tau / rel
            return _add(_mul(base, k), _mul(drag_dir, drag0 * (1 - k))), centri, _mul(axis, w)

        self.run(rel, letgo)
        self.mark("launch")
        return {"w": w, "axis": axis, "centri": centri, "drag0": drag0, "drag_dir": drag_dir, "t_rel": self.t}

    def flight(self, seconds: float, fp: dict) -> None:
        """Free flight: spin's w^2 r (constant in the body frame) + decaying drag (world frame)."""
        t_rel = fp["t_rel"]
        wob = self.rng.uniform(0.0, 0.1)

        def f(tau: float) -> tuple[Vec, Vec, Vec | None]:
            age = self.t - t_rel
            drag = fp["drag0"] / (1 + age / 0.4) ** 2
            k = 1 + wob * math.sin(2 * math.pi * 0.8 * age)
            return _mul(fp["drag_dir"], drag), _mul(fp["centri"], k * k), _mul(fp["axis"], fp["w"] * k)

        self.run(seconds, f)

    def pulse(self, peak: float, dur: float, direction: Vec, after: str, fp: dict | None = None) -> None:
        """A contact: half-sine force; spin stops; the force blends into what follows ("hand" or "free")."""
        centri = fp["centri"] if fp else (0.0, 0.0, 0.0)
        w = fp["w"] if fp else 0.0
        axis = fp["axis"] if fp else (1.0, 0.0, 0.0)

        def f(tau: float) -> tuple[Vec, Vec, Vec | None]:
            k = tau / dur
            spin = max(0.0, 1 - k)
            if after == "hand":
                base = _mul(self.hand_force(), k)
            elif after == "floor":
                base = _mul(UP, k)
            else:
                base = (0.0, 0.0, 0.0)
            return _add(base, _mul(direction, peak * _half_sine(tau, dur))), _mul(centri, spin * spin), _mul(axis, w * spin)

        self.run(dur, f)

    def fall(self, seconds: float, spin_rev: float) -> dict:
        """Free fall (bounced off something): slower tumble, no drag to speak of."""
        r = self.rng
        w = 2 * math.pi * spin_rev
        axis = _random_unit(r)
        p_off = _mul(_random_unit(r), r.uniform(0.005, 0.025))
        p_perp = _add(p_off, _mul(axis, -_dot(p_off, axis)))
        centri = _mul(p_perp, -w * w / 9.81)
        self.run(seconds, lambda tau: ((0.0, 0.0, 0.0), centri, _mul(axis, w)))
        return {"w": w, "axis": axis, "centri": centri}

    def floor_landing(self, first_peak: tuple[float, float] = (5.0, 20.0), mark_first: bool = True) -> None:
        """Floor contact, 0-2 small bounces, a short rocking settle, then marks "rest"."""
        r = self.rng
        peak = r.uniform(*first_peak)
        bounces = r.randint(0, 2)
        for i in range(bounces + 1):
            if mark_first or i > 0:
                self.mark("bounce")
            d = _unit(_add(UP, (r.uniform(-0.3, 0.3), r.uniform(-0.3, 0.3), 0.0)))
            self.pulse(peak, r.uniform(0.004, 0.012), d, "free" if i < bounces else "floor")
            if i < bounces:
                self.fall(r.uniform(0.06, 0.18), r.uniform(0.3, 1.5))
                peak *= r.uniform(0.3, 0.6)
                peak = max(peak, 3.0)
        amp, fr, dur = r.uniform(0.05, 0.25), r.uniform(3, 6), r.uniform(0.08, 0.2)
        axis = _random_unit(r)

        def settle(tau: float) -> tuple[Vec, Vec, Vec | None]:
            decay = math.exp(-tau / (dur / 3))
            return _add(UP, _mul(axis, amp * decay * math.sin(2 * math.pi * fr * tau))), (0.0, 0.0, 0.0), _mul(
                axis, 2 * decay * math.sin(2 * math.pi * fr * tau)
            )

        self.run(dur, settle)
        self.mark("rest")
        self.rest(r.uniform(0.5, 0.8))


# ---------------------------------------------------------------- scenarios
def _catch_pulse(b: _Builder, fp: dict, peak: tuple[float, float] = (1.3, 4.0), dur: tuple[float, float] = (0.03, 0.09)) -> None:
    r = b.rng
    b.pulse(r.uniform(*peak), r.uniform(*dur), _mul(fp["drag_dir"], 1.0), "hand", fp)


def _hit_pulse(b: _Builder, fp: dict | None, peak: tuple[float, float] = (3.0, 15.0)) -> None:
    r = b.rng
    d = _random_unit(r)
    b.pulse(r.uniform(*peak), r.uniform(0.006, 0.02), d, "free", fp)


def _pick_and_throw(b: _Builder, spin: tuple[float, float] = (0.5, 3.0)) -> dict:
    r = b.rng
    b.rest(r.uniform(0.5, 1.0))
    b.pickup()
    b.hold(r.uniform(0.4, 1.2))
    return b.throw(spin)


def make_trace(scenario: str, seed: int, rate_hz: float = 833.0) -> Trace:
    """Build one seeded trace of a named scenario (see BURRITO_SCENARIOS and BADGE_SCENARIOS)."""
    r = random.Random(f"{scenario}:{seed}:{rate_hz}")
    device = "badge" if scenario.startswith("badge") else "burrito"
    b = _Builder(r, rate_hz, scenario, device)
    if device == "badge":
        _badge_scenario(b, scenario)
        return b.trace
    if scenario == "rest":
        b.rest(r.uniform(2.0, 4.0))
    elif scenario == "pickup":
        b.rest(r.uniform(0.5, 1.0))
        b.pickup()
        b.hold(r.uniform(1.0, 2.0))
    elif scenario == "running":
        b.rest(r.uniform(0.5, 1.0))
        b.pickup()
        b.hold(r.uniform(0.3, 0.6))
        b.run_with_carrier(r.uniform(2.0, 4.0))
        b.hold(r.uniform(0.3, 0.6))
    elif scenario in ("throw_impact", "throw_spin_impact"):
        spin = (2.5, 3.5) if scenario == "throw_spin_impact" else (0.5, 3.0)
        fp = _pick_and_throw(b, spin)
        if scenario == "throw_spin_impact":  # sensor well off the axis: flight reads ~1 g, not 0 g
            fp["centri"] = _mul(_unit(fp["centri"]), r.uniform(0.8, 1.1))
        b.flight(r.uniform(0.18, 0.8), fp)
        b.mark("impact")
        _hit_pulse(b, fp, (5.0, 20.0))
        b.fall(r.uniform(0.05, 0.2), r.uniform(0.3, 1.5))
        b.floor_landing((3.0, 10.0))
    elif scenario == "throw_catch":
        fp = _pick_and_throw(b)
        b.flight(r.uniform(0.18, 0.8), fp)
        b.mark("catch")
        _catch_pulse(b, fp)
        b.hold(r.uniform(0.8, 1.5))
    elif scenario == "juggled_catch":
        fp = _pick_and_throw(b)
        b.flight(r.uniform(0.18, 0.8), fp)
        b.mark("catch")
        b._new_hand()
        _catch_pulse(b, fp, (1.0, 2.5), (0.015, 0.04))
        fp2 = b.fall(r.uniform(0.08, 0.25), r.uniform(0.2, 1.5))
        fp2["drag_dir"] = _random_unit(r)
        _catch_pulse(b, fp2, (1.3, 3.0))
        b.hold(r.uniform(0.8, 1.5))
    elif scenario == "fumbled_catch":
        fp = _pick_and_throw(b)
        b.flight(r.uniform(0.18, 0.8), fp)
        b.mark("impact")  # touched the catcher, ended on the floor: a hit
        _catch_pulse(b, fp, (1.0, 2.5), (0.015, 0.04))
        b.fall(r.uniform(0.3, 0.45), r.uniform(0.3, 2.0))
        b.floor_landing((5.0, 20.0))
    elif scenario == "body_hit_fall":
        fp = _pick_and_throw(b)
        b.flight(r.uniform(0.18, 0.8), fp)
        b.mark("impact")
        _hit_pulse(b, fp, (3.0, 15.0))
        b.fall(r.uniform(0.3, 0.5), r.uniform(0.3, 2.0))
        b.floor_landing((5.0, 20.0))
    elif scenario == "floor_fall":
        # knocked off the table: slides, tips over the edge, falls; no hand, no throw
        b.rest(r.uniform(0.6, 1.0))
        push, dur = r.uniform(0.3, 0.8), r.uniform(0.15, 0.3)
        d = _unit((r.uniform(-1, 1), r.uniform(-1, 1), 0.0))
        b.run(dur, lambda tau: (_add(UP, _mul(d, push * _half_sine(tau, dur))), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)))
        tip = r.uniform(0.06, 0.12)
        axis = _unit(_cross(UP, d))
        b.run(tip, lambda tau: (_mul(UP, 1 - tau / tip), (0.0, 0.0, 0.0), _mul(axis, 8.0 * tau / tip)))
        b.fall(r.uniform(0.33, 0.4), r.uniform(0.3, 1.5))
        b.floor_landing((5.0, 20.0))
    elif scenario == "drop":
        # slips out of a hand: plain free fall, then the floor
        b.rest(r.uniform(0.5, 1.0))
        b.pickup()
        b.hold(r.uniform(0.5, 1.0))
        b.mark("launch")
        b.fall(r.uniform(0.3, 0.45), r.uniform(0.0, 0.5))
        b.mark("impact")
        _hit_pulse(b, None, (5.0, 20.0))
        b.fall(r.uniform(0.05, 0.15), r.uniform(0.3, 1.5))
        b.floor_landing((3.0, 8.0))
    else:
        raise ValueError(f"unknown scenario {scenario!r}")
    return b.trace


def _badge_scenario(b: _Builder, scenario: str) -> None:
    """The badge on a player's chest: body motion plus, sometimes, a burrito striking near it."""
    r = b.rng

    def body(kind: str, seconds: float, hit_at: float | None = None) -> None:
        """Stand, walk or run for `seconds`; optionally a burrito strikes near the badge `hit_at` seconds in."""
        stride = 1.0 / (r.uniform(2.6, 3.2) if kind == "run" else r.uniform(1.6, 2.0))
        peak = r.uniform(1.8, 2.3) if kind == "run" else r.uniform(1.1, 1.35)
        low = r.uniform(0.2, 0.5) if kind == "run" else r.uniform(0.75, 0.9)
        fwd = _unit((r.uniform(-1, 1), r.uniform(-1, 1), 0.0))
        breath = r.uniform(0.005, 0.02)
        hit_peak, hit_dur, hit_dir = r.uniform(1.5, 6.0), r.uniform(0.003, 0.012), _random_unit(r)
        if hit_at is not None:
            b.trace.truth.append((b.t0_us + int(round((b.t + hit_at) * 1e6)), "impact"))

        def f(tau: float) -> tuple[Vec, Vec, Vec | None]:
            if kind == "stand":
                base = _add(UP, _mul(fwd, breath * math.sin(2 * math.pi * 0.25 * tau)))
            else:
                ph = (tau % stride) / stride
                vert = low + (peak - low) * math.sin(math.pi * ph) ** 2
                base = _add(_mul(UP, vert), _mul(fwd, 0.25 * math.sin(2 * math.pi * tau / stride)))
            if hit_at is not None:
                base = _add(base, _mul(hit_dir, hit_peak * _half_sine(tau - hit_at, hit_dur)))
            return base, (0.0, 0.0, 0.0), None

        b.omega = (0.0, 0.0, 0.0)
        b.run(seconds, f)

    if scenario == "badge_hit":
        body("stand", r.uniform(1.5, 2.5), hit_at=r.uniform(0.5, 1.0))
    elif scenario == "badge_running":
        body("run", r.uniform(2.0, 4.0))
    elif scenario == "badge_jump":
        body("stand", r.uniform(0.5, 1.0))
        dur, push = r.uniform(0.05, 0.09), r.uniform(0.18, 0.25)
        # push-off (up to ~2 g), airborne (~0 g), landing (2.5-4 g extra) that blends back into standing
        b.run(push, lambda tau: (_mul(UP, 1 + 1.0 * _half_sine(tau, push) - 0.95 * max(0.0, tau / push - 0.7) / 0.3), (0.0, 0.0, 0.0), None))
        b.run(0.3, lambda tau: ((0.0, 0.0, 0.05), (0.0, 0.0, 0.0), None))
        land = r.uniform(2.5, 4.0)
        b.run(dur, lambda tau: (_mul(UP, 0.05 + 0.95 * tau / dur + land * _half_sine(tau, dur)), (0.0, 0.0, 0.0), None))
        body("stand", r.uniform(0.5, 1.0))
    elif scenario == "badge_hit_running":
        body("run", r.uniform(2.0, 3.0), hit_at=r.uniform(0.6, 1.4))
    else:
        raise ValueError(f"unknown scenario {scenario!r}")


def match_events(
    truth: list[tuple[int, str]],
    found: list[tuple[int, str]],
    tolerance_us: dict[str, int],
    windows: dict[tuple[int, str], tuple[int, int]] | None = None,
) -> tuple[list[tuple[str, int]], list[tuple[int, str]], list[tuple[int, str]]]:
    """Pair found events with true ones of the same kind within each kind's tolerance, nearest first.

    ``windows`` gives some truths, keyed by (t, kind), their own span (earliest, latest) instead: a rest may be
    reported as soon as its settling motion is too small to be play, before the instant it is labelled at.
    Returns (matches as (kind, found_t - true_t), missed truths, false detections).
    """
    used = [False] * len(found)
    matches: list[tuple[str, int]] = []
    missed: list[tuple[int, str]] = []
    for tt, kind in truth:
        tol = tolerance_us.get(kind, 50_000)
        lo, hi = (windows or {}).get((tt, kind), (tt - tol, tt + tol))
        best, best_err = -1, None
        for i, (ft, fk) in enumerate(found):
            if used[i] or fk != kind:
                continue
            err = ft - tt
            if lo <= ft <= hi and (best_err is None or abs(err) < abs(best_err)):
                best, best_err = i, err
        if best < 0:
            missed.append((tt, kind))
        else:
            used[best] = True
            matches.append((kind, best_err))  # type: ignore[arg-type]
    false = [found[i] for i in range(len(found)) if not used[i]]
    return matches, missed, false


#: How far a detection may be from the truth and still count (rest's instant is fuzzy; contacts are sharp).
TOLERANCE_US = {
    "launch": 30_000,
    "impact": 30_000,
    "catch": 30_000,
    "bounce": 30_000,
    "pickup": 150_000,
    "rest": 300_000,
}
