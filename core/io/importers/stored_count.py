"""A checkpoint's own count, for a model folder whose architecture ParamTally cannot read.

When a folder's ``config.json`` names a ``model_type`` ParamTally does not import (or there is
none, or it is refused) but the weights are beside it (``*.safetensors``, sharded with
``model.safetensors.index.json``, or one ``.gguf``), the headers still say exactly what is
stored. The count is read from them alone, through the same guarded readers as ``verify``
(``checkpoint``: every length checked against the file, nothing read outside the folder), and
split by part where the tensor names are recognised (``tensor_parts``).

What "stored" counts (``DEFINITION``): the elements of every tensor the headers list, each tensor
once, except those that are not parameters of the transformers model: buffers saved in the file
(rotary ``inv_freq``, ``position_ids``, a causal mask, a router's correction bias) and the scales
of a quantized checkpoint, which are listed apart. A head tied to the embedding yet stored twice
is counted twice, as stored, and said; a multi-token-prediction module stored past the last
layer that ``config.json`` names is counted apart, as ``count`` does for a known model.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from paramtally.core.count.breakdown import PART_LABELS, PARTS, human
from paramtally.core.errors import ParamTallyError, one_line, shown
from paramtally.core.files.input_files import parse_json, read_regular_file, typed_path
from paramtally.core.io.importers.checkpoint import INDEX, Checkpoint, open_checkpoint
from paramtally.core.io.importers.model_folder import ModelFolder
from paramtally.core.io.importers.safetensors_header import TensorInfo
from paramtally.core.io.importers.tensor_parts import (
    BUFFER,
    PROJECTOR,
    QUANT,
    VISION_TOWER,
    layer_of,
    part_of,
)
from paramtally.core.io.model_sources import WEIGHT_SUFFIXES, read_source
from paramtally.core.io.presets import MAX_PRESET_BYTES, Preset
from paramtally.core.schema.limits import MAX_NAME_CHARS
from paramtally.core.text import escaped, one_line_name

__all__ = [
    "DEFINITION",
    "OTHER",
    "STORED_PART_LABELS",
    "StoredCount",
    "holds_weights",
    "named",
    "read_source_or_weights",
    "split_checkpoint",
    "stored_count",
]

OTHER = "other"
# The parts a stored count shows, in order: the calculator's (without what LoRA, adapters and new
# tokens add, which no checkpoint name says), then a vision-language model's two, then the rest.
STORED_PART_LABELS: dict[str, str] = {
    **{part: PART_LABELS[part] for part in PARTS if part not in ("lora", "adapters", "vocab_growth")},
    VISION_TOWER: "Vision tower",
    PROJECTOR: "Projector",
    OTHER: "Other (names not recognised)",
}
DEFINITION = (
    "stored total: the elements of every tensor in the headers, each tensor once; buffers (rotary "
    "inv_freq, position ids, masks, router correction biases) and quantization scales are not "
    "parameters and are left out, listed apart"
)
_INTEGER_DTYPES = frozenset({"U8", "I8", "I16", "U16", "I32", "U32"})  # packed quantized weights
_REASON_CHARS = 160  # what a refused config's own message may take of the one line


@dataclass(frozen=True)
class StoredCount:
    """The checkpoint's count, read from its headers; ``why`` says why it is not editable."""

    name: str
    why: str
    checkpoint: Checkpoint
    by_part: dict[str, int]  # STORED_PART_LABELS order, parts of zero left out; MTP apart
    mtp: int
    buffers: tuple[TensorInfo, ...]
    quantization: tuple[TensorInfo, ...]
    packed: tuple[TensorInfo, ...]  # integer tensors holding packed weights: stored elements counted
    tied_twice: tuple[str, str] | None  # (head, embedding) stored apart although config.json ties them

    @property
    def total(self) -> int:
        """The stored parameters, multi-token prediction apart (as ``ParamReport.total``)."""
        return sum(self.by_part.values())

    @property
    def total_with_mtp(self) -> int:
        return self.total + self.mtp

    @property
    def stored_elements(self) -> int:
        """Every element the headers list: the parameters, buffers and quantization scales."""
        return sum(tensor.numel for tensor in self.checkpoint.tensors)

    @property
    def tied_extra(self) -> int:
        """Elements of a tied head stored a second time (transformers counts them once)."""
        if self.tied_twice is None:
            return 0
        return next(t.numel for t in self.checkpoint.tensors if t.name == self.tied_twice[0])

    @property
    def part_rows(self) -> list[tuple[str, str, int, float]]:
        """(part, label, parameters, share of the total) of each part stored, in order."""
        return [
            (part, STORED_PART_LABELS[part], params, round(params / self.total, 8) if self.total else 0.0)
            for part, params in self.by_part.items()
        ]

    @property
    def on_disk(self) -> str:
        """The bytes the tensors take, by dtype: the weights' own memory, as stored."""
        by_dtype = self.checkpoint.bytes_by_dtype
        each = ", ".join(f"{escaped(dtype[:20], keep='')} {human(n, 'B')}" for dtype, n in by_dtype.items())
        return f"Weights on disk: {human(sum(by_dtype.values()), 'B')} ({each})"

    @property
    def notes(self) -> list[str]:
        """What the total leaves out, or counts twice, one line each, after what it means."""
        notes = [DEFINITION[0].upper() + DEFINITION[1:] + "."]
        if self.buffers:
            notes.append(
                f"Buffers, not counted: {len(self.buffers):,} tensor(s), {_elements(self.buffers):,} "
                f"elements ({named(self.buffers)})."
            )
        if self.quantization:
            notes.append(
                f"Quantization scales, not counted: {len(self.quantization):,} tensor(s), "
                f"{_elements(self.quantization):,} elements."
            )
        if self.packed:
            notes.append(
                f"{len(self.packed):,} tensor(s) hold packed integers (GPTQ, AWQ, bitsandbytes, BitNet): "
                "their stored elements are counted, not the weights they pack."
            )
        if self.tied_twice is not None:
            head, embedding = (escaped(shown_name(name), keep="") for name in self.tied_twice)
            notes.append(
                f"{head} has the shape of {embedding} and config.json ties them: both are stored and "
                f"counted here; transformers counts them once, {self.tied_extra:,} fewer."
            )
        return notes

    @property
    def notice(self) -> str:
        """The one line that says the architecture cannot be edited, and why."""
        return (
            f"Not editable: {self.why}; these are the checkpoint's stored tensors, counted from their headers"
        )


