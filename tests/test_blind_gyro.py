"""The blind simulator's gyroscope (benchmarks/blind_sim.py): the same motion as its accelerometer, an LSM6DSO's errors.

The gyro is only worth scoring a detector on if it reads the motion the accelerometer reads: integrated over a flight
it must give back the simulator's own orientation change (to within what its offset, sensitivity error and noise
allow), it must read its zero-rate offset while the burrito lies still, and adding it must not move a single
accelerometer bit or label of any trace.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import blind_sim  # noqa: E402
from blind_sim import FS_INT, GYRO, SENSORS, Trace, body_rate, rotvec_to_matrix, simulate  # noqa: E402

# (scenario, rate, noise, seed): throws of both styles, a hard hit and a drop, at every rate; no flight here clips
FLIGHTS = [("throw_catch_under", 833, "low", 11), ("throw_catch_over", 1666, "high", 12),
           ("throw_hit_hard", 400, "low", 13), ("pump_fake_throw", 200, "high", 14), ("drop_table", 1666, "low", 15)]
RESTING = [("pickup_hold", 833, "low", 21), ("throw_hit_body", 1666, "high", 22), ("drop_table", 200, "low", 23),
           ("rest_knocks", 400, "high", 24)]


def _angle_deg(r: np.ndarray) -> float:
    """The rotation angle of a rotation matrix, in degrees."""
    return math.degrees(math.acos(max(-1.0, min(1.0, (float(np.trace(r)) - 1.0) / 2.0))))


def _integrate(rates: np.ndarray, dt: float) -> np.ndarray:
    """Chain body-frame rates (rad/s, one per output period) into the rotation they turn through."""
    r = np.eye(3)
    for step in rotvec_to_matrix(rates * dt):
        r = r @ step
    return r


def _flight(tr: Trace) -> tuple[int, int]:
    """Sample indices of the launch and of the last sample before the next contact (free flight between them)."""
    t = tr.t_us / 1e6
    launch = next(lb for lb in tr.labels if lb.kind == "launch")
    contact = next(lb for lb in tr.labels if lb.kind in ("catch", "impact") and lb.t > launch.t)
    return int(np.searchsorted(t, launch.t - 1e-9)), int(np.searchsorted(t, contact.t - 1e-9)) - 1


def test_body_rate_turns_each_orientation_into_the_next_exactly() -> None:
    m = blind_sim._build_burrito(np.random.default_rng(5), "throw_catch_over")
    _, rots = m.finish()
    w = body_rate(rots)
    assert w.shape == (len(rots), 3) and not w[0].any()
    steps = rotvec_to_matrix(w[1:] / FS_INT)
    assert np.abs(rots[:-1] @ steps - rots[1:]).max() < 1e-12
    assert np.degrees(np.linalg.norm(w, axis=1)).max() > 300  # it does tumble


@pytest.mark.parametrize(("scenario", "rate", "noise", "seed"), FLIGHTS)
def test_gyro_integrates_back_to_the_orientation_change_over_a_flight(scenario: str, rate: int, noise: str,
                                                                      seed: int) -> None:
    tr = simulate(scenario, rate, noise, seed)
    assert tr.gyro is not None and tr.orient is not None and tr.gyro_setup is not None
    gs = tr.gyro_setup
    ia, ib = _flight(tr)
    assert np.degrees(np.abs(tr.gyro[ia: ib + 1])).max() < GYRO.full_scale_dps - 1  # these flights do not clip
    dt = 1.0 / tr.rate_hz
    dur = (ib - ia) * dt
    assert dur > 0.15
    truth = tr.orient[ia].T @ tr.orient[ib]  # sensor axes at launch -> sensor axes before the contact
    g = tr.gyro[ia + 1: ib + 1]
    path_deg = float(np.degrees(np.linalg.norm(g, axis=1)).sum() * dt)

    # as read: the error is what a 1-sigma 1 dps offset and 1 % sensitivity and cross-axis errors can build up (4 sigma)
    cross = next(m.cross_axis for m in SENSORS if m.name == tr.meta["sensor"])
    gain_err = math.sqrt(3 * GYRO.sens_tol**2 + 6 * cross**2)
    budget = 4 * (GYRO.offset_dps * math.sqrt(3) * dur + gain_err * path_deg) + 0.5
    err_raw = _angle_deg(_integrate(g, dt).T @ truth)
    assert err_raw < budget, (err_raw, budget)

    # with this part's own offset and gain taken out, only noise, 70 mdps steps and the output averaging are left
    corrected = np.radians((np.degrees(g) - gs.bias_dps) @ np.linalg.inv(gs.gain).T)
    err = _angle_deg(_integrate(corrected, dt).T @ truth)
    assert err < 0.5, (err, _angle_deg(truth))
    # and it is the motion that was integrated, not nothing: standing still would be far off
    assert _angle_deg(truth) > 10 * max(err, 0.5) or path_deg < 10


@pytest.mark.parametrize(("scenario", "rate", "noise", "seed"), RESTING)
def test_gyro_reads_its_zero_rate_offset_while_the_burrito_lies_still(scenario: str, rate: int, noise: str,
                                                                      seed: int) -> None:
    tr = simulate(scenario, rate, noise, seed)
    assert tr.gyro is not None and tr.gyro_setup is not None and tr.orient is not None
    gs = tr.gyro_setup
    t = tr.t_us / 1e6
    moves = [lb.t for lb in tr.labels if lb.kind != "rest"]
    spans = [t < (min(moves) if moves else t[-1]) - 0.02]  # lying still before anything happens
    rests = [lb.t for lb in tr.labels if lb.kind == "rest" and not lb.optional]
    if rests:
        spans.append(t > rests[-1] + 0.3)  # and after it has settled again
    lsb = GYRO.lsb_mdps * 1e-3
    sd_expected = math.sqrt(gs.noise_dps**2 + lsb**2 / 12)
    for m in spans:
        assert m.sum() > 100
        g = np.degrees(tr.gyro[m])
        mean = g.mean(axis=0)
        assert np.all(np.abs(mean) < 4 * GYRO.offset_dps)  # about zero: within the offset's spread
        assert np.all(np.abs(mean - gs.bias_dps) < 0.05)  # in fact this part's own offset
        assert np.all((g.std(axis=0) > 0.75 * sd_expected) & (g.std(axis=0) < 1.3 * sd_expected))
        # and the true orientation there is the one the accelerometer sees: gravity up, in the sensor's axes (to
        # within 4 sigma of the accelerometer's zero-g offset and 3 of its sensitivity and cross-axis errors)
        up = tr.orient[m][:, 2, :]
        part = next(p for p in SENSORS if p.name == tr.meta["sensor"])
        tol = 4e-3 * max(part.offset_mg) + 3 * (part.sens_tol + 2 * part.cross_axis)
        assert np.abs(tr.acc[m].mean(axis=0) - up.mean(axis=0)).max() < tol


@pytest.mark.parametrize("scenario", blind_sim.SCENARIOS)
def test_accelerometer_samples_and_labels_are_the_same_with_and_without_the_gyro(scenario: str) -> None:
    seed = 31 + len(scenario)
    on, off = simulate(scenario, 833, "low", seed), simulate(scenario, 833, "low", seed, gyro=False)
    assert off.gyro is None and off.orient is None and off.gyro_setup is None
    assert on.gyro is not None and on.gyro.shape == on.acc.shape and on.orient is not None
    assert np.array_equal(on.t_us, off.t_us) and on.acc.tobytes() == off.acc.tobytes()
    assert [vars(lb) for lb in on.labels] == [vars(lb) for lb in off.labels]
    assert on.settle == off.settle and on.rate_hz == off.rate_hz and on.samples() == off.samples()
    assert len(on.gyro_samples()) == len(on.samples())
    with pytest.raises(ValueError):
        off.gyro_samples()


def test_gyro_stream_is_the_seeds_own_and_stays_inside_full_scale() -> None:
    a, b = simulate("throw_catch_over", 1666, "low", 41), simulate("throw_catch_over", 1666, "low", 41)
    c = simulate("throw_catch_over", 1666, "low", 42)
    assert a.gyro is not None and b.gyro is not None and c.gyro is not None
    assert np.array_equal(a.gyro, b.gyro) and not np.array_equal(a.gyro[:100], c.gyro[:100])
    lsb = GYRO.lsb_mdps * 1e-3
    dps = np.degrees(a.gyro)
    assert np.abs(dps).max() <= GYRO.full_scale_dps
    assert np.allclose(dps / lsb, np.round(dps / lsb), atol=1e-6)  # whole 70 mdps steps


def test_csv_has_gyro_columns_only_when_asked(tmp_path: Path) -> None:
    tr = simulate("drop_table", 400, "low", 51)
    tr.write(tmp_path / "a.csv")
    tr.write(tmp_path / "g.csv", gyro=True)
    plain = (tmp_path / "a.csv").read_text(encoding="utf-8").splitlines()
    with_g = (tmp_path / "g.csv").read_text(encoding="utf-8").splitlines()
    assert plain[0] == "t_us,ax,ay,az" and with_g[0] == "t_us,ax,ay,az,gx,gy,gz"
    assert len(plain) == len(with_g) == len(tr.t_us) + 1
    assert all(g.startswith(p + ",") for p, g in zip(plain[1:], with_g[1:]))
    k = len(tr.t_us) // 2
    assert [float(x) for x in with_g[k + 1].split(",")[4:]] == pytest.approx(list(tr.gyro_samples()[k]), abs=1e-9)
