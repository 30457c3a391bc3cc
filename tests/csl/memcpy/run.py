#!/usr/bin/env cs_python
"""memcpy on 2x2: both orders, 16-bit copies, a column stream, several functions, simprint."""
import argparse
import json
import numpy as np
from cerebras.sdk.runtime.sdkruntimepybind import SdkRuntime, MemcpyDataType, MemcpyOrder
from cerebras.sdk.sdk_utils import memcpy_view, input_array_to_u32

p = argparse.ArgumentParser()
p.add_argument("--name", default="out")
args = p.parse_args()
h2d = int(json.load(open(f"{args.name}/out.json"))["params"]["MEMCPYH2D_DATA_1_ID"])
ROW, COL = MemcpyOrder.ROW_MAJOR, MemcpyOrder.COL_MAJOR
B32, B16 = MemcpyDataType.MEMCPY_32BIT, MemcpyDataType.MEMCPY_16BIT
bad = []

def check(what, got, want):
    if not np.array_equal(got, want):
        bad.append(f"{what}:\n  got      {got}\n  expected {want}")

r = SdkRuntime(args.name)
r.load()
r.run()
v = np.arange(12, dtype=np.float32).reshape(2, 2, 3)          # [y][x][i]
r.memcpy_h2d(r.get_id("v"), v.reshape(-1), 0, 0, 2, 2, 3, streaming=False, order=ROW,
             data_type=B32, nonblock=False)
w16 = (np.arange(20, dtype=np.uint16) * 3).reshape(5, 2, 2)    # COL_MAJOR: [i][x][y]
r.memcpy_h2d(r.get_id("w"), input_array_to_u32(w16.reshape(-1), 1, 20), 0, 0, 2, 2, 5,
             streaming=False, order=COL, data_type=B16, nonblock=False)
r.launch("double_it", nonblock=False)
got = np.zeros(12, dtype=np.float32)
r.memcpy_d2h(got, r.get_id("v"), 0, 0, 2, 2, 3, streaming=False, order=ROW, data_type=B32,
             nonblock=False)
check("v doubled (row major)", got.reshape(2, 2, 3), v * 2)
got = np.zeros(6, dtype=np.float32)
r.memcpy_d2h(got, r.get_id("v"), 1, 0, 1, 2, 3, streaming=False, order=COL, data_type=B32,
             nonblock=False)
check("column 1 of v, column major", got.reshape(3, 2).T, v[:, 1, :] * 2)
w_out = np.zeros(20, dtype=np.uint32)
r.memcpy_d2h(w_out, r.get_id("w"), 0, 0, 2, 2, 5, streaming=False, order=COL, data_type=B16,
             nonblock=False)
xs = np.array([0, 1]).reshape(1, 2, 1)
ys = np.array([0, 1]).reshape(1, 1, 2)
want = (w16.astype(np.uint32) * 2 + xs + 10 * ys) & 0xFFFF
check("w (16-bit, column major)", memcpy_view(w_out, np.dtype(np.uint16)).reshape(5, 2, 2), want)
# A stream down column 0: 3 words per PE (rows 0 and 1), into a fabin operation.
r.launch("listen", nonblock=False)
s = np.array([1.5, 2.5, 3.5, -1.0, -2.0, -3.0], dtype=np.float32)
r.memcpy_h2d(h2d, s, 0, 0, 1, 2, 3, streaming=True, order=ROW, data_type=B32, nonblock=False)
r.launch("say", nonblock=False)
got = np.zeros(6, dtype=np.float32)
r.memcpy_d2h(got, r.get_id("v"), 0, 0, 1, 2, 3, streaming=False, order=ROW, data_type=B32,
             nonblock=False)
check("the column stream's words", got, s)
r.launch("scale", -3, 0.5, True, nonblock=False)
got = np.zeros(12, dtype=np.float32)
r.memcpy_d2h(got, r.get_id("v"), 0, 0, 2, 2, 3, streaming=False, order=ROW, data_type=B32,
             nonblock=False)
check("scale(-3, 0.5, true) on every PE", got.reshape(4, 3)[:, 2], np.full(4, 1.5, np.float32))
# Broadcast copies: one column of data for every column (rowbcast), one row for every row
# (colbcast), in both orders; the SDK's older call(name, [args]).
per_row = np.array([[10, 11, 12], [20, 21, 22]], dtype=np.float32)  # [y][i]
per_col = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float32)        # [x][i]
for order, rows, cols in ((ROW, per_row.reshape(-1), per_col.reshape(-1)),
                          (COL, per_row.T.reshape(-1), per_col.T.reshape(-1))):
    r.memcpy_h2d_rowbcast(r.get_id("v"), rows, 0, 0, 2, 2, 3, streaming=False, order=order,
                          data_type=B32, nonblock=False)
    r.memcpy_d2h(got, r.get_id("v"), 0, 0, 2, 2, 3, streaming=False, order=ROW, data_type=B32,
                 nonblock=False)
    check(f"memcpy_h2d_rowbcast {order}", got.reshape(2, 2, 3),
          np.broadcast_to(per_row[:, None, :], (2, 2, 3)))
    r.memcpy_h2d_colbcast(r.get_id("v"), cols, 0, 0, 2, 2, 3, streaming=False, order=order,
                          data_type=B32, nonblock=False)
    r.memcpy_d2h(got, r.get_id("v"), 0, 0, 2, 2, 3, streaming=False, order=ROW, data_type=B32,
                 nonblock=False)
    check(f"memcpy_h2d_colbcast {order}", got.reshape(2, 2, 3),
          np.broadcast_to(per_col[None, :, :], (2, 2, 3)))
r.call("scale", [-3, 0.5, True], nonblock=False)
r.memcpy_d2h(got, r.get_id("v"), 0, 0, 2, 2, 3, streaming=False, order=ROW, data_type=B32,
             nonblock=False)
check("call('scale', [-3, 0.5, True])", got.reshape(4, 3)[:, 2], np.full(4, 1.5, np.float32))
for bad_args, what in (((1, 2.0), "takes 3 argument"), ((70000, 1.0, False), "does not fit in i16")):
    try:
        r.launch("scale", *bad_args, nonblock=False)
        bad.append(f"launch('scale', {bad_args}) was not refused")
    except (ValueError, TypeError, RuntimeError) as e:
        if what not in str(e):
            bad.append(f"launch('scale', {bad_args}): {e}")
r.stop()
lines = [l.split(" ", 1)[1].rstrip("\n") for l in open("sim.log")]
want_lines = []
for y in range(2):
    for x in range(2):
        w0, w1 = int(want[0, x, y]), int(want[1, x, y])
        neg = -w1 if w1 < 32768 else 65536 - w1
        want_lines.append(f"PE({x},{y}): w[0] = {w0} hex {w0:08X} neg {neg} heard {1 - x}")
check("sim.log", sorted(lines), sorted(want_lines))
if bad:
    raise SystemExit("FAIL\n" + "\n".join(bad))
print("SUCCESS!")
