"""Checkpoints on disk, read header-only, and compared with a predicted architecture.

A checkpoint is a model folder (``*.safetensors``, sharded with ``model.safetensors.index.json``,
or one ``.gguf``) or a single file. The comparison puts every tensor in a part by its name
(``tensor_parts``) and sets the parameter counts per part and per layer against the calculator's.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paramtally.core.count.breakdown import PARTS
from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError, one_line, shown
from paramtally.core.files.input_files import open_regular
from paramtally.core.io.importers.differing_layers import differing_layers
from paramtally.core.io.importers.gguf_header import config_from_gguf, gguf_words, read_gguf_header
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.importers.model_folder import ModelFolder
from paramtally.core.io.importers.safetensors_header import TensorInfo, read_safetensors_header
from paramtally.core.io.importers.tensor_parts import (
    BUFFER,
    MTP,
    PROJECTOR,
    QUANT,
    UNKNOWN,
    VISION_TOWER,
    layer_of,
    part_of,
)
from paramtally.core.io.model_sources import load_json_source
from paramtally.core.schema import Architecture
from paramtally.core.schema.limits import MAX_NAME_CHARS, MAX_SHARDS, MAX_TENSORS
from paramtally.core.text import one_line_name, say

__all__ = ["Checkpoint", "PartRow", "Verification", "compare", "open_checkpoint", "predicted_from"]

INDEX = "model.safetensors.index.json"
MAX_INDEX_BYTES = 32 * 1024 * 1024  # DeepSeek-V3's index (91k tensors) is 9 MB


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
    layers: tuple[PartRow, ...]  # only layers that differ: "layer N", or "layers N–M" all absent
    unexplained: tuple[TensorInfo, ...]
    buffers: tuple[TensorInfo, ...]
    quantization: tuple[TensorInfo, ...]

    @property
    def matches(self) -> bool:
        return self.predicted_total == self.actual_total and not self.unexplained and not self.layers


def open_checkpoint(path: Path) -> Checkpoint:
    """A model folder (every file read from it must lie inside it) or a file the person named."""
    if os.path.isdir(path):
        folder = ModelFolder(path)
        if folder.has(INDEX) or folder.listed("*.safetensors"):
            return _safetensors_folder(folder)
        ggufs = folder.listed("*.gguf")
        if len(ggufs) > 1:  # quantizations side by side: which one is meant only the person knows
            named = ", ".join(shown(name, 60) for name in ggufs[:3])
            named += ", …" if len(ggufs) > 3 else ""
            raise ParamTallyError(
                say(
                    "{path}: holds {n:,} .gguf files ({named}); name one of them",
                    path=path,
                    n=len(ggufs),
                    named=named,
                )
            )
        if len(ggufs) == 1:
            with folder.open(ggufs[0]) as stream:
                tensors, metadata = read_gguf_header(stream, ggufs[0])
            return Checkpoint(path / ggufs[0], "gguf", (ggufs[0],), tuple(tensors), metadata)
        raise ParamTallyError(
            say("{path}: no *.safetensors (or exactly one .gguf) in this folder", path=path)
        )
    if not os.path.lexists(path):
        raise ParamTallyError(say("{path}: no such file or folder", path=path))
    if path.suffix == ".gguf":
        with open_regular(path) as stream:
            tensors, metadata = read_gguf_header(stream, path.name)
        return Checkpoint(path, "gguf", (path.name,), tuple(tensors), metadata)
    if path.suffix == ".safetensors":
        with open_regular(path) as stream:
            found, meta = read_safetensors_header(stream, path.name, MAX_TENSORS)
        return _checked(path, [path.name], found, meta, None)
    raise ParamTallyError(
        say("{path}: expected a model folder, a .safetensors or a .gguf file", path=path.name)
    )


def predicted_from(checkpoint: Checkpoint) -> Architecture | None:
    """The checkpoint's own prediction: config.json beside it, or GGUF metadata of a mapped family."""
    folder_path = checkpoint.path if os.path.isdir(checkpoint.path) else checkpoint.path.parent
    if checkpoint.format == "safetensors":
        folder = ModelFolder(folder_path)
        if not folder.has("config.json"):
            return None
        # Named as the person gave the folder (a refusal says which folder's config.json it is).
        origin = str(folder_path / "config.json")
        arch = load_json_source(
            folder.member("config.json"), nofollow=True, origin=origin, folder=str(folder_path)
        ).architecture
        generic = arch.name.endswith("(config.json)")
        named = one_line_name(folder.root.name, MAX_NAME_CHARS)  # a folder's name may hold anything
        return arch.model_copy(update={"name": named}) if generic else arch
    mapped = config_from_gguf(checkpoint.metadata, list(checkpoint.tensors))
    if mapped is None:
        return None
    name = checkpoint.metadata.get("general.name")
    origin = say("{file} metadata", file=checkpoint.path.name)
    try:
        arch = import_hf_config(mapped, origin)
    except ParamTallyError as exc:
        raise ParamTallyError(gguf_words(one_line(exc), origin, checkpoint.metadata)) from None
    return (
        arch.model_copy(update={"name": one_line_name(name, MAX_NAME_CHARS)})
        if isinstance(name, str)
        else arch
    )


