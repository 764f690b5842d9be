"""A synthetic angular rate for the simulated traces, for tests of the gyro channel's plumbing (files, wire, host).

These tests check that gx, gy, gz travel unchanged end to end, not what the detector makes of them, so the rate only
needs to be plausible and different on every axis and sample: a burrito spins in flight (a few rad/s, the tumble of a
table throw), wobbles in the hand and is still at rest, plus seeded sensor noise.
"""

from __future__ import annotations

import math
import random

from firmware_bridge.traces import Trace


def with_gyro(tr: Trace, seed: int = 0) -> Trace:
    """The trace with a synthetic ``gyro`` filled in (one reading per sample, rad/s); its samples are unchanged."""
    rng = random.Random(f"gyro-helper:{tr.scenario}:{seed}")
    flights: list[tuple[int, int]] = []
    launch: int | None = None
    for t, kind in sorted(tr.truth):
        if kind == "launch":
            launch = t
        elif kind in ("impact", "catch") and launch is not None:
            flights.append((launch, t))
            launch = None
    spin = (rng.uniform(-6.0, 6.0), rng.uniform(-6.0, 6.0), rng.uniform(8.0, 14.0))
    gyro = []
    for t, ax, ay, az in tr.samples:
        flying = any(a <= t <= b for a, b in flights)
        moving = abs(math.sqrt(ax * ax + ay * ay + az * az) - 1.0) > 0.05
        base = spin if flying else ((0.8 * math.sin(t / 90_000.0), 0.5 * math.cos(t / 70_000.0), 0.3) if moving
                                    else (0.0, 0.0, 0.0))
        gyro.append(tuple(b + rng.gauss(0.0, 0.004) for b in base))
    out = Trace(tr.scenario, tr.device, tr.rate_hz, list(tr.samples), list(tr.truth))
    out.gyro = [(g[0], g[1], g[2]) for g in gyro]
    return out
