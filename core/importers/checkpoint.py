"""Checkpoints on disk, read header-only, and compared with a predicted architecture.

A checkpoint is a model folder (``*.safetensors``, sharded with ``model.safetensors.index.json``,
or one ``.gguf``) or a single file. The comparison puts every tensor in a part by its name
(``tensor_parts``) and sets the parameter counts per part and per layer against the calculator's.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paramtally.core.breakdown import PARTS
from paramtally.core.count import count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.importers.gguf_header import config_from_gguf, read_gguf_header
from paramtally.core.importers.hf_config import import_hf_config
from paramtally.core.importers.safetensors_header import TensorInfo, read_safetensors_header
from paramtally.core.importers.tensor_parts import BUFFER, MTP, QUANT, UNKNOWN, layer_of, part_of
from paramtally.core.schema import Architecture
from paramtally.core.sources import load_source

__all__ = ["Checkpoint", "PartRow", "Verification", "compare", "open_checkpoint", "predicted_from"]

INDEX = "model.safetensors.index.json"


@dataclass(frozen=True)
class Checkpoint:
    path: Path
    format: str  # "safetensors" or "gguf"
    files: tuple[str, ...]
    tensors: tuple[TensorInfo, ...]
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def bytes_by_dtype(self) -> dict[str, int]:
        counts = Counter[str]()
        for tensor in self.tensors:
            counts[tensor.dtype] += tensor.nbytes
        return dict(counts.most_common())


@dataclass(frozen=True)
class PartRow:
    part: str
    predicted: int
    actual: int

    @property
    def difference(self) -> int:
        return self.actual - self.predicted


@dataclass(frozen=True)
class Verification:
    model: str
    predicted_total: int
    actual_total: int  # parameters only: buffers and quantization scales are listed apart
    parts: tuple[PartRow, ...]
    layers: tuple[PartRow, ...]  # only layers whose counts differ; ``part`` is "layer N"
    unexplained: tuple[TensorInfo, ...]
    buffers: tuple[TensorInfo, ...]
    quantization: tuple[TensorInfo, ...]

    @property
    def matches(self) -> bool:
        return self.predicted_total == self.actual_total and not self.unexplained and not self.layers


def open_checkpoint(path: Path) -> Checkpoint:
    if path.is_dir():
        ggufs = sorted(path.glob("*.gguf"))
        if (path / INDEX).is_file() or any(path.glob("*.safetensors")):
            return _safetensors(path, _shards(path))
        if len(ggufs) == 1:
            return open_checkpoint(ggufs[0])
        raise ParamTallyError(f"{path}: no *.safetensors (or exactly one .gguf) in this folder")
    if not path.is_file():
        raise ParamTallyError(f"{path}: no such file or folder")
    if path.suffix == ".gguf":
        tensors, metadata = read_gguf_header(path)
        return Checkpoint(path, "gguf", (path.name,), tuple(tensors), metadata)
    if path.suffix == ".safetensors":
        return _safetensors(path, [path])
    raise ParamTallyError(f"{path.name}: expected a model folder, a .safetensors or a .gguf file")


def predicted_from(checkpoint: Checkpoint) -> Architecture | None:
    """The checkpoint's own prediction: config.json beside it, or GGUF metadata of a mapped family."""
    folder = checkpoint.path if checkpoint.path.is_dir() else checkpoint.path.parent
    config = folder / "config.json"
    if checkpoint.format == "safetensors" and config.is_file():
        arch = load_source(str(config))
        generic = arch.name.endswith("(config.json)")
        return arch.model_copy(update={"name": folder.resolve().name}) if generic else arch
    if checkpoint.format == "gguf":
        mapped = config_from_gguf(checkpoint.metadata, list(checkpoint.tensors))
        if mapped is not None:
            name = checkpoint.metadata.get("general.name")
            origin = f"{checkpoint.path.name} metadata"
            arch = import_hf_config(mapped, origin)
            return arch.model_copy(update={"name": str(name)}) if isinstance(name, str) else arch
    return None


# Parts outside the layers: a tensor of theirs that sits in a layer (T5's relative position bias
# in block 0) is not counted in that layer's figure.
_OUTSIDE_LAYERS = frozenset({"embeddings", "lm_head", "frontend"})


