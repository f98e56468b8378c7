"""A published Hugging Face ``config.json`` becomes an ``Architecture``, counted exactly.

Each supported ``model_type`` belongs to one family module (``core/families/``) that reads the keys
its transformers class reads (with that class's defaults for keys the file leaves out) and
builds a schema-2 architecture. Shapes follow the in-library ``*ForCausalLM`` classes of
transformers 5 (BERT: ``BertForMaskedLM``, or ``BertModel`` when ``architectures`` says so). An
alias (``kimi_k2``) imports as the type it is and says so; any other type is refused in one line
naming the nearest supported ones, never guessed.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from pathlib import PurePath
from types import MappingProxyType
from typing import Any

from pydantic import ValidationError

from paramtally.core import families
from paramtally.core.errors import (
    FieldPath,
    ParamTallyError,
    ParamTallyWarning,
    field_problems,
    one_line,
    shown,
)
from paramtally.core.families.base import ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig, display_name
from paramtally.core.families.layer_pattern import LayerRuleError
from paramtally.core.schema import Architecture
from paramtally.core.schema.limits import MAX_NAME_CHARS
from paramtally.core.text import one_line_name, say

__all__ = ["SUPPORTED_MODEL_TYPES", "hf_dtype", "import_hf_config", "import_hf_config_keyed", "unsupported"]

SUPPORTED_MODEL_TYPES: tuple[str, ...] = families.supported_model_types()
MAX_REFUSAL_CHARS = 300  # an unknown model_type's refusal: one short line


def import_hf_config(data: Mapping[str, Any], origin: str) -> Architecture:
    """The architecture of ``data`` (a decoded config.json); every error names ``origin`` and the key."""
    return import_hf_config_keyed(data, origin)[0]


def import_hf_config_keyed(
    data: Mapping[str, Any], origin: str, *, folder: str | None = None
) -> tuple[Architecture, dict[FieldPath, str]]:
    """``import_hf_config``, and which key of the file each field's value came from (a field path
    → the key, where one key the importer read holds that value). ``folder``: the checkpoint
    folder the person gave, if they gave one (its refusals advise what fits it)."""
    if not isinstance(data, Mapping):
        raise ParamTallyError(_at(origin, say("a config.json must be a JSON object")))
    named = data.get("model_type")
    kind = families.find(named) if isinstance(named, str) else None
    if kind is None:
        raise ParamTallyError(unsupported(data, origin, folder))
    if kind.name != named:
        warnings.warn(
            _at(
                origin,
                say(
                    "model_type {named} is read as {kind}, the same architecture",
                    named=shown(named, 40),
                    kind=kind.name,
                ),
            ),
            ParamTallyWarning,
            stacklevel=2,
        )
    data = _with_layer_types_checked(data, kind, origin)
    cfg = HFConfig(data, kind.name, origin, kind.defaults)
    try:
        spec = kind.build(cfg)
    except LayerRuleError as exc:
        raise ParamTallyError(_at(origin, one_line(exc))) from None
    # The name and description come from the file's text and its path: made names a model may carry.
    spec.setdefault("name", one_line_name(display_name(data, origin), MAX_NAME_CHARS))
    source = one_line_name(PurePath(origin).name, MAX_NAME_CHARS)
    read_as = f", read as {kind.name}" if kind.name != named else ""
    spec.setdefault("description", f"Imported from {source} (Hugging Face model_type '{named}'{read_as}).")
    spec["family"] = kind.name
    dropout = _dropout(cfg, kind)
    if dropout:
        spec["dropout"] = dropout
    try:
        arch = Architecture.model_validate(spec)
    except ValidationError as exc:
        raise ParamTallyError(_at(origin, _in_the_files_words(exc, cfg))) from None
    for key, meant, reader in cfg.misspelt():
        warnings.warn(
            _at(
                origin,
                say(
                    "{key} is no key {kind} reads; counted with the default of {meant} (misspelt?)",
                    key=shown(key, 60),
                    kind=reader,
                    meant=meant,
                ),
            ),
            ParamTallyWarning,
            stacklevel=2,
        )
    return arch, _file_keys(arch, cfg)


def _file_keys(arch: Architecture, cfg: HFConfig) -> dict[FieldPath, str]:
    keys: dict[FieldPath, str] = {}
    pending: list[tuple[FieldPath, Any]] = [((), arch.model_dump())]
    while pending:
        path, value = pending.pop()
        if isinstance(value, dict):
            pending += [((*path, name), child) for name, child in value.items()]
        elif isinstance(value, list):
            pending += [((*path, index), child) for index, child in enumerate(value)]
        elif isinstance(value, int) and not isinstance(value, bool) and (key := _key_of(cfg, path, value)):
            keys[path] = key
    return keys


def _key_of(cfg: HFConfig, path: FieldPath, value: Any) -> str | None:
    """The one key the importer read from the file that holds ``value`` (the field ``path``'s)."""
    keys = [key for key in sorted(cfg.used) if _same(cfg.data.get(key), value)]
    if len(keys) > 1:  # two keys of one value (12 heads, 12 layers): the one named like the field
        leaf = str(path[-1]) if path else ""
        keys = [key for key in keys if leaf and (leaf in key or key in leaf)]
    return keys[0] if len(keys) == 1 else None


def _in_the_files_words(exc: ValidationError, cfg: HFConfig) -> str:
    """The refusal, naming the file's key where one key the importer read holds the refused value
    ('d_model: must be at most 16,777,216', not 'hidden_size: …'); our field's path otherwise."""
    problems = field_problems(exc)
    if not problems:
        return one_line(exc)
    path, reason = problems[0]
    key = _key_of(cfg, path, exc.errors(include_url=False)[0].get("input"))
    if len(problems) > 1:
        reason = say("{reason} (and {more} more)", reason=reason, more=len(problems) - 1)
    return say("{path}: {reason}", path=key, reason=reason) if key else one_line(exc)


def _same(read: Any, refused: Any) -> bool:
    """Whether a value read from the file is the value refused (True is not 1 here)."""
    return type(read) is type(refused) and read == refused and not isinstance(read, dict | list)


def _with_layer_types_checked(data: Mapping[str, Any], kind: ModelType, origin: str) -> Mapping[str, Any]:
    """``data`` whose ``layer_types`` the family's config class would take: none where it derives
    them, else a list of known names (``ALLOWED_LAYER_TYPES``, older names mapped onto them) of one
    entry per layer. A family's older name for the key (Granite's ``layers_block_type``) is read
    as it."""
    for key in kind.derived_layer_types:
        if key in data:
            raise ParamTallyError(
                _at(
                    origin,
                    say(
                        "{key} is not set in a {kind} config.json: the config derives it "
                        "from the layer periods and indexes (transformers refuses a file that sets it)",
                        key=key,
                        kind=kind.name,
                    ),
                )
            )
    for older, key in kind.renamed_keys.items():
        if key not in data and older in data:
            data = {**data, key: data[older]}
    types = data.get("layer_types")
    if types is None:
        return data
    if not isinstance(types, list) or not all(isinstance(name, str) for name in types):
        raise ParamTallyError(
            _at(origin, say("layer_types must be a list of layer-type names (got {got})", got=shown(types)))
        )
    for index, name in enumerate(types):
        if name not in ALLOWED_LAYER_TYPES and name not in LEGACY_LAYER_TYPES:
            raise ParamTallyError(
                _at(
                    origin,
                    say(
                        "layer_types[{index}] is {name}, not a layer type transformers knows "
                        "(e.g. full_attention, sliding_attention, linear_attention, chunked_attention)",
                        index=index,
                        name=shown(name, 40),
                    ),
                )
            )
    keys = ("num_hidden_layers", "n_layer", "num_layers")
    layers = next((one[key] for one in (data, kind.defaults) for key in keys if key in one), None)
    if isinstance(layers, int) and not isinstance(layers, bool) and layers != len(types):
        raise ParamTallyError(
            _at(
                origin,
                say(
                    "layer_types lists {n:,} layers, num_hidden_layers says {layers:,}",
                    n=len(types),
                    layers=layers,
                ),
            )
        )
    return {**data, "layer_types": [LEGACY_LAYER_TYPES.get(name, name) for name in types]}


# The layer types a config class accepts in ``layer_types`` (transformers 5.24,
# configuration_utils.ALLOWED_ATTN_LAYER_TYPES, checked by PreTrainedConfig.validate_layer_type),
# and the older names it maps onto them first (_LEGACY_LAYER_TYPE_REMAP).
ALLOWED_LAYER_TYPES = frozenset(
    {
        "full_attention", "sliding_attention", "chunked_attention", "window_attention", "indexed_attention",
        "compressed_sparse_attention", "heavily_compressed_attention", "minimax_m3_sparse", "conv", "moe",
        "hybrid", "hybrid_sliding", "reference_sliding_attention", "linear_attention",
    }
)  # fmt: skip
LEGACY_LAYER_TYPES: Mapping[str, str] = MappingProxyType(
    {
        "mamba": "linear_attention",
        "attention": "full_attention",
        "deepseek_sparse_attention": "indexed_attention",
        "qwen_sparse_attention": "indexed_attention",
    }
)


def hf_dtype(data: Mapping[str, Any]) -> str | None:
    """The checkpoint dtype a config names: ``dtype`` (newer files) or ``torch_dtype`` (older)."""
    value = data.get("dtype", data.get("torch_dtype"))
    return value if isinstance(value, str) else None


def _dropout(cfg: HFConfig, kind: ModelType) -> Spec:
    """The non-zero dropout probabilities the family's modules apply (class defaults included)."""
    found: Spec = {}
    for field, key in zip(("attention", "hidden"), kind.dropout, strict=True):
        if key is not None and (value := cfg.number(key, default=0.0)):
            found[field] = value
    return found


def unsupported(data: Mapping[str, Any], origin: str, folder: str | None = None) -> str:
    """The refusal of a model_type no family reads: one line of at most ``MAX_REFUSAL_CHARS``
    naming it, the three nearest supported types (by the keys that shape parameters, a wrapper's
    ``text_config`` included, then by name) and what to do instead. ``folder``: the checkpoint
    folder the person gave, whose weights ``paramtally count`` counts (a bare config.json: the
    advice is to give its folder)."""
    model_type = data.get("model_type")
    text = data.get("text_config")
    inner = text if isinstance(text, Mapping) else {}
    near = families.nearest((model_type, inner.get("model_type")), set(data) | set(inner))
    fields: dict[str, Any] = {"model_type": shown(model_type, 40), "near": ", ".join(near)}
    if preset := _preset_of(near):
        fields["preset"] = preset
    what = _unsupported_advice(fields, folder)
    room = MAX_REFUSAL_CHARS - len(what) - 2
    where = origin if len(origin) <= room else "…" + origin[-(room - 1) :]
    return _at(where, what)


_FOLDER_SHOWN_CHARS = 80  # the folder in the advice: the refusal stays one short line


def _unsupported_advice(fields: dict[str, Any], folder: str | None) -> str:
    """What an unsupported model_type's refusal says: a similar preset to edit, and how the
    checkpoint's weights are counted — by giving its folder, or (a folder given) by ``count``."""
    if folder is not None:
        shown_folder = (
            folder if len(folder) <= _FOLDER_SHOWN_CHARS else "…" + folder[-(_FOLDER_SHOWN_CHARS - 1) :]
        )
        if "preset" in fields:
            return say(
                "model_type {model_type} is not supported (nearest: {near}); open a similar preset "
                "({preset}) and edit it; `paramtally count {folder}` counts the folder's stored weights",
                folder=shown_folder,
                **fields,
            )
        return say(
            "model_type {model_type} is not supported (nearest: {near}); open a similar preset "
            "and edit it; `paramtally count {folder}` counts the folder's stored weights",
            folder=shown_folder,
            **fields,
        )
    if "preset" in fields:
        return say(
            "model_type {model_type} is not supported (nearest: {near}); open a similar preset ({preset}) "
            "and edit it, or give the checkpoint folder to count its weights",
            **fields,
        )
    return say(
        "model_type {model_type} is not supported (nearest: {near}); open a similar preset "
        "and edit it, or give the checkpoint folder to count its weights",
        **fields,
    )


def _at(origin: str, reason: str) -> str:
    """A refusal naming the file (or the place in it) it is about: 'config.json: …'."""
    return say("{path}: {reason}", path=origin, reason=reason)


def _preset_of(model_types: list[str]) -> str | None:
    """A built-in preset of the first of ``model_types`` that has one (read only on a refusal)."""
    from paramtally.core.files.input_files import load_json_file
    from paramtally.core.io.presets import BUILTIN_DIR, MAX_PRESET_BYTES, builtin_ids

    by_family: dict[str, str] = {}
    for preset_id in builtin_ids():
        data = load_json_file(BUILTIN_DIR / f"{preset_id}.json", MAX_PRESET_BYTES)
        family = data.get("family") if isinstance(data, dict) else None
        if isinstance(family, str):
            by_family.setdefault(family, preset_id)
    return next((by_family[kind] for kind in model_types if kind in by_family), None)
