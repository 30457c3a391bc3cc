"""Errors: faults, deadlocks and cosim differences as exceptions with the message in words; bad
arguments as ValueError naming the argument; the session's order; Ctrl-C."""
import os
import signal
import threading

import numpy as np
import pytest

import tessera
from conftest import RUNTIME_DATA, TUTORIAL

N = 6


def started(image, backend="func", **kw):
    r = tessera.SdkRuntime(image, backend, quiet=True, **kw)
    r.load()
    r.run()
    return r


@pytest.mark.parametrize("backend", ["func", "rtl", "cosim"])
def test_a_fault_raises_fault_error_in_words(backend):
    r = started(tessera.link(RUNTIME_DATA / "fault.tlayout"), backend)
    with pytest.raises(tessera.FaultError) as e:
        r.launch("main")
    msg = str(e.value)
    assert msg.startswith("launch 'main': PE(0,0) fault")
    assert "misaligned 32-bit load at pc 0x0004 (address 0x0103), fault.s:6" in msg
    assert e.value.result.status == "fault" and len(e.value.result.faults) == 1
    # Memory is still readable after the fault (the back door).
    kept = np.zeros(1, np.int32)
    r.memcpy_d2h(kept, "kept", 0, 0, 1, 1, 1)
    assert kept[0] == 0x1234


@pytest.mark.parametrize("backend", ["func", "cosim"])
def test_a_deadlock_raises_with_the_diagnosis(backend):
    # Tutorial 3 with only the receiver launched: it waits for data that never comes.
    r = started(tessera.link(TUTORIAL / "03_send" / "send.tlayout"), backend, max_cycles=300)
    with pytest.raises(tessera.DeadlockError) as e:
        r.launch("main", region=(1, 0, 1, 1))
    assert "did not finish within 300 cycles" in str(e.value)
    assert "microthread 0 (mov32 at pc 0x0008 (receiver.s:21), element 0) waits for data on color 3" \
        in str(e.value)
    assert e.value.result.status == "cycle limit" and e.value.result.cycles == 300
    assert isinstance(e.value, tessera.Error) and isinstance(e.value, RuntimeError)


def test_run_until_quiescent_takes_a_cycle_limit():
    r = started(tessera.link(TUTORIAL / "03_send" / "send.tlayout"), max_cycles=300)
    with pytest.raises(tessera.DeadlockError):
        r.launch("main", region=(1, 0, 1, 1))
    with pytest.raises(tessera.DeadlockError, match="within 50 cycles") as e:
        r.run_until_quiescent(max_cycles=50)
    assert e.value.result.cycles == 50 and r.cycle == 350


def test_cosim_differences_raise_mismatch_error():
    img = tessera.link(TUTORIAL / "01_loop" / "loop.tlayout")
    sum_address = img.symbols(0, 0)["sum"]["address"]
    x_address = img.symbols(0, 0)["x"]["address"]
    r = started(img, "cosim")
    r.memcpy_h2d("x", np.ones(16, np.float32), 0, 0, 1, 1, 16)
    # One backend's word changes: reading it back names both values.
    r.debug_write(0, 0, x_address, 0x40000000, backend="rtl")
    with pytest.raises(tessera.MismatchError,
                       match=r"cosim: PE\(0,0\) address 0x[0-9a-f]{4} reads 0x3f800000 on func "
                             r"but 0x40000000 on rtl"):
        r.memcpy_d2h(np.zeros(16, np.float32), "x", 0, 0, 1, 1, 16)
    # A run: the sums differ, and the first difference is named.
    with pytest.raises(tessera.MismatchError, match="launch 'main': cosim: ") as e:
        r.launch("main")
    assert e.value.result.status == "mismatch"
    r2 = started(img, "cosim")
    r2.debug_write(0, 0, sum_address, 7)
    assert r2.debug_read(0, 0, sum_address) == 7
    with pytest.raises(ValueError, match="only a cosim session writes one backend"):
        started(img).debug_write(0, 0, sum_address, 1, backend="rtl")
    with pytest.raises(ValueError, match="address 0x3: a word address is a multiple of 4"):
        r2.debug_read(0, 0, 3)
    with pytest.raises(ValueError, match=r"PE\(1,0\) is outside the 1x1 fabric"):
        r2.debug_read(1, 0, 0)


def test_a_failed_queued_command_drops_the_rest():
    r = started(tessera.link(RUNTIME_DATA / "fault.tlayout"))
    t1 = r.launch("main", nonblock=True)
    t2 = r.memcpy_d2h(np.zeros(1, np.int32), "kept", 0, 0, 1, 1, 1, nonblock=True)
    with pytest.warns(RuntimeWarning, match="launch 'main' failed; the 1 command queued"):
        with pytest.raises(tessera.FaultError):
            r.task_wait(t2)
    assert t1.done and not t2.done
    with pytest.raises(tessera.Error, match="never ran"):
        r.task_wait(t2)


