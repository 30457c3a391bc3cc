#!/usr/bin/env python3
"""Conjugate gradient driven from Python: the device applies the operator, the host iterates.

A is the 7-point Dirichlet Laplacian on an nx x ny x nz grid (firmware/kernels/stencil/stencil.s,
KIND 0: q = A p, one column of nz points per PE, halos exchanged with the four neighbours). Each
CG iteration copies the search direction p in, launches `main` (q = A p on the fabric), copies q
back and does the dot products and vector updates in numpy: a host program with many phases.

Checks that the first product matches numpy's A p and that the final residual |b - A x| / |b|,
computed in numpy, is below --tol. Exits non-zero otherwise.
"""
import argparse
import pathlib
import sys

import numpy as np

import tessera
from tessera import MemcpyDataType, MemcpyOrder, SdkRuntime

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--backend", default="func", choices=["func", "rtl", "cosim"])
parser.add_argument("--nx", type=int, default=4, help="grid points in x (fabric width)")
parser.add_argument("--ny", type=int, default=4, help="grid points in y (fabric height)")
parser.add_argument("--nz", type=int, default=32, help="grid points in z (in PE memory)")
parser.add_argument("--tol", type=float, default=1e-5, help="relative residual to reach")
parser.add_argument("--max-iters", type=int, default=200)
args = parser.parse_args()
firmware = pathlib.Path(__file__).resolve().parents[3] / "firmware"
nx, ny, nz = args.nx, args.ny, args.nz

# The layout of the stencil kernel: halo colors alternate with the PE's parity, so every link
# carries one color per direction (host/kernels/kernel_run.cpp builds the same in C++).
layout = tessera.Layout(nx, ny, base_dir=firmware / "kernels" / "stencil")
for name, color in (("EG0", 1), ("EG1", 2), ("WG0", 3), ("WG1", 4),
                    ("SG0", 5), ("SG1", 6), ("NG0", 7), ("NG1", 8)):
    layout.let(name, color)
layout.region(0, 0, ["stencil.s", "../../lib/collectives.s"], w=nx, h=ny, params={
    "NZ": nz, "KIND": 0,
    "HW": "x>0", "HE": "x<FW-1", "HN": "y>0", "HS": "y<FH-1",
    "CEO": "x%2==0 ? EG0 : EG1", "CWI": "x%2==0 ? EG1 : EG0",
    "CWO": "x%2==0 ? WG0 : WG1", "CEI": "x%2==0 ? WG1 : WG0",
    "CSO": "y%2==0 ? SG0 : SG1", "CNI": "y%2==0 ? SG1 : SG0",
    "CNO": "y%2==0 ? NG0 : NG1", "CSI": "y%2==0 ? NG1 : NG0"})
layout.include("../../lib/collectives.tlayout")
every = dict(x=(0, "FW-1"), y=(0, "FH-1"))
for group, out, into, axis, last in (("EG", "E", "W", "x", "FW-1"), ("WG", "W", "E", "x", "FW-1"),
                                     ("SG", "S", "N", "y", "FH-1"), ("NG", "N", "S", "y", "FH-1")):
    forward = out in ("E", "S")  # sending toward growing x or y
    for parity in (0, 1):
        sends = f"{axis}%2=={parity}" + (f" && {axis}<{last}" if forward else f" && {axis}>0")
        gets = f"{axis}%2=={1 - parity}" + (f" && {axis}>0" if forward else f" && {axis}<{last}")
        layout.route(f"{group}{parity}", rx="RAMP", tx=out, when=sends, **every)
        layout.route(f"{group}{parity}", rx=into, tx="RAMP", when=gets, **every)


def apply_a(u):
    """A u in float64 for u of shape (ny, nx, nz), zero outside the grid."""
    q = 6 * u
    q[:, :, 1:] -= u[:, :, :-1]
    q[:, :, :-1] -= u[:, :, 1:]
    q[:, 1:, :] -= u[:, :-1, :]
    q[:, :-1, :] -= u[:, 1:, :]
    q[1:, :, :] -= u[:-1, :, :]
    q[:-1, :, :] -= u[1:, :, :]
    return q


runner = SdkRuntime(layout.link(), args.backend, quiet=True)
runner.load()
runner.run()
copy = dict(streaming=False, order=MemcpyOrder.ROW_MAJOR, data_type=MemcpyDataType.MEMCPY_32BIT,
            nonblock=False)


def device_apply(p):
    """q = A p on the fabric (p is rounded to f32 on the way in)."""
    runner.memcpy_h2d("p", p.astype(np.float32), 0, 0, nx, ny, nz, **copy)
    result = runner.launch("main")
    q = np.zeros((ny, nx, nz), np.float32)
    runner.memcpy_d2h(q, "q", 0, 0, nx, ny, nz, **copy)
    return q.astype(np.float64), result.cycles


b = np.random.default_rng(5).uniform(-1, 1, (ny, nx, nz))
x = np.zeros_like(b)
r = b.copy()
p = r.copy()
rr = float(np.vdot(r, r))
bnorm = np.sqrt(float(np.vdot(b, b)))
cycles = 0
for it in range(1, args.max_iters + 1):
    q, c = device_apply(p)
    cycles += c
    if it == 1:
        want = apply_a(p.astype(np.float32).astype(np.float64))
        err = np.abs(q - want).max() / np.abs(want).max()
        print(f"first q = A p: max relative error {err:.2e} against numpy")
        if err > 1e-6:
            print("FAIL: the device's A p differs from numpy's")
            sys.exit(1)
    alpha = rr / float(np.vdot(p, q))
    x += alpha * p
    r -= alpha * q
    rr_new = float(np.vdot(r, r))
    if np.sqrt(rr_new) <= args.tol * bnorm:
        break
    p = r + (rr_new / rr) * p
    rr = rr_new
runner.stop()

true_res = np.linalg.norm(b - apply_a(x)) / bnorm
print(f"CG on {nx}x{ny}x{nz}: {it} iterations, {cycles} device cycles; "
      f"|b - A x| / |b| = {true_res:.2e} (numpy)")
if not true_res <= 2 * args.tol:
    print(f"FAIL: the residual did not reach {args.tol}")
    sys.exit(1)
print("SUCCESS")
