"""Shared fixtures of the Python module's tests (run by ctest: tests/python/CMakeLists.txt)."""
import os
import pathlib

import pytest

import tessera

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FIRMWARE = ROOT / "firmware"
TUTORIAL = FIRMWARE / "tutorial"
DATA = HERE / "data"
RUNTIME_DATA = ROOT / "tests" / "unit" / "runtime" / "data"


@pytest.fixture(scope="session")
def dtypes_image():
    return tessera.link(DATA / "dtypes.tlayout")


@pytest.fixture
def runner(dtypes_image):
    """A started func session on the 2x2 dtypes image."""
    r = tessera.SdkRuntime(dtypes_image, quiet=True)
    r.load()
    r.run()
    yield r
    if not r.stopped:
        r.stop()
