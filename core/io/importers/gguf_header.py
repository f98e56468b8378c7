"""GGUF header reading, bounded: metadata and tensor list, never the tensor data.

The header is parsed here from the documented layout (ggml's ``docs/gguf.md``: magic, version,
tensor and key/value counts, the key/values, the tensor infos, then aligned data) rather than by
``gguf.GGUFReader``, which builds Python objects for every array element before anything can be
checked (a 53-byte file claiming a 2⁶² element array grew without bound). Here every count and
length is checked against the bytes left in the file before it is used, arrays nest at most
``MAX_ARRAY_DEPTH`` deep, and long arrays are skipped, not stored. Only the ``gguf`` package's
tables of tensor types (names, block sizes) are used.

Besides the tensor list, llama.cpp's metadata of the Llama-shaped families maps onto a Hugging
Face config, so a ``.gguf`` file carries its own prediction.
"""

from __future__ import annotations

import mmap
import os
import struct
from math import prod
from typing import Any, BinaryIO

from paramtally.core.errors import ParamTallyError, shown
from paramtally.core.io.importers.safetensors_header import TensorInfo
from paramtally.core.schema.limits import MAX_TENSORS
from paramtally.core.text import Said, say

__all__ = ["GGUF_MAGIC", "MAX_ARRAY_DEPTH", "config_from_gguf", "gguf_words", "read_gguf_header"]

GGUF_MAGIC = b"GGUF"
MAX_ARRAY_DEPTH = 4  # llama.cpp writes arrays of scalars or strings, never arrays of arrays
_MAX_DIMS = 4  # GGML_MAX_DIMS
_SHOWN_ITEMS = 16  # a longer array (a token list) is kept as its length only
_KEPT_STRING = 1 << 16  # a longer string value is kept as its length only
_DEFAULT_ALIGNMENT = 32
_STRING, _ARRAY = 8, 9
# GGUF value type -> struct format of one element (strings and arrays are read apart).
_SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "B", 10: "Q", 11: "q", 12: "d"}
_BOOL = 7

# general.architecture -> Hugging Face model_type (llama.cpp writes Mistral as "llama").
_MODEL_TYPES = {"llama": "llama", "qwen2": "qwen2", "qwen3": "qwen3", "gemma": "gemma"}
# Hugging Face key -> GGUF key under "<architecture>."
_KEYS = {
    "hidden_size": "embedding_length",
    "num_hidden_layers": "block_count",
    "intermediate_size": "feed_forward_length",
    "num_attention_heads": "attention.head_count",
    "num_key_value_heads": "attention.head_count_kv",
    "head_dim": "attention.key_length",
    "max_position_embeddings": "context_length",
    "vocab_size": "vocab_size",
    "num_local_experts": "expert_count",
    "num_experts_per_tok": "expert_used_count",
}


def read_gguf_header(stream: BinaryIO, name: str) -> tuple[list[TensorInfo], dict[str, Any]]:
    """The tensors of the open GGUF file ``name`` (shapes in PyTorch order) and its metadata."""
    try:
        size = os.fstat(stream.fileno()).st_size
        magic = stream.read(4)
        if magic != GGUF_MAGIC:
            raise ParamTallyError(
                say(
                    "{name}: not a GGUF file (magic {magic}, expected {expected})",
                    name=name,
                    magic=repr(magic),
                    expected=repr(GGUF_MAGIC),
                )
            )
        with mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ) as buffer:
            return _Header(buffer, size, name).read()
    except (OSError, ValueError) as exc:  # ValueError: mmap of a file that shrank
        raise ParamTallyError(say("{name}: cannot read ({exc})", name=name, exc=str(exc))) from None


