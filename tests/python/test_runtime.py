"""SdkRuntime: the session, memcpy in every dtype and order, launch, results, nonblocking commands,
streams, debug records and the link trace."""
import numpy as np
import pytest

import tessera
from conftest import DATA, RUNTIME_DATA, TUTORIAL

DTYPES = {
    "af32": np.float32,
    "ai32": np.int32,
    "au32": np.uint32,
    "af16": np.float16,
    "ai16": np.int16,
    "au16": np.uint16,
}
N = 6


def sample(dtype, shape, seed=1):
    rng = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.floating):
        return rng.standard_normal(shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype)


@pytest.mark.parametrize("symbol", sorted(DTYPES))
@pytest.mark.parametrize("order", [tessera.MemcpyOrder.ROW_MAJOR, tessera.MemcpyOrder.COL_MAJOR])
def test_round_trip_every_dtype_and_order(runner, symbol, order):
    dtype = DTYPES[symbol]
    bits = (tessera.MemcpyDataType.MEMCPY_16BIT if np.dtype(dtype).itemsize == 2
            else tessera.MemcpyDataType.MEMCPY_32BIT)
    x = sample(dtype, (2, 2, N))
    src = np.asfortranarray(x) if order == tessera.MemcpyOrder.COL_MAJOR else x
    runner.memcpy_h2d(symbol, src, 0, 0, 2, 2, N, order=order, data_type=bits)
    out = np.zeros_like(src)
    runner.memcpy_d2h(out, symbol, 0, 0, 2, 2, N, order=order, data_type=bits)
    np.testing.assert_array_equal(out, x)
    # PE (px, py) holds x[py, px, :], whatever the order: read it alone.
    one = np.zeros(N, dtype)
    runner.memcpy_d2h(one, symbol, 1, 0, 1, 1, N, data_type=bits)
    np.testing.assert_array_equal(one, x[0, 1])


def test_flat_arrays_follow_the_order(runner):
    x = np.arange(2 * 2 * N, dtype=np.int32)
    runner.memcpy_h2d("ai32", x, 0, 0, 2, 2, N, order=tessera.MemcpyOrder.COL_MAJOR)
    out = np.zeros((2, 2, N), np.int32)
    runner.memcpy_d2h(out, "ai32", 0, 0, 2, 2, N)
    # Column-major: element i of PE (px, py) is at py + h*(px + w*i).
    for py in range(2):
        for px in range(2):
            for i in range(N):
                assert out[py, px, i] == py + 2 * (px + 2 * i)


def test_non_contiguous_arrays_are_copied_in_and_out(runner):
    big = sample(np.float32, (2, 2, 2 * N))
    view = big[:, :, ::2]  # neither C nor Fortran contiguous
    runner.memcpy_h2d("af32", view, 0, 0, 2, 2, N)
    dest_big = np.zeros((2, 2, 2 * N), np.float32)
    runner.memcpy_d2h(dest_big[:, :, 1::2], "af32", 0, 0, 2, 2, N)
    np.testing.assert_array_equal(dest_big[:, :, 1::2], view)
    assert not dest_big[:, :, ::2].any()


def test_partial_copy_keeps_the_rest(runner):
    runner.memcpy_h2d("au16", np.full(2 * 2 * N, 7, np.uint16), 0, 0, 2, 2, N,
                      data_type=tessera.MemcpyDataType.MEMCPY_16BIT)
    runner.memcpy_h2d("au16", np.array([1, 2], np.uint16), 1, 1, 1, 1, 2,
                      data_type=tessera.MemcpyDataType.MEMCPY_16BIT)
    out = np.zeros(N, np.uint16)
    runner.memcpy_d2h(out, "au16", 1, 1, 1, 1, N, data_type=tessera.MemcpyDataType.MEMCPY_16BIT)
    np.testing.assert_array_equal(out, [1, 2, 7, 7, 7, 7])


def test_launch_with_an_argument_returns_the_run(runner):
    x = sample(np.int32, (2, 2, N)) // 4
    runner.memcpy_h2d("ai32", x, 0, 0, 2, 2, N)
    r = runner.launch("bump", 5)
    assert isinstance(r, tessera.RunResult)
    assert r.ok and r.status == "quiescent"
    assert r.cycles > 0 and r.end_cycle == runner.cycle
    assert r.tasks_started == 4 and r.instructions > 4 * N
    assert r.debug_records == 4
    out = np.zeros_like(x)
    runner.memcpy_d2h(out, "ai32", 0, 0, 2, 2, N)
    np.testing.assert_array_equal(out, x + 5)
    assert runner.last_result.cycles == r.cycles
    assert [(c[1], c[2], c[3]) for c in runner.debug_records] == [
        (0, 0, 5), (1, 0, 5), (0, 1, 5), (1, 1, 5)]
    assert runner.debug_records[0][4].endswith("PE(0,0): 5")


