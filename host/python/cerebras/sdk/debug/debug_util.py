"""cerebras.sdk.debug.debug_util for Tessera: the <debug> library's traces after a run.

SdkRuntime.stop() saves every PE's <debug> buffers to debug_traces.json in the output folder;
read_trace(x, y, key) decodes one of them into the values recorded, in order: strings as str,
integers as int, f32 and f16 as numpy floats, booleans as bool, timestamps as the 48-bit cycle.
Coordinates are the fabric's (the program's rectangle starts at --fabric-offsets).
"""
import json
import os
import warnings

import numpy as np

_KINDS = {1: "string", 2: "u32", 3: "i32", 4: "f32", 5: "u16", 6: "i16", 7: "f16", 8: "bool",
          9: "timestamp", 10: "u8", 11: "i8"}


def _signed(w, bits):
    w &= (1 << bits) - 1
    return w - (1 << bits) if w >> (bits - 1) else w


class debug_util:  # pylint: disable=invalid-name (the SDK's name)
    """The traces of the run whose output folder is `bindir`."""

    def __init__(self, bindir, cmaddr=None):
        del cmaddr  # a real system's address; Tessera has none
        path = os.path.join(bindir, "debug_traces.json")
        if not os.path.exists(path):
            raise FileNotFoundError(
                f"{path}: no traces saved; SdkRuntime.stop() writes them when the program "
                "imports <debug>")
        with open(path) as f:
            saved = json.load(f)
        self._strings = saved["strings"]
        self._traces = {(t["x"], t["y"], t["key"]): t for t in saved["traces"]}

    def read_trace(self, x, y, key):
        """The values PE (x, y) recorded in its <debug> module with this key, oldest first."""
        t = self._traces.get((x, y, key))
        if t is None:
            here = sorted(k for (tx, ty, k) in self._traces if (tx, ty) == (x, y))
            raise KeyError(f"read_trace({x}, {y}, {key!r}): PE({x},{y}) has no <debug> trace "
                           f"with that key (it has: {', '.join(here) or 'none'})")
        words, out, i = t["words"], [], 0
        while i < len(words):
            head = words[i]
            kind = _KINDS.get(head & 0xFF)
            i += 1
            if kind == "string":
                out.append(self._strings[head >> 8])
            elif kind == "timestamp":
                out.append(words[i] | (words[i + 1] << 32))
                i += 2
            elif kind is None:
                raise ValueError(f"read_trace({x}, {y}, {key!r}): word {i} is not a record head "
                                 f"(0x{head:08x}); was the buffer written by other code?")
            else:
                w = words[i]
                i += 1
                if kind in ("u32", "u16", "u8"):
                    out.append(w)
                elif kind in ("i32", "i16", "i8"):
                    out.append(_signed(w, int(kind[1:])))
                elif kind == "f32":
                    out.append(np.array([w], dtype=np.uint32).view(np.float32)[0])
                elif kind == "f16":
                    out.append(np.array([w], dtype=np.uint16).view(np.float16)[0])
                else:
                    out.append(bool(w))
        if t["dropped"]:
            warnings.warn(f"PE({x},{y}) trace {key!r}: the buffer was full and records were "
                          "dropped (raise buffer_size in the <debug> import)")
        return out
