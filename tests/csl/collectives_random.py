#!/usr/bin/env python3
"""Random programs of <collectives_2d>: a seed picks the rectangle, the words per PE and a chain
of operations (broadcast, scatter, gather, reduce_fadds, each with its own root) along every row
and, at the same time, every column. The program is written as CSL, compiled by cslc and run by
cs_python on one backend; every result is compared with numpy, bit for bit (sums in the
library's documented order), and a PE that is not a root must keep its gather and reduce
buffers at zero.

  collectives_random.py --seed S --bin BUILD/bin --work DIR [--backend func|rtl|cosim]
"""
import argparse
import json
import os
import random
import subprocess
import sys

KINDS = ("broadcast", "scatter", "gather", "reduce")


def plan(seed):
    rng = random.Random(seed)
    while True:
        w, h = rng.randint(1, 5), rng.randint(1, 4)
        if w * h > 1:
            break
    k = rng.randint(1, 3)
    dims = {}
    for dim, n, count in (("x", w, rng.randint(2, 6)), ("y", h, rng.randint(2, 5))):
        dims[dim] = [{"kind": rng.choice(KINDS), "root": rng.randrange(n)} for _ in range(count)]
    return {"seed": seed, "W": w, "H": h, "K": k, "dims": dims}


def layout_buffers(p):
    """Each operation's buffers: (name, words, from inp offset or None, to out offset)."""
    w, h, k = p["W"], p["H"], p["K"]
    bufs, inp, out = [], 0, 0
    for dim in ("x", "y"):
        n = w if dim == "x" else h
        for j, op in enumerate(p["dims"][dim]):
            sizes = {"broadcast": (k, None), "scatter": (n * k, k), "gather": (k, n * k),
                     "reduce": (k, k)}[op["kind"]]
            names = [f"{dim}{j}_a", f"{dim}{j}_b"]
            op["bufs"] = []
            # a: what the operation reads (and broadcast's result); b: what it writes
            bufs.append((names[0], sizes[0], inp, out))
            op["bufs"].append((names[0], sizes[0], inp, out))
            inp += sizes[0]
            out += sizes[0]
            if sizes[1] is not None:
                bufs.append((names[1], sizes[1], None, out))
                op["bufs"].append((names[1], sizes[1], None, out))
                out += sizes[1]
    return bufs, inp, out


