#!/usr/bin/env cs_python
"""Scalar code: every result of pe.csl against Python's arithmetic."""
import argparse
import numpy as np
from cerebras.sdk.runtime.sdkruntimepybind import SdkRuntime, MemcpyDataType, MemcpyOrder

p = argparse.ArgumentParser()
p.add_argument("--name", default="out")
args = p.parse_args()

r = SdkRuntime(args.name)
r.load()
r.run()
inp = np.array([-7, 3, 100000, 65535], dtype=np.int32)
r.memcpy_h2d(r.get_id("inp"), inp, 0, 0, 1, 1, 4, streaming=False,
             order=MemcpyOrder.ROW_MAJOR, data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
r.launch("compute", nonblock=False)
res = np.zeros(48, dtype=np.uint32)
fres = np.zeros(48, dtype=np.float32)
r.memcpy_d2h(res, r.get_id("res"), 0, 0, 1, 1, 48, streaming=False,
             order=MemcpyOrder.ROW_MAJOR, data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
r.memcpy_d2h(fres, r.get_id("fres"), 0, 0, 1, 1, 48, streaming=False,
             order=MemcpyOrder.ROW_MAJOR, data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
r.stop()

u32 = lambda v: v & 0xFFFFFFFF
count = 0
for i in range(0, 10, 2):
    stop = False
    for j in range(10):
        if i * j > 20:
            stop = True
            break
        count += 1
    if stop:
        break
want = {
    0: u32(-2), 1: u32(-1), 2: u32(100000 * 100000), 3: 6553, 4: 5, 5: u32(-4),
    6: 65535 >> 4, 7: u32(65535 << 20), 8: u32(-32768), 9: 65535, 10: 1, 11: 0, 12: 55,
    13: 200000, 14: 42, 15: u32(-7 + 3 + 100000), 16: 58, 17: 60, 18: count, 19: 33, 20: 12,
    21: 7, 22: u32(~65535), 23: 70000 % 65536, 24: u32(-3), 25: 1,
    26: int(np.array([-3.5], dtype=np.float32).view(np.uint32)[0]), 27: u32(-6), 28: 19, 29: 4,
    30: u32(-7 * 1 + 3 * 2 + 100000 * 3 + 65535 * 4),
}
bad = [f"res[{k}] = {res[k]:#x}, expected {v:#x}" for k, v in want.items() if int(res[k]) != v]
fwant = {0: -3.5, 1: 13.5, 2: 65535.0, 3: 4294967296.0, 4: -7.0, 5: 3.5, 6: 3.5}
bad += [f"fres[{k}] = {fres[k]!r}, expected {v!r}" for k, v in fwant.items() if fres[k] != np.float32(v)]
if bad:
    raise SystemExit("FAIL\n" + "\n".join(bad))
print("SUCCESS!")
