"""The SDK's host runtime (cerebras.sdk.runtime.sdkruntimepybind) over Tessera.

An SDK host program runs unchanged against the output folder of Tessera's `cslc`:

    runner = SdkRuntime("out")
    runner.load(); runner.run()
    runner.memcpy_h2d(runner.get_id("x"), x, 0, 0, w, h, n, streaming=False,
                      order=MemcpyOrder.ROW_MAJOR, data_type=MemcpyDataType.MEMCPY_32BIT,
                      nonblock=False)
    runner.launch("compute", nonblock=False)
    runner.stop()

Each command runs the fabric until it is settled: nothing can move until the host sends more
(docs/runtime.md). Coordinates are relative to the program's rectangle, as in the SDK.
Environment: TESSERA_BACKEND=func|rtl|cosim (default func), TESSERA_PROFILE=1 (a profile at
stop), TESSERA_TIMELINE=FILE (a Chrome/Perfetto timeline), TESSERA_TRACE_INSN=FILE (every
instruction, with the CSL line that generated it), TESSERA_MAX_CYCLES (per command, default
10,000,000), TESSERA_STATS=FILE (at stop, a JSON object: backend, cycles, PEs, the seconds from
SdkRuntime() to stop() and the simulated PE-cycles per second; bench/sdk_programs.sh). Output of <simprint> goes to sim.log in the current folder, one `@CYCLE text`
line per line printed. See docs/csl.md.
"""
import enum
import json
import os
import time

import numpy as np
import tessera

_BACKENDS = ("func", "rtl", "cosim")


class MemcpyDataType(enum.Enum):
    """Element size of a copy: 32-bit, or 16-bit values in the low half of each 32-bit word."""
    MEMCPY_32BIT = 0
    MEMCPY_16BIT = 1


class MemcpyOrder(enum.Enum):
    """Host array order: ROW_MAJOR is [h][w][l] (l fastest), COL_MAJOR is h fastest."""
    ROW_MAJOR = 0
    COL_MAJOR = 1


class Task:
    """What a command issued with nonblock=True returns; Tessera runs it before returning."""

    def __init__(self, what):
        self.what = what
        self.done = True

    def __repr__(self):
        return f"<Task {self.what} done>"


class SdkError(RuntimeError):
    """A host program asked for something the compiled program cannot do."""


def _env_backend():
    b = os.environ.get("TESSERA_BACKEND", "func")
    if b not in _BACKENDS:
        raise ValueError(f"TESSERA_BACKEND={b!r}: expected one of {', '.join(_BACKENDS)}")
    return b


