"""The run.py examples (examples/python): each runs as a user runs it and must print SUCCESS and
exit 0; some also on cosim."""
import os
import subprocess
import sys

import pytest

from conftest import ROOT

EXAMPLES = ROOT / "examples" / "python"


def run_example(name, *args):
    env = dict(os.environ)
    return subprocess.run([sys.executable, str(EXAMPLES / name / "run.py"), *args], env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("name", ["01_loop", "02_dsd", "03_send", "04_broadcast", "cg", "mlp"])
def test_example_on_func(name):
    p = run_example(name)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.rstrip().endswith("SUCCESS")


@pytest.mark.parametrize("name, args", [
    ("01_loop", []), ("02_dsd", []), ("03_send", []), ("04_broadcast", []),
    ("cg", ["--nx", "2", "--ny", "2", "--nz", "16"]),
    ("mlp", ["--layers", "16,8,4", "--batch", "2", "--pes", "2", "--batches", "1"]),
])
def test_example_on_cosim(name, args):
    p = run_example(name, "--backend", "cosim", *args)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.rstrip().endswith("SUCCESS")


def test_link_trace_of_tutorial_3(tmp_path):
    trace = tmp_path / "send.csv"
    p = run_example("03_send", "--link-trace", str(trace))
    assert p.returncode == 0, p.stdout + p.stderr
    golden = ROOT / "tests" / "integration" / "runtime" / "golden" / "send_links.csv"
    assert trace.read_text().count("\n") == golden.read_text().count("\n")


def test_a_bad_argument_exits_non_zero():
    p = run_example("cg", "--nx", "0")
    assert p.returncode != 0
    assert "ValueError" in p.stderr or "Error" in p.stderr
