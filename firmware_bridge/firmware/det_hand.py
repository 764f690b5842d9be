# The hand of the motion detector (see detector.py): is something holding it, and did a hand take it?
#
# A hand keeps a physiological tremor (8-12 Hz band power over the noise's, sustained: a body ringing on a surface
# after a landing dies away) and moves what it holds: the slowly filtered vector (pick_tau, which divides a rocking
# body's 6-14 Hz swing by 8-18) leaves its reference and stays away, 0.05 g for pick_t with a tremor seen, 0.15 g for
# pick_strong_t, or pick_long_t either way.  A body rocking on a soft surface swings about its rest and is never
# taken.  MicroPython firmware: no typing at runtime, type hints in comments.

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: MicroPython has no typing module
    from typing import Any  # noqa: F401 -- used by the type comments


class Hand:
    """The filtered vector (lx, ly, lz) and its reference (refx, refy, refz; ref_track: it follows an unknown resting
    vector), since when it has been away (away_since, strong_since: 3 pick_dev), whether a tremor was seen since the
    reference was set (trem_seen), and the tremor's run (held_since, its recent peak held_peak and the run's most
    held_max).  No tremor is read before trem_block (a contact makes the band-pass ring)."""

    PARAMS = ("pick_tau", "pick_dev", "support_lo", "support_hi", "trem_max", "trem_peak_tau", "trem_decay_frac",
              "pick_t", "pick_long_t", "pick_strong_t", "trem_pickup_t")

    def __getattr__(self, name):
        # type: (str) -> Any
        """Only reached for a name never set: the detector sets every name in PARAMS (this tells mypy so)."""
        raise AttributeError(name)

    def __init__(self, ring):
        # type: (Any) -> None
        self.ring = ring
        self.lx = 0.0
        self.ly = 0.0
        self.lz = 1.0
        self.refx = 0.0
        self.refy = 0.0
        self.refz = 1.0
        self.supp_since = None  # type: Any
        self.ref_track = False  # True: the reference follows the filtered vector (unknown resting vector)
        self.away_since = None  # type: Any
        self.strong_since = None  # type: Any
        self.trem_seen = False
        self.trem_block = 0
        self.held_since = None  # type: Any
        self.held_peak = 0.0
        self.held_max = 0.0

    def start(self, ax, ay, az):
        # type: (float, float, float) -> None
        """Begin the filter from the first sample."""
        self.lx = ax
        self.ly = ay
        self.lz = az

    def filter(self, t, ax, ay, az, mlp, contact):
        # type: (int, float, float, float, float, bool) -> None
        """Take one sample (mlp: the smoothed |a|; contact: a contact pulse is open)."""
        a = self.ring.alpha(self.pick_tau)
        self.lx += (ax - self.lx) * a
        self.ly += (ay - self.ly) * a
        self.lz += (az - self.lz) * a
        if self.ref_track:
            # an unknown resting vector: snap to the filtered vector until it has been supported for 3 filter
            # times (it has converged after a fall or a contact), then follow it slowly
            if self.support_lo <= mlp <= self.support_hi and not contact:
                if self.supp_since is None:
                    self.supp_since = t
            else:
                self.supp_since = None
            if self.supp_since is None or t - self.supp_since < 3 * self.pick_tau:
                a = 1.0
            else:
                a = self.ring.alpha(1000000)
            self.refx += (self.lx - self.refx) * a
            self.refy += (self.ly - self.refy) * a
            self.refz += (self.lz - self.refz) * a

    def set_ref(self, track):
        # type: (bool) -> None
        """Compare from now on with the filtered vector as it is now (track: let the reference follow slowly)."""
        self.refx = self.lx
        self.refy = self.ly
        self.refz = self.lz
        self.ref_track = track
        self.away_since = None
        self.strong_since = None
        self.trem_seen = False

    def left_rest(self):
        # type: () -> None
        """It left a rest: no hand seen yet."""
        self.held_since = None
        self.away_since = None
        self.trem_seen = False

    def away_for(self, t, mlp):
        # type: (int, float) -> int
        """How long (us) the slowly filtered vector has been away from the reference while supported."""
        dx = self.lx - self.refx
        dy = self.ly - self.refy
        dz = self.lz - self.refz
        d2 = dx * dx + dy * dy + dz * dz
        if d2 >= self.pick_dev * self.pick_dev and self.support_lo <= mlp <= self.support_hi:
            if self.away_since is None:
                self.away_since = t
            if d2 >= 9.0 * self.pick_dev * self.pick_dev:
                if self.strong_since is None:
                    self.strong_since = t
            else:
                self.strong_since = None
            return t - self.away_since
        self.away_since = None
        self.strong_since = None
        return -1

    def strong_for(self, t):
        # type: (int) -> int
        """How long the filtered vector has been 3 pick_dev away (call after away_for)."""
        return -1 if self.strong_since is None else t - self.strong_since

    def held_for(self, t, mlp, power, thr2):
        # type: (int, float, float, float) -> int
        """How long (us) the signal has looked like a hand: supported + tremor (power: the band's; thr2: the noise
        floor's tremor threshold)."""
        if (
            t >= self.trem_block
            and self.support_lo <= mlp <= self.support_hi
            and power >= thr2
            and power <= self.trem_max * self.trem_max
        ):
            # a hand's tremor is sustained; a body ringing on a surface after a landing dies away: band power that
            # fell below a fraction of its recent peak is a ring, not a hand
            self.held_peak *= 1.0 - self.ring.alpha(self.trem_peak_tau)
            if power > self.held_peak:
                self.held_peak = power
            if self.held_since is None:
                self.held_since = t
                self.held_max = 0.0
            if power > self.held_max:
                self.held_max = power
            if power >= self.trem_decay_frac * self.held_peak:
                return t - self.held_since
        self.held_since = None
        self.held_peak = 0.0
        return -1

    def picked(self, t, mlp, power, thr2):
        # type: (int, float, float, float) -> bool
        """A hand took it: the slowly filtered vector left the rest vector and stayed away (a lift or a turn, not
        a rocking swing), with a hand's tremor or for long enough that only a hand can be carrying it."""
        if self.held_for(t, mlp, power, thr2) >= self.trem_pickup_t:
            self.trem_seen = True  # longer than a push across the table, whose band-pass leakage looks like tremor
        aw = self.away_for(t, mlp)
        if aw >= self.pick_t and (self.trem_seen or aw >= self.pick_long_t):
            return True
        return self.strong_for(t) >= self.pick_strong_t

    def took_again(self, t, mlp, power, thr2):
        # type: (int, float, float, float) -> Any
        """After an impact: the stamp of a pickup if a hand has moved it (away pick_t, with a tremor seen, or long
        or far enough), else None."""
        if self.held_for(t, mlp, power, thr2) >= 0:
            self.trem_seen = True
        aw = self.away_for(t, mlp)
        if aw >= self.pick_t and (self.trem_seen or aw >= self.pick_long_t or self.strong_for(t) >= self.pick_strong_t):
            stamp = self.away_since
            if self.held_since is not None and self.held_since < stamp:
                stamp = self.held_since
            return stamp
        return None
