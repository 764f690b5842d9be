# Flight tests of the motion detector (see detector.py), with the gyroscope on: is a flight candidate a free body, or
# still in a hand?
#
# A free body feels no gravity: its reading is drag (-k|v|v, plus a tumble's lift) and spin's w^2 r.  So its reading
# along world "up", less what spin can put there, stays under flight_up_g; it never falls (drag along up only climbs
# towards 0 rising and grows falling); its angle below the horizontal only falls (gravity bends the path down) and its
# horizontal part keeps its direction; and |a| climbs no faster than gravity can speed it up against its drag.  A hand
# easing its hold, braking a pump fake or swinging it breaks one of these.  MicroPython firmware: no typing at runtime,
# type hints in comments.
#
# A candidate is a list: [t, sum |a|, n, min |a|, max |a|, noise allowance, sum along up, sum w^2, n (gyro), last jerk,
# sum along up and n in the window's second half, sums of the two horizontal parts, and those in the second half, when
# |a| was least, whether only the vector swung at the let-go, and the reading along up smoothed over up_dip_tau, its
# highest, and its largest fall from there (-1: none yet)].

import math

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: MicroPython has no typing module
    from typing import Any  # noqa: F401 -- used by the type comments

G = 9.80665  # m/s^2 per g: readings are in g, spin and speed in SI units


def new_candidate(t, noise_allow, vec_only):
    # type: (int, float, bool) -> list
    """A flight candidate opened at t (see the module comment for its fields)."""
    return [t, 0.0, 0, 99.0, 0.0, noise_allow, 0.0, 0.0, 0, -1, 0.0, 0,
            0.0, 0.0, 0.0, 0.0, t, vec_only, 0.0, 0.0, -1.0]