def named(tensors: tuple[TensorInfo, ...], most: int = 5) -> str:
    """The first few tensors' names on one line (a file's names may hold anything)."""
    shown_names = ", ".join(escaped(shown_name(tensor.name), keep="") for tensor in tensors[:most])
    return shown_names + (f" and {len(tensors) - most:,} more" if len(tensors) > most else "")


def shown_name(name: str, limit: int = 100) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _elements(tensors: tuple[TensorInfo, ...]) -> int:
    return sum(tensor.numel for tensor in tensors)


def holds_weights(path: Path) -> bool:
    """Whether ``path`` is a weights file or a folder with ``*.safetensors`` (or their index) or
    ``*.gguf`` in it: names only, nothing opened."""
    if not os.path.isdir(path):
        return path.suffix in WEIGHT_SUFFIXES and os.path.lexists(path)
    folder = ModelFolder(path)
    return folder.has(INDEX) or bool(folder.listed("*.safetensors") or folder.listed("*.gguf"))


def read_source_or_weights(source: str) -> Preset | StoredCount:
    """``read_source``, or where it refuses a folder that holds weights (or names a weights
    file), the stored count of those weights. A folder without weights keeps its refusal; so does
    a config.json that cannot be read safely (a link leading outside, a FIFO, too large)."""
    path = typed_path(source)
    if not os.path.isdir(path) and path.suffix in WEIGHT_SUFFIXES:
        return stored_count(path, f"a {path.suffix[1:]} file named alone, without its config.json")
    try:
        return read_source(source)
    except (ParamTallyError, ValidationError) as refusal:
        if not os.path.isdir(path) or not holds_weights(path):
            raise
        config, why = _config_and_why(ModelFolder(path), refusal)
        if why is None:
            raise
        return stored_count(path, why, config)


def stored_count(path: Path, why: str, config: dict[str, Any] | None = None) -> StoredCount:
    """The count of the weights at ``path`` (a folder or one weights file), split by part;
    ``config`` is the folder's config.json where it is an object (its tie and layer count)."""
    checkpoint = open_checkpoint(path)
    return split_checkpoint(checkpoint, _name(path, checkpoint), why, config or {})


