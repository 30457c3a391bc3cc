#!/usr/bin/env python3
"""Tutorial 1 (docs/tutorial.md): a scalar loop on one PE adds up 16 f32 values.

The host copies x in, launches `main`, reads `sum` back and checks it against numpy, in the
public SDK's run.py style. Exits non-zero on a mismatch.
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

N = 16
x = np.random.default_rng(1).uniform(-1, 1, N).astype(np.float32)

runner = SdkRuntime(tessera.link(firmware / "tutorial" / "01_loop" / "loop.tlayout"), args.backend)
runner.load()
runner.run()
runner.memcpy_h2d("x", x, 0, 0, 1, 1, N, streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
result = runner.launch("main", nonblock=False)
total = np.zeros(1, np.float32)
runner.memcpy_d2h(total, "sum", 0, 0, 1, 1, 1, streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
runner.stop()

# The device adds in order, rounding to f32 after every addition.
expected = np.float32(0)
for v in x:
    expected = np.float32(expected + v)
print(f"sum = {total[0]!r} after {result.cycles} cycles; numpy: {expected!r}")
if total[0] != expected:
    print("FAIL: the device's sum differs from numpy's")
    sys.exit(1)
print("SUCCESS")
