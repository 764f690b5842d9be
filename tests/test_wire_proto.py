"""The wire format and the device-side protocol logic (firmware_bridge/firmware/proto.py)."""

from __future__ import annotations

import binascii
import random
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.firmware import proto

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware_bridge" / "firmware"
MAC = bytes.fromhex("02b077010001")


# ------------------------------------------------------------------ COBS and CRC


@pytest.mark.parametrize("raw, enc", [
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255))),
    (bytes(range(0, 255)), b"\x01\xff" + bytes(range(1, 255))),
    (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
])
def test_cobs_matches_the_published_vectors(raw: bytes, enc: bytes) -> None:
    """Canonical COBS (Cheshire & Baker; the Wikipedia examples), so other COBS libraries interoperate."""
    assert proto.cobs_encode(raw) == enc
    assert proto.cobs_decode(enc) == raw


@given(st.binary(max_size=600))
def test_cobs_round_trips_and_never_emits_a_zero(data: bytes) -> None:
    enc = proto.cobs_encode(data)
    assert b"\x00" not in enc
    assert proto.cobs_decode(enc) == data


def test_crc_is_ccitt_false_in_both_implementations() -> None:
    """Check value 0x29B1 for "123456789"; the pure-Python path MicroPython uses equals the C one."""
    assert proto.crc16(b"123456789") == 0x29B1
    assert proto.crc16_py(b"123456789") == 0x29B1
    rng = random.Random(4)
    for n in range(0, 300, 7):
        data = bytes(rng.getrandbits(8) for _ in range(n))
        assert proto.crc16_py(data) == binascii.crc_hqx(data, 0xFFFF)


# ------------------------------------------------------------------ messages


def test_every_message_type_round_trips_through_a_serial_frame() -> None:
    samples = {
        proto.HELLO: (1, 2, 3, proto.CAP_ACCEL | proto.CAP_DETECT_BURRITO, 800),
        proto.EVENT: (3, 2**40 + 5, 4321),
        proto.HEARTBEAT: (123456789, 3900, 66, 98, -60, 2, 1),
        proto.TSYNC_REQ: (987654321,),
        proto.TSYNC_RESP: (1, 2, 3),
        proto.ACK: (proto.EVENT, 77, 12),
    }
    for mtype, fields in samples.items():
        body = proto.pack(mtype, proto.KIND_BURRITO, MAC, 77, 12, fields)
        f = proto.frame(proto.seal(body))
        assert f.endswith(b"\x00") and f.count(b"\x00") == 1
        [packet] = proto.Deframer().feed(f)
        assert proto.unpack(proto.unseal(packet)) == (mtype, proto.KIND_BURRITO, 0, MAC, 77, 12, fields)


def test_header_is_sixteen_bytes_little_endian() -> None:
    """PROTOCOL.md's byte table: version, type, kind, flags, MAC, boot (LE), seq (LE)."""
    body = proto.pack(proto.TSYNC_REQ, proto.KIND_HOST, MAC, 0x0201, 0x06050403, (0,))
    assert body[:16] == bytes([1, 4, 3, 0]) + MAC + bytes([1, 2, 3, 4, 5, 6])


@pytest.mark.parametrize("mutate, reason", [
    (lambda b: bytes([2]) + b[1:], "unsupported protocol version"),
    (lambda b: b[:1] + bytes([99]) + b[2:], "unknown message type"),
    (lambda b: b[:2] + bytes([9]) + b[3:], "unknown device kind"),
    (lambda b: b[:-1], "short event payload"),
    (lambda b: b[:16] + bytes([7]) + b[17:], "unknown event kind"),
])
def test_malformed_bodies_are_rejected_with_the_reason(mutate, reason: str) -> None:
    body = proto.pack(proto.EVENT, proto.KIND_BURRITO, MAC, 1, 1, (2, 1000, 100))
    with pytest.raises(proto.ProtocolError, match=reason):
        proto.unpack(mutate(body))


def test_longer_payloads_are_accepted_for_forward_compatibility() -> None:
    """A v1.x device may append fields; a v1 host reads the fields it knows."""
    body = proto.pack(proto.EVENT, proto.KIND_BURRITO, MAC, 1, 1, (2, 1000, 100)) + b"\x01\x02"
    assert proto.unpack(body)[6] == (2, 1000, 100)


