"""GGUF header reading (via the ``gguf`` package, which memory-maps and never copies weights).

Besides the tensor list, llama.cpp's metadata of the Llama-shaped families maps onto a Hugging
Face config, so a ``.gguf`` file carries its own prediction.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from paramtally.core.errors import ParamTallyError
from paramtally.core.importers.safetensors_header import TensorInfo

__all__ = ["GGUF_MAGIC", "config_from_gguf", "read_gguf_header"]

GGUF_MAGIC = b"GGUF"
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


def read_gguf_header(path: Path) -> tuple[list[TensorInfo], dict[str, Any]]:
    """The tensors of a GGUF file (shapes in PyTorch order) and its metadata key/values."""
    try:
        with path.open("rb") as stream:
            magic = stream.read(4)
    except OSError as exc:
        raise ParamTallyError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if magic != GGUF_MAGIC:
        raise ParamTallyError(f"{path.name}: not a GGUF file (magic {magic!r}, expected {GGUF_MAGIC!r})")
    from gguf import GGUFReader  # imported late: only this command needs it

    try:
        reader = GGUFReader(path)
    except (ValueError, IndexError, KeyError, OSError, TypeError) as exc:
        raise ParamTallyError(f"{path.name}: truncated or corrupt GGUF file ({exc})") from None
    size = path.stat().st_size
    tensors = []
    for tensor in reader.tensors:
        if tensor.data_offset + tensor.n_bytes > size:
            raise ParamTallyError(
                f"{path.name}: tensor {tensor.name!r} runs past the end of the file (truncated?)"
            )
        shape = tuple(int(d) for d in reversed(list(tensor.shape)))
        info = TensorInfo(
            tensor.name,
            shape,
            tensor.tensor_type.name,
            int(tensor.n_bytes),
            path.name,
            int(tensor.n_elements),
        )
        tensors.append(info)
    metadata = {name: _value(field) for name, field in reader.fields.items() if not name.startswith("GGUF.")}
    return tensors, metadata


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


def _value(field: Any) -> Any:
    try:
        value = field.contents()
    except (ValueError, IndexError, TypeError):
        return None
    if isinstance(value, list) and len(value) > 16:
        return f"[{len(value)} items]"  # token lists: their length is enough
    return value
