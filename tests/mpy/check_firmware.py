# Runs unchanged under MicroPython (WebAssembly port, via run_mpy.mjs) and CPython; the test compares the outputs.
#   check_firmware.py FIRMWARE_DIR TRACE.csv KIND [TRACE.csv KIND ...]
# A trace is `t_us,ax,ay,az` or, from a part whose gyroscope is on, `t_us,ax,ay,az,gx,gy,gz` (fed to the detector
# with the rate, as the firmware does). For each trace: "R <rows> <columns>"; every detector event as
# "E <t_us> <kind> <peak %.3f>"; then each event sent through a proto.Node (fake clock and radio), framed, deframed
# and unpacked: "P <hex frame> <fields>"; then the samples replayed through a tracebuf.TraceBuffer (keeping the rate
# when the trace has it) on a Node whose trace chunks are acknowledged as they go: "T <type> <trace id> <index>
# <count> <t first> <crc of the packet> <samples> <sum of their fields>", with "X <hex frame>" after each trace's
# first chunk. Last: "COST <us per sample>" (the detector alone).
import sys

argv = globals().get("ARGV") or sys.argv  # run_mpy.mjs sets ARGV: the WebAssembly port's sys has no argv
sys.path.insert(0, argv[1])
import detector  # noqa: E402
import proto  # noqa: E402
import tracebuf  # noqa: E402

try:
    from time import ticks_diff, ticks_us  # MicroPython
except ImportError:
    import time

    def ticks_us():
        return int(time.perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b


def read(path):
    out = []
    with open(path) as fh:
        ncol = len(fh.readline().strip().split(","))
        for line in fh:
            p = line.strip().split(",")
            if len(p) == ncol == 4:
                out.append((int(p[0]), float(p[1]), float(p[2]), float(p[3])))
            elif len(p) == ncol == 7:
                out.append((int(p[0]), float(p[1]), float(p[2]), float(p[3]), float(p[4]), float(p[5]),
                            float(p[6])))
    return out, ncol


def traces(samples, emitted, dkind):
    """Replay the samples into a trace ring, marking each event when the detector reported it; print the chunks."""
    gyro = len(samples[0]) == 7
    clock = [samples[0][0]]
    sent = []
    ring = tracebuf.TraceBuffer(833, gyro=gyro)
    node = proto.Node(b"\x02\x11\x22\x33\x44\x66", dkind, 9, lambda: clock[0], sent.append, traces=ring,
                      heartbeat_us=1000000000000)
    host = [0]

    def pump():
        while sent:
            body = proto.unseal(sent.pop(0))
            mtype = body[1]
            if mtype != proto.TRACE and mtype != proto.TRACE6:
                continue
            fields = proto.unpack(body)[6]
            got = proto.trace_samples(body)
            total = 0
            for s in got:
                for v in s:
                    total += v
            print("T %d %d %d %d %d %d %d %d" % (mtype, fields[0], fields[1], fields[2], fields[3],
                                                  proto.crc16(body), len(got), total))
            if fields[1] == 0:
                print("X " + proto.frame(proto.seal(body)).hex())
            host[0] += 1
            ack = proto.pack(proto.ACK, proto.KIND_HOST, node.mac, 77, host[0], (mtype, node.boot, body[12] | (
                body[13] << 8) | (body[14] << 16) | (body[15] << 24)))
            node.on_packet(proto.seal(ack))

    k = 0
    for i in range(len(samples)):
        s = samples[i]
        clock[0] = s[0]
        if gyro:
            ring.add(s[0], s[1], s[2], s[3], s[4], s[5], s[6])
        else:
            ring.add(s[0], s[1], s[2], s[3])
        while k < len(emitted) and emitted[k][0] == i:
            ev = emitted[k][1]
            node.event(ev[1], ev[0], ev[2])
            k += 1
        if i % 8 == 0:
            node.poll()
            pump()
    for _ in range(400):  # let the last captures close and every chunk go out
        clock[0] += 10000
        node.poll()
        pump()


total_us = 0
total_n = 0
args = argv[2:]
for i in range(0, len(args), 2):
    samples, ncol = read(args[i])
    print("R %d %d" % (len(samples), ncol))
    det = detector.Detector(args[i + 1])
    events = []
    emitted = []  # (sample index, event): when the detector reported it
    t0 = ticks_us()
    for j in range(len(samples)):
        s = samples[j]
        if ncol == 7:
            r = det.feed(s[0], s[1], s[2], s[3], s[4], s[5], s[6])
        else:
            r = det.feed(s[0], s[1], s[2], s[3])
        if r:
            events.extend(r)
            for ev in r:
                emitted.append((j, ev))
    events.extend(det.flush())
    total_us += ticks_diff(ticks_us(), t0)
    total_n += len(samples)
    for ev in events:
        print("E %d %s %.3f" % (ev[0], ev[1], ev[2]))
    clock = [0]
    sent = []  # noqa: B023 -- the clock closure is used within this iteration only
    dkind = proto.KIND_BURRITO if args[i + 1] == "burrito" else proto.KIND_BADGE
    node = proto.Node(b"\x02\x11\x22\x33\x44\x55", dkind, 7, lambda: clock[0], sent.append, caps=3,  # noqa: B023
                      rate_hz=833)
    node.hello()
    for ev in events:
        clock[0] = ev[0] + 150000
        node.event(ev[1], ev[0], ev[2])
    stream = b"".join([proto.frame(p) for p in sent])
    df = proto.Deframer()
    for pkt in df.feed(stream):
        mtype, dk, flags, mac, boot, seq, fields = proto.unpack(proto.unseal(pkt))
        print("P %s %d %d %d %s %d %d %s" % (proto.frame(pkt).hex(), mtype, dk, flags, proto.mac_str(mac), boot, seq,
                                              " ".join([str(f) for f in fields])))
    print("C crc %d cobs %s" % (proto.crc16(stream[:64]), proto.cobs_encode(b"\x00\x01\x00" + stream[:40]).hex()))
    if samples:
        traces(samples, emitted, dkind)
print("COST %.2f" % (total_us / total_n))
