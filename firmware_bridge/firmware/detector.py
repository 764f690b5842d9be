# Motion detector for burrito and badge nodes.
#
# Pure MicroPython/CPython code: no `machine`, no f-strings, no dataclasses,
# no typing at runtime.  Type hints live in comments so mpy-cross accepts it.
#
# Interface (the wire protocol codes against it; keep it exactly):
#   det = Detector("burrito" | "badge", params=None)
#   events = det.feed(t_us, ax, ay, az)   # -> list of (t_us, kind, peak_g)
#   events = det.feed(t_us, ax, ay, az, gx, gy, gz)  # with the gyroscope on:
#            angular rate in rad/s, same body axes as the accelerometer
#   det.configure({"name": number, ...})  # a tuned parameter file's params
# kind is one of "pickup", "launch", "impact", "catch", "rest", "bounce".
# Events may be emitted late but are stamped at the sample that caused them
# (impact/catch: the FIRST sample of the contact).  Works at any rate from
# 200 Hz: every parameter is a time in microseconds, never a sample count.
# DEFAULTS below lists every parameter with its physical reason.
#
# Parts: each a class with its own state in a det_*.py module next to this
# one (copy them all to the board); each takes the parameters it names in
# PARAMS from this object, so configure() reaches it.
#   det_ring.Ring           the last RING samples, the mean sample period,
#                           the lagged samples of the contact residual
#   det_noise.NoiseFloor    the sensor's noise, and every threshold that is
#                           a multiple of it
#   det_tremor.Tremor       the 8-12 Hz band-pass and its power
#   det_rest.Stillness      robust mean and variance; still since when; the
#                           rest stamp
#   det_hand.Hand           pickup and hold evidence: the slow vector away
#                           from its reference, a hand's sustained tremor
#   det_release.Release     the let-go (|a| or the vector falling abruptly)
#                           and a plain drop's level free fall
#   det_flight.FlightCheck  with the gyroscope: is a flight candidate a free
#                           body (gravity, path and drag tests)
#   det_contact.Contact     contact pulses, their first touch (broken-stick
#                           and ramp fits), the jerk change-point
#   det_look.Look           the steady look after a contact: lying or held
#   det_resolve.Resolution  impact or catch: the contact's stamp and peak,
#                           the bounces reported with an impact
#   det_attitude.Attitude   world "up" from the gyroscope, its offset, the
#                           body's turn
# Detector itself runs the state machine below, keeps the smoothed |a|
# (support, windup, air time), the windup and flight candidate and the
# pickup stamps, and emits every event.
#
# Noise floor: the lowest recent energy of sample-to-sample differences is
# the sensor's own noise (at rest nothing else moves the samples); the rest,
# tremor and leave-rest thresholds are multiples of it, with fixed floors.
#
# Algorithm (burrito), in one paragraph per state:
#  REST     still: vector variance under 3x the noise's (and >= 20 mg std),
#           |a| within 0.12 g of 1 g, no tremor, for 250 ms.
#  MOVING   left rest (a sample 5 noise sigmas off the rest vector, or the
#           60 ms mean 6 of its own sigmas), or the trace began here.
#           "pickup" needs the hand to
#           move it: the slowly filtered vector (200 ms) stays 0.05 g from
#           the rest vector for 150 ms with a hand's tremor seen for 400 ms,
#           or 0.15 g away for 350 ms, or away for 600 ms; a windup also
#           counts.  A body rocking on a soft surface swings about its rest
#           vector and is never a pickup.  Stamped at the first sample that
#           left rest.  A trace that begins in a hand reports no pickup.
#           A contact after 150 ms of free fall (< 0.2 g: knocked off the
#           table) is a "bounce"; a hand braking a quick lift reads more.
#  HELD     in a hand.  "launch" = a windup (smoothed |a| >= 2 g, the
#           arm's centripetal push) followed by an abrupt drop (|a|
#           falls >= 0.8 g, 0.65 g with the gyroscope, within 12 ms plus
#           1.5 sample periods, tracked on every raw sample: fingers
#           open in 3-12 ms, a swinging arm
#           sheds its push at <= 25 g/s) that |a| does not climb back 0.8
#           g from (an arm reversing a pump fake sheds its push as fast,
#           then pushes again), then, within 200 ms (a fast
#           throw's drag can hold |a| high that long), |a| <= 1.5 g and
#           >= 150 ms of a smooth signal with no contact, whose |a| may
#           fall by up to 1 g (drag as it slows) but never rises 0.8 g
#           (a tumble's w^2 r swings by up to 0.7 g; a hand swinging it
#           back up rises more), both plus the noise's spread of the
#           extremes (6 sigmas).  The flight level is NOT assumed to
#           be 0 g: a spinning burrito reads w^2 r (+ drag) which can be
#           ~1 g.  The release is stamped at the first sample within 15 %
#           of the measured flight level (after the candidate's, if the
#           hand still pushed there).  A plain drop (|a| < 0.2 g -- drag
#           and a slow tumble; an arm driving it down reads more -- and
#           level within 0.2 g for 150 ms from its first sample under
#           0.2 g, or from the let-go if fingers were seen opening) is
#           also a launch, even
#           straight out of rest (a resting body cannot fall unless a
#           still hand held it), stamped where |a| settled on the fall's
#           level.
#  FLIGHT   contact = the residual of a linear extrapolation from the
#           samples 20 ms and 10 ms ago exceeds 0.3 g (spin and drag are
#           smooth, contacts are jerks), or a CUSUM change-point on the
#           jerk above the flight's own (a slow, soft contact; the jerk
#           is taken over 10-40 ms, longer for a noisier part).  The
#           contact's first sample is where the residual run began or
#           the CUSUM last left zero, then refined by fitting the early,
#           straight part of the rise and extrapolating it back to zero
#           force (at most 8 ms): a force rising over 150 ms is stamped
#           at first touch.
#  RESOLVE  after the first contact we wait to see how the flight ends:
#           a hard pulse (>= 8 g, or >= 2.5 g and narrower than 8 ms; a
#           later contact >= 6 g 250 ms after the first: the floor), a
#           first contact 250 ms after a plain drop (no windup: it fell
#           past the hand that let go, to the floor), a free fall of 250
#           ms (it came off a body and falls to the floor; a juggle is
#           back in the hand sooner) or lying still means "impact" --
#           once the contact's ring is over and it is supported near 1 g
#           (or still for 250 ms), a 0.4 s look in two halves (begun
#           again after a jolt with no flight before it: the floor under
#           a spinning burrito, which lands it on another face) finds
#           neither a hand's sustained tremor nor its slow sway (long
#           averages, against the measured noise; band power that is
#           not a hand's sustained tremor is a rocking or ringing body,
#           whose partial cycles move the halves' means by at most 0.75x
#           the first half's spread about its mean; a tremor that fell
#           between the halves, a ring dying away or a hand still settling
#           the catch, looks on half by half for up to 0.4 s); being held
#           (sustained tremor while supported for 200 ms, or moved away
#           for 300 ms) with only soft pulses means "catch" (a juggle
#           counts).  A ring that dies away after a landing is not a
#           hand.  Both are stamped at the first contact.  Contacts
#           after an impact are "bounce".
#  POST     after an impact: bounces, then "rest", or "pickup" if a hand
#           moves it before it lies still (the same rule as MOVING, against
#           the vector it settled to).
# GYRO     optional (feed() given the angular rate): world "up" in body
#           axes is turned by the rate (offset learnt at rest), pulled
#           towards the reading over 0.5 s while something carries it near
#           1 g, and set to the mean vector at rest.  A flight candidate
#           whose reading along "up", less what spin can put there (w^2
#           times 5 cm), averages over 0.5 g still feels a hand carrying
#           it: no launch (a free body reads no gravity); nor may that
#           reading fall, between the window's halves or, smoothed over
#           20 ms, from its highest (a hand easing its hold does).  A
#           let-go may also be a swing of the vector by 0.8 g within
#           12 ms (plus timing), less the body's own turn at w, onto a
#           flight's level (an arm that eased its push to the flight's
#           w^2 r first sheds little |a|), stamped where the vector
#           settles.  The flight's
#           jerk test then excuses the let-go (until |a| sits on the
#           flight's level, at most 12 ms after the release stamp, plus
#           the lags), and its bound grows by 2 sigmas of the residual's
#           own noise; without the gyroscope the first jerk after 25 ms
#           ends the candidate, since that early test is what turns away
#           a pump fake's brake.  The rate's offset is the plain mean of
#           the first 0.5 s at rest; once known (100 ms), the look after
#           a contact also calls "held" when the body turned between the
#           halves (0.15 dps, and twice what a ring's partial cycles can
#           do): a hand never holds anything that still, a lying body does
#           not turn, and a rocking one swings back.  The accelerometer's
#           sway test still asks too: a hand can move it without turning
#           it, and a lying body cannot be accelerated.
# Badge: only "impact" on the wearer -- a pulse >= 1 g whose full width at
# half maximum is <= 14 ms (body motion, steps and jump landings are wider).