def compare(checkpoint: Checkpoint, arch: Architecture) -> Verification:
    report = count_parameters(arch)
    predicted = dict(report.by_part)
    layers: dict[str, int] = {role: stack.num_layers for role, stack in arch.stacks}
    if report.mtp:
        predicted[MTP] = report.mtp
    by_part, by_layer = Counter[str](), Counter[tuple[str, int]]()
    unexplained, buffers, quant = [], [], []
    only = next(iter(layers)) if len(layers) == 1 else None
    for tensor in checkpoint.tensors:
        part, where = part_of(tensor.name), layer_of(tensor.name)
        if where is not None and only is not None:
            where = (only, where[1])  # one stack: BERT's "encoder.layer.3" is its only stack
        if (
            part not in (BUFFER, QUANT)
            and where is not None
            and where[1] >= layers.get(where[0], 0)
            and report.mtp
        ):
            part, where = MTP, None  # the prediction modules sit after the last layer
        if part == BUFFER:
            buffers.append(tensor)
        elif part == QUANT:
            quant.append(tensor)
        elif (
            part == UNKNOWN or predicted.get(part, 0) == 0 or (where and where[1] >= layers.get(where[0], 0))
        ):
            unexplained.append(tensor)
        else:
            by_part[part] += tensor.numel
            if where is not None and part not in _OUTSIDE_LAYERS:
                by_layer[where] += tensor.numel
    actual = sum(by_part.values()) + sum(t.numel for t in unexplained)
    parts = tuple(
        PartRow(part, predicted.get(part, 0), by_part.get(part, 0))
        for part in (*PARTS, MTP)
        if predicted.get(part, 0) or by_part.get(part, 0)
    )
    differing = tuple(
        PartRow(_layer_name(arch, row.stack, row.index), row.params, by_layer.get((row.stack, row.index), 0))
        for row in report.layers
        if row.params != by_layer.get((row.stack, row.index), 0)
    )
    return Verification(
        report.name,
        report.total_with_mtp,
        actual,
        parts,
        differing,
        tuple(unexplained),
        tuple(buffers),
        tuple(quant),
    )


def _layer_name(arch: Architecture, stack: str, index: int) -> str:
    return f"{stack} layer {index}" if arch.encoder is not None else f"layer {index}"


def _weight_map(folder: Path) -> dict[str, str] | None:
    """The sharded index's tensor -> shard map, or None for an unsharded folder."""
    index = folder / INDEX
    if not index.is_file():
        return None
    try:
        weight_map = json.loads(index.read_text(encoding="utf-8"))["weight_map"]
        if not isinstance(weight_map, dict) or not all(isinstance(v, str) for v in weight_map.values()):
            raise TypeError
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError):
        raise ParamTallyError(f"{index.name}: not a valid index (needs a 'weight_map' object)") from None
    return {str(name): shard for name, shard in weight_map.items()}


def _shards(folder: Path) -> list[Path]:
    weight_map = _weight_map(folder)
    if weight_map is None:
        return sorted(folder.glob("*.safetensors"))
    files = sorted(set(weight_map.values()))
    missing = [name for name in files if not (folder / name).is_file()]
    if missing:
        raise ParamTallyError(f"{INDEX}: names shard(s) not in the folder: {', '.join(missing)}")
    return [folder / name for name in files]


def _safetensors(path: Path, files: list[Path]) -> Checkpoint:
    tensors: list[TensorInfo] = []
    metadata: dict[str, Any] = {}
    for file in files:
        found, meta = read_safetensors_header(file)
        tensors += found
        metadata.update(meta)
    seen = Counter(tensor.name for tensor in tensors)
    twice = sorted(name for name, n in seen.items() if n > 1)
    if twice:
        raise ParamTallyError(f"{path.name}: tensor {twice[0]!r} is stored in more than one shard")
    weight_map = _weight_map(path) if path.is_dir() else None
    absent = sorted(set(weight_map or {}) - seen.keys())
    if absent:
        raise ParamTallyError(f"{INDEX}: lists {absent[0]!r} but no shard holds it")
    return Checkpoint(path, "safetensors", tuple(f.name for f in files), tuple(tensors), metadata)
