"""Blind simulator: labelled 3-axis accelerometer (and gyroscope) traces of a foam burrito and of a chest badge.

Written from physics and public sensor data sheets, without reading the repo's detector or its simulators, so that the
detector is scored on data its author did not shape.  Every trace is built as rigid-body kinematics at 8 kHz
(world-frame acceleration of the centre of mass plus an orientation sequence), turned into what a MEMS accelerometer
mounted off-centre reads (specific force, w x (w x r) and dw/dt x r), then passed through a sensor model: mounting
rotation, axis misalignment and cross-axis coupling, sensitivity error, zero-g bias, boxcar averaging to the output
rate, white noise, quantisation and +-16 g clipping, with a clock that runs a little fast or slow and jitters.

The gyroscope reads the true body angular rate of the same orientation sequence (the constant rate that turns each
8 kHz orientation into the next, R_k^T R_k+1), through an LSM6DSO gyro model on the accelerometer's axes and sample
instants: sensitivity error, zero-rate offset, rate noise, 70 mdps/LSB and +-2000 dps clipping.  Its random draws come
from streams of their own, so a trace's accelerometer samples and labels are the same with or without it.

Labels follow the shared labelled-recording format (kind, t in trace seconds).  Contact labels (impact, catch) sit on
the true first-touch sample: the first output sample at or after the instant of first contact.  Physics and sources:
docs/blind-evaluation.md.
"""

from __future__ import annotations

import json
import math
import os

# Small arrays, many calls: BLAS threads only contend on a shared 2-core machine.  Must precede numpy's import.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
from numpy.typing import NDArray  # noqa: E402

Arr = NDArray[np.float64]

G = 9.80665  # m/s^2, standard gravity
FS_INT = 8000.0  # internal physics rate, Hz: a 2 ms contact rise is 16 steps
RHO_AIR = 1.2  # kg/m^3
Z = np.array([0.0, 0.0, 1.0])
CLIP_G = 16.0

# Burrito: 30 x 12 cm foam cylinder.  Cross-flow drag of a short cylinder Cd ~ 0.7-1.0: its terminal speed is only
# 8-12 m/s, so a hard throw reads 1-2 g of drag just after release.
BURRITO_LEN = 0.30
BURRITO_DIAM = 0.12
A_SIDE = BURRITO_LEN * BURRITO_DIAM
A_END = math.pi * (BURRITO_DIAM / 2) ** 2


@dataclass(frozen=True)
class SensorModel:
    """Public data-sheet figures of one accelerometer (typical values; offsets as a 1-sigma spread)."""

    name: str
    density_ug: tuple[float, float]  # noise density x/y, z in ug/sqrt(Hz)
    offset_mg: tuple[float, float]  # zero-g offset spread x/y, z (mg, 1 sigma)
    lsb_mg: float  # resolution at +-16 g
    rates: tuple[float, ...]  # output data rates near 200-1666 Hz
    sens_tol: float  # sensitivity tolerance (fraction, 1 sigma)
    cross_axis: float  # cross-axis sensitivity (fraction, 1 sigma)


SENSORS: tuple[SensorModel, ...] = (
    # ADXL345: 290/430 ug/rtHz (data sheet Fig. 52), 0 g output +-150 mg x/y, +-250 mg z, 3.9 mg/LSB full resolution.
    SensorModel("ADXL345", (290.0, 430.0), (50.0, 80.0), 3.9, (200.0, 400.0, 800.0, 1600.0), 0.03, 0.01),
    # LIS3DH: ~220 ug/rtHz normal mode, zero-g +-40 mg typ, 12 mg/digit at +-16 g high resolution.
    SensorModel("LIS3DH", (220.0, 220.0), (40.0, 40.0), 12.0, (200.0, 400.0, 1344.0), 0.03, 0.01),
    # BMI270: 160 ug/rtHz, zero-g +-20 mg, 16 bit (0.488 mg at +-16 g), ODR to 1600 Hz.
    SensorModel("BMI270", (160.0, 160.0), (20.0, 20.0), 0.488, (200.0, 400.0, 800.0, 1600.0), 0.01, 0.01),
    # LSM6DSOX (the reference hardware): ~70-130 ug/rtHz, zero-g +-20 mg, 0.488 mg at +-16 g, 208-1666 Hz steps.
    SensorModel("LSM6DSOX", (110.0, 110.0), (20.0, 20.0), 0.488, (208.0, 416.0, 833.0, 1666.0), 0.01, 0.01),
)



@dataclass(frozen=True)
class GyroModel:
    """Data-sheet figures of a gyroscope (typical values; the offset and sensitivity error drawn as a 1-sigma spread)."""

    name: str
    density_mdps: float  # rate noise density, mdps/sqrt(Hz)
    offset_dps: float  # zero-rate level spread (dps, 1 sigma)
    sens_tol: float  # sensitivity tolerance (fraction, 1 sigma)
    lsb_mdps: float  # resolution at the full scale
    full_scale_dps: float


# ST LSM6DSO (DS12140 Rev 2, Table 2): G_So 70 mdps/LSB at +-2000 dps, G_So% +-1 %, G_TyOff +-1 dps, Rn 3.8 mdps/rtHz
# in high-performance mode (independent of ODR and full scale); ODRs 12.5-6664 Hz, the accelerometer's steps.
GYRO = GyroModel("LSM6DSO", 3.8, 1.0, 0.01, 70.0, 2000.0)
GYRO_STREAM = 0x6779  # spawn key of the gyro's own random streams ("gy"): the accelerometer's stream never sees them

NOISE_LEVELS: dict[str, tuple[float, float]] = {"low": (2.0, 5.0), "high": (8.0, 15.0)}  # total rms per axis, mg
RATES: tuple[int, ...] = (200, 400, 833, 1666)


@dataclass
class Label:
    """One ground-truth event; optional ones are neither required nor penalised (a set-down, a drop's release)."""

    kind: str
    t: float  # trace seconds, on the first output sample at or after the physical instant
    optional: bool = False
    early: float | None = None  # rest only: how long before t a report is still right (the motion was over)
    info: dict[str, float] = field(default_factory=dict)  # physics behind it: w2r_g at a launch, rise_ms of a contact


