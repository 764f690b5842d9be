"""Fit the detector's parameters to a table's own labelled recordings (`burrito-table detect --tune DIR`).

Every game a table plays can leave labelled recordings (the referee's confirmed calls and the players' answers);
refitting on all of them makes the table's detector fit its own burritos, floor and players. The fit is a coordinate
search over the parameters whose right value depends on the hardware and the room (thresholds with a physical reason
but an uncertain size), each tried at a few multiples of its current value, keeping a change only when it scores
strictly better. It is judged by k-fold cross-validation: each fold is fitted on the others and scored on itself, so
the printed "after" figures are on recordings the fit never saw. The parameter file written at the end is fitted on
every recording.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from firmware_bridge.firmware.detector import DEFAULTS
from firmware_bridge.progress import progress
from firmware_bridge.recordings import Counts, Recording, merge, run_detector, score
from firmware_bridge.safefile import FileProblem, brief, read_json, write_output

#: The parameters the fit may move, and why each is uncertain.
TUNABLE = (
    "contact_res",  # how sharp a contact is depends on the foam and the floor
    "windup_g",  # how hard this table's players throw
    "confirm_range",  # how much a burrito's spin wobbles in flight
    "hard_g",  # how hard a catch can be with these hands
    "pick_dev",  # how far a pickup turns or lifts it
    "still_t",  # how long the landing surface rocks
    "noise_trem_k",  # how strong these players' tremor is against this sensor's noise
    "jerk_h",  # how slowly a contact on this table's bodies rises
    "look_turn_w",  # how still these players' hands hold it (with the gyroscope on)
    "look_rock_a",  # how much these players' hands shake it, against how the landing surface rocks it (gyroscope)
)
FACTORS = (0.75, 1.33)
#: Contacts and launches decide the game (ties, hits, catches): they weigh double.
WEIGHTS = {"launch": 2.0, "impact": 2.0, "catch": 2.0, "pickup": 1.0, "rest": 1.0, "bounce": 0.5}


#: The largest value a parameter may take: the largest default is 5e6 (microseconds), and a float32 on the device
#: holds this exactly enough.
MAX_PARAM = 1e9
#: Bounds of the --tune options: more workers than this only waits on memory; a pass that changes nothing stops
#: the search, so more passes than this never run.
MAX_JOBS = 64
MAX_PASSES = 100


class TuneError(ValueError):
    """Bad tuning input (no recordings, a bad parameter file); str() is the one-line message."""


def objective(c: Counts) -> float:
    """Weighted F1 per kind, less a small penalty per ms of mean contact-timing error (ties are decided on it)."""
    total = 0.0
    for kind, (tp, fn, fp, errs) in c.items():
        f1 = 2 * tp / (2 * tp + fn + fp) if tp + fn + fp else 1.0
        total += WEIGHTS.get(kind, 1.0) * f1
        if kind in ("impact", "catch", "launch") and errs:
            total -= 0.01 * (sum(abs(e) for e in errs) / len(errs)) / 1000.0
    return total


def _eval_one(args: tuple[Recording, dict[str, float]]) -> Counts:
    rec, params = args
    return score(rec, run_detector(rec, params))


def evaluate(recs: list[Recording], params: dict[str, float], pool: ProcessPoolExecutor | None) -> Counts:
    total: Counts = {}
    work = [(r, params) for r in recs]
    results = pool.map(_eval_one, work) if pool is not None else map(_eval_one, work)
    for c in results:
        merge(total, c)
    return total


def fit(recs: list[Recording], start: dict[str, float], passes: int, pool: ProcessPoolExecutor | None,
        tick: Callable[[], None] = lambda: None) -> dict[str, float]:
    """Coordinate search from `start`; returns the full parameter dict."""
    best = dict(start)
    best_score = objective(evaluate(recs, best, pool))
    tick()
    for _ in range(passes):
        improved = False
        for name in TUNABLE:
            base = best[name]
            for f in FACTORS:
                trial = dict(best)
                v = base * f
                trial[name] = int(round(v)) if isinstance(DEFAULTS[name], int) else round(v, 4)
                sc = objective(evaluate(recs, trial, pool))
                tick()
                if sc > best_score + 1e-9:
                    best, best_score, improved = trial, sc, True
        if not improved:
            break
    return best


def load_params(path: str) -> dict[str, float]:
    """Read a parameter file {"version": N, "params": {...}} (the host pushes N with CONFIG); raise TuneError
    naming the file and the problem. Every detector parameter is a threshold, a time or a factor: a finite number
    above 0."""
    try:
        doc = read_json(path)
    except FileProblem as exc:
        raise TuneError(str(exc)) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("params"), dict):
        raise TuneError(f"{path}: expected {{\"version\": N, \"params\": {{...}}}}, not {type(doc).__name__}")
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= 0xFFFF:
        raise TuneError(f"{path}: version must be an integer 1-65535, not {brief(version)}")
    params = doc["params"]
    for k, v in params.items():
        if k not in DEFAULTS:
            raise TuneError(f"{path}: params.{brief(k)[1:-1]}: unknown detector parameter")
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise TuneError(f"{path}: params.{k}: not a finite number: {brief(v)}")
        if not 0 < v <= MAX_PARAM:
            raise TuneError(f"{path}: params.{k}: {brief(v)} is outside 0 < value <= {MAX_PARAM:g}")
    return dict(params)


def write_params(path: str, params: dict[str, float]) -> None:
    """Write only the parameters that differ from DEFAULTS (the file stays readable and survives new defaults),
    through a temporary file renamed over `path`: FileProblem and the old file unchanged if that fails."""
    changed = {k: v for k, v in params.items() if DEFAULTS.get(k) != v}
    text = json.dumps({"version": 1, "params": changed}, indent=1, sort_keys=True) + "\n"
    write_output(path, lambda fh: fh.write(text.encode("utf-8")))


def _table(before: Counts, after: Counts) -> list[str]:
    lines = [f"{'kind':8} {'truth':>5} | {'precision':>9} {'recall':>6} {'p95 ms':>6} | {'precision':>9} {'recall':>6} "
             f"{'p95 ms':>6}", f"{'':8} {'':5} | {'before':^24} | {'after':^24}"]
    for kind in ("pickup", "launch", "impact", "catch", "bounce", "rest"):
        if kind not in before and kind not in after:
            continue
        row = f"{kind:8} "
        b = before.get(kind, [0, 0, 0, []])
        row += f"{b[0] + b[1]:5d} |"
        for c in (b, after.get(kind, [0, 0, 0, []])):
            tp, fn, fp, errs = c
            p = tp / (tp + fp) if tp + fp else 1.0
            r = tp / (tp + fn) if tp + fn else 1.0
            e = sorted(abs(x) / 1000.0 for x in errs)
            p95 = e[min(len(e) - 1, int(round(0.95 * (len(e) - 1))))] if e else float("nan")
            row += f" {p:9.3f} {r:6.3f} {p95:6.2f} |"
        lines.append(row.rstrip("|").rstrip())
    return lines


def tune(recs: list[Recording], start: dict[str, float], folds: int = 3, passes: int = 1, jobs: int = 2,
         out: Callable[[str], None] = print) -> tuple[dict[str, float], Counts, Counts]:
    """Cross-validate, print before/after per kind on held-out recordings, and return (params fitted on all
    recordings, held-out counts before, held-out counts after)."""
    if not recs:
        raise TuneError("no labelled recordings to tune on")
    k = max(2, min(folds, len(recs)))
    groups = [recs[i::k] for i in range(k)]
    evals_per_fit = 1 + passes * len(TUNABLE) * len(FACTORS)
    before: Counts = {}
    after: Counts = {}
    with ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else _NoPool() as pool:
        bar = progress(range(evals_per_fit * (k + 1)), total=evals_per_fit * (k + 1), desc="tuning")
        it = iter(bar)

        def tick() -> None:
            next(it, None)

        p = pool if isinstance(pool, ProcessPoolExecutor) else None
        for i, held in enumerate(groups):
            train = [r for j, g in enumerate(groups) if j != i for r in g]
            fitted = fit(train, start, passes, p, tick)
            merge(before, evaluate(held, start, p))
            merge(after, evaluate(held, fitted, p))
        final = fit(recs, start, passes, p, tick)
    out(f"{len(recs)} recordings, {k}-fold cross-validation (figures on held-out recordings):")
    for line in _table(before, after):
        out(line)
    moved = {n: (start[n], final[n]) for n in TUNABLE if start[n] != final[n]}
    if moved:
        out("changed on all recordings: " + ", ".join(f"{n} {a:g} -> {b:g}" for n, (a, b) in moved.items()))
    else:
        out("no parameter change scores better on these recordings: the parameters in force are kept")
    return final, before, after


class _NoPool:
    """Stand-in context for jobs=1: evaluate in this process."""

    def __enter__(self) -> _NoPool:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None
