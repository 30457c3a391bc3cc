#!/usr/bin/env cs_python
"""FIFOs: a chain of three operations through two small FIFOs, run twice, and a 16-bit stream
relayed through a FIFO to the next PE; every result against numpy, bit for bit."""
import argparse
import numpy as np
from cerebras.sdk.runtime.sdkruntimepybind import SdkRuntime, MemcpyDataType, MemcpyOrder

p = argparse.ArgumentParser()
p.add_argument("--name", default="out")
args = p.parse_args()

ROW, B32, B16 = MemcpyOrder.ROW_MAJOR, MemcpyDataType.MEMCPY_32BIT, MemcpyDataType.MEMCPY_16BIT
N = 40
x = (np.arange(N, dtype=np.float32) - 7) * np.float32(0.75)
h = (np.arange(N, dtype=np.uint32) * 1601 + 3) & 0xFFFF

r = SdkRuntime(args.name)
r.load()
r.run()
r.memcpy_h2d(r.get_id("x"), x, 0, 0, 1, 1, N, streaming=False, order=ROW, data_type=B32,
             nonblock=False)
r.memcpy_h2d(r.get_id("h"), h, 0, 0, 1, 1, N, streaming=False, order=ROW, data_type=B16,
             nonblock=False)
r.launch("start", nonblock=False)
y = np.zeros(N, dtype=np.float32)
r.memcpy_d2h(y, r.get_id("y"), 0, 0, 1, 1, N, streaming=False, order=ROW, data_type=B32,
             nonblock=False)
g = np.zeros(N, dtype=np.uint32)
r.memcpy_d2h(g, r.get_id("g"), 1, 0, 1, 1, N, streaming=False, order=ROW, data_type=B16,
             nonblock=False)
r.stop()

# The second run pushed 3x through the same relay (negate), then added 0.5.
want_y = -(x * np.float32(3.0)) + np.float32(0.5)
want_g = (h + 1) & 0xFFFF
bad = [f"y[{i}] = {y[i]!r}, expected {want_y[i]!r}" for i in range(N)
       if y.view(np.uint32)[i] != want_y.view(np.uint32)[i]]
bad += [f"g[{i}] = {g[i]}, expected {want_g[i]}" for i in range(N) if (g[i] & 0xFFFF) != want_g[i]]
if bad:
    raise SystemExit("MISMATCH: " + "; ".join(bad[:6]))
print("SUCCESS!")
