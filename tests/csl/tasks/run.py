#!/usr/bin/env cs_python
"""Tasks, routes and streams on three PEs; each check says what it shows."""
import argparse
import json
import numpy as np
from cerebras.sdk.runtime.sdkruntimepybind import SdkRuntime, MemcpyDataType, MemcpyOrder

p = argparse.ArgumentParser()
p.add_argument("--name", default="out")
args = p.parse_args()
params = json.load(open(f"{args.name}/out.json"))["params"]
h2d, d2h = int(params["MEMCPYH2D_DATA_1_ID"]), int(params["MEMCPYD2H_DATA_1_ID"])
ROW, B32 = MemcpyOrder.ROW_MAJOR, MemcpyDataType.MEMCPY_32BIT

x = np.array([0.5, 1.0, -2.0, 4.0, 8.0, 16.0, -32.0, 64.0], dtype=np.float32)
r = SdkRuntime(args.name)
r.load()
r.run()
r.memcpy_h2d(r.get_id("x"), x, 0, 0, 1, 1, 8, streaming=False, order=ROW, data_type=B32,
             nonblock=False)
# Two (value, index) pairs per PE of the row: (10 + k, 0) and (-20 - k, 1), index high.
pairs = []
for k in range(3):
    pairs += [(0 << 16) | (10 + k), (1 << 16) | ((-20 - k) & 0xFFFF)]
r.memcpy_h2d(h2d, np.array(pairs, dtype=np.uint32), 0, 0, 3, 1, 2, streaming=True, order=ROW,
             data_type=B32, nonblock=True)
r.launch("start", nonblock=False)
got = np.zeros(8, dtype=np.uint32)
r.memcpy_d2h(got, d2h, 2, 0, 1, 1, 8, streaming=True, order=ROW, data_type=B32, nonblock=False)
r.launch("mark", 5, 6, nonblock=False)
state = np.zeros(48, dtype=np.uint32)
r.memcpy_d2h(state, r.get_id("state"), 0, 0, 3, 1, 16, streaming=False, order=ROW,
             data_type=B32, nonblock=False)
r.stop()

state = state.reshape(3, 16)
f32 = lambda w: float(np.array([w], dtype=np.uint32).view(np.float32)[0])
checks = [
    ("launch arguments reached every program's frame", [list(state[:, 14]), list(state[:, 15])],
     [[5, 5, 5], [6, 6, 6]]),
    ("the boot tasks ran at load on every PE", list(state[:, 0]), [7, 7, 7]),
    ("the sender's completion task ran", int(state[0, 1]), 1),
    ("the relay received 8 wavelets", int(state[1, 1]), 8),
    ("the relay's sum", f32(state[1, 2]), float(x.sum())),
    ("the relay's resume task saw it blocked after 4", int(state[1, 8]), 4),
    ("the sink's sum", f32(state[2, 2]), float(x.sum())),
    ("the D2H stream carried the sink's buffer", list(got.view(np.float32)), list(x)),
]
for k in range(3):
    checks.append((f"PE({k},0)'s pairs module got its pairs", list(state[k, 3:5].view(np.int32)),
                   [10 + k, -20 - k]))
bad = [f"{what}: got {g}, expected {w}" for what, g, w in checks if g != w]
if bad:
    raise SystemExit("FAIL\n" + "\n".join(bad))
print("SUCCESS!")
