# Runs unchanged under MicroPython (WebAssembly port, via run_mpy.mjs) and CPython; the test compares the outputs.
#   stream_firmware.py FIRMWARE_DIR SCENARIOS.json
# Each scenario (one JSON object a line) is a long sample stream played into a proto.Node with a tracebuf.TraceBuffer
# on a simulated clock: {"gyro", "rate", "start", "seq", "drop", "segments": [[pause_us, n, period_us, back,
# [[index, lag_us, kind], ...]], ...]}. A simulated host acknowledges every packet that needs it, except every
# "drop"-th (0: none). Every packet the device sends is unsealed, unpacked and printed as
# "K <type> <flags> <seq> <fields...> <samples> <crc>"; any check that fails raises (exit 1). Last per scenario:
# "S <traces> <dropped> <cut> <backsteps> <gave up> <packets>".
import sys

argv = globals().get("ARGV") or sys.argv  # run_mpy.mjs sets ARGV: the WebAssembly port's sys has no argv
sys.path.insert(0, argv[1])
import json  # noqa: E402

import proto  # noqa: E402
import tracebuf  # noqa: E402

MAC = b"\x02\xb0\x77\x01\x00\x09"


def pump(node, sent, drop, count):
    """Check and print every packet the device sent; acknowledge those that need it (but every ``drop``-th)."""
    while sent:
        body = proto.unseal(sent.pop(0))
        mtype, _k, flags, mac, boot, seq, fields = proto.unpack(body)
        if mac != MAC or boot != 4242:
            raise ValueError("header changed")
        n = 0
        if mtype == proto.TRACE or mtype == proto.TRACE6:
            n = check_chunk(body, fields)
        print("K %d %d %d %s %d %d" % (mtype, flags, seq, " ".join([str(f) for f in fields]), n, proto.crc16(body)))
        count[0] += 1
        if mtype in proto.NEEDS_ACK:
            count[1] += 1
            if drop and count[1] % drop == 0:
                continue
            ack = proto.pack(proto.ACK, proto.KIND_HOST, MAC, 7, count[1], (mtype, 4242, seq))
            node.on_packet(proto.seal(ack))


def check_chunk(body, fields):
    if fields[2] > tracebuf.MAX_CHUNKS or fields[1] >= fields[2]:
        raise ValueError("chunk %d of %d" % (fields[1], fields[2]))
    got = proto.trace_samples(body)
    for k in range(1, len(got)):
        if got[k][0] < got[k - 1][0]:
            raise ValueError("trace time steps back")
    return len(got)


def segment(sc, clock, ring, node, step, seg):
    """A pause (hours of it in one step), then ``n`` samples, some stepping back, with the events marked."""
    pause, n, period, back, marks = seg
    if pause > 3000000:
        step(3000000, 20000)
        clock[0] += pause - 3000000
        step(0, 1)
    else:
        step(pause, 20000)
    marks = sorted(marks)
    k = 0
    for i in range(n):
        clock[0] += period
        t = clock[0] - (3 * period if back and i % back == back - 1 else 0)
        if sc["gyro"]:
            ring.add(t, i % 50 - 25.0, 0.5, 1.0, 0.1, -0.2, (i % 9) * 10.0)
        else:
            ring.add(t, i % 50 - 25.0, 0.5, 1.0)
        while k < len(marks) and marks[k][0] <= i:
            node.event(marks[k][2], t - marks[k][1], 4.0)
            k += 1
        if i % 8 == 7:
            step(0, 1)


def run(sc):
    clock = [sc["start"]]
    sent = []
    ring = tracebuf.TraceBuffer(sc["rate"], gyro=sc["gyro"])
    node = proto.Node(MAC, proto.KIND_BURRITO, 4242, lambda: clock[0], sent.append, caps=proto.CAP_ACCEL,
                      rate_hz=sc["rate"], traces=ring)
    node.seq = sc["seq"]
    count = [0, 0]  # packets, host seq

    def step(us, dt):
        """Let ``us`` pass in steps of ``dt`` (at least one poll)."""
        end = clock[0] + us
        while True:
            node.poll()
            pump(node, sent, sc["drop"], count)
            if clock[0] >= end:
                return
            clock[0] = min(end, clock[0] + dt)

    node.hello()
    pump(node, sent, sc["drop"], count)
    for seg in sc["segments"]:
        segment(sc, clock, ring, node, step, seg)
    step(35000000, 200000)
    print("S %d %d %d %d %d %d" % (ring.traces, ring.dropped + node.traces_dropped, ring.cut, ring.backsteps,
                                   node.gave_up, count[0]))


with open(argv[2]) as fh:
    for line in fh:
        if line.strip():
            run(json.loads(line))