@pytest.mark.parametrize("call, error, match", [
    (lambda r: r.memcpy_h2d("ai32", np.zeros(4 * N, np.float32), 0, 0, 2, 2, N),
     ValueError, r"memcpy_h2d 'ai32' src: the array's dtype is float32, but the symbol holds int32"),
    (lambda r: r.memcpy_h2d("ai32", np.zeros(5, np.int32), 0, 0, 2, 2, N),
     ValueError, r"src: the array has 5 elements.*needs w\*h\*elem_per_pe = 24"),
    (lambda r: r.memcpy_h2d("ai32", np.zeros((2, 12), np.int32), 0, 0, 2, 2, N),
     ValueError, r"shape \(h, w, elem_per_pe\) = \(2, 2, 6\)"),
    (lambda r: r.memcpy_h2d("ai32", np.zeros(N, np.int32), 2, 0, 1, 1, N),
     ValueError, "region"),
    (lambda r: r.memcpy_h2d("nosuch", np.zeros(N, np.int32), 0, 0, 1, 1, N),
     ValueError, "memcpy 'nosuch': the program on PE\\(0,0\\) does not export 'nosuch'"),
    (lambda r: r.memcpy_h2d("ai32", np.zeros(8, np.int32), 0, 0, 1, 1, 8),
     ValueError, "exports only 6"),
    (lambda r: r.memcpy_h2d("af16", np.zeros(N, np.float16), 0, 0, 1, 1, N),
     ValueError, "16"),
    (lambda r: r.memcpy_h2d("ai32", np.zeros(0, np.int32), 0, 0, 0, 1, N),
     ValueError, "w, h and elem_per_pe must be at least 1"),
    (lambda r: r.memcpy_h2d(3.5, np.zeros(N, np.int32), 0, 0, 1, 1, N),
     ValueError, "dest: expected a symbol name"),
    (lambda r: r.memcpy_h2d(30, np.zeros(N, np.int32), 0, 0, 1, 1, N, streaming=True),
     ValueError, "color 30 is not one of 0..23"),
    (lambda r: r.memcpy_h2d(3, np.zeros(4 * N, np.int32), 0, 0, 2, 2, N, streaming=True),
     ValueError, "one column at the W or E edge or one row at the N or S edge"),
    (lambda r: r.memcpy_h2d(3, np.zeros(N, np.int32), 0, 0, 1, 1, N, streaming=True, side="E"),
     ValueError, "does not lie along the E edge"),
    (lambda r: r.memcpy_h2d(3, np.zeros(N, np.int32), 0, 0, 1, 1, N, streaming=True, side="up"),
     ValueError, "side 'up': expected an edge side"),
    (lambda r: r.memcpy_d2h(np.zeros(N, np.uint32), "ai32", 0, 0, 1, 1, N),
     ValueError, "memcpy_d2h 'ai32' dest: the array's dtype is uint32"),
    (lambda r: r.launch("nosuch"), ValueError, "unknown symbol 'nosuch'"),
    (lambda r: r.launch("bump", 1, 2), ValueError, "at most one argument"),
    (lambda r: r.launch("bump", 70000), ValueError, "does not fit the 16-bit TaskArg"),
    (lambda r: r.launch("bump", 1.5), ValueError, "must be an integer 0..65535, not 1.5"),
    (lambda r: r.launch("bump", region=(0, 0, 1)), ValueError, r"region must be \(x, y, w, h\)"),
    (lambda r: r.launch("af32"), ValueError, "no local task starts at 'af32'"),
    (lambda r: r.stream_in(0, 0, "W", 1, np.zeros(3, np.float64)), ValueError,
     "one wavelet per 32-bit element"),
    (lambda r: r.stream_in(1, 0, "W", 1, np.zeros(3, np.uint32)), ValueError, ""),
])
def test_bad_arguments(runner, call, error, match):
    with pytest.raises(error, match=match):
        call(runner)


def test_read_only_destination(runner):
    out = np.zeros(N, np.int32)
    out.setflags(write=False)
    with pytest.raises(ValueError, match="dest: the array is read-only"):
        runner.memcpy_d2h(out, "ai32", 0, 0, 1, 1, N)


