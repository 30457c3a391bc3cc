#!/usr/bin/env python3
"""An MLP forward pass through the Python API: firmware/ml/mlp.s on a row of P PEs.

The model (64-32-10 by default, ReLU, f32, resident weights) is laid out the way mlp.s expects
(docs/ml.md, "Mapping"): PE p owns inputs p*NB .. p*NB+NB-1 of every layer and the weight
columns for them, an allreduce along the row gives every PE each layer's whole output. The host
copies the weights once, then runs several batches: copy the batch in, launch `forward`, read the
logits from PE 0. Each batch's logits are checked against numpy's forward pass in float64.
Exits non-zero on a mismatch.
"""
import argparse
import pathlib
import sys

import numpy as np

import tessera
from tessera import MemcpyDataType, MemcpyOrder, SdkRuntime

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--backend", default="func", choices=["func", "rtl", "cosim"])
parser.add_argument("--layers", default="64,32,10", help="feature counts, input first (2..5)")
parser.add_argument("--batch", type=int, default=8)
parser.add_argument("--pes", type=int, default=4)
parser.add_argument("--batches", type=int, default=3, help="forward passes to run")
args = parser.parse_args()
firmware = pathlib.Path(__file__).resolve().parents[3] / "firmware"

sizes = [int(s) for s in args.layers.split(",")]
L, B, P = len(sizes) - 1, args.batch, args.pes
In = sizes[:-1]
Out = sizes[1:]
nb = [-(-n // P) for n in In]                         # inputs per PE, per layer
mp = [P * nb[l + 1] if l + 1 < L else Out[l] for l in range(L)]  # padded outputs
tmp = max(max(B * nb[l], Out[l]) for l in range(L))

rng = np.random.default_rng(6)
W = [rng.uniform(-1, 1, (Out[l], In[l])).astype(np.float32) / np.sqrt(In[l]) for l in range(L)]
bias = [rng.uniform(-0.1, 0.1, Out[l]).astype(np.float32) for l in range(L)]

params = {"P": P, "PX": "x", "B": B, "NL": L, "F16": 0, "STREAM": 0, "TRAIN": 0,
          "MMAX": max(Out), "TMP": tmp}
for l in range(L):
    params.update({f"NB{l}": nb[l], f"M{l}": Out[l], f"MP{l}": mp[l], f"ACT{l}": 0,
                   f"SP{l}": 0, f"CAP{l}": 1})
layout = tessera.Layout(P, 1, base_dir=firmware / "ml")
layout.include("../lib/collectives.tlayout")
layout.region(0, 0, ["mlp.s", "../lib/collectives.s", "../lib/math.s"], w=P, h=1, params=params)

runner = SdkRuntime(layout.link(), args.backend, quiet=True)
runner.load()
runner.run()
copy = dict(streaming=False, order=MemcpyOrder.ROW_MAJOR, data_type=MemcpyDataType.MEMCPY_32BIT)


def per_pe_columns(m, n_pad, column_major):
    """Splits the columns of m (rows x n) into P blocks of NB; each block column-major (the
    weights: column j of the block, then j+1) or row-major (a batch: sample by sample)."""
    rows, n = m.shape
    padded = np.zeros((rows, n_pad * P), np.float32)
    padded[:, :n] = m
    blocks = padded.reshape(rows, P, n_pad)            # [row, pe, j]
    order = (1, 2, 0) if column_major else (1, 0, 2)   # [pe, j, row] or [pe, row, j]
    return np.ascontiguousarray(blocks.transpose(order)).reshape(-1)


for l in range(L):
    runner.memcpy_h2d(f"wm{l}", per_pe_columns(W[l], nb[l], True), 0, 0, P, 1, nb[l] * Out[l],
                      nonblock=True, **copy)
    b = np.zeros(mp[l], np.float32)
    b[:Out[l]] = bias[l]
    runner.memcpy_h2d(f"bias{l}", np.tile(b, P), 0, 0, P, 1, mp[l], nonblock=True, **copy)

worst = 0.0
for step in range(args.batches):
    x = rng.uniform(0, 1, (B, In[0])).astype(np.float32)
    runner.memcpy_h2d("x0", per_pe_columns(x, nb[0], False), 0, 0, P, 1, B * nb[0],
                      nonblock=False, **copy)
    result = runner.launch("forward")
    z = np.zeros(B * mp[L - 1], np.float32)  # PE 0's copy of the last layer's output
    runner.memcpy_d2h(z, f"z{L - 1}", 0, 0, 1, 1, B * mp[L - 1], nonblock=False, **copy)
    z = z.reshape(B, mp[L - 1])

    h = x.astype(np.float64)
    for l in range(L):
        h = h @ W[l].astype(np.float64).T + bias[l]
        if l + 1 < L:
            h = np.maximum(h, 0)
    err = np.linalg.norm(z[:, :Out[-1]] - h) / np.linalg.norm(h)
    worst = max(worst, err)
    print(f"batch {step}: {result.cycles} cycles, logits' relative error {err:.2e} "
          f"(predicted classes {np.argmax(z[:, :Out[-1]], axis=1).tolist()})")
runner.stop()

if not worst <= 1e-5:
    print(f"FAIL: the device's logits differ from numpy's by {worst:.2e}")
    sys.exit(1)
print("SUCCESS")