def test_launch_on_a_region(runner):
    runner.memcpy_h2d("ai32", np.zeros(4 * N, np.int32), 0, 0, 2, 2, N)
    r = runner.launch("bump", 1, region=(1, 0, 1, 2))
    assert r.tasks_started == 2
    out = np.zeros((2, 2, N), np.int32)
    runner.memcpy_d2h(out, "ai32", 0, 0, 2, 2, N)
    assert (out[:, 1] == 1).all() and (out[:, 0] == 0).all()


def test_numpy_integer_argument(runner):
    runner.memcpy_h2d("ai32", np.zeros(4 * N, np.int32), 0, 0, 2, 2, N)
    runner.launch("bump", np.int16(3))
    out = np.zeros(4 * N, np.int32)
    runner.memcpy_d2h(out, "ai32", 0, 0, 2, 2, N)
    assert (out == 3).all()


def test_nonblocking_commands_run_in_order(runner):
    x = np.arange(4 * N, dtype=np.int32)
    out = np.zeros_like(x)
    t1 = runner.memcpy_h2d("ai32", x, 0, 0, 2, 2, N, nonblock=True)
    t2 = runner.launch("bump", 2, nonblock=True)
    t3 = runner.memcpy_d2h(out, "ai32", 0, 0, 2, 2, N, nonblock=True)
    assert all(isinstance(t, tessera.Task) for t in (t1, t2, t3))
    assert not runner.is_task_complete(t1)
    assert not out.any()  # queued, not run
    r = runner.task_wait(t2)
    assert isinstance(r, tessera.RunResult) and r.tasks_started == 4
    assert runner.is_task_complete(t1) and not runner.is_task_complete(t3)
    runner.task_wait(t3)
    np.testing.assert_array_equal(out, x + 2)
    # A blocking command runs what was queued first.
    runner.launch("bump", 1, nonblock=True)
    runner.memcpy_d2h(out, "ai32", 0, 0, 2, 2, N)
    np.testing.assert_array_equal(out, x + 3)


def test_stop_runs_the_queue_and_ends_the_session(dtypes_image):
    r = tessera.SdkRuntime(dtypes_image, quiet=True)
    r.load()
    r.run()
    out = np.zeros(4 * N, np.int32)
    r.memcpy_h2d("ai32", np.ones(4 * N, np.int32), 0, 0, 2, 2, N, nonblock=True)
    r.memcpy_d2h(out, "ai32", 0, 0, 2, 2, N, nonblock=True)
    assert r.stop() == []
    assert (out == 1).all() and r.stopped
    with pytest.raises(tessera.Error, match="session has ended"):
        r.launch("bump")


def test_get_id(runner):
    s = runner.get_id("af16")
    assert s["name"] == "af16" and s["dtype"] == np.float16 and s["count"] == N
    assert s["pes"] == [(0, 0), (1, 0), (0, 1), (1, 1)]
    x = sample(np.float16, 4 * N)
    runner.memcpy_h2d(s, x, 0, 0, 2, 2, N, data_type=tessera.MemcpyDataType.MEMCPY_16BIT)
    out = np.zeros_like(x)
    runner.memcpy_d2h(out, s, 0, 0, 2, 2, N, data_type=tessera.MemcpyDataType.MEMCPY_16BIT)
    np.testing.assert_array_equal(out, x)


def test_properties(runner):
    assert runner.backend == "func" and runner.fabric == (2, 2) and runner.cycle == 0
    assert runner.last_result is None


def test_host_port_copies_take_cycles(dtypes_image):
    with tessera.SdkRuntime(dtypes_image, quiet=True, host_port=True) as r:
        r.load()
        r.run()
        m = r.memcpy_h2d("au32", np.arange(4 * N, dtype=np.uint32), 0, 0, 2, 2, N)
        assert isinstance(m, tessera.MemcpyResult)
        assert m.words == 4 * N and m.cycles == N  # 1x1 tiles: a port per PE, N words each
        assert r.cycle == m.cycles


