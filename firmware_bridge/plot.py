"""`burrito-table detect --plot TRACE.csv OUT.png`: the trace with its detected (and labelled) events marked.

matplotlib is an optional extra (`pip install -e '.[plot]'`); it is imported only here, with the Agg backend, so
the command works headless and the rest of the package never needs it.

A picture has about 1,100 pixel columns for the trace, so the samples are folded as they stream into at most
`MAX_COLUMNS` time buckets holding each channel's minimum and maximum: a 10-million-row trace takes the memory of a
short one, every spike still shows at its height, and a trace shorter than that is drawn sample by sample. Events
are kept exact.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import IO

from firmware_bridge.tracefile import Row

#: Marker colour per event kind (the same in every picture, so pictures compare at a glance).
COLOURS = {
    "pickup": "#1f77b4",
    "launch": "#2ca02c",
    "impact": "#d62728",
    "catch": "#9467bd",
    "bounce": "#ff7f0e",
    "rest": "#7f7f7f",
}
#: Time buckets kept: about twice the picture's pixel columns, so no column is one bucket short.
MAX_COLUMNS = 2400
#: Above this many events the kind names are left off the picture (the lines stay): the text would be a smear.
MAX_EVENT_NAMES = 200
#: Formats the picture may be written as (the output's suffix picks one).
FORMATS = (".png", ".svg", ".pdf")

_CHANNELS = 5  # ax, ay, az, |a|, |w|


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed (an environment fault, not bad input)."""


class Envelope:
    """Each channel's minimum and maximum per time bucket, for rows arriving in time order. When there are more
    than twice `columns` buckets, the bucket width doubles and neighbours merge, so memory stays bounded."""

    def __init__(self, columns: int = MAX_COLUMNS) -> None:
        self.columns = columns
        self.width = 1  # microseconds per bucket
        self.t0: int | None = None
        self.rows = 0
        self.gyro = False
        #: [bucket index, n, t_first, t_last, min x5, max x5]
        self.buckets: list[list[float]] = []

    def add(self, row: Row) -> None:
        t = row[0]
        if self.t0 is None:
            self.t0 = t
            self.gyro = len(row) == 7
        vals = (row[1], row[2], row[3], math.sqrt(row[1] ** 2 + row[2] ** 2 + row[3] ** 2),
                math.sqrt(row[4] ** 2 + row[5] ** 2 + row[6] ** 2) if len(row) == 7 else 0.0)
        k = (t - self.t0) // self.width
        self.rows += 1
        if self.buckets and self.buckets[-1][0] == k:
            b = self.buckets[-1]
            b[1] += 1
            b[3] = t
            for i, v in enumerate(vals):
                if v < b[4 + i]:
                    b[4 + i] = v
                if v > b[9 + i]:
                    b[9 + i] = v
            return
        self.buckets.append([k, 1, t, t, *vals, *vals])
        if len(self.buckets) > 2 * self.columns:
            while len(self.buckets) > self.columns:  # sparse rows: one doubling may merge nothing
                self._halve()

    def _halve(self) -> None:
        self.width *= 2
        merged: list[list[float]] = []
        for b in self.buckets:
            k = int(b[0]) // 2
            if merged and merged[-1][0] == k:
                m = merged[-1]
                m[1] += b[1]
                m[3] = b[3]
                for i in range(_CHANNELS):
                    m[4 + i] = min(m[4 + i], b[4 + i])
                    m[9 + i] = max(m[9 + i], b[9 + i])
            else:
                merged.append([k, *b[1:]])
        self.buckets = merged

    def series(self, channel: int) -> tuple[list[float], list[float]]:
        """(seconds from the first sample, value) to draw: a bucket of one sample is that sample, a fuller one a
        vertical stroke from its minimum to its maximum at its middle time."""
        xs: list[float] = []
        ys: list[float] = []
        t0 = self.t0 or 0
        for b in self.buckets:
            x = ((b[2] + b[3]) / 2 - t0) / 1e6
            xs.append(x)
            ys.append(b[4 + channel])
            if b[1] > 1:
                xs.append(x)
                ys.append(b[9 + channel])
        return xs, ys

    def peak(self, channel: int) -> float:
        return max((b[9 + channel] for b in self.buckets), default=0.0)