import math

try:  # on the board the parts are modules next to this one; on the host, in this package
    from det_attitude import UP_FREE, UP_PULL, UP_REST, Attitude
    from det_contact import Contact
    from det_flight import FlightCheck, new_candidate
    from det_hand import Hand
    from det_look import HELD, LYING, Look
    from det_noise import NoiseFloor
    from det_release import Release
    from det_resolve import Resolution
    from det_rest import Stillness
    from det_ring import RING, Ring
    from det_tremor import Tremor
except ImportError:
    from firmware_bridge.firmware.det_attitude import UP_FREE, UP_PULL, UP_REST, Attitude
    from firmware_bridge.firmware.det_contact import Contact
    from firmware_bridge.firmware.det_flight import FlightCheck, new_candidate
    from firmware_bridge.firmware.det_hand import Hand
    from firmware_bridge.firmware.det_look import HELD, LYING, Look
    from firmware_bridge.firmware.det_noise import NoiseFloor
    from firmware_bridge.firmware.det_release import Release
    from firmware_bridge.firmware.det_resolve import Resolution
    from firmware_bridge.firmware.det_rest import Stillness
    from firmware_bridge.firmware.det_ring import RING, Ring
    from firmware_bridge.firmware.det_tremor import Tremor

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: MicroPython has no typing module
    from typing import Any  # noqa: F401 -- used by the type comments

BURRITO = "burrito"
BADGE = "badge"

ST_REST = 0
ST_MOVING = 1
ST_HELD = 2
ST_FLIGHT = 3
ST_RESOLVE = 4
ST_POST = 5

