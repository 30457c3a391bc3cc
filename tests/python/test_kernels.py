"""tessera.kernels: every kernel of the library on the user's own data, checked against numpy
(and the run's own check against the host reference), with the shape, type and range errors."""
import numpy as np
import pytest

import tessera

K = tessera.kernels
rng = np.random.default_rng(11)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def close(got, want, rel=1e-5):
    want = np.asarray(want, np.float64)
    scale = max(1.0, float(np.max(np.abs(want))))
    assert got.shape == want.shape
    assert np.max(np.abs(got - want)) <= rel * scale * 10, np.max(np.abs(got - want))


@pytest.mark.parametrize("backend", ["func", "cosim"])
def test_gemv_on_my_matrix(backend):
    A, x, b = f32(37, 21), f32(21), f32(37)  # sizes that do not divide the fabric
    y, report = K.gemv(A, x, b, fabric=(3, 2), backend=backend)
    close(y, A.astype(np.float64) @ x + b)
    assert report["pass"] and report["cycles"] > 0 and 0 < report["fmac_utilization"] < 1
    assert report["fabric"] == (3, 2)


def test_gemm_gemv_f16_and_keywords():
    A, B = f32(20, 12), f32(12, 9)
    C, _ = K.gemm(A, B, fabric=(2, 2))
    close(C, A.astype(np.float64) @ B)
    y, r = K.gemv(A=A.astype(np.float16), x=f32(12).astype(np.float16), dtype="f16")
    assert r["pass"] and y.shape == (20,)


def test_stencils_collectives_and_fft():
    p = f32(3, 2, 16)
    q, _ = K.stencil_spmv(p)
    lap = 6 * p.astype(np.float64)
    for ax in range(3):
        for s in (1, -1):
            sh = np.roll(p, s, axis=ax).astype(np.float64)
            idx = [slice(None)] * 3
            idx[ax] = 0 if s == 1 else -1
            sh[tuple(idx)] = 0
            lap -= sh
    close(q, lap)
    x, r = K.cg(p, tol=1e-5)
    assert r["pass"] and x.shape == p.shape
    v = f32(2, 3, 5)
    out, _ = K.allreduce(v, along="grid", op="max")
    close(out[1, 2], v.max(axis=(0, 1)))
    re, im, _ = K.fft(f32(2, 64), np.zeros((2, 64), np.float32), fabric=(4, 2))
    assert re.shape == im.shape == (2, 64)


def test_fft_matches_numpy():
    x = f32(1, 128)
    re, im, _ = K.fft(x, np.zeros_like(x), fabric=(2, 1))
    X = np.fft.fft(x.astype(np.float64), axis=1)
    close(re, X.real, rel=1e-4)
    close(im, X.imag, rel=1e-4)


def test_heat_life_histogram_mandelbrot_spmv():
    u0 = rng.random((10, 14), dtype=np.float32)
    u, _ = K.heat2d(u0, iters=3, fabric=(2, 2))
    assert u.shape == (10, 14) and np.all(np.isfinite(u))
    board = np.zeros((12, 10), bool)
    board[5, 3:6] = True  # a blinker
    nxt, _ = K.life(board, iters=1, fabric=(2, 2))
    assert np.argwhere(nxt).tolist() == [[4, 4], [5, 4], [6, 4]]
    v = rng.random((2, 3, 50), dtype=np.float32)
    h, _ = K.histogram(v, bins=10)
    assert h.tolist() == np.histogram(v, bins=10, range=(0, 1))[0].tolist()
    count, _ = K.mandelbrot(m=20, n=16, iters=10, fabric=(2, 2))
    assert count.shape == (20, 16) and count.dtype == np.uint32 and count.max() == 10
    n = 300
    idx = rng.choice(n * n, 500, replace=False)
    rows, cols = idx // n, idx % n
    vals, x = f32(500), f32(n)
    y, _ = K.spmv_hypersparse(rows, cols, vals, x, fabric=(3, 2))
    A = np.zeros((n, n))
    A[rows, cols] = vals
    close(y, A @ x)


def test_bad_data_is_refused_with_words():
    with pytest.raises(ValueError, match=r"input x: shape \(5,\), but the kernel needs \(21,\)"):
        K.gemv(f32(37, 21), f32(5))
    with pytest.raises(ValueError, match=r"m=5 does not agree with input A of shape \(37, 21\)"):
        K.gemv(f32(37, 21), m=5)
    with pytest.raises(ValueError, match=r"outside \[0, 1\), the range the 10 bins cover"):
        K.histogram(rng.random((2, 2, 8), dtype=np.float32) * 2, bins=10)
    with pytest.raises(ValueError, match=r"input A: dtype <i4, expected float32 or float16"):
        K.gemv(np.ones((4, 4), np.int32))
    with pytest.raises(ValueError, match=r"the cells are 0 \(dead\) or 1 \(alive\)"):
        K.life(np.full((8, 8), 2, np.int32))
    with pytest.raises(ValueError, match=r"the entry \(1, 2\) appears twice"):
        K.spmv_hypersparse([1, 1], [2, 2], f32(2), f32(10), fabric=(1, 1))
    with pytest.raises(ValueError, match=r"unknown argument 'colour'"):
        K.gemv(f32(4, 4), colour=3)
    with pytest.raises(ValueError, match=r"m=0: give 1 or more"):
        K.gemv(m=0, n=3)
