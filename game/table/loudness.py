"""Loudness as ITU-R BS.1770-4 / EBU R128 measure it, in the standard library, and normalising to one target.

Every clip and every spoken phrase goes through :func:`normalise` so that a hit, a tie and "Seat 3 is hit!" are
equally loud: peak levels say little about how loud a sound feels (a square wave at half scale is louder than a
noise burst at full scale). The table's clips are generated at build time and its phrases rendered on a Pi, so
this needs no numpy: two biquads (the K-weighting) and the gated mean square. ``tests/test_loudness.py`` checks
it against pyloudnorm.

Table clips are short (0.3-1.7 s). A clip shorter than one 400 ms gating block is measured as one block, its whole
length: BS.1770 leaves such clips undefined, and one block of the whole clip is what a listener hears.
"""

from __future__ import annotations

import math
import struct
import wave
from collections.abc import Sequence
from pathlib import Path

#: the table's loudness target (LUFS): EBU R128 broadcasts at -23; -20 leaves espeak-ng's speech (peaks 16-19 dB
#: above its loudness) under the ceiling without limiting, and the mixer volume makes up the level
TARGET_LUFS = -20.0
#: no sample may pass this after normalising (dBFS): headroom for the mixer summing an effect under speech
PEAK_CEILING_DB = -1.0

_BLOCK_S = 0.4
_ABSOLUTE_GATE = -70.0


def _biquad(x: Sequence[float], b: tuple[float, float, float], a: tuple[float, float]) -> list[float]:
    """Direct form I filter; ``a`` holds a1, a2 (a0 = 1)."""
    b0, b1, b2 = b
    a1, a2 = a
    x1 = x2 = y1 = y2 = 0.0
    out = [0.0] * len(x)
    for i, v in enumerate(x):
        y = b0 * v + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1, y2, y1 = x1, v, y1, y
        out[i] = y
    return out


def _k_weighting(rate: int) -> list[tuple[tuple[float, float, float], tuple[float, float]]]:
    """The two K-weighting stages (the head's high shelf, then the RLB high-pass) designed for ``rate``.

    Derived from the analogue prototypes as in BS.1770-4's reference (and pyloudnorm), so any sample rate works:
    espeak-ng speaks at 22,050 Hz, the clips are 44,100 Hz.
    """
    # stage 1: high shelf, +4 dB above about 1.7 kHz
    g, q, fc = 3.999843853973347, 0.7071752369554196, 1681.974450955533
    k = math.tan(math.pi * fc / rate)
    vh = 10 ** (g / 20)
    vb = vh ** 0.4996667741545416
    a0 = 1 + k / q + k * k
    shelf = (((vh + vb * k / q + k * k) / a0, 2 * (k * k - vh) / a0, (vh - vb * k / q + k * k) / a0),
             (2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0))
    # stage 2: high-pass at about 38 Hz
    q, fc = 0.5003270373238773, 38.13547087602444
    k = math.tan(math.pi * fc / rate)
    a0 = 1 + k / q + k * k
    highpass = ((1.0, -2.0, 1.0), (2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0))
    return [shelf, highpass]


def integrated(samples: Sequence[float], rate: int) -> float:
    """Integrated loudness of mono ``samples`` (floats, full scale 1.0) in LUFS; ``-inf`` for silence."""
    if not samples:
        return -math.inf
    y: Sequence[float] = samples
    for b, a in _k_weighting(rate):
        y = _biquad(y, b, a)
    block = int(round(_BLOCK_S * rate))
    hop = block // 4
    # running sums of squares, so each 400 ms block costs O(1)
    cum = [0.0]
    total = 0.0
    for v in y:
        total += v * v
        cum.append(total)
    if len(y) < block:
        powers = [total / len(y)]
    else:
        powers = [(cum[s + block] - cum[s]) / block for s in range(0, len(y) - block + 1, hop)]

    def lufs(p: float) -> float:
        return -0.691 + 10 * math.log10(p) if p > 0 else -math.inf

    kept = [p for p in powers if lufs(p) > _ABSOLUTE_GATE]
    if not kept:
        return -math.inf
    relative = lufs(sum(kept) / len(kept)) - 10.0
    kept = [p for p in kept if lufs(p) > relative]
    return lufs(sum(kept) / len(kept))


def peak_db(samples: Sequence[float]) -> float:
    top = max((abs(s) for s in samples), default=0.0)
    return 20 * math.log10(top) if top > 0 else -math.inf


def normalise(samples: Sequence[float], rate: int, target: float = TARGET_LUFS,
              ceiling_db: float = PEAK_CEILING_DB) -> tuple[list[float], float, float]:
    """``samples`` scaled to ``target`` LUFS, but never past ``ceiling_db`` peak: (samples, before, after).

    A sound whose peak would pass the ceiling is left quieter than the target rather than clipped or limited:
    ``after`` then says by how much it falls short.
    """
    before = integrated(samples, rate)
    if before == -math.inf:
        return list(samples), before, before
    gain_db = min(target - before, ceiling_db - peak_db(samples))
    gain = 10 ** (gain_db / 20)
    out = [s * gain for s in samples]
    return out, before, before + gain_db


def read_wav(path: Path) -> tuple[list[float], int]:
    """A 16-bit mono or stereo WAV as mono floats (stereo averaged) and its rate."""
    with wave.open(str(path), "rb") as w:
        if w.getsampwidth() != 2:
            raise ValueError(f"{path}: {8 * w.getsampwidth()}-bit samples, expected 16-bit")
        channels, rate = w.getnchannels(), w.getframerate()
        raw = w.readframes(w.getnframes())
    ints = struct.unpack(f"<{len(raw) // 2}h", raw)
    if channels == 1:
        return [v / 32768.0 for v in ints], rate
    return [sum(ints[i:i + channels]) / (channels * 32768.0) for i in range(0, len(ints), channels)], rate


def write_wav(path: Path, samples: Sequence[float], rate: int) -> None:
    """16-bit mono; samples are clamped to full scale."""
    frames = struct.pack(f"<{len(samples)}h", *(int(round(max(-1.0, min(1.0, s)) * 32767)) for s in samples))
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(frames)
