"""Loudness: the stdlib BS.1770 meter agrees with the standard's numbers and with pyloudnorm; normalising hits the target."""

from __future__ import annotations

import math
import random

import numpy as np
import pyloudnorm

from game.table import loudness


def test_k_weighting_at_48k_is_the_standards_coefficients() -> None:
    """BS.1770-4 Table 1 and 2 give the 48 kHz filter; the design for any rate must reproduce them."""
    (b1, a1), (b2, a2) = loudness._k_weighting(48000)
    assert np.allclose(b1, (1.53512485958697, -2.69169618940638, 1.19839281085285), atol=1e-9)
    assert np.allclose(a1, (-1.69065929318241, 0.73248077421585), atol=1e-9)
    assert np.allclose(a2, (-1.99004745483398, 0.99007225036621), atol=1e-9)
    assert b2 == (1.0, -2.0, 1.0)


def test_a_full_scale_997_hz_sine_measures_minus_3_01_lufs() -> None:
    """BS.1770's calibration: a 0 dBFS 1 kHz sine in one channel reads -3.01 LKFS."""
    rate = 48000
    sine = [math.sin(2 * math.pi * 997 * i / rate) for i in range(rate * 2)]
    assert abs(loudness.integrated(sine, rate) - (-3.01)) < 0.01


def test_agrees_with_pyloudnorm_on_speechlike_and_gated_signals() -> None:
    """Within 0.3 LU of pyloudnorm (whose filter is a slightly different K-weighting fit) at 22.05 and 44.1 kHz."""
    rng = random.Random(3)
    for rate in (22050, 44100):
        # bursts with silences: the gates matter
        sig = []
        for k in range(8):
            n = int(rate * 0.3)
            amp = 0.1 + 0.1 * (k % 3)
            sig += [amp * math.sin(2 * math.pi * (200 + 90 * k) * i / rate) + rng.uniform(-0.05, 0.05) for i in range(n)]
            sig += [0.0] * int(rate * 0.2)
        ours = loudness.integrated(sig, rate)
        theirs = pyloudnorm.Meter(rate).integrated_loudness(np.array(sig))
        assert abs(ours - theirs) < 0.3, (rate, ours, theirs)


def test_normalise_hits_the_target_and_respects_the_ceiling() -> None:
    rate = 44100
    quiet = [0.01 * math.sin(2 * math.pi * 440 * i / rate) for i in range(rate)]
    out, before, after = loudness.normalise(quiet, rate)
    assert before < -40 and after == loudness.TARGET_LUFS
    assert abs(loudness.integrated(out, rate) - loudness.TARGET_LUFS) < 0.01
    # a click train: tiny loudness, huge peaks -> stops at the ceiling, short of the target
    clicks = [0.5 if i % 4410 == 0 else 0.0 for i in range(rate)]
    out, _, after = loudness.normalise(clicks, rate)
    assert abs(loudness.peak_db(out) - loudness.PEAK_CEILING_DB) < 1e-9 and after < loudness.TARGET_LUFS


def test_silence_is_left_alone() -> None:
    out, before, after = loudness.normalise([0.0] * 1000, 44100)
    assert out == [0.0] * 1000 and before == -math.inf and after == -math.inf
