# Attitude of the motion detector (see detector.py), only when feed() is given the gyroscope's angular rate.
#
# World "up" in body axes is turned by the rate (its zero-rate offset learnt at rest), pulled towards the reading over
# up_tau while something carries it near 1 g, and set to the mean vector at rest.  A flight is then told from a hand
# that holds it: a free body reads no gravity, a held one 1 g up, whatever the spin or tumble did to the axes.
# MicroPython firmware: no typing at runtime, type hints in comments.

import math

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: MicroPython has no typing module
    from typing import Any  # noqa: F401 -- used by the type comments

# how update() may move "up" besides turning it with the body
UP_REST = 0  # lying still: up is the mean vector
UP_PULL = 1  # carried or in a hand: pulled towards a reading near 1 g
UP_FREE = 2  # a flight or its candidate: turned only


class Attitude:
    """World "up" (ux, uy, uz) and a world-fixed horizontal (ex, ey, ez) in body axes, the rate less its offset
    (gpx.. the newest, wlx.. averaged over stat_tau, w2 its newest |w|^2) and the offset's own state."""

    PARAMS = ("stat_tau", "up_tau", "up_gate", "gyro_bias_tau", "gyro_bias_t", "rest_turn_w")

    def __getattr__(self, name):
        # type: (str) -> Any
        """Only reached for a name never set: the detector sets every name in PARAMS (this tells mypy so)."""
        raise AttributeError(name)

    def __init__(self):
        # type: () -> None
        self.on = False  # feed() has been given a rate
        self.ux = 0.0  # world "up" in body axes, a unit vector
        self.uy = 0.0
        self.uz = 1.0
        self.gbx = 0.0  # the gyroscope's zero-rate offset, rad/s, learnt at rest
        self.gby = 0.0
        self.gbz = 0.0
        self.dt = 0  # us since the previous rate sample
        self.gb_t = 0  # how long (us) the offset has been averaged at rest: trusted from gyro_bias_t
        self.gpx = 0.0  # the previous sample's rate (offset removed)
        self.gpy = 0.0
        self.gpz = 0.0
        self.w2 = 0.0  # |w|^2 of the newest sample, (rad/s)^2
        self.wlx = 0.0  # the rate, less the offset, averaged over stat_tau (rad/s)
        self.wly = 0.0
        self.wlz = 0.0
        self.ex = 1.0  # a world-fixed horizontal in body axes, set at each flight candidate
        self.ey = 0.0
        self.ez = 0.0
        self.t = 0

    def update(self, t, ax, ay, az, m, gx, gy, gz, mode, turn_e, rx, ry, rz):
        # type: (int, float, float, float, float, float, float, float, int, bool, float, float, float) -> None
        """Take one sample's rate; mode is UP_REST (rx, ry, rz: the resting mean vector), UP_PULL or UP_FREE;
        turn_e: a flight candidate's horizontal turns with the body too."""
        if not self.on:
            self.on = True
            self.t = t
            if m > 0.5:
                self.ux = ax / m
                self.uy = ay / m
                self.uz = az / m
            self.gpx = gx
            self.gpy = gy
            self.gpz = gz
            return
        dt_us = t - self.t
        self.t = t
        self.dt = dt_us
        wx = gx - self.gbx
        wy = gy - self.gby
        wz = gz - self.gbz
        # the rate over the interval: the mean of its ends
        mx = 0.5 * (wx + self.gpx)
        my = 0.5 * (wy + self.gpy)
        mz = 0.5 * (wz + self.gpz)
        self.gpx = wx
        self.gpy = wy
        self.gpz = wz
        self.w2 = wx * wx + wy * wy + wz * wz
        k = dt_us / (self.stat_tau + dt_us)
        self.wlx += (wx - self.wlx) * k
        self.wly += (wy - self.wly) * k
        self.wlz += (wz - self.wlz) * k
        ux = self.ux
        uy = self.uy
        uz = self.uz
        w2 = mx * mx + my * my + mz * mz
        if w2 > 0.0:
            # a world-fixed vector seen from the turning body turns by -w dt (Rodrigues)
            wn = math.sqrt(w2)
            th = wn * dt_us * 1e-6
            kx = mx / wn
            ky = my / wn
            kz = mz / wn
            c = math.cos(th)
            sn = math.sin(th)
            kd = (kx * ux + ky * uy + kz * uz) * (1.0 - c)
            cx = ky * uz - kz * uy
            cy = kz * ux - kx * uz
            cz = kx * uy - ky * ux
            ux = ux * c - cx * sn + kx * kd
            uy = uy * c - cy * sn + ky * kd
            uz = uz * c - cz * sn + kz * kd
            if turn_e:
                ex = self.ex
                ey = self.ey
                ez = self.ez
                kd = (kx * ex + ky * ey + kz * ez) * (1.0 - c)
                cx = ky * ez - kz * ey
                cy = kz * ex - kx * ez
                cz = kx * ey - ky * ex
                self.ex = ex * c - cx * sn + kx * kd
                self.ey = ey * c - cy * sn + ky * kd
                self.ez = ez * c - cz * sn + kz * kd
        if mode == UP_REST:
            ux = rx
            uy = ry
            uz = rz
        elif mode == UP_PULL and m > 0.0 and abs(m - 1.0) < self.up_gate:
            k = dt_us / (self.up_tau + dt_us)
            ux += (ax / m - ux) * k
            uy += (ay / m - uy) * k
            uz += (az / m - uz) * k
        n = math.sqrt(ux * ux + uy * uy + uz * uz)
        if n > 0.0:
            self.ux = ux / n
            self.uy = uy / n
            self.uz = uz / n

    def learn_offset(self, gx, gy, gz):
        # type: (float, float, float) -> None
        """Lying still, the gyroscope reads its own zero-rate offset: a plain mean over the first gyro_bias_tau of
        rest (known as soon as it lies still), a slow average after that (it drifts with temperature).  Only from
        samples the accelerometer has judged still: the one that leaves rest is already turning."""
        dt = self.dt
        self.gb_t += dt
        k = dt / (self.gyro_bias_tau + dt)
        if dt / self.gb_t > k:
            k = dt / self.gb_t
        self.gbx += (gx - self.gbx) * k
        self.gby += (gy - self.gby) * k
        self.gbz += (gz - self.gbz) * k

    def known(self):
        # type: () -> bool
        """The gyroscope is on and its offset has been averaged long enough to judge slow turns."""
        return self.on and self.gb_t >= self.gyro_bias_t

    def turning(self):
        # type: () -> bool
        """With the gyroscope and a known offset: does it turn at rest_turn_w or more?  A body lying on something
        does not turn at all; a hand that holds it still for the accelerometer (a still hand under 15 mg of noise)
        still turns it at 0.3 dps or more.  Such a hand taken for a rest taught the offset its turn (0.9 dps off
        after 0.19 s), and every look after that saw a lying burrito turn.  An offset learnt from such a hand is
        mended once the accelerometer has found it still for rest_doubt_t (forget_offset)."""
        if not self.on or self.gb_t < self.gyro_bias_t:
            return False
        return self.wlx * self.wlx + self.wly * self.wly + self.wlz * self.wlz >= \
            self.rest_turn_w * self.rest_turn_w

    def forget_offset(self):
        # type: () -> None
        """Learn the offset again from the next rest (it was learnt from a still hand)."""
        self.gb_t = 0

    def set_horizontal(self):
        # type: () -> None
        """A unit vector at right angles to "up" (the body axis least along it, less its part along up)."""
        ux = self.ux
        uy = self.uy
        uz = self.uz
        if abs(ux) <= abs(uy) and abs(ux) <= abs(uz):
            ex, ey, ez = 1.0 - ux * ux, -ux * uy, -ux * uz
        elif abs(uy) <= abs(uz):
            ex, ey, ez = -uy * ux, 1.0 - uy * uy, -uy * uz
        else:
            ex, ey, ez = -uz * ux, -uz * uy, 1.0 - uz * uz
        n = math.sqrt(ex * ex + ey * ey + ez * ez)
        self.ex = ex / n
        self.ey = ey / n
        self.ez = ez / n
