#!/usr/bin/env cs_python
"""<tile_config>: both halves arrive, through one queue on each side that changed color."""
import argparse
import numpy as np
from cerebras.sdk.runtime.sdkruntimepybind import SdkRuntime, MemcpyDataType, MemcpyOrder

p = argparse.ArgumentParser()
p.add_argument("--name", default="out")
args = p.parse_args()

r = SdkRuntime(args.name)
r.load()
r.run()
r.launch("start", nonblock=False)
got = np.zeros(8, dtype=np.uint32)
r.memcpy_d2h(got, r.get_id("got"), 1, 0, 1, 1, 8, streaming=False,
             order=MemcpyOrder.ROW_MAJOR, data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
r.stop()
if list(got) != list(range(1, 9)):
    raise SystemExit(f"MISMATCH: the receiver got {list(got)}, expected 1..8 (words 5..8 came "
                     "on color 12 through the remapped queues, its filter off)")
print("SUCCESS!")
