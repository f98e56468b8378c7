"""Header-only safetensors reading: an 8-byte little-endian length, then a JSON header.

Only the header is read (a few kilobytes even for a 10 GB shard); the tensor data is never
touched. Every promise the header makes is checked against the file size, so a header that
lies about its length or a truncated file gives one clear error naming the file. The header's
JSON goes through the same guarded decoder as every other file (``core.files.input_files``).
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from math import prod
from typing import Any, BinaryIO

from paramtally.core.errors import ParamTallyError, one_line, shown
from paramtally.core.files.input_files import UnusableJSON, parse_json
from paramtally.core.schema.limits import MAX_TENSORS
from paramtally.core.text import Said, say

__all__ = ["MAX_DIMS", "MAX_HEADER", "TensorInfo", "read_safetensors_header"]

# The format allows 100 MB; a tensor takes ~100 bytes of header, so 32 MB is MAX_TENSORS of them
# (a real shard's header is a few hundred kB), and decoding 100 MB of names took 0.4 GB or more.
MAX_HEADER = 32 * 1024 * 1024
MAX_DIMS = 64  # PyTorch's own limit on a tensor's dimensions
_METADATA_KEYS = 10_000
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


def read_safetensors_header(
    stream: BinaryIO, name: str, max_tensors: int = MAX_TENSORS
) -> tuple[list[TensorInfo], dict[str, str]]:
    """The tensors listed in the header of the open file ``name`` (at most ``max_tensors``: what
    ``MAX_TENSORS`` leaves of a checkpoint), and its ``__metadata__``."""
    try:
        size = os.fstat(stream.fileno()).st_size
        head = stream.read(8)
        if len(head) < 8:
            raise _bad(name, say("{size} bytes is too short for a safetensors header", size=size))
        (length,) = struct.unpack("<Q", head)
        if length > size - 8:
            raise _bad(
                name,
                say(
                    "header claims {length:,} bytes but the file has {left:,} after the length",
                    length=length,
                    left=size - 8,
                ),
            )
        if length > MAX_HEADER:
            raise _bad(
                name,
                say(
                    "header of {length:,} bytes; ParamTally reads at most {most:,}",
                    length=length,
                    most=MAX_HEADER,
                ),
            )
        raw = stream.read(length)
    except OSError as exc:
        raise ParamTallyError(
            say("{name}: cannot read ({exc})", name=name, exc=exc.strerror or str(exc))
        ) from None
    try:
        # Four keys a tensor (its name, dtype, shape, offsets), and the metadata's.
        header = parse_json(raw, "header", max_keys=4 * max(max_tensors, 0) + _METADATA_KEYS)
    except UnusableJSON as exc:
        raise _bad(name, one_line(exc)) from None
    except ParamTallyError as exc:
        reason = _without_origin(one_line(exc), "header")
        raise _bad(
            name,
            say(
                "header is not valid JSON ({reason}; wrong length or not a safetensors file?)", reason=reason
            ),
        ) from None
    if not isinstance(header, dict):
        raise _bad(name, say("header is not a JSON object"))
    metadata = header.pop("__metadata__", None) or {}
    if not isinstance(metadata, dict) or not all(isinstance(value, str) for value in metadata.values()):
        raise _bad(name, say("__metadata__ must be an object of strings"))
    if len(header) > max_tensors:
        too_many = (
            say(
                "lists {n:,} tensors, more than the {left:,} the checkpoint may still hold "
                "({most:,} in a checkpoint)",
                n=len(header),
                left=max_tensors,
                most=MAX_TENSORS,
            )
            if max_tensors < MAX_TENSORS
            else say(
                "lists {n:,} tensors, more than the {most:,} in a checkpoint", n=len(header), most=MAX_TENSORS
            )
        )
        raise _bad(name, too_many)
    data_size = size - 8 - length
    tensors = [_tensor(name, tensor, entry, data_size) for tensor, entry in header.items()]
    return tensors, metadata


def _tensor(file: str, name: str, entry: Any, data_size: int) -> TensorInfo:
    if not isinstance(entry, dict):
        raise _bad(file, say("tensor {tensor} has no dtype/shape/data_offsets", tensor=shown(name)))
    dtype, shape, offsets = entry.get("dtype"), entry.get("shape"), entry.get("data_offsets")
    if (
        not isinstance(dtype, str)
        or not isinstance(shape, list)
        or len(shape) > MAX_DIMS
        or not all(_is_size(d) for d in shape)
        or not isinstance(offsets, list)
        or len(offsets) != 2
        or not all(_is_size(o) for o in offsets)
    ):
        raise _bad(
            file,
            say("tensor {tensor} has a malformed entry {entry}", tensor=shown(name), entry=shown(entry, 200)),
        )
    start, end = offsets
    if not start <= end:
        raise _bad(
            file, say("tensor {tensor} has data_offsets {offsets}", tensor=shown(name), offsets=str(offsets))
        )
    if end > data_size:
        raise _bad(
            file,
            say(
                "tensor {tensor} ends at byte {end:,} of a {size:,}-byte data section (truncated?)",
                tensor=shown(name),
                end=end,
                size=data_size,
            ),
        )
    numel, span = prod(shape), end - start
    bits = _ITEM_BITS.get(dtype)
    if bits is not None:
        needed = (numel * bits + 7) // 8
        wrong = needed != span
    else:  # an unknown dtype still stores at least one bit per element: bounds the count it claims
        needed = -(-numel // 8)
        wrong = needed > span
    if wrong:
        raise _bad(
            file,
            say(
                "tensor {tensor}: {dtype} {shape} needs {needed:,} bytes, its offsets span {span:,}",
                tensor=shown(name),
                dtype=dtype[:20],
                shape=str(shape),
                needed=needed,
                span=span,
            ),
        )
    return TensorInfo(name, tuple(shape), dtype, span, file, numel)


def _is_size(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 64


def _bad(name: str, reason: str) -> ParamTallyError:
    return ParamTallyError(say("{name}: not a valid safetensors file: {reason}", name=name, reason=reason))


def _without_origin(message: str, origin: str) -> str:
    """``message`` without its leading 'origin: ' (a sentence core said keeps its template)."""
    if (
        isinstance(message, Said)
        and message.template.startswith("{origin}: ")
        and message.fields.get("origin") == origin
    ):
        fields = {name: value for name, value in message.fields.items() if name != "origin"}
        return Said(message.template.removeprefix("{origin}: "), fields)
    return message.removeprefix(f"{origin}: ")
