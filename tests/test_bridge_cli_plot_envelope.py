"""`detect --plot` in bounded memory: the trace streams into a min-max envelope of at most twice `columns` time
buckets, so a 10-million-row trace costs what a short one does, and no spike is lost to the folding."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest

from firmware_bridge.plot import Envelope, draw, envelope_of


def test_envelope_stays_bounded_and_keeps_every_spike() -> None:
    """200,000 rows fold into at most 2 x 100 buckets; a one-sample 9 g spike and a -7 g dip are still the
    envelope's extremes, at the bucket holding them."""
    env = Envelope(columns=100)
    for i in range(200_000):
        az = 9.0 if i == 123_457 else -7.0 if i == 54_321 else 1.0
        env.add((i * 1000, 0.0, 0.0, az))
        assert len(env.buckets) <= 200
    assert env.rows == 200_000
    assert env.peak(2) == 9.0 and env.peak(3) == 9.0
    assert min(b[4 + 2] for b in env.buckets) == -7.0
    spike = [b for b in env.buckets if b[9 + 2] == 9.0]
    assert len(spike) == 1 and spike[0][2] <= 123_457 * 1000 <= spike[0][3]
    assert sum(int(b[1]) for b in env.buckets) == 200_000


def test_a_short_trace_is_drawn_sample_by_sample() -> None:
    """Fewer samples than buckets: every sample is its own point, exactly (no folding below the pixel grid)."""
    rows = [(i * 5000, 0.1 * i, 0.0, 1.0, 0.0, 0.0, 2.0) for i in range(50)]
    env = envelope_of(rows)
    xs, ys = env.series(0)
    assert xs == pytest.approx([i * 0.005 for i in range(50)]) and ys == [0.1 * i for i in range(50)]
    assert env.gyro and env.peak(4) == 2.0
    assert math.isclose(env.peak(3), math.sqrt(4.9 ** 2 + 1))


def test_draw_writes_a_picture_with_thousands_of_events(tmp_path: Path) -> None:
    """Events are drawn exactly, one line collection per kind: 5,000 events (a long session) stay cheap, and the
    picture is a PNG."""
    env = envelope_of((i * 1000, 0.0, 0.0, 1.0) for i in range(20_000))
    events = [(i * 4000, "impact" if i % 2 else "launch", 3.0) for i in range(5000)]
    buf = io.BytesIO()
    draw(env, events, buf, "png", "long")
    assert buf.getvalue()[:8] == b"\x89PNG\r\n\x1a\n"
