# Runs unchanged under MicroPython (WebAssembly port, via run_mpy.mjs) and CPython; the test compares the outputs.
#   check_firmware.py FIRMWARE_DIR TRACE.csv KIND [TRACE.csv KIND ...]
# For each trace: every detector event as "E <t_us> <kind> <peak %.3f>"; then each event sent through a proto.Node
# (fake clock and radio), framed, deframed and unpacked: "P <hex frame> <fields>". Last: "COST <us per sample>".
import sys

argv = globals().get("ARGV") or sys.argv  # run_mpy.mjs sets ARGV: the WebAssembly port's sys has no argv
sys.path.insert(0, argv[1])
import detector  # noqa: E402
import proto  # noqa: E402

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
        fh.readline()
        for line in fh:
            p = line.strip().split(",")
            if len(p) == 4:
                out.append((int(p[0]), float(p[1]), float(p[2]), float(p[3])))
    return out


total_us = 0
total_n = 0
args = argv[2:]
for i in range(0, len(args), 2):
    samples = read(args[i])
    det = detector.Detector(args[i + 1])
    events = []
    t0 = ticks_us()
    for s in samples:
        r = det.feed(s[0], s[1], s[2], s[3])
        if r:
            events.extend(r)
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
print("COST %.2f" % (total_us / total_n))