class SdkRuntime:
    """A session on Tessera for the program compiled into `bindir` by cslc."""

    def __init__(self, bindir, cmaddr=None, suppress_simfab_trace=False, simfab_numthreads=None,
                 msg_level=None, **kwargs):
        if kwargs:
            raise TypeError(f"SdkRuntime: unknown keyword argument(s): {', '.join(kwargs)}")
        if cmaddr:
            raise SdkError(f"SdkRuntime(cmaddr={cmaddr!r}): Tessera runs the program on its own "
                           "emulated fabric; there is no CS system to connect to")
        meta_path = os.path.join(os.fspath(bindir), "out.json")
        try:
            with open(meta_path, encoding="utf-8") as f:
                meta = json.load(f)
        except FileNotFoundError:
            raise SdkError(f"SdkRuntime({bindir!r}): {meta_path} does not exist; compile the "
                           "program with cslc -o " + os.fspath(bindir)) from None
        if "tessera" not in meta:
            raise SdkError(f"{meta_path} was not written by Tessera's cslc")
        self._meta = meta["tessera"]
        self._bindir = os.fspath(bindir)
        self._ox, self._oy = self._meta["offset"]
        self._w, self._h = self._meta["rect"]
        self._backend = _env_backend()
        self._max_cycles = int(os.environ.get("TESSERA_MAX_CYCLES", "10000000"))
        kw = {}
        if os.environ.get("TESSERA_PROFILE", "") not in ("", "0"):
            kw["profile"] = True
        for env, arg in (("TESSERA_TIMELINE", "timeline"), ("TESSERA_TRACE_INSN", "trace_insn")):
            if os.environ.get(env):
                kw[arg] = os.environ[env]
        image = os.path.join(self._bindir, self._meta["image"])
        self._t0 = time.perf_counter()  # for TESSERA_STATS: building the model counts
        self._rt = tessera.SdkRuntime(image, self._backend, quiet=True, progress=False,
                                      settle=True, max_cycles=self._max_cycles, **kw)
        # The exported data and functions; the PEs of each program.
        self._ids = []
        for e in self._meta["exports"]:
            self._ids.append(e["name"])
        self._pes = {}        # function name -> [(x, y)] kernel PEs whose program has it
        self._unblocks = {}   # kernel PE -> unblock_cmd_stream() calls expected
        for p in self._meta["programs"]:
            for fn in p["functions"]:
                self._pes.setdefault(fn, []).extend(tuple(pe) for pe in p["pes"])
        self._counter = {}    # kernel PE -> the unblock counter's address
        self._pending = None  # the launch whose unblock the next command waits for
        self._log_written = 0
        self._loaded = False
        self._d2h = {}  # (fabric row, color) -> words that have left through the east edge

    @property
    def tessera(self):
        """Tessera's own session under this one (tessera.SdkRuntime): its last_result, cycle,
        counters and debug records (an extension; SDK programs do not use it)."""
        return self._rt

    # The SDK's session.
    def load(self):
        """Writes the program into every PE."""
        self._rt.load()
        self._loaded = True
        for p in self._meta["programs"]:
            if p["launch_task"] < 0 and not p["functions"]:
                continue
            # The counter's address differs between programs (and so between PEs).
            info = self._rt.get_id(p["unblock_counter"])
            address = dict(zip((tuple(pe) for pe in info["pes"]), info["addresses"]))
            for kx, ky in p["pes"]:
                self._counter[(kx, ky)] = address[(self._ox + kx, self._oy + ky)]

    def run(self):
        """Starts the program: tasks active at load run until the fabric settles."""
        self._rt.run()
        if self._meta.get("d2h_colors", []):
            self._collect()  # opens the east edge ports of the kernel's rows
        self._rt.run_until_quiescent(self._max_cycles)
        self._flush_log()

    def stop(self):
        """Ends the session (and writes the profile, timeline and traces asked for)."""
        self._wait_unblock("stop")
        self._save_traces()
        cycles = int(self._rt.cycle)  # the session's cycles (stop() ends the session)
        self._rt.stop()
        self._flush_log()
        self._write_stats(cycles)

    def _write_stats(self, cycles):
        """TESSERA_STATS=FILE: what this session simulated and how fast (wall seconds from the
        constructor to stop(), so the model's construction and every host command count)."""
        path = os.environ.get("TESSERA_STATS", "")
        if not path:
            return
        seconds = time.perf_counter() - self._t0
        fw, fh = self._rt.fabric
        stats = {"backend": self._backend, "cycles": cycles, "pes": fw * fh,
                 "fabric": [fw, fh], "seconds": round(seconds, 4),
                 "pe_cycles_per_second": round(cycles * fw * fh / seconds) if seconds > 0 else 0}
        with open(path, "w") as f:
            json.dump(stats, f)
            f.write("\n")

    def _save_traces(self):
        """Saves every PE's <debug> buffers to debug_traces.json in the output folder, where
        cerebras.sdk.debug.debug_util reads them (host/csl/lib/debug.csl has the format)."""
        progs = [p for p in self._meta["programs"] if p.get("debug")]
        if not progs or not self._loaded:
            return
        saved = {"strings": self._meta.get("debug_strings", []), "traces": []}
        for p in progs:
            for d in p["debug"]:
                info = self._rt.get_id(d["symbol"])
                address = dict(zip((tuple(pe) for pe in info["pes"]), info["addresses"]))
                for kx, ky in p["pes"]:
                    x, y = self._ox + kx, self._oy + ky
                    base = address[(x, y)]
                    head = self._rt.debug_read(x, y, base)
                    n = min(head & 0x7FFFFFFF, d["words"] - 1)
                    words = [self._rt.debug_read(x, y, base + 4 * (1 + i)) for i in range(n)]
                    saved["traces"].append({"x": x, "y": y, "key": d["key"],
                                            "dropped": bool(head >> 31), "words": words})
        with open(os.path.join(self._bindir, "debug_traces.json"), "w") as f:
            json.dump(saved, f)

    def get_id(self, name):
        """The ID of an exported symbol or function, for memcpy and launch."""
        if name not in self._ids:
            raise SdkError(f"get_id({name!r}): the program exports no such name (exported: "
                           f"{', '.join(self._ids) or 'nothing'}; see @export_name in the layout)")
        return self._ids.index(name)

    # Copies.
    def memcpy_h2d_rowbcast(self, dest, src, px, py, w, h, elem_per_pe, streaming=False,
                            data_type=MemcpyDataType.MEMCPY_32BIT,
                            order=MemcpyOrder.ROW_MAJOR, nonblock=False):
        """memcpy_h2d of one column of data, [h][1][l], that every column of (px, py, w, h)
        receives: h * elem_per_pe elements (COL_MAJOR: h fastest)."""
        return self._bcast_h2d("memcpy_h2d_rowbcast", dest, src, px, py, w, h, elem_per_pe,
                               streaming, data_type, order, nonblock, rows=True)

    def memcpy_h2d_colbcast(self, dest, src, px, py, w, h, elem_per_pe, streaming=False,
                            data_type=MemcpyDataType.MEMCPY_32BIT,
                            order=MemcpyOrder.ROW_MAJOR, nonblock=False):
        """memcpy_h2d of one row of data, [1][w][l], that every row of (px, py, w, h) receives:
        w * elem_per_pe elements (COL_MAJOR: w fastest)."""
        return self._bcast_h2d("memcpy_h2d_colbcast", dest, src, px, py, w, h, elem_per_pe,
                               streaming, data_type, order, nonblock, rows=False)

    def _bcast_h2d(self, call, dest, src, px, py, w, h, elem_per_pe, streaming, data_type, order,
                   nonblock, rows):
        """A broadcast H2D is the plain one of the data repeated along the other axis."""
        n = (h if rows else w) * elem_per_pe
        flat = np.asarray(src).reshape(-1)
        if flat.size != n:
            raise SdkError(f"{call}({dest}, ...): the data has {flat.size} elements; "
                           f"{'h' if rows else 'w'} * elem_per_pe is {n}")
        k = h if rows else w
        if order == MemcpyOrder.COL_MAJOR:  # [l][k] in memory, k fastest
            per = flat.reshape(elem_per_pe, k).T
        else:
            per = flat.reshape(k, elem_per_pe)
        full = np.broadcast_to(per[:, None, :] if rows else per[None, :, :],
                               (h, w, elem_per_pe))  # [h][w][l]
        return self.memcpy_h2d(dest, np.ascontiguousarray(full).reshape(-1), px, py, w, h,
                               elem_per_pe, streaming=streaming, data_type=data_type,
                               order=MemcpyOrder.ROW_MAJOR, nonblock=nonblock)

    def memcpy_h2d(self, dest, src, px, py, w, h, elem_per_pe, streaming=False,
                   data_type=MemcpyDataType.MEMCPY_32BIT, order=MemcpyOrder.ROW_MAJOR,
                   nonblock=False):
        """Copies `src` to the exported array `dest` of the PEs (px, py, w, h)."""
        self._wait_unblock("memcpy_h2d")
        if streaming:
            self._stream_h2d(dest, src, px, py, w, h, elem_per_pe, order)
            return Task(f"memcpy_h2d stream {dest}") if nonblock else None
        name, symbol, dtype = self._copy_symbol("memcpy_h2d", dest, px, py, w, h, data_type)
        words = self._host_array("memcpy_h2d", src, w * h * elem_per_pe).view(np.uint32)
        # The SDK moves 32-bit words: the bits of a 4-byte host array, or in 16-bit mode the low
        # half of each word.
        if dtype.itemsize == 2:
            data = (words & np.uint32(0xFFFF)).astype(np.uint16).view(dtype)
        else:
            data = words.view(dtype)
        self._rt.memcpy_h2d(symbol, data, self._ox + px, self._oy + py, w, h, elem_per_pe,
                            streaming=False, order=_order(order), data_type=_dtype(data_type))
        return Task(f"memcpy_h2d {name}") if nonblock else None

    def memcpy_d2h(self, dest, src, px, py, w, h, elem_per_pe, streaming=False,
                   data_type=MemcpyDataType.MEMCPY_32BIT, order=MemcpyOrder.ROW_MAJOR,
                   nonblock=False):
        """Copies the exported array `src` of the PEs (px, py, w, h) into the numpy array `dest`."""
        self._wait_unblock("memcpy_d2h")
        if streaming:
            self._stream_d2h(dest, src, px, py, w, h, elem_per_pe, order)
            return Task(f"memcpy_d2h stream {src}") if nonblock else None
        name, symbol, dtype = self._copy_symbol("memcpy_d2h", src, px, py, w, h, data_type)
        words = self._dest_words("memcpy_d2h", dest, w * h * elem_per_pe)
        tmp = np.empty(words.size, dtype=dtype)
        self._rt.memcpy_d2h(tmp, symbol, self._ox + px, self._oy + py, w, h, elem_per_pe,
                            streaming=False, order=_order(order), data_type=_dtype(data_type))
        # Into the caller's array, in place: the bits, or 16-bit values zero-extended.
        words[:] = tmp.view(np.uint16).astype(np.uint32) if dtype.itemsize == 2 else tmp.view(np.uint32)
        return Task(f"memcpy_d2h {name}") if nonblock else None

    def _copy_symbol(self, call, ident, px, py, w, h, data_type):
        """The exported name, its symbol on the region's PEs and its element type; the copy's
        width must be the symbol's."""
        name = self._name(ident, call)
        self._check_region(call, px, py, w, h)
        symbol = self._symbol(name, px, py)
        dtype = np.dtype(self._rt.get_id(symbol)["dtype"])
        _dtype(data_type)  # checks the type of data_type
        if (dtype.itemsize == 2) != (data_type == MemcpyDataType.MEMCPY_16BIT):
            raise SdkError(f"{call} '{name}': the symbol holds {dtype}; use "
                           f"{'MEMCPY_16BIT' if dtype.itemsize == 2 else 'MEMCPY_32BIT'}")
        return name, symbol, dtype

    # Launch.
    def call(self, name, args, nonblock=False):
        """The SDK's older spelling of launch(): the arguments as one list."""
        if isinstance(args, (str, bytes)) or not hasattr(args, "__iter__"):
            raise SdkError(f"call({name!r}, args): args is a list of the function's arguments "
                           f"(found {type(args).__name__}); launch({name!r}, *args) takes them "
                           "one by one")
        return self.launch(name, *list(args), nonblock=nonblock)

    def launch(self, name, *args, nonblock=False):
        """Runs the exported function `name` on every PE whose program has it, with `args` for
        its parameters (numbers or bools, converted to the parameter types)."""
        self._wait_unblock("launch")
        funcs = self._meta["functions"]
        if name not in funcs:
            raise SdkError(f"launch({name!r}): the program exports no function of that name "
                           f"(exported: {', '.join(funcs) or 'none'})")
        # The arguments go into the function's frame on each PE (docs/csl.md, "Launch").
        for p in self._meta["programs"]:
            if name not in p["functions"]:
                continue
            spec = p.get("params", {}).get(name, {"frame": None, "types": []})
            types = spec["types"]
            if len(args) != len(types):
                raise SdkError(f"launch({name!r}): it takes {len(types)} argument(s) "
                               f"({', '.join(types) or 'none'}), got {len(args)}")
            if not types:
                continue
            words = [_arg_word(name, i, t, a) for i, (t, a) in enumerate(zip(types, args))]
            # The frame's address is each PE's own: programs with different layouts differ.
            info = self._rt.get_id(spec["frame"])
            frame = dict(zip((tuple(pe) for pe in info["pes"]), info["addresses"]))
            for (x, y) in p["pes"]:
                at = frame[(self._ox + x, self._oy + y)]
                for i, w in enumerate(words):
                    self._rt.debug_write(self._ox + x, self._oy + y, at + 4 * i, w)
        for p in self._meta["programs"]:
            if name in p["functions"]:
                for pe in p["pes"]:
                    pe = tuple(pe)
                    self._unblocks[pe] = self._unblocks.get(pe, 0) + 1
        # Every program's launch task dispatches on the function's index (its TaskArg).
        self._rt.launch("__launch", funcs[name])
        self._flush_log()
        self._pending = name
        return Task(f"launch {name}") if nonblock else None

    # Streams (docs/csl.md, "Streaming"): wavelets through the fabric's edge ports.
    def _stream_h2d(self, color, src, px, py, w, h, l, order):
        call = "memcpy_h2d(streaming=True)"
        color = self._stream_color(call, color, self._meta.get("h2d_colors", []), "MEMCPYH2D")
        self._check_region(call, px, py, w, h)
        words = self._host_array(call, src, w * h * l).view(np.uint32)
        per_pe = _per_pe(words, w, h, l, order)
        if w > 1 and h > 1:
            raise SdkError(f"{call}: Tessera streams to a row or a column of PEs, not a {w}x{h} "
                           "region; split the call")
        fw, fh = self._meta["fabric"]
        saved = []  # (x, y, address, value): the routes to restore afterwards
        addr = 0xC100 + 4 * color  # ColorCfg[color] (docs/isa.md 3.2)

        def route(x, y, rx, tx):
            saved.append((x, y, addr, self._rt.debug_read(x, y, addr)))
            self._rt.debug_write(x, y, addr, (_mask(rx) << 5) | _mask(tx))

        for r in range(h):
            for c in range(w):
                kx, ky = px + c, py + r
                fx, fy = self._ox + kx, self._oy + ky
                if w > 1:  # a row: each PE from the north edge down its column
                    for y in range(0, fy):
                        route(fx, y, "N", "S")
                    route(fx, fy, "N", "RAMP")
                    self._rt.stream_in(fx, 0, "N", color, per_pe[r][c])
                else:  # a column or one PE: each PE from the west edge along its row
                    for x in range(0, fx):
                        route(x, fy, "W", "E")
                    route(fx, fy, "W", "RAMP")
                    self._rt.stream_in(0, fy, "W", color, per_pe[r][c])
        self._rt.run_until_quiescent(self._max_cycles)
        for (x, y, a, v) in reversed(saved):
            self._rt.debug_write(x, y, a, v)
        self._collect()
        self._flush_log()

    def _stream_d2h(self, dest, color, px, py, w, h, l, order):
        call = "memcpy_d2h(streaming=True)"
        color = self._stream_color(call, color, self._meta.get("d2h_colors", []), "MEMCPYD2H")
        self._check_region(call, px, py, w, h)
        if w > 1:
            raise SdkError(f"{call}: Tessera takes streams from one PE per row (w = 1), not "
                           f"w = {w}; the row's PEs share the path to the east edge")
        out = self._dest_words(call, dest, h * l)
        self._collect()
        for r in range(h):
            fy = self._oy + py + r
            buf = self._d2h.setdefault((fy, color), [])
            if len(buf) < l:
                raise SdkError(
                    f"{call}: PE({px},{py + r}) has sent {len(buf)} of the {l} wavelets on "
                    f"color {color} and the fabric has settled; the SDK would wait forever")
            got, self._d2h[(fy, color)] = buf[:l], buf[l:]
            for i, v in enumerate(got):
                out[_host_index(r, 0, i, w, h, l, order)] = v
        self._flush_log()

    def _stream_color(self, call, color, colors, what):
        if not isinstance(color, (int, np.integer)) or int(color) not in colors:
            raise SdkError(f"{call}: {color!r} is not one of the program's {what} stream colors "
                           f"({', '.join(map(str, colors)) or 'none'}; see <memcpy/get_params>)")
        return int(color)

    def _collect(self):
        """Takes what has left through the east edge ports into per-row, per-color buffers."""
        fw, fh = self._meta["fabric"]
        for r in range(self._h):
            fy = self._oy + r
            for wv in self._rt.stream_out(fw - 1, fy, "E"):
                self._d2h.setdefault((fy, int(wv["color"])), []).append(int(wv["data"]))

    def task_wait(self, task):
        """Waits for a command issued with nonblock=True (Tessera ran it already)."""
        return None

    def is_task_done(self, task):
        return True

    # Helpers.
    def _wait_unblock(self, call):
        """The SDK's command stream waits for unblock_cmd_stream() after a launch."""
        if self._pending is None:
            return
        name, self._pending = self._pending, None
        for pe, want in sorted(self._unblocks.items()):
            got = self._rt.debug_read(self._ox + pe[0], self._oy + pe[1], self._counter[pe])
            if got < want:
                raise SdkError(
                    f"{call} after launch({name!r}): PE{pe} (kernel coordinates) has settled "
                    f"without calling sys_mod.unblock_cmd_stream() ({got} of {want} calls); the "
                    "SDK would wait for it forever")

    def _name(self, ident, call):
        if isinstance(ident, str):
            if ident not in self._ids:
                raise SdkError(f"{call}: '{ident}' is not exported")
            return ident
        if isinstance(ident, (int, np.integer)) and 0 <= int(ident) < len(self._ids):
            return self._ids[int(ident)]
        raise SdkError(f"{call}: {ident!r} is not an ID from get_id()")

    def _symbol(self, name, px, py):
        for p in self._meta["programs"]:
            if [px, py] in p["pes"]:
                for d in p["data"]:
                    if d["name"] == name:
                        return d["symbol"]
        raise SdkError(f"'{name}' is not exported as data by the program of PE({px},{py})")

    def _check_region(self, call, px, py, w, h):
        if w < 1 or h < 1 or px < 0 or py < 0 or px + w > self._w or py + h > self._h:
            raise SdkError(f"{call}: the region ({px}, {py}, {w}, {h}) is not inside the "
                           f"program's {self._w}x{self._h} rectangle")

    @staticmethod
    def _host_array(call, a, n):
        """The host array's n 4-byte elements, flat (16-bit values go in the low half of each)."""
        a = np.asarray(a)
        if a.size != n:
            raise ValueError(f"{call}: the host array has {a.size} elements; the region needs {n}")
        if a.dtype.itemsize != 4:
            raise ValueError(f"{call}: the host array must have 4-byte elements (16-bit values "
                             f"go in the low half of each), not {a.dtype}")
        return np.ascontiguousarray(a.reshape(-1))

    @classmethod
    def _dest_words(cls, call, dest, n):
        """The caller's numpy array as n 32-bit words to fill in place."""
        if not isinstance(dest, np.ndarray):
            raise TypeError(f"{call}: dest must be a numpy array, not {type(dest).__name__}")
        cls._host_array(call, dest, n)
        if not dest.flags.c_contiguous:
            raise ValueError(f"{call}: dest must be contiguous (it is filled in place)")
        return dest.reshape(-1).view(np.uint32)

    def _flush_log(self):
        recs = self._rt.debug_records
        new = recs[self._log_written:]
        if not new and self._log_written:
            return
        mode = "a" if self._log_written else "w"
        with open("sim.log", mode, encoding="utf-8") as f:
            for (cycle, x, y, value, text) in new:
                # The record reads "@CYCLE PE(X,Y): TEXT" in fabric coordinates; sim.log keeps
                # the SDK's "@CYCLE TEXT" (the program prints its own coordinates).
                prefix = f"@{cycle} PE({x},{y}): "
                if text.startswith(prefix):
                    text = text[len(prefix):]
                f.write(f"@{cycle} {text}\n")
        self._log_written = len(recs)