class FlightCheck:
    """The gravity, path and drag tests over a candidate's window, and the gyroscope's sums they need."""

    PARAMS = ("spin_r", "up_fall_g", "up_fall_k", "up_dip_tau", "drag_turn_max", "path_vt_min", "path_rise_a",
              "path_min_g", "flight_up_g", "confirm_skip", "confirm_t")

    def __getattr__(self, name):
        # type: (str) -> Any
        """Only reached for a name never set: the detector sets every name in PARAMS (this tells mypy so)."""
        raise AttributeError(name)

    def add(self, c, age, rx, ry, rz, att, dta):
        # type: (list, int, float, float, float, Any, int) -> None
        """Add the newest reading (rx, ry, rz) to the candidate's sums along up and the horizontal (att: the
        Attitude; dta: the mean sample period, 1000 us before it is known)."""
        ux = att.ux
        uy = att.uy
        uz = att.uz
        ex = att.ex
        ey = att.ey
        ez = att.ez
        up = rx * ux + ry * uy + rz * uz
        he = rx * ex + ry * ey + rz * ez
        hf = rx * (uy * ez - uz * ey) + ry * (uz * ex - ux * ez) + rz * (ux * ey - uy * ex)  # along up x e
        c[6] += up
        c[7] += att.w2
        c[8] += 1
        c[12] += he
        c[13] += hf
        if c[20] < 0.0:
            c[18] = up
            c[19] = up
            c[20] = 0.0
        else:
            c[18] += dta / (self.up_dip_tau + dta) * (up - c[18])
            if c[18] > c[19]:
                c[19] = c[18]
            elif c[19] - c[18] > c[20]:
                c[20] = c[19] - c[18]
        if 2 * age >= self.confirm_skip + self.confirm_t:
            c[10] += up
            c[11] += 1
            c[14] += he
            c[15] += hf

    def held(self, c, m, t, h, att, sig2, dt):
        # type: (list, float, int, tuple, Any, float, int) -> bool
        """Does the window show a hand rather than a free body?  h: the newest reading (x, y, z); dt: the mean
        sample period."""
        if c[8] > 0 and c[6] / c[8] - self.spin_g(c) > self.flight_up_g:
            # it still feels gravity: a hand holds it up (a pump fake's brake, not fingers opening)
            return True
        dta = dt if dt > 0 else 1000
        if self._up_fell(c, sig2) or self._up_dipped(c, sig2, dta):
            # its reading along "up" fell: a hand easing its hold, as no drag does
            return True
        if self._path_rose(c, sig2, dt):
            # the reading turned up, or sideways: a hand's push, not drag on a path that gravity bends down
            return True
        # |a| climbed faster than gravity can speed a body up against its drag: a hand's swing
        return self._drag_rose(c, m, t, h, att, sig2)

    def spin_g(self, c):
        # type: (list) -> float
        """The most a spin can add to the reading over a flight candidate (g): its mean w^2 times spin_r."""
        return c[7] / c[8] * self.spin_r / G

    def _up_fell(self, c, sig2):
        # type: (list, float) -> bool
        """Did the reading along "up" fall between the flight window's halves by more than spin and noise allow?
        A free body reads only drag, -k|v|v: rising, its part along up is negative and climbs to 0 as it slows;
        falling, it grows while under half of 1 g (d(up)/dt = k g |v| (1 + sin^2 of the dive - 2 up) > 0).  So it
        never falls, bar a spin's w^2 r, which swings each half's mean by at most that.  A hand that eases a pump
        fake's brake or swings it down lets it fall."""
        nb = c[11]
        na = c[8] - nb
        if na <= 0 or nb <= 0:
            return False
        fall = (c[6] - c[10]) / na - c[10] / nb
        return fall > self._up_fall_allow(c, sig2 * (1.0 / na + 1.0 / nb))

    def _up_fall_allow(self, c, var):
        # type: (list, float) -> float
        """How far the reading along "up" may fall in a flight: a tumble's changing drag area and lift
        (up_fall_g), twice the spin's w^2 r, and up_fall_k sigmas of the fall's noise, whose variance is var."""
        return 2.0 * self.spin_g(c) + self.up_fall_g + self.up_fall_k * math.sqrt(var)

    def _up_dipped(self, c, sig2, dta):
        # type: (list, float, int) -> bool
        """Did the reading along "up", smoothed over up_dip_tau, fall anywhere in the flight window by more than
        _up_fell allows?  The halves' means miss a fall that comes back: a pump fake's arm eased its hold from 0.52
        to 0.21 g along up in 60 ms, then lifted it to 0.36 g, so the second half read more than the first.  No
        free body's reading along up falls at all (see _up_fell); the smoothed noise is sigma sqrt(a / (2 - a)) a
        sample, with a the smoothing's weight."""
        if c[8] <= 0:
            return False
        a = dta / (self.up_dip_tau + dta)
        return c[20] > self._up_fall_allow(c, 2.0 * sig2 * a / (2.0 - a))

    def _drag_rose(self, c, m, t, h, att, sig2):
        # type: (list, float, int, tuple, Any, float) -> bool
        """Did |a| climb over the flight window faster than a free body's drag can grow?  Drag is k|v|v and only
        gravity speeds a free body up against it, so d|a|/dt = 2 g (up - |a|^2) / |v| (|a| and up, the reading's
        part along up, in g), with |v| at least vt sqrt(|a|) for the slowest terminal speed: drag grows only on a
        steep fall short of its terminal speed.  Judged only for a body that turned less than drag_turn_max over
        the window (a tumble's changing drag area and lift are for confirm_rise), bounding the turn by the mean
        w^2, on the most up read (the second half's mean, a falling body's grows, or the newest reading) against
        the least |a| since.  A pump fake's upswing lifts |a| from 0.62 to 0.98 g in 80 ms, where drag could add
        0.18 g at most."""
        if c[8] <= 0 or c[11] <= 0:
            return False
        if math.sqrt(c[7] / c[8]) * (t - c[0]) * 1e-6 > self.drag_turn_max:
            return False
        up = c[10] / c[11] + self.up_fall_k * math.sqrt(sig2 / c[11])
        now = h[0] * att.ux + h[1] * att.uy + h[2] * att.uz + 3.0 * math.sqrt(sig2)
        if now > up:
            up = now
        lo = c[3] - c[5] if c[3] > c[5] else 0.0
        if up <= lo * lo:
            return m - c[3] > 2.0 * self.spin_g(c) + c[5]
        grow = 2.0 * G * (up - lo * lo) * (t - c[16]) * 1e-6 / (self.path_vt_min * math.sqrt(lo if lo > 0.001 else 0.001))
        return m - c[3] > grow + 2.0 * self.spin_g(c) + c[5]

    def _path_rose(self, c, sig2, dt):
        # type: (list, float, int) -> bool
        """Did the reading turn between the flight window's halves as no drag does?  A free body reads drag, -k|v|v
        (and a tumble's lift, a fraction of it), so the reading's angle below the horizontal is its flight path's
        above it, and gravity only bends the path down (d(gamma)/dt = -g cos(gamma) / |v|); and its horizontal
        part keeps the direction opposite the horizontal velocity, which neither gravity nor drag turns.  Judged
        only when both halves read a horizontal part above spin's and the noise's reach."""
        nb = c[11]
        na = c[8] - nb
        if na <= 0 or nb <= 0:
            return False
        u1 = (c[6] - c[10]) / na
        u2 = c[10] / nb
        h1e = (c[12] - c[14]) / na
        h1f = (c[13] - c[15]) / na
        h2e = c[14] / nb
        h2f = c[15] / nb
        h1 = math.sqrt(h1e * h1e + h1f * h1f)
        h2 = math.sqrt(h2e * h2e + h2f * h2f)
        err = 2.0 * self.spin_g(c) + self.up_fall_k * math.sqrt(sig2 / (na if na < nb else nb))
        gate = self.path_min_g if self.path_min_g > 3.0 * err else 3.0 * err
        r1 = math.sqrt(u1 * u1 + h1 * h1)
        r2 = math.sqrt(u2 * u2 + h2 * h2)
        if r1 <= 0.0 or r2 <= 0.0:
            return False
        rise = math.atan2(-u2, h2) - math.atan2(-u1, h1)  # of the reading's angle below the horizontal
        allow = self.path_rise_a + err / r1 + err / r2
        lo = (r1 if r1 < r2 else r2) - err
        if lo >= gate:
            # drag of lo g means |v| >= vt sqrt(lo); gravity turns the path down by at most g dt / |v| between the
            # halves' middles
            bend = G * (na + nb) * 0.5e-6 * dt / (self.path_vt_min * math.sqrt(lo))
            if -rise > allow + bend:
                return True
        if h1 < gate or h2 < gate:
            return False
        turn = math.atan2(abs(h1e * h2f - h1f * h2e), h1e * h2e + h1f * h2f)  # the horizontal part's, 0-pi
        if turn > self.path_rise_a + err / h1 + err / h2:
            return True
        return rise > allow
