#!/usr/bin/env cs_python
"""DSD operations: pe.csl's results against numpy."""
import argparse
import numpy as np
from cerebras.sdk.runtime.sdkruntimepybind import SdkRuntime, MemcpyDataType, MemcpyOrder

p = argparse.ArgumentParser()
p.add_argument("--name", default="out")
args = p.parse_args()

ROW, B32, B16 = MemcpyOrder.ROW_MAJOR, MemcpyDataType.MEMCPY_32BIT, MemcpyDataType.MEMCPY_16BIT
a = np.array([1.0, -2.0, 3.5, 4.0, 0.25, -6.0, 7.0, 8.0], dtype=np.float32)
m = np.arange(12, dtype=np.float32).reshape(3, 4) * np.float32(1.5)
h = np.array([1, -2, 300, -4000, 5, 32000, 7, -8], dtype=np.int16)

r = SdkRuntime(args.name)
r.load()
r.run()
r.memcpy_h2d(r.get_id("a"), a, 0, 0, 1, 1, 8, streaming=False, order=ROW, data_type=B32, nonblock=False)
r.memcpy_h2d(r.get_id("m"), m.reshape(-1), 0, 0, 1, 1, 12, streaming=False, order=ROW,
             data_type=B32, nonblock=True)
# 16-bit values travel in the low half of 32-bit words.
r.memcpy_h2d(r.get_id("h"), h.astype(np.int32).view(np.uint32) & 0xFFFF, 0, 0, 1, 1, 8,
             streaming=False, order=ROW, data_type=B16, nonblock=False)
r.launch("run", nonblock=False)
out = np.zeros(70, dtype=np.float32)
r.memcpy_d2h(out, r.get_id("out"), 0, 0, 1, 1, 70, streaming=False, order=ROW, data_type=B32,
             nonblock=False)
r.stop()

want = np.zeros(70, dtype=np.float32)
want[0:8] = a + a
want[8:12] = a[0::2] * a[1::2]
want[12:20] = a + np.float32(1.5)
want[20:28] = a - np.float32(0.5)
want[28:32] = 9.0
want[32:40] = a + a * a[1]
want[40:43] = m.sum(axis=1)
want[44:46] = -1.0
want[46:48] = 7.0
want[56:60] = a[0::2]
want[60:64] = a[1::2]
want[64:66] = a[3:5]
want[68:70] = sum(a[2 * c:2 * c + 2] * np.float32(c + 1) for c in range(4))
want[48:56] = ((h.astype(np.int32) * 2 + 3 + 32768) % 65536 - 32768).astype(np.float32)
diff = np.nonzero(out != want)[0]
if diff.size:
    raise SystemExit("FAIL\n" + "\n".join(f"out[{i}] = {out[i]}, expected {want[i]}" for i in diff))
print("SUCCESS!")
