# The steady look of the motion detector (see detector.py): quiet after a contact, is it lying on something or held
# by a very still hand?
#
# A 0.4 s look in two halves.  A hand, however steady, keeps a physiological tremor (band power above the noise's, and
# not dying away like a landing's ring) or sways the vector slowly (the mean of the second half moves from the
# first's); with the gyroscope and a known offset, it also turns the body between the halves.  A body on a table or
# the floor does none of these.  Long averages make them visible under a noisy sensor, where the 50 ms tremor estimate
# cannot be.  MicroPython firmware: no typing at runtime, type hints in comments.

import math

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: MicroPython has no typing module
    from typing import Any  # noqa: F401 -- used by the type comments

LOOKING = 0
LYING = 1
HELD = 2
LOOK_ON = 3  # a tremor that fell between the halves: look on, half by half


def _shift2(lk, a, b, na, nb):
    # type: (list, int, int, int, int) -> float
    """Squared distance between a look's two half means, from the sums of x, y, z at lk[a:a+3] (na samples) and
    lk[b:b+3] (nb samples)."""
    dx = lk[b] / nb - lk[a] / na
    dy = lk[b + 1] / nb - lk[a + 1] / na
    dz = lk[b + 2] / nb - lk[a + 2] / na
    return dx * dx + dy * dy + dz * dz


def _spread2(lk, a, q, n):
    # type: (list, int, int, int) -> float
    """Variance of a look's half about its mean, from the sums of x, y, z at lk[a:a+3] and of their squares at
    lk[q], over n samples."""
    return lk[q] / n - (lk[a] * lk[a] + lk[a + 1] * lk[a + 1] + lk[a + 2] * lk[a + 2]) / (n * n)


