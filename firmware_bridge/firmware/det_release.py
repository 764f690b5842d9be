# Release of the motion detector (see detector.py): when did the fingers open, and is this a plain drop?
#
# Fingers open in 3-12 ms, so a let-go sheds the hand's push abruptly: |a| falls by release_drop (release_drop_gyro
# with the gyroscope) within release_max_t plus 1.5 sample periods, tracked on every raw sample; with the gyroscope
# the vector may swing instead, less the body's own turn.  An arm reversing a pump fake sheds its push as fast, then
# pushes again: a fall that |a| climbs back confirm_rise from was no release.  A plain drop is a free fall's level
# (|a| under drop_g, within drop_range) held for drop_t.  The release is stamped where |a| reached the flight's level
# and the let-go ends where the reading settles on it.  MicroPython firmware: no typing at runtime, type hints in
# comments.

import math

try:  # on the board the parts are modules next to this one; on the host, in this package
    from det_ring import RING
except ImportError:
    from firmware_bridge.firmware.det_ring import RING

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: MicroPython has no typing module
    from typing import Any  # noqa: F401 -- used by the type comments


class Release:
    """rel_t: the newest abrupt fall (a release) seen in a hand (-1: none), rel_lo the lowest |a| since it, rel_vec:
    only the vector (not |a|) swung there; low_since: the start of the current stretch of |a| under drop_g (None:
    none; low_in its first sample, low_lo and low_hi its extremes)."""

    PARAMS = ("release_look_t", "release_max_t", "release_drop", "release_drop_gyro", "windup_flight_max",
              "confirm_rise", "confirm_skip", "drop_g", "drop_onset_g", "drop_range", "drop_t", "release_frac")

    def __getattr__(self, name):
        # type: (str) -> Any
        """Only reached for a name never set: the detector sets every name in PARAMS (this tells mypy so)."""
        raise AttributeError(name)

    def __init__(self, ring):
        # type: (Any) -> None
        self.ring = ring
        self.rel_t = -1
        self.rel_lo = 0.0
        self.rel_vec = False
        self.low_since = None  # type: Any
        self.low_in = 0
        self.low_lo = 0.0
        self.low_hi = 0.0

    def abrupt(self, t):
        # type: (int) -> bool
        """Was the fall from the windup a release?  Fingers open in 3-12 ms, so |a| fell by >= release_drop within
        release_max_t (plus 1.5 sample periods of timing) at most release_look_t ago, tracked on every raw sample
        (the smoothed |a| that starts this test lags them).  An arm swinging the burrito sheds its push at <= 25
        g/s: 0.35 g in 14 ms, 0.49 g in the 19.5 ms a 200 Hz part needs, never release_drop.  An arm reversing a
        hard pump fake can shed it at 60 g/s, but then pushes again: a fall that |a| climbs back from is dropped
        (track).  With the gyroscope the bound is release_drop_gyro: an arc can ease its push off before
        the let-go, and a hand's easing that passes it is turned away by the flight's gravity and path tests."""
        return self.rel_t >= 0 and t - self.rel_t <= self.release_look_t

    def track(self, t, m, att):
        # type: (int, float, Any) -> None
        """Note the newest abrupt fall: the highest |a| of the last release_max_t (+1.5 samples) against now."""
        w = self.release_max_t + (3 * self.ring.dt) // 2
        hi = m
        j = self.ring.head
        n = 0
        limit = self.ring.n if self.ring.n < RING else RING
        while n < limit and self.ring.t[j] >= t - w:
            if self.ring.m[j] > hi:
                hi = self.ring.m[j]
            j = (j - 1) % RING
            n += 1
        drop = self.release_drop_gyro if att.on else self.release_drop
        if hi - m >= drop:
            self.rel_t = t
            self.rel_lo = m
            self.rel_vec = False
        elif (att.on and m <= self.windup_flight_max and (self.rel_t < 0 or self.rel_vec)
              and self._vector_release(t, m, w, self.release_drop, att)):
            # a fall of |a| still in look stands: the let-go's own tail swings the vector as well
            self.rel_t = t
            self.rel_lo = m
        elif self.rel_t >= 0:
            # |a| back up by more than a flight's tumble swings: the hand still pushes it (an arm reversing a pump
            # fake sheds its push as fast as fingers open, then pushes again), so that fall was no release
            if m < self.rel_lo:
                self.rel_lo = m
            elif m - self.rel_lo > self.confirm_rise:
                self.rel_t = -1

    def _vector_release(self, t, m, w, drop, att):
        # type: (int, float, int, float, Any) -> bool
        """Did the vector swing by drop within the last w, less the body's own turn?  An arm that eased its push
        to or under the flight's w^2 r before the let-go sheds little |a| (2.9 -> 0.47 g over 90 ms, then 0.73 g in
        flight), but the fingers opening still swing the vector as the hand's push gives way to the spin's (0.95 g
        in 5 ms).  The body turning at w moves a reading of |a| by at most |a| w dt.  The bound is release_drop,
        not release_drop_gyro: an arm can redirect its push without turning the body, which the vector sees and
        |a| does not (a pump fake's brake at 200 Hz swung it 0.67 g in 15 ms)."""
        h = self.ring.head
        x = self.ring.x[h]
        y = self.ring.y[h]
        z = self.ring.z[h]
        wr = math.sqrt(att.w2) * 1e-6
        j = (h - 1) % RING
        n = 1
        limit = self.ring.n if self.ring.n < RING else RING
        while n < limit and self.ring.t[j] >= t - w:
            dx = self.ring.x[j] - x
            dy = self.ring.y[j] - y
            dz = self.ring.z[j] - z
            mj = self.ring.m[j]
            if math.sqrt(dx * dx + dy * dy + dz * dz) - wr * (t - self.ring.t[j]) * (mj if mj > m else m) >= drop:
                self.rel_vec = True
                return True
            j = (j - 1) % RING
            n += 1
        return False

    def level_fall(self, t, m):
        # type: (int, float) -> bool
        """A plain drop's free fall: |a| under drop_g, level within drop_range (an arm swinging it down passes
        through low |a|; a free fall stays level), for drop_t counted from the first sample under drop_g: an arm
        braking a pump fake eases |a| down through 0.5-0.2 g over 100 ms while it still holds it.  When fingers
        were seen opening as the stretch began (an abrupt fall, track), it is counted from there, where
        |a| first dipped under drop_onset_g: a flight's drag and tumble can hold it over drop_g for a while."""
        if m >= self.drop_g:
            if m > self.drop_onset_g:
                self.low_since = None
            return False
        if self.low_since is None:
            self.low_since = self.drop_onset()
            self.low_in = t
            self.low_lo = 99.0
            self.low_hi = -1.0
            return False
        if t - self.low_since >= self.confirm_skip:  # past the fingers' let-go
            if m < self.low_lo:
                self.low_lo = m
            if m > self.low_hi:
                self.low_hi = m
        if self.low_hi - self.low_lo > self.drop_range:
            self.low_since = None
            return False
        start = self.low_in
        if self.rel_t >= self.low_since - self.release_max_t:
            start = self.low_since
        return t - start >= self.drop_t

    def fall_onset(self):
        # type: () -> int
        """First sample of a confirmed free fall: walk back over the samples whose |a| stays near the fall's level.
        A hand swinging the burrito down before letting go passes through low |a| too (0.2-0.5 g, still held); the
        fall begins where the reading settles on the level, not where it first dipped under drop_onset_g."""
        level = 0.5 * (self.low_lo + self.low_hi) if self.low_hi >= 0.0 else self.ring.m[self.ring.head]
        tol = 0.5 * self.drop_range
        j = self.ring.head
        stamp = self.ring.t[j]
        n = 0
        limit = self.ring.n if self.ring.n < RING else RING
        while n < limit and self.ring.t[j] >= self.low_since:
            if abs(self.ring.m[j] - level) > tol:
                break
            stamp = self.ring.t[j]
            j = (j - 1) % RING
            n += 1
        return stamp

    def drop_onset(self):
        # type: () -> int
        j = self.ring.head
        onset = self.ring.t[j]
        n = 0
        limit = self.ring.n if self.ring.n < RING else RING
        while n < limit and self.ring.m[j] < self.drop_onset_g:
            onset = self.ring.t[j]
            j = (j - 1) % RING
            n += 1
        return onset

    def release_stamp(self, t_cand, level, wind_peak):
        # type: (int, float, float) -> int
        """The sample after the last one still pushed by the hand."""
        thr = level + self.release_frac * (wind_peak - level)
        j = self.ring.head
        n = 0
        limit = self.ring.n if self.ring.n < RING else RING
        while n < limit and self.ring.t[j] > t_cand:
            j = (j - 1) % RING
            n += 1
        stamp = t_cand
        if self.ring.m[j] > thr:
            # the candidate came while the hand still pushed (a release easing off over two or three samples at
            # 200 Hz): the let-go is the first sample after it within the threshold
            while j != self.ring.head and self.ring.m[j] > thr:
                j = (j + 1) % RING
            return self.ring.t[j]
        while n < limit:
            if self.ring.m[j] > thr:
                break
            stamp = self.ring.t[j]
            j = (j - 1) % RING
            n += 1
        return stamp

    def let_go_end(self, stamp, level, allow, w2=0.0, on_level=True):
        # type: (int, float, float, float, bool) -> int
        """When the fingers were off: the sample after the last one, from the release stamp, whose |a| is still
        off the flight's level by more than the noise's allowance, or whose vector still moves from the sample
        before by more than that and the flight's own turn (its reading turning with the body at w: level w dt),
        and at the latest release_max_t (plus 1.5 sample periods of timing) after the stamp, as fingers open in
        3-12 ms.  A let-go can swing |a| below the level and back within a few ms, or pass the level while its
        vector still swings (at 200 Hz, two samples of 0.2 g each); an arm braking a pump fake is still pushing
        when the cap comes.  With on_level False only the vector's steps count: a let-go seen in the vector alone,
        whose flight's |a| can drift from its mean by more than the noise (drag decaying 0.74 -> 0.59 g)."""
        cap = stamp + self.release_max_t + (3 * self.ring.dt) // 2
        step = allow + level * math.sqrt(w2) * self.ring.dt * 1e-6
        step2 = step * step
        j = self.ring.head
        n = 0
        limit = self.ring.n if self.ring.n < RING else RING
        while n < limit - 1 and self.ring.t[(j - 1) % RING] >= stamp:
            j = (j - 1) % RING
            n += 1
        end = stamp
        first = j
        while self.ring.t[j] < cap:
            moved = False
            if j != first:
                p = (j - 1) % RING
                dx = self.ring.x[j] - self.ring.x[p]
                dy = self.ring.y[j] - self.ring.y[p]
                dz = self.ring.z[j] - self.ring.z[p]
                moved = dx * dx + dy * dy + dz * dz > step2
            if moved or (on_level and abs(self.ring.m[j] - level) > allow):
                end = -1
            elif end < 0:
                end = self.ring.t[j]
            if j == self.ring.head:
                break
            j = (j + 1) % RING
        return cap if end < 0 else end
