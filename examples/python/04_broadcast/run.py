#!/usr/bin/env python3
"""Tutorial 4 (docs/tutorial.md): a 2x2 broadcast with data tasks, its layout built in Python.

PE(0,0) sends 8 i32 values on color C; the routes form a tree that reaches the compute engine of
every other PE, whose data task adds up what arrives. The layout below is the one in
firmware/tutorial/04_broadcast/broadcast.tlayout, written with tessera.Layout. Exits non-zero
if a leaf's total differs from numpy's.
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

layout = tessera.Layout(2, 2, base_dir=firmware / "tutorial" / "04_broadcast")
layout.let("C", 5)
layout.region(0, 0, "root.s", params={"C": "C"})
layout.region(1, 0, "leaf.s", params={"C": "C"})
layout.region(0, 1, "leaf.s", w=2, h=1, params={"C": "C"})
layout.route("C", 0, 0, rx="RAMP", tx="E,S")        # (0,0) RAMP -> E, S
layout.route("C", 1, 0, rx="W", tx="RAMP,S")        # (1,0) W -> RAMP, S
layout.route("C", (0, 1), 1, rx="N", tx="RAMP")     # (0,1), (1,1) N -> RAMP

N = 8
v = np.random.default_rng(4).integers(-1000, 1000, N, dtype=np.int32)

runner = SdkRuntime(layout.link(), args.backend)
runner.load()
runner.run()
runner.memcpy_h2d("v", v, 0, 0, 1, 1, N, streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
result = runner.launch("main", nonblock=False)  # the root; the leaves' data tasks follow
totals = {}
for px, py in ((1, 0), (0, 1), (1, 1)):
    t = np.zeros(1, np.int32)
    runner.memcpy_d2h(t, "total", px, py, 1, 1, 1, streaming=False, order=MemcpyOrder.ROW_MAJOR,
                      data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
    totals[(px, py)] = int(t[0])
runner.stop()

expected = int(v.sum())
print(f"leaf totals {totals} after {result.cycles} cycles ({result.tasks_started} task starts)")
wrong = {pe: t for pe, t in totals.items() if t != expected}
if wrong:
    print(f"FAIL: expected {expected} on every leaf; these differ: {wrong}")
    sys.exit(1)
print("SUCCESS")
