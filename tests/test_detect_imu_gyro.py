"""The LSM6DSO driver with the gyroscope on (firmware_bridge/firmware/imu.py): the gyro at the accelerometer's rate and
+-2000 dps (70 mdps/LSB) in the tagged FIFO, and each time slot's gyro and accel words paired into one 6-axis sample
in g and rad/s, whatever their order and wherever a read ends. Against the register-level chip model of
test_detect_imu."""

from __future__ import annotations

import math
import struct

import pytest
from test_detect_imu import FakeLSM6DSO

from firmware_bridge.firmware import imu

RAD = 0.070 * math.pi / 180.0  # rad/s per LSB at +-2000 dps
G = 0.000488


def push(chip: FakeLSM6DSO, tag: int, slot: int, x: int, y: int, z: int) -> None:
    chip.fifo.append(bytes([(tag << 3) | ((slot & 3) << 1)]) + struct.pack("<hhh", x, y, z))


def test_gyro_on_runs_at_the_accelerometer_rate_at_2000_dps_and_batches_both() -> None:
    chip = FakeLSM6DSO()
    dev = imu.IMU(chip, gyro=True, sleep_ms=lambda ms: None)
    assert chip.regs[imu.CTRL2_G] == 0x7C  # ODR_G 833 Hz (0x7 << 4), FS_G 2000 dps (0b11 << 2)
    assert chip.regs[imu.FIFO_CTRL3] == 0x77  # BDR_GY and BDR_XL at 833 Hz
    assert chip.regs[imu.CTRL1_XL] == 0x74 and chip.regs[imu.FIFO_CTRL4] == 0x06
    assert dev.rad_per_lsb == pytest.approx(RAD)
    imu.IMU(chip, rate_hz=1666, gyro=True, sleep_ms=lambda ms: None)
    assert chip.regs[imu.CTRL2_G] == 0x8C and chip.regs[imu.FIFO_CTRL3] == 0x88
    with pytest.raises(imu.IMUError, match="gyro full scale"):
        imu.IMU(chip, gyro=True, gyro_dps=4000, sleep_ms=lambda ms: None)


def test_gyro_off_leaves_it_powered_down_and_skips_its_words() -> None:
    chip = FakeLSM6DSO()
    dev = imu.IMU(chip, sleep_ms=lambda ms: None)
    assert chip.regs[imu.CTRL2_G] == 0 and chip.regs[imu.FIFO_CTRL3] == 0x07
    push(chip, imu.TAG_GYRO, 0, 100, 200, 300)
    push(chip, imu.TAG_ACCEL, 0, 1, 2, 2049)
    assert dev.read_fifo() == [pytest.approx((G, 2 * G, 2049 * G))] and dev.skipped == 1


@pytest.mark.parametrize("gyro_first", [True, False])
def test_read_fifo_pairs_each_slots_gyro_and_accel_words_into_six_axis_samples(gyro_first: bool) -> None:
    """70 slots (140 words, several 32-word reads, with timestamp words between) come out as 70 samples in order,
    each accel with its own slot's rate, in either word order."""
    chip = FakeLSM6DSO()
    dev = imu.IMU(chip, gyro=True, sleep_ms=lambda ms: None)
    for i in range(70):
        words = [(imu.TAG_GYRO, (10 * i, -20 * i, 32767 - i)), (imu.TAG_ACCEL, (i, -i, 2049))]
        for tag, xyz in words if gyro_first else words[::-1]:
            push(chip, tag, i, *xyz)
        if i % 10 == 0:
            chip.push_other()
    out = dev.read_fifo()
    assert len(out) == 70 and dev.skipped == 7 and dev.pairer.unpaired == 0 and dev.pairer.lone_gyro == 0
    for i, s in enumerate(out):
        assert s == pytest.approx((i * G, -i * G, 2049 * G, 10 * i * RAD, -20 * i * RAD, (32767 - i) * RAD))


@pytest.mark.parametrize("first, second", [(imu.TAG_GYRO, imu.TAG_ACCEL), (imu.TAG_ACCEL, imu.TAG_GYRO)])
def test_a_slot_split_across_two_reads_is_paired_when_its_second_word_comes(first: int, second: int) -> None:
    chip = FakeLSM6DSO()
    dev = imu.IMU(chip, gyro=True, sleep_ms=lambda ms: None)
    words = {imu.TAG_GYRO: (100, 0, 0), imu.TAG_ACCEL: (0, 0, 2049)}
    push(chip, first, 1, *words[first])
    assert dev.read_fifo() == []
    push(chip, second, 1, *words[second])
    assert dev.read_fifo() == [pytest.approx((0.0, 0.0, 2049 * G, 100 * RAD, 0.0, 0.0))]
    assert dev.pairer.unpaired == 0


def test_an_accel_word_with_no_gyro_word_still_comes_out_with_the_newest_rate_and_is_counted() -> None:
    """Every accelerometer sample is kept (samples are stamped by counting them): a slot whose gyro word was lost
    takes the rate of the slot before; a gyro word with no accel word is counted and dropped."""
    chip = FakeLSM6DSO()
    dev = imu.IMU(chip, gyro=True, sleep_ms=lambda ms: None)
    push(chip, imu.TAG_ACCEL, 0, 0, 0, 1000)  # the gyro's start-up: no rate yet
    push(chip, imu.TAG_GYRO, 1, 5, 6, 7)
    push(chip, imu.TAG_ACCEL, 1, 1, 0, 1000)
    push(chip, imu.TAG_ACCEL, 2, 2, 0, 1000)  # its gyro word lost
    push(chip, imu.TAG_GYRO, 3, 8, 9, 10)  # its accel word lost
    push(chip, imu.TAG_GYRO, 0, 1, 1, 1)
    push(chip, imu.TAG_ACCEL, 0, 3, 0, 1000)
    out = dev.read_fifo()
    assert [round(s[0] / G) for s in out] == [0, 1, 2, 3]
    assert out[0][3:] == (0.0, 0.0, 0.0)
    assert out[1][3:] == pytest.approx((5 * RAD, 6 * RAD, 7 * RAD)) and out[2][3:] == out[1][3:]
    assert out[3][3:] == pytest.approx((RAD, RAD, RAD))
    assert dev.pairer.unpaired == 2 and dev.pairer.lone_gyro == 1
