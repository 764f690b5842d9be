# LSM6DSO / LSM6DSOX accelerometer driver with FIFO reads (MicroPython).
#
# Why this part: +-16 g at 0.488 mg/LSB (impacts of 5-20 g fit, rest noise
# ~2-4 mg), output rates 416/833/1666/3332 Hz, a 3 KB (DSO) / 9 KB (DSOX)
# FIFO that holds >150 ms of 833 Hz samples, so a radio send or a GC pause
# never loses a sample.  See docs/devices.md for the wiring.
#
# Interface used by burrito_main.py (part B):
#   sensor = IMU(i2c)            # machine.I2C, 400 kHz
#   sensor.rate_hz               # the output data rate actually configured
#   sensor.read_fifo()           # -> [(ax, ay, az), ...] in g, oldest first
# The caller stamps the samples (the newest one is at most one period old).
# Only the bus object is needed, so this file imports nothing from `machine`
# and decode_words() runs on CPython for tests.

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: MicroPython has no typing module
    from typing import Any  # noqa: F401 -- used by the type comments

WHO_AM_I = 0x0F
WHO_AM_I_VALUE = 0x6C  # LSM6DSO and LSM6DSOX
FIFO_CTRL3 = 0x09
FIFO_CTRL4 = 0x0A
CTRL1_XL = 0x10
CTRL2_G = 0x11
CTRL3_C = 0x12
FIFO_STATUS1 = 0x3A
FIFO_STATUS2 = 0x3B
FIFO_DATA_OUT_TAG = 0x78  # tag + 6 data bytes; the address wraps 0x7E -> 0x78

ADDRESSES = (0x6A, 0x6B)  # SDO/SA0 low or high; breakouts differ
TAG_ACCEL = 0x02
WORD = 7
CHUNK_WORDS = 32

# ODR / batch-rate code (same nibble for CTRL1_XL and FIFO_CTRL3)
ODR_CODES = {416: 0x6, 833: 0x7, 1666: 0x8, 3332: 0x9}
# full scale: (CTRL1_XL FS bits, g per LSB)
FULL_SCALE = {2: (0x0, 0.000061), 4: (0x2, 0.000122), 8: (0x3, 0.000244), 16: (0x1, 0.000488)}


class IMUError(Exception):
    pass


def decode_words(buf, n, g_per_lsb, out):
    # type: (Any, int, float, list) -> int
    """Append (ax, ay, az) in g for each accelerometer word of n FIFO words.

    Returns how many words were not accelerometer data (timestamps, gyro,
    temperature): they are skipped, never misread as acceleration.
    """
    other = 0
    for w in range(n):
        i = w * WORD
        if (buf[i] >> 3) != TAG_ACCEL:
            other += 1
            continue
        x = buf[i + 1] | (buf[i + 2] << 8)
        y = buf[i + 3] | (buf[i + 4] << 8)
        z = buf[i + 5] | (buf[i + 6] << 8)
        if x & 0x8000:
            x -= 0x10000
        if y & 0x8000:
            y -= 0x10000
        if z & 0x8000:
            z -= 0x10000
        out.append((x * g_per_lsb, y * g_per_lsb, z * g_per_lsb))
    return other


class IMU:
    """LSM6DSO(X) accelerometer in continuous FIFO mode; the gyroscope stays off (saves ~0.5 mA)."""

    def __init__(self, i2c, rate_hz=833, full_scale_g=16, addr=None, sleep_ms=None):
        # type: (Any, int, int, Any, Any) -> None
        if rate_hz not in ODR_CODES:
            raise IMUError("unsupported rate " + str(rate_hz) + " Hz; use 416, 833, 1666 or 3332")
        if full_scale_g not in FULL_SCALE:
            raise IMUError("unsupported full scale " + str(full_scale_g) + " g")
        self.i2c = i2c
        self.rate_hz = rate_hz
        self.addr = addr if addr is not None else self._find()
        fs_bits, self.g_per_lsb = FULL_SCALE[full_scale_g]
        self.overruns = 0  # times the FIFO filled up before we read it (samples lost)
        self.skipped = 0  # non-accelerometer words seen
        self._buf = bytearray(CHUNK_WORDS * WORD)
        self._one = bytearray(1)
        if sleep_ms is None:
            import time

            sleep_ms = time.sleep_ms  # type: ignore[attr-defined]  # MicroPython's time
        # software reset, then block data update + address auto-increment
        self._w(CTRL3_C, 0x01)
        for _ in range(100):
            sleep_ms(1)
            if not self._r(CTRL3_C) & 0x01:
                break
        else:
            raise IMUError("LSM6DSO did not come out of reset")
        self._w(CTRL3_C, 0x44)
        self._w(CTRL2_G, 0x00)
        self._w(CTRL1_XL, (ODR_CODES[rate_hz] << 4) | (fs_bits << 2))
        self._w(FIFO_CTRL3, ODR_CODES[rate_hz])  # batch accelerometer only
        self._w(FIFO_CTRL4, 0x06)  # continuous mode: newest data kept if we fall behind

    def _find(self):
        # type: () -> int
        for a in ADDRESSES:
            try:
                if self.i2c.readfrom_mem(a, WHO_AM_I, 1)[0] == WHO_AM_I_VALUE:
                    return a
            except OSError:
                pass
        raise IMUError("no LSM6DSO at I2C 0x6A/0x6B (check wiring and WHO_AM_I)")

    def _w(self, reg, val):
        # type: (int, int) -> None
        self._one[0] = val
        self.i2c.writeto_mem(self.addr, reg, self._one)

    def _r(self, reg):
        # type: (int) -> int
        return self.i2c.readfrom_mem(self.addr, reg, 1)[0]

    def pending(self):
        # type: () -> int
        """Words waiting in the FIFO; counts an overrun if one happened."""
        st = self.i2c.readfrom_mem(self.addr, FIFO_STATUS1, 2)
        if st[1] & 0x40:  # FIFO_OVR_IA
            self.overruns += 1
        return ((st[1] & 0x03) << 8) | st[0]

    def read_fifo(self):
        # type: () -> list
        """All samples now in the FIFO, oldest first, as (ax, ay, az) in g."""
        out = []  # type: list
        n = self.pending()
        buf = self._buf
        mv = memoryview(buf)
        while n > 0:
            k = n if n < CHUNK_WORDS else CHUNK_WORDS
            self.i2c.readfrom_mem_into(self.addr, FIFO_DATA_OUT_TAG, mv[: k * WORD])
            self.skipped += decode_words(buf, k, self.g_per_lsb, out)
            n -= k
        return out