@pytest.mark.parametrize("kwargs, match", [
    ({"backend": "verilog"}, "verilog"),
    ({"fabric": (3, 3)}, r"fabric 3x3: the image is linked for a 2x2 fabric"),
    ({"fabric": "2by2"}, "fabric '2by2': expected 'WxH' or \\(w, h\\)"),
    ({"tile": (3, 1)}, "tile=3x1: does not divide the 2x2 fabric"),
    ({"wave_window": (5, 2), "wave": "x.fst"}, r"wave_window \(5, 2\): expected 0 <= from < to"),
    ({"wave_region": (0, 0, 1, 1)}, "need wave='FILE.fst'"),
    ({"link_trace": "/nonexistent/dir/t.csv"}, "link_trace /nonexistent/dir/t.csv: cannot write"),
    ({"lockstep": (0, 0)}, "lockstep"),
])
def test_bad_constructor_arguments(dtypes_image, kwargs, match):
    with pytest.raises(ValueError, match=match):
        tessera.SdkRuntime(dtypes_image, **kwargs)


def test_bad_images(tmp_path):
    with pytest.raises(ValueError, match="no such file"):
        tessera.SdkRuntime(tmp_path / "none.timg")
    with pytest.raises(ValueError, match="expected a tessera.Image or the path"):
        tessera.SdkRuntime(42)


def test_the_sdk_order_is_kept(dtypes_image):
    r = tessera.SdkRuntime(dtypes_image, quiet=True)
    with pytest.raises(tessera.Error, match=r"memcpy_h2d: call load\(\) and run\(\) first"):
        r.memcpy_h2d("ai32", np.zeros(N, np.int32), 0, 0, 1, 1, N)
    with pytest.raises(tessera.Error, match=r"run\(\): call load\(\) first"):
        r.run()
    r.load()
    with pytest.raises(tessera.Error, match=r"load\(\) was called already"):
        r.load()
    with pytest.raises(tessera.Error, match=r"launch: call load\(\) and run\(\) first"):
        r.launch("bump")
    r.run()
    r.stop()
    with pytest.raises(tessera.Error, match="stop\\(\\) was called already"):
        r.stop()


def test_ctrl_c_stops_a_run_cleanly():
    # A run that would take long (a PE counting down from 2^30, 10^10 cycles allowed) is stopped
    # by SIGINT after whole cycles; the session stays usable.
    r = started(tessera.link(RUNTIME_DATA / "spin.tlayout"),
                max_cycles=10**10)
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        r.launch("main")
    timer.join()
    assert r.last_result.status == "interrupted" and r.last_result.cycles > 0
    assert r.debug_read(0, 0, 0xC008) & (1 << 8)  # CeStatus.Running: the task goes on later
    r.stop()


def test_linker_warnings_are_python_warnings(tmp_path):
    # What `tessera link` prints as warnings comes to Python as tessera.LinkWarning: here a route
    # that sends east into a PE with no route of that color.
    layout = tmp_path / "w.tlayout"
    layout.write_text(
        "fabric 2x1\n"
        f"region at=0,0 program={TUTORIAL / '03_send' / 'sender.s'} param C=3\n"
        "route color=3 at=0,0 rx=RAMP tx=E\n")
    want = r"w.tlayout: warning: PE\(0,0\) sends color 3 east \(E\), but PE\(1,0\) has no route"
    with pytest.warns(tessera.LinkWarning, match=want):
        tessera.link(layout)
    with pytest.warns(tessera.LinkWarning, match=want):
        tessera.SdkRuntime(layout, quiet=True)
    assert issubclass(tessera.LinkWarning, UserWarning)


@pytest.mark.parametrize("backend", ["func", "cosim"])
def test_a_fault_is_reported_once_and_can_be_cleared(backend):
    r = tessera.SdkRuntime(RUNTIME_DATA / "fault.tlayout", backend, quiet=True)
    r.load()
    r.run()
    with pytest.raises(tessera.Error, match=r"run\(\) was called already"):
        r.run()
    with pytest.raises(tessera.FaultError, match="misaligned 32-bit load at pc 0x0004"):
        r.launch("main")
    # The PE stays stopped: launching there says so instead of re-raising the old fault.
    with pytest.raises(ValueError, match=r"PE\(0,0\) has faulted and stays stopped .*clear_faults"):
        r.launch("main")
    cleared = r.clear_faults()
    assert len(cleared) == 1 and "at cycle 2" in cleared[0]
    assert r.debug_read(0, 0, 0xC020) == 0  # FaultStatus
    # The engine goes on at the instruction that faulted: here it faults again, a new fault.
    with pytest.raises(tessera.FaultError) as e:
        r.launch("main")
    assert e.value.result.start_cycle == 3 and "at cycle 3" in str(e.value)
    r.stop()