@dataclass
class Trace:
    """A simulated recording: integer microsecond stamps, readings in g, labels and what produced them."""

    scenario: str
    device: str
    rate_hz: float
    t_us: NDArray[np.int64]
    acc: Arr  # (n, 3) g
    labels: list[Label]
    settle: list[tuple[float, float]] = field(default_factory=list)  # (first landing contact, rest) in trace s
    meta: dict[str, Any] = field(default_factory=dict)
    gyro: Arr | None = None  # (n, 3) rad/s, the gyroscope's reading on the accelerometer's axes, one per sample
    orient: Arr | None = None  # (n, 3, 3) true sensor-to-world rotation at each sample's instant (ground truth)
    gyro_setup: GyroSetup | None = None  # the gyroscope's drawn errors (ground truth)

    def samples(self) -> list[tuple[int, float, float, float]]:
        """Rows as `burrito-table detect` reads them (values rounded to 0.1 mg, as a CSV would carry them)."""
        a = np.round(self.acc, 4)
        return list(zip(self.t_us.tolist(), a[:, 0].tolist(), a[:, 1].tolist(), a[:, 2].tolist()))

    def gyro_samples(self) -> list[tuple[float, float, float]]:
        """Per-sample (gx, gy, gz) in rad/s on the accelerometer's axes, parallel to `samples()` (rounded to 1e-4
        rad/s, as a CSV would carry them; the part's LSB is 1.2e-3 rad/s).  Raises if the trace has no gyro."""
        if self.gyro is None:
            raise ValueError("this trace was simulated without its gyroscope (simulate(..., gyro=False))")
        g = np.round(self.gyro, 4)
        return list(zip(g[:, 0].tolist(), g[:, 1].tolist(), g[:, 2].tolist()))

    def write(self, csv_path: Path, gyro: bool = False) -> None:
        """Write the CSV and its sidecar JSON (the shared labelled-recording format).

        `gyro`: add gx,gy,gz columns (rad/s) after az; the default writes the accelerometer only, t_us,ax,ay,az.
        """
        with open(csv_path, "w", encoding="utf-8") as fh:
            if gyro:
                fh.write("t_us,ax,ay,az,gx,gy,gz\n")
                for (t, ax, ay, az), (gx, gy, gz) in zip(self.samples(), self.gyro_samples()):
                    fh.write(f"{t},{ax:.4f},{ay:.4f},{az:.4f},{gx:.4f},{gy:.4f},{gz:.4f}\n")
            else:
                fh.write("t_us,ax,ay,az\n")
                for t, ax, ay, az in self.samples():
                    fh.write(f"{t},{ax:.4f},{ay:.4f},{az:.4f}\n")
        side = {
            "device": f"blind-{self.meta.get('sensor', 'sim')}",
            "kind": self.device,
            "rate_hz": round(self.rate_hz, 3),
            "events": [{"kind": lb.kind, "t": round(lb.t, 6), "source": "confirmed"} for lb in self.labels
                       if not lb.optional],
        }
        csv_path.with_suffix(".json").write_text(json.dumps(side, indent=1) + "\n", encoding="utf-8")


# ---------------------------------------------------------------------------------------------------------- helpers


def _skew(v: Arr) -> Arr:
    """(n,3) vectors -> (n,3,3) cross-product matrices."""
    z = np.zeros(len(v))
    return np.stack(
        [np.stack([z, -v[:, 2], v[:, 1]], 1), np.stack([v[:, 2], z, -v[:, 0]], 1),
         np.stack([-v[:, 1], v[:, 0], z], 1)], 1)


def rotvec_to_matrix(phi: Arr) -> Arr:
    """Rodrigues' formula, vectorised: (n,3) rotation vectors -> (n,3,3) rotation matrices."""
    th = np.linalg.norm(phi, axis=1)
    k = phi / np.where(th > 1e-12, th, 1.0)[:, None]
    kk = _skew(k)
    eye = np.broadcast_to(np.eye(3), kk.shape)
    return eye + np.sin(th)[:, None, None] * kk + (1 - np.cos(th))[:, None, None] * (kk @ kk)


def _unit(v: Arr) -> Arr:
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-12 else v


def _minjerk(tau: Arr) -> tuple[Arr, Arr]:
    """Minimum-jerk position (0..1) and its second derivative in tau (multiply by 1/T^2) - how hands move."""
    tau = np.clip(tau, 0.0, 1.0)
    return 10 * tau**3 - 15 * tau**4 + 6 * tau**5, 60 * tau - 180 * tau**2 + 120 * tau**3


