#!/usr/bin/env python3
"""Tutorial 3 (docs/tutorial.md): PE(0,0) sends 32 values east on color 3; PE(1,0) receives
them into `buf` and adds them up into `sum`.

Checks that every value arrived unchanged and the sum matches numpy's (in order, f32). With
--link-trace FILE the 96 wavelet crossings are written as CSV. Exits non-zero on a mismatch.
"""
import argparse
import pathlib
import sys

import numpy as np

import tessera
from tessera import MemcpyDataType, MemcpyOrder, SdkRuntime

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--backend", default="func", choices=["func", "rtl", "cosim"])
parser.add_argument("--link-trace", help="write every wavelet on a link to this CSV")
args = parser.parse_args()
firmware = pathlib.Path(__file__).resolve().parents[3] / "firmware"

N = 32
x = np.random.default_rng(3).standard_normal(N).astype(np.float32)

runner = SdkRuntime(tessera.link(firmware / "tutorial" / "03_send" / "send.tlayout"),
                    args.backend, link_trace=args.link_trace)
runner.load()
runner.run()
runner.memcpy_h2d("x", x, 0, 0, 1, 1, N, streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
result = runner.launch("main", nonblock=False)  # both PEs export main
buf = np.zeros(N, np.float32)
total = np.zeros(1, np.float32)
runner.memcpy_d2h(buf, "buf", 1, 0, 1, 1, N, streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
runner.memcpy_d2h(total, "sum", 1, 0, 1, 1, 1, streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
runner.stop()

expected = np.float32(0)
for v in x:
    expected = np.float32(expected + v)
print(f"received {N} values in {result.cycles} cycles; sum = {total[0]!r}")
if not np.array_equal(buf, x):
    print(f"FAIL: {np.count_nonzero(buf != x)} received values differ from those sent")
    sys.exit(1)
if total[0] != expected:
    print(f"FAIL: the sum is {total[0]!r}, numpy's {expected!r}")
    sys.exit(1)
print("SUCCESS")
