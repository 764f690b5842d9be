# Motion detector for burrito and badge nodes.
#
# Pure MicroPython/CPython code: no `machine`, no f-strings, no dataclasses,
# no typing at runtime.  Type hints live in comments so mpy-cross accepts it.
#
# Interface (the wire protocol codes against it; keep it exactly):
#   det = Detector("burrito" | "badge")
#   events = det.feed(t_us, ax, ay, az)   # -> list of (t_us, kind, peak_g)
# kind is one of "pickup", "launch", "impact", "catch", "rest", "bounce".
# Events may be emitted late but are stamped at the sample that caused them
# (impact/catch: the FIRST sample of the contact).  Works at any rate from
# 400 Hz: every constant is a time in microseconds, never a sample count.
#
# Algorithm (burrito), in one paragraph per state:
#  REST     still: vector std < 20 mg and |a| within 0.12 g of 1 g for 250 ms.
#  MOVING   left rest.  A hand shows itself by 8-12 Hz tremor energy while
#           the body is supported (|a| ~ 1 g); that confirms "pickup",
#           stamped at the first sample that left the rest vector.  A windup
#           also confirms it.  Motion without tremor (knocked off a table)
#           is not a pickup; its floor contacts are "bounce".
#  HELD     in a hand.  "launch" = a windup (smoothed |a| >= 2 g, the arm's
#           centripetal push) followed by an abrupt drop and >= 110 ms of a
#           smooth signal with no contact.  The flight level is NOT assumed
#           to be 0 g: a spinning burrito reads w^2 r (+ drag) which can be
#           ~1 g.  Flight is recognised as "smooth and contact-free", and
#           the release is stamped where |a| fell to within 15 % of the
#           measured flight level.  A plain drop (|a| < 0.35 g for 130 ms,
#           longer than a running stride's airborne dip) is also a launch.
#  FLIGHT   contact = the residual of a linear extrapolation from the
#           samples 20 ms and 10 ms ago exceeds 0.3 g (spin and drag are
#           smooth, contacts are jerks).  The contact's first sample is the
#           start of the run of samples whose residual exceeds 0.08 g.
#  RESOLVE  after the first contact we wait to see how the flight ends:
#           a hard pulse (>= 4.5 g, or >= 2.5 g and narrower than 8 ms) or
#           lying still means "impact"; being held (tremor while supported
#           for 200 ms) with only soft pulses means "catch" (a juggle counts).
#           Both are stamped at the first contact.  Contacts after an impact
#           are "bounce", never a new launch or impact.
#  POST     after an impact: bounces, then "rest", or "pickup" if a hand
#           takes it before it lies still.
# Badge: only "impact" on the wearer -- a pulse >= 1 g whose full width at
# half maximum is <= 14 ms (body motion, steps and jump landings are wider).

import math

BURRITO = "burrito"
BADGE = "badge"

ST_REST = 0
ST_MOVING = 1
ST_HELD = 2
ST_FLIGHT = 3
ST_RESOLVE = 4
ST_POST = 5

# All times in microseconds, accelerations in g.
STILL_STD = 0.02
STILL_DEV = 0.12
STILL_T = 250000
STAT_TAU = 60000
MEAN_CLAMP = 0.5
VAR_CLAMP = 0.0225
REST_BACK_DEV = 0.05
LEAVE_DEV = 0.06
LEAVE_ONSET_DEV = 0.03
MLP_TAU = 15000
TREM_TAU = 50000
TREM_F0 = 10.0
TREM_Q = 2.0
TREM_MIN = 0.004
TREM_HOLD_T = 200000
TREM_PICKUP_T = 400000
TREM_BLOCK_T = 250000
SUPPORT_LO = 0.6
SUPPORT_HI = 1.6
WINDUP_G = 2.0
WINDUP_DROP = 1.0
WINDUP_FLIGHT_MAX = 1.5
WINDUP_TIMEOUT = 400000
CONFIRM_T = 150000
CONFIRM_RANGE = 0.6
CONFIRM_RES = 0.2
CONFIRM_SKIP = 25000
RELEASE_FRAC = 0.15
DROP_G = 0.35
DROP_ONSET_G = 0.5
DROP_T = 150000
LAG1 = 10000
LAG2 = 20000
CONTACT_RES = 0.3
ONSET_RES = 0.08
PULSE_WIN = 60000
PULSE_GAP = 30000
PULSE_MIN = 12000
AIR_G = 0.6
AIR_T = 20000
AIR_T_FALL = 150000
HARD_G = 4.5
SHARP_G = 2.5
SHARP_FWHM = 8000
RESOLVE_MAX = 3000000
FLIGHT_MAX = 4000000
POST_HOLD_T = 300000
BADGE_RES = 0.8
BADGE_MIN_G = 1.0
BADGE_FWHM = 14000
BADGE_WIN = 30000
BADGE_REFRACT = 150000
RING = 2048  # samples kept: >= 0.6 s at 3.3 kHz