def split_checkpoint(checkpoint: Checkpoint, name: str, why: str, config: dict[str, Any]) -> StoredCount:
    """``checkpoint``'s tensors by part, buffers and quantization scales apart."""
    # An encoder-decoder's num_hidden_layers is its encoder's: no multi-token prediction is read there.
    two_stacks = config.get("is_encoder_decoder") is True or "decoder_layers" in config
    layers = None if two_stacks else _int(config, "num_hidden_layers")
    by_part, mtp = Counter[str](), 0
    buffers, quant, packed = [], [], []
    for tensor in checkpoint.tensors:
        part = part_of(tensor.name)
        if part == BUFFER:
            buffers.append(tensor)
            continue
        if part == QUANT:
            quant.append(tensor)
            continue
        if tensor.dtype in _INTEGER_DTYPES:
            packed.append(tensor)
        if _past_the_layers(tensor.name, part, layers):
            mtp += tensor.numel
        else:
            by_part[part or OTHER] += tensor.numel
    return StoredCount(
        name=name,
        why=why,
        checkpoint=checkpoint,
        by_part={part: by_part[part] for part in STORED_PART_LABELS if by_part[part]},
        mtp=mtp,
        buffers=tuple(buffers),
        quantization=tuple(quant),
        packed=tuple(packed),
        tied_twice=_tied_twice(checkpoint, config),
    )


# --- why it is not editable ----------------------------------------------------------------------


def _config_and_why(folder: ModelFolder, refusal: Exception) -> tuple[dict[str, Any], str | None]:
    """config.json as an object (or nothing) and why it gives no architecture, in words. The why
    is None when the refusal is the answer: a preset file, or a JSON file that is no config."""
    if not folder.has("config.json"):
        return {}, "no config.json beside the weights"
    # Read as read_source read it: a file refused as a file (outside the folder, a FIFO, too
    # large) raises here again, and that refusal stands.
    raw = read_regular_file(folder.member("config.json"), MAX_PRESET_BYTES, "config.json", nofollow=True)
    try:
        data = parse_json(raw, "config.json")
    except ParamTallyError as exc:
        return {}, f"config.json is refused ({_cut(str(exc).removeprefix('config.json: '))})"
    if not isinstance(data, dict) or "schema_version" in data:
        return {}, None
    model_type = data.get("model_type")
    if not isinstance(model_type, str):
        return data, "config.json names no model_type"
    from paramtally.core.io.importers.hf_config import SUPPORTED_MODEL_TYPES

    if model_type not in SUPPORTED_MODEL_TYPES:
        return data, f"its model_type {shown(model_type, 60)} is not a type ParamTally imports"
    said = one_line(refusal)
    origin = f"{folder.path / 'config.json'}: "
    return data, f"config.json is refused ({_cut(said.removeprefix(origin))})"


def _cut(text: str) -> str:
    return text if len(text) <= _REASON_CHARS else text[: _REASON_CHARS - 1] + "…"


# --- what config.json says, where it can be read -------------------------------------------------


def _int(config: dict[str, Any], key: str) -> int | None:
    """``key`` at the top of config.json or in its ``text_config``, if a whole number."""
    for where in (config, config.get("text_config")):
        value = where.get(key) if isinstance(where, dict) else None
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
    return None


def _ties(config: dict[str, Any]) -> bool:
    return any(
        isinstance(where, dict) and where.get("tie_word_embeddings") is True
        for where in (config, config.get("text_config"))
    )


def _past_the_layers(name: str, part: str, layers: int | None) -> bool:
    """A decoder layer after the last one config.json names: a multi-token-prediction module."""
    if layers is None or part in (VISION_TOWER, PROJECTOR):
        return False
    where = layer_of(name)
    return where is not None and where[0] == "decoder" and where[1] >= layers


_HEADS = ("lm_head.weight", "output.weight", "embed_out.weight")
_EMBEDDINGS = ("embed_tokens.weight", "wte.weight", "word_embeddings.weight", "token_embd.weight")


def _tied_twice(checkpoint: Checkpoint, config: dict[str, Any]) -> tuple[str, str] | None:
    """(head, embedding) when config.json ties them and both are stored, of one shape."""
    if not _ties(config):
        return None
    embeddings: dict[tuple[int, ...], str] = {}
    for tensor in checkpoint.tensors:
        if tensor.name.endswith(_EMBEDDINGS) and part_of(tensor.name) == "embeddings":
            embeddings.setdefault(tensor.shape, tensor.name)
    for tensor in checkpoint.tensors:
        if tensor.name.endswith(_HEADS) and part_of(tensor.name) == "lm_head" and tensor.shape in embeddings:
            return tensor.name, embeddings[tensor.shape]
    return None


def _name(path: Path, checkpoint: Checkpoint) -> str:
    """The GGUF's own name, else the folder's (or the file's)."""
    named = checkpoint.metadata.get("general.name") if checkpoint.format == "gguf" else None
    if isinstance(named, str) and named.strip():
        return one_line_name(named, MAX_NAME_CHARS)
    return one_line_name((path.resolve() if os.path.isdir(path) else path).name or str(path), MAX_NAME_CHARS)
