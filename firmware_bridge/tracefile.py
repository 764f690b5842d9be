"""The trace CSV format every detector tool reads: microseconds and g, time increasing, with the part's angular rate
in rad/s as three more columns when its gyroscope was on.

Headers: `t_us,ax,ay,az` (accelerometer only) or `t_us,ax,ay,az,gx,gy,gz` (gyroscope on, same body axes). Kept apart
from the command line so that the recordings and tuning modules can read traces without importing it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from typing import TypeAlias

HEADER = ("t_us", "ax", "ay", "az")
GYRO_HEADER = HEADER + ("gx", "gy", "gz")

#: One row as read: (t_us, ax, ay, az), or (t_us, ax, ay, az, gx, gy, gz) from a file with the gyro columns -- in
#: the order `Detector.feed` takes them, so `det.feed(*row)` feeds either.
Sample: TypeAlias = tuple[int, float, float, float]
Row: TypeAlias = tuple[int, float, float, float] | tuple[int, float, float, float, float, float, float]
Gyro: TypeAlias = tuple[float, float, float]


#: No accelerometer or gyroscope we read goes near these (+-16 g, +-35 rad/s); a larger value is a damaged row, and
#: 1e308 would overflow the detector's squares.
MAX_ABS = {"ax": 1000.0, "ay": 1000.0, "az": 1000.0, "gx": 1000.0, "gy": 1000.0, "gz": 1000.0}
#: t_us is a device's microsecond clock: never negative, and below 2**53 (285 years) it stays exact as a float.
MAX_T_US = 2**53


class TraceError(ValueError):
    """A malformed trace; str() is the one-line message, with the line number."""

    def __init__(self, source: str, line: int, problem: str) -> None:
        super().__init__(f"{source}:{line}: {problem}")
        self.line = line


def read_rows(lines: Iterable[str], source: str = "<trace>") -> Iterator[Row]:
    """Yield every row of either format, one at a time: 4-tuples from `t_us,ax,ay,az`, 7-tuples from
    `t_us,ax,ay,az,gx,gy,gz`; raise TraceError on the first bad line.

    Rules: the first non-empty line is exactly one of the two headers; every row has as many fields as the header;
    t_us is an integer in 0..2**53 that strictly increases; the other fields are finite numbers within +-1000.  Blank lines are skipped.
    """
    header: tuple[str, ...] | None = None
    last_t: int | None = None
    for n, raw in enumerate(lines, start=1):
        line = raw.strip()
        if n == 1:
            line = line.lstrip("\ufeff")
        if not line:
            continue
        fields = [f.strip() for f in line.split(",")]
        if header is None:
            names = tuple(f.lower() for f in fields)
            if names not in (HEADER, GYRO_HEADER):
                raise TraceError(source, n, f"bad header {line[:60]!r}, expected 't_us,ax,ay,az' or "
                                            "'t_us,ax,ay,az,gx,gy,gz'")
            header = names
            continue
        if len(fields) != len(header):
            raise TraceError(source, n, f"expected {len(header)} columns ({','.join(header)}), got {len(fields)}")
        try:
            t = int(fields[0])
        except ValueError:
            raise TraceError(source, n, f"t_us is not an integer: {fields[0][:30]!r}") from None
        if not 0 <= t < MAX_T_US:
            raise TraceError(source, n, f"t_us {fields[0][:30]} is outside 0..2**53 microseconds")
        vals = [_reading(source, n, name, text) for name, text in zip(header[1:], fields[1:])]
        if last_t is not None and t <= last_t:
            what = "goes backwards" if t < last_t else "repeats"
            raise TraceError(source, n, f"time {what}: t_us {t} after {last_t}")
        last_t = t
        if len(vals) == 6:
            yield t, vals[0], vals[1], vals[2], vals[3], vals[4], vals[5]
        else:
            yield t, vals[0], vals[1], vals[2]
    if header is None:
        raise TraceError(source, 1, "empty file, expected the header 't_us,ax,ay,az' (or with ',gx,gy,gz')")


def _reading(source: str, n: int, name: str, text: str) -> float:
    """One sensor field of line `n`: a finite number no sensor exceeds, else TraceError."""
    try:
        v = float(text)
    except ValueError:
        raise TraceError(source, n, f"{name} is not a number: {text[:30]!r}") from None
    if not math.isfinite(v):
        raise TraceError(source, n, f"{name} is not finite: {text[:30]!r}")
    if abs(v) > MAX_ABS[name]:
        raise TraceError(source, n, f"{name} {text[:30]} is beyond +-{MAX_ABS[name]:g} (no sensor reads that)")
    return v


def read_trace(lines: Iterable[str], source: str = "<trace>") -> Iterator[Sample]:
    """Yield (t_us, ax, ay, az) from CSV lines of either format (the gyro columns, checked, are left out), for the
    callers that use the accelerometer only; raise TraceError on the first bad line (rules: `read_rows`)."""
    for row in read_rows(lines, source):
        yield row[0], row[1], row[2], row[3]


def split_rows(rows: Iterable[Row]) -> tuple[list[Sample], list[Gyro]]:
    """Rows -> (samples, gyro) in `Trace`'s shape: the gyro list is empty for an accelerometer-only file."""
    samples: list[Sample] = []
    gyro: list[Gyro] = []
    for row in rows:
        samples.append((row[0], row[1], row[2], row[3]))
        if len(row) == 7:
            gyro.append((row[4], row[5], row[6]))
    return samples, gyro


def join_rows(samples: Sequence[Sample], gyro: Sequence[Gyro]) -> list[Row]:
    """(samples, gyro) -> rows for `det.feed(*row)`: with the angular rate when there is one per sample."""
    if not gyro:
        return list(samples)
    if len(gyro) != len(samples):
        raise ValueError(f"{len(gyro)} gyro readings for {len(samples)} samples")
    return [(s[0], s[1], s[2], s[3], g[0], g[1], g[2]) for s, g in zip(samples, gyro)]