class _Header:
    """A cursor over the mapped file: every read first checks that the bytes are there."""

    def __init__(self, buffer: mmap.mmap, size: int, name: str) -> None:
        self.buffer, self.size, self.name = buffer, size, name
        self.pos = 4
        self.order = "<"

    def fail(self, reason: str) -> ParamTallyError:
        return ParamTallyError(say("{name}: corrupt GGUF header: {reason}", name=self.name, reason=reason))

    def read(self) -> tuple[list[TensorInfo], dict[str, Any]]:
        version = self.unpack("I")
        if version not in (2, 3):
            swapped = int.from_bytes(version.to_bytes(4, "little"), "big")
            if swapped not in (2, 3):
                raise ParamTallyError(
                    say(
                        "{name}: GGUF version {version} is not supported (2 or 3)",
                        name=self.name,
                        version=version,
                    )
                )
            self.order = ">"
        tensor_count, kv_count = self.unpack("Q"), self.unpack("Q")
        self.check_count(kv_count, 8 + 4, "metadata entries")
        metadata: dict[str, Any] = {}
        for _ in range(kv_count):
            key = self.string()
            if key in metadata:
                raise self.fail(say("metadata key {key} given twice", key=shown(key)))
            metadata[key] = self.value(self.unpack("I"), depth=0)
        self.check_count(tensor_count, 8 + 4 + 4 + 8, "tensors")
        if tensor_count > MAX_TENSORS:
            raise self.fail(
                say(
                    "claims {n:,} tensors; a checkpoint may hold at most {most:,}",
                    n=tensor_count,
                    most=MAX_TENSORS,
                )
            )
        infos = [self.tensor_info() for _ in range(tensor_count)]
        alignment = metadata.get("general.alignment", _DEFAULT_ALIGNMENT)
        if not isinstance(alignment, int) or isinstance(alignment, bool) or not 0 < alignment <= 1 << 20:
            raise self.fail(
                say("general.alignment {alignment} is not a usable alignment", alignment=shown(alignment))
            )
        data_start = -(-self.pos // alignment) * alignment
        return self.tensors(infos, data_start), metadata

    # --- primitives ----------------------------------------------------------------------------

    def need(self, count: int, what: str) -> int:
        """Reserve ``count`` bytes at the cursor; the position they start at."""
        start = self.pos
        if count < 0 or start + count > self.size:
            raise self.fail(
                say(
                    "{what} needs {n:,} bytes at byte {start:,}, past the end (truncated?)",
                    what=_WHAT.get(what, what),
                    n=count,
                    start=start,
                )
            )
        self.pos = start + count
        return start

    def unpack(self, fmt: str) -> Any:
        width = struct.calcsize(fmt)
        return struct.unpack_from(self.order + fmt, self.buffer, self.need(width, "a field"))[0]

    def check_count(self, count: int, least_bytes: int, what: str) -> None:
        """A count is refused before any loop when its items could not fit in the bytes left."""
        if count * least_bytes > self.size - self.pos:
            raise self.fail(
                say(
                    "claims {n:,} {what}, more than the {left:,} bytes left hold",
                    n=count,
                    what=_WHAT.get(what, what),
                    left=self.size - self.pos,
                )
            )

    def string(self) -> str:
        """A length-prefixed string; one longer than ``_KEPT_STRING`` bytes is kept as its length."""
        length = self.unpack("Q")
        start = self.need(length, "a string")
        if length > _KEPT_STRING:
            return f"[{length:,}-byte string]"
        return bytes(self.buffer[start : start + length]).decode("utf-8", "replace")

    # --- values --------------------------------------------------------------------------------

    def value(self, kind: int, depth: int) -> Any:
        if kind in _SCALARS:
            number = self.unpack(_SCALARS[kind])
            return bool(number) if kind == _BOOL else number
        if kind == _STRING:
            return self.string()
        if kind == _ARRAY:
            return self.array(depth + 1)
        raise self.fail(say("unknown value type {kind}", kind=kind))

    def array(self, depth: int) -> Any:
        if depth > MAX_ARRAY_DEPTH:
            raise self.fail(say("arrays nested more than {most} deep", most=MAX_ARRAY_DEPTH))
        kind, count = self.unpack("I"), self.unpack("Q")
        if kind in _SCALARS:
            width = struct.calcsize(_SCALARS[kind])
            self.check_count(count, width, "array items")
            if count > _SHOWN_ITEMS:
                self.need(count * width, "an array")  # skipped: checked, never decoded
                return f"[{count} items]"
        elif kind in (_STRING, _ARRAY):
            self.check_count(count, 8 if kind == _STRING else 12, "array items")
            if count > _SHOWN_ITEMS:  # a token list: each length checked, nothing kept
                for _ in range(count):
                    self.skip(kind, depth)
                return f"[{count} items]"
        else:
            raise self.fail(say("unknown array item type {kind}", kind=kind))
        return [self.value(kind, depth) for _ in range(count)]

    def skip(self, kind: int, depth: int) -> None:
        if kind == _STRING:
            self.need(self.unpack("Q"), "a string")
        else:
            self.array(depth + 1)

    # --- tensors -------------------------------------------------------------------------------

    def tensor_info(self) -> tuple[str, tuple[int, ...], int, int]:
        name = self.string()
        dims = self.unpack("I")
        if not 1 <= dims <= _MAX_DIMS:
            raise self.fail(
                say(
                    "tensor {tensor} has {dims} dimensions (1 to {most})",
                    tensor=shown(name),
                    dims=dims,
                    most=_MAX_DIMS,
                )
            )
        shape = tuple(self.unpack("Q") for _ in range(dims))
        return name, shape, self.unpack("I"), self.unpack("Q")

    def tensors(
        self, infos: list[tuple[str, tuple[int, ...], int, int]], data_start: int
    ) -> list[TensorInfo]:
        from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType  # tables only

        tensors, seen = [], set()
        for name, shape, type_id, offset in infos:
            if name in seen:
                raise self.fail(say("tensor {tensor} listed twice", tensor=shown(name)))
            seen.add(name)
            try:
                kind = GGMLQuantizationType(type_id)
                block, type_size = GGML_QUANT_SIZES[kind]
            except (ValueError, KeyError):
                raise self.fail(
                    say("tensor {tensor} has unknown type {type_id}", tensor=shown(name), type_id=type_id)
                ) from None
            numel = prod(shape)
            if numel % block:
                raise self.fail(
                    say(
                        "tensor {tensor}: {n:,} elements are not whole {kind} blocks",
                        tensor=shown(name),
                        n=numel,
                        kind=kind.name,
                    )
                )
            nbytes = numel // block * type_size
            if data_start + offset + nbytes > self.size:
                raise ParamTallyError(
                    say(
                        "{name}: tensor {tensor} runs past the end of the file (truncated?)",
                        name=self.name,
                        tensor=shown(name),
                    )
                )
            tensors.append(TensorInfo(name, shape[::-1], kind.name, nbytes, self.name, numel))
        return tensors


# What a header's byte counts are for, said where a refusal names it (the reader passes the English).
_WHAT = {
    "metadata entries": say("metadata entries"),
    "tensors": say("tensors"),
    "a field": say("a field"),
    "a string": say("a string"),
    "array items": say("array items"),
    "an array": say("an array"),
}


def gguf_words(message: str, origin: str, metadata: dict[str, Any]) -> str:
    """A refusal of the config made from GGUF metadata, naming the GGUF key where it names a
    config key taken from one ('m.gguf metadata: llama.block_count: …', not num_hidden_layers)."""
    arch = metadata.get("general.architecture")
    said = message.removeprefix(f"{origin}: ")
    for hf_key, gguf_key in _KEYS.items():
        if (
            isinstance(arch, str)
            and f"{arch}.{gguf_key}" in metadata
            and said.startswith((f"{hf_key}:", f"{hf_key} "))
        ):
            english = f"{origin}: {arch}.{gguf_key}{said[len(hf_key) :]}"
            renamed = _renamed(message, hf_key, f"{arch}.{gguf_key}")
            return renamed if renamed == english else english
    return message


def _renamed(message: str, old: str, new: str) -> str:
    """``message`` (a sentence core said) with each field that names ``old`` naming ``new``."""
    if not isinstance(message, Said):
        return message
    fields = {
        name: new if value == old else _renamed(value, old, new) if isinstance(value, str) else value
        for name, value in message.fields.items()
    }
    return Said(message.template, fields)


def config_from_gguf(metadata: dict[str, Any], tensors: list[TensorInfo]) -> dict[str, Any] | None:
    """A Hugging Face config dict equivalent to the metadata, or None for unmapped architectures."""
    arch = metadata.get("general.architecture")
    if arch not in _MODEL_TYPES:
        return None
    config: dict[str, Any] = {"model_type": _MODEL_TYPES[arch]}
    for hf_key, gguf_key in _KEYS.items():
        value = metadata.get(f"{arch}.{gguf_key}")
        if value is not None:
            config[hf_key] = value
    names = {tensor.name: tensor for tensor in tensors}
    if "vocab_size" not in config and "token_embd.weight" in names:
        config["vocab_size"] = names["token_embd.weight"].shape[0]
    config["tie_word_embeddings"] = "output.weight" not in names
    if config.get("num_local_experts"):
        config["model_type"] = "mixtral" if arch == "llama" else config["model_type"]
        config["intermediate_size"] = metadata.get(
            f"{arch}.expert_feed_forward_length", config.get("intermediate_size")
        )
    return config
