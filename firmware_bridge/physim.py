"""A second, independent trace simulator: a rigid body integrated under forces, read by a modelled sensor.

`firmware_bridge.traces` strings hand-drawn force segments together (half-sine pulses, scripted flight levels). This
module does not draw the force: it integrates a point mass with an orientation (unit quaternion) under gravity,
quadratic drag, a hand that is a spring-damper chasing a target path, and contacts that are Hunt-Crossley spring-dampers
against a surface (force zero at first touch). What the accelerometer reads is then *derived*: specific force (all non-gravity forces over mass)
rotated into the body frame, plus the spin terms at a sensor mounted off the centre of mass. The sensor model is also
different: it integrates at 5 kHz and low-pass filters to the output data rate (the part's digital filter), adds
white noise at a chosen level, a slowly drifting bias, cross-axis coupling, quantisation and clipping, and stamps
samples on a crystal that runs up to 1.5 % off nominal.

A condition is a `Condition` (noise, rate, contact rise time, handling, surface); `make_trace(scenario, seed, cond)`
returns a `traces.Trace` with ground truth, so the same matcher scores both simulators.

Truth instants are physical, not detector conventions: launch = the hand's last touch, impact/catch = the first
instant the contact force is non-zero, pickup = the hand's first touch, rest = the rocking has died below 5 mg.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from firmware_bridge.traces import Trace

G = 9.80665
SIM_HZ = 5000.0
SIM_DT = 1.0 / SIM_HZ
LSB_G = 0.000488
FULL_SCALE_G = 16.0
# the gyroscope (LSM6DSO at +-2000 dps): 70 mdps per LSB, 3.8 mdps/sqrt(Hz) rate noise, zero-rate level +-1 dps typical
DPS = math.pi / 180.0
GYRO_LSB = 0.070 * DPS
GYRO_FULL_SCALE = 2000.0 * DPS
GYRO_DENSITY = 0.0038 * DPS

Vec = tuple[float, float, float]
Quat = tuple[float, float, float, float]

SCENARIOS = ("throw_impact", "throw_catch", "drop", "handle_only", "knock_settle", "rest_start")

#: Levels of each matrix axis: sensor noise (mg rms per axis), output rate (Hz), contact rise time (ms),
#: handling before the throw, and the landing surface.
NOISE_MG = (2.0, 6.0, 15.0)
RATES_HZ = (200.0, 416.0, 833.0, 1666.0)
RISE_MS = (2.0, 30.0, 150.0)
HANDLING = ("still", "normal", "pump")
SURFACES = ("rigid", "rocking")


@dataclass(frozen=True)
class Condition:
    """One cell of the condition matrix."""

    noise_mg: float = 6.0
    rate_hz: float = 833.0
    rise_ms: float = 30.0
    handling: str = "normal"
    surface: str = "rigid"

    def label(self) -> str:
        return f"{self.noise_mg:g}mg/{self.rate_hz:g}Hz/rise{self.rise_ms:g}ms/{self.handling}/{self.surface}"


# ------------------------------------------------------------------ small vector and quaternion algebra
def _v_add(a: Vec, b: Vec) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _v_sub(a: Vec, b: Vec) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _v_scale(a: Vec, k: float) -> Vec:
    return (a[0] * k, a[1] * k, a[2] * k)


def _v_dot(a: Vec, b: Vec) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _v_cross(a: Vec, b: Vec) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _v_len(a: Vec) -> float:
    return math.sqrt(_v_dot(a, a))


def _v_dir(a: Vec) -> Vec:
    n = _v_len(a)
    return _v_scale(a, 1.0 / n) if n > 1e-12 else (0.0, 0.0, 1.0)


def _q_mul(a: Quat, b: Quat) -> Quat:
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    )


def _q_norm(q: Quat) -> Quat:
    n = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    return (q[0] / n, q[1] / n, q[2] / n, q[3] / n)


def _q_axis_angle(axis: Vec, angle: float) -> Quat:
    s = math.sin(angle / 2.0)
    u = _v_dir(axis)
    return (math.cos(angle / 2.0), u[0] * s, u[1] * s, u[2] * s)


def _q_to_body(q: Quat, v: Vec) -> Vec:
    """Rotate a world vector into the body frame (q maps body to world, so apply its conjugate)."""
    w, x, y, z = q[0], -q[1], -q[2], -q[3]
    t = _v_scale(_v_cross((x, y, z), v), 2.0)
    return _v_add(_v_add(v, _v_scale(t, w)), _v_cross((x, y, z), t))


def _rand_dir(rng: random.Random) -> Vec:
    while True:
        v = (rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))
        n = _v_len(v)
        if 0.2 < n <= 1.0:
            return _v_scale(v, 1.0 / n)


# ------------------------------------------------------------------ the world
class _Body:
    """Point mass + orientation, integrated by semi-implicit Euler at SIM_HZ; records the sensor's true reading."""

    def __init__(self, rng: random.Random, cond: Condition) -> None:
        self.rng = rng
        self.cond = cond
        self.t = 0.0
        self.p: Vec = (0.0, 0.0, 0.8)
        self.v: Vec = (0.0, 0.0, 0.0)
        self.q: Quat = _q_axis_angle(_rand_dir(rng), rng.uniform(0, 2 * math.pi))
        self.w: Vec = (0.0, 0.0, 0.0)  # body-frame angular velocity, rad/s
        self.sensor_r: Vec = _v_scale(_rand_dir(rng), rng.uniform(0.0, 0.03))  # metres off the centre of mass
        self.drag_k = rng.uniform(0.04, 0.15)  # 1/m: terminal speed 8-15 m/s for a foam burrito
        self.true_f: list[Vec] = []  # true specific force at the sensor, body frame, g, one per SIM_DT
        self.true_w: list[Vec] = []  # true angular velocity, body frame, rad/s, one per SIM_DT
        self.truth: list[tuple[float, str]] = []
        self.settle: list[tuple[float, float]] = []  # (last 0.1 g from where it came to lie, the 5 mg rest label)
        self.rest_tilt: Vec | None = None

    def mark(self, kind: str, t: float | None = None) -> None:
        self.truth.append((self.t if t is None else t, kind))

    def step(self, f_ext: Vec, alpha: Vec = (0.0, 0.0, 0.0), v_air: Vec | None = None) -> None:
        """Advance one SIM_DT under a non-gravity force per unit mass f_ext (world, m/s^2), plus drag.

        v_air, when given, is the velocity the drag is taken from instead of the body's own (see `_World._air`).
        """
        va = self.v if v_air is None else v_air
        drag = _v_scale(va, -self.drag_k * _v_len(va))
        f = _v_add(f_ext, drag)
        # sensor reading: specific force (non-gravity acceleration) + rotation terms at the offset sensor
        body = _q_to_body(self.q, _v_scale(f, 1.0 / G))
        w = self.w
        rot = _v_add(_v_cross(alpha, self.sensor_r), _v_cross(w, _v_cross(w, self.sensor_r)))
        self.true_f.append(_v_add(body, _v_scale(rot, 1.0 / G)))
        self.true_w.append(w)
        self.v = _v_add(self.v, _v_scale(_v_add(f, (0.0, 0.0, -G)), SIM_DT))
        self.p = _v_add(self.p, _v_scale(self.v, SIM_DT))
        self.w = _v_add(self.w, _v_scale(alpha, SIM_DT))
        wn = _v_len(self.w)
        if wn > 0:
            self.q = _q_norm(_q_mul(self.q, _q_axis_angle(self.w, wn * SIM_DT)))
        self.t += SIM_DT


