# LSM6DSO / LSM6DSOX accelerometer and gyroscope driver with FIFO reads (MicroPython).
#
# Why this part: +-16 g at 0.488 mg/LSB (impacts of 5-20 g fit, rest noise
# ~2-4 mg), output rates 416/833/1666/3332 Hz, a 3 KB (DSO) / 9 KB (DSOX)
# FIFO that holds >150 ms of 833 Hz samples, so a radio send or a GC pause
# never loses a sample.  See docs/devices.md for the wiring.
#
# The gyroscope (gyro=True): at the accelerometer's rate, +-2000 dps (70
# mdps/LSB; a thrown burrito turns a few turns a second, a hard knock spins
# it faster), batched into the same tagged FIFO.  Each time slot then gives
# a gyro word (tag 0x01) and an accel word (tag 0x02) with the same 2-bit
# slot counter; they are paired into one 6-axis sample.  The words double,
# so the FIFO holds half as long (still >75 ms at 833 Hz).  It costs about
# 0.5 mA more; gyro=False keeps the accelerometer-only part as before.
#
# Interface used by burrito_main.py (part B):
#   sensor = IMU(i2c, gyro=True) # machine.I2C, 400 kHz
#   sensor.rate_hz               # the output data rate actually configured
#   sensor.read_fifo()           # -> [(ax, ay, az), ...] in g, oldest first
#                                #    gyro on: [(ax, ay, az, gx, gy, gz), ...], rates in rad/s
# The caller stamps the samples (the newest one is at most one period old).
# Only the bus object is needed, so this file imports nothing from `machine`
# and decode_words() / Pairer run on CPython for tests.

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
TAG_GYRO = 0x01  # gyroscope, not compressed
TAG_ACCEL = 0x02  # accelerometer, not compressed
WORD = 7
CHUNK_WORDS = 32

# ODR / batch-rate code (same nibble for CTRL1_XL and FIFO_CTRL3)
ODR_CODES = {416: 0x6, 833: 0x7, 1666: 0x8, 3332: 0x9}
# full scale: (CTRL1_XL FS bits, g per LSB)
FULL_SCALE = {2: (0x0, 0.000061), 4: (0x2, 0.000122), 8: (0x3, 0.000244), 16: (0x1, 0.000488)}
# gyroscope full scale in dps: (CTRL2_G FS_G bits 3:2, rad/s per LSB from the datasheet's mdps/LSB)
DEG = 3.141592653589793 / 180.0
GYRO_FULL_SCALE = {250: (0x0, 0.00875 * DEG), 500: (0x1, 0.0175 * DEG), 1000: (0x2, 0.035 * DEG),
                   2000: (0x3, 0.070 * DEG)}


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


def _s16(lo, hi):
    # type: (int, int) -> int
    v = lo | (hi << 8)
    return v - 0x10000 if v & 0x8000 else v


class Pairer:
    """Pairs the gyro and accel words of one FIFO time slot into (ax, ay, az, gx, gy, gz).

    The two words of a slot carry the same TAG_CNT; the chip writes them one after the other, in either order, and
    a FIFO read may end between them, so the state lives across reads.  Every accelerometer sample comes out (the
    caller stamps samples by counting them, so none may go missing); one whose slot has no gyro word (the gyro's
    start-up, a word lost to an overrun) takes the newest rate seen, or 0 before any, and is counted in ``unpaired``.
    A gyro word with no accel word of its slot is counted in ``lone_gyro`` and only kept as the newest rate.
    """

    def __init__(self, g_per_lsb, rad_per_lsb):
        # type: (float, float) -> None
        self.g_per_lsb = g_per_lsb
        self.rad_per_lsb = rad_per_lsb
        self.held = None  # type: Any  # accel (x, y, z) in g waiting for the gyro word of its slot
        self.held_cnt = -1
        self.rate = (0.0, 0.0, 0.0)  # newest gyro reading, rad/s
        self.rate_cnt = -1
        self.fresh = False  # self.rate is not paired yet
        self.unpaired = 0
        self.lone_gyro = 0

    def word(self, tag, cnt, x, y, z, out):
        # type: (int, int, int, int, int, list) -> None
        """One gyro or accel word (counts, slot counter); appends the samples it completes to ``out``."""
        if tag == TAG_GYRO:
            k = self.rad_per_lsb
            g = (x * k, y * k, z * k)
            if self.held is not None and self.held_cnt == cnt:
                a = self.held
                out.append((a[0], a[1], a[2], g[0], g[1], g[2]))
                self.held = None
                self.fresh = False
            else:
                self._flush_held(out)
                if self.fresh:
                    self.lone_gyro += 1
                self.fresh = True
            self.rate = g
            self.rate_cnt = cnt
            return
        k = self.g_per_lsb
        a = (x * k, y * k, z * k)
        if self.fresh and self.rate_cnt == cnt:
            g = self.rate
            out.append((a[0], a[1], a[2], g[0], g[1], g[2]))
            self.fresh = False
            return
        self._flush_held(out)
        if self.fresh:
            self.lone_gyro += 1  # a gyro word of another slot whose accel word never came
            self.fresh = False
        self.held = a
        self.held_cnt = cnt

    def _flush_held(self, out):
        # type: (list) -> None
        if self.held is not None:
            a = self.held
            g = self.rate
            out.append((a[0], a[1], a[2], g[0], g[1], g[2]))
            self.unpaired += 1
            self.held = None


