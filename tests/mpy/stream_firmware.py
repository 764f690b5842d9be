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


def run(sc):
    clock = [sc["start"]]
    sent = []
    ring = tracebuf.TraceBuffer(sc["rate"], gyro=sc["gyro"])
    node = proto.Node(MAC, proto.KIND_BURRITO, 4242, lambda: clock[0], sent.append, caps=proto.CAP_ACCEL,
                      rate_hz=sc["rate"], traces=ring)
    node.seq = sc["seq"]
    drop = sc["drop"]
    count = [0, 0]  # packets, host seq

    def pump():
        while sent:
            packet = sent.pop(0)
            body = proto.unseal(packet)
            mtype, _k, flags, mac, boot, seq, fields = proto.unpack(body)
            if mac != MAC or boot != 4242:
                raise ValueError("header changed")
            n = 0
            if mtype == proto.TRACE or mtype == proto.TRACE6:
                if fields[2] > tracebuf.MAX_CHUNKS or fields[1] >= fields[2]:
                    raise ValueError("chunk %d of %d" % (fields[1], fields[2]))
                got = proto.trace_samples(body)
                n = len(got)
                for k in range(1, n):
                    if got[k][0] < got[k - 1][0]:
                        raise ValueError("trace time steps back")
            print("K %d %d %d %s %d %d" % (mtype, flags, seq, " ".join([str(f) for f in fields]), n,
                                          proto.crc16(body)))
            count[0] += 1
            if mtype in proto.NEEDS_ACK:
                count[1] += 1
                if drop and count[1] % drop == 0:
                    continue
                ack = proto.pack(proto.ACK, proto.KIND_HOST, MAC, 7, count[1], (mtype, 4242, seq))
                node.on_packet(proto.seal(ack))

    def idle(us, step):
        end = clock[0] + us
        while clock[0] < end:
            clock[0] = min(end, clock[0] + step)
            node.poll()
            pump()

    node.hello()
    pump()
    for pause, n, period, back, marks in sc["segments"]:
        if pause > 3000000:
            idle(3000000, 20000)
            clock[0] += pause - 3000000
            node.poll()
            pump()
        else:
            idle(pause, 20000)
        marks = sorted(marks)
        k = 0
        for i in range(n):
            clock[0] += period
            t = clock[0]
            if back and i % back == back - 1:
                t -= 3 * period
            if sc["gyro"]:
                ring.add(t, i % 50 - 25.0, 0.5, 1.0, 0.1, -0.2, (i % 9) * 10.0)
            else:
                ring.add(t, i % 50 - 25.0, 0.5, 1.0)
            while k < len(marks) and marks[k][0] <= i:
                node.event(marks[k][2], t - marks[k][1], 4.0)
                k += 1
            if i % 8 == 7:
                node.poll()
                pump()
    idle(35000000, 200000)
    print("S %d %d %d %d %d %d" % (ring.traces, ring.dropped + node.traces_dropped, ring.cut, ring.backsteps,
                                   node.gave_up, count[0]))


with open(argv[2]) as fh:
    for line in fh:
        if line.strip():
            run(json.loads(line))