class _Hand:
    """A hand: a stiff spring-damper (about 12 Hz, near critical) pulling the body towards a target path, plus
    physiological tremor as a force and slow sway/pumping as target motion."""

    def __init__(self, rng: random.Random, handling: str) -> None:
        self.rng = rng
        self.k = (2 * math.pi * rng.uniform(9.0, 15.0)) ** 2
        self.c = 2 * 0.8 * math.sqrt(self.k)
        self.trem = [(_rand_dir(rng), rng.uniform(0.006, 0.02) * G, rng.uniform(7.5, 12.5), rng.uniform(0, 6.3))
                     for _ in range(2)]
        if handling == "still":
            amp, fr = (0.005, 0.03), (0.2, 1.0)
        elif handling == "normal":
            amp, fr = (0.03, 0.15), (0.3, 2.0)
        else:  # pump fakes: vigorous 0.5-4 Hz swings up to about 1 g per axis
            amp, fr = (0.3, 1.0), (0.5, 4.0)
        # sway as target acceleration components; converted to displacement amplitude a / (2 pi f)^2
        self.sway = []
        for _ in range(3):
            a = rng.uniform(*amp) * G
            f = rng.uniform(*fr)
            x = min(a / (2 * math.pi * f) ** 2, 0.25)  # an arm swings at most about 25 cm each way
            self.sway.append((_rand_dir(rng), x, f, rng.uniform(0, 6.3)))
        self.spin_amp = rng.uniform(0.2, 1.0) if handling != "pump" else rng.uniform(1.0, 4.0)
        self.ref: tuple[float, Vec, Vec] | None = None
        self.sway_gain = 1.0  # the player calms the sway to set it down (put_down fades it out)
        self.sway_rate = 0.0  # d(sway_gain)/dt, 1/s

    def grab(self, t: float) -> None:
        """Start from where the hand is now: the sway fades in smoothly over 0.5 s instead of jumping."""
        self.ref = (t, *self._sway(t))

    def target_offset(self, t: float) -> tuple[Vec, Vec]:
        """Sway displacement and velocity at time t, relative to the grab."""
        p, v = self._sway(t)
        if self.ref is not None:
            # the sway fades in (envelope e from 0 to 1 over 0.5 s, with zero slope at both ends)
            u = min(1.0, (t - self.ref[0]) / 0.5)
            e = 0.5 - 0.5 * math.cos(math.pi * u)
            de = 0.5 * math.pi * math.sin(math.pi * u) / 0.5 if u < 1.0 else 0.0
            v = _v_add(_v_scale(v, e), _v_scale(p, de))
            p = _v_scale(p, e)
        v = _v_add(_v_scale(v, self.sway_gain), _v_scale(p, self.sway_rate))
        p = _v_scale(p, self.sway_gain)
        return p, v

    def _sway(self, t: float) -> tuple[Vec, Vec]:
        p: Vec = (0.0, 0.0, 0.0)
        v: Vec = (0.0, 0.0, 0.0)
        for d, x, f, ph in self.sway:
            wt = 2 * math.pi * f
            p = _v_add(p, _v_scale(d, x * math.sin(wt * t + ph)))
            v = _v_add(v, _v_scale(d, x * wt * math.cos(wt * t + ph)))
        return p, v

    def tremor(self, t: float) -> Vec:
        f: Vec = (0.0, 0.0, 0.0)
        for d, a, fr, ph in self.trem:
            f = _v_add(f, _v_scale(d, a * math.sin(2 * math.pi * fr * t + ph)))
        return f

    def force(self, body: _Body, target: Vec, target_v: Vec, grip: float = 1.0) -> Vec:
        """Force per unit mass the hand applies: hold against gravity, chase the target, tremble."""
        off, offv = self.target_offset(body.t)
        e = _v_sub(_v_add(target, off), body.p)
        ev = _v_sub(_v_add(target_v, offv), body.v)
        f = _v_add(_v_add(_v_scale(e, self.k), _v_scale(ev, self.c)), (0.0, 0.0, G))
        f = _v_add(f, self.tremor(body.t))
        return _v_scale(f, grip)