def decode_words6(buf, n, pairer, out):
    # type: (Any, int, Pairer, list) -> int
    """Feed n FIFO words to ``pairer`` (gyro and accel words; completed 6-axis samples go to ``out``).

    Returns how many words were neither (timestamps, temperature): skipped, never misread.
    """
    other = 0
    for w in range(n):
        i = w * WORD
        tag = buf[i] >> 3
        if tag != TAG_ACCEL and tag != TAG_GYRO:
            other += 1
            continue
        pairer.word(tag, (buf[i] >> 1) & 0x03, _s16(buf[i + 1], buf[i + 2]), _s16(buf[i + 3], buf[i + 4]),
                    _s16(buf[i + 5], buf[i + 6]), out)
    return other


class IMU:
    """LSM6DSO(X) in continuous FIFO mode: the accelerometer, and with ``gyro`` the gyroscope at the same rate
    (``gyro=False``, the default, leaves it off and saves ~0.5 mA)."""

    def __init__(self, i2c, rate_hz=833, full_scale_g=16, addr=None, sleep_ms=None, gyro=False, gyro_dps=2000):
        # type: (Any, int, int, Any, Any, bool, int) -> None
        if rate_hz not in ODR_CODES:
            raise IMUError("unsupported rate " + str(rate_hz) + " Hz; use 416, 833, 1666 or 3332")
        if full_scale_g not in FULL_SCALE:
            raise IMUError("unsupported full scale " + str(full_scale_g) + " g")
        if gyro and gyro_dps not in GYRO_FULL_SCALE:
            raise IMUError("unsupported gyro full scale " + str(gyro_dps) + " dps; use 250, 500, 1000 or 2000")
        self.i2c = i2c
        self.rate_hz = rate_hz
        self.addr = addr if addr is not None else self._find()
        fs_bits, self.g_per_lsb = FULL_SCALE[full_scale_g]
        self.gyro = bool(gyro)
        self.pairer = None  # type: Any
        gfs_bits = 0
        if self.gyro:
            gfs_bits, self.rad_per_lsb = GYRO_FULL_SCALE[gyro_dps]
            self.pairer = Pairer(self.g_per_lsb, self.rad_per_lsb)
        self.overruns = 0  # times the FIFO filled up before we read it (samples lost)
        self.skipped = 0  # words that are no sample of ours (timestamps, temperature; gyro words when it is off)
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
        odr = ODR_CODES[rate_hz]
        # gyro: ODR_G (bits 7:4) = the accelerometer's, FS_G (bits 3:2); off: power-down
        self._w(CTRL2_G, ((odr << 4) | (gfs_bits << 2)) if self.gyro else 0x00)
        self._w(CTRL1_XL, (odr << 4) | (fs_bits << 2))
        # FIFO_CTRL3: BDR_XL (bits 3:0) at the output rate, and BDR_GY (bits 7:4) too with the gyro
        self._w(FIFO_CTRL3, ((odr << 4) if self.gyro else 0) | odr)
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
        """All samples now in the FIFO, oldest first, as (ax, ay, az) in g, or with the gyroscope on as (ax, ay,
        az, gx, gy, gz), rates in rad/s (an accel word whose gyro word is still in the FIFO waits for the next read)."""
        out = []  # type: list
        n = self.pending()
        buf = self._buf
        mv = memoryview(buf)
        while n > 0:
            k = n if n < CHUNK_WORDS else CHUNK_WORDS
            self.i2c.readfrom_mem_into(self.addr, FIFO_DATA_OUT_TAG, mv[: k * WORD])
            if self.pairer is not None:
                self.skipped += decode_words6(buf, k, self.pairer, out)
            else:
                self.skipped += decode_words(buf, k, self.g_per_lsb, out)
            n -= k
        return out