class Look:
    """One look at a time (lk is None when none runs): step() feeds it, reset() drops it (a new jolt or contact)."""

    PARAMS = ("look_t", "look_more_t", "trem_max", "look_trem_k", "look_trem_min", "look_sustain", "look_sway_k",
              "look_sway_min", "look_ring_k", "look_spread_k", "look_rock_a", "look_turn_w")

    def __getattr__(self, name):
        # type: (str) -> Any
        """Only reached for a name never set: the detector sets every name in PARAMS (this tells mypy so)."""
        raise AttributeError(name)

    def __init__(self):
        # type: () -> None
        # per half: [start] count, sums of ax, ay, az and of band energy; then the look's own start and the most band
        # power of any first half it has slid past (a ring it has seen); with the gyroscope: per half, sums of the
        # angle turned since the look began (x, y, z, squared), then that angle now; last, per half, the sum of
        # |a|^2 (the vector's spread about its mean)
        self.lk = None  # type: Any

    def reset(self):
        # type: () -> None
        self.lk = None

    def both_halves(self):
        # type: () -> bool
        """A look runs and both of its halves have begun (a verdict can be given on what it saw)."""
        lk = self.lk
        return lk is not None and lk[1] > 0 and lk[6] > 0

    def step(self, t, ax, ay, az, bpe, att, dt, sig2, gain):
        # type: (int, float, float, float, float, Any, int, float, float) -> int
        """Feed one sample (bpe: its band-pass energy; att: the Attitude; dt: the mean sample period; sig2, gain: the
        noise floor's variance and the band-pass's gain); LOOKING, LYING or HELD."""
        lk = self.lk
        if lk is None:
            self.lk = [t, 0, 0.0, 0.0, 0.0, 0.0, 0, 0.0, 0.0, 0.0, 0.0, t, 0.0,
                       0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
            return LOOKING
        i = 1 if t - lk[0] < self.look_t // 2 else 6
        lk[i] += 1
        lk[i + 1] += ax
        lk[i + 2] += ay
        lk[i + 3] += az
        lk[i + 4] += bpe
        lk[24 if i == 1 else 25] += ax * ax + ay * ay + az * az
        if att.on:
            # small angles (it is still or nearly so): the turn is the rate's sum
            dts = dt * 1e-6
            lk[21] += att.gpx * dts
            lk[22] += att.gpy * dts
            lk[23] += att.gpz * dts
            j = 13 if i == 1 else 17
            lk[j] += lk[21]
            lk[j + 1] += lk[22]
            lk[j + 2] += lk[23]
            lk[j + 3] += lk[21] * lk[21] + lk[22] * lk[22] + lk[23] * lk[23]
        if t - lk[0] < self.look_t or lk[1] == 0 or lk[6] == 0:
            return LOOKING
        v = self.verdict(att, sig2, gain)
        if v == LOOK_ON:
            if t - lk[11] < self.look_t + self.look_more_t:
                # the second half becomes the first: was the first only the tail of the catch's own motion?
                self.lk = [t - self.look_t // 2, lk[6], lk[7], lk[8], lk[9], lk[10], 0, 0.0, 0.0, 0.0, 0.0, lk[11],
                           max(lk[12], lk[5] / lk[1]),
                           lk[17], lk[18], lk[19], lk[20], 0.0, 0.0, 0.0, 0.0, lk[21], lk[22], lk[23],
                           lk[25], 0.0]
                return LOOKING
            v = LYING
        self.lk = None
        return v

    def verdict(self, att, sig2, gain):
        # type: (Any, float, float) -> int
        """LYING, HELD or LOOK_ON (a tremor that fell), from the look's two halves."""
        lk = self.lk
        na = lk[1]
        nb = lk[6]
        pa = lk[5] / na
        pb = lk[10] / nb
        noise_band = 3.0 * sig2 * gain
        thr = self.look_trem_k * noise_band
        v = self.look_trem_min * self.look_trem_min
        if v > thr:
            thr = v
        held = thr <= pb <= self.trem_max * self.trem_max
        turned = self._turned(att)
        if turned == 1:
            return HELD
        if held and pb >= self.look_sustain * pa and not (turned == 0 and self._rocked()):
            return HELD
        thr = self.look_sway_k * math.sqrt(3.0 * sig2 * (1.0 / na + 1.0 / nb))
        if thr < self.look_sway_min:
            thr = self.look_sway_min
        # band power that is not a hand's sustained tremor (it got here) is a body rocking or ringing at >= 6 Hz:
        # it leaves part of a cycle in each half's mean, up to sqrt(2) rms / (pi f T) with T the half's length; a
        # ring dying fast, or off the band's centre, is bounded better by the first half's own spread about its mean
        # (less twice the noise's: the sample-to-sample floor underestimates a filtered part's variance): a ring's
        # half means differ by at most 0.75x that
        ring = self.look_ring_k * math.sqrt(pa)
        v = _spread2(lk, 2, 24, na) - 6.0 * sig2
        if v > 0.0 and self.look_spread_k * math.sqrt(v) > ring:
            ring = self.look_spread_k * math.sqrt(v)
        thr += ring
        if _shift2(lk, 2, 7, na, nb) >= thr * thr:
            return HELD
        # a hand's tremor in the second half, after more in the first: a ring dying away, or a hand that was still
        # settling the catch as the look began (the arm's brake leaves the band-pass ringing for ~0.2 s)
        return LOOK_ON if held else LYING

    def _rocked(self):
        # type: () -> bool
        """With the gyroscope: did its angle swing by more than a hand's tremor does, in both of the look's
        halves (and, asked only when it did not turn, about a fixed mean)?  Physiological tremor turns a held thing
        by about 0.04 degrees, a mild essential tremor by 0.17 (peaks); a body rocking on a cushion after a landing
        swings 0.3-0.5 degrees.  Its band power is then the rocking's, not a hand's."""
        lk = self.lk
        a2 = self.look_rock_a * self.look_rock_a
        return _spread2(lk, 13, 16, lk[1]) >= a2 and _spread2(lk, 17, 20, lk[6]) >= a2

    def _turned(self, att):
        # type: (Any) -> int
        """With the gyroscope and a known offset: did it turn between the look's halves (1 yes, 0 no; -1: no
        gyroscope, or its offset is not known yet)?  A hand never holds anything still to 0.15 dps; a body lying on
        something does not turn at all, and a ring's partial cycles move the halves' mean angle by at most
        look_spread_k times the first half's spread of angle, a steady turn by 3.5x it."""
        if not att.known():
            return -1
        lk = self.lk
        na = lk[1]
        d2 = _shift2(lk, 13, 17, na, lk[6])
        thr = self.look_turn_w * self.look_t * 0.5e-6
        if d2 < thr * thr:
            return 0
        spread2 = _spread2(lk, 13, 16, na)  # the first half's variance of angle about its mean
        k = 2.0 * self.look_spread_k  # twice a ring's bound: a steady turn moves them 3.5x its spread
        return 1 if d2 >= k * k * spread2 else 0