class _World:
    def __init__(self, rng: random.Random, cond: Condition) -> None:
        self.rng = rng
        self.cond = cond
        self.b = _Body(rng, cond)
        self.hand = _Hand(rng, cond.handling)
        self.anchor: Vec = self.b.p

    # ---------------------------------------------------------- phases
    def lie(self, seconds: float, rocking: tuple[float, float, float] | None = None) -> None:
        """On a surface: supported (1 g up), optionally rocking about a horizontal axis (amplitude rad, f Hz, tau s)."""
        b = self.b
        axis = _v_dir((self.rng.uniform(-1, 1), self.rng.uniform(-1, 1), 0.0))
        q0 = b.q
        b.v = (0.0, 0.0, 0.0)
        b.w = (0.0, 0.0, 0.0)
        n = int(seconds * SIM_HZ)
        t0 = b.t
        for _ in range(n):
            if rocking is not None:
                amp, f, tau = rocking
                tt = b.t - t0
                wt = 2 * math.pi * f
                env = amp * math.exp(-tt / tau)
                th = env * math.sin(wt * tt)
                om = env * (wt * math.cos(wt * tt) - math.sin(wt * tt) / tau)
                al = env * (-(wt * wt) * math.sin(wt * tt) - 2 * wt * math.cos(wt * tt) / tau + math.sin(wt * tt) / tau / tau)
                b.q = _q_mul(_q_axis_angle(axis, th), q0)
                w_body = _q_to_body(b.q, _v_scale(axis, om))
                a_body = _q_to_body(b.q, _v_scale(axis, al))
                b.w = w_body
                b.step((0.0, 0.0, G), a_body)
                b.v = (0.0, 0.0, 0.0)
                b.w = (0.0, 0.0, 0.0)
                b.q = q0
            else:
                b.step((0.0, 0.0, G))
                b.v = (0.0, 0.0, 0.0)
        if rocking is not None:
            b.q = _q_mul(_q_axis_angle(axis, 0.0), q0)

    def settle_after_landing(self) -> None:
        """Rocking on the landing surface, then still; marks rest when the rocking reads below 5 mg."""
        r = self.rng
        if self.cond.surface == "rocking":
            # rocks like a phone on a cushion: 6-14 Hz (straddling hand tremor's band), 1-4 degrees (readings of
            # about 0.05-0.5 g from the tilt and the angular acceleration at the off-centre sensor), decaying
            amp, f, tau = math.radians(r.uniform(1, 4)), r.uniform(6.0, 14.0), r.uniform(0.15, 0.5)
        else:
            amp, f, tau = math.radians(r.uniform(0.05, 0.2)), r.uniform(15.0, 30.0), r.uniform(0.02, 0.05)
        # the reading of a tilt theta is ~theta (1 + w^2 r / g) g with r <= 3 cm: below 5 mg when that decays below 0.005
        t_quiet = tau * math.log(max(1.0, amp * (1.0 + (2 * math.pi * f) ** 2 * 0.03 / G) / 0.005))
        t0 = self.b.t
        i0 = len(self.b.true_f)
        self.lie(t_quiet + r.uniform(0.8, 1.5), (amp, f, tau))
        self.b.mark("rest", t0 + t_quiet)
        # lying there, out of play, from when the true reading last strayed 0.1 g from where it came to lie (the
        # blind simulator's rest convention): a rest reported from then on is not early
        lay = self.b.true_f[-1]
        calm = i0
        for i in range(i0, len(self.b.true_f)):
            fi = self.b.true_f[i]
            if (fi[0] - lay[0]) ** 2 + (fi[1] - lay[1]) ** 2 + (fi[2] - lay[2]) ** 2 > 0.01:
                calm = i + 1
        self.b.settle.append((t0 + (calm - i0) * SIM_DT, t0 + t_quiet))

    def hold(self, seconds: float, grip_from: float = 1.0) -> None:
        """In the hand at the anchor, swaying and trembling."""
        n = int(seconds * SIM_HZ)
        for i in range(n):
            grip = min(1.0, grip_from + (1.0 - grip_from) * i / max(1, int(0.03 * SIM_HZ)))
            spin = self.hand.spin_amp
            wt = self.b.t
            al = (spin * math.cos(1.3 * wt), spin * math.sin(0.9 * wt), 0.5 * spin * math.cos(0.7 * wt))
            self.b.w = _v_scale(self.b.w, 0.995)
            self.b.step(self.hand.force(self.b, self.anchor, (0.0, 0.0, 0.0), grip), al)

    def pickup(self) -> None:
        """The hand closes on the resting body and lifts it 10-30 cm over 0.45-0.8 s (at most about 0.6 g)."""
        r = self.rng
        self.b.mark("pickup")
        lift, dur = r.uniform(0.1, 0.3), r.uniform(0.45, 0.8)
        start = self.b.p
        self.hand = _Hand(r, self.cond.handling)
        self.hand.grab(self.b.t)
        n = int(dur * SIM_HZ)
        for i in range(n):
            k = i / n
            s = 0.5 - 0.5 * math.cos(math.pi * k)
            tgt = _v_add(start, (0.0, 0.0, lift * s))
            tv = (0.0, 0.0, lift * 0.5 * math.pi * math.sin(math.pi * k) / dur)
            grip = min(1.0, i / (0.04 * SIM_HZ))
            f = self.hand.force(self.b, tgt, tv, 1.0)
            # while the grip closes the table still carries part of the weight
            f = _v_add(_v_scale(f, grip), (0.0, 0.0, G * (1.0 - grip)))
            self.b.step(f)
        self.anchor = _v_add(start, (0.0, 0.0, lift))

    def put_down(self) -> None:
        """The hand lowers it 10-30 cm onto the table over 0.4-0.8 s and lets go; then it settles."""
        r = self.rng
        drop, dur = r.uniform(0.1, 0.3), r.uniform(0.4, 0.8)
        start = self.anchor
        n = int(dur * SIM_HZ)
        for i in range(n):
            k = i / n
            # a reach is a minimum-jerk path (Flash and Hogan 1985): it ends at rest with no acceleration left. A
            # cosine path ends braking at its hardest (drop (pi / dur)^2 / 2, up to 1 g), and the table below, which
            # takes the weight with no contact force, would then cut that push off within one step
            s = k * k * k * (10.0 - 15.0 * k + 6.0 * k * k)
            ds = 30.0 * k * k * (1.0 - k) * (1.0 - k) / dur
            tgt = _v_add(start, (0.0, 0.0, -drop * s))
            tv = (0.0, 0.0, -drop * ds)
            # setting it down, the hand stops swinging it: the sway fades out with the lowering, so it reaches the
            # table at rest in the hand (a table that stopped a body still swinging at up to 1.5 m/s would be an
            # impact, yet the table below takes the weight with no contact force at all)
            self.hand.sway_gain = 1.0 - s
            self.hand.sway_rate = -ds
            self.b.step(self.hand.force(self.b, tgt, tv))
        self.hand.sway_gain, self.hand.sway_rate = 0.0, 0.0
        # on the table: the table takes the weight as the fingers open over 50-150 ms (no jolt: it is already there)
        m = int(r.uniform(0.05, 0.15) * SIM_HZ)
        for i in range(m):
            grip = 1.0 - (i + 1) / m
            tr = self.hand.tremor(self.b.t)
            self.b.step(_v_add((0.0, 0.0, G), _v_scale(tr, grip)))
            self.b.v = (0.0, 0.0, 0.0)
        self.settle_after_landing()

    def pump_fake(self) -> None:
        """A throwing motion stopped short: the arm accelerates 2-4 g towards the target and brakes, still holding."""
        r = self.rng
        d = _v_dir((r.uniform(-1, 1), r.uniform(-1, 1), r.uniform(0.0, 0.5)))
        peak, dur = r.uniform(2.0, 4.0) * G, r.uniform(0.15, 0.3)
        self._arm_move(d, peak, dur, brake=True)
        self.hold(r.uniform(0.3, 0.8))

    def _arm_move(self, d: Vec, peak: float, dur: float, brake: bool) -> Vec:
        """Move the hand target along d with acceleration peak*sin(pi t/dur) (then the mirror image if brake)."""
        n = int(dur * SIM_HZ)
        pos = self.anchor
        vel: Vec = (0.0, 0.0, 0.0)
        for i in range(n):
            tt = i / SIM_HZ
            a = peak * math.sin(math.pi * tt / dur)
            vel = _v_add(vel, _v_scale(d, a * SIM_DT))
            pos = _v_add(pos, _v_scale(vel, SIM_DT))
            self.b.step(self.hand.force(self.b, pos, vel))
        if brake:
            for i in range(n):
                tt = i / SIM_HZ
                a = -peak * math.sin(math.pi * tt / dur)
                vel = _v_add(vel, _v_scale(d, a * SIM_DT))
                pos = _v_add(pos, _v_scale(vel, SIM_DT))
                self.b.step(self.hand.force(self.b, pos, vel))
            self.anchor = pos
        return vel

    def throw(self) -> None:
        """Windup on an arc and release: the hand swings it on a 0.5-0.9 m radius up to 4-8 m/s over 120-250 ms
        (so at release it still pushes the centripetal v^2/R, 1.8-13 g), then the grip opens over 3-12 ms."""
        r = self.rng
        d = _v_dir((r.uniform(-1, 1), r.uniform(-1, 1), r.uniform(0.2, 0.8)))  # direction of flight at release
        up = _v_dir(_v_cross(_v_cross(d, (0.0, 0.0, 1.0)), d)) if abs(d[2]) < 0.99 else (1.0, 0.0, 0.0)
        rad, v_rel, dur = r.uniform(0.5, 0.9), r.uniform(4.0, 8.0), r.uniform(0.12, 0.25)
        w_rel = v_rel / rad
        # phi(t): angular speed ramps as sin^2 from 0 to w_rel; the arc ends (phi = 0) at release
        n = int(dur * SIM_HZ)
        phi_total = sum(w_rel * math.sin(0.5 * math.pi * i / n) ** 2 * SIM_DT for i in range(n))
        centre = _v_add(self.anchor, _v_scale(up, -rad))
        # start of the arc: rotated back by phi_total in the (d, up) plane, shifted so it starts at the anchor
        start_rel = _v_add(_v_scale(up, rad * math.cos(-phi_total)), _v_scale(d, rad * math.sin(-phi_total)))
        shift = _v_sub(self.anchor, _v_add(centre, start_rel))
        spin_axis = _rand_dir(r)
        spin = 2 * math.pi * r.uniform(0.3, 3.0)
        phi = -phi_total
        pos, vel = self.anchor, (0.0, 0.0, 0.0)
        for i in range(n):
            w = w_rel * math.sin(0.5 * math.pi * i / n) ** 2
            phi += w * SIM_DT
            rel = _v_add(_v_scale(up, rad * math.cos(phi)), _v_scale(d, rad * math.sin(phi)))
            pos = _v_add(_v_add(centre, rel), shift)
            vel = _v_scale(_v_add(_v_scale(up, -math.sin(phi)), _v_scale(d, math.cos(phi))), w * rad)
            self.b.step(self.hand.force(self.b, pos, vel), _v_scale(spin_axis, spin / dur))
        rel_s = r.uniform(0.003, 0.012)
        m = int(rel_s * SIM_HZ)
        for i in range(m):
            pos = _v_add(pos, _v_scale(vel, SIM_DT))
            self.b.step(self.hand.force(self.b, pos, vel, 1.0 - (i + 1) / m))
        self.b.mark("launch")

    def drop(self) -> None:
        """The fingers open (over 5-30 ms) without any throw."""
        r = self.rng
        m = int(r.uniform(0.005, 0.03) * SIM_HZ)
        for i in range(m):
            self.b.step(self.hand.force(self.b, self.anchor, (0.0, 0.0, 0.0), 1.0 - (i + 1) / m))
        self.b.mark("launch")

    def fly(self, seconds: float) -> None:
        for _ in range(int(seconds * SIM_HZ)):
            self.b.step((0.0, 0.0, 0.0))

    def contact(self, normal: Vec, rise_s: float, restitution: float, kind: str | None, peak_g: float,
                until_stopped: bool = False) -> Vec:
        """Hunt-Crossley contact against a surface met now with outward normal `normal`; returns the last force.

        Stiffness sets the rise time (quarter period of the contact's oscillation). The damping force grows with
        the compression (F = k d (1 + lam d')), as in foam and flesh, so the force is zero at first touch and
        climbs over the rise time. A Kelvin-Voigt damper (c d') would instead jump to c v at touch: with the
        restitutions used here that step is 0.6-1.4x the whole peak, so a "150 ms" contact would really be a step.
        lam follows Lankarani and Nikravesh (1990): 3 (1 - e^2) / (4 v_in).
        """
        b = self.b
        n = _v_dir(normal)
        wn = math.pi / (2.0 * rise_s)
        k = wn * wn
        # the closing speed that gives this peak (a glancing hit: only the normal part is set, the rest glides on)
        vin = -_v_dot(b.v, n)
        want = peak_g * G / wn
        b.v = _v_add(b.v, _v_scale(n, vin - want))
        air = max(vin, 0.0) / want
        e = min(0.95, max(restitution, 0.01))
        lam = 3.0 * (1.0 - e * e) / (4.0 * max(want, 0.05))
        surf = b.p
        if kind:
            b.mark(kind)
        peak = 0.0
        last: Vec = (0.0, 0.0, 0.0)
        for _ in range(int(6 * rise_s * SIM_HZ) + 10):
            delta = -_v_dot(_v_sub(b.p, surf), n)
            ddot = -_v_dot(b.v, n)
            if delta < 0 and ddot < 0:
                break
            if until_stopped and ddot <= 0.0 and peak > 0.0:
                break  # a hand: it has stopped the burrito and now holds it (the caller blends its grip in)
            fmag = max(0.0, k * max(delta, 0.0) * (1.0 + lam * ddot))
            if fmag <= 0.0 and peak > 0.0:
                break  # the damper pulls no more: the surface lets go (it cannot pull the body back)
            peak = max(peak, fmag / G)
            b.w = _v_scale(b.w, 0.999)
            last = _v_scale(n, fmag)
            b.step(last, v_air=self._air(n, air) if ddot > 0 else None)
        return last

    def _air(self, n: Vec, scale: float) -> Vec:
        """The velocity the air sees while a contact takes the closing speed away: the normal part scaled up.

        `contact` and `catch` set the closing speed their peak needs at first touch, in one step. The drag, read by
        the sensor, would then fall by up to 0.2 g in one sample with no force to account for it, a step that no real
        touch makes. Scaling the closing part back up by vin / want keeps the drag where the flight left it at touch
        and lets it fall with the closing speed, to none at full compression, as it would if the contact itself had
        taken the whole vin away.
        """
        v = self.b.v
        vn = -_v_dot(v, n)
        return _v_add(v, _v_scale(n, -vn * (scale - 1.0)))

    def catch(self, rise_s: float) -> None:
        """The hand meets it, stops it with one smooth push as the arm gives, then holds it.

        The palm's push is a bump: zero at first touch, rising over rise_s to its peak and falling back to zero as
        the burrito comes to rest in the hand (2 rise_s in all), while the grip takes over the weight. A palm
        contact run to full compression instead leaves its peak force acting on a burrito that has already stopped:
        it is then thrown back out of the hand, or the force must vanish in a step, neither of which a catch does.
        """
        b = self.b
        # a palm is never a hard surface: its flesh and the giving arm make a catch rise over >= 15 ms, at <= 5 g
        rise_s = max(rise_s, 0.015)
        peak = self.rng.uniform(2.0, 5.0) if rise_s <= 0.05 else self.rng.uniform(1.3, 4.0)
        dur = 2.0 * rise_s
        d = _v_dir(b.v)
        v0 = peak * G * 2.0 * dur / math.pi  # the speed one half-sine push of this peak and length takes away
        vin = _v_len(b.v)
        b.v = _v_scale(d, v0)
        air = vin / v0
        self.hand = _Hand(self.rng, "still" if self.cond.handling == "still" else "normal")
        b.mark("catch")
        n = int(dur * SIM_HZ)
        for i in range(n):
            ph = math.pi * (i + 0.5) / n
            push = _v_scale(d, -peak * G * math.sin(ph))
            grip = 0.5 - 0.5 * math.cos(ph)
            b.w = _v_scale(b.w, 0.999)
            v_air = self._air(_v_scale(d, -1.0), air) if _v_dot(b.v, d) > 0 else None
            b.step(_v_add(push, _v_scale(_v_add((0.0, 0.0, G), self.hand.tremor(b.t)), grip)), v_air=v_air)
        self.hand.grab(b.t)
        self.anchor = b.p
        v_end = b.v  # what gravity added before the grip had the weight: the arm brakes it, smoothly
        n = int(0.15 * SIM_HZ)
        for i in range(n):
            vel = _v_scale(v_end, 0.5 + 0.5 * math.cos(math.pi * (i + 1) / n))
            self.anchor = _v_add(self.anchor, _v_scale(vel, SIM_DT))
            b.w = _v_scale(b.w, 0.99)
            b.step(self.hand.force(b, self.anchor, vel))
        self.hold(self.rng.uniform(0.8, 1.5))

    def fall_to_floor(self, max_s: float) -> None:
        """Free fall until the floor (z = 0) or max_s."""
        b = self.b
        for _ in range(int(max_s * SIM_HZ)):
            if b.p[2] <= 0.0:
                break
            b.step((0.0, 0.0, 0.0))

    def floor_bounces(self, kind: str | None) -> None:
        """Land on the floor: a contact (the floor's own rise time), 0-2 bounces, then settle."""
        r = self.rng
        b = self.b
        rise = 0.002 if self.cond.rise_ms <= 2.0 else r.uniform(0.003, 0.02)
        e = r.uniform(0.2, 0.45)
        hops = r.randint(0, 2)
        peak = r.uniform(3.0, 15.0)
        for i in range(hops + 1):
            b.p = (b.p[0], b.p[1], 0.0)
            b.v = (b.v[0] * 0.5, b.v[1] * 0.5, min(b.v[2], -0.3))
            self.contact((0.0, 0.0, 1.0), rise, e, kind if i == 0 else "bounce", peak)
            if i == hops:
                break
            peak = max(2.0, peak * r.uniform(0.3, 0.6))
            b.v = (b.v[0], b.v[1], r.uniform(0.4, 1.2))  # a hop: the foam springs back
            b.p = (b.p[0], b.p[1], 0.001)
            self.fall_to_floor(2 * b.v[2] / G + 0.05)
        b.p = (b.p[0], b.p[1], 0.0)
        self.settle_after_landing()


