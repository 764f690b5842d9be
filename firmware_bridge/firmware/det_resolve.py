# Resolution of the motion detector (see detector.py): after a flight's first contact, the verdict impact or catch,
# and the events that go with it.
#
# The contact's stamp is its first touch; later pulses are bounces, reported only after an impact.  A hard pulse
# (hard_g, or sharp_g and narrower than sharp_fwhm), a later one as hard as a floor (floor_g, fell_t or more after
# the first) or a first contact fell_t after a plain drop's let-go (it fell past the hand that dropped it) make the
# verdict an impact at once; otherwise the detector's look and hand tests decide.  MicroPython firmware: no typing at
# runtime, type hints in comments.

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: MicroPython has no typing module
    from typing import Any  # noqa: F401 -- used by the type comments


class Resolution:
    """t0: the first contact's stamp (-1 before one); peak: the largest |a| of its pulses; hard: no hand could have
    caught it; pending: bounces to report with an impact; dropped_t: the launch's stamp if it was a plain drop (no
    windup), else -1."""

    PARAMS = ("hard_g", "sharp_g", "sharp_fwhm", "fell_t", "floor_g")

    def __getattr__(self, name):
        # type: (str) -> Any
        """Only reached for a name never set: the detector sets every name in PARAMS (this tells mypy so)."""
        raise AttributeError(name)

    def __init__(self):
        # type: () -> None
        self.t0 = 0
        self.peak = 0.0
        self.hard = False
        self.pending = []  # type: list
        self.dropped_t = -1

    def launched(self, stamp, plain):
        # type: (int, bool) -> None
        """A flight began at stamp (plain: a drop, no throw): no contact yet."""
        self.dropped_t = stamp if plain else -1
        self.t0 = -1
        self.peak = 0.0

    def first_contact(self, t0):
        # type: (int) -> None
        """The flight's first contact began at t0."""
        self.t0 = t0
        # let go with no throw and fallen 250 ms (31 cm) untouched: past the hand that dropped it, on the floor (a
        # juggle's pop is back in the hand sooner)
        self.hard = self.dropped_t >= 0 and t0 - self.dropped_t >= self.fell_t
        self.pending = []

    def restamp(self, old, new):
        # type: (int, int) -> None
        """A closed pulse's first touch moved from old to new: the contact's stamp moves with it if it opened it."""
        if self.t0 == old:
            self.t0 = new

    def take(self, pulse):
        # type: (tuple) -> None
        """A closed pulse (t0, peak residual, peak |a|, width at half its peak) after the first contact."""
        t0, res, pm, fwhm = pulse
        if pm > self.peak:
            self.peak = pm
        if res >= self.hard_g or (res >= self.sharp_g and fwhm <= self.sharp_fwhm):
            self.hard = True
        # a later contact, longer after the first than a juggle's pop, as hard as a floor: off the body, down there
        if t0 - self.t0 >= self.fell_t and res >= self.floor_g:
            self.hard = True
        if t0 != self.t0:
            self.pending.append((t0, "bounce", round(pm, 3)))

    def emit(self, caught, out):
        # type: (bool, list) -> None
        """Report the verdict at the first contact: a catch, or an impact and the bounces since."""
        t0 = self.t0
        if caught:
            out.append((t0, "catch", round(self.peak, 3)))
        else:
            out.append((t0, "impact", round(self.peak, 3)))
            for ev in self.pending:
                out.append(ev)
        self.pending = []
