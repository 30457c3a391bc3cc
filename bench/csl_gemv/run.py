#!/usr/bin/env cs_python
"""The CSL GEMV: loads A, x and b, launches, checks y against numpy, prints the launch's cycles."""
import argparse
import json
import numpy as np
from cerebras.sdk.runtime.sdkruntimepybind import SdkRuntime, MemcpyDataType, MemcpyOrder

p = argparse.ArgumentParser()
p.add_argument("--name", default="out")
p.add_argument("--m", type=int, required=True)
p.add_argument("--n", type=int, required=True)
args = p.parse_args()
prm = json.load(open(f"{args.name}/out.json"))["params"]
Q, P, MB, NB = (int(prm[k]) for k in ("Q", "P", "MB", "NB"))
M, N = args.m, args.n
assert M <= P * MB and N <= Q * NB
rng = np.random.default_rng(1)
A = rng.uniform(-1, 1, (M, N)).astype(np.float32)
x = rng.uniform(-1, 1, N).astype(np.float32)
b = rng.uniform(-1, 1, M).astype(np.float32)
Ap = np.zeros((P * MB, Q * NB), np.float32)
Ap[:M, :N] = A
xp = np.zeros(Q * NB, np.float32)
xp[:N] = x
bp = np.zeros(P * MB, np.float32)
bp[:M] = b
# Per PE: its block, column-major; row-major order of PEs: [py][px][MB*NB].
blocks = Ap.reshape(P, MB, Q, NB).transpose(0, 2, 3, 1).reshape(-1)
xs = np.tile(xp.reshape(Q, NB), (P, 1)).reshape(-1)
ROW, B32 = MemcpyOrder.ROW_MAJOR, MemcpyDataType.MEMCPY_32BIT
r = SdkRuntime(args.name)
r.load()
r.run()
r.memcpy_h2d(r.get_id("A"), blocks, 0, 0, Q, P, MB * NB, streaming=False, order=ROW,
             data_type=B32, nonblock=False)
r.memcpy_h2d(r.get_id("x"), xs, 0, 0, Q, P, NB, streaming=False, order=ROW, data_type=B32,
             nonblock=False)
r.memcpy_h2d(r.get_id("b"), bp, 0, 0, 1, P, MB, streaming=False, order=ROW, data_type=B32,
             nonblock=False)
r.launch("gemv", nonblock=False)
cycles = r.tessera.last_result.cycles
y = np.zeros(P * MB, np.float32)
r.memcpy_d2h(y, r.get_id("y"), 0, 0, 1, P, MB, streaming=False, order=ROW, data_type=B32,
             nonblock=False)
r.stop()
want = A.astype(np.float64) @ x + b
scale = np.abs(A.astype(np.float64)) @ np.abs(x) + np.abs(b)
err = float(np.max(np.abs(y[:M] - want) / scale))
ok = err <= 1e-5
print(json.dumps({"cycles": cycles, "max_rel_err": err, "pass": ok}))
if not ok:
    raise SystemExit(f"FAIL: relative error {err}")