def _peak_for(rise_s: float, rng: random.Random) -> float:
    """Contact peak (g) that goes with a rise time: sharp contacts are hard, slow ones are soft (foam on a body)."""
    if rise_s <= 0.005:
        return rng.uniform(6.0, 20.0)
    if rise_s <= 0.05:
        return rng.uniform(2.5, 10.0)
    return rng.uniform(1.3, 4.0)


def _finish(w: _World, cond: Condition, scenario: str, seed: int) -> Trace:
    """Run the true reading through the sensor model and sample it at the condition's rate."""
    r = random.Random(f"sensor:{scenario}:{seed}:{cond.label()}")
    rate = cond.rate_hz
    ppm = r.uniform(-0.015, 0.015)  # the part's own oscillator vs nominal ODR
    true_period = 1.0 / (rate * (1.0 + ppm))
    stamp_period_us = 1e6 / rate  # the firmware stamps at nominal ODR, like burrito_main does
    noise = cond.noise_mg / 1000.0
    bias = [r.uniform(-0.06, 0.06) for _ in range(3)]
    drift = [0.0, 0.0, 0.0]
    cross = [[1.0 + r.uniform(-0.01, 0.01) if i == j else r.uniform(-0.01, 0.01) for j in range(3)] for i in range(3)]
    # digital low-pass of the part: first order at ODR/4 (LSM6DSO's LPF1 is ODR/2 with a further /4 option)
    fc = rate / 4.0
    a_lp = 1.0 - math.exp(-2 * math.pi * fc * SIM_DT)
    lp = list(w.b.true_f[0]) if w.b.true_f else [0.0, 0.0, 1.0]
    t0_us = r.randrange(1_000_000, 40_000_000)
    # the gyroscope: its own random stream, so the accelerometer's samples are the same with or without it; the
    # same output rate and filter (the part's gyro LPF1 sits above ODR/4 too), the same axes
    rg = random.Random(f"gyro:{scenario}:{seed}:{cond.label()}")
    g_bias = [rg.uniform(-1.0, 1.0) * DPS for _ in range(3)]
    g_scale = [1.0 + rg.uniform(-0.01, 0.01) for _ in range(3)]
    g_noise = GYRO_DENSITY * math.sqrt(0.5 * math.pi * fc)  # white noise through a first-order filter at fc
    glp = list(w.b.true_w[0]) if w.b.true_w else [0.0, 0.0, 0.0]
    tr = Trace(scenario, "burrito", rate)
    next_t = 0.0
    k = 0
    for i, f in enumerate(w.b.true_f):
        wi = w.b.true_w[i]
        for j in range(3):
            lp[j] += (f[j] - lp[j]) * a_lp
            glp[j] += (wi[j] - glp[j]) * a_lp
        ti = i * SIM_DT
        if ti + 1e-12 < next_t:
            continue
        next_t += true_period
        vals = []
        for j in range(3):
            drift[j] += r.gauss(0.0, 0.00002)  # bias random walk, ~1 mg over a few seconds
            x = sum(cross[j][m] * lp[m] for m in range(3)) + bias[j] + drift[j] + r.gauss(0.0, noise)
            x = max(-FULL_SCALE_G, min(FULL_SCALE_G, round(x / LSB_G) * LSB_G))
            vals.append(x)
        tr.samples.append((t0_us + int(round(k * stamp_period_us)), vals[0], vals[1], vals[2]))
        gv = []
        for j in range(3):
            y = sum(cross[j][m] * glp[m] for m in range(3)) * g_scale[j] + g_bias[j] + rg.gauss(0.0, g_noise)
            gv.append(max(-GYRO_FULL_SCALE, min(GYRO_FULL_SCALE, round(y / GYRO_LSB) * GYRO_LSB)))
        tr.gyro.append((gv[0], gv[1], gv[2]))
        k += 1
    # truth instants onto the sample stamps (sample k was taken at k * true_period)
    def stamp(t: float) -> int:
        return t0_us + int(round(t / true_period * stamp_period_us))

    tr.truth = [(stamp(t), kind) for t, kind in sorted(w.b.truth)]
    tr.settle = [(stamp(a), stamp(b)) for a, b in w.b.settle]
    return tr


