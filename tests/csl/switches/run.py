#!/usr/bin/env cs_python
"""Switches and control wavelets: which PE got which wavelets, and which control tasks ran."""
import argparse
import numpy as np
from cerebras.sdk.runtime.sdkruntimepybind import SdkRuntime, MemcpyDataType, MemcpyOrder

p = argparse.ArgumentParser()
p.add_argument("--name", default="out")
args = p.parse_args()

r = SdkRuntime(args.name)
r.load()
r.run()
r.launch("start", nonblock=False)
state = np.zeros(24, dtype=np.uint32)
r.memcpy_d2h(state, r.get_id("state"), 0, 0, 3, 1, 8, streaming=False,
             order=MemcpyOrder.ROW_MAJOR, data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
r.stop()
west, sender, east = (list(int(v) for v in row) for row in state.reshape(3, 8))
checks = [
    ("the sender finished", sender[0], 1),
    # east: 1..4 at position 0, the 7 at position 2, the 11 after the ring wrapped to 0
    ("east's sum and count", east[0:2], [1 + 2 + 3 + 4 + 7 + 11, 6]),
    # A control task runs after the data before its wavelet; data behind it may run first (the
    # task picker takes the lowest ready ID), so "after" is "after at least".
    ("east's task 40: payload 100, once, after at least 4 data", east[2:4] + [min(east[4], 4)],
     [100, 1, 4]),
    ("east never ran task 41 (the filtered control wavelet ran nothing)", east[6], 0),
    # west: 10..40 at position 1, the 9 at position 3
    ("west's sum and count", west[0:2], [10 + 20 + 30 + 40 + 9, 5]),
    ("west's task 40: run-time payload 300, once, after 5 data", west[2:5], [300, 1, 5]),
    ("west's task 41: payload 200, once, after at least 4 data", west[5:7] + [min(west[7], 4)],
     [200, 1, 4]),
]
bad = [f"{what}: got {g}, expected {w}" for what, g, w in checks if g != w]
for line in bad:
    print("MISMATCH", line)
if bad:
    raise SystemExit(1)
print("SUCCESS!")
