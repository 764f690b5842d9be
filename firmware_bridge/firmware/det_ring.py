# Sample ring of the motion detector (see detector.py): the last RING samples, the mean sample period, and the two
# lagged samples (about lag1 and lag2 ago) that the contact residual extrapolates from.
#
# Every part that walks back over recent samples (a stamp at the first sample of a run, the largest |a| since a
# time) reads them here.  Works at any rate from 200 Hz: the lags are times, never sample counts.  MicroPython
# firmware: no typing at runtime, type hints in comments.

import math

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: MicroPython has no typing module
    from typing import Any  # noqa: F401 -- used by the type comments

RING = 2048  # samples kept: >= 0.6 s at 3.3 kHz


class Ring:
    """t, x, y, z, m: stamp, reading and |a| of each kept sample; head: the newest's index; n: samples seen; dt: the
    running mean sample period (0 until two samples); i1, i2: the samples ~lag1 and ~lag2 before the newest."""

    PARAMS = ("lag1", "lag2")

    def __getattr__(self, name):
        # type: (str) -> Any
        """Only reached for a name never set: the detector sets every name in PARAMS (this tells mypy so)."""
        raise AttributeError(name)

    def __init__(self):
        # type: () -> None
        self.n = 0
        self.t = [0] * RING
        self.x = [0.0] * RING
        self.y = [0.0] * RING
        self.z = [0.0] * RING
        self.m = [0.0] * RING
        self.head = -1
        self.i1 = 0  # ring position of the sample ~lag1 ago
        self.i2 = 0  # ... ~lag2 ago
        self.last_t = None  # type: Any
        self.dt = 0

    def push(self, t_us, ax, ay, az):
        # type: (int, float, float, float) -> float
        """Keep one sample (stamps must increase); return its |a|."""
        if self.last_t is not None:
            dt = t_us - self.last_t
            if dt <= 0:
                raise ValueError("time does not increase")
            if self.dt == 0:
                self.dt = dt
            else:
                self.dt += (dt - self.dt) // 8
        self.last_t = t_us
        m = math.sqrt(ax * ax + ay * ay + az * az)
        h = (self.head + 1) % RING
        self.head = h
        self.t[h] = t_us
        self.x[h] = ax
        self.y[h] = ay
        self.z[h] = az
        self.m[h] = m
        self.n += 1
        # the lagged samples follow the newest
        n = self.n if self.n < RING else RING
        oldest = (h - n + 1) % RING
        if (self.i1 - oldest) % RING >= n:
            self.i1 = oldest
        if (self.i2 - oldest) % RING >= n:
            self.i2 = oldest
        rt = self.t
        while self.i1 != h and rt[(self.i1 + 1) % RING] <= t_us - self.lag1:
            self.i1 = (self.i1 + 1) % RING
        while self.i2 != h and rt[(self.i2 + 1) % RING] <= t_us - self.lag2:
            self.i2 = (self.i2 + 1) % RING
        return m

    def kept(self):
        # type: () -> int
        """How many samples the ring holds."""
        return self.n if self.n < RING else RING

    def alpha(self, tau):
        # type: (int) -> float
        """Weight of one sample in an average over tau (us)."""
        dt = self.dt if self.dt > 0 else 1000
        return dt / (tau + dt)

    def have_lags(self, t):
        # type: (int) -> bool
        return self.n > 3 and t - self.t[self.i2] >= self.lag2 and self.i1 != self.i2

    def residual(self, t, ax, ay, az):
        # type: (int, float, float, float) -> float
        """|a - linear extrapolation from the samples ~20 ms and ~10 ms ago|."""
        i1 = self.i1
        i2 = self.i2
        t1 = self.t[i1]
        t2 = self.t[i2]
        k = (t - t1) / (t1 - t2)
        x1 = self.x[i1]
        y1 = self.y[i1]
        z1 = self.z[i1]
        dx = ax - (x1 + (x1 - self.x[i2]) * k)
        dy = ay - (y1 + (y1 - self.y[i2]) * k)
        dz = az - (z1 + (z1 - self.z[i2]) * k)
        return math.sqrt(dx * dx + dy * dy + dz * dz)

    def at(self, tq):
        # type: (int) -> int
        """Ring index of the newest sample at or before tq (the oldest kept if none)."""
        j = self.head
        n = 0
        limit = self.n if self.n < RING else RING
        while n < limit - 1 and self.t[j] > tq:
            j = (j - 1) % RING
            n += 1
        return j

    def max_dev(self, ref, t0, t1):
        # type: (tuple, int, int) -> float
        """Largest distance from ref of the samples from t0 up to (not including) t1."""
        rx = ref[0]
        ry = ref[1]
        rz = ref[2]
        j = self.head
        n = 0
        best = 0.0
        limit = self.n if self.n < RING else RING
        while n < limit and self.t[j] >= t0:
            if self.t[j] < t1:
                dx = self.x[j] - rx
                dy = self.y[j] - ry
                dz = self.z[j] - rz
                d = dx * dx + dy * dy + dz * dz
                if d > best:
                    best = d
            j = (j - 1) % RING
            n += 1
        return math.sqrt(best)

    def max_m_since(self, t0):
        # type: (int) -> float
        """Largest |a| in the ring from t0 on."""
        j = self.head
        n = 0
        best = 0.0
        limit = self.n if self.n < RING else RING
        while n < limit and self.t[j] >= t0:
            if self.m[j] > best:
                best = self.m[j]
            j = (j - 1) % RING
            n += 1
        return best
