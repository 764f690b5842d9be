"""LSM6DSO driver (firmware_bridge/firmware/imu.py) against a register-level model of the chip's I2C interface."""

from __future__ import annotations

import struct

import pytest

from firmware_bridge.firmware import imu


class FakeLSM6DSO:
    """Just enough of the chip: WHO_AM_I, reset bit, config registers, a FIFO of tagged 7-byte words."""

    def __init__(self, addr: int = 0x6B) -> None:
        self.addr = addr
        self.regs = {imu.WHO_AM_I: 0x6C}
        self.fifo: list[bytes] = []
        self.overrun = False

    def push_accel(self, x: int, y: int, z: int) -> None:
        self.fifo.append(bytes([imu.TAG_ACCEL << 3]) + struct.pack("<hhh", x, y, z))

    def push_other(self) -> None:
        self.fifo.append(bytes([0x04 << 3]) + bytes(6))  # a timestamp word

    def readfrom_mem(self, addr: int, reg: int, n: int) -> bytes:
        if addr != self.addr:
            raise OSError(19, "ENODEV")
        if reg == imu.FIFO_STATUS1:
            k = len(self.fifo)
            return bytes([k & 0xFF, ((k >> 8) & 0x03) | (0x40 if self.overrun else 0)])
        return bytes([self.regs.get(reg, 0)])

    def readfrom_mem_into(self, addr: int, reg: int, buf: memoryview) -> None:
        assert addr == self.addr and reg == imu.FIFO_DATA_OUT_TAG and len(buf) % imu.WORD == 0
        for i in range(len(buf) // imu.WORD):
            buf[i * imu.WORD : (i + 1) * imu.WORD] = self.fifo.pop(0)

    def writeto_mem(self, addr: int, reg: int, data: bytes) -> None:
        assert addr == self.addr
        self.regs[reg] = data[0] & ~0x01 if reg == imu.CTRL3_C else data[0]  # reset bit self-clears


def test_driver_finds_chip_configures_833hz_16g_and_continuous_fifo() -> None:
    """Probe 0x6A/0x6B by WHO_AM_I; accelerometer at 833 Hz +-16 g, gyro off, FIFO batching accel in continuous mode."""
    chip = FakeLSM6DSO(0x6B)
    dev = imu.IMU(chip, sleep_ms=lambda ms: None)
    assert dev.addr == 0x6B and dev.rate_hz == 833
    assert chip.regs[imu.CTRL1_XL] == 0x74 and chip.regs[imu.CTRL2_G] == 0
    assert chip.regs[imu.FIFO_CTRL3] == 0x07 and chip.regs[imu.FIFO_CTRL4] == 0x06
    assert chip.regs[imu.CTRL3_C] == 0x44


def test_read_fifo_converts_counts_to_g_in_order_and_skips_non_accel_words() -> None:
    """Counts * 0.488 mg at +-16 g, oldest first, across several 32-word chunks; other tags are counted, not decoded."""
    chip = FakeLSM6DSO()
    dev = imu.IMU(chip, sleep_ms=lambda ms: None)
    for i in range(70):
        chip.push_accel(i, -i, 2049)
        if i % 10 == 0:
            chip.push_other()
    out = dev.read_fifo()
    assert len(out) == 70 and dev.skipped == 7
    assert out[5] == pytest.approx((5 * 0.000488, -5 * 0.000488, 2049 * 0.000488))
    assert chip.fifo == [] and dev.read_fifo() == []


def test_missing_chip_and_bad_rate_are_clear_errors() -> None:
    """No chip on the bus or an unsupported rate raise IMUError naming the problem."""

    class Empty(FakeLSM6DSO):
        def readfrom_mem(self, addr: int, reg: int, n: int) -> bytes:
            raise OSError(19, "ENODEV")

    with pytest.raises(imu.IMUError, match="no LSM6DSO"):
        imu.IMU(Empty(), sleep_ms=lambda ms: None)
    with pytest.raises(imu.IMUError, match="unsupported rate"):
        imu.IMU(FakeLSM6DSO(), rate_hz=500, sleep_ms=lambda ms: None)


def test_overrun_is_counted() -> None:
    """A full FIFO (samples lost) is counted so the heartbeat can report it."""
    chip = FakeLSM6DSO()
    dev = imu.IMU(chip, sleep_ms=lambda ms: None)
    chip.overrun = True
    chip.push_accel(0, 0, 2049)
    dev.read_fifo()
    assert dev.overruns == 1