def make_trace(scenario: str, seed: int, cond: Condition | None = None) -> Trace:
    """One seeded trace of a scenario under a condition (see SCENARIOS)."""
    cond = cond or Condition()
    r = random.Random(f"physim:{scenario}:{seed}:{cond.label()}")
    w = _World(r, cond)
    rise = cond.rise_ms / 1000.0
    if scenario in ("throw_impact", "throw_catch", "drop", "handle_only"):
        w.lie(r.uniform(0.6, 1.2))
        w.pickup()
        w.hold(r.uniform(0.3, 0.8))
        if cond.handling == "pump" and scenario != "drop":
            for _ in range(r.randint(1, 2)):
                w.pump_fake()
        if scenario == "handle_only":
            w.hold(r.uniform(0.5, 1.0))
            w.put_down()
        elif scenario == "drop":
            w.hold(r.uniform(0.2, 0.5))
            w.drop()
            w.b.p = (w.b.p[0], w.b.p[1], r.uniform(0.6, 1.2))
            w.fall_to_floor(1.0)
            w.floor_bounces("impact")
        else:
            w.throw()
            w.fly(r.uniform(0.2, 0.7))
            if scenario == "throw_catch":
                w.catch(rise)
            else:
                w.contact(_v_scale(w.b.v, -1.0), rise, r.uniform(0.1, 0.4), "impact", _peak_for(rise, r))
                w.b.p = (w.b.p[0], w.b.p[1], r.uniform(0.6, 1.3))
                w.fall_to_floor(1.0)
                w.floor_bounces("bounce")
    elif scenario == "knock_settle":
        # lying still; the table is bumped: it rocks and settles without a hand (no pickup, no launch)
        w.lie(r.uniform(0.8, 1.5))
        w.settle_after_landing()
        w.b.truth = [e for e in w.b.truth if e[1] != "rest"]
    elif scenario == "rest_start":
        w.lie(r.uniform(2.0, 3.0))
    else:
        raise ValueError(f"unknown scenario {scenario!r}")
    return _finish(w, cond, scenario, seed)
