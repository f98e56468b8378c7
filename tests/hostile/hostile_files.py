"""Hand-made GGUF and safetensors bytes, so a test can make any header lie in any way.

GGUF layout (ggml docs/gguf.md, little-endian): magic, version, tensor count, key/value count,
the key/values (string key, uint32 type, value), tensor infos (name, n_dims, dims, type,
offset), padding to 32, data. Strings are a uint64 length and the bytes.
"""

from __future__ import annotations

import json
import struct
from typing import Any

U32, U64, STRING, ARRAY = 4, 10, 8, 9
F32_TYPE = 0  # ggml type id of F32 tensors


def string(text: str | bytes) -> bytes:
    raw = text.encode() if isinstance(text, str) else text
    return struct.pack("<Q", len(raw)) + raw


def kv(key: str, kind: int, payload: bytes) -> bytes:
    return string(key) + struct.pack("<I", kind) + payload


def u32(key: str, value: int) -> bytes:
    return kv(key, U32, struct.pack("<I", value))


def u64(key: str, value: int) -> bytes:
    return kv(key, U64, struct.pack("<Q", value))


def text(key: str, value: str) -> bytes:
    return kv(key, STRING, string(value))


def tensor_info(name: str, dims: tuple[int, ...], offset: int, ggml_type: int = F32_TYPE) -> bytes:
    packed_dims = b"".join(struct.pack("<Q", d) for d in dims)
    return string(name) + struct.pack("<I", len(dims)) + packed_dims + struct.pack("<IQ", ggml_type, offset)


def gguf(
    kvs: list[bytes],
    tensors: list[bytes] | None = None,
    data: bytes = b"",
    *,
    counts: tuple[int, int] | None = None,
) -> bytes:
    tensors = tensors or []
    tensor_count, kv_count = counts if counts is not None else (len(tensors), len(kvs))
    head = b"GGUF" + struct.pack("<IQQ", 3, tensor_count, kv_count) + b"".join(kvs) + b"".join(tensors)
    return head + bytes(-len(head) % 32) + data


def huge_array_gguf() -> bytes:
    """53 bytes: one key whose uint32 array claims 2⁶² elements (the issue's file)."""
    payload = struct.pack("<IQ", U32, 1 << 62)
    return b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + kv("vocab", ARRAY, payload)


def nested_array_gguf(depth: int) -> bytes:
    """An array of arrays of … ``depth`` deep, each holding one array (the last holds nothing)."""
    payload = b"".join(struct.pack("<IQ", ARRAY, 1) for _ in range(depth - 1)) + struct.pack("<IQ", U32, 0)
    return b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + kv("nested", ARRAY, payload)


def llama_gguf(block_count: int, width: int = 8) -> bytes:
    """A well-formed tiny Llama GGUF whose metadata claims ``block_count`` layers."""
    kvs = [
        text("general.architecture", "llama"),
        u64("llama.block_count", block_count),
        u32("llama.embedding_length", width),
        u32("llama.feed_forward_length", width),
        u32("llama.attention.head_count", 1),
        u32("llama.context_length", 16),
        u32("llama.vocab_size", 4),
    ]
    tensors = [tensor_info("token_embd.weight", (width, 4), 0)]
    return gguf(kvs, tensors, bytes(4 * width * 4))


def safetensors(header: Any, data: bytes = b"", *, raw_header: bytes | None = None) -> bytes:
    raw = raw_header if raw_header is not None else json.dumps(header).encode()
    return struct.pack("<Q", len(raw)) + raw + data


def valid_safetensors() -> bytes:
    return safetensors(
        {"model.norm.weight": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}, bytes(8)
    )
