"""Header-only safetensors reading: an 8-byte little-endian length, then a JSON header.

Only the header is read (a few kilobytes even for a 10 GB shard); the tensor data is never
touched. Every promise the header makes is checked against the file size, so a header that
lies about its length or a truncated file gives one clear error naming the file.
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass
from math import prod
from pathlib import Path
from typing import Any

from paramtally.core.errors import ParamTallyError

__all__ = ["MAX_HEADER", "TensorInfo", "read_safetensors_header"]

MAX_HEADER = 100 * 1024 * 1024  # the format's own limit
_ITEM_BITS = {
    "BOOL": 8, "U8": 8, "I8": 8, "F8_E5M2": 8, "F8_E4M3": 8, "F8_E8M0": 8, "I16": 16, "U16": 16,
    "F16": 16, "BF16": 16, "I32": 32, "U32": 32, "F32": 32, "F64": 64, "I64": 64, "U64": 64, "F4": 4,
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class TensorInfo:
    """One stored tensor: shape in PyTorch order, dtype or quant type, bytes on disk, its file."""

    name: str
    shape: tuple[int, ...]
    dtype: str
    nbytes: int
    file: str
    numel: int


def read_safetensors_header(path: Path) -> tuple[list[TensorInfo], dict[str, str]]:
    """The tensors listed in ``path``'s header, and its ``__metadata__``."""
    try:
        size = path.stat().st_size
        with path.open("rb") as stream:
            head = stream.read(8)
            if len(head) < 8:
                raise _bad(path, f"{size} bytes is too short for a safetensors header")
            (length,) = struct.unpack("<Q", head)
            if length > size - 8 or length > MAX_HEADER:
                raise _bad(
                    path, f"header claims {length:,} bytes but the file has {size - 8:,} after the length"
                )
            raw = stream.read(length)
    except OSError as exc:
        raise ParamTallyError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        header = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise _bad(path, "header is not valid JSON (wrong length or not a safetensors file)") from None
    if not isinstance(header, dict):
        raise _bad(path, "header is not a JSON object")
    metadata = header.pop("__metadata__", None) or {}
    data_size = size - 8 - length
    tensors = [_tensor(path, name, entry, data_size) for name, entry in header.items()]
    return tensors, {str(key): str(value) for key, value in dict(metadata).items()}


def _tensor(path: Path, name: str, entry: Any, data_size: int) -> TensorInfo:
    if not isinstance(entry, dict):
        raise _bad(path, f"tensor {name!r} has no dtype/shape/data_offsets")
    dtype, shape, offsets = entry.get("dtype"), entry.get("shape"), entry.get("data_offsets")
    if (
        not isinstance(dtype, str)
        or not isinstance(shape, list)
        or not all(isinstance(d, int) and d >= 0 for d in shape)
        or not isinstance(offsets, list)
        or len(offsets) != 2
        or not all(isinstance(o, int) for o in offsets)
    ):
        raise _bad(path, f"tensor {name!r} has a malformed entry {entry!r}")
    start, end = offsets
    if not 0 <= start <= end:
        raise _bad(path, f"tensor {name!r} has data_offsets {offsets}")
    if end > data_size:
        raise _bad(
            path, f"tensor {name!r} ends at byte {end:,} of a {data_size:,}-byte data section (truncated?)"
        )
    numel = prod(shape)
    bits = _ITEM_BITS.get(dtype)
    if bits is not None and (numel * bits + 7) // 8 != end - start:
        raise _bad(
            path,
            f"tensor {name!r}: {dtype} {shape} needs {(numel * bits + 7) // 8:,} bytes, "
            f"its offsets span {end - start:,}",
        )
    return TensorInfo(name, tuple(shape), dtype, end - start, path.name, numel)


def _bad(path: Path, reason: str) -> ParamTallyError:
    return ParamTallyError(f"{path.name}: not a valid safetensors file: {reason}")
