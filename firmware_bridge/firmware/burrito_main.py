"""Burrito node main loop (MicroPython, ESP32-S3/C3 + LSM6DSO accelerometer/gyroscope, ESP-NOW). Copy to the board as
main.py.

Glue only: the protocol (resend until acked, heartbeats, time-sync replies) is ``proto.Node`` and the motion logic is
``detector.Detector``; both are pure and tested on CPython. This file adds the radio, the sensor and the battery.

Radio: ESP-NOW on channel ``CHANNEL``. Until the device knows its receiver it sends to the broadcast address; the MAC
that sent the first ACK is the receiver, remembered in ``receiver.mac`` (delete the file to re-home the device).
Timestamps: every sample is stamped on the 64-bit ``proto.Clock64`` built from ``time.ticks_us``; the FIFO is read
every loop and its samples are back-dated one sample period apart from the read time.
Traces (protocol 1.1): every sample also goes into ``tracebuf.TraceBuffer``; the Node sends the samples around each
event as TRACE chunks. Parameters (CONFIG) are applied with ``Detector.configure`` and kept in ``params.json``, so a
reboot comes back with the version the host pushed (it reports the version in HELLO and heartbeats).
Gyroscope (protocol 1.2, ``GYRO``): on, every sample carries the angular rate (rad/s) to ``Detector.feed`` and into
the trace ring, HELLO says so (``proto.CAP_GYRO``) and traces go as TRACE6 chunks. Set ``GYRO = False`` to run the
accelerometer alone, exactly as firmware 1.1 did (a 1.1 host acknowledges only TRACE chunks: PROTOCOL.md section 8).
Protocol 1.3: a trace too long for 255 chunks goes out cut and flagged, and the heartbeat counts cut traces (both in
``proto``/``tracebuf``). The loop never ends on an exception (an I2C glitch, a radio error): it is counted and the
loop goes on; ``MAX_LOOP_ERRORS`` in a row reset the board, which then boots afresh as after a power cycle.
"""

import json
import os
import time

import espnow
import machine
import network
import proto
import tracebuf
from detector import Detector

FW = (1, 3, 0)
GYRO = True  # the LSM6DSO's gyroscope on (about 0.5 mA more); False: accelerometer only
PARAMS_FILE = "params.json"
CHANNEL = 1
PEER_FILE = "receiver.mac"
I2C_SDA = 8  # docs/devices.md wiring
I2C_SCL = 9
BATTERY_ADC = 1  # LiPo through a 1:2 divider
LOOP_SLEEP_MS = 2
MAX_LOOP_ERRORS = 500  # failed loop passes in a row (about a second of nothing but errors): reset the board


def _load_peer():
    try:
        with open(PEER_FILE) as f:
            return proto.mac_bytes(f.read().strip())
    except (OSError, ValueError):
        return None


def _save_peer(mac):
    try:
        with open(PEER_FILE, "w") as f:
            f.write(proto.mac_str(mac))
    except OSError:
        pass


def _load_params():
    """(version, params) saved by the last CONFIG, or (0, None): firmware defaults."""
    try:
        with open(PARAMS_FILE) as f:
            doc = json.load(f)
        return int(doc["version"]), doc["params"]
    except (OSError, ValueError, KeyError, TypeError):
        return 0, None


def _battery_reader():
    adc = machine.ADC(machine.Pin(BATTERY_ADC))
    adc.atten(machine.ADC.ATTN_11DB)

    def read():
        mv = adc.read_uv() * 2 // 1000
        pct = (mv - 3300) * 100 // 900
        return mv, 0 if pct < 0 else (100 if pct > 100 else pct)

    return read


def run(kind="burrito"):
    import imu  # the driver: IMU(i2c, gyro=...) with .rate_hz and .read_fifo() -> [(ax, ay, az[, gx, gy, gz]), ...]

    sta = network.WLAN(network.STA_IF)
    sta.active(True)
    sta.disconnect()
    sta.config(channel=CHANNEL)
    radio = espnow.ESPNow()
    radio.active(True)
    mac = sta.config("mac")
    peer = [_load_peer() or proto.BROADCAST]
    radio.add_peer(peer[0])

    def send(packet):
        try:
            radio.send(peer[0], packet, False)
        except OSError:
            pass  # radio busy; Node resends anything that needs an ack

    clock = proto.Clock64(time.ticks_us, time.ticks_diff)
    dkind = proto.KIND_BURRITO if kind == "burrito" else proto.KIND_BADGE
    caps = proto.CAP_ACCEL | proto.CAP_BATTERY | (proto.CAP_DETECT_BURRITO if kind == "burrito"
                                                  else proto.CAP_DETECT_BADGE) | (proto.CAP_GYRO if GYRO else 0)
    sensor = imu.IMU(machine.I2C(0, sda=machine.Pin(I2C_SDA), scl=machine.Pin(I2C_SCL), freq=400000), gyro=GYRO)
    period_us = 1000000 // sensor.rate_hz
    boot = int.from_bytes(os.urandom(2), "little")
    version, params = _load_params()
    det = Detector(kind)
    if params:
        try:
            det.configure(params)
        except ValueError:
            version = 0  # saved by a firmware with other parameter names: run the defaults

    def apply(new, new_version):
        det.configure(new)  # raises ValueError on an unknown name: the Node answers "rejected"
        try:
            with open(PARAMS_FILE, "w") as f:
                json.dump({"version": new_version, "params": new}, f)
        except OSError:
            pass

    ring = tracebuf.TraceBuffer(sensor.rate_hz, gyro=GYRO)
    node = proto.Node(mac, dkind, boot, clock.now, send, fw=FW, caps=caps, rate_hz=sensor.rate_hz,
                      battery=_battery_reader(), traces=ring, apply_config=apply, params_version=version)
    node.hello()
    errors = 0
    while True:
        try:
            _loop_pass(sensor, clock, period_us, ring, det, node, radio, peer)
            errors = 0
        except Exception:  # noqa: BLE001 - the device must go on; a run of failures resets it
            errors += 1
            if errors >= MAX_LOOP_ERRORS:
                machine.reset()
        time.sleep_ms(LOOP_SLEEP_MS)


def _loop_pass(sensor, clock, period_us, ring, det, node, radio, peer):
    """One pass: read the FIFO into the ring and the detector, handle the radio, let the node resend and beat."""
    samples = sensor.read_fifo()
    if samples:
        t_last = clock.now()
        n = len(samples)
        for i in range(n):
            s = samples[i]  # (ax, ay, az), or (ax, ay, az, gx, gy, gz) with the gyroscope on
            t_s = t_last - (n - 1 - i) * period_us
            ring.add(t_s, *s)
            for t_us, ev_kind, peak in det.feed(t_s, *s):
                node.event(ev_kind, t_us, peak)
    while True:
        host, msg = radio.recv(0)
        if not host:
            break
        rx = clock.now()
        if node.on_packet(msg, rx) == proto.ACK and peer[0] == proto.BROADCAST:
            peer[0] = bytes(host)
            radio.add_peer(peer[0])
            _save_peer(peer[0])
        entry = radio.peers_table.get(bytes(host))
        if entry:
            node.rssi = max(-127, min(127, entry[0]))
    node.poll()


if __name__ == "__main__":
    run("burrito")
