# Noise floor of the motion detector (see detector.py): the sensor's own noise, and every threshold set by it.
#
# At rest the difference of two samples is pure noise (6 sigma^2 summed over axes for white noise); a hand, a flight
# or a contact only add to it, so the floor is the minimum of its recent energy, which creeps up slowly so that a
# noisier part (or a warmer one) is learnt too.  The rest, tremor and leave-rest thresholds are multiples of it, with
# fixed floors.  MicroPython firmware: no typing at runtime, type hints in comments.

import math

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: MicroPython has no typing module
    from typing import Any  # noqa: F401 -- used by the type comments


class NoiseFloor:
    """The lowest recent energy of sample-to-sample differences, and the thresholds that are multiples of it.

    Read after update(): sig2 (per-axis noise variance, 0 until known), still_var, trem_thr2, leave2, leave_mean2 and
    onset2 (squared thresholds; 0 until the floor is first known)."""

    PARAMS = ("noise_tau", "noise_rise_tau", "noise_max", "still_std", "noise_still_k", "trem_min", "noise_trem_k",
              "leave_dev", "noise_leave_k", "stat_tau", "leave_mean_dev", "leave_onset_dev")

    def __getattr__(self, name):
        # type: (str) -> Any
        """Only reached for a name never set: the detector sets every name in PARAMS (this tells mypy so)."""
        raise AttributeError(name)

    def __init__(self):
        # type: () -> None
        self.dvar = 0.0  # sum over axes of the squared sample-to-sample difference, averaged over noise_tau
        self.floor = -1.0
        self.sig2 = 0.0
        self.still_var = 0.0
        self.trem_thr2 = 0.0
        self.leave2 = 0.0
        self.leave_mean2 = 0.0
        self.onset2 = 0.0

    def update(self, e, n, dt, bp_gain):
        # type: (float, int, int, float) -> None
        """Take the newest difference energy e (the n-th sample, dt us apart on average; bp_gain: the share of white
        noise the tremor band-pass lets through)."""
        dta = dt if dt > 0 else 1000
        self.dvar += (e - self.dvar) * (dta / (self.noise_tau + dta))
        if self.floor < 0.0:
            if n * dt < self.noise_tau:
                return
            self.floor = self.dvar
        elif self.dvar < self.floor:
            self.floor = self.dvar
        else:
            # creep up by a factor (doubling in ~0.7 noise_rise_tau), never faster: flights and contacts are loud
            up = self.floor * (1.0 + dt / self.noise_rise_tau)
            self.floor = up if up < self.dvar else self.dvar
        cap = 6.0 * self.noise_max * self.noise_max
        if self.floor > cap:
            self.floor = cap
        s2 = self.floor / 6.0
        self.sig2 = s2
        v = self.still_std * self.still_std
        k = self.noise_still_k * 3.0 * s2
        self.still_var = v if v > k else k
        v = self.trem_min * self.trem_min
        k = self.noise_trem_k * 3.0 * s2 * bp_gain
        self.trem_thr2 = v if v > k else k
        sv = math.sqrt(3.0 * s2)
        v = self.leave_dev
        k = self.noise_leave_k * sv
        v = v if v > k else k
        self.leave2 = v * v
        # the 60 ms mean leaves rest too: 6 sigmas of its own noise (a lift's 0.08-0.75 g shows there long before
        # a single sample clears 5 noise sigmas under a 15 mg sensor)
        a = dta / (self.stat_tau + dta)
        k = 6.0 * math.sqrt(3.0 * s2 * a / (2.0 - a))
        v = self.leave_mean_dev if self.leave_mean_dev > k else k
        self.leave_mean2 = v * v
        v = self.leave_onset_dev
        k = 2.5 * sv
        v = v if v > k else k
        self.onset2 = v * v
