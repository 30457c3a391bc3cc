#!/usr/bin/env cs_python
"""<collectives_2d> along rows and columns at once: every result against numpy, the sums in the
library's documented order (docs/csl.md, "<collectives_2d>"), so they match bit for bit."""
import argparse
import json
import os
import sys
import numpy as np
from cerebras.sdk.runtime.sdkruntimepybind import SdkRuntime, MemcpyDataType, MemcpyOrder

# The library's summation order, written once for both tests (tests/csl/collectives_random.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from collectives_random import reduce_line  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--name", default="out")
args = p.parse_args()
params = json.load(open(f"{args.name}/out.json"))["params"]
W, H, K = int(params["W"]), int(params["H"]), int(params["K"])
ROW, B32 = MemcpyOrder.ROW_MAJOR, MemcpyDataType.MEMCPY_32BIT

rng = np.random.default_rng(38)
inp = rng.uniform(-4, 4, size=(H, W, 64)).astype(np.float32)
r = SdkRuntime(args.name)
r.load()
r.run()
r.memcpy_h2d(r.get_id("inp"), inp.ravel(), 0, 0, W, H, 64, streaming=False, order=ROW,
             data_type=B32, nonblock=False)
r.launch("run", nonblock=False)
out = np.zeros(H * W * 72, dtype=np.float32)
r.memcpy_d2h(out, r.get_id("out"), 0, 0, W, H, 72, streaming=False, order=ROW, data_type=B32,
             nonblock=False)
r.stop()
out = out.reshape(H, W, 72)


def sl(a, off, n):
    return a[..., off:off + n]


bx, bx2, v = sl(inp, 0, K), sl(inp, 3, K), sl(inp, 6, K)
sc, scy, by, wy = sl(inp, 9, W * K), sl(inp, 24, H * K), sl(inp, 36, K), sl(inp, 39, K)


failures = []


def check(what, got, want):
    if not np.array_equal(got.view(np.uint32), np.asarray(want, np.float32).view(np.uint32)):
        failures.append(f"{what}: got {got}, want {want}")


scr = np.zeros((H, W, K), np.float32)
for y in range(H):
    for x in range(W):
        check(f"row {y} broadcast from x=2 at PE({x},{y})", out[y, x, 0:3], bx[y, 2])
        check(f"row {y} broadcast from x=0 at PE({x},{y})", out[y, x, 21:24], bx2[y, 0])
        scr[y, x] = sc[y, 3, x * K:(x + 1) * K]
        check(f"row {y} scatter from x=3 at PE({x},{y})", out[y, x, 27:30], scr[y, x])
    check(f"row {y} reduce_fadds to x={W - 1}", out[y, W - 1, 3:6], reduce_line(v[y], W - 1))
    check(f"row {y} gather to x={W - 1}", out[y, W - 1, 6:21], v[y].ravel())
    check(f"row {y} reduce_fadds to x=1", out[y, 1, 24:27], reduce_line(v[y], 1))
    check(f"row {y} gather to x=2", out[y, 2, 30:45], scr[y].ravel())
    for x in range(W):
        if x != W - 1:
            check(f"row {y}: no reduce result at PE({x},{y})", out[y, x, 3:6], np.zeros(K))
scry = np.zeros((H, W, K), np.float32)
for x in range(W):
    for y in range(H):
        scry[y, x] = scy[1, x, y * K:(y + 1) * K]
        check(f"column {x} scatter from y=1 at PE({x},{y})", out[y, x, 45:48], scry[y, x])
        check(f"column {x} broadcast from y={H - 1} at PE({x},{y})", out[y, x, 51:54],
              by[H - 1, x])
    check(f"column {x} reduce_fadds to y=2", out[2, x, 48:51], reduce_line(scry[:, x], 2))
    check(f"column {x} gather to y=0", out[0, x, 54:66], wy[:, x].ravel())

for f in failures[:20]:
    print("FAIL", f)
if failures:
    raise SystemExit(f"{len(failures)} checks failed")
print("SUCCESS!")