def _band_noise(rng: np.random.Generator, n: int, f_lo: float, f_hi: float, rms: float, dims: int = 3) -> Arr:
    """Gaussian noise band-limited to [f_lo, f_hi] Hz at FS_INT, scaled to `rms` per column (via the FFT)."""
    nfft = 1 << max(n - 1, 1).bit_length()  # a power of two: a prime length would make the FFT slow
    spec = rng.normal(size=(nfft // 2 + 1, dims)) + 1j * rng.normal(size=(nfft // 2 + 1, dims))
    f = np.fft.rfftfreq(nfft, 1.0 / FS_INT)
    spec[(f < f_lo) | (f > f_hi)] = 0.0
    x = np.fft.irfft(spec, n=nfft, axis=0)[:n]
    sd = x.std(axis=0)
    return x * (rms / np.where(sd > 0, sd, 1.0))


def _edges(n: int, ramp: int) -> Arr:
    """A window that rises over `ramp` samples and falls over the last `ramp` (so segments join smoothly)."""
    w = np.ones(n)
    r = min(ramp, n // 2)
    if r > 0:
        up = 0.5 - 0.5 * np.cos(np.linspace(0, math.pi, r))
        w[:r] = up
        w[n - r:] = up[::-1]
    return w


def _pulse(n_d: int, p: float) -> Arr:
    """Contact force shape sin(pi t/D)^p over n_d samples: zero at first touch, peak at D/2 (the rise time)."""
    t = (np.arange(n_d) + 0.5) / n_d
    return np.sin(np.pi * t) ** p


def _axis_mount(rng: np.random.Generator, err_deg: float) -> Arr:
    """One of the 24 axis-aligned board orientations, times a small mounting error."""
    perm = rng.permutation(3)
    m = np.zeros((3, 3))
    m[np.arange(3), perm] = rng.choice([-1.0, 1.0], size=3)
    if np.linalg.det(m) < 0:
        m[:, 2] *= -1
    err = rotvec_to_matrix((rng.normal(size=3) * math.radians(err_deg))[None, :])[0]
    return err @ m


# ---------------------------------------------------------------------------------------------------------- builder


class _Motion:
    """Appends motion segments: world specific force (m/s^2, gravity reaction included) and orientation over time.

    Orientation R maps body to world.  Each segment gives world-frame rotation vectors phi(t) relative to the
    orientation where the previous segment ended, so orientation is continuous across segments.
    """

    def __init__(self, rng: np.random.Generator, r0: Arr, r_sensor: Arr) -> None:
        self.rng = rng
        self.R = r0
        self.r_sensor = r_sensor  # body frame, m, from the centre of rotation to the sensor
        self.sf: list[Arr] = []
        self.rot: list[Arr] = []
        self.n_total = 0
        self.v = np.zeros(3)  # world velocity of the centre of mass, for throws and contacts
        self.spin_axis = np.array([0.0, 1.0, 0.0])  # world axis of the current tumble
        self.spin = 0.0  # rad/s about spin_axis
        self.omega_w = np.zeros(3)  # world angular velocity where the last segment ended
        self.last_sf = G * Z  # world specific force where the last segment ended
        self.events: list[tuple[str, float, bool, dict[str, float]]] = []  # (kind, physical s, optional, info)
        self.settle: list[tuple[float, float]] = []

    @property
    def t(self) -> float:
        return self.n_total / FS_INT

    def n(self, dur: float) -> int:
        return max(1, int(round(dur * FS_INT)))

    def local(self, n: int) -> Arr:
        return (np.arange(n) + 1) / FS_INT

    def add(self, sf: Arr, phi: Arr | None = None) -> None:
        n = len(sf)
        rots = np.broadcast_to(self.R, (n, 3, 3)).copy() if phi is None else rotvec_to_matrix(phi) @ self.R
        self.sf.append(sf)
        self.rot.append(rots)
        if n >= 2:
            w = (rots[-1] - rots[-2]) @ rots[-1].T * FS_INT
            self.omega_w = 0.5 * np.array([w[2, 1] - w[1, 2], w[0, 2] - w[2, 0], w[1, 0] - w[0, 1]])
        self.last_sf = sf[-1].copy()
        self.R = rots[-1].copy()
        self.n_total += n

    def event(self, kind: str, optional: bool = False, at: float | None = None,
              info: dict[str, float] | None = None) -> None:
        self.events.append((kind, self.t if at is None else at, optional, info or {}))

    # --- still and handled -----------------------------------------------------------------------------------

    def rest(self, dur: float, knocks: int = 0) -> None:
        """Lying on the table; `knocks` are other players slapping the table: 60-200 Hz rings of 0.05-0.4 g."""
        n = self.n(dur)
        sf = np.tile(G * Z, (n, 1))
        t = self.local(n)
        for _ in range(knocks):
            t0 = self.rng.uniform(0.1, max(0.15, dur - 0.3))
            f = self.rng.uniform(60, 200)
            amp = G * self.rng.uniform(0.05, 0.4)
            tau = self.rng.uniform(0.01, 0.03)
            d = _unit(np.array([*self.rng.normal(scale=0.3, size=2), 1.0]))
            tt = np.clip(t - t0, 0, None)
            ring = np.where(t > t0, amp * np.exp(-tt / tau) * np.sin(2 * math.pi * f * tt), 0.0)
            sf += ring[:, None] * d
        self.add(sf)

    def _tremor(self, n: int, scale: float = 1.0) -> Arr:
        """Physiological hand tremor: 6-12 Hz, 1.5-35 mg peak, modal 10 mg (Marsden et al. 1982)."""
        peak_g = math.exp(self.rng.uniform(math.log(0.0015), math.log(0.035))) * scale
        lo = self.rng.uniform(6.0, 9.0)
        return _band_noise(self.rng, n, lo, lo + 3.0, G * peak_g / 2.5)

    def hold(self, dur: float, bring_in: bool = False) -> None:
        """Held in a hand: tremor, slow postural sway of the arm (0.2-2 Hz) and a few degrees of wobble.

        `bring_in`: straight after a catch the arm brings the burrito in (10-30 cm, 0.3-0.6 s) and the tremor is
        already there (the hand did not start trembling at the catch), so nothing fades in.
        """
        n = self.n(dur)
        w = _edges(n, int(0.15 * FS_INT))[:, None]
        sway = _band_noise(self.rng, n, 0.2, 2.0, G * self.rng.uniform(0.005, 0.04)) * w
        wobble = _band_noise(self.rng, n, 0.2, 1.5, math.radians(self.rng.uniform(1.0, 6.0))) * w
        wobble -= wobble[0]
        tremor = self._tremor(n)
        if bring_in:
            tb = self.rng.uniform(0.3, 0.6)
            nb = min(n, self.n(tb))
            _, acc = _minjerk(self.local(nb) / tb)
            d = _unit(self.rng.normal(size=3)) * self.rng.uniform(0.1, 0.3)
            sway[:nb] += acc[:, None] * d / tb**2
            tremor[-int(0.15 * FS_INT):] *= w[-int(0.15 * FS_INT):]
        else:
            tremor *= w
        self.add(G * Z + sway + tremor, wobble)

    def pickup(self) -> None:
        """A hand lifts it off the table (minimum-jerk, 0.4-0.9 s, 15-35 cm up) while turning it 15-80 degrees."""
        self.event("pickup", info={"pre_rest_s": self.t})
        dur = self.rng.uniform(0.4, 0.9)
        n = self.n(dur)
        tau = self.local(n) / dur
        d = np.array([*self.rng.normal(scale=0.08, size=2), self.rng.uniform(0.15, 0.35)])
        pos, acc = _minjerk(tau)
        ax = _unit(np.array([*self.rng.normal(size=2), 0.3 * self.rng.normal()]))
        ang = math.radians(self.rng.uniform(15, 80))
        sf = G * Z + acc[:, None] * d / dur**2 + self._tremor(n, 0.5)
        self.add(sf, pos[:, None] * ang * ax)

    def put_down(self) -> None:
        """Lowered onto the table and laid flat; the touch is soft (30-120 ms) and the hand lets go."""
        dur = self.rng.uniform(0.4, 0.8)
        n = self.n(dur)
        pos, acc = _minjerk(self.local(n) / dur)
        d = np.array([*self.rng.normal(scale=0.05, size=2), -self.rng.uniform(0.1, 0.3)])
        self.add(G * Z + acc[:, None] * d / dur**2, pos[:, None] * self._to_flat())
        self.event("impact", optional=True)
        t_touch = self.t
        dn = self.n(self.rng.uniform(0.03, 0.12) * 2)
        s = _pulse(dn, 1.5)
        dv = self.rng.uniform(0.05, 0.25)
        self.add(G * Z + (dv / (s.sum() / FS_INT)) * s[:, None] * Z)
        self.settle.append((t_touch, self.settle_rock(slide_v=0.0, rock_g=self.rng.uniform(0.01, 0.05))))

    def walk(self, dur: float) -> None:
        """Carried while walking: steps at 1.6-2.2 Hz, heel strikes, arm swing at half the step rate."""
        n = self.n(dur)
        t = self.local(n)
        fs = self.rng.uniform(1.6, 2.2)
        yaw = self.rng.uniform(0, 2 * math.pi)
        fwd = np.array([math.cos(yaw), math.sin(yaw), 0.0])
        av, af, asw = (G * self.rng.uniform(*r) for r in ((0.1, 0.3), (0.05, 0.2), (0.05, 0.3)))
        a = (av * np.sin(2 * math.pi * fs * t))[:, None] * Z
        a += (af * np.sin(2 * math.pi * fs * t + 1.0) + asw * np.sin(math.pi * fs * t))[:, None] * fwd
        hs = np.zeros(n)
        dn = self.n(self.rng.uniform(0.03, 0.06))
        for k in range(int(dur * fs)):
            i = int((k + self.rng.uniform(0.0, 0.1)) / fs * FS_INT)
            if i + dn < n:
                hs[i:i + dn] += G * self.rng.uniform(0.2, 0.6) * _pulse(dn, 1.5)
        a += hs[:, None] * Z
        w = _edges(n, int(0.3 * FS_INT))[:, None]
        side = _unit(np.cross(Z, fwd))
        swing = (math.radians(self.rng.uniform(3, 10)) * np.sin(math.pi * fs * t))[:, None] * side
        self.add(G * Z + a * w + self._tremor(n) * w, swing * w)

    def pump_fake(self, direction: Arr) -> None:
        """A fake throw: the arm sways 0.5-4 Hz along the throw line, up to +-1 g, and turns the burrito."""
        f = self.rng.uniform(0.5, 4.0)
        cycles = self.rng.choice([1.0, 1.5, 2.0])
        dur = cycles / f
        n = self.n(dur)
        t = self.local(n)
        env = np.sin(math.pi * t / dur) ** 2
        amax = G * self.rng.uniform(0.3, 1.0)
        normal = _unit(np.cross(direction, Z))
        lift = _unit(direction + Z * self.rng.uniform(-0.3, 0.5))
        a = (amax * np.sin(2 * math.pi * f * t) * env)[:, None] * lift
        ang = math.radians(self.rng.uniform(10, 35))
        phi = (ang * (1 - np.cos(2 * math.pi * f * t)) / 2 * env)[:, None] * normal
        self.add(G * Z + a + self._tremor(n), phi)

    # --- throwing, flying and landing --------------------------------------------------------------------------

    def throw(self, style: str, direction: Arr, v0: float, spin_rev_s: float) -> None:
        """Windup, then the hand on an arc of radius 0.55-0.75 m accelerates it to v0; release = launch.

        On the arc the reading is tangential acceleration plus v^2/R towards the shoulder plus the gravity reaction;
        at release all of it is gone at once, leaving drag and the tumble's w^2 r.
        """
        rng = self.rng
        e1, e2 = direction, Z
        normal = _unit(np.cross(e1, e2))
        # windup: back (and down for underarm, up for overarm), minimum-jerk
        wd = rng.uniform(0.3, 0.6)
        n = self.n(wd)
        pos, acc = _minjerk(self.local(n) / wd)
        back = -e1 * rng.uniform(0.15, 0.35) + Z * (rng.uniform(-0.25, -0.1) if style == "under" else
                                                     rng.uniform(0.1, 0.3))
        tilt = math.radians(rng.uniform(20, 60)) * (1 if style == "under" else -1)
        self.add(G * Z + acc[:, None] * back / wd**2 + self._tremor(n), -pos[:, None] * tilt * normal)
        self.hold(rng.uniform(0.05, 0.2))
        # arc
        radius = rng.uniform(0.55, 0.75)
        if style == "under":
            big_t, sign, psi_rel = rng.uniform(0.2, 0.35), 1.0, math.radians(rng.uniform(-75, -50))
        else:
            big_t, sign, psi_rel = rng.uniform(0.12, 0.22), -1.0, math.radians(rng.uniform(95, 115))
        n = self.n(big_t)
        tau = self.local(n) / big_t
        k = 0.8 * math.pi
        shape = (1 - np.cos(k * tau)) / (1 - math.cos(k))
        v = v0 * shape
        vdot = v0 * k * np.sin(k * tau) / (1 - math.cos(k)) / big_t
        swept = np.cumsum(v / radius) / FS_INT
        psi = psi_rel - sign * (swept[-1] - swept)
        r_hat = np.cos(psi)[:, None] * e1 + np.sin(psi)[:, None] * e2
        t_hat = sign * (-np.sin(psi)[:, None] * e1 + np.cos(psi)[:, None] * e2)
        a = vdot[:, None] * t_hat - (v**2 / radius)[:, None] * r_hat
        spin = 2 * math.pi * spin_rev_s
        theta = sign * np.cumsum(spin * v / v0) / FS_INT
        self.add(G * Z + a, theta[:, None] * normal)
        self.v = v0 * t_hat[-1]
        self.spin_axis, self.spin = normal, sign * spin
        axis_b = self.R.T @ normal
        r_perp = self.r_sensor - (self.r_sensor @ axis_b) * axis_b
        self.event("launch", info={"w2r_g": spin**2 * float(np.linalg.norm(r_perp)) / G,
                                   "v0": v0, "drag_g": 0.5 * RHO_AIR * 0.85 * A_SIDE * v0**2 / 0.2 / G})

    def flight(self, dur: float, mass: float, wobble_deg: float | None = None) -> None:
        """Free flight: the sensor reads drag (its area changes as it tumbles) and the tumble's w x (w x r)."""
        rng = self.rng
        n = self.n(dur)
        t = self.local(n)
        tau_s = rng.uniform(2.0, 5.0)  # aerodynamic spin damping
        # the tumble takes over from whatever the body was doing within ~30 ms (a hand letting go is not a step)
        blend = 1 - np.exp(-((t / 0.03) ** 2))
        omega = (1 - blend)[:, None] * self.omega_w + (blend * self.spin * np.exp(-t / tau_s))[:, None] * self.spin_axis
        theta_vec = np.cumsum(omega, axis=0) / FS_INT
        u = _unit(np.cross(self.spin_axis, _unit(rng.normal(size=3))))
        w_ax = np.cross(self.spin_axis, u)
        beta = math.radians(rng.uniform(1.0, 6.0) if wobble_deg is None else wobble_deg)
        om = abs(self.spin) * rng.uniform(0.3, 0.9)
        ramp = 1 - np.exp(-((t / 0.05) ** 2))
        phi = theta_vec + (beta * ramp)[:, None] * (
            np.cos(om * t)[:, None] * u + np.sin(om * t)[:, None] * w_ax)
        rots = rotvec_to_matrix(phi) @ self.R
        long_axis = rots[:, :, 0]
        cd = rng.uniform(0.7, 1.0)  # a short cylinder (L/D 2.5) at Re ~ 5e4: below the long cylinder's 1.2
        step = int(FS_INT / 1000)
        v = self.v.copy()
        drag = np.zeros((n, 3))
        for i0 in range(0, n, step):
            sp = float(np.linalg.norm(v))
            if sp > 1e-6:
                c = abs(float(long_axis[i0] @ v)) / sp
                area = A_END + (A_SIDE - A_END) * math.sqrt(max(0.0, 1 - c * c))
                ad = -0.5 * RHO_AIR * cd * area * sp * v / mass
            else:
                ad = np.zeros(3)
            drag[i0:i0 + step] = ad
            v = v + (ad - G * Z) * (min(step, n - i0) / FS_INT)
        self.add(drag, phi)
        self.v = v

    def contact(self, kind: str | None, rise: float, v_out: Arr, supported: bool, spin_out: float,
                optional: bool = False, p: float = 1.5) -> None:
        """A contact that changes the velocity to v_out with force shape sin^p over 2 x rise.

        `supported`: the hand or the table carries the weight afterwards (the 1 g reaction ramps in).  The spin goes
        from its value to spin_out as the impulse accumulates, which adds dw/dt x r.
        """
        if kind is not None:
            self.event(kind, optional, info={"rise_ms": rise * 1e3, "dv": float(np.linalg.norm(v_out - self.v))})
        n = self.n(2 * rise)
        s = _pulse(n, p)
        big_s = s.sum() / FS_INT
        h = _minjerk(self.local(n) / (n / FS_INT))[0] if supported else np.zeros(n)
        dur = n / FS_INT
        frac = np.cumsum(s) / s.sum()
        # whatever acted before (drag, a hand) fades as the contact takes over; the impulse balance includes it
        before = self.last_sf - (G * Z if supported and abs(self.last_sf[2] - G) < 0.5 * G else 0.0)
        fade = 1 - frac
        c = (v_out - self.v + G * Z * (dur - h.sum() / FS_INT) - before * fade.sum() / FS_INT) / big_s
        sf = s[:, None] * c + h[:, None] * G * Z + fade[:, None] * before
        omega = self.omega_w + (spin_out * self.spin_axis - self.omega_w) * frac[:, None]
        self.add(sf, np.cumsum(omega, axis=0) / FS_INT)
        self.v = v_out.copy()
        self.spin = spin_out

    def _to_flat(self) -> Arr:
        """Rotation vector that lays the long axis horizontal (a cylinder rests on its side)."""
        x = self.R[:, 0]
        h = np.array([x[0], x[1], 0.0])
        if np.linalg.norm(h) < 1e-3:
            h = _unit(np.array([*self.rng.normal(size=2), 0.0]))
        h = _unit(h)
        axis = np.cross(x, h)
        s = float(np.linalg.norm(axis))
        if s < 1e-9:
            return np.zeros(3)
        return axis / s * math.atan2(s, float(x @ h))

    def settle_rock(self, slide_v: float, rock_g: float | None = None) -> float:
        """Topple onto its side, slide to a stop (mu 0.3-0.7, with stick-slip buzz) and rock on the table.

        Toppling is a minimum-jerk turn over 0.15-0.35 s (a 30 cm body falling over takes that long).  Rocking about
        the long axis is damped at 5-15 Hz, reading `rock_g` at its peak (0.05-0.5 g after a landing), decaying as
        exp(-t/tau), tau 0.05-0.25 s.  Returns the rest instant: the last of the topple, the slide's stop and the
        rock's reading falling below 10 mg (a typical sensor's noise).  The topple also lowers the centre of mass
        from its tilted height to the radius; the rocking starts when the topple ends.
        """
        rng = self.rng
        rot_flat = self._to_flat()
        t_flop = rng.uniform(0.15, 0.35) if np.linalg.norm(rot_flat) > math.radians(3) else 1.0 / FS_INT
        mu = rng.uniform(0.3, 0.7)
        t_slide = slide_v / (mu * G)
        f = rng.uniform(5.0, 15.0)
        tau = rng.uniform(0.05, 0.25)
        a_pk = G * (rng.uniform(0.05, 0.5) if rock_g is None else rock_g)
        lever = BURRITO_DIAM / 2 + float(np.linalg.norm(self.r_sensor))
        amp = a_pk / ((2 * math.pi * f) ** 2 * lever)  # radians: alpha x lever reads a_pk
        t_rock = t_flop + tau * math.log(max(1.0, a_pk / (0.01 * G)))
        t_start = self.t
        dur = max(t_flop, t_slide, t_rock) + 0.05
        n = self.n(dur)
        t = self.local(n)
        pos, acc_flop = _minjerk(t / t_flop)
        tilt = float(np.linalg.norm(rot_flat))
        drop = (BURRITO_LEN / 2 * math.sin(tilt) + BURRITO_DIAM / 2 * math.cos(tilt)) - BURRITO_DIAM / 2
        x_axis = (rotvec_to_matrix(rot_flat[None, :])[0] @ self.R)[:, 0]
        tr = np.clip(t - t_flop, 0.0, None)
        rock = amp * np.exp(-tr / tau) * np.sin(2 * math.pi * f * tr) * (1 - np.exp(-((tr * 4 * f) ** 2)))
        phi = pos[:, None] * rot_flat + rock[:, None] * x_axis
        # the centre of mass rides on the rocking: a = alpha x rho with rho from contact line to centre (radius)
        alpha = np.gradient(np.gradient(rock, 1 / FS_INT), 1 / FS_INT)
        a_rock = alpha[:, None] * np.cross(x_axis, BURRITO_DIAM / 2 * Z)
        sf = np.tile(G * Z, (n, 1)) + a_rock - (drop * acc_flop / t_flop**2)[:, None] * Z
        if t_slide > 0:
            vh = np.array([self.v[0], self.v[1], 0.0])
            d = _unit(vh) if np.linalg.norm(vh) > 1e-6 else np.array([1.0, 0.0, 0.0])
            sliding = t < t_slide
            buzz = _band_noise(rng, n, 30.0, 120.0, G * rng.uniform(0.02, 0.1))
            sf[sliding] += -mu * G * d + buzz[sliding]
        self.add(sf, phi)
        self.v = np.zeros(3)
        self.spin = 0.0
        t_rest = t_start + max(t_flop, t_slide, t_rock)
        t_quiet = t_start + max(t_flop, t_slide, t_flop + tau * math.log(max(1.0, a_pk / (0.1 * G))))
        self.event("rest", at=t_rest, info={"quiet_s": t_rest - t_quiet})
        return t_rest

    def land_and_settle(self, rise: float, e_rest: float, first_kind: str | None, optional: bool = False,
                        mass: float = 0.2) -> None:
        """Hit the table (floor): rebound with restitution, hop, hit again, then slide, flop and rock to rest."""
        t_first = self.t
        kind = first_kind
        vt_keep = self.rng.uniform(0.1, 0.4)  # foam grips: most of the sliding speed goes in the first contact
        for _ in range(3):
            vn = max(0.0, -float(self.v[2]))
            vh = np.array([self.v[0], self.v[1], 0.0]) * vt_keep
            up = e_rest * vn
            hop = 2 * up / G
            out = vh + up * Z
            self.contact(kind, rise, out, supported=hop < 0.04,
                         spin_out=self.rng.normal(scale=4.0) if hop >= 0.04 else 0.0,
                         optional=optional, p=1.0)
            kind = None
            if hop < 0.04:
                break
            self.flight(hop, mass, wobble_deg=1.0)
            rise = min(rise * 1.5, 0.02)
        self.v[2] = 0.0
        t_rest = self.settle_rock(slide_v=float(np.linalg.norm(self.v[:2])))
        self.settle.append((t_first, t_rest))

    def finish(self) -> tuple[Arr, Arr]:
        return np.concatenate(self.sf), np.concatenate(self.rot)


# ------------------------------------------------------------------------------------------------- sensor model


def body_reading(sf_world: Arr, rots: Arr, r_sensor: Arr) -> Arr:
    """Specific force at a sensor r_sensor off the centre, in body axes, in g.

    f_b = R^T (a - g) + w x (w x r) + dw/dt x r, with w the body-frame angular velocity taken from the orientation
    sequence itself (R^T dR/dt is the skew matrix of w), so any motion stays self-consistent.
    """
    f = np.einsum("nji,nj->ni", rots, sf_world)
    if np.linalg.norm(r_sensor) > 0:
        rdot = np.gradient(rots, 1 / FS_INT, axis=0)
        m = np.einsum("nji,njk->nik", rots, rdot)
        w = 0.5 * np.stack([m[:, 2, 1] - m[:, 1, 2], m[:, 0, 2] - m[:, 2, 0], m[:, 1, 0] - m[:, 0, 1]], 1)
        alpha = np.gradient(w, 1 / FS_INT, axis=0)
        r = np.broadcast_to(r_sensor, w.shape)
        f = f + np.cross(w, np.cross(w, r)) + np.cross(alpha, r)
    return f / G


@dataclass
class SensorSetup:
    """The drawn sensor of one trace."""

    model: SensorModel
    rate: float  # nominal ODR of the part
    noise_mg: float  # total white noise per axis (rms)
    mount: Arr  # sensor axes -> body axes
    gain: Arr  # misalignment, cross-axis and sensitivity, applied in sensor axes
    bias_g: Arr
    clock: float  # actual / nominal output rate (the part's own oscillator)
    t0_us: int
    mis: Arr = field(default_factory=lambda: np.eye(3))  # the misalignment and cross-axis part of gain (unit diagonal)


def draw_sensor(rng: np.random.Generator, rate_nominal: float, noise: str) -> SensorSetup:
    """Pick a part that has an ODR within 20 % of the cell's rate, and draw its errors."""
    cands = [(m, r) for m in SENSORS for r in m.rates if abs(r - rate_nominal) <= 0.2 * rate_nominal]
    model, rate = cands[int(rng.integers(len(cands)))]
    lo, hi = NOISE_LEVELS[noise]
    intrinsic = max(model.density_ug) * 1e-3 * math.sqrt(rate / 2)
    noise_mg = max(intrinsic, float(rng.uniform(lo, hi)))
    mis = np.eye(3) + rng.normal(scale=model.cross_axis, size=(3, 3)) * (1 - np.eye(3))
    gain = np.diag(1 + rng.normal(scale=model.sens_tol, size=3)) @ mis
    bias = rng.normal(size=3) * np.array([model.offset_mg[0], model.offset_mg[0], model.offset_mg[1]]) * 1e-3
    return SensorSetup(model, rate, noise_mg, _axis_mount(rng, 2.0), gain, bias,
                       clock=1 + rng.normal(scale=0.01), t0_us=int(rng.integers(0, 60_000_000)), mis=mis)


def _output_windows(n: int, t_k: Arr, rate: float) -> tuple[NDArray[np.int_], NDArray[np.int_]]:
    """Each output sample's averaging window over the 8 kHz steps: steps lo..hi-1, the last at or before t_k."""
    hi = np.minimum((t_k * FS_INT).astype(int), n)
    lo = np.maximum(hi - max(1, int(round(FS_INT / rate))), 0)
    return lo, hi


def _output_average(x: Arr, t_k: Arr, rate: float) -> Arr:
    """Boxcar average of the 8 kHz rows of x over each output period ending at t_k (the decimation filter)."""
    lo, hi = _output_windows(len(x), t_k, rate)
    csum = np.concatenate([np.zeros((1, x.shape[1])), np.cumsum(x, axis=0)])
    return (csum[hi] - csum[lo]) / np.maximum(hi - lo, 1)[:, None]


def sample(rng: np.random.Generator, f_body: Arr, s: SensorSetup) -> tuple[NDArray[np.int64], Arr, Arr]:
    """Average the 8 kHz reading over each output period (the part's decimation filter), add the part's errors.

    Returns integer microsecond stamps, readings in g and each sample's instant in physics seconds.
    """
    f_sensor = f_body @ s.mount  # body -> sensor axes (mount maps sensor to body)
    f_sensor = f_sensor @ s.gain.T
    rate = s.rate * s.clock
    dur = len(f_sensor) / FS_INT
    t_k = np.arange(1, int(dur * rate)) / rate
    avg = _output_average(f_sensor, t_k, rate)
    out = avg + s.bias_g + rng.normal(scale=s.noise_mg * 1e-3, size=avg.shape)
    lsb = s.model.lsb_mg * 1e-3
    out = np.clip(np.round(out / lsb) * lsb, -CLIP_G, CLIP_G - lsb)
    # the MCU stamps each sample with its own clock (15 us jitter); stamps must strictly increase
    stamps = s.t0_us + np.round(t_k * 1e6 + rng.normal(scale=15.0, size=len(t_k))).astype(np.int64)
    k = np.arange(len(stamps), dtype=np.int64)
    stamps = np.maximum.accumulate(stamps - k) + k
    return stamps, out, t_k


def body_rate(rots: Arr) -> Arr:
    """True body-frame angular rate (rad/s) of an 8 kHz orientation sequence (R maps body to world).

    Row i is the constant rate that turns R[i-1] into R[i] over one step: R[i-1]^T R[i] = exp([w dt]x), w taken by
    the rotation's logarithm (angle from atan2, so a tiny step keeps its precision).  Row 0 is zero.  Chaining
    exp([w_i dt]x) over the rows gives back the orientation sequence exactly (to rounding).
    """
    rel = rots[:-1].transpose(0, 2, 1) @ rots[1:]
    v = 0.5 * np.stack([rel[:, 2, 1] - rel[:, 1, 2], rel[:, 0, 2] - rel[:, 2, 0], rel[:, 1, 0] - rel[:, 0, 1]], 1)
    s = np.linalg.norm(v, axis=1)
    c = 0.5 * (np.trace(rel, axis1=1, axis2=2) - 1.0)
    theta = np.arctan2(s, c)
    scale = np.where(s > 0, theta / np.where(s > 0, s, 1.0), 1.0)  # theta / sin(theta), 1 at zero
    return np.concatenate([np.zeros((1, 3)), v * scale[:, None] * FS_INT])


@dataclass
class GyroSetup:
    """The drawn gyroscope of one trace: on the accelerometer's die, so on its axes, mounting and misalignment."""

    model: GyroModel
    gain: Arr  # sensitivity error times the accelerometer's misalignment, in sensor axes
    bias_dps: Arr  # zero-rate offset per axis
    noise_dps: float  # white rate noise per output sample (rms)


def draw_gyro(rng: np.random.Generator, s: SensorSetup, model: GyroModel = GYRO) -> GyroSetup:
    """Draw the gyro's own errors; axes, mounting and misalignment are the accelerometer's (the same die)."""
    gain = np.diag(1 + rng.normal(scale=model.sens_tol, size=3)) @ s.mis
    bias = rng.normal(scale=model.offset_dps, size=3)
    noise = model.density_mdps * 1e-3 * math.sqrt(s.rate / 2)  # noise bandwidth ODR/2, as for the accelerometer
    return GyroSetup(model, gain, bias, noise)


def sample_gyro(rng: np.random.Generator, w_body: Arr, s: SensorSetup, g: GyroSetup, t_k: Arr) -> Arr:
    """The gyro's output in rad/s at the accelerometer's sample instants t_k, averaged over the same windows.

    Body rate -> sensor axes (mount) -> gain -> + offset + white noise -> 70 mdps quantisation -> +-2000 dps clip.
    """
    # einsum: numpy's matmul of an (n, 3) by a 3 x 3 takes ten times as long
    w_sensor = np.einsum("ni,ij,kj->nk", np.degrees(w_body), s.mount, g.gain, optimize=True)
    avg = _output_average(w_sensor, t_k, s.rate * s.clock)
    out = avg + g.bias_dps + rng.normal(scale=g.noise_dps, size=avg.shape)
    lsb = g.model.lsb_mdps * 1e-3
    top = math.floor(g.model.full_scale_dps / lsb)
    out = np.clip(np.round(out / lsb), -top, top) * lsb
    return np.radians(out)


def sample_orientation(rots: Arr, s: SensorSetup, t_k: Arr) -> Arr:
    """True sensor-to-world rotation at each output sample: the orientation after the last step of its window."""
    _, hi = _output_windows(len(rots), t_k, s.rate * s.clock)
    return rots[np.maximum(hi - 1, 0)] @ s.mount


# ------------------------------------------------------------------------------------------------------ scenarios

BURRITO_SCENARIOS = ("rest_knocks", "pickup_hold", "walk_carry", "pump_fake_throw", "throw_catch_under",
                     "throw_catch_over", "throw_hit_body", "throw_hit_hard", "drop_table")
BADGE_SCENARIOS = ("badge_idle", "badge_walk", "badge_hit", "badge_hit_firm")
SCENARIOS = BURRITO_SCENARIOS + BADGE_SCENARIOS


def _burrito_start(rng: np.random.Generator) -> _Motion:
    yaw, roll = rng.uniform(0, 2 * math.pi, size=2)
    r0 = rotvec_to_matrix(np.array([[0.0, 0.0, yaw]]))[0] @ rotvec_to_matrix(np.array([[roll, 0.0, 0.0]]))[0]
    r_sensor = _unit(rng.normal(size=3)) * rng.uniform(0.005, 0.04)
    return _Motion(rng, r0, r_sensor)


def _throw_and_fly(m: _Motion, style: str, mass: float, flight: tuple[float, float] = (0.3, 1.2)) -> None:
    rng = m.rng
    yaw = rng.uniform(0, 2 * math.pi)
    d = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    v0 = rng.uniform(3.0, 7.0) if style == "under" else rng.uniform(6.0, 12.0)
    m.throw(style, d, v0, rng.uniform(1.0, 6.0))
    m.flight(rng.uniform(*flight), mass)


def _catch(m: _Motion, mass: float) -> None:
    """A catch: soft hand contact (rise 30-150 ms), the spin stops, then the hand holds it with tremor."""
    rng = m.rng
    m.contact("catch", rng.uniform(0.03, 0.15), np.zeros(3), supported=True, spin_out=0.0, p=rng.uniform(1.0, 2.0))
    m.hold(rng.uniform(1.5, 3.0), bring_in=True)


def _build_burrito(rng: np.random.Generator, scenario: str) -> _Motion:
    m = _burrito_start(rng)
    mass = rng.uniform(0.15, 0.25)
    m.event("rest", optional=True)  # lying still from the start: a rest report there is neither right nor wrong
    # 1-4 s still first: a live device has rested for long, but a recording's ring starts 1 s before its event
    m.rest(rng.uniform(1.0, 4.0), knocks=int(rng.random() < 0.3))
    if scenario == "rest_knocks":
        m.rest(rng.uniform(3.0, 6.0), knocks=int(rng.integers(1, 5)))
        return m
    m.pickup()
    m.hold(rng.uniform(0.5, 1.5))
    if scenario == "pickup_hold":
        m.hold(rng.uniform(1.0, 3.0))
        m.put_down()
        m.rest(rng.uniform(1.5, 2.5))
        return m
    if scenario == "walk_carry":
        m.walk(rng.uniform(3.0, 6.0))
        m.hold(rng.uniform(0.3, 1.0))
        m.put_down()
        m.rest(rng.uniform(1.5, 2.5))
        return m
    if scenario == "drop_table":
        m.event("launch", optional=True)
        h = rng.uniform(0.1, 0.4)
        m.spin_axis = _unit(np.array([*rng.normal(size=2), 0.0]))
        m.spin = rng.normal(scale=2.0)
        m.v = np.zeros(3)
        m.flight(math.sqrt(2 * h / G), mass)
        m.land_and_settle(rng.uniform(0.002, 0.01), rng.uniform(0.1, 0.3), "impact", optional=True, mass=mass)
        m.rest(rng.uniform(1.5, 2.5))
        return m
    if scenario == "pump_fake_throw":
        yaw = rng.uniform(0, 2 * math.pi)
        d = np.array([math.cos(yaw), math.sin(yaw), 0.0])
        for _ in range(int(rng.integers(1, 4))):
            m.pump_fake(d)
            m.hold(rng.uniform(0.2, 0.8))
        _throw_and_fly(m, str(rng.choice(["under", "over"])), mass)
        _catch(m, mass)
        return m
    if scenario in ("throw_catch_under", "throw_catch_over"):
        _throw_and_fly(m, scenario.rsplit("_", 1)[1], mass)
        _catch(m, mass)
        return m
    if scenario == "throw_hit_body":
        _throw_and_fly(m, str(rng.choice(["under", "over"])), mass)
        # soft body contact: the burrito stops against a player and drops off, tumbling slowly
        back = -_unit(np.array([m.v[0], m.v[1], 0.0])) * rng.uniform(0.0, 1.0) + Z * rng.uniform(-0.5, 0.5)
        m.contact("impact", rng.uniform(0.03, 0.15), back, supported=False, spin_out=rng.normal(scale=6.0),
                  p=rng.uniform(1.0, 2.0))
        h = rng.uniform(0.9, 1.4)
        vz = float(m.v[2])
        m.flight((vz + math.sqrt(vz * vz + 2 * G * h)) / G, mass, wobble_deg=3.0)
        m.land_and_settle(rng.uniform(0.003, 0.015), rng.uniform(0.1, 0.3), None, mass=mass)
        m.rest(rng.uniform(1.5, 2.5))
        return m
    if scenario == "throw_hit_hard":
        _throw_and_fly(m, str(rng.choice(["under", "over"])), mass, flight=(0.3, 0.8))
        if m.v[2] > -0.5:  # make it come down onto the table
            m.v[2] = -rng.uniform(1.0, 3.0)
        m.land_and_settle(rng.uniform(0.002, 0.01), rng.uniform(0.15, 0.35), "impact", mass=mass)
        m.rest(rng.uniform(1.5, 2.5))
        return m
    raise ValueError(f"unknown burrito scenario {scenario!r}")


def _build_badge(rng: np.random.Generator, scenario: str) -> _Motion:
    """A badge on the chest: the 'centre' is the hip, 0.4-0.5 m below, so leaning swings the badge on that radius."""
    yaw = rng.uniform(0, 2 * math.pi)
    lean = math.radians(rng.uniform(0, 20))
    r0 = rotvec_to_matrix(np.array([[0.0, 0.0, yaw]]))[0] @ rotvec_to_matrix(np.array([[0.0, lean, 0.0]]))[0]
    m = _Motion(rng, r0, np.array([0.08, 0.0, rng.uniform(0.4, 0.5)]))
    total = rng.uniform(6.0, 10.0)
    hit = scenario.startswith("badge_hit")
    walking = scenario == "badge_walk" or (hit and rng.random() < 0.3)
    n = m.n(total)
    t = m.local(n)
    fwd = r0[:, 0]
    side = r0[:, 1]
    # breathing: chest wall tilts 0.3-1.5 degrees at 0.2-0.35 Hz
    fb = rng.uniform(0.2, 0.35)
    phi = (math.radians(rng.uniform(0.3, 1.5)) * np.sin(2 * math.pi * fb * t))[:, None] * side
    sf = np.tile(G * Z, (n, 1))
    # seated moves: lean and twist episodes (minimum-jerk, 0.6-1.5 s, 5-25 degrees), reaching for cards
    ang = np.zeros((n, 2))  # lean (about the side axis), twist (about vertical), radians
    t_next = rng.uniform(0.5, 2.0)
    state = np.zeros(2)
    while t_next < total - 1.6:
        dur = rng.uniform(0.6, 1.5)
        target = np.array([math.radians(rng.uniform(-15, 15)), math.radians(rng.uniform(-30, 30))])
        i0, i1 = int(t_next * FS_INT), int((t_next + dur) * FS_INT)
        pos, _ = _minjerk((t[i0:i1] - t_next) / dur)
        ang[i0:i1] = state + pos[:, None] * (target - state)
        ang[i1:] = target
        state = target
        t_next += dur + rng.uniform(0.5, 3.0)
    phi += ang[:, 0:1] * side + ang[:, 1:2] * Z
    if rng.random() < 0.4:  # a laugh: 4-6 Hz torso shaking for 1-2 s
        t_l = rng.uniform(0.5, total - 2.5)
        i0, i1 = int(t_l * FS_INT), int((t_l + rng.uniform(1.0, 2.0)) * FS_INT)
        sf[i0:i1] += _band_noise(rng, i1 - i0, 4.0, 6.0, G * rng.uniform(0.02, 0.08)) * _edges(i1 - i0, 800)[:, None]
    if walking:
        fs = rng.uniform(1.6, 2.2)
        w = _edges(n, int(0.5 * FS_INT))
        sf += ((G * rng.uniform(0.15, 0.35) * np.sin(2 * math.pi * fs * t)) * w)[:, None] * Z
        sf += ((G * rng.uniform(0.1, 0.2) * np.sin(2 * math.pi * fs * t + 1.2)) * w)[:, None] * fwd
        sf += ((G * rng.uniform(0.05, 0.1) * np.sin(math.pi * fs * t)) * w)[:, None] * side
        dn = m.n(rng.uniform(0.04, 0.08))
        for k in range(1, int(total * fs) - 1):
            i = int((k / fs + rng.uniform(0, 0.03)) * FS_INT)
            if i + dn < n:  # heel strike reaching the chest: 0.3-1.0 g, rise 20-40 ms
                sf[i:i + dn] += (G * rng.uniform(0.3, 1.0) * _pulse(dn, 1.5) * w[i:i + dn])[:, None] * Z
    hits: list[tuple[float, dict[str, float]]] = []
    if hit:
        t_h = rng.uniform(1.5, 2.5)
        while t_h < total - 1.5 and len(hits) < 3:
            hits.append((t_h, {}))
            # soft: the foam on a shirt, rise 30-150 ms; firm: the burrito's end strikes the badge's case, 5-20 ms
            rise = rng.uniform(0.03, 0.15) if scenario == "badge_hit" else rng.uniform(0.005, 0.02)
            dn = m.n(2 * rise)
            i0 = int(t_h * FS_INT)
            into = -_unit(fwd + Z * rng.uniform(-0.3, 0.3) + side * rng.uniform(-0.3, 0.3))
            # impulse of a 0.15-0.25 kg burrito arriving at 4-9 m/s and rebounding with e 0.1-0.5
            j = rng.uniform(0.15, 0.25) * rng.uniform(4, 9) * (1 + rng.uniform(0.1, 0.5))
            s = _pulse(dn, rng.uniform(1.0, 2.0))
            force = j / (s.sum() / FS_INT) * s
            # the whole torso (10-20 kg) takes the impulse; the chest wall under the badge (1-3 kg of local
            # effective mass) is pushed in by the force and springs back over one to two contact times
            dv = j / rng.uniform(10, 20)
            m_wall = rng.uniform(1.0, 3.0)
            ret = _pulse(dn * 2, 2.0)
            local = np.concatenate([force, np.zeros(dn)]) / m_wall
            local -= ret * (force.sum() / m_wall) / ret.sum()
            pulse = np.concatenate([dv / (s.sum() / FS_INT) * s, np.zeros(dn)]) + local
            end = min(n, i0 + 2 * dn)
            sf[i0:end] += (pulse[: end - i0])[:, None] * into
            # balance recovery pushes the torso back over 0.3-0.6 s
            rd = m.n(rng.uniform(0.3, 0.6))
            rs = _pulse(rd, 2.0)
            e2 = min(n, end + rd)
            sf[end:e2] += (-dv / (rs.sum() / FS_INT) * rs[: e2 - end])[:, None] * into
            hits[-1][1]["rise_ms"] = rise * 1e3
            t_h += rng.uniform(1.5, 3.0)
    m.add(sf, phi)
    for th, info in hits:
        m.event("impact", at=th, info=info)
    return m


def simulate(scenario: str, rate_nominal: float, noise: str, seed: int, gyro: bool = True) -> Trace:
    """One labelled trace of `scenario` at about `rate_nominal` Hz with `noise` ('low' 2-5 mg, 'high' 8-15 mg rms).

    `gyro`: also simulate the gyroscope (Trace.gyro, .orient, .gyro_setup); its random draws come from streams of
    their own, so the accelerometer samples and labels are the same either way.
    """
    rng = np.random.default_rng(seed)
    device = "badge" if scenario.startswith("badge") else "burrito"
    m = _build_badge(rng, scenario) if device == "badge" else _build_burrito(rng, scenario)
    sf, rots = m.finish()
    f_body = body_reading(sf, rots, m.r_sensor)
    s = draw_sensor(rng, rate_nominal, noise)
    stamps, acc, t_k = sample(rng, f_body, s)

    def at_sample(t_phys: float) -> float:
        i = min(int(np.searchsorted(t_k, t_phys - 1e-9)), len(t_k) - 1)
        return float(stamps[i]) / 1e6

    labels = sorted((Label(k, at_sample(tp), opt, info=info,
                           early=info.get("quiet_s") if k == "rest" else None)
                     for k, tp, opt, info in m.events), key=lambda lb: lb.t)
    settle = [(at_sample(a), at_sample(b)) for a, b in m.settle]
    meta = {"sensor": s.model.name, "odr": s.rate, "noise_mg": round(s.noise_mg, 2),
            "r_sensor_cm": round(float(np.linalg.norm(m.r_sensor)) * 100, 2), "seed": seed}
    tr = Trace(scenario, device, s.rate * s.clock, stamps, acc, labels, settle, meta)
    if gyro:
        rng_setup, rng_noise = (np.random.default_rng(ss) for ss in
                                np.random.SeedSequence(seed, spawn_key=(GYRO_STREAM,)).spawn(2))
        tr.gyro_setup = draw_gyro(rng_setup, s)
        tr.gyro = sample_gyro(rng_noise, body_rate(rots), s, tr.gyro_setup, t_k)
        tr.orient = sample_orientation(rots, s, t_k)
        meta["gyro"] = tr.gyro_setup.model.name
    return tr

