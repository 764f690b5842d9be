"""The trace CSV format every detector tool reads: header `t_us,ax,ay,az`, microseconds and g, time increasing.

Kept apart from the command line so that the recordings and tuning modules can read traces without importing it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

HEADER = ("t_us", "ax", "ay", "az")


class TraceError(ValueError):
    """A malformed trace; str() is the one-line message, with the line number."""

    def __init__(self, source: str, line: int, problem: str) -> None:
        super().__init__(f"{source}:{line}: {problem}")
        self.line = line


def read_trace(lines: Iterable[str], source: str = "<trace>") -> Iterator[tuple[int, float, float, float]]:
    """Yield (t_us, ax, ay, az) from CSV lines, one at a time; raise TraceError on the first bad line.

    Rules: the first non-empty line is exactly the header `t_us,ax,ay,az`; each row has 4 fields; t_us is an integer
    that strictly increases; accelerations are finite numbers.  Blank lines are skipped.
    """
    seen_header = False
    last_t: int | None = None
    for n, raw in enumerate(lines, start=1):
        line = raw.strip()
        if n == 1:
            line = line.lstrip("\ufeff")
        if not line:
            continue
        fields = [f.strip() for f in line.split(",")]
        if not seen_header:
            if tuple(f.lower() for f in fields) != HEADER:
                raise TraceError(source, n, f"bad header {line[:60]!r}, expected 't_us,ax,ay,az'")
            seen_header = True
            continue
        if len(fields) != 4:
            raise TraceError(source, n, f"expected 4 columns (t_us,ax,ay,az), got {len(fields)}")
        try:
            t = int(fields[0])
        except ValueError:
            raise TraceError(source, n, f"t_us is not an integer: {fields[0][:30]!r}") from None
        vals = []
        for name, text in zip(HEADER[1:], fields[1:]):
            try:
                v = float(text)
            except ValueError:
                raise TraceError(source, n, f"{name} is not a number: {text[:30]!r}") from None
            if not math.isfinite(v):
                raise TraceError(source, n, f"{name} is not finite: {text[:30]!r}")
            vals.append(v)
        if last_t is not None and t <= last_t:
            what = "goes backwards" if t < last_t else "repeats"
            raise TraceError(source, n, f"time {what}: t_us {t} after {last_t}")
        last_t = t
        yield t, vals[0], vals[1], vals[2]
    if not seen_header:
        raise TraceError(source, 1, "empty file, expected the header 't_us,ax,ay,az'")
