#!/usr/bin/env cs_python
"""Range and counter filters: which indices reached each receiver's CE, and that every PE
passed all on."""
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
state = np.zeros(20, dtype=np.uint32)
r.memcpy_d2h(state, r.get_id("state"), 0, 0, 5, 1, 4, streaming=False,
             order=MemcpyOrder.ROW_MAJOR, data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
r.stop()
pes = [list(int(v) for v in row) for row in state.reshape(5, 4)]


def expect(indices):
    mask = sum(1 << k for k in indices)
    return [len(indices), sum(100 + k for k in indices), mask, max(indices)]


checks = [
    ("the sender sent 12", pes[0][0], 12),
    ("PE 1 took indices 0..3", pes[1], expect(range(0, 4))),
    ("PE 2 took 3..7 (PE 1 passed every wavelet on)", pes[2], expect(range(3, 8))),
    ("PE 3 took 10..11 (PE 2 passed every wavelet on)", pes[3], expect(range(10, 12))),
    ("PE 4's counter (from 1, wrapping after 4) delivered counts 0..2", pes[4],
     expect([0, 1, 4, 5, 6, 9, 10, 11])),
]
bad = [f"{what}: got {g}, expected {w}" for what, g, w in checks if g != w]
for line in bad:
    print("MISMATCH", line)
if bad:
    raise SystemExit(1)
print("SUCCESS!")