def write_program(p, work):
    bufs, n_in, n_out = layout_buffers(p)
    p["n_in"], p["n_out"] = max(n_in, 1), max(n_out, 1)
    with open(os.path.join(work, "layout.csl"), "w") as f:
        f.write(f"""// collectives_random.py, seed {p['seed']}
const c2d = @import_module("<collectives_2d/params>");
const memcpy = @import_module("<memcpy/get_params>", .{{ .width = {p['W']}, .height = {p['H']} }});
layout {{
  @set_rectangle({p['W']}, {p['H']});
  for (@range(u16, {p['W']})) |x| {{
    for (@range(u16, {p['H']})) |y| {{
      @set_tile_code(x, y, "pe.csl", .{{
        .memcpy_params = memcpy.get_params(x),
        .c2d_params = c2d.get_params(x, y, .{{
          .x_colors = .{{ @get_color(0), @get_color(1) }},
          .x_entrypoints = .{{ @get_local_task_id(10), @get_local_task_id(11) }},
          .y_colors = .{{ @get_color(4), @get_color(5) }},
          .y_entrypoints = .{{ @get_local_task_id(12), @get_local_task_id(13) }},
        }}),
      }});
    }}
  }}
  @export_name("inp", [*]f32, true);
  @export_name("out", [*]f32, true);
  @export_name("run", fn()void);
}}
""")
    lines = ["param memcpy_params;", "param c2d_params;",
             'const sys_mod = @import_module("<memcpy/memcpy>", memcpy_params);',
             'const mpi_x = @import_module("<collectives_2d/pe>", .{ .dim_params = c2d_params.x });',
             'const mpi_y = @import_module("<collectives_2d/pe>", .{ .dim_params = c2d_params.y });',
             f"var inp = @zeros([{p['n_in']}]f32);", f"var out = @zeros([{p['n_out']}]f32);",
             "var ptr_inp: [*]f32 = &inp;", "var ptr_out: [*]f32 = &out;"]
    for name, words, _, _ in bufs:
        lines.append(f"var {name} = @zeros([{words}]f32);")
    lines += ["const x_next: local_task_id = @get_local_task_id(15);",
              "const y_next: local_task_id = @get_local_task_id(16);",
              "var x_step: u16 = 0;", "var y_step: u16 = 0;", "var chains: u16 = 0;",
              "fn done() void {", "  chains += 1;", "  if (chains == 2) {"]
    for name, words, _, o in bufs:
        lines.append(f"    for (@range(u16, {words})) |i| {{ out[{o} + i] = {name}[i]; }}")
    lines += ["    sys_mod.unblock_cmd_stream();", "  }", "}"]
    for dim in ("x", "y"):
        lines += [f"task {dim}_task() void {{", f"  {dim}_step += 1;",
                  f"  switch ({dim}_step) {{"]
        for j, op in enumerate(p["dims"][dim]):
            a, b = op["bufs"][0][0], op["bufs"][-1][0]
            r = op["root"]
            call = {
                "broadcast": f"mpi_{dim}.broadcast({r}, @ptrcast([*]u32, &{a}), K, {dim}_next)",
                "scatter": f"mpi_{dim}.scatter({r}, @ptrcast([*]u32, &{a}), "
                           f"@ptrcast([*]u32, &{b}), K, {dim}_next)",
                "gather": f"mpi_{dim}.gather({r}, @ptrcast([*]u32, &{a}), "
                          f"@ptrcast([*]u32, &{b}), K, {dim}_next)",
                "reduce": f"mpi_{dim}.reduce_fadds({r}, &{a}, &{b}, K, {dim}_next)",
            }[op["kind"]]
            lines.append(f"    {j + 1} => {call},")
        lines += ["    else => done(),", "  }", "}"]
    lines += [f"const K: u16 = {p['K']};", "fn run() void {"]
    for name, words, i, _ in bufs:
        if i is not None:
            lines.append(f"  for (@range(u16, {words})) |i| {{ {name}[i] = inp[{i} + i]; }}")
    lines += ["  mpi_x.init();", "  mpi_y.init();", "  @activate(x_next);", "  @activate(y_next);",
              "}", "comptime {", "  @bind_local_task(x_task, x_next);",
              "  @bind_local_task(y_task, y_next);", '  @export_symbol(ptr_inp, "inp");',
              '  @export_symbol(ptr_out, "out");', "  @export_symbol(run);", "}"]
    with open(os.path.join(work, "pe.csl"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(work, "plan.json"), "w") as f:
        json.dump(p, f, indent=1)


def reduce_line(vals, root):
    """The library's order: each PE adds its own vector to the partial sum from beyond it; the
    root adds its low side's sum, then its high side's."""
    n = len(vals)
    total = vals[root].copy()
    if root > 0:
        low = vals[0].copy()
        for i in range(1, root):
            low = vals[i] + low
        total = total + low
    if root < n - 1:
        high = vals[n - 1].copy()
        for i in range(n - 2, root, -1):
            high = vals[i] + high
        total = total + high
    return total


def run_and_check(name):
    """Runs under cs_python: loads, launches, reads back and compares."""
    import numpy as np
    from cerebras.sdk.runtime.sdkruntimepybind import SdkRuntime, MemcpyDataType, MemcpyOrder
    p = json.load(open(os.path.join(os.path.dirname(name) or ".", "plan.json")))
    w, h, k = p["W"], p["H"], p["K"]
    rng = np.random.default_rng(p["seed"])
    inp = rng.uniform(-8, 8, size=(h, w, p["n_in"])).astype(np.float32)
    ROW, B32 = MemcpyOrder.ROW_MAJOR, MemcpyDataType.MEMCPY_32BIT
    r = SdkRuntime(name)
    r.load()
    r.run()
    r.memcpy_h2d(r.get_id("inp"), inp.ravel(), 0, 0, w, h, p["n_in"], streaming=False,
                 order=ROW, data_type=B32, nonblock=False)
    r.launch("run", nonblock=False)
    out = np.zeros(h * w * p["n_out"], dtype=np.float32)
    r.memcpy_d2h(out, r.get_id("out"), 0, 0, w, h, p["n_out"], streaming=False, order=ROW,
                 data_type=B32, nonblock=False)
    r.stop()
    out = out.reshape(h, w, p["n_out"])
    bad = []

    def check(what, got, want):
        want = np.asarray(want, np.float32)
        if not np.array_equal(got.view(np.uint32), want.view(np.uint32)):
            bad.append(f"{what}: got {got}, want {want}")

    for dim in ("x", "y"):
        n = w if dim == "x" else h
        for line in range(h if dim == "x" else w):
            def at(i, off, words, src=None):
                y, x = (line, i) if dim == "x" else (i, line)
                return (src if src is not None else out)[y, x, off:off + words]
            for j, op in enumerate(p["dims"][dim]):
                (an, aw, ai, ao) = op["bufs"][0]
                bo, bw = (op["bufs"][1][3], op["bufs"][1][1]) if len(op["bufs"]) > 1 else (0, 0)
                r0 = op["root"]
                where = f"{dim} line {line}, operation {j} ({op['kind']} from/to {r0})"
                for i in range(n):
                    sent = at(i, ai, aw, inp)
                    if op["kind"] == "broadcast":
                        check(f"{where}, PE {i}", at(i, ao, aw), at(r0, ai, aw, inp))
                    elif op["kind"] == "scatter":
                        check(f"{where}, PE {i}", at(i, bo, bw),
                              at(r0, ai, aw, inp)[i * k:(i + 1) * k])
                    elif op["kind"] == "gather":
                        want = (np.concatenate([at(q, ai, aw, inp) for q in range(n)])
                                if i == r0 else np.zeros(bw))
                        check(f"{where}, PE {i}", at(i, bo, bw), want)
                    else:
                        want = (reduce_line([at(q, ai, aw, inp) for q in range(n)], r0)
                                if i == r0 else np.zeros(bw))
                        check(f"{where}, PE {i}", at(i, bo, bw), want)
                    if op["kind"] != "broadcast":
                        check(f"{where}, PE {i}'s send buffer", at(i, ao, aw), sent)
    for line in bad[:20]:
        print("MISMATCH", line)
    if bad:
        raise SystemExit(f"{len(bad)} checks failed (plan: {json.dumps(p['dims'])})")
    print(f"SUCCESS! seed {p['seed']}: {w}x{h} PEs, {k} words, "
          f"{len(p['dims']['x'])} row and {len(p['dims']['y'])} column operations")


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--seed", type=int)
    a.add_argument("--bin")
    a.add_argument("--work")
    a.add_argument("--backend", default="func")
    a.add_argument("--name", help="(under cs_python) the compiled program's folder")
    args = a.parse_args()
    if args.name:
        run_and_check(args.name)
        return
    if args.seed is None or not args.bin or not args.work:
        a.error("--seed, --bin and --work are needed")
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    p = plan(args.seed)
    write_program(p, work)
    env = dict(os.environ, TESSERA_BACKEND=args.backend)
    subprocess.run([os.path.join(args.bin, "cslc"), "layout.csl", "-o", "out", "--memcpy"],
                   cwd=work, check=True)
    # plan.json beside out/, where run_and_check looks for it
    res = subprocess.run([os.path.join(args.bin, "cs_python"), os.path.abspath(__file__),
                          "--name", "out"], cwd=work, env=env)
    sys.exit(res.returncode)


if __name__ == "__main__":
    main()