# Parts outside the layers: a tensor of theirs that sits in a layer (T5's relative position bias
# in block 0) is not counted in that layer's figure.
_OUTSIDE_LAYERS = frozenset({"embeddings", "lm_head", "frontend"})
_VISION_PARTS = {VISION_TOWER: "vision", PROJECTOR: "projector"}


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
        if part in (VISION_TOWER, PROJECTOR):  # the breakdown's parts; the tower's layers are its own
            part, where = _VISION_PARTS[part], None
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
        PartRow(label, predicted_layer, actual_layer)
        for label, predicted_layer, actual_layer in differing_layers(
            report.groups, by_layer, lambda stack, label: _layer_name(arch, stack, label)
        )
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


def _layer_name(arch: Architecture, stack: str, label: str) -> str:
    return f"{stack} {label}" if arch.encoder is not None and arch.decoder is not None else label


def _weight_map(folder: ModelFolder) -> dict[str, str] | None:
    """The sharded index's tensor -> shard map, or None for an unsharded folder."""
    if not folder.has(INDEX):
        return None
    # A key per tensor, and a few for the metadata around the map.
    data = folder.load_json(INDEX, MAX_INDEX_BYTES, max_keys=MAX_TENSORS + 100)
    weight_map = data.get("weight_map") if isinstance(data, dict) else None
    if not isinstance(weight_map, dict) or not all(isinstance(v, str) for v in weight_map.values()):
        raise ParamTallyError(
            say("{index}: not a valid index (needs a 'weight_map' object of file names)", index=INDEX)
        )
    return weight_map


def _absent_file(path: Path) -> bool:
    try:
        path.stat()
    except FileNotFoundError:
        return True
    except OSError:  # a name too long, a loop: opening it says which
        return False
    return False


def _safetensors_folder(folder: ModelFolder) -> Checkpoint:
    weight_map = _weight_map(folder)
    names = sorted(set(weight_map.values())) if weight_map is not None else folder.listed("*.safetensors")
    named_by = INDEX if weight_map is not None else say("the folder")
    if len(names) > MAX_SHARDS:  # each is resolved and opened: refused before the first
        raise ParamTallyError(
            say(
                "{named_by}: names {n:,} shard files, more than the {most:,} read",
                named_by=named_by,
                n=len(names),
                most=MAX_SHARDS,
            )
        )
    files = {name: folder.member(name, INDEX if weight_map is not None else "") for name in names}
    missing = [shown(name, 100) for name, target in files.items() if _absent_file(target)]
    if missing:
        raise ParamTallyError(
            say(
                "{index}: names shard(s) not in the folder: {names}",
                index=INDEX,
                names=", ".join(missing[:5]),
            )
        )
    tensors: list[TensorInfo] = []
    metadata: dict[str, Any] = {}
    for name in names:
        with folder.open(name, INDEX if weight_map is not None else "") as stream:
            found, meta = read_safetensors_header(stream, name, MAX_TENSORS - len(tensors))
        tensors += found
        metadata.update(meta)
    return _checked(folder.path, names, tensors, metadata, weight_map)


def _checked(
    path: Path,
    files: list[str],
    tensors: list[TensorInfo],
    metadata: dict[str, Any],
    weight_map: dict[str, str] | None,
) -> Checkpoint:
    seen = Counter(tensor.name for tensor in tensors)
    twice = sorted(name for name, n in seen.items() if n > 1)
    if twice:
        raise ParamTallyError(
            say(
                "{path}: tensor {tensor} is stored in more than one shard",
                path=path.name,
                tensor=shown(twice[0]),
            )
        )
    absent = sorted(set(weight_map or {}) - seen.keys())
    if absent:
        raise ParamTallyError(
            say("{index}: lists {tensor} but no shard holds it", index=INDEX, tensor=shown(absent[0]))
        )
    return Checkpoint(path, "safetensors", tuple(files), tuple(tensors), metadata)