# Parameters: a flat dict name -> number (times in microseconds, accelerations in g).  Each has a physical
# reason; `Detector(kind, params)` and `configure(params)` override them (a table's tuned parameter file).
DEFAULTS = {
    # --- rest: still = quiet, about 1 g, no tremor, for long enough
    "still_std": 0.02,  # floor of the rest-noise limit (vector std); the measured noise floor can raise it
    "still_dev": 0.12,  # |a| within this of 1 g: lying on a surface that is level or tilted, never in flight
    "still_t": 250000,  # longer than the gaps between a hand's tremor bursts and a rocking body's swings
    "stat_tau": 60000,  # averaging time of the stillness statistics: several tremor periods
    "mean_clamp": 0.5,  # a contact spike moves the running mean by at most this per sample (robust mean)
    "var_clamp": 0.0225,  # and the running variance by at most (0.15 g)^2
    "rest_back_dev": 0.05,  # the rest stamp walks back over samples within this of the resting vector
    "leave_dev": 0.06,  # leaving rest: the vector moved this far (floor; the noise floor can raise it)
    "leave_mean_dev": 0.03,  # ... or its 60 ms mean moved this far: above bias drift, below the gentlest lift (0.08 g)
    "fall_lead_t": 100000,  # a free fall that begins within this of leaving rest left it by falling (fingers opening)
    "fall_push_dev": 0.15,  # ... or later, if nothing moved it this far from rest first: a knock pushes 0.3-0.8 g, a
    # slide's friction reads 0.3-0.7 g and a tip over the edge turns the vector; a still hand's tremor and sway stay
    # within 0.05 g (its noise can end a "rest" that was really a hand)
    "leave_onset_dev": 0.03,  # the pickup stamp walks back to the first sample this far from rest
    "mlp_tau": 15000,  # smoothed |a| for support and windup: shorter than a windup, longer than a jolt
    # --- tremor: the 8-12 Hz physiological tremor of a hand holding something
    "trem_tau": 50000,
    "trem_f0": 10.0,  # centre of the physiological tremor band (8-12 Hz)
    "trem_q": 2.0,  # band width f0/Q = 5 Hz: covers 8-12 Hz
    "trem_min": 0.004,  # weakest tremor taken as a hand (4 mg rms); the noise floor can raise it
    "trem_max": 0.06,  # strongest hand tremor (vector rms in the band): physiological tremor peaks at <= 35 mg
    # (Marsden et al. 1982); more than that in the band is a body rocking on a surface after a landing
    "trem_hold_t": 200000,  # tremor this long after a contact means a hand holds it (catch)
    "catch_sustain": 0.5,  # ... still at half its peak power: a landing's rocking (tau >= 0.15 s) has decayed more
    "trem_decay_frac": 0.1,  # tremor power below 10 % of its recent peak is a dying ring, not a hand
    "trem_peak_tau": 300000,  # how fast that recent peak is forgotten (a tremor's own beating is slower)
    "trem_pickup_t": 400000,  # tremor this long (with the vector moved) means a hand took it from rest
    "trem_block_t": 250000,  # a contact makes the band-pass ring for about this long: no tremor reading then
    "support_lo": 0.6,  # supported (in a hand or on a surface) = smoothed |a| within 0.6-1.6 g
    "support_hi": 1.6,
    # --- noise floor: measured from the sample-to-sample differences, lowest seen recently
    "noise_tau": 200000,  # averaging time of the difference energy
    "noise_rise_tau": 5000000,  # the floor grows at most e-fold in this time (a warmer, noisier part is learnt)
    "noise_max": 0.03,  # no accelerometer we support is noisier than 30 mg rms per axis
    "noise_still_k": 3.0,  # still: vector variance below 3x the variance of noise alone
    "noise_trem_k": 5.0,  # tremor: band power above 5x what the noise puts in the band
    "noise_leave_k": 5.0,  # leaving rest: 5 noise sigmas (vector) from the rest vector
    # --- pickup: the hand moves it, it does not just shake
    "pick_dev": 0.05,  # the slowly filtered vector left the reference by 0.05 g (a 3 degree turn, or a lift)
    "pick_tau": 200000,  # slow filter: rocking at 6-14 Hz is divided by 8-18, a hand's turn or lift passes
    "pick_t": 150000,  # ... and stayed away this long (longer than half a rocking period)
    "pick_long_t": 600000,
    "pick_strong_t": 350000,  # 3 pick_dev away this long: longer than a push across the table (0.15-0.3 s)  # away this long while supported, with or without tremor: a hand carries it
    # --- launch
    "windup_g": 2.0,  # the arm's push and centripetal force: a hand at rest never reaches 2 g smoothly
    "windup_drop": 1.0,
    "windup_flight_max": 1.5,
    "windup_timeout": 400000,
    "release_drop": 0.8,  # the fingers opening sheds at least this much of the hand's push within 12 ms
    "release_drop_gyro": 0.65,  # ... with the gyroscope, whose flight tests turn a hand's easing away: an arc that
    # eased off before the let-go (3.4 -> 1.1 g) still sheds 0.7 g onto a spinning flight's 0.4 g; an arm swinging
    # at 4 Hz sheds <= 25 g/s, 0.49 g in the 19.5 ms that a 200 Hz part's timing allows
    "release_look_t": 200000,  # a fast throw's drag (1-2 g) may keep |a| over windup_flight_max this long after the release
    "release_max_t": 12000,  # fingers open in 3-12 ms (plus 1.5 sample periods of timing); a swinging arm sheds a 1 g swing over >= 40 ms
    "confirm_t": 150000,  # flight evidence: longer than a running stride's airborne dip
    "confirm_range": 1.0,  # |a| range in flight: drag of up to ~1 g at release decays towards 0 as it slows
    "confirm_rise": 0.8,  # |a| in flight falls (drag as it slows) or swings as a tumble moves the spin axis
    # (physim: 0.24 -> 0.93 g in 150 ms); a hand swinging it back up rises more
    "confirm_res": 0.2,
    "confirm_noise_k": 2.0,  # ... with the gyroscope, plus 2 sigmas of the residual's own noise
    "confirm_skip": 25000,
    # --- with the gyroscope on: where "up" is, kept through a windup and a flight
    "flight_up_g": 0.5,  # a free body feels no gravity: its reading along "up" is drag's (<= 0 while it rises, under
    # 0.5 g falling slower than 0.7x its terminal speed) and spin's; a hand that holds it carries 1 g up
    "up_fall_g": 0.05,  # ... nor does that reading fall over the flight window by more than 50 mg (a tumble's
    # changing drag area, lift) plus w^2 r twice and 3.5 sigmas of the halves' noise; a hand easing its hold does
    "up_fall_k": 3.5,
    "up_dip_tau": 20000,  # ... nor does it fall and come back within the window: smoothed over 20 ms (a hand eases
    # its hold over 50-100 ms), its fall from its highest so far is judged by the same bound
    "path_rise_a": 0.15,  # ... nor does its flight path turn upward or sideways: drag lies along -v and gravity only
    # bends v down, so the reading's angle below the horizontal (tan = -up / horizontal part) only falls and its
    # horizontal part keeps its direction; 0.15 rad (8.6 degrees) above w^2 r and the noise for a tumble's lift.  A
    # hand's push turns any way it likes
    "path_min_g": 0.1,  # ... judged only when each half's horizontal part reads this much (and 3x its error)
    "path_vt_min": 6.0,  # ... and bends down no faster than gravity can: g cos(gamma) / |v|, with |v| at least
    # vt sqrt(|drag| / g) for the slowest terminal speed vt of a foam burrito (8-15 m/s; 6 for margin).  A pump
    # fake's brake swings the reading down 36 degrees in 60 ms at 0.5 g, where gravity bends a path 8 at most
    "drag_turn_max": 0.35,  # ... nor, turning less than 20 degrees, does |a| climb faster than gravity can speed
    # it up against its drag: 2 g up / |v| (a tumble's changing drag area and lift need more turn than that)
    "spin_r": 0.05,  # the node sits within 5 cm of the centre of mass: w^2 r bounds what spin adds along "up"
    "up_tau": 500000,  # a carried body's specific force averages to 1 g up over a few of a hand's sway periods
    "up_gate": 0.25,  # ... judged only from samples within 0.25 g of 1 g (no windup, contact or free fall)
    "gyro_bias_tau": 500000,  # lying still, the gyroscope reads its own zero-rate offset (+-1 dps typical)
    "gyro_bias_t": 100000,  # ... known once averaged this long: its rate noise (<= 0.1 dps a sample) to < 0.01 dps
    "release_frac": 0.15,
    "drop_g": 0.2,  # free fall reads drag and a slow tumble's w^2 r (< 0.15 g); a hand driving it down at 0.8 g reads more
    "drop_onset_g": 0.5,
    "drop_t": 150000,
    "drop_range": 0.2,
    "held_guess_t": 600000,  # off its rest this long before a free fall: it was held (a table knock takes < 0.45 s)  # |a| in a free fall stays within 0.2 g (drag, a slow tumble); a swinging arm's does not
    # --- contact
    "lag1": 10000,
    "lag2": 20000,
    "contact_res": 0.3,  # jerk residual of a contact; spin and drag are smooth and stay far below
    "onset_res": 0.08,
    "hinge_pre_t": 40000,  # a slow contact's bend is sought this far before its first estimate; reaching 80 ms
    # took a flight's wobble for the bend (blind simulator: impact and catch onset p95 4 -> 38 ms)
    "ramp_back_t": 8000,  # a contact's line is extrapolated back at most this far: a 0.08 g threshold on a 10 g/s rise
    "jerk_allow": 3.0,  # g/s above the flight's own jerk that the change-point sum tolerates
    "jerk_noise": 2.0,  # g/s: the sensor noise's share of that sum's allowance (sets the lag the jerk is taken over)
    "jerk_lag_max": 40000,  # ... that lag at most: a 150 ms rise is still a straight line over it
    "jerk_h": 0.06,  # g: the jerk change-point sum that declares a contact (a 0.3 g rise in ~10-20 ms)
    "pulse_win": 60000,
    "pulse_gap": 30000,
    "pulse_min": 12000,
    "air_g": 0.6,
    "air_t": 20000,
    "air_t_fall": 150000,
    "fell_t": 250000,  # free fall this long after a contact: off to the floor (a juggle's pop is back in <= 0.25 s)
    "hard_g": 8.0,  # a palm gives: no catch is this hard (a firm hand stopping a 7 m/s burrito: 5-10 g)
    "floor_g": 6.0,  # a contact this hard fell_t or more after the first is the floor (a juggle is back sooner)
    "sharp_g": 2.5,
    "sharp_fwhm": 8000,
    "look_t": 400000,  # still after a contact: look this much longer (two halves) before calling it lying still
    "look_trem_k": 2.5,  # ... a hand: band power over the look above 2.5x the noise's (a long average: 3 sigma)
    "look_trem_min": 0.002,  # ... and above 2 mg rms: ~0.6x the weakest tremor (6 mg at 7.5 Hz) after the band-pass
    "look_sustain": 0.6,  # ... sustained: a ring's second half holds < 0.45 of its first (tau <= 0.5 s)
    "look_sway_k": 3.5,  # ... or the two halves' mean vectors differ by 3.5 noise sigmas (a still body: 0.7 % chance)
    "look_sway_min": 0.004,  # ... and by 4 mg (0.23 deg): more than the sensor's bias drift over 0.4 s
    "look_more_t": 400000,  # ... a tremor that fell between the halves: look on, half by half, this much longer
    "look_ring_k": 0.375,  # ... plus sqrt(2) / (pi 6 Hz 0.2 s) of the band's rms: a rocking body's partial cycle
    "look_turn_w": 0.0026,  # ... or, with the gyroscope, it turned between the halves at 0.15 dps (rad/s): 3x the
    # offset's drift over 5 degrees C (0.01 dps/C), half the slowest turn of a hand that holds something still
    "rest_turn_w": 0.0052,  # ... and it lies still only while it turns slower than 0.3 dps, the slowest turn of a
    # hand that holds something still (its offset known to < 0.01 dps, averaged over stat_tau to < 0.01 dps)
    "rest_doubt_t": 2000000,  # ... unless the accelerometer has found it still this long: no hand holds it so
    # still for 2 s, so the offset is wrong (learnt from a still hand taken for a rest) and is learnt again
    "look_rock_a": 0.0026,  # ... nor is band power a hand's tremor while the angle swings 0.15 degrees rms (rad)
    # about a fixed mean in both halves: 5x physiological tremor's (0.04 degrees peak), over a mild essential tremor's
    # 0.17 degrees peak; a body rocking on a cushion after a landing swings 0.3-0.5 degrees
    "look_spread_k": 0.75,  # a ring about a fixed mean at >= 6 Hz moves its halves' means by <= 0.75x the first
    # half's spread (std about its mean: 0.42-0.7x its starting amplitude, tau 0.15-0.5 s; a partial cycle, 0.27x)
    "resolve_max": 3000000,
    "flight_max": 4000000,
    "post_hold_t": 300000,
    # --- badge
    "badge_res": 0.8,
    "badge_min_g": 1.0,
    "badge_fwhm": 14000,  # a burrito's strike is narrower than steps and jump landings
    "badge_win": 30000,
    "badge_refract": 150000,
}



