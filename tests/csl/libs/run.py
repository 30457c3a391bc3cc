#!/usr/bin/env cs_python
"""<random>, <time>, <math>, <debug> and @map on one PE; each check says what it shows."""
import argparse
import warnings
import numpy as np
from cerebras.sdk.runtime.sdkruntimepybind import SdkRuntime, MemcpyDataType, MemcpyOrder
from cerebras.sdk.debug.debug_util import debug_util

p = argparse.ArgumentParser()
p.add_argument("--name", default="out")
args = p.parse_args()
ROW, B32, B16 = MemcpyOrder.ROW_MAJOR, MemcpyDataType.MEMCPY_32BIT, MemcpyDataType.MEMCPY_16BIT

x = np.array([4.0, 2.0, 9.0, 0.25, 2.5, 16.0, 1e-3, 7.0], dtype=np.float32)
r = SdkRuntime(args.name)
r.load()
r.run()
r.memcpy_h2d(r.get_id("x"), x, 0, 0, 1, 1, 8, streaming=False, order=ROW, data_type=B32,
             nonblock=False)
r.launch("run", np.float32(3.0), nonblock=False)
out = np.zeros(16, dtype=np.float32)
r.memcpy_d2h(out, r.get_id("out"), 0, 0, 1, 1, 16, streaming=False, order=ROW, data_type=B32,
             nonblock=False)
ints = np.zeros(8, dtype=np.uint32)
r.memcpy_d2h(ints, r.get_id("ints"), 0, 0, 1, 1, 8, streaming=False, order=ROW, data_type=B32,
             nonblock=False)
stamps = np.zeros(6, dtype=np.uint32)
r.memcpy_d2h(stamps, r.get_id("stamps"), 0, 0, 1, 1, 6, streaming=False, order=ROW,
             data_type=B16, nonblock=False)
r.stop()


def mwc(z, w, n):
    """Marsaglia's multiply-with-carry, as host/csl/lib/random.csl documents it."""
    got = []
    for _ in range(n):
        z = (36969 * (z & 0xFFFF) + (z >> 16)) & 0xFFFFFFFF
        w = (18000 * (w & 0xFFFF) + (w >> 16)) & 0xFFFFFFFF
        got.append(((z << 16) + w) & 0xFFFFFFFF)
    return got


first = mwc(362436069, 521288629, 2)
seeded = mwc(7, 521288629, 2)
unit = np.float32(seeded[1] >> 8) * np.float32(2.0 ** -24)
f32 = lambda w: np.array([w], dtype=np.uint32).view(np.float32)[0]
t0 = int(stamps[0]) | int(stamps[1]) << 16 | int(stamps[2]) << 32
t1 = int(stamps[3]) | int(stamps[4]) << 16 | int(stamps[5]) << 32
with warnings.catch_warnings(record=True) as warned:
    warnings.simplefilter("always")
    dbg = debug_util(args.name)
    log = dbg.read_trace(4, 1, "log")
    big = dbg.read_trace(4, 1, "big")
checks = [
    ("@map(math.sqrt_f32) is correctly rounded", list(out[:8]), list(np.sqrt(x))),
    ("@map(axpb) over every other x with a run-time scale", list(out[8:12]),
     list(np.float32(3.0) * x[::2] + np.float32(0.5))),
    ("invsqrt, abs, inv, -inf", list(out[12:16]),
     [np.float32(1) / np.sqrt(x[1]), x[2], np.float32(1) / x[3], -np.inf]),
    ("@map reducing a const array into a pointer", int(ints[0].view(np.int32)),
     100 + 3 - 5 + 7 + 11),
    ("random_u32 from Marsaglia's seeds", list(ints[1:3]), first),
    ("set_global_prng_seed(7)", int(ints[3]), seeded[0]),
    ("random_f32(-2, 2)", f32(ints[4]), np.float32(-2.0) + np.float32(4.0) * unit),
    ("@get_config(FabricDim) is the fabric's width and height", int(ints[5]),
     (3 << 16) | 8),
    ("the timestamps advance", t1 > t0 > 0, True),
    ("<debug> kept the four records that fit in 8 words", log, ["start", -3, 3.0, True]),
    ("<debug> warned that one was dropped", len(warned), 1),
    ("a timestamp trace lies between the two stamps", t0 <= big[0] <= t1, True),
    ("and the string after it", big[1:], ["end"]),
]
bad = [f"{what}: got {g}, expected {w}" for what, g, w in checks if g != w]
for line in bad:
    print("MISMATCH", line)
if bad:
    raise SystemExit(1)
print("SUCCESS!")
