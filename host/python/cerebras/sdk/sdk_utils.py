"""Helpers of the SDK's host programs (cerebras.sdk.sdk_utils), written for Tessera.

memcpy moves 32-bit words; 16-bit data travels in the low half of each word.
"""
import numpy as np


def memcpy_view(arr, dtype):
    """A view of the low 1, 2 or 4 bytes of each 4-byte element of `arr`, as `dtype`.

    Writing through the view writes those bytes of `arr` (little endian)."""
    arr = np.asarray(arr)
    if arr.dtype.itemsize != 4:
        raise ValueError(f"memcpy_view: the array's elements must be 4 bytes, not {arr.dtype}")
    dtype = np.dtype(dtype)
    if dtype.itemsize not in (1, 2, 4):
        raise ValueError(f"memcpy_view: the view's type must be 1, 2 or 4 bytes, not {dtype}")
    if dtype.itemsize == 4:
        return arr.view(dtype)
    wide = arr.view(np.dtype((dtype, (4 // dtype.itemsize,))))
    return wide[..., 0]


def input_array_to_u32(np_arr, sentinel, fast_dim_sz):
    """The 1-D array as uint32 words for memcpy.

    4-byte elements are reinterpreted. 2-byte elements (int16, uint16, float16) go to the low
    half; the high half is the element's index modulo `fast_dim_sz` when `sentinel` is not None,
    else 0."""
    a = np.asarray(np_arr)
    if a.ndim != 1:
        raise ValueError(f"input_array_to_u32: the array must be 1-D, not of shape {a.shape}")
    if a.dtype.itemsize == 4:
        return a.view(np.uint32)
    if a.dtype.itemsize != 2:
        raise ValueError(f"input_array_to_u32: elements must be 2 or 4 bytes, not {a.dtype}")
    low = a.view(np.uint16).astype(np.uint32)
    if sentinel is None:
        return low
    high = (np.arange(a.size, dtype=np.uint32) % np.uint32(fast_dim_sz)) << np.uint32(16)
    return high | low


def cast_uint32(x):
    """The bits of one float32 (or int) value as a Python int."""
    if isinstance(x, (np.floating, float)):
        return int(np.array([x], dtype=np.float32).view(np.uint32)[0])
    return int(np.uint32(x))


def calculate_cycles(timestamp_buf):
    """Cycles from three 16-bit words of a timestamp (the SDK's layout of a 48-bit counter)."""
    b = np.asarray(timestamp_buf, dtype=np.uint64)
    return int(b[0]) | (int(b[1]) << 16) | (int(b[2]) << 32)