def envelope_of(rows: Iterable[Row], columns: int = MAX_COLUMNS) -> Envelope:
    env = Envelope(columns)
    for row in rows:
        env.add(row)
    return env


def draw(
    env: Envelope,
    events: Sequence[tuple[int, str, float]],
    out: IO[bytes],
    fmt: str = "png",
    title: str = "",
    labels: Sequence[tuple[int, str]] = (),
) -> None:
    """Draw ax, ay, az and |a| against time (s from the first sample), a solid line per detected event and a dashed
    one per labelled event (when a sidecar gives them), and write the picture to `out`. With the angular rate, |w|
    goes on a second axis in rad/s: a spin in flight and its stop at a contact show next to the specific force."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise PlotUnavailable(f"--plot needs matplotlib ({exc}); install it with: pip install -e '.[plot]'") from None
    if not env.rows:
        raise ValueError("the trace has no samples")
    t0 = env.t0 or 0
    fig, ax = plt.subplots(figsize=(12, 4.5), dpi=100)
    try:
        for i, (name, colour) in enumerate((("ax", "#e377c2"), ("ay", "#17becf"), ("az", "#bcbd22"))):
            ax.plot(*env.series(i), color=colour, lw=0.7, label=name)
        ax.plot(*env.series(3), color="black", lw=1.0, label="|a|")
        top = max(2.0, min(8.0, env.peak(3)))
        _mark_events(ax, events, t0, top)
        for kind in sorted({k for _, k in labels}):
            xs = [(t - t0) / 1e6 for t, k in labels if k == kind]
            ax.vlines(xs, -top, top, colors=COLOURS.get(kind, "black"), lw=1.0, linestyles="--")
        ax.set_ylim(-top, top)
        ax.set_xlabel("time since the first sample (s)")
        ax.set_ylabel("specific force (g)")
        ax.set_title(title + ("   (solid: detected, dashed: labelled)" if labels else ""))
        ax.grid(alpha=0.3)
        handles, names = ax.get_legend_handles_labels()
        if env.gyro:
            ax2 = ax.twinx()
            (line,) = ax2.plot(*env.series(4), color="#8c564b", lw=0.8, alpha=0.8, label="|w|")
            ax2.set_ylim(0.0, max(1.0, env.peak(4)) * 1.05)
            ax2.set_ylabel("angular rate (rad/s)")
            handles.append(line)
            names.append("|w|")
        ax.legend(handles, names, loc="lower right", fontsize=8, ncol=4)
        fig.tight_layout()
        fig.savefig(out, format=fmt)
    finally:
        plt.close(fig)


def _mark_events(ax: object, events: Sequence[tuple[int, str, float]], t0: int, top: float) -> None:
    """One line collection per kind (a long trace's thousands of events stay cheap), named when there are few."""
    for kind in sorted({k for _, k, _ in events}):
        xs = [(t - t0) / 1e6 for t, k, _ in events if k == kind]
        c = COLOURS.get(kind, "black")
        ax.vlines(xs, -top, top, colors=c, lw=1.4, label=kind)  # type: ignore[attr-defined]
        if len(events) <= MAX_EVENT_NAMES:
            for x in xs:
                ax.text(x, top * 0.97, " " + kind, color=c, rotation=90, va="top", fontsize=8)  # type: ignore[attr-defined]


def plot_trace(
    samples: Sequence[tuple[int, float, float, float]],
    events: Sequence[tuple[int, str, float]],
    out_path: str,
    title: str = "",
    labels: Sequence[tuple[int, str]] = (),
    gyro: Sequence[tuple[float, float, float]] = (),
) -> None:
    """Samples in memory (and their angular rate, one per sample, or none) -> a picture at `out_path`, written
    through a temporary file (see `safefile.write_output`)."""
    from firmware_bridge.safefile import write_output

    if gyro and len(gyro) != len(samples):
        raise ValueError(f"{len(gyro)} gyro readings for {len(samples)} samples")
    rows: Iterable[Row] = ((s[0], s[1], s[2], s[3], g[0], g[1], g[2]) for s, g in zip(samples, gyro)) if gyro \
        else iter(samples)
    env = envelope_of(rows)
    fmt = out_path.rsplit(".", 1)[-1].lower() if "." in out_path else "png"
    write_output(out_path, lambda fh: draw(env, events, fh, fmt, title, labels))