def _arg_word(fn, i, t, a):
    """Argument i of a launch as the 32-bit word its parameter of type t holds."""
    where = f"launch({fn!r}) argument {i}"
    if t == "bool":
        if not isinstance(a, (bool, np.bool_)):
            raise TypeError(f"{where}: expected a bool, not {a!r}")
        return int(bool(a))
    if t in ("f32", "f16"):
        if not isinstance(a, (int, float, np.number)) or isinstance(a, bool):
            raise TypeError(f"{where}: expected a number for {t}, not {a!r}")
        ft = np.float32 if t == "f32" else np.float16
        return int(np.array([a], dtype=ft).view(np.uint32 if t == "f32" else np.uint16)[0])
    if t[0] in "iu" and t[1:].isdigit():
        if not isinstance(a, (int, np.integer)) or isinstance(a, bool):
            raise TypeError(f"{where}: expected an integer for {t}, not {a!r}")
        bits, signed = int(t[1:]), t[0] == "i"
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        if not lo <= int(a) <= hi:
            raise ValueError(f"{where}: {a} does not fit in {t} ({lo}..{hi})")
        return int(a) & 0xFFFFFFFF
    raise TypeError(f"{where}: a parameter of type {t} cannot be passed by the host")


def _mask(dirs):
    """A direction mask of ColorCfg (bit order W E S N RAMP)."""
    bits = {"W": 0, "E": 1, "S": 2, "N": 3, "RAMP": 4}
    return 1 << bits[dirs]


