"""Per-device clock sync: NTP-style offset and drift, filtered the way PX4's timesync does it.

Each exchange gives t1 (host sends), t2 (device receives), t3 (device replies), t4 (host receives), all in
microseconds. The offset sample is ``((t2 - t1) + (t3 - t4)) / 2`` (device minus host) and its error is at most half the
round trip ``(t4 - t1) - (t3 - t2)``. As in PX4 (``src/lib/timesync/Timesync.cpp``):

- samples with a round trip over 10 ms are rejected (a radio spike makes the delays lopsided);
- a double-exponential filter tracks offset and drift. Here it is written as its exact equivalent, Brown's
  discounted least-squares line fit (forgetting time constant ``tau_s``), which handles irregular sample times. Each
  sample is weighted by 1/rtt^2, so a 2 ms round trip counts 25 times as much as a 10 ms one;
- after ``reset_after`` samples in a row that disagree with the estimate by more than 100 ms (the device rebooted or
  its clock jumped) the filter resets and starts from the newest sample.
"""

from __future__ import annotations

import math

MAX_RTT_US = 10_000.0
RESET_DISAGREE_US = 100_000.0
RESET_AFTER = 4
MAX_DRIFT = 1e-3  # 1000 ppm; real crystals are within +-50 ppm


class ClockSync:
    """Offset/drift estimate of one device clock against the host clock (both in microseconds)."""

    def __init__(self, max_rtt_us: float = MAX_RTT_US, tau_s: float = 120.0, min_samples: int = 6,
                 min_span_s: float = 20.0, reset_after: int = RESET_AFTER) -> None:
        self.max_rtt_us = max_rtt_us
        self.tau_us = tau_s * 1e6
        self.min_samples = min_samples
        self.min_span_us = min_span_s * 1e6
        self.reset_after = reset_after
        self.rejected_rtt = 0
        self.rejected_outlier = 0
        self.resets = 0
        self.last_rtt_us: float | None = None
        self.accepted_rtt_us: float | None = None  # round trip of the last sample used: bounds its error (half)
        self.reset()

    def reset(self) -> None:
        """Forget everything (device rebooted)."""
        self.accepted = 0
        self._xc = 0.0  # host time the sums are centred on
        self._s0 = self._s1 = self._s2 = self._sy = self._sxy = 0.0
        self._first_x = 0.0
        self._disagree = 0
        self.offset_us = 0.0  # device - host at host time _xc
        self.drift = 0.0  # d(offset)/d(host time), dimensionless

    @property
    def synced(self) -> bool:
        return self.accepted >= self.min_samples

    @property
    def converged(self) -> bool:
        """Synced and the samples span long enough to estimate drift; until then, ask for samples fast."""
        return self.synced and self._xc - self._first_x >= self.min_span_us

    @property
    def drift_ppm(self) -> float:
        return self.drift * 1e6

    def offset_at(self, host_us: float) -> float:
        return self.offset_us + self.drift * (host_us - self._xc)

    def add(self, t1: float, t2: float, t3: float, t4: float) -> bool:
        """Feed one exchange; True if it was used."""
        rtt = (t4 - t1) - (t3 - t2)
        self.last_rtt_us = rtt
        if rtt < 0 or rtt > self.max_rtt_us or t3 < t2:
            self.rejected_rtt += 1
            return False
        theta = ((t2 - t1) + (t3 - t4)) / 2.0
        x = (t1 + t4) / 2.0
        if self.accepted:
            if abs(theta - self.offset_at(x)) > RESET_DISAGREE_US:
                self._disagree += 1
                if self._disagree < self.reset_after:
                    self.rejected_outlier += 1
                    return False
                self.resets += 1
                self.reset()
            else:
                self._disagree = 0
        self._add(x, theta, 1.0 / max(rtt, 500.0) ** 2)
        self.accepted_rtt_us = rtt
        return True

    def _add(self, x: float, y: float, w: float) -> None:
        if self.accepted == 0:
            self._xc = x
            self._first_x = x
        else:
            # discount old samples, then move the centre to x (keeps the sums small and well conditioned)
            k = math.exp(-(x - self._xc) / self.tau_us) if x > self._xc else 1.0
            d = x - self._xc
            s0, s1, s2, sy, sxy = (self._s0 * k, self._s1 * k, self._s2 * k, self._sy * k, self._sxy * k)
            self._s2 = s2 - 2 * d * s1 + d * d * s0
            self._sxy = sxy - d * sy
            self._s1 = s1 - d * s0
            self._s0, self._sy = s0, sy
            self._xc = x
        self._s0 += w
        self._sy += w * y
        self.accepted += 1
        s0, s1, s2, sy, sxy = self._s0, self._s1, self._s2, self._sy, self._sxy
        var = s2 / s0 - (s1 / s0) ** 2
        if x - self._first_x >= self.min_span_us and var > 0:
            b = (s0 * sxy - s1 * sy) / (s0 * s2 - s1 * s1)
            self.drift = max(-MAX_DRIFT, min(MAX_DRIFT, b))
        # the line through the weighted mean with slope drift, evaluated at the centre x
        self.offset_us = (sy - self.drift * s1) / s0

    def to_host_us(self, device_us: float) -> float:
        """Device time -> host time: solves h = d - offset(h) exactly for the linear model."""
        return (device_us - self.offset_us + self.drift * self._xc) / (1.0 + self.drift)

    def to_device_us(self, host_us: float) -> float:
        return host_us + self.offset_at(host_us)
