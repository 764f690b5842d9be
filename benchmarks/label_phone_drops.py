"""Convert and label the public phone drop/toss recordings used as real evidence for the detector.

    python benchmarks/label_phone_drops.py RAW_DIR OUT_DIR

RAW_DIR holds the unpacked trials of "Air Resistance From the Acceleration of a Falling Smartphone" (F. Saliby,
CC0 1.0; phyphox exports, one folder per trial with "Raw Data.csv": time s, acceleration x/y/z m/s^2, |a|; a BMI160
at ~200 Hz). Each trial becomes OUT_DIR/<trial>.csv.gz in the `burrito-table detect` format (t_us,ax,ay,az in g) and
a sidecar <trial>.json with labelled events, found with hindsight over the whole trial (never with the detector):

- launch: the first sample of the first free-fall run (|a| < 0.3 g for >= 100 ms): the hand no longer holds it;
- impact: the first sample after that run whose |a| is 0.1 g above the run's own level and keeps rising or stays
  above it for the next two samples (the first touch, even when the force then climbs slowly);
- rest: after the last contact, the first sample from which the 250 ms spread of every axis stays within 4x the
  trial's quiet noise until the next movement;
- pickup: after that rest, the first sample of the first departure of 0.05 g from the resting vector that lasts
  100 ms (the hand takes it back); a "rest" that a departure ends within 0.3 s was a hand holding it still, and
  neither is labelled.
Bounces are not labelled (the foam/cushion hops are not separable by eye at 200 Hz).
"""

from __future__ import annotations

import csv
import gzip
import json
import math
import os
import sys

G = 9.80665


def load(path: str) -> list[tuple[int, float, float, float]]:
    rows: list[tuple[int, float, float, float]] = []
    with open(path, encoding="utf-8") as fh:
        rd = csv.reader(fh)
        next(rd)
        last = -1
        for r in rd:
            t = int(round(float(r[0]) * 1e6))
            if t <= last:
                continue
            last = t
            rows.append((t, float(r[1]) / G, float(r[2]) / G, float(r[3]) / G))
    return rows


def label(s: list[tuple[int, float, float, float]]) -> list[dict[str, object]]:
    n = len(s)
    t = [r[0] for r in s]
    m = [math.sqrt(r[1] ** 2 + r[2] ** 2 + r[3] ** 2) for r in s]
    events: list[dict[str, object]] = []
    # first free-fall run of >= 100 ms
    i = 0
    run = None
    while i < n:
        if m[i] < 0.3:
            j = i
            while j + 1 < n and m[j + 1] < 0.3:
                j += 1
            if t[j] - t[i] >= 100_000:
                run = (i, j)
                break
            i = j + 1
        else:
            i += 1
    if run is None:
        return events
    i, j = run
    events.append({"kind": "launch", "t": t[i] / 1e6, "source": "confirmed"})
    mid = sorted(m[i + (j - i) // 4: j - (j - i) // 4 + 1])
    level = mid[len(mid) // 2]
    k = j + 1
    while k + 2 < n and not (m[k] > level + 0.1 and m[k + 1] >= m[k] - 0.05 and m[k + 2] > level + 0.1):
        k += 1
    events.append({"kind": "impact", "t": t[k] / 1e6, "source": "confirmed"})
    # quiet noise: the smallest 250 ms spread after the contact
    w = max(5, int(round(250_000 / ((t[-1] - t[0]) / (n - 1)))))

    def spread(a: int) -> float:
        seg = s[a: a + w]
        out = 0.0
        for ax in (1, 2, 3):
            vals = [r[ax] for r in seg]
            mu = sum(vals) / len(vals)
            out = max(out, math.sqrt(sum((v - mu) ** 2 for v in vals) / len(vals)))
        return out

    spreads = [spread(a) for a in range(k, n - w)]
    if not spreads:
        return events
    floor = max(min(spreads), 0.002)
    quiet = [sp <= 4 * floor for sp in spreads]
    # rest: the first quiet window after the last loud one that precedes a long quiet stretch (>= 0.4 s)
    a = 0
    rest_at = None
    while a < len(quiet):
        if quiet[a]:
            b = a
            while b + 1 < len(quiet) and quiet[b + 1]:
                b += 1
            if t[k + b] - t[k + a] >= 400_000 and all(m[x] < 1.6 for x in range(k + a, k + b + 1)):
                rest_at = k + a
                break
            a = b + 1
        else:
            a += 1
    if rest_at is None:
        return events
    events.append({"kind": "rest", "t": t[rest_at] / 1e6, "source": "confirmed"})
    ref = [sum(r[ax] for r in s[rest_at: rest_at + w]) / w for ax in (1, 2, 3)]
    x = rest_at + w
    while x < n:
        d = math.sqrt(sum((s[x][ax] - ref[ax - 1]) ** 2 for ax in (1, 2, 3)))
        if d > 0.05:
            y = x
            while y < n and math.sqrt(sum((s[y][ax] - ref[ax - 1]) ** 2 for ax in (1, 2, 3))) > 0.03:
                y += 1
            if t[min(y, n - 1)] - t[x] >= 100_000 or y >= n:
                # walk back to the first sample that left the resting vector
                z = x
                while z > rest_at and math.sqrt(sum((s[z - 1][ax] - ref[ax - 1]) ** 2 for ax in (1, 2, 3))) > 0.02:
                    z -= 1
                if t[z] - t[rest_at] < 300_000:
                    events.pop()  # moved again at once: that was a hand holding it still, not a rest
                else:
                    events.append({"kind": "pickup", "t": t[z] / 1e6, "source": "confirmed"})
                break
            x = y
        x += 1
    return events


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    raw, out = argv
    os.makedirs(out, exist_ok=True)
    for name in sorted(os.listdir(raw)):
        path = os.path.join(raw, name, "Raw Data.csv")
        if not os.path.exists(path):
            continue
        s = load(path)
        rate = round((len(s) - 1) / ((s[-1][0] - s[0][0]) / 1e6))
        with gzip.open(os.path.join(out, name + ".csv.gz"), "wt", encoding="utf-8", newline="") as fh:
            fh.write("t_us,ax,ay,az\n")
            for r in s:
                fh.write(f"{r[0]},{r[1]:.4f},{r[2]:.4f},{r[3]:.4f}\n")
        side = {"device": "phone-bmi160", "kind": "burrito", "rate_hz": rate, "events": label(s)}
        with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as fh:
            json.dump(side, fh, indent=1)
            fh.write("\n")
        print(name, [(e["kind"], e["t"]) for e in label(s)])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