def _host_index(r, c, i, w, h, l, order):
    """Where element i of PE (c, r) of a w x h region sits in the host array."""
    if order == MemcpyOrder.ROW_MAJOR:
        return (r * w + c) * l + i
    return r + h * (c + w * i)


def _per_pe(words, w, h, l, order):
    """The host array split per PE: [row][column] -> the PE's l words."""
    if order == MemcpyOrder.ROW_MAJOR:
        a = words.reshape(h, w, l)
        return [[np.ascontiguousarray(a[r, c, :]) for c in range(w)] for r in range(h)]
    a = words.reshape(l, w, h)
    return [[np.ascontiguousarray(a[:, c, r]) for c in range(w)] for r in range(h)]


def _order(o):
    if not isinstance(o, MemcpyOrder):
        raise TypeError(f"order must be MemcpyOrder.ROW_MAJOR or COL_MAJOR, not {o!r}")
    return tessera.MemcpyOrder.ROW_MAJOR if o == MemcpyOrder.ROW_MAJOR else tessera.MemcpyOrder.COL_MAJOR


def _dtype(t):
    if not isinstance(t, MemcpyDataType):
        raise TypeError(f"data_type must be MemcpyDataType.MEMCPY_32BIT or MEMCPY_16BIT, not {t!r}")
    return (tessera.MemcpyDataType.MEMCPY_32BIT if t == MemcpyDataType.MEMCPY_32BIT
            else tessera.MemcpyDataType.MEMCPY_16BIT)
