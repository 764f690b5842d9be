# Stillness of the motion detector (see detector.py): is it lying still, and since when?
#
# Still = quiet (the vector's variance under still_var, a multiple of the noise floor's with a fixed floor), |a|
# within still_dev of 1 g (lying on a surface, level or tilted, never in flight) and no hand's tremor; with the
# gyroscope and its offset known, also not turning (a still hand turns what it holds at 0.3 dps or more), unless
# the accelerometer has found it still for rest_doubt_t (then the offset was learnt from a hand, and is learnt again).
# Mean and variance are clamped per sample, so one contact spike does not hide stillness for long.  MicroPython
# firmware: no typing at runtime, type hints in comments.

try:  # on the board the parts are modules next to this one; on the host, in this package
    from det_ring import RING
except ImportError:
    from firmware_bridge.firmware.det_ring import RING

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: MicroPython has no typing module
    from typing import Any  # noqa: F401 -- used by the type comments


class Stillness:
    """mx, my, mz: the robust running mean vector (over stat_tau); var: its variance; since: still since (None: not
    still)."""

    PARAMS = ("mean_clamp", "var_clamp", "still_dev", "rest_doubt_t", "rest_back_dev")

    def __getattr__(self, name):
        # type: (str) -> Any
        """Only reached for a name never set: the detector sets every name in PARAMS (this tells mypy so)."""
        raise AttributeError(name)

    def __init__(self):
        # type: () -> None
        self.mx = 0.0
        self.my = 0.0
        self.mz = 1.0
        self.var = 1.0
        self.since = None  # type: Any
        self.quiet_since = None  # type: Any  # still to the accelerometer since (the gyroscope aside)

    def start(self, ax, ay, az):
        # type: (float, float, float) -> None
        """Begin from the first sample, not from a guess."""
        self.mx = ax
        self.my = ay
        self.mz = az
        self.var = 0.0

    def update(self, t, ax, ay, az, m, a, still_var, trem_quiet, att):
        # type: (int, float, float, float, float, float, float, bool, Any) -> None
        """Take one sample (a: its weight over stat_tau; still_var: the noise floor's variance limit; trem_quiet:
        no hand's tremor in the band; att: the Attitude, which may veto a still hand)."""
        c = self.mean_clamp
        dx = min(c, max(-c, ax - self.mx))
        dy = min(c, max(-c, ay - self.my))
        dz = min(c, max(-c, az - self.mz))
        self.mx += dx * a
        self.my += dy * a
        self.mz += dz * a
        e = dx * dx + dy * dy + dz * dz
        if e > self.var_clamp:
            e = self.var_clamp
        self.var += (e - self.var) * a
        # still = quiet, 1 g, and no hand tremor (a hand held steady is quiet too)
        still = self.var < still_var and abs(m - 1.0) < self.still_dev and trem_quiet
        if not still:
            self.quiet_since = None
        else:
            if self.quiet_since is None:
                self.quiet_since = t
            if att.turning():
                if t - self.quiet_since < self.rest_doubt_t:
                    still = False
                else:
                    # quiet that long and still turning: no hand holds so still, the offset was learnt from one
                    att.forget_offset()
        if still:
            if self.since is None:
                self.since = t
        else:
            self.since = None

    def still_for(self, t):
        # type: (int) -> int
        """How long (us) it has been still at t; -1 if it is not."""
        if self.since is None:
            return -1
        return t - self.since

    def mean(self):
        # type: () -> tuple
        return (self.mx, self.my, self.mz)

    def stamp(self, ring, sig2):
        # type: (Any, float) -> int
        """First sample of the still stretch: after the last one far from the resting vector."""
        mx = self.mx
        my = self.my
        mz = self.mz
        lim = self.rest_back_dev * self.rest_back_dev
        k = 16.0 * 3.0 * sig2  # 4 noise sigmas (vector): a noisy part's still samples scatter that far
        if k > lim:
            lim = k
        j = ring.head
        stamp = ring.t[j]
        n = 0
        limit = ring.n if ring.n < RING else RING
        while n < limit:
            dx = ring.x[j] - mx
            dy = ring.y[j] - my
            dz = ring.z[j] - mz
            if dx * dx + dy * dy + dz * dz > lim:
                break
            stamp = ring.t[j]
            j = (j - 1) % RING
            n += 1
        return stamp
