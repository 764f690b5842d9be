"""Generate the table's sound clips with the standard library only (``wave`` + ``math``): no downloads, no licences.

    python game/table/assets/make_sounds.py        # rewrites the .wav files next to this script

Every clip is a short arcade-style motif: square and triangle waves, pitch sweeps and seeded noise, 44.1 kHz mono
16-bit. Each call has a motif (three rising blips for a Brawl, a low horn for War...), so players learn them like a
pinball machine's; the spoken announcer (``game/table/voice.py``) talks over them. Zombie Burrito and Taco vs Burrito
have their own: No Bueno, the Health Inspector, an elimination, a revive, a Team Marker flip.

Every clip is normalised to one loudness (``game.table.loudness.TARGET_LUFS``, BS.1770 integrated loudness), so a
hit is no louder than a tie: peak levels differed by 6 dB and say little about loudness anyway. Deterministic: the
same script writes the same bytes.
"""

from __future__ import annotations

import math
import random
import struct
import sys
import wave
from pathlib import Path

try:
    from game.table import loudness
except ModuleNotFoundError:  # run as a plain script from a checkout that is not installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    from game.table import loudness

RATE = 44100
HERE = Path(__file__).resolve().parent


def tone(freq: float, dur: float, shape: str = "square", vol: float = 0.5, end_freq: float | None = None) -> list[float]:
    n = int(RATE * dur)
    out, phase = [], 0.0
    for i in range(n):
        f = freq if end_freq is None else freq + (end_freq - freq) * i / n
        phase += f / RATE
        x = phase % 1.0
        if shape == "square":
            v = 1.0 if x < 0.5 else -1.0
        elif shape == "tri":
            v = 4 * abs(x - 0.5) - 1
        else:
            v = math.sin(2 * math.pi * x)
        env = min(1.0, i / (0.005 * RATE), (n - i) / (0.02 * RATE))  # click-free edges
        out.append(v * vol * env)
    return out


def noise(dur: float, vol: float = 0.5, seed: int = 1) -> list[float]:
    rng = random.Random(seed)
    n = int(RATE * dur)
    return [rng.uniform(-1, 1) * vol * (1 - i / n) for i in range(n)]


def silence(dur: float) -> list[float]:
    return [0.0] * int(RATE * dur)


def mix(*tracks: list[float]) -> list[float]:
    n = max(len(t) for t in tracks)
    return [sum(t[i] for t in tracks if i < len(t)) for i in range(n)]


CLIPS = {
    "countdown.wav": lambda: tone(440, 0.15) + silence(0.35) + tone(440, 0.15) + silence(0.35) + tone(440, 0.15)
    + silence(0.35) + tone(880, 0.5, vol=0.6),
    "hit.wav": lambda: mix(noise(0.25, 0.6, 2), tone(220, 0.3, "square", 0.5, 80)),
    "miss.wav": lambda: tone(600, 0.35, "tri", 0.5, 200),
    "catch.wav": lambda: tone(523, 0.1) + tone(659, 0.1) + tone(784, 0.1) + tone(1047, 0.25),
    "tie.wav": lambda: (tone(392, 0.12) + silence(0.05)) * 2 + mix(tone(392, 0.3), tone(494, 0.3)),
    "bruise.wav": lambda: tone(330, 0.15, "square", 0.5) + tone(262, 0.35, "square", 0.5, 180),
    "badge.wav": lambda: tone(262, 0.12) + tone(330, 0.12) + tone(392, 0.12) + mix(tone(523, 0.6), tone(659, 0.6, "tri")),
    "win.wav": lambda: sum((tone(f, 0.12) for f in (523, 659, 784, 1047, 784, 1047)), []) + tone(1319, 0.8, "tri", 0.6),
    "brawl.wav": lambda: tone(330, 0.08) + silence(0.04) + tone(440, 0.08) + silence(0.04) + tone(554, 0.2),
    "war.wav": lambda: mix(tone(110, 0.6, "square", 0.4), tone(165, 0.6, "tri", 0.4)),
    "duel.wav": lambda: tone(880, 0.1, "tri") + silence(0.1) + tone(880, 0.1, "tri") + tone(660, 0.4, "tri"),
    "round.wav": lambda: tone(784, 0.15) + tone(659, 0.15) + tone(523, 0.15) + tone(392, 0.5, "tri"),
    "final.wav": lambda: mix(tone(98, 0.9, "square", 0.35, 196), noise(0.9, 0.15, 3)),
    # Zombie Burrito: a groaning horn for Battle!, a set laid, a falling groan when a seat is out, a rising
    # sparkle for a revive, a card flip and a chord for a Team Marker
    "zb_battle.wav": lambda: mix(tone(82, 0.7, "square", 0.4, 98), tone(123, 0.7, "tri", 0.4, 110), noise(0.7, 0.1, 4)),
    "zb_set.wav": lambda: tone(660, 0.06) + tone(990, 0.14, "tri"),
    "eliminated.wav": lambda: mix(tone(220, 0.6, "square", 0.4, 55), noise(0.6, 0.2, 5)),
    "revive.wav": lambda: sum((tone(f, 0.07, "tri") for f in (392, 523, 659, 784)), []) + mix(tone(1047, 0.4, "tri"), tone(1568, 0.4, "sine", 0.3)),
    "marker.wav": lambda: noise(0.06, 0.6, 6) + silence(0.04) + mix(tone(523, 0.45), tone(659, 0.45, "tri"), tone(784, 0.45, "tri")),
    # Taco vs Burrito: a two-note "no bue-no" buzzer, the Health Inspector's whistle
    "no_bueno.wav": lambda: tone(392, 0.16, "square", 0.5) + silence(0.03) + tone(294, 0.16) + silence(0.03) + tone(220, 0.35, "square", 0.5, 180),
    "health_inspector.wav": lambda: tone(900, 0.25, "sine", 0.6, 1400) + tone(1400, 0.25, "sine", 0.6, 900) + tone(900, 0.25, "sine", 0.6, 1400) + tone(1400, 0.3, "sine", 0.6, 700),
}


def write(path: Path, samples: list[float]) -> tuple[float, float]:
    """Normalise to the table's loudness and write 16-bit mono; returns the loudness (LUFS) before and after."""
    samples, before, after = loudness.normalise(samples, RATE)
    frames = b"".join(struct.pack("<h", int(max(-1.0, min(1.0, s)) * 32767)) for s in samples)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(frames)
    return before, after


def main() -> None:
    for name, make in CLIPS.items():
        before, after = write(HERE / name, make())
        print(f"{HERE / name}  {before:6.2f} -> {after:6.2f} LUFS")


if __name__ == "__main__":
    main()
