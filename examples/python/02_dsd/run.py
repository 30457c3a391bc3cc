#!/usr/bin/env python3
"""Tutorial 2 (docs/tutorial.md): y = y + 2.5 x over 64 f32 elements with one DSD operation.

One fmacs on a microthread computes every element with a single rounding (fused), so the result
must equal numpy's exact y + 2.5 x rounded once to f32. Exits non-zero on a mismatch.
"""
import argparse
import pathlib
import sys

import numpy as np

import tessera
from tessera import MemcpyDataType, MemcpyOrder, SdkRuntime

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--backend", default="func", choices=["func", "rtl", "cosim"])
args = parser.parse_args()
firmware = pathlib.Path(__file__).resolve().parents[3] / "firmware"

N = 64
rng = np.random.default_rng(2)
x = rng.uniform(-4, 4, N).astype(np.float32)
y = rng.uniform(-4, 4, N).astype(np.float32)

runner = SdkRuntime(tessera.link(firmware / "tutorial" / "02_dsd" / "axpy.tlayout"), args.backend)
runner.load()
runner.run()
for name, values in (("x", x), ("y", y)):
    runner.memcpy_h2d(name, values, 0, 0, 1, 1, N, streaming=False, order=MemcpyOrder.ROW_MAJOR,
                      data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=True)
result = runner.launch("main", nonblock=False)  # runs the two queued copies first
out = np.zeros(N, np.float32)
runner.memcpy_d2h(out, "y", 0, 0, 1, 1, N, streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
runner.stop()

# 2.5 x and y + 2.5 x are exact in double for these magnitudes: one rounding, like the FMAC.
expected = (y.astype(np.float64) + 2.5 * x.astype(np.float64)).astype(np.float32)
print(f"y[0] = {out[0]!r} after {result.cycles} cycles ({result.instructions} instructions)")
if not np.array_equal(out, expected):
    bad = np.flatnonzero(out != expected)
    print(f"FAIL: {bad.size} elements differ, the first y[{bad[0]}]: {out[bad[0]]!r} on the "
          f"device, {expected[bad[0]]!r} in numpy")
    sys.exit(1)
print("SUCCESS")
