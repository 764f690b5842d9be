# Contacts of the motion detector (see detector.py): the pulse a contact makes, where it began, and the jerk
# change-point that finds a slow, soft one.
#
# A contact is a residual of the linear extrapolation from the samples lag2 and lag1 ago above contact_res (spin and
# drag are smooth, contacts are jerks), or a CUSUM change-point on the jerk above the flight's own (taken over 10-40
# ms, longer for a noisier part).  Its first sample is where the residual run began or the sum last left zero, then
# refined: a broken-stick fit finds the bend where a slow rise leaves the flight's line, a line fitted to the early,
# straight part of a rise is extrapolated back to zero force (at most ramp_back_t), and a sharp one is stamped in
# the middle of the interval before its first sample.  MicroPython firmware: no typing at runtime, type hints in
# comments.

import math

try:  # on the board the parts are modules next to this one; on the host, in this package
    from det_ring import RING
except ImportError:
    from firmware_bridge.firmware.det_ring import RING

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: MicroPython has no typing module
    from typing import Any  # noqa: F401 -- used by the type comments


class Contact:
    """The open pulse (pulse: [t0, peak_res, peak_m, above_half_us, bx, by, bz, sx, sy, sz, t1, t_prev, min_g,
    opened_by_jerk], or None) and its samples' residuals; quiet: no new contact before this; hinge_from: no fit reaches
    back before this (a flight's start, a pulse's end); the jerk sum's state (cus, cus_t0, jb, ij)."""

    PARAMS = ("lag1", "lag2", "pulse_gap", "hinge_pre_t", "ramp_back_t", "jerk_allow", "jerk_noise", "jerk_lag_max",
              "jerk_h", "onset_res")

    def __getattr__(self, name):
        # type: (str) -> Any
        """Only reached for a name never set: the detector sets every name in PARAMS (this tells mypy so)."""
        raise AttributeError(name)

    def __init__(self, ring, noise, burrito):
        # type: (Any, Any, bool) -> None
        self.ring = ring
        self.noise = noise
        self.burrito = burrito  # a burrito's contacts are refined (a badge's hits are sharp)
        self.pulse = None  # type: Any
        self.samples = []  # type: list
        self.quiet = 0
        self.hinge_from = 0
        self.cus = 0.0
        self.cus_t0 = 0
        self.jb = -1.0
        self.ij = 0  # ring position of the sample ~jerk_lag() ago: the jerk change-point's difference

    def restart(self, t):
        # type: (int) -> None
        """A flight begins at t: no pulse open, none sought before t, the jerk sum from zero."""
        self.pulse = None
        self.quiet = t
        self.hinge_from = t
        self.cus = 0.0
        self.jb = -1.0

    def start(self, t, min_g):
        # type: (int, float) -> None
        """Freeze the pre-contact baseline and find the contact's first sample."""
        i1 = self.ring.i1
        i2 = self.ring.i2
        t1 = self.ring.t[i1]
        t2 = self.ring.t[i2]
        bx = self.ring.x[i1]
        by = self.ring.y[i1]
        bz = self.ring.z[i1]
        span = t1 - t2
        sx = (bx - self.ring.x[i2]) / span
        sy = (by - self.ring.y[i2]) / span
        sz = (bz - self.ring.z[i2]) / span
        # walk back from the newest sample while the residual stays high
        j = self.ring.head
        onset = self.ring.t[j]
        while j != i1:
            tj = self.ring.t[j]
            dx = self.ring.x[j] - bx - sx * (tj - t1)
            dy = self.ring.y[j] - by - sy * (tj - t1)
            dz = self.ring.z[j] - bz - sz * (tj - t1)
            if dx * dx + dy * dy + dz * dz <= min_g * min_g:
                break
            onset = tj
            j = (j - 1) % RING
        if self.burrito:
            onset = self.ramp_fit(onset, bx, by, bz, sx, sy, sz, t1, 8.0 * min_g)
        # [t0, peak_res, peak_m, above_half_us, bx, by, bz, sx, sy, sz, t1, t_prev, min_g, opened_by_jerk]
        self.pulse = [onset, 0.0, 0.0, 0, bx, by, bz, sx, sy, sz, t1, onset, min_g, False]
        self.samples = []
        if j != self.ring.head:  # replay from the first sample of the contact (if the newest is below the walk-back
            j = (j + 1) % RING  # threshold, from it alone: head + 1 is the ring's oldest sample)
        while True:
            self.step(self.ring.t[j], self.ring.x[j], self.ring.y[j], self.ring.z[j], self.ring.m[j])
            if j == self.ring.head:
                break
            j = (j + 1) % RING

    def step(self, t, ax, ay, az, m):
        # type: (int, float, float, float, float) -> None
        p = self.pulse
        dtp = t - p[10]
        if dtp > self.lag1:
            dtp = self.lag1  # extrapolate the pre-contact trend only a little way
        dx = ax - p[4] - p[7] * dtp
        dy = ay - p[5] - p[8] * dtp
        dz = az - p[6] - p[9] * dtp
        r = math.sqrt(dx * dx + dy * dy + dz * dz)
        if r > p[1]:
            p[1] = r
        if m > p[2]:
            p[2] = m
        self.samples.append((t, r))

    def fwhm(self):
        # type: () -> int
        p = self.pulse
        half = p[1] * 0.5
        w = 0
        prev = None
        for s in self.samples:
            if prev is not None and s[1] >= half:
                w += s[0] - prev
            prev = s[0]
        if w == 0:
            w = self.ring.dt
        return w

    def close(self):
        # type: () -> tuple
        """Close the current pulse; return (t0, peak_res, peak_m, fwhm_us).  No contact is sought for pulse_gap
        after it, and the lines fitted to the next one reach back no further than its end."""
        p = self.pulse
        t0 = self.refine_onset()
        res = (t0, p[1], p[2], self.fwhm())
        self.pulse = None
        self.samples = []
        self.quiet = self.ring.last_t + self.pulse_gap
        self.hinge_from = self.ring.last_t
        return res

    def refine_onset(self):
        # type: () -> int
        """A closed pulse's first touch, from all of its samples.  When the pulse opened, a slow rise had one or two
        samples over the walk-back threshold, too few to place its start, so place it now (_hinge_onset).  A sharp
        contact's first sample already reads far over the threshold: it touched at an unknown instant since the
        sample before, so stamp the middle of that interval, which halves the worst error (2.5 ms, not 5 ms, at
        200 Hz); unless that sample reads a quarter or less of the next one, which only a touch just before it
        gives.  A line extrapolated back when the pulse opened is kept only for a contact the jerk sum found;
        on a sharp one it extends the noise before it."""
        p = self.pulse
        s = self.samples
        t0 = p[0]
        if not s:
            return t0
        ts = s[0][0]
        half = ts - self.ring.dt // 2
        if len(s) > 1 and s[1][1] > 4.0 * s[0][1]:
            # the first sample caught only the start (a quarter or less of the next): it touched just before it, and
            # the line through the two back to zero says how long before (at most a third of a period)
            half = ts - int((s[1][0] - ts) * s[0][1] / (s[1][1] - s[0][1]))
        if self.burrito:
            # the jerk sum's difference spans one jerk lag: a contact it found may have begun that long before
            # the sum left zero (the window stays where it was: a flight's wobble lies further back)
            if p[13] and t0 < ts:
                th = self.hinge_onset(t0, 8.0 * p[12], p[12], None, (t0 - self.jerk_lag(), t0))
            else:
                th = self.hinge_onset(ts, 8.0 * p[12], p[12])
            if th >= 0:
                return th if th < half else half  # it touched before the first sample over the threshold
            if not p[13]:
                return half
        if t0 == ts:
            return half
        return t0

    def hinge_onset(self, t_est, cap, min_g, not_before=None, found=None):
        # type: (int, float, float, Any, Any) -> int
        """Start of a slow rise by a broken-stick fit: each axis follows a line (the flight's drag and spin change
        slowly), then bends onto another as the contact force grows from zero.  Over the samples from hinge_pre_t
        before the first estimate until the reading is cap away from where the window began (the rise's straight
        part), the bend instant shared by the three axes that leaves the least squared error is the first touch;
        it sits between samples (a parabola through the errors of the best sample and its neighbours).  Unlike a
        threshold, or a line extrapolated to a baseline, it does not depend on how far the rise had got when it
        was seen, nor on the contact's direction (the first touch may also slow the flight and shed its drag).
        Returns -1 unless the window's last 3 samples are min_g off the line before the bend (a sharp contact, or
        noise).  A bend on the window's first allowed sample is sought again from hinge_pre_t further back, once
        (not_before, the first window's edge, is set on that second look): a rise so slow that the first estimate
        came late (at 200 Hz a 150 ms rise is found 40 ms in) keeps its bend there, its line before the bend only
        better placed; a flight's wobble lies further back and is not taken.  found, (from, to), is where a
        contact the jerk sum found began if it is one (the sum's jerk spans one lag before it left zero): a bend
        there needs no climb half-way to cap, which a spinning flight's own turn can take most of (the sum has
        seen the rise)."""
        win = self._hinge_window(t_est, cap)
        if win is None:
            return -1
        ts = win[0]
        xs = win[1]
        n = len(ts)
        errs, best, fit, i0 = self._hinge_fit(ts, xs)
        if best == 0:  # on the window's first allowed sample: the rise may have begun before it
            if not_before is not None:
                return -1
            return self.hinge_onset(t_est - self.hinge_pre_t, cap, min_g, t_est + int(ts[i0] * 1e6) - self.ring.dt // 2,
                                    found)
        if best == len(errs) - 1:
            return -1  # no bend inside the window: no rise out of a steady flight to place
        tb = ts[best + i0]
        e0 = errs[best - 1]
        e1 = errs[best]
        e2 = errs[best + 1]
        cv = e0 - 2.0 * e1 + e2
        if cv > 0.0:
            off = 0.5 * (e0 - e2) / cv
            if -1.0 < off < 1.0:
                tb += off * ((ts[best + i0 + 1] - ts[best + i0 - 1]) * 0.5)
        # a rise: the bend climbs half-way to cap by the window's end, and its last 3 samples are off the flight's
        # line (not the flight's own wobble, nor the noise before a sharp contact, whose rise is one sample)
        span = ts[n - 1] - tb
        gx = fit[0][2] * span
        gy = fit[1][2] * span
        gz = fit[2][2] * span
        tb_us = t_est + int(tb * 1e6)
        c2 = cap * cap
        if gx * gx + gy * gy + gz * gz < 0.25 * c2 and (found is None or tb_us < found[0] or tb_us > found[1]):
            return -1
        seen = 0
        i = n - 1
        while i >= 0 and ts[i] > tb:
            tj = ts[i]
            v = xs[i]
            dx = v[0] - fit[0][0] - fit[0][1] * tj
            dy = v[1] - fit[1][0] - fit[1][1] * tj
            dz = v[2] - fit[2][0] - fit[2][1] * tj
            if dx * dx + dy * dy + dz * dz <= min_g * min_g:
                break
            seen += 1
            i -= 1
        if seen < 3:
            return -1
        return -1 if not_before is not None and tb_us < not_before else tb_us

    def _hinge_window(self, t_est, cap):
        # type: (int, float) -> Any
        """The broken-stick fit's samples, from hinge_pre_t before t_est (not before hinge_from) until the reading
        is cap from where the window began: (times in s from t_est, readings less the window's start), at most ~48
        of them; None if fewer than 6."""
        tq = t_est - self.hinge_pre_t
        j0 = self.ring.at(tq if tq > self.hinge_from else self.hinge_from)
        if self.ring.t[j0] < self.hinge_from:
            j0 = (j0 + 1) % RING
        h = self.ring.head
        # where the window began: the mean of its first three samples
        bx = 0.0
        by = 0.0
        bz = 0.0
        j = j0
        for _ in range(3):
            if j == h:
                return None
            bx += self.ring.x[j]
            by += self.ring.y[j]
            bz += self.ring.z[j]
            j = (j + 1) % RING
        bx /= 3.0
        by /= 3.0
        bz /= 3.0
        c2 = cap * cap
        je = j
        while je != h:
            dx = self.ring.x[je] - bx
            dy = self.ring.y[je] - by
            dz = self.ring.z[je] - bz
            if self.ring.t[je] >= t_est and dx * dx + dy * dy + dz * dz > c2:
                break
            je = (je + 1) % RING
        step = 1 + ((je - j0) % RING) // 48  # at most ~48 samples: it runs once per contact, on a small CPU too
        ts = []  # type: list
        xs = []  # type: list
        j = j0
        k = 0
        while j != je:
            if k % step == 0:
                ts.append((self.ring.t[j] - t_est) * 1e-6)
                xs.append((self.ring.x[j] - bx, self.ring.y[j] - by, self.ring.z[j] - bz))
            k += 1
            j = (j + 1) % RING
        if len(ts) < 6:
            return None
        return (ts, xs)

    def _hinge_fit(self, ts, xs):
        # type: (list, list) -> tuple
        """Per bend sample (from i0 on), the squared error the best broken stick through it leaves: (errors, the
        least's index, its three (a, b, c) lines, i0)."""
        n = len(ts)
        # per axis, least squares of y = a + b t + c max(0, t - tk): the 3x3 normal equations share their matrix
        st = 0.0
        stt = 0.0
        sy = [0.0, 0.0, 0.0]
        sty = [0.0, 0.0, 0.0]
        syy = 0.0
        for i in range(n):
            tj = ts[i]
            st += tj
            stt += tj * tj
            for q in range(3):
                y = xs[i][q]
                sy[q] += y
                sty[q] += tj * y
                syy += y * y
        errs = []  # type: list
        best = 0
        fit = []  # type: list
        i0 = 3  # the line before the bend rests on 4 samples and a quarter of the reach (10 ms) at least, or noise
        # sets its slope
        while i0 < n - 3 and ts[i0] - ts[0] < 0.25 * self.hinge_pre_t * 1e-6:
            i0 += 1
        # sums of t, t^2, t y and y over the samples after each hinge, built from the end: one pass, not one per hinge
        ct = 0.0
        ctt = 0.0
        cy = [0.0, 0.0, 0.0]
        ry = [0.0, 0.0, 0.0]
        sums = [None] * n  # type: list
        for i in range(n - 1, i0 - 1, -1):
            sums[i] = (n - 1 - i, ct, ctt, (cy[0], cy[1], cy[2]), (ry[0], ry[1], ry[2]))
            ct += ts[i]
            ctt += ts[i] * ts[i]
            for q in range(3):
                cy[q] += ts[i] * xs[i][q]
                ry[q] += xs[i][q]
        for i in range(i0, n - 2):
            tk = ts[i]
            k, ct, ctt, cy, ry = sums[i]
            sh = ct - k * tk
            shh = ctt - 2.0 * tk * ct + k * tk * tk
            sth = ctt - tk * ct
            shy = [cy[0] - tk * ry[0], cy[1] - tk * ry[1], cy[2] - tk * ry[2]]
            m00 = stt * shh - sth * sth
            m01 = st * shh - sth * sh
            m02 = st * sth - stt * sh
            det = n * m00 - st * m01 + sh * m02
            if det <= 0.0:
                errs.append(syy)
                continue
            e = syy
            line = []
            for q in range(3):
                a = (sy[q] * m00 - st * (sty[q] * shh - sth * shy[q]) + sh * (sty[q] * sth - stt * shy[q])) / det
                b = (n * (sty[q] * shh - sth * shy[q]) - sy[q] * m01 + sh * (st * shy[q] - sty[q] * sh)) / det
                c = (n * (stt * shy[q] - sty[q] * sth) - st * (st * shy[q] - sty[q] * sh) + sy[q] * m02) / det
                e -= a * sy[q] + b * sty[q] + c * shy[q]
                line.append((a, b, c))
            if not errs or e < errs[best]:
                best = len(errs)
                fit = line
            errs.append(e)
        return (errs, best, fit, i0)

    def jerk_lag(self):
        # type: () -> int
        """Lag of the jerk's difference: noise adds sqrt(6) sigma / lag to it, so a noisy part takes it over a
        longer lag (lag1 to jerk_lag_max) to keep that share at jerk_noise.  A slow contact's jerk is the slope
        of a straight rise, the same over any lag shorter than the rise."""
        lag = int(2.0 * math.sqrt(6.0 * self.noise.sig2) * 1e6 / self.jerk_noise)
        if lag < self.lag1:
            return self.lag1
        if lag > self.jerk_lag_max:
            return self.jerk_lag_max
        return lag

    def advance_jerk_lag(self, t):
        # type: (int) -> None
        n = self.ring.n if self.ring.n < RING else RING
        oldest = (self.ring.head - n + 1) % RING
        rt = self.ring.t
        if (self.ij - oldest) % RING >= n:
            self.ij = oldest
        tq = t - self.jerk_lag()
        while self.ij != self.ring.head and rt[(self.ij + 1) % RING] <= tq:
            self.ij = (self.ij + 1) % RING
        while self.ij != oldest and rt[self.ij] > tq:  # the lag grew with the measured noise
            self.ij = (self.ij - 1) % RING

    def cusum(self, t, ax, ay, az):
        # type: (int, float, float, float) -> bool
        """Change-point on the jerk: a contact whose force rises slowly has no jump for the residual test to see,
        but its jerk leaves the flight's own (smooth spin and drag) level at the first touch.  A CUSUM of the excess
        jerk finds it; the contact is stamped where the sum last left zero.  True when it opened a pulse."""
        if not self.ring.have_lags(t):
            return False
        self.advance_jerk_lag(t)
        i1 = self.ij
        dtl = t - self.ring.t[i1]
        if dtl <= 0:
            return False
        dx = ax - self.ring.x[i1]
        dy = ay - self.ring.y[i1]
        dz = az - self.ring.z[i1]
        jerk = math.sqrt(dx * dx + dy * dy + dz * dz) * 1e6 / dtl
        if self.jb < 0.0:
            self.jb = jerk
        if self.cus <= 0.0:
            # the flight's own jerk: a contact only adds jerk, and fills the difference over one lag, so a rise is
            # followed over four lags (a baseline as quick as the lag takes a slow contact's in before the sum can
            # grow); a fall as quickly as before (a baseline left high would start the sum late)
            tau = 4 * dtl if jerk > self.jb else 50000
            self.jb += (jerk - self.jb) * self.ring.alpha(tau if tau > 50000 else 50000)
        allow = self.jerk_allow + 2.0 * math.sqrt(6.0 * self.noise.sig2) * 1e6 / dtl
        prev = self.cus
        self.cus += (jerk - self.jb - allow) * self.ring.dt * 1e-6
        if self.cus <= 0.0:
            self.cus = 0.0
            return False
        if prev <= 0.0:
            self.cus_t0 = t
        if self.cus >= self.jerk_h:
            t0 = self.cus_t0
            self.start(t, self.walk_back_g())
            t0 = self.ramp_onset(t0, t)
            if t0 < self.pulse[0]:
                self.pulse[0] = t0
            self.pulse[13] = True
            self.cus = 0.0
            return True
        return False

    def ramp_onset(self, tc, t):
        # type: (int, int) -> int
        """First touch of a contact the jerk sum found (it left zero at tc): the trend before tc is the baseline."""
        i1 = self.ring.at(tc - self.lag1)
        i2 = self.ring.at(tc - self.lag2)
        span = self.ring.t[i1] - self.ring.t[i2]
        if span <= 0:
            return tc
        return self.ramp_fit(tc, self.ring.x[i1], self.ring.y[i1], self.ring.z[i1], (self.ring.x[i1] - self.ring.x[i2]) / span,
                              (self.ring.y[i1] - self.ring.y[i2]) / span, (self.ring.z[i1] - self.ring.z[i2]) / span,
                              self.ring.t[i1], 0.0)

    def ramp_fit(self, tc, bx, by, bz, sx, sy, sz, t1, cap):
        # type: (int, float, float, float, float, float, float, int, float) -> int
        """First touch of a slowly rising contact.  Its force starts at zero and climbs, so the reading leaves the
        flight's own trend (b + s (t - t1)) along a line, and a threshold is only crossed some way up it.  Fit the
        line to the samples from tc (the deviation projected on the newest deviation's direction, so noise does
        not bias it; with cap > 0, only while the deviation is under cap: the early, straight part of the rise) and
        extrapolate it back to zero.  A sharp contact has too few samples to fit and keeps tc; the answer is never
        more than ramp_back_t before tc."""
        h = self.ring.head
        t = self.ring.t[h]
        ux = self.ring.x[h] - bx - sx * (t - t1)
        uy = self.ring.y[h] - by - sy * (t - t1)
        uz = self.ring.z[h] - bz - sz * (t - t1)
        un = math.sqrt(ux * ux + uy * uy + uz * uz)
        if un <= 0.0:
            return tc
        ux /= un
        uy /= un
        uz /= un
        j = self.ring.at(tc)
        if self.ring.t[j] < tc:
            j = (j + 1) % RING
        n = 0
        st = 0.0
        sd = 0.0
        stt = 0.0
        std = 0.0
        while True:
            tj = self.ring.t[j]
            d = (self.ring.x[j] - bx - sx * (tj - t1)) * ux + (self.ring.y[j] - by - sy * (tj - t1)) * uy + \
                (self.ring.z[j] - bz - sz * (tj - t1)) * uz
            if cap > 0.0 and d > cap:
                break
            dt = (tj - tc) * 1e-6
            n += 1
            st += dt
            sd += d
            stt += dt * dt
            std += dt * d
            if j == h:
                break
            j = (j + 1) % RING
        if n < 3:
            return tc
        den = n * stt - st * st
        if den <= 0.0:
            return tc
        slope = (n * std - st * sd) / den
        if slope <= 0.0:
            return tc
        icpt = (sd - slope * st) / n
        t0 = tc + int(-icpt / slope * 1e6)
        if t0 > tc:
            return tc
        if t0 < tc - self.ramp_back_t:
            return tc - self.ramp_back_t
        return t0

    def walk_back_g(self):
        # type: () -> float
        """Walk-back threshold of a contact's first sample: 0.08 g, or 3 noise sigmas (vector) if that is more."""
        k = 3.0 * math.sqrt(3.0 * self.noise.sig2)
        return k if k > self.onset_res else self.onset_res
