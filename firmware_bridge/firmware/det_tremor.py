# Tremor band of the motion detector (see detector.py): the 8-12 Hz physiological tremor of a hand holding something.
#
# Two cascaded RBJ band-pass biquads per axis, designed for the measured sample period; the band's energy, averaged
# over trem_tau, is the tremor power the hand and rest tests compare with the noise floor's share of the band.
# MicroPython firmware: no typing at runtime, type hints in comments.

import math

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: MicroPython has no typing module
    from typing import Any  # noqa: F401 -- used by the type comments


class Tremor:
    """Band-pass energy of the newest sample (bpe), its average (power) and the filter's white-noise gain (gain)."""

    PARAMS = ("trem_f0", "trem_q", "trem_tau")

    def __getattr__(self, name):
        # type: (str) -> Any
        """Only reached for a name never set: the detector sets every name in PARAMS (this tells mypy so)."""
        raise AttributeError(name)

    def __init__(self):
        # type: () -> None
        self.bq_dt = 0  # the sample period the filter was designed for (0: design at the next sample)
        self.b0 = self.b2 = self.a1 = self.a2 = 0.0
        self.bx = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        self.by = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        self.bz = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        self.power = 0.0
        self.bpe = 0.0
        self.gain = 0.0  # fraction of white-noise power the band-pass lets through

    def reset(self, ax, ay, az):
        # type: (float, float, float) -> None
        """Restart the band-pass from this sample: a contact makes it ring for ~0.3 s."""
        self.bx = [ax, ax, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        self.by = [ay, ay, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        self.bz = [az, az, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        self.power = 0.0

    def step(self, ax, ay, az, dt):
        # type: (float, float, float, int) -> None
        """Filter one sample, dt us (the running mean period) after the one before."""
        if dt > 0:
            if self.bq_dt == 0 or abs(dt - self.bq_dt) * 10 > self.bq_dt:
                self.design(dt)
            e = self.bp(self.bx, ax) ** 2 + self.bp(self.by, ay) ** 2 + self.bp(self.bz, az) ** 2
            self.bpe = e
            self.power += (e - self.power) * (dt / (self.trem_tau + dt))

    def design(self, dt):
        # type: (int) -> None
        w0 = 2.0 * math.pi * self.trem_f0 * dt * 1e-6
        al = math.sin(w0) / (2.0 * self.trem_q)
        a0 = 1.0 + al
        self.b0 = al / a0
        self.b2 = -al / a0
        self.a1 = -2.0 * math.cos(w0) / a0
        self.a2 = (1.0 - al) / a0
        self.bq_dt = dt
        # white-noise power gain of the two cascaded sections: the energy of the impulse response
        st = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        g = 0.0
        x = 1.0
        n = int(2000000 // dt)
        if n > 4000:
            n = 4000
        for _ in range(n):
            y = self.bp(st, x)
            g += y * y
            x = 0.0
        self.gain = g

    def bp(self, s, x):
        # type: (list, float) -> float
        """Two cascaded band-pass biquads; s = [x1, x2, y1, y2, u1, u2, v1, v2]."""
        b0 = self.b0
        b2 = self.b2
        a1 = self.a1
        a2 = self.a2
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