def test_peak_encoding_clamps_and_keeps_none() -> None:
    assert proto.mg_to_peak(proto.peak_to_mg(None)) is None
    assert proto.mg_to_peak(proto.peak_to_mg(2.5)) == 2.5
    assert proto.peak_to_mg(1000.0) == proto.PEAK_NONE - 1


# ------------------------------------------------------------------ deframer robustness


@settings(max_examples=200)
@given(st.binary(max_size=2000), st.integers(1, 64))
def test_deframer_never_raises_on_garbage_and_resyncs(junk: bytes, chunk: int) -> None:
    """Random bytes fed in any chunking never raise, and a good frame after a 0x00 still comes through."""
    good = proto.frame(proto.seal(proto.pack(proto.TSYNC_REQ, proto.KIND_HOST, MAC, 1, 2, (3,))))
    d = proto.Deframer()
    stream = junk + b"\x00" + good
    out: list[bytes] = []
    for i in range(0, len(stream), chunk):
        out += d.feed(stream[i:i + chunk])
    assert out and out[-1] == proto.cobs_decode(good[:-1])


def test_deframer_counts_bad_crc_truncation_and_oversize() -> None:
    good = proto.frame(proto.seal(proto.pack(proto.TSYNC_REQ, proto.KIND_HOST, MAC, 1, 2, (3,))))
    bad = bytearray(good)
    bad[5] ^= 0x10
    d = proto.Deframer()
    assert d.feed(bytes(bad)) == []
    assert d.feed(good[:7] + b"\x00") == []  # truncated frame
    assert d.feed(b"\x07" * (proto.MAX_FRAME + 10)) == []  # runaway without a delimiter
    assert len(d.feed(b"\x00" + good)) == 1
    assert (d.corrupt, d.oversize, d.frames) == (2, 1, 1)


# ------------------------------------------------------------------ device logic (Node, Relay)


class FakeClock:
    def __init__(self) -> None:
        self.t = 1_000_000

    def __call__(self) -> int:
        return self.t


def _ack_for(packet: bytes) -> bytes:
    mtype, _k, _f, mac, boot, seq, _ = proto.unpack(proto.unseal(packet))
    return proto.seal(proto.pack(proto.ACK, proto.KIND_HOST, mac, 9, 1, (mtype, boot, seq)))


def test_node_resends_events_with_backoff_until_acked() -> None:
    clock = FakeClock()
    sent: list[bytes] = []
    node = proto.Node(MAC, proto.KIND_BURRITO, 5, clock, sent.append, resend_us=50_000, heartbeat_us=10**12)
    node.poll()  # first heartbeat goes out at once
    sent.clear()
    node.event("impact", 999, 3.2)
    first = sent[-1]
    for step in (49_000, 2_000, 60_000, 41_000):  # due at +50 ms, then +100 ms later
        clock.t += step
        node.poll()
    resends = sent[1:]
    assert len(resends) == 2
    assert all(r[3] & proto.FLAG_RESEND for r in resends)
    assert proto.unpack(proto.unseal(resends[0]))[5] == proto.unpack(proto.unseal(first))[5]  # same seq
    node.on_packet(_ack_for(first))
    clock.t += 5_000_000
    node.poll()
    assert not node.pending and len(sent) == 3


def test_node_bounds_its_queue_and_counts_what_it_gives_up() -> None:
    node = proto.Node(MAC, proto.KIND_BADGE, 5, FakeClock(), lambda p: None, max_pending=4)
    for i in range(10):
        node.event("impact", i)
    assert len(node.pending) == 4 and node.gave_up == 6


def test_node_answers_time_sync_with_receive_and_send_times() -> None:
    clock = FakeClock()
    sent: list[bytes] = []
    node = proto.Node(MAC, proto.KIND_BURRITO, 5, clock, sent.append)
    req = proto.seal(proto.pack(proto.TSYNC_REQ, proto.KIND_HOST, MAC, 9, 1, (123,)))
    assert node.on_packet(req, rx_us=777) == proto.TSYNC_REQ
    assert proto.unpack(proto.unseal(sent[-1]))[6] == (123, 777, clock.t)
    other = proto.seal(proto.pack(proto.TSYNC_REQ, proto.KIND_HOST, b"\x01" * 6, 9, 1, (123,)))
    assert node.on_packet(other) is None  # addressed to another device


