# The detector alone, timed under MicroPython (run by bench_mpy_compare.py through tests/mpy/run_mpy.mjs) or CPython:
#   mpy_detector_loop.py FIRMWARE_DIR PASSES TRACE.csv KIND [TRACE.csv KIND ...]
# Reads the traces once, then feeds them all through fresh Detectors PASSES times, printing "PASS <us per sample>"
# for each pass (wall time: the least of many passes is the one the machine's load disturbed least) and last
# "EVENTS <count> <sum of stamps>" from the first pass, to check that two detectors agree.
import gc
import sys

argv = globals().get("ARGV") or sys.argv  # run_mpy.mjs sets ARGV: the WebAssembly port's sys has no argv
sys.path.insert(0, argv[1])
import detector  # noqa: E402

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
    return out


traces = []
args = argv[3:]
for i in range(0, len(args), 2):
    traces.append((read(args[i]), args[i + 1]))
n = 0
for tr in traces:
    n += len(tr[0])
count = 0
stamps = 0
for k in range(int(argv[2])):
    gc.collect()
    t0 = ticks_us()
    for samples, kind in traces:
        det = detector.Detector(kind)
        for s in samples:
            if len(s) == 7:
                r = det.feed(s[0], s[1], s[2], s[3], s[4], s[5], s[6])
            else:
                r = det.feed(s[0], s[1], s[2], s[3])
            if k == 0:
                for ev in r:
                    count += 1
                    stamps += ev[0]
        if k == 0:
            for ev in det.flush():
                count += 1
                stamps += ev[0]
        else:
            det.flush()
    print("PASS %.2f" % (ticks_diff(ticks_us(), t0) / n))
print("EVENTS %d %d" % (count, stamps))