def test_streams_through_edge_ports():
    # stream.tlayout: color 1 passes from PE(0,0)'s west edge to PE(1,0)'s east edge; color 2
    # feeds PE(1,0)'s data task, which sums 8 wavelets into `total`.
    img = tessera.link(RUNTIME_DATA / "stream.tlayout")
    with tessera.SdkRuntime(img, quiet=True) as r:
        r.load()
        r.run()
        data = np.arange(10, 20, dtype=np.uint32)
        out = np.zeros(10, np.uint32)
        t = r.memcpy_h2d(1, data, 0, 0, 1, 1, 10, streaming=True, nonblock=True)  # W: inferred
        r.memcpy_h2d(2, np.arange(1, 9, dtype=np.int32), 0, 0, 1, 1, 8, streaming=True,
                     nonblock=True)
        assert not t.done
        # Runs the queue (the wavelets enter), then the fabric until PE(1,0) sent 10 east.
        r.memcpy_d2h(out, 1, 1, 0, 1, 1, 10, streaming=True, side="E")
        np.testing.assert_array_equal(out, data)
        total = np.zeros(1, np.int32)
        r.memcpy_d2h(total, "total", 1, 0, 1, 1, 1)
        assert total[0] == 36
    with tessera.SdkRuntime(img, quiet=True) as r:
        r.load()
        r.run()
        assert len(r.stream_out(1, 0, "E")) == 0  # opens the port
        r.stream_in(0, 0, "W", 2, np.arange(1, 9, dtype=np.int32))
        r.stream_in(0, 0, "W", 1, np.array([1.5, 2.5], np.float32))
        res = r.run_until_quiescent()
        assert res.ok
        gone = r.stream_out(1, 0, "e")
        assert list(gone["color"]) == [1, 1] and not gone["ctrl"].any()
        np.testing.assert_array_equal(gone["data"].view(np.float32), [1.5, 2.5])
        assert gone["cycle"][1] > gone["cycle"][0]
        with pytest.raises(tessera.Error, match=r"PE\(1,0\) sent 0 of the 4 wavelets"):
            r.memcpy_d2h(np.zeros(4, np.uint32), 1, 1, 0, 1, 1, 4, streaming=True, side="E")


def test_link_trace_and_tutorial_3_on_every_backend(tmp_path):
    img = tessera.link(TUTORIAL / "03_send" / "send.tlayout")
    x = np.load(TUTORIAL / "03_send" / "x.npy")
    results = {}
    for backend in ("func", "rtl", "cosim"):
        trace = tmp_path / f"{backend}.csv"
        r = tessera.SdkRuntime(img, backend, quiet=True, link_trace=trace)
        r.load()
        r.run()
        r.memcpy_h2d("x", x, 0, 0, 1, 1, 32)
        res = r.launch("main")
        buf = np.zeros(32, np.float32)
        r.memcpy_d2h(buf, "buf", 1, 0, 1, 1, 32)
        np.testing.assert_array_equal(buf, x)
        assert str(trace) in r.stop()
        results[backend] = (res.cycles, trace.read_text())
        if backend == "cosim":
            assert res.link_wavelets == 96
    assert results["func"] == results["rtl"] == results["cosim"]
    assert results["func"][1].count("\n") == 97  # header + 96 wavelets


def test_lockstep_cosim(tmp_path):
    img = tessera.link(TUTORIAL / "03_send" / "send.tlayout")
    r = tessera.SdkRuntime(img, "cosim", quiet=True, lockstep=(1, 0))
    r.load()
    r.run()
    r.memcpy_h2d("x", np.load(TUTORIAL / "03_send" / "x.npy"), 0, 0, 1, 1, 32)
    assert r.launch("main").ok
    r.stop()


def test_waves(tmp_path):
    img = tessera.link(TUTORIAL / "01_loop" / "loop.tlayout")
    wave = tmp_path / "loop.fst"
    r = tessera.SdkRuntime(img, "rtl", quiet=True, wave=wave, wave_window=(0, 50))
    r.load()
    r.run()
    r.memcpy_h2d("x", np.load(TUTORIAL / "01_loop" / "x.npy"), 0, 0, 1, 1, 16)
    r.launch("main")
    files = r.stop()
    assert files == [str(wave), str(tmp_path / "loop.gtkw")]
    assert wave.stat().st_size > 0


def test_image_from_a_path_and_a_layout(tmp_path):
    img = tessera.link(TUTORIAL / "01_loop" / "loop.tlayout", output=tmp_path / "loop.timg")
    for source in (tmp_path / "loop.timg", str(tmp_path / "loop.timg"),
                   TUTORIAL / "01_loop" / "loop.tlayout", img):
        r = tessera.SdkRuntime(source, quiet=True)
        r.load()
        r.run()
        r.memcpy_h2d("x", np.ones(16, np.float32), 0, 0, 1, 1, 16)
        r.launch("main")
        s = np.zeros(1, np.float32)
        r.memcpy_d2h(s, "sum", 0, 0, 1, 1, 1)
        assert s[0] == 16
        r.stop()


def test_threads_give_the_same_run():
    """The functional model on two host threads: the same result and cycles as on one."""
    results = []
    for threads in (1, 2):
        r = tessera.SdkRuntime(tessera.link(TUTORIAL / "04_broadcast" / "broadcast.tlayout"),
                               quiet=True, threads=threads)
        r.load()
        r.run()
        v = np.load(TUTORIAL / "04_broadcast" / "v.npy")
        r.memcpy_h2d("v", v, 0, 0, 1, 1, v.size)
        r.launch("main")
        out = np.zeros(1, np.int32)
        r.memcpy_d2h(out, "total", 1, 1, 1, 1, 1)
        r.stop()
        results.append((r.cycle, int(out[0])))
    assert results[0] == results[1]
    with pytest.raises(ValueError, match="threads 0: expected 1 to 64"):
        tessera.SdkRuntime(tessera.link(TUTORIAL / "04_broadcast" / "broadcast.tlayout"), threads=0)