# Tunable parameters, name -> default: the constants above, by their lower-case names (a parameter file sets any of
# them; PROTOCOL.md CONFIG pushes them). Detector(kind, params) and configure(params) override them per instance.
DEFAULTS = {}
for _name in ("STILL_STD", "STILL_DEV", "STILL_T", "LEAVE_DEV", "TREM_MIN", "TREM_HOLD_T", "TREM_PICKUP_T",
              "WINDUP_G", "WINDUP_DROP", "CONFIRM_T", "RELEASE_FRAC", "DROP_G", "DROP_T", "CONTACT_RES",
              "ONSET_RES", "HARD_G", "SHARP_G", "SHARP_FWHM", "BADGE_RES", "BADGE_MIN_G", "BADGE_FWHM"):
    DEFAULTS[_name.lower()] = globals()[_name]


class Detector:
    """Streaming event detector; see the module comment for the algorithm."""

    def __init__(self, kind="burrito", params=None):
        # type: (str, dict | None) -> None
        if kind != BURRITO and kind != BADGE:
            raise ValueError("unknown device kind: " + repr(kind))
        self.kind = kind
        for name in DEFAULTS:
            setattr(self, name, DEFAULTS[name])
        if params:
            self.configure(params)
        self._n = 0
        self._rt = [0] * RING
        self._rx = [0.0] * RING
        self._ry = [0.0] * RING
        self._rz = [0.0] * RING
        self._rm = [0.0] * RING
        self._head = -1
        self._i1 = 0  # ring position of the sample ~LAG1 ago
        self._i2 = 0  # ... ~LAG2 ago
        self._last_t = None
        self._dt = 0
        self._mlp = 1.0
        # stillness statistics
        self._mx = 0.0
        self._my = 0.0
        self._mz = 1.0
        self._var = 1.0
        self._still_since = None
        # tremor band-pass (RBJ biquad per axis), coefficients per dt
        self._bq_dt = 0
        self._b0 = self._b2 = self._a1 = self._a2 = 0.0
        self._bx = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        self._by = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        self._bz = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        self._trem = 0.0
        self._trem_block = 0
        self._held_since = None
        # pulse analysis
        self._pulse = None  # [t0, peak_res, peak_m, fwhm_t, base..., t_trig, end]
        self._pulse_quiet = 0
        self._air_since = None
        self._air_ok = False
        self._last_res = 0.0
        self._state = ST_REST
        self._moved = False  # something was reported since the last rest
        self._rest_vec = (0.0, 0.0, 1.0)
        self._onset = 0
        self._wind_peak = 0.0
        self._wind_t = 0
        self._cand = None  # [t_cand, sum_m, n_m, t_arm_peak]
        self._low_since = None
        self._state_t = 0
        self._contact_t0 = 0
        self._contact_peak = 0.0
        self._hard = False
        self._pending = []
        self._badge_until = 0
        self._started = False

    # ------------------------------------------------------------------ io
    def feed(self, t_us, ax, ay, az):
        # type: (int, float, float, float) -> list
        """Take one sample; return the (usually empty) list of new events."""
        if self._last_t is not None:
            dt = t_us - self._last_t
            if dt <= 0:
                raise ValueError("time does not increase")
            if self._dt == 0:
                self._dt = dt
            else:
                self._dt += (dt - self._dt) // 8
        self._last_t = t_us
        m = math.sqrt(ax * ax + ay * ay + az * az)
        h = (self._head + 1) % RING
        self._head = h
        self._rt[h] = t_us
        self._rx[h] = ax
        self._ry[h] = ay
        self._rz[h] = az
        self._rm[h] = m
        self._n += 1
        self._advance_lags(t_us)
        out = []
        if self.kind == BADGE:
            self._badge(t_us, ax, ay, az, m, out)
        else:
            self._burrito(t_us, ax, ay, az, m, out)
        return out

    def configure(self, params):
        # type: (dict) -> None
        """Set the parameters named in DEFAULTS (an unknown name or a non-number raises ValueError, nothing set)."""
        for name in params:
            v = params[name]
            if name not in DEFAULTS:
                raise ValueError("unknown detector parameter: " + repr(name))
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise ValueError("detector parameter " + name + " must be a number")
        for name in params:
            v = params[name]
            if isinstance(DEFAULTS[name], int):
                v = int(v + 0.5) if v >= 0 else int(v - 0.5)
            setattr(self, name, v)

    def params(self):
        # type: () -> dict
        """The parameters in force, name -> number."""
        out = {}
        for name in DEFAULTS:
            out[name] = getattr(self, name)
        return out

    def flush(self):
        # type: () -> list
        """End of trace: settle a pending contact decision, return events."""
        out = []
        if self._state == ST_RESOLVE:
            if self._pulse is not None:
                self._end_pulse()
            self._decide(self._supported() and not self._hard, out)
        return out

    # ------------------------------------------------------------- helpers
    def _alpha(self, tau):
        # type: (int) -> float
        dt = self._dt if self._dt > 0 else 1000
        return dt / (tau + dt)

    def _advance_lags(self, t):
        # type: (int) -> None
        n = self._n if self._n < RING else RING
        oldest = (self._head - n + 1) % RING
        if (self._i1 - oldest) % RING >= n:
            self._i1 = oldest
        if (self._i2 - oldest) % RING >= n:
            self._i2 = oldest
        rt = self._rt
        while self._i1 != self._head and rt[(self._i1 + 1) % RING] <= t - LAG1:
            self._i1 = (self._i1 + 1) % RING
        while self._i2 != self._head and rt[(self._i2 + 1) % RING] <= t - LAG2:
            self._i2 = (self._i2 + 1) % RING

    def _have_lags(self, t):
        # type: (int) -> bool
        return self._n > 3 and t - self._rt[self._i2] >= LAG2 and self._i1 != self._i2

    def _residual(self, t, ax, ay, az):
        # type: (int, float, float, float) -> float
        """|a - linear extrapolation from the samples ~20 ms and ~10 ms ago|."""
        i1 = self._i1
        i2 = self._i2
        t1 = self._rt[i1]
        t2 = self._rt[i2]
        k = (t - t1) / (t1 - t2)
        x1 = self._rx[i1]
        y1 = self._ry[i1]
        z1 = self._rz[i1]
        dx = ax - (x1 + (x1 - self._rx[i2]) * k)
        dy = ay - (y1 + (y1 - self._ry[i2]) * k)
        dz = az - (z1 + (z1 - self._rz[i2]) * k)
        return math.sqrt(dx * dx + dy * dy + dz * dz)

    def _start_pulse(self, t, min_g):
        # type: (int, float) -> None
        """Freeze the pre-contact baseline and find the contact's first sample."""
        i1 = self._i1
        i2 = self._i2
        t1 = self._rt[i1]
        t2 = self._rt[i2]
        bx = self._rx[i1]
        by = self._ry[i1]
        bz = self._rz[i1]
        span = t1 - t2
        sx = (bx - self._rx[i2]) / span
        sy = (by - self._ry[i2]) / span
        sz = (bz - self._rz[i2]) / span
        # walk back from the newest sample while the residual stays high
        j = self._head
        onset = self._rt[j]
        while j != i1:
            tj = self._rt[j]
            dx = self._rx[j] - bx - sx * (tj - t1)
            dy = self._ry[j] - by - sy * (tj - t1)
            dz = self._rz[j] - bz - sz * (tj - t1)
            if dx * dx + dy * dy + dz * dz <= min_g * min_g:
                break
            onset = tj
            j = (j - 1) % RING
        # [t0, peak_res, peak_m, above_half_us, bx, by, bz, sx, sy, sz, t1, t_prev]
        self._pulse = [onset, 0.0, 0.0, 0, bx, by, bz, sx, sy, sz, t1, onset]
        self._pulse_samples = []
        j = (j + 1) % RING
        while True:
            self._pulse_step(self._rt[j], self._rx[j], self._ry[j], self._rz[j], self._rm[j])
            if j == self._head:
                break
            j = (j + 1) % RING

    def _pulse_step(self, t, ax, ay, az, m):
        # type: (int, float, float, float, float) -> None
        p = self._pulse
        dtp = t - p[10]
        if dtp > LAG1:
            dtp = LAG1  # extrapolate the pre-contact trend only a little way
        dx = ax - p[4] - p[7] * dtp
        dy = ay - p[5] - p[8] * dtp
        dz = az - p[6] - p[9] * dtp
        r = math.sqrt(dx * dx + dy * dy + dz * dz)
        if r > p[1]:
            p[1] = r
        if m > p[2]:
            p[2] = m
        self._pulse_samples.append((t, r))

    def _pulse_fwhm(self):
        # type: () -> int
        p = self._pulse
        half = p[1] * 0.5
        w = 0
        prev = None
        for s in self._pulse_samples:
            if prev is not None and s[1] >= half:
                w += s[0] - prev
            prev = s[0]
        if w == 0:
            w = self._dt
        return w

    def _end_pulse(self):
        # type: () -> tuple
        """Close the current pulse; return (t0, peak_res, peak_m, fwhm_us)."""
        p = self._pulse
        res = (p[0], p[1], p[2], self._pulse_fwhm())
        self._pulse = None
        self._pulse_samples = []
        self._pulse_quiet = self._last_t + PULSE_GAP
        self._trem_block = self._last_t + TREM_BLOCK_T
        self._held_since = None
        if self.kind == BURRITO:
            self._reset_tremor()
        return res

    def _update_stats(self, t, ax, ay, az, m):
        # type: (int, float, float, float, float) -> None
        # airborne bookkeeping uses |a| up to the previous sample, so the contact sample itself does not cancel it
        if self._mlp < AIR_G:
            if self._air_since is None:
                self._air_since = t
            elif t - self._air_since >= AIR_T and self._state != ST_MOVING:
                self._air_ok = True
        else:
            self._air_since = None
        a = self._alpha(MLP_TAU)
        self._mlp += (m - self._mlp) * a
        # clamped (robust) mean and variance, so one big spike does not hide stillness for long
        a = self._alpha(STAT_TAU)
        dx = min(MEAN_CLAMP, max(-MEAN_CLAMP, ax - self._mx))
        dy = min(MEAN_CLAMP, max(-MEAN_CLAMP, ay - self._my))
        dz = min(MEAN_CLAMP, max(-MEAN_CLAMP, az - self._mz))
        self._mx += dx * a
        self._my += dy * a
        self._mz += dz * a
        e = dx * dx + dy * dy + dz * dz
        if e > VAR_CLAMP:
            e = VAR_CLAMP
        self._var += (e - self._var) * a
        # tremor band-pass
        dt = self._dt
        if dt > 0:
            if self._bq_dt == 0 or abs(dt - self._bq_dt) * 10 > self._bq_dt:
                self._design_bandpass(dt)
            e = self._bp(self._bx, ax) ** 2 + self._bp(self._by, ay) ** 2 + self._bp(self._bz, az) ** 2
            self._trem += (e - self._trem) * self._alpha(TREM_TAU)
        # still = quiet, 1 g, and no hand tremor (a hand held steady is quiet too)
        still = (
            self._var < STILL_STD * STILL_STD
            and abs(m - 1.0) < STILL_DEV
            and self._trem < TREM_MIN * TREM_MIN
        )
        if still:
            if self._still_since is None:
                self._still_since = t
        else:
            self._still_since = None

    def _reset_tremor(self):
        # type: () -> None
        """Restart the band-pass from the newest sample: a contact makes it ring for ~0.3 s."""
        h = self._head
        ax = self._rx[h]
        ay = self._ry[h]
        az = self._rz[h]
        self._bx = [ax, ax, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        self._by = [ay, ay, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        self._bz = [az, az, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        self._trem = 0.0

    def _design_bandpass(self, dt):
        # type: (int) -> None
        w0 = 2.0 * math.pi * TREM_F0 * dt * 1e-6
        al = math.sin(w0) / (2.0 * TREM_Q)
        a0 = 1.0 + al
        self._b0 = al / a0
        self._b2 = -al / a0
        self._a1 = -2.0 * math.cos(w0) / a0
        self._a2 = (1.0 - al) / a0
        self._bq_dt = dt

    def _bp(self, s, x):
        # type: (list, float) -> float
        """Two cascaded band-pass biquads; s = [x1, x2, y1, y2, u1, u2, v1, v2]."""
        b0 = self._b0
        b2 = self._b2
        a1 = self._a1
        a2 = self._a2
        y = b0 * x + b2 * s[1] - a1 * s[2] - a2 * s[3]
        s[1] = s[0]
        s[0] = x
        s[3] = s[2]
        s[2] = y
        v = b0 * y + b2 * s[5] - a1 * s[6] - a2 * s[7]
        s[5] = s[4]
        s[4] = y
        s[7] = s[6]
        s[6] = v
        return v

    def _tremor(self):
        # type: () -> float
        return math.sqrt(self._trem) if self._trem > 0 else 0.0

    def _supported(self):
        # type: () -> bool
        return SUPPORT_LO <= self._mlp <= SUPPORT_HI

    def _held_for(self, t):
        # type: (int) -> int
        """How long (us) the signal has looked like a hand: supported + tremor."""
        if (
            t >= self._trem_block
            and self._supported()
            and self._tremor() >= TREM_MIN
        ):
            if self._held_since is None:
                self._held_since = t
            return t - self._held_since
        self._held_since = None
        return -1

    def _still_for(self, t):
        # type: (int) -> int
        if self._still_since is None:
            return -1
        return t - self._still_since

    def _rest_stamp(self):
        # type: () -> int
        """First sample of the still stretch: after the last one far from the resting vector."""
        mx = self._mx
        my = self._my
        mz = self._mz
        lim = REST_BACK_DEV * REST_BACK_DEV
        j = self._head
        stamp = self._rt[j]
        n = 0
        limit = self._n if self._n < RING else RING
        while n < limit:
            dx = self._rx[j] - mx
            dy = self._ry[j] - my
            dz = self._rz[j] - mz
            if dx * dx + dy * dy + dz * dz > lim:
                break
            stamp = self._rt[j]
            j = (j - 1) % RING
            n += 1
        return stamp

    def _go(self, state, t):
        # type: (int, int) -> None
        self._state = state
        self._state_t = t

    def _to_rest(self, t, out):
        # type: (int, list) -> None
        if self._moved:
            out.append((self._rest_stamp(), "rest", round(self._mlp, 3)))
        self._moved = False
        self._rest_vec = (self._mx, self._my, self._mz)
        self._pulse = None
        self._go(ST_REST, t)

    def _to_held(self, t):
        # type: (int) -> None
        self._wind_peak = 0.0
        self._cand = None
        self._low_since = None
        self._go(ST_HELD, t)

    def _contact_check(self, t, ax, ay, az, m, need_air=AIR_T):
        # type: (int, float, float, float, float, int) -> object
        """Track contact pulses; return a finished pulse tuple or None.

        With need_air, a new contact counts only after the body was airborne
        (|a| < 0.6 g for need_air us): a hand's jolts and a pulse's own tail are not
        new contacts, a bounce or a juggle always has a flight before it.
        """
        if self._pulse is not None:
            self._pulse_step(t, ax, ay, az, m)
            p = self._pulse
            age = t - p[0]
            # a sharp hit is over early: end it then, so a quick bounce is not missed
            if age >= PULSE_WIN or (age >= PULSE_MIN and self._pulse_samples[-1][1] < 0.25 * p[1]):
                return self._end_pulse()
            return None
        if t < self._pulse_quiet or not self._have_lags(t):
            return None
        if need_air and not self._air_ok:
            if self._air_since is None or t - self._air_since < need_air:
                return None
        if self._residual(t, ax, ay, az) > CONTACT_RES:
            self._start_pulse(t, ONSET_RES)
            self._air_ok = False
        return None

    # ------------------------------------------------------------- burrito
    def _burrito(self, t, ax, ay, az, m, out):
        # type: (int, float, float, float, float, list) -> None
        if not self._started:
            # start from this sample, not from a guess, so filters do not ring
            self._started = True
            self._mx = ax
            self._my = ay
            self._mz = az
            self._var = 0.0
            self._mlp = m
            self._trem = 0.0
            self._bx = [ax, ax, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
            self._by = [ay, ay, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
            self._bz = [az, az, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
            self._go(ST_MOVING, t)
            self._onset = t
            self._moved = False
            return
        self._update_stats(t, ax, ay, az, m)
        st = self._state
        if st == ST_REST:
            dx = ax - self._rest_vec[0]
            dy = ay - self._rest_vec[1]
            dz = az - self._rest_vec[2]
            if dx * dx + dy * dy + dz * dz > LEAVE_DEV * LEAVE_DEV:
                self._onset = self._leave_onset(t)
                self._go(ST_MOVING, t)
                self._held_since = None
            return
        if st == ST_MOVING:
            # not known to be in a hand: only a real fall (not a running dip) ends in a bounce
            pulse = self._contact_check(t, ax, ay, az, m, AIR_T_FALL)
            if pulse is not None:
                out.append((pulse[0], "bounce", round(pulse[2], 3)))
                self._moved = True
                self._go(ST_POST, t)  # loose on the floor: further bounces, then rest
                return
            if self._pulse is not None:
                return
            if self._mlp >= WINDUP_G or self._held_for(t) >= TREM_PICKUP_T:
                out.append((self._onset, "pickup", round(self._mlp, 3)))
                self._moved = True
                self._to_held(t)
                if self._mlp >= WINDUP_G:
                    self._held_step(t, m, out)
                return
            if self._pulse is None and self._still_for(t) >= STILL_T:
                self._to_rest(t, out)
            return
        if st == ST_HELD:
            self._held_step(t, m, out)
            return
        if st == ST_FLIGHT:
            pulse = self._contact_check(t, ax, ay, az, m, 0)
            if self._pulse is not None and pulse is None and self._state == ST_FLIGHT:
                if self._contact_t0 != self._pulse[0]:
                    self._contact_t0 = self._pulse[0]
                    self._hard = False
                    self._pending = []
                    self._go(ST_RESOLVE, t)
                return
            if t - self._state_t > FLIGHT_MAX:
                self._to_held(t)  # never landed: we were wrong about the flight
            return
        if st == ST_RESOLVE:
            pulse = self._contact_check(t, ax, ay, az, m)
            if pulse is not None:
                self._take_pulse(pulse)
                if self._hard:
                    self._decide(False, out)
                return
            if self._pulse is not None:
                return
            if self._still_for(t) >= STILL_T:
                self._decide(False, out)
                self._to_rest(t, out)
                return
            if self._held_for(t) >= TREM_HOLD_T:
                self._decide(True, out)
                return
            if t - self._state_t > RESOLVE_MAX:
                self._decide(self._supported(), out)
            return
        if st == ST_POST:
            pulse = self._contact_check(t, ax, ay, az, m)
            if pulse is not None:
                out.append((pulse[0], "bounce", round(pulse[2], 3)))
                return
            if self._pulse is not None:
                return
            if self._still_for(t) >= STILL_T:
                self._to_rest(t, out)
                return
            hf = self._held_for(t)
            if hf >= POST_HOLD_T:
                out.append((self._held_since, "pickup", round(self._mlp, 3)))
                self._to_held(t)
            return

    def _leave_onset(self, t):
        # type: (int) -> int
        """First sample of the run that left the rest vector."""
        rx = self._rest_vec[0]
        ry = self._rest_vec[1]
        rz = self._rest_vec[2]
        lim = LEAVE_ONSET_DEV * LEAVE_ONSET_DEV
        j = self._head
        onset = t
        n = 0
        limit = self._n if self._n < RING else RING
        while n < limit:
            dx = self._rx[j] - rx
            dy = self._ry[j] - ry
            dz = self._rz[j] - rz
            if dx * dx + dy * dy + dz * dz <= lim:
                break
            onset = self._rt[j]
            j = (j - 1) % RING
            n += 1
        return onset

    def _take_pulse(self, pulse):
        # type: (tuple) -> None
        t0, res, pm, fwhm = pulse
        if pm > self._contact_peak:
            self._contact_peak = pm
        if res >= HARD_G or (res >= SHARP_G and fwhm <= SHARP_FWHM):
            self._hard = True
        if t0 != self._contact_t0:
            self._pending.append((t0, "bounce", round(pm, 3)))

    def _decide(self, caught, out):
        # type: (bool, list) -> None
        t0 = self._contact_t0
        if caught:
            out.append((t0, "catch", round(self._contact_peak, 3)))
            self._moved = True
            self._to_held(self._last_t)
        else:
            out.append((t0, "impact", round(self._contact_peak, 3)))
            for ev in self._pending:
                out.append(ev)
            self._moved = True
            self._go(ST_POST, self._last_t)
        self._pending = []

    def _held_step(self, t, m, out):
        # type: (int, float, list) -> None
        if self._still_for(t) >= STILL_T:
            self._to_rest(t, out)
            return
        # plain drop: free fall that outlasts a running stride's dip
        if m < DROP_G and self._cand is None:
            if self._low_since is None:
                self._low_since = self._drop_onset()
            elif t - self._low_since >= DROP_T:
                self._launch(self._low_since, m, t, out)
                return
        elif m > DROP_ONSET_G:
            self._low_since = None
        if self._mlp >= WINDUP_G:
            if self._mlp > self._wind_peak:
                self._wind_peak = self._mlp
            if m > self._wind_peak:
                self._wind_peak = m
            self._wind_t = t
            self._cand = None
            return
        if self._wind_peak > 0.0 and self._cand is None:
            if t - self._wind_t > WINDUP_TIMEOUT:
                self._wind_peak = 0.0
                return
            if m <= self._wind_peak - WINDUP_DROP and m <= WINDUP_FLIGHT_MAX:
                self._cand = [t, 0.0, 0, 99.0, 0.0]
                self._pulse = None
                self._pulse_quiet = t + CONFIRM_SKIP
            return
        c = self._cand
        if c is None:
            return
        age = t - c[0]
        bad = False
        if age >= CONFIRM_SKIP:
            c[1] += m
            c[2] += 1
            if m < c[3]:
                c[3] = m
            if m > c[4]:
                c[4] = m
            if m >= SUPPORT_HI:
                bad = True
            # flight is steady: a running stride's dip is followed by the next stance push
            if c[4] - c[3] > CONFIRM_RANGE:
                bad = True
        if not bad and t >= self._pulse_quiet and self._have_lags(t):
            if self._residual(t, self._rx[self._head], self._ry[self._head], self._rz[self._head]) > CONFIRM_RES:
                bad = True
        if bad:
            # one candidate per windup: the first drop after the push is the release or nothing
            self._cand = None
            self._wind_peak = 0.0
            return
        if age >= CONFIRM_T and c[2] > 0:
            level = c[1] / c[2]
            self._launch(self._release_stamp(c[0], level), self._wind_peak, t, out)

    def _drop_onset(self):
        # type: () -> int
        j = self._head
        onset = self._rt[j]
        n = 0
        limit = self._n if self._n < RING else RING
        while n < limit and self._rm[j] < DROP_ONSET_G:
            onset = self._rt[j]
            j = (j - 1) % RING
            n += 1
        return onset

    def _release_stamp(self, t_cand, level):
        # type: (int, float) -> int
        """The sample after the last one still pushed by the hand."""
        thr = level + RELEASE_FRAC * (self._wind_peak - level)
        j = self._head
        n = 0
        limit = self._n if self._n < RING else RING
        while n < limit and self._rt[j] > t_cand:
            j = (j - 1) % RING
            n += 1
        stamp = t_cand
        while n < limit:
            if self._rm[j] > thr:
                break
            stamp = self._rt[j]
            j = (j - 1) % RING
            n += 1
        return stamp

    def _launch(self, stamp, peak, t, out):
        # type: (int, float, int, list) -> None
        out.append((stamp, "launch", round(peak, 3)))
        self._moved = True
        self._cand = None
        self._wind_peak = 0.0
        self._low_since = None
        self._pulse = None
        self._pulse_quiet = t
        self._contact_t0 = -1
        self._contact_peak = 0.0
        self._go(ST_FLIGHT, t)

    # --------------------------------------------------------------- badge
    def _badge(self, t, ax, ay, az, m, out):
        # type: (int, float, float, float, float, list) -> None
        p = self._pulse
        if p is not None:
            self._pulse_step(t, ax, ay, az, m)
            if t - p[0] >= BADGE_WIN:
                # a hit is over within the window; a step or a landing is still high at its end
                ended = self._pulse_samples[-1][1] < 0.5 * p[1]
                t0, res, pm, fwhm = self._end_pulse()
                if res >= BADGE_MIN_G and fwhm <= BADGE_FWHM and ended:
                    out.append((t0, "impact", round(pm, 3)))
                    self._badge_until = t0 + BADGE_REFRACT
                self._pulse_quiet = t
            return
        if t < self._badge_until or t < self._pulse_quiet or not self._have_lags(t):
            return
        if self._residual(t, ax, ay, az) > BADGE_RES:
            self._start_pulse(t, ONSET_RES * 2)
