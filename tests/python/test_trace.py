"""Seeing inside a run from Python: the instruction trace, the timeline (validated against the
Trace Event format's rules), heatmaps and counters, the same on every backend."""
import gzip
import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import tessera
from conftest import RUNTIME_DATA, TUTORIAL

SEND = TUTORIAL / "03_send"


def check_trace_events(doc):
    """The rules Perfetto and chrome://tracing rely on: known phases, numeric timestamps that never
    go back on a track, B/E pairs that match, complete events with a duration, flows in pairs."""
    events = doc["traceEvents"]
    assert events, "no events"
    last_ts, depth, flows = {}, {}, {}
    for k, e in enumerate(events):
        ph = e["ph"]
        assert ph in ("M", "B", "E", "X", "i", "s", "f"), f"event {k}: phase {ph}"
        if ph == "M":
            assert e["name"] in ("process_name", "thread_name", "thread_sort_index")
            continue
        track = (e["pid"], e["tid"])
        assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0
        assert e["ts"] >= last_ts.get(track, 0), f"event {k}: time goes back on track {track}"
        last_ts[track] = e["ts"]
        if ph == "B":
            depth[track] = depth.get(track, 0) + 1
        elif ph == "E":
            assert depth.get(track, 0) > 0, f"event {k}: E without B on track {track}"
            depth[track] -= 1
        elif ph == "X":
            assert e["dur"] > 0
        elif ph in "sf":
            flows.setdefault(e["id"], []).append(ph)
    assert all(d == 0 for d in depth.values()), "unclosed spans"
    assert all(sorted(v) == ["f", "s"] for v in flows.values()), "unpaired flows"
    return events


def names_by_tid(events):
    return {e["tid"]: e["args"]["name"] for e in events
            if e["ph"] == "M" and e["name"] == "thread_name"}


UT_CLASSES = ("ut_ready", "ut_fabin", "ut_fabout", "ut_port", "ut_fmac", "ut_turn", "ut_drain",
              "ut_fifo")
STALLS = ("stall_ut", "stall_sync", "stall_send", "stall_ut_wait", "stall_port", "stall_fmac")


def check_counter_sums(c):
    """What the counters partition: a PE's cycles into task and idle cycles; its issue and stall
    cycles lie within its task cycles; its busy microthread-cycles into the wait classes (at
    least one and at most eight microthreads in each busy cycle)."""
    for p in c["pes"]:
        assert p["task_cycles"] + p["idle_cycles"] == c["cycles"]
        assert p["insns"] + sum(p[k] for k in STALLS) <= p["task_cycles"]
        ut = sum(p[k] for k in UT_CLASSES)
        assert p["ut_busy"] <= ut <= 8 * p["ut_busy"]
    for k in ("insns", "task_cycles", "ut_busy", "fmac_busy", "dsd_elems") + STALLS + UT_CLASSES:
        assert c["totals"][k] == sum(p[k] for p in c["pes"])
    # The FMAC takes one operation per cycle; the tasks' cycles partition the task cycles; back
    # pressure per output is its colors' sum.
    for p in c["pes"]:
        assert p["fmac_busy"] <= c["cycles"]
        assert p["fmac_utilization"] == pytest.approx(p["fmac_busy"] / c["cycles"])
        assert sum(p["task_cycles_by_task"].values()) == p["task_cycles"]
        for out, n in p["back_pressure"].items():
            assert n == sum(p["back_pressure_colors"].get(out, {}).values())
        for out, n in p["link_out"].items():
            assert n == sum(p["link_out_colors"].get(out, {}).values())
    for out in ("W", "E", "S", "N", "RAMP"):
        assert c["totals"]["back_pressure"][out] == sum(p["back_pressure"][out] for p in c["pes"])


def check_timeline_against_counters(events, c):
    """The timeline's microthread spans, wait slices and stall slices add up to the counters:
    per PE, span cycles to the busy microthread-cycles, wait slices to each ut_* class but
    ut_ready, stall slices to each stall class."""
    names = names_by_tid(events)
    for p in c["pes"]:
        pe = f"PE({p['x']},{p['y']})"
        mine = [e for e in events if e["ph"] == "X" and names.get(e["tid"], "").startswith(pe + " ")]
        spans = sum(e["dur"] for e in mine if e["cat"] == "microthread")
        assert spans == sum(p[k] for k in UT_CLASSES), pe
        for k in UT_CLASSES[1:]:
            got = sum(e["dur"] for e in mine if e["cat"] == "wait" and e["name"].split()[0] == k)
            assert got == p[k], f"{pe} {k}"
        for k in STALLS:
            assert sum(e["dur"] for e in mine if e["cat"] == "stall" and e["name"] == k) == p[k]


