"""The announcer: render time at start (cold and warm cache), and cue -> first audio sample of a cached phrase.

    python benchmarks/bench_voice.py [--trials 200] [--buffer 2048]

"First audio sample" is measured inside the mixer: a post-mix hook (SDL_mixer's ``Mix_SetPostMix``, reached with
ctypes in the SDL_mixer pygame-ce loaded) sees every buffer SDL's audio thread mixes; the time from calling
``Sound.announce`` with a rules cue to the first mixed buffer that is not silent is the latency. SDL's dummy audio
driver runs that thread in real time without a sound card, so the figure is the mixer's (buffer size and thread
wake-up), not a device's.
"""

from __future__ import annotations

import argparse
import ctypes
import glob
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

CUES = ["HIT! Seat 3 is hit by seat 1", "Round 1! Seat 4 counts: 3, 2, 1, Burrito!", "BRAWL! called by seat 2",
        "CATCH! Seat 2 catches seat 4's burrito", "Back to back... 3, 2, 1, Burrito!"]


def mixer_library() -> ctypes.CDLL:
    import pygame

    libs = Path(pygame.__file__).resolve().parent.parent / "pygame_ce.libs"
    found = sorted(glob.glob(str(libs / "libSDL2_mixer*.so*"))) or ["libSDL2_mixer-2.0.so.0"]
    return ctypes.CDLL(found[0])


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=200)
    args = ap.parse_args()

    import pygame

    from game.registry import GAMES
    from game.table import sound as sound_mod
    from game.table.sound import Sound
    from game.table.voice import known_phrases

    cache = Path(tempfile.mkdtemp(prefix="bench-voice-"))
    phrases = sum(len(known_phrases(g, 6)) for g in GAMES)
    t = time.perf_counter()
    snd = Sound.open(cache=cache)
    assert snd is not None and snd.announcer is not None, snd.voice_note if snd else "no mixer"
    for g in GAMES:  # what the lobby asks for, every installed game at six seats
        snd.prepare(g, 6)
    assert snd.announcer.wait(600)
    cold = time.perf_counter() - t
    renders = [s for _, s in snd.announcer.rendered]
    snd.close()
    pygame.mixer.quit()
    t = time.perf_counter()
    snd = Sound.open(cache=cache)
    assert snd is not None and snd.announcer is not None
    for g in GAMES:
        snd.prepare(g, 6)
    assert snd.announcer.wait(600)
    warm = time.perf_counter() - t
    print(f"espeak-ng: {snd.voice_note}; mixer buffer {sound_mod.BUFFER} samples at {sound_mod.FREQUENCY} Hz "
          f"({1000 * sound_mod.BUFFER / sound_mod.FREQUENCY:.1f} ms)")
    print(f"start-up phrases ({len(GAMES)} games x 6 seats, anonymous): {phrases}")
    print(f"  cold cache: {cold:.2f} s to render + normalise + load all; per phrase p50 {1000 * statistics.median(renders):.0f}"
          f" ms, max {1000 * max(renders):.0f} ms")
    print(f"  warm cache: {warm:.2f} s to load all")

    mix = mixer_library()
    heard = threading.Event()
    silent = threading.Event()
    heard_at = [0.0]
    hook_type = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint8), ctypes.c_int)

    def postmix(_udata: int, stream: Any, length: int) -> None:
        now = time.perf_counter()
        buf = ctypes.string_at(stream, length)
        if buf.count(0) != length:
            if not heard.is_set():
                heard_at[0] = now
                heard.set()
        else:
            silent.set()

    hook = hook_type(postmix)
    mix.Mix_SetPostMix.argtypes = [hook_type, ctypes.c_void_p]
    mix.Mix_SetPostMix(hook, None)
    lat: list[float] = []
    voice = snd.announcer.channel
    rng = random.Random(1)
    period = sound_mod.BUFFER / sound_mod.FREQUENCY
    try:
        for i in range(args.trials):
            voice.stop()
            silent.clear()
            if not silent.wait(2):
                print("the mixer's audio thread is not running", file=sys.stderr)
                return 1
            time.sleep(rng.uniform(0, period))  # cues land anywhere in the mixer's period
            heard.clear()
            t0 = time.perf_counter()
            snd.announce(CUES[i % len(CUES)])
            if not heard.wait(2):
                print(f"trial {i}: no sound within 2 s", file=sys.stderr)
                return 1
            lat.append(heard_at[0] - t0)
    finally:
        mix.Mix_SetPostMix(hook_type(0), None)
        snd.close()
        pygame.quit()
    ms = [1000 * x for x in lat]
    print(f"cue -> first audio sample of a cached phrase, {len(ms)} cues: p50 {pct(ms, 0.5):.1f} ms, "
          f"p99 {pct(ms, 0.99):.1f} ms, max {max(ms):.1f} ms (aim: p99 < 50 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