class Detector:
    """Streaming event detector; see the module comment for the algorithm."""

    def __init__(self, kind="burrito", params=None):
        # type: (str, Any) -> None
        if kind != BURRITO and kind != BADGE:
            raise ValueError("unknown device kind: " + repr(kind))
        self.kind = kind
        self.ring = Ring()
        # the parts with a state of their own; each takes the parameters it names in PARAMS (_share_params)
        self.noise = NoiseFloor()
        self.tremor = Tremor()
        self.att = Attitude()
        self.rest = Stillness()
        self.hand = Hand(self.ring)
        self.release = Release(self.ring)
        self.resolve = Resolution()
        self.contact = Contact(self.ring, self.noise, kind == BURRITO)
        self.look = Look()
        self.flight = FlightCheck()
        self._parts = (self.ring, self.contact, self.rest, self.hand, self.release, self.resolve, self.noise, self.tremor, self.att, self.look, self.flight)
        for name in DEFAULTS:
            setattr(self, name, DEFAULTS[name])
        if params:
            self.configure(params)
        else:
            self._share_params()
        self._mlp = 1.0
        # stillness statistics
        # tremor band-pass (RBJ biquad per axis), coefficients per dt
        # pulse analysis
        # contact fits and the residual's line reach back no further: a flight's start, a pulse's end
        self._air_since = None  # type: Any
        self._fall_since = None  # type: Any  # since when the smoothed |a| reads a free fall (< drop_g)
        self._fall_end = -1  # when the last free fall of air_t_fall or longer ended
        self._air_ok = False
        self._state = ST_REST
        self._moved = False  # something was reported since the last rest
        self._rest_vec = (0.0, 0.0, 1.0)
        self._onset = 0
        self._wind_peak = 0.0
        self._wind_t = 0
        self._cand = None  # type: Any  # [t_cand, sum_m, n_m, min_m, max_m, noise allowance]
        self._state_t = 0
        self._badge_until = 0
        self._started = False
        # noise floor (sum over axes of the squared sample-to-sample difference: 6 sigma^2 for white noise)
        # slowly filtered vector and the reference it is compared with (pickup and hold evidence)
        self._was_still = False
        # where it lay, and when, the last time it was still out of a rest (a pickup from there leaves that vector)
        self._still_vec = (0.0, 0.0, 1.0)
        self._still_last = 0
        self._initial = True  # until the first rest or hold: a pickup before the trace began is not reported
        # jerk change-point (CUSUM) in flight
        # the steady look after a contact: [t0, n_a, sx_a, sy_a, sz_a, e_a, n_b, sx_b, sy_b, sz_b, e_b]
        self._left_rest = False  # MOVING began by leaving a rest (not at the trace's start)
        self._from_rest_for = None  # type: Any  # the fall (its _low_since) that _from_rest judged
        self._from_rest = False  # ... whether it fell straight out of rest, from a hand that read as rest
        self._last_leave = None  # type: Any  # onset of the latest departure from rest
        self._prev_leave = None  # type: Any  # ... and of the one before it
        # attitude from the gyroscope (only when feed() is given angular rates)

    def __getattr__(self, name):
        # type: (str) -> Any
        """Only reached for a name never set: every DEFAULTS entry is set in __init__ (this tells mypy so)."""
        raise AttributeError(name)

    def configure(self, params):
        # type: (dict) -> None
        """Override parameters by name (a tuned parameter file's "params"); unknown names and non-numbers raise."""
        for name in params:
            if name not in DEFAULTS:
                raise ValueError("unknown detector parameter: " + repr(name))
            v = params[name]
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise ValueError("detector parameter " + name + " is not a number: " + repr(v))
        for name in params:
            v = params[name]
            if isinstance(DEFAULTS[name], int) and not isinstance(DEFAULTS[name], bool):
                v = int(v)  # times stay integer microseconds
            else:
                v = float(v)
            setattr(self, name, v)
        self._share_params()
        self.tremor.bq_dt = 0  # redesign the tremor filter at the next sample

    def _share_params(self):
        # type: () -> None
        """Give each part the parameters it uses, as they now stand."""
        for part in self._parts:
            for name in part.PARAMS:
                setattr(part, name, getattr(self, name))

    def params(self):
        # type: () -> dict
        """The parameters in force, name -> number."""
        out = {}
        for name in DEFAULTS:
            out[name] = getattr(self, name)
        return out

    # ------------------------------------------------------------------ io
    def feed(self, t_us, ax, ay, az, gx=None, gy=None, gz=None):
        # type: (int, float, float, float, Any, Any, Any) -> list
        """Take one sample (with the angular rate in rad/s when the part's gyroscope is on); return the (usually
        empty) list of new events."""
        m = self.ring.push(t_us, ax, ay, az)
        if gx is not None and self.kind == BURRITO:
            st = self._state
            mode = UP_REST if st == ST_REST else (UP_PULL if self._cand is None and st != ST_FLIGHT else UP_FREE)
            r = self.rest
            self.att.update(t_us, ax, ay, az, m, gx, gy, gz, mode, self._cand is not None, r.mx, r.my, r.mz)
        out = []  # type: list
        if self.kind == BADGE:
            self._badge(t_us, ax, ay, az, m, out)
        else:
            self._burrito(t_us, ax, ay, az, m, out)
            if gx is not None and self._state == ST_REST and self.att.dt > 0:
                self.att.learn_offset(gx, gy, gz)
        return out

    def flush(self):
        # type: () -> list
        """End of trace: settle a pending contact decision, return events."""
        out = []  # type: list
        if self._state == ST_RESOLVE:
            if self.contact.pulse is not None:
                self._end_pulse()
            # a trace that ends while it lies still (the steady look unfinished) ends on a surface, not in a hand
            still = self.ring.last_t is not None and self.rest.still_for(self.ring.last_t) >= self.still_t
            if self.look.both_halves() and not self.resolve.hard:
                # the recording ended during the look: judge on what it saw (both halves have begun)
                self._decide(self.look.verdict(self.att, self.noise.sig2, self.tremor.gain) == HELD, out)
            else:
                self._decide(self._supported() and not self.resolve.hard and not still, out)
        return out

    # ------------------------------------------------------------ attitude
    # ------------------------------------------------------------- helpers
    def _update_stats(self, t, ax, ay, az, m):
        # type: (int, float, float, float, float) -> None
        # airborne bookkeeping uses |a| up to the previous sample, so the contact sample itself does not cancel it
        if self._mlp < self.air_g:
            if self._air_since is None:
                self._air_since = t
            elif t - self._air_since >= self.air_t and self._state != ST_MOVING:
                self._air_ok = True
        else:
            self._air_since = None
        if self._mlp < self.drop_g:
            if self._fall_since is None:
                self._fall_since = t
        elif self._fall_since is not None:
            if t - self._fall_since >= self.air_t_fall:
                self._fall_end = t
            self._fall_since = None
        a = self.ring.alpha(self.mlp_tau)
        self._mlp += (m - self._mlp) * a
        h = self.ring.head
        j = (h - 1) % RING
        dx = self.ring.x[h] - self.ring.x[j]
        dy = self.ring.y[h] - self.ring.y[j]
        dz = self.ring.z[h] - self.ring.z[j]
        self.noise.update(dx * dx + dy * dy + dz * dz, self.ring.n, self.ring.dt, self.tremor.gain)
        self.hand.filter(t, ax, ay, az, self._mlp, self.contact.pulse is not None)
        self.tremor.step(ax, ay, az, self.ring.dt)
        self.rest.update(t, ax, ay, az, m, self.ring.alpha(self.stat_tau), self.noise.still_var,
                         self.tremor.power < self.noise.trem_thr2, self.att)

    def _supported(self):
        # type: () -> bool
        return self.support_lo <= self._mlp <= self.support_hi

    def _go(self, state, t):
        # type: (int, int) -> None
        self._state = state
        self._state_t = t

    def _to_rest(self, t, out):
        # type: (int, list) -> None
        if self._moved:
            out.append((self.rest.stamp(self.ring, self.noise.sig2), "rest", round(self._mlp, 3)))
        self._moved = False
        self._rest_vec = self.rest.mean()
        self.contact.pulse = None
        self._initial = False
        self.hand.set_ref(False)
        self._go(ST_REST, t)

    def _to_held(self, t):
        # type: (int) -> None
        self._wind_peak = 0.0
        self._cand = None
        self.release.low_since = None
        self._go(ST_HELD, t)

    def _end_pulse(self):
        # type: () -> tuple
        """Close the open pulse (see Contact.close); the contact it opened moves its stamp with it, and the
        band-pass, which the contact made ring, starts again."""
        p0 = self.contact.pulse[0]
        res = self.contact.close()
        self.resolve.restamp(p0, res[0])
        last = self.ring.last_t
        self.hand.trem_block = last + self.trem_block_t
        self.hand.held_since = None
        if self.kind == BURRITO:
            h = self.ring.head
            self.tremor.reset(self.ring.x[h], self.ring.y[h], self.ring.z[h])
        return res

    def _contact_check(self, t, ax, ay, az, m, need_air=-1):
        # type: (int, float, float, float, float, int) -> Any
        """Track contact pulses; return a finished pulse tuple or None.

        With need_air, a new contact counts only after the body was airborne
        (|a| < 0.6 g for need_air us): a hand's jolts and a pulse's own tail are not
        new contacts, a bounce or a juggle always has a flight before it.
        """
        if self.contact.pulse is not None:
            self.contact.step(t, ax, ay, az, m)
            p = self.contact.pulse
            age = t - p[0]
            # a sharp hit is over early: end it then, so a quick bounce is not missed
            if age >= self.pulse_win or (age >= self.pulse_min and self.contact.samples[-1][1] < 0.25 * p[1]):
                return self._end_pulse()
            return None
        if t < self.contact.quiet or not self.ring.have_lags(t):
            return None
        if self.ring.t[self.ring.i2] < self.contact.hinge_from:
            return None  # the line the reading is held to still reaches back to the let-go: its change is no touch
        if need_air < 0:
            need_air = self.air_t
        if need_air and not self._air_ok:
            if self._air_since is None or t - self._air_since < need_air:
                return None
        if self.ring.residual(t, ax, ay, az) > self.contact_res:
            self.contact.start(t, self.contact.walk_back_g())
            self._air_ok = False
        return None

    # ------------------------------------------------------------- burrito
    def _burrito(self, t, ax, ay, az, m, out):
        # type: (int, float, float, float, float, list) -> None
        """One sample through the state machine: rest and the hand's states here, a flight, the wait after its
        first contact and what follows an impact in methods of their own."""
        if not self._started:
            self._start(t, ax, ay, az, m)
            return
        self._update_stats(t, ax, ay, az, m)
        st = self._state
        if st == ST_REST:
            dx = ax - self._rest_vec[0]
            dy = ay - self._rest_vec[1]
            dz = az - self._rest_vec[2]
            r = self.rest
            mx = r.mx - self._rest_vec[0]
            my = r.my - self._rest_vec[1]
            mz = r.mz - self._rest_vec[2]
            if dx * dx + dy * dy + dz * dz > self.noise.leave2 or mx * mx + my * my + mz * mz > self.noise.leave_mean2:
                self._onset = self._leave_onset(t)
                self._prev_leave = self._last_leave
                self._last_leave = self._onset
                self._left_rest = True
                self._go(ST_MOVING, t)
                self.hand.left_rest()
            return
        if st == ST_MOVING:
            self._moving_step(t, ax, ay, az, m, out)
        elif st == ST_HELD:
            self._held_step(t, m, out)
        elif st == ST_FLIGHT:
            self._flight_step(t, ax, ay, az, m)
        elif st == ST_RESOLVE:
            self._resolve_step(t, ax, ay, az, m, out)
        elif st == ST_POST:
            self._post_step(t, ax, ay, az, m, out)

    def _start(self, t, ax, ay, az, m):
        # type: (int, float, float, float, float) -> None
        # start from this sample, not from a guess, so filters do not ring
        self._started = True
        self.rest.start(ax, ay, az)
        self._mlp = m
        self.tremor.reset(ax, ay, az)  # the band-pass starts from this sample (the newest in the ring)
        self.hand.start(ax, ay, az)
        self.hand.set_ref(False)
        self._go(ST_MOVING, t)
        self._onset = t
        self._moved = False
        self._was_still = False

    def _moving_step(self, t, ax, ay, az, m, out):
        # type: (int, float, float, float, float, list) -> None
        """Not known to be in a hand or lying still: a pickup, a rest, a plain drop or a knock's fall."""
        if self._moving_drop(t, m, out):
            return
        # not known to be in a hand: only a real fall ends in a bounce -- a free fall's level, not a running
        # dip or a hand braking a quick lift (0.3-0.6 g)
        fell = (self._fall_since is not None and t - self._fall_since >= self.air_t_fall) or \
            (self._fall_end >= 0 and t - self._fall_end <= self.pulse_win)
        pulse = self._contact_check(t, ax, ay, az, m, self.air_t_fall) if fell or self.contact.pulse is not None else None
        if pulse is not None:
            out.append((pulse[0], "bounce", round(pulse[2], 3)))
            self._moved = True
            self._initial = False
            self._go(ST_POST, t)  # loose on the floor: further bounces, then rest
            self.hand.set_ref(True)
            return
        if self.contact.pulse is not None:
            return
        if self.rest.still_for(t) >= self.still_t // 2:
            self._was_still = True
            self._still_vec = self.rest.mean()
            self._still_last = t
        if self._mlp >= self.windup_g or self.hand.picked(t, self._mlp, self.tremor.power, self.noise.trem_thr2):
            # a trace that began in a hand: the pickup happened before it, so it is not reported
            if not (self._initial and not self._was_still):
                # one that began lying there, still but never long enough for a rest: the hand took it from
                # where it lay, not at the trace's first sample
                stamp = self._left_still() if self._initial else self._onset
                out.append((stamp, "pickup", round(self._mlp, 3)))
                self._moved = True
            self._initial = False
            self._to_held(t)
            if self._mlp >= self.windup_g:
                self._held_step(t, m, out)
            return
        if self.rest.still_for(t) >= self.still_t:
            self._initial = False
            self._to_rest(t, out)

    def _flight_step(self, t, ax, ay, az, m):
        # type: (int, float, float, float, float) -> None
        """In flight: the first contact opens the wait for how the flight ends."""
        pulse = self._contact_check(t, ax, ay, az, m, 0)
        if self.contact.pulse is None and pulse is None and self.contact.cusum(t, ax, ay, az):
            self._air_ok = False
        if self.contact.pulse is not None and pulse is None and self._state == ST_FLIGHT:
            if self.resolve.t0 != self.contact.pulse[0]:
                self.resolve.first_contact(self.contact.pulse[0])
                self.look.reset()
                self._go(ST_RESOLVE, t)
                self.hand.set_ref(True)
            return
        if t - self._state_t > self.flight_max:
            self._to_held(t)  # never landed: we were wrong about the flight

    def _resolve_step(self, t, ax, ay, az, m, out):
        # type: (int, float, float, float, float, list) -> None
        """After the first contact: impact or catch (see the module comment)."""
        pulse = self._contact_check(t, ax, ay, az, m)
        if pulse is not None:
            self.resolve.take(pulse)
            if self.resolve.hard:
                self._decide(False, out)
            return
        if self.contact.pulse is not None:
            self.look.reset()  # a new contact: look again once it is over
            return
        if self.ring.have_lags(t) and self.ring.residual(t, ax, ay, az) > self.contact_res:
            # a jolt with no flight before it (a spinning burrito never reads one: its w^2 r holds |a| near 1
            # g), so no new contact: the floor, or a hand's grab, turned it.  The look and the moved-away test
            # judge what comes after it, not a comparison across it
            self.look.reset()
            self.hand.supp_since = None
        if self._air_since is not None and self._air_since > self.resolve.t0 \
                and t - self._air_since >= self.fell_t:
            # it came off the contact and falls freely: a juggle pops it up and back into the hand within 0.25 s;
            # falling longer, it is on its way to the floor
            self._decide(False, out)
            return
        # once it has been still, the look runs its full length (a 50 ms tremor estimate flickering over its
        # threshold does not restart it)
        if self.look.lk is not None or self.rest.still_for(t) >= self.still_t or self._calm(t, m):
            v = self.look.step(t, ax, ay, az, self.tremor.bpe, self.att, self.ring.dt, self.noise.sig2, self.tremor.gain)
            if v == LYING:
                self._decide(False, out)
                self._to_rest(t, out)
                return
            if v == HELD:
                self._decide(True, out)
                return
        hf = self.hand.held_for(t, self._mlp, self.tremor.power, self.noise.trem_thr2)
        # the 50 ms tremor estimate calls a hand quickly, but only while no look runs: once it is calm the
        # look's long averages judge (under a noisy part that estimate sits at 5x the noise's power for 200 ms
        # by chance, or on a cushion's rocking)
        if (self.look.lk is None and hf >= self.trem_hold_t and self.tremor.power >= self.catch_sustain * self.hand.held_max) \
                or self.hand.away_for(t, self._mlp) >= self.pick_long_t // 2:
            self._decide(True, out)
            return
        if t - self._state_t > self.resolve_max:
            self._decide(self._supported(), out)

    def _post_step(self, t, ax, ay, az, m, out):
        # type: (int, float, float, float, float, list) -> None
        """After an impact: bounces, then a rest, or a pickup if a hand moves it first."""
        pulse = self._contact_check(t, ax, ay, az, m)
        if pulse is not None:
            out.append((pulse[0], "bounce", round(pulse[2], 3)))
            return
        if self.contact.pulse is not None:
            return
        if self.rest.still_for(t) >= self.still_t:
            self._to_rest(t, out)
            return
        stamp = self.hand.took_again(t, self._mlp, self.tremor.power, self.noise.trem_thr2)
        if stamp is not None:
            out.append((stamp, "pickup", round(self._mlp, 3)))
            self._to_held(t)

    def _calm(self, t, m):
        # type: (int, float) -> bool
        """Settled enough after a contact to look for a hand: the contact's ring is over (trem_block) and it is
        supported near 1 g.  A hand's tremor must not delay the look, as it delays "still"."""
        return t >= self.hand.trem_block and abs(self._mlp - 1.0) <= self.still_dev and abs(m - 1.0) <= self.still_dev

    def _moving_drop(self, t, m, out):
        # type: (int, float, list) -> bool
        """A free fall after it was held off its rest for held_guess_t: a hand too gentle and steady to show itself
        held it, and let go.  A table knock's push and tip take under 0.45 s; report the pickup and the launch."""
        if not self.release.level_fall(t, m):
            return False
        stamp = self._onset
        if self.release.low_since - self._state_t < self.held_guess_t:
            # a level free fall straight out of rest: a body lying on a surface cannot fall unless a hand held it
            # (so still that it read as rest); a slide off the edge or a knock shows first, and a knock that could
            # throw it up pushes |a| above support_hi.  The pickup is the departure from rest before this one.
            if self._from_rest_for != self.release.low_since:
                # judged once per fall (both walks cover the ring back to the rest): the samples since are the
                # fall's own, under drop_g, and change neither answer
                self._from_rest_for = self.release.low_since
                self._from_rest = self._left_rest and \
                    self.ring.max_m_since(self._state_t - self.fall_lead_t) <= self.support_hi and not (
                        # something pushed it off its rest before it fell: a knock, a slide, a tip
                        self.release.low_since - self._state_t > self.fall_lead_t
                        and self.ring.max_dev(self._rest_vec, self._state_t, self.release.low_since - self.fall_lead_t) > self.fall_push_dev)
            if not self._from_rest:
                return False
            stamp = self._prev_leave
        if not (self._initial and not self._was_still) and stamp is not None:
            out.append((stamp, "pickup", round(self._mlp, 3)))
        self._initial = False
        self.contact.pulse = None
        self._launch(self.release.fall_onset(), m, t, out)
        return True

    def _left_still(self):
        # type: () -> int
        """When a hand took it from where it last lay still: the first sample since that a rest's leave test
        (leave_dev, or its noise multiple) finds off the vector it lay at, back to the start of its run."""
        v = self._still_vec
        j = self.ring.at(self._still_last)
        while j != self.ring.head:
            dx = self.ring.x[j] - v[0]
            dy = self.ring.y[j] - v[1]
            dz = self.ring.z[j] - v[2]
            if dx * dx + dy * dy + dz * dz > self.noise.leave2:
                break
            j = (j + 1) % RING
        return self._leave_onset(self.ring.t[j], v, j)

    def _leave_onset(self, t, ref=None, j=-1):
        # type: (int, Any, int) -> int
        """First sample of the run off the rest vector (or ref) that reaches ring index j (by default the newest)."""
        if ref is None:
            ref = self._rest_vec
        if j < 0:
            j = self.ring.head
        rx = ref[0]
        ry = ref[1]
        rz = ref[2]
        lim = self.noise.onset2
        onset = t
        n = 0
        limit = self.ring.n if self.ring.n < RING else RING
        while n < limit:
            dx = self.ring.x[j] - rx
            dy = self.ring.y[j] - ry
            dz = self.ring.z[j] - rz
            if dx * dx + dy * dy + dz * dz <= lim:
                break
            onset = self.ring.t[j]
            j = (j - 1) % RING
            n += 1
        return onset

    def _decide(self, caught, out):
        # type: (bool, list) -> None
        """Report the verdict on the flight's end; a catch is in a hand again, an impact lies loose."""
        self.resolve.emit(caught, out)
        self._moved = True
        if caught:
            self._to_held(self.ring.last_t)
        else:
            self._go(ST_POST, self.ring.last_t)
            self.hand.set_ref(True)

    def _held_step(self, t, m, out):
        # type: (int, float, list) -> None
        """In a hand: a rest, a plain drop, a windup and the flight candidate that may follow it."""
        if self.rest.still_for(t) >= self.still_t:
            self._to_rest(t, out)
            return
        # plain drop: free fall that outlasts a running stride's dip
        if self._cand is None:
            if self.release.level_fall(t, m):
                self._launch(self.release.fall_onset(), m, t, out)
                return
        elif m > self.drop_onset_g:
            self.release.low_since = None
        if self._mlp >= self.windup_g:
            if self._mlp > self._wind_peak:
                self._wind_peak = self._mlp
            if m > self._wind_peak:
                self._wind_peak = m
            self._wind_t = t
            self._cand = None
            self.release.track(t, m, self.att)
            return
        if self._wind_peak > 0.0 and self._cand is None:
            self.release.track(t, m, self.att)
            if t - self._wind_t > self.windup_timeout:
                self._wind_peak = 0.0
                return
            if m <= self._wind_peak - self.windup_drop and m <= self.windup_flight_max and self.release.abrupt(t):
                # the flight's extremes each stray about 3 noise sigmas from its true |a|: allow for both
                self._cand = new_candidate(t, 6.0 * math.sqrt(self.noise.sig2), self.release.rel_vec)
                self.att.set_horizontal()
                self.contact.pulse = None
                self.contact.quiet = t + self.confirm_skip
            return
        if self._cand is not None:
            self._cand_step(t, m, out)

    def _cand_step(self, t, m, out):
        # type: (int, float, list) -> None
        """A flight candidate after a windup's abrupt fall: a launch once its window shows a free body, else
        dropped (one candidate per windup: the first drop after the push is the release or nothing)."""
        c = self._cand
        age = t - c[0]
        bad = age >= self.confirm_skip and self._cand_add(c, age, t, m)
        if not bad and t >= self.contact.quiet and self.ring.have_lags(t):
            res = self.ring.residual(t, self.ring.x[self.ring.head], self.ring.y[self.ring.head], self.ring.z[self.ring.head])
            if self.att.on:
                # the residual's own noise, sqrt(6) sigma an axis, reaches confirm_res now and then under a 15 mg
                # part; with the gravity tests guarding the window, a jerk must clear that reach too
                if res > self.confirm_res + self.confirm_noise_k * math.sqrt(6.0 * self.noise.sig2):
                    c[9] = t  # judged once the let-go is known (below)
            elif res > self.confirm_res:
                bad = True
        if not bad and age >= self.confirm_t and c[2] > 0:
            h = self.ring.head
            if self.flight.held(c, m, t, (self.ring.x[h], self.ring.y[h], self.ring.z[h]), self.att, self.noise.sig2,
                                self.ring.dt):
                bad = True
            elif self._cand_launch(c, t, out):
                return
            else:
                bad = True
        if bad:
            self._cand = None
            self._wind_peak = 0.0

    def _cand_add(self, c, age, t, m):
        # type: (list, int, int, float) -> bool
        """Add a sample to the candidate's window; True if |a| already shows a hand (it rose, reached support or
        swung more than a flight's drag and tumble can)."""
        bad = False
        c[1] += m
        c[2] += 1
        if m < c[3]:
            c[3] = m
            c[16] = t
        if m > c[4]:
            c[4] = m
        allow = c[5]
        if c[8] > 0:
            # with the gyroscope: a spin's w^2 r turns with the body, so |a| may swing by twice it as the spin
            # axis wanders (no hand spins what it holds)
            allow += 2.0 * self.flight.spin_g(c)
        if m - c[3] > self.confirm_rise + allow:
            bad = True
        if m >= self.support_hi:
            bad = True
        # flight is steady: a running stride's dip is followed by the next stance push
        if c[4] - c[3] > self.confirm_range + allow:
            bad = True
        if self.att.on:
            h = self.ring.head
            self.flight.add(c, age, self.ring.x[h], self.ring.y[h], self.ring.z[h], self.att,
                            self.ring.dt if self.ring.dt > 0 else 1000)
        return bad

    def _cand_launch(self, c, t, out):
        # type: (list, int, list) -> bool
        """The window shows a free body: report the launch at the let-go, unless a jerk came wholly after it."""
        w2 = c[7] / c[8] if c[8] else 0.0
        if c[17]:
            # only the vector swung: the let-go is where it settled on the flight's
            stamp = self.release.let_go_end(c[0], c[1] / c[2], c[5], w2, False)
        else:
            stamp = self.release.release_stamp(c[0], c[1] / c[2], self._wind_peak)
        if c[9] >= 0 and c[9] - self.lag2 >= self.release.let_go_end(stamp, c[1] / c[2], c[5], w2):
            # a jerk whose lags lie wholly past the let-go: not a free flight.  Without the gyroscope the
            # first jerk after confirm_skip ends the candidate, since that early check is what turns away a pump
            # fake's brake; with it the gravity test does, and the fingers' last push, which can swing the
            # reading 0.45 g in 10 ms and reach past confirm_skip, is not taken for a jerk in flight
            return False
        self._launch(stamp, self._wind_peak, t, out)
        return True

    def _launch(self, stamp, peak, t, out):
        # type: (int, float, int, list) -> None
        out.append((stamp, "launch", round(peak, 3)))
        # a plain drop: a free fall with no windup in the windup_timeout before it (not a throw's release)
        plain = self._cand is None and (self._wind_t == 0 or stamp - self._wind_t > self.windup_timeout)
        self.resolve.launched(stamp, plain)
        self._moved = True
        self._cand = None
        self._wind_peak = 0.0
        self.release.low_since = None
        self.contact.restart(t)
        self._go(ST_FLIGHT, t)

    # --------------------------------------------------------------- badge
    def _badge(self, t, ax, ay, az, m, out):
        # type: (int, float, float, float, float, list) -> None
        p = self.contact.pulse
        if p is not None:
            self.contact.step(t, ax, ay, az, m)
            if t - p[0] >= self.badge_win:
                # a hit is over within the window; a step or a landing is still high at its end
                ended = self.contact.samples[-1][1] < 0.5 * p[1]
                t0, res, pm, fwhm = self._end_pulse()
                if res >= self.badge_min_g and fwhm <= self.badge_fwhm and ended:
                    out.append((t0, "impact", round(pm, 3)))
                    self._badge_until = t0 + self.badge_refract
                self.contact.quiet = t
            return
        if t < self._badge_until or t < self.contact.quiet or not self.ring.have_lags(t):
            return
        if self.ring.residual(t, ax, ay, az) > self.badge_res:
            self.contact.start(t, self.onset_res * 2)