def test_relay_drops_radio_packets_whose_mac_is_not_the_sender() -> None:
    up: list[bytes] = []
    relay = proto.Relay(b"\x02" * 6, 1, FakeClock(), up.append, lambda mac, p: None)
    packet = proto.seal(proto.pack(proto.EVENT, proto.KIND_BURRITO, MAC, 1, 1, (1, 5, 100)))
    assert relay.from_radio(b"\x09" * 6, packet) is False
    assert relay.from_radio(MAC, packet[:-1] + b"\x00") is False
    assert relay.from_radio(MAC, packet) is True
    assert relay.bad_radio == 2 and up == [proto.frame(packet)]


def test_clock64_survives_micropython_tick_wraparound() -> None:
    period = 2**30
    ticks = [period - 10]
    c = proto.Clock64(lambda: ticks[0], lambda a, b: ((a - b + period // 2) % period) - period // 2)
    for _ in range(5):
        ticks[0] = (ticks[0] + period // 3) % period
        c.now()
    assert c.now() == 5 * (period // 3)


# ------------------------------------------------------------------ MicroPython


@pytest.mark.parametrize("name", ["proto.py", "tracebuf.py", "burrito_main.py", "badge_main.py", "receiver_main.py"])
def test_firmware_compiles_with_mpy_cross(name: str, tmp_path: Path) -> None:
    """CI guard: code MicroPython cannot parse fails here, not on the board."""
    src = FIRMWARE / name
    exe = Path(sys.executable).with_name("mpy-cross")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "mpy_cross"]
    res = subprocess.run(cmd + ["-o", str(tmp_path / "out.mpy"), str(src)], capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 0, res.stderr


def test_protocol_md_worked_examples_match_the_code() -> None:
    """The byte-exact examples in PROTOCOL.md (EVENT, its ACK, CONFIG, CONFIG_ACK, TRACE, TRACE6) are what proto.py
    produces, so the spec cannot drift from the code."""
    text = (FIRMWARE.parent / "PROTOCOL.md").read_text()
    blocks: list[dict[str, bytes]] = []
    key = ""
    for ln in text.splitlines():
        words = ln.split()
        if words and words[0] in ("body", "crc", "frame") and len(words) > 2:
            key = words[0]
            if key == "body":
                blocks.append({})
            blocks[-1][key] = bytes.fromhex("".join(words[1:]))
        elif key == "body" and words and all(len(w) == 2 for w in words) and ln.startswith("       "):
            blocks[-1]["body"] += bytes.fromhex("".join(words))  # a body continued on the next line
        else:
            key = ""
    host, dev = 0x0304, 0x0102
    expected = [
        proto.pack(proto.EVENT, proto.KIND_BURRITO, MAC, dev, 5, (3, 1_000_000, 9500)),
        proto.pack(proto.ACK, proto.KIND_HOST, MAC, host, 1, (proto.EVENT, dev, 5)),
        proto.pack(proto.CONFIG, proto.KIND_HOST, MAC, host, 2, (3, 0, 1),
                   tail=proto.config_parts(3, {"hard_g": 5.0})[0]),
        proto.pack(proto.CONFIG_ACK, proto.KIND_BURRITO, MAC, dev, 6, (3, 0, 1, proto.CFG_APPLIED)),
        proto.pack(proto.TRACE, proto.KIND_BURRITO, MAC, dev, 7, (1, 0, 1, 1_000_000),
                   tail=struct.pack("<Hhhh", 0, 1000, 0, 2000) + struct.pack("<Hhhh", 1200, 1001, 0, 2000)),
        proto.pack(proto.TRACE6, proto.KIND_BURRITO, MAC, dev, 8, (2, 0, 1, 2_000_000),
                   tail=struct.pack("<Hhhhhhh", 0, 0, 0, 1000, 500, -250, 10000)
                   + struct.pack("<Hhhhhhh", 1200, 1, 0, 1000, 501, -250, 32767)),
    ]
    assert [b["body"] for b in blocks] == expected
    for b in blocks:
        assert b["crc"] == proto.seal(b["body"])[-2:]
        if "frame" in b:
            assert b["frame"] == proto.frame(proto.seal(b["body"]))
    assert proto.trace_samples(expected[-2]) == [(1_000_000, 1000, 0, 2000), (1_001_200, 1001, 0, 2000)]
    assert proto.trace_samples(expected[-1]) == [(2_000_000, 0, 0, 1000, 500, -250, 10000),
                                                 (2_001_200, 1, 0, 1000, 501, -250, 32767)]
    assert "version 1.3" in text and proto.PROTO_VERSION == 1


def test_relay_carries_only_burritos_and_badges_from_the_radio() -> None:
    """PROTOCOL.md 6: a radio packet claiming to be a receiver or the host is dropped (it would pass for them)."""
    up: list[bytes] = []
    relay = proto.Relay(b"\x02" * 6, 1, FakeClock(), up.append, lambda mac, p: None)
    for kind in (proto.KIND_RECEIVER, proto.KIND_HOST):
        assert relay.from_radio(MAC, proto.seal(proto.pack(proto.HELLO, kind, MAC, 1, 1, (1, 1, 0, 0, 0)))) is False
    assert relay.bad_radio == 2 and up == []


def test_node_gives_up_messages_older_than_the_dedupe_window() -> None:
    """PROTOCOL.md 5.3: a pending message more than 8,000 seqs old is given up, never resent into the host's blind
    spot (the host remembers 10,000)."""
    clock = FakeClock()
    node = proto.Node(MAC, proto.KIND_BURRITO, 5, clock, lambda p: None, heartbeat_us=10**12)
    node.event("launch", 1)
    node.seq += proto.MAX_SEQ_AGE + 1
    node.poll()
    assert not node.pending and node.gave_up == 1
    assert proto.MAX_SEQ_AGE < proto.DEDUPE_WINDOW


def test_a_1_2_host_reads_a_1_3_devices_heartbeat_and_cut_trace_as_ordinary_traffic() -> None:
    """PROTOCOL.md section 8, 1.3 with older peers: a 1.2 reader (the 1.0 layout, or the 1.1 one when the payload is
    long enough; header flag bits it does not know ignored) reads a 1.3 heartbeat's first nine fields exactly and a
    cut trace's last chunk as a plain chunk, and a 1.3 reader takes a 1.2 heartbeat without the new field."""
    import struct

    def read_1_2(body: bytes) -> tuple:
        mtype = body[1]
        fmt_10 = proto.PAYLOADS[mtype]
        fmt_11 = fmt_10 + "HH" if mtype == proto.HEARTBEAT else fmt_10
        fmt = fmt_11 if len(body) - proto.HEADER_LEN >= struct.calcsize(fmt_11) else fmt_10
        return struct.unpack_from(fmt, body, proto.HEADER_LEN)

    sent: list[bytes] = []
    node = proto.Node(b"\x02" * 6, proto.KIND_BURRITO, 5, lambda: 123_456_789, sent.append)
    node.gave_up, node.traces_dropped = 70_000, 3  # past its 16 bits: wraps
    node.heartbeat()
    body = proto.unseal(sent[-1])
    new = proto.unpack(body)[6]
    assert read_1_2(body) == new[:9] and len(new) == 10 and new[6] == 70_000 - 65_536
    chunk = proto.pack(proto.TRACE, proto.KIND_BURRITO, b"\x02" * 6, 5, 9, (3, 254, 255, 1000),
                       flags=proto.FLAG_TRACE_CUT, tail=bytes(8))
    assert read_1_2(chunk) == (3, 254, 255, 1000) and proto.unpack(chunk)[2] == proto.FLAG_TRACE_CUT
    old_hb = proto.pack(proto.HEARTBEAT, proto.KIND_BURRITO, b"\x02" * 6, 5, 9, (1, 2, 3, 4, 5, 6, 7, 8, 9))
    assert proto.unpack(old_hb)[6] == (1, 2, 3, 4, 5, 6, 7, 8, 9)