def run_send(backend, tmp_path, **kw):
    r = tessera.SdkRuntime(tessera.link(SEND / "send.tlayout"), backend, quiet=True, **kw)
    r.load()
    r.run()
    r.memcpy_h2d("x", np.load(SEND / "x.npy"), 0, 0, 1, 1, 32)
    r.launch("main")
    r.stop()
    return r


def test_traces_timeline_and_counters_agree_on_every_backend(tmp_path):
    seen = {}
    for backend in ("func", "rtl", "cosim"):
        d = tmp_path / backend
        d.mkdir()
        r = run_send(backend, tmp_path, trace_insn=d / "insn.csv", timeline=d / "t.json",
                     heatmap=d / "maps", profile=True)
        events = check_trace_events(json.loads((d / "t.json").read_text()))
        spans = [e["name"] for e in events if e["ph"] == "B"]
        assert spans == ["task 0 (main)", "task 1 (sent)", "task 0 (main)", "task 1 (got)"]
        names = {e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
        assert {"PE(0,0)", "PE(1,0)"} <= names
        assert sum(e["ph"] == "s" for e in events) == 32  # one hop east per wavelet
        for svg in ("instructions", "ce_sent", "ce_received", "link_load"):
            root = ET.parse(d / "maps" / f"{svg}.svg").getroot()
            assert root.tag.endswith("svg")
        c = r.counters
        assert c["version"] == 4 and c["cycles"] == 420
        assert c["totals"]["instructions"] == c["totals"]["insns"] == 177
        assert [p["instructions"] for p in c["pes"]] == [p["insns"] for p in c["pes"]] == [7, 170]
        assert c["pes"][0]["link_out"]["E"] == 32 and c["pes"][1]["ce_received"] == 32
        assert c["pes"][0]["link_out_colors"] == {"E": {"3": 32}}
        check_counter_sums(c)
        check_timeline_against_counters(events, c)
        uts = sorted((names_by_tid(events)[e["tid"]], e["name"].split()[0]) for e in events
                     if e.get("cat") == "microthread")
        assert uts == [("PE(0,0) ut0", "mov32"), ("PE(1,0) ut0", "mov32")]
        # PE(1,0) adds the 32 wavelets with fadd.s, one FMAC operation each
        assert [p["fmac_busy"] for p in c["pes"]] == [0, 32]
        # main (4 cycles) on both, then sent (3) and got (357, it waits for the wavelets)
        assert [p["task_cycles_by_task"] for p in c["pes"]] == [{"0": 4, "1": 3},
                                                               {"0": 4, "1": 357}]
        seen[backend] = ((d / "insn.csv").read_text(), (d / "t.json").read_text(), c)
    assert seen["func"] == seen["rtl"] == seen["cosim"]


def test_scope_limits_every_trace(tmp_path):
    run_send("func", tmp_path, trace_insn=tmp_path / "i.jsonl", timeline=tmp_path / "t.json.gz",
             link_trace=tmp_path / "l.csv", trace_region=(1, 0, 1, 0), trace_window=(20, 70))
    rows = [json.loads(line) for line in (tmp_path / "i.jsonl").read_text().splitlines()]
    assert rows and all(r["x"] == 1 and 20 <= r["cycle"] < 70 for r in rows)
    assert rows[0] == {"cycle": 62, "x": 1, "y": 0, "task": 1, "pc": None, "line": None,
                       "event": "task", "insn": "task 1 start", "writes": {"r0": "0x00000000"}}
    links = (tmp_path / "l.csv").read_text().splitlines()[1:]
    assert len(links) == 32 and all(l.split(",")[1] == "1" for l in links)
    with gzip.open(tmp_path / "t.json.gz", "rt") as f:
        events = check_trace_events(json.load(f))
    tracks = {names_by_tid(events)[e["tid"]] for e in events if e["ph"] != "M"}
    assert tracks == {"PE(1,0)", "PE(1,0) ut0"}  # PE(1,0) alone
    assert all(20 <= e["ts"] <= 70 for e in events if e["ph"] != "M")


def test_a_fault_still_leaves_the_traces(tmp_path):
    r = tessera.SdkRuntime(tessera.link(RUNTIME_DATA / "fault.tlayout"), quiet=True,
                           trace_insn=tmp_path / "i.csv", timeline=tmp_path / "t.json")
    r.load()
    r.run()
    with pytest.raises(tessera.FaultError):
        r.launch("main")
    r.stop()
    assert (tmp_path / "i.csv").read_text().count("\n") == 3
    events = check_trace_events(json.loads((tmp_path / "t.json").read_text()))
    faults = [e for e in events if e["ph"] == "i" and e["name"] == "fault"]
    assert len(faults) == 1 and "misaligned" in faults[0]["args"]["fault"]


@pytest.mark.parametrize("backend", ["func", "cosim"])
def test_a_bank_conflict_shows_on_its_pe(backend):
    # conflict.s: fmacs with both sources in one bank pair, on PE(1,0); PE(0,0) has no program.
    r = tessera.SdkRuntime(tessera.link(RUNTIME_DATA / "conflict.tlayout"), backend, quiet=True,
                           profile=True)
    r.load()
    r.run()
    r.launch("main")
    r.stop()
    c = r.counters
    check_counter_sums(c)
    idle, pe = c["pes"]
    assert pe["split_steps"] == 64  # every step of the 64 reads its second source a cycle later
    assert pe["dsd_elems"] == pe["fmac_busy"] == 64  # one FMAC operation per element
    assert idle["ut_busy"] == idle["task_cycles"] == idle["insns"] == idle["split_steps"] == 0
    # Tutorial 2, the same operation with x 4 bytes further: no split step.
    r = tessera.SdkRuntime(tessera.link(TUTORIAL / "02_dsd" / "axpy.tlayout"), backend,
                           quiet=True, profile=True)
    r.load()
    r.run()
    r.launch("main")
    r.stop()
    assert r.counters["pes"][0]["split_steps"] == 0


@pytest.mark.parametrize("backend", ["func", "cosim"])
def test_back_pressure_shows_on_the_sender(backend, tmp_path):
    # flood.s: PE(0,0) streams 200 wavelets to PE(1,0), whose CE never reads them; once the
    # queues on the way are full its microthread waits for credits until the cycle limit.
    r = tessera.SdkRuntime(tessera.link(RUNTIME_DATA / "flood.tlayout"), backend, quiet=True,
                           profile=True, max_cycles=400, timeline=tmp_path / "t.json")
    r.load()
    r.run()
    with pytest.raises(tessera.DeadlockError, match="PE\\(0,0\\)"):
        r.launch("main")
    r.stop()
    sender, receiver = r.counters["pes"]
    assert sender["ut_fabout"] > 300 and sender["ut_busy"] > 390
    assert receiver["ut_busy"] == receiver["task_cycles"] == 0
    assert receiver["ce_received"] < 200
    check_counter_sums(r.counters)
    # Back pressure on color 3 where it builds up: PE(1,0)'s ramp down to its full CE queue,
    # then PE(0,0)'s link east into PE(1,0)'s full input queue; nowhere else.
    held = {(p["x"], out, color): n for p in r.counters["pes"]
            for out, colors in p["back_pressure_colors"].items() for color, n in colors.items()}
    assert set(held) == {(1, "RAMP", "3"), (0, "E", "3")}
    assert 300 < held[(0, "E", "3")] < held[(1, "RAMP", "3")] < 400
    events = check_trace_events(json.loads((tmp_path / "t.json").read_text()))
    check_timeline_against_counters(events, r.counters)
    waits = [e for e in events if e.get("cat") == "wait" and e["name"] == "ut_fabout c3"]
    assert waits and sum(e["dur"] for e in waits) == sender["ut_fabout"]


@pytest.mark.parametrize("kwargs, match", [
    ({"trace_region": (1, 1, 0, 0)}, "trace_region '1,1:0,0': the first corner"),
    ({"trace_window": (9, 3)}, "trace_window '9:3': expected FROM:TO"),
    ({"trace_window": (1, 2, 3)}, r"trace_window: expected \(from, to\) cycles"),
    ({"trace_insn": "/nonexistent/dir/t.csv"}, "trace_insn /nonexistent/dir/t.csv: cannot write"),
    ({"timeline": "/nonexistent/dir/t.json"}, "timeline /nonexistent/dir/t.json: cannot write"),
])
def test_bad_trace_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        tessera.SdkRuntime(tessera.link(SEND / "send.tlayout"), **kwargs)
