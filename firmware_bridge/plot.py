"""`burrito-table detect --plot TRACE.csv OUT.png`: the trace with its detected (and labelled) events marked.

matplotlib is an optional extra (`pip install -e '.[plot]'`); it is imported only here, with the Agg backend, so
the command works headless and the rest of the package never needs it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Marker colour per event kind (the same in every picture, so pictures compare at a glance).
COLOURS = {
    "pickup": "#1f77b4",
    "launch": "#2ca02c",
    "impact": "#d62728",
    "catch": "#9467bd",
    "bounce": "#ff7f0e",
    "rest": "#7f7f7f",
}


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed (an environment fault, not bad input)."""


def plot_trace(
    samples: Sequence[tuple[int, float, float, float]],
    events: Sequence[tuple[int, str, float]],
    out_path: str,
    title: str = "",
    labels: Sequence[tuple[int, str]] = (),
    gyro: Sequence[tuple[float, float, float]] = (),
) -> None:
    """Draw ax, ay, az and |a| against time (s from the first sample), a solid line per detected event and a dashed
    one per labelled event (when a sidecar gives them), and write a PNG. With the angular rate (one per sample), |w|
    goes on a second axis in rad/s: a spin in flight and its stop at a contact show next to the specific force."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise PlotUnavailable(f"--plot needs matplotlib ({exc}); install it with: pip install -e '.[plot]'") from None
    if not samples:
        raise ValueError("the trace has no samples")
    t0 = samples[0][0]
    ts = [(s[0] - t0) / 1e6 for s in samples]
    fig, ax = plt.subplots(figsize=(12, 4.5), dpi=100)
    for i, (name, colour) in enumerate((("ax", "#e377c2"), ("ay", "#17becf"), ("az", "#bcbd22"))):
        ax.plot(ts, [s[i + 1] for s in samples], color=colour, lw=0.7, label=name)
    ax.plot(ts, [math.sqrt(s[1] ** 2 + s[2] ** 2 + s[3] ** 2) for s in samples], color="black", lw=1.0, label="|a|")
    top = max(2.0, min(8.0, max(math.sqrt(s[1] ** 2 + s[2] ** 2 + s[3] ** 2) for s in samples)))
    seen: set[str] = set()
    for t, kind, _peak in events:
        x = (t - t0) / 1e6
        c = COLOURS.get(kind, "black")
        ax.axvline(x, color=c, lw=1.4, label=kind if kind not in seen else None)
        ax.text(x, top * 0.97, " " + kind, color=c, rotation=90, va="top", fontsize=8)
        seen.add(kind)
    for t, kind in labels:
        ax.axvline((t - t0) / 1e6, color=COLOURS.get(kind, "black"), lw=1.0, ls="--")
    ax.set_ylim(-top, top)
    ax.set_xlabel("time since the first sample (s)")
    ax.set_ylabel("specific force (g)")
    ax.set_title(title + ("   (solid: detected, dashed: labelled)" if labels else ""))
    ax.grid(alpha=0.3)
    handles, names = ax.get_legend_handles_labels()
    if gyro:
        if len(gyro) != len(samples):
            raise ValueError(f"{len(gyro)} gyro readings for {len(samples)} samples")
        rate = [math.sqrt(g[0] ** 2 + g[1] ** 2 + g[2] ** 2) for g in gyro]
        ax2 = ax.twinx()
        (line,) = ax2.plot(ts, rate, color="#8c564b", lw=0.8, alpha=0.8, label="|w|")
        ax2.set_ylim(0.0, max(1.0, max(rate)) * 1.05)
        ax2.set_ylabel("angular rate (rad/s)")
        handles.append(line)
        names.append("|w|")
    ax.legend(handles, names, loc="lower right", fontsize=8, ncol=4)
    fig.tight_layout()
    fig.savefig(out_path)
    plt.close(fig)
