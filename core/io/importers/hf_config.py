"""A published Hugging Face ``config.json`` becomes an ``Architecture``, counted exactly.

Each supported ``model_type`` has one small builder that reads the keys its transformers class
reads (with that class's defaults for keys the file leaves out, see ``hf_defaults``) and fills
the one schema. Shapes follow the in-library ``*ForCausalLM`` classes of transformers 5
(BERT: ``BertForMaskedLM``, or ``BertModel`` when ``architectures`` says so). Anything else is
refused with the fields that were understood and those that were not, never guessed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import PurePath
from typing import Any

from pydantic import ValidationError

from paramtally.core.errors import FieldPath, ParamTallyError, field_problems, one_line, shown
from paramtally.core.io.importers.hf_defaults import (
    ALLOWED_LAYER_TYPES,
    DEFAULTS,
    DERIVED_LAYER_TYPES,
    LEGACY_LAYER_TYPES,
    SUPPORTED_MODEL_TYPES,
)
from paramtally.core.io.importers.hf_hybrid import HYBRID_BUILDERS
from paramtally.core.io.importers.hf_llama import deepseek, llama_like
from paramtally.core.io.importers.hf_reader import HFConfig
from paramtally.core.io.importers.hf_seq2seq import SEQ2SEQ_BUILDERS
from paramtally.core.io.importers.layer_pattern import LayerRuleError
from paramtally.core.io.migrations import migrate
from paramtally.core.schema import Architecture
from paramtally.core.schema.limits import MAX_NAME_CHARS
from paramtally.core.text import one_line_name

__all__ = ["SUPPORTED_MODEL_TYPES", "hf_dtype", "import_hf_config", "import_hf_config_keyed"]

Spec = dict[str, Any]


def import_hf_config(data: Mapping[str, Any], origin: str) -> Architecture:
    """The architecture of ``data`` (a decoded config.json); every error names ``origin`` and the key."""
    return import_hf_config_keyed(data, origin)[0]


def import_hf_config_keyed(data: Mapping[str, Any], origin: str) -> tuple[Architecture, dict[FieldPath, str]]:
    """``import_hf_config``, and which key of the file each field's value came from (a field path
    → the key, where one key the importer read holds that value)."""
    if not isinstance(data, Mapping):
        raise ParamTallyError(f"{origin}: a config.json must be a JSON object")
    model_type = data.get("model_type")
    if not isinstance(model_type, str) or model_type not in _BUILDERS:
        raise ParamTallyError(_unsupported(data, origin))
    data = _with_layer_types_checked(data, str(model_type), origin)
    cfg = HFConfig(data, str(model_type), origin)
    try:
        spec = _BUILDERS[str(model_type)](cfg)
    except LayerRuleError as exc:
        raise ParamTallyError(f"{origin}: {exc}") from None
    # The name and description come from the file's text and its path: made names a model may carry.
    spec.setdefault("name", one_line_name(_display_name(data, origin), MAX_NAME_CHARS))
    source = one_line_name(PurePath(origin).name, MAX_NAME_CHARS)
    imported = f"Imported from {source} (Hugging Face model_type '{model_type}')."
    spec.setdefault("description", imported)
    spec["family"] = model_type
    if "blocks" not in spec:
        # Uniform decoder-only families are described by one global block (the layout of schema
        # version 1); the schema's own migration lifts that into a base block and a decoder stack.
        spec = migrate({**spec, "schema_version": 1}, origin)
    dropout = _dropout(cfg)
    if dropout:
        spec["dropout"] = dropout
    try:
        arch = Architecture.model_validate(spec)
    except ValidationError as exc:
        raise ParamTallyError(f"{origin}: {_in_the_files_words(exc, cfg)}") from None
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
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return f"{key}: {reason}{more}" if key else one_line(exc)


def _same(read: Any, refused: Any) -> bool:
    """Whether a value read from the file is the value refused (True is not 1 here)."""
    return type(read) is type(refused) and read == refused and not isinstance(read, dict | list)


def _with_layer_types_checked(data: Mapping[str, Any], model_type: str, origin: str) -> Mapping[str, Any]:
    """``data`` whose ``layer_types`` the family's config class would take: none where it derives
    them, else a list of known names (``hf_defaults.ALLOWED_LAYER_TYPES``, older names mapped
    onto them) of one entry per layer. Granite's ``layers_block_type`` is its other name."""
    for key in DERIVED_LAYER_TYPES.get(model_type, ()):
        if key in data:
            raise ParamTallyError(
                f"{origin}: {key} is not set in a {model_type} config.json: the config derives it "
                "from the layer periods and indexes (transformers refuses a file that sets it)"
            )
    if model_type == "granitemoehybrid" and "layer_types" not in data and "layers_block_type" in data:
        data = {**data, "layer_types": data["layers_block_type"]}
    types = data.get("layer_types")
    if types is None:
        return data
    if not isinstance(types, list) or not all(isinstance(kind, str) for kind in types):
        raise ParamTallyError(
            f"{origin}: layer_types must be a list of layer-type names (got {shown(types)})"
        )
    for index, kind in enumerate(types):
        if kind not in ALLOWED_LAYER_TYPES and kind not in LEGACY_LAYER_TYPES:
            raise ParamTallyError(
                f"{origin}: layer_types[{index}] is {shown(kind, 40)}, not a layer type transformers knows "
                f"(e.g. full_attention, sliding_attention, linear_attention, chunked_attention)"
            )
    keys = ("num_hidden_layers", "n_layer", "num_layers")
    layers = next((one[key] for one in (data, DEFAULTS[model_type]) for key in keys if key in one), None)
    if isinstance(layers, int) and not isinstance(layers, bool) and layers != len(types):
        raise ParamTallyError(
            f"{origin}: layer_types lists {len(types):,} layers, num_hidden_layers says {layers:,}"
        )
    return {**data, "layer_types": [LEGACY_LAYER_TYPES.get(kind, kind) for kind in types]}


def hf_dtype(data: Mapping[str, Any]) -> str | None:
    """The checkpoint dtype a config names: ``dtype`` (newer files) or ``torch_dtype`` (older)."""
    value = data.get("dtype", data.get("torch_dtype"))
    return value if isinstance(value, str) else None


# The keys each family's transformers modules read for (attention-probability dropout, dropout on
# the attention and FFN outputs before the residual add); the Llama-style families have no
# residual dropout at all, and the Mamba families no dropout.
_DROPOUT_KEYS: dict[str, tuple[str | None, str | None]] = {
    "gpt2": ("attn_pdrop", "resid_pdrop"),
    "opt": ("attention_dropout", "dropout"),
    **dict.fromkeys(("bloom", "falcon", "gpt_neox"), ("attention_dropout", "hidden_dropout")),
    **dict.fromkeys(("phi", "phi3"), ("attention_dropout", "resid_pdrop")),
    "bert": ("attention_probs_dropout_prob", "hidden_dropout_prob"),
    **dict.fromkeys(("t5", "mt5"), ("dropout_rate", "dropout_rate")),
    **dict.fromkeys(("bart", "whisper"), ("attention_dropout", "dropout")),
    **dict.fromkeys(("mamba", "mamba2"), (None, None)),
}


def _dropout(cfg: HFConfig) -> Spec:
    """The non-zero dropout probabilities the family's modules apply (class defaults included)."""
    keys = _DROPOUT_KEYS.get(cfg.model_type, ("attention_dropout", None))
    found: Spec = {}
    for field, key in zip(("attention", "hidden"), keys, strict=True):
        if key is not None and (value := cfg.number(key, default=0.0)):
            found[field] = value
    return found


# --- families --------------------------------------------------------------------------------


def _gpt2(cfg: HFConfig) -> Spec:
    if cfg.flag("add_cross_attention"):
        raise cfg.fail("add_cross_attention", "is true: cross-attention blocks are not supported")
    h = cfg.integer("n_embd")
    biases = dict.fromkeys(("q_bias", "k_bias", "v_bias", "o_bias"), True)
    return {
        "hidden_size": h,
        "embeddings": _learned(cfg, cfg.integer("n_positions")),
        "attention": {"num_heads": cfg.divisor("n_head", h, "n_embd"), **biases},
        "ffn": _plain_ffn(cfg.opt_integer("n_inner") or 4 * h, cfg.text("activation_function")),
        "norms": {"kind": "layernorm"},
        "head": {"tied": cfg.flag("tie_word_embeddings")},
        "layers": [{"count": cfg.integer("n_layer")}],
    }


def _opt(cfg: HFConfig) -> Spec:
    h = cfg.integer("hidden_size")
    word_dim = cfg.opt_integer("word_embed_proj_dim") or h
    bias = cfg.flag("enable_bias")
    affine = cfg.flag("layer_norm_elementwise_affine")
    final = cfg.flag("do_layer_norm_before") and not cfg.flag("_remove_final_layer_norm")
    embeddings = {**_learned(cfg, cfg.integer("max_position_embeddings")), "position_offset": 2}
    if word_dim != h:
        embeddings["embed_dim"] = word_dim
    return {
        "hidden_size": h,
        "embeddings": embeddings,
        "attention": {"num_heads": cfg.divisor("num_attention_heads", h, "hidden_size"), **_all_biases(bias)},
        "ffn": _plain_ffn(cfg.integer("ffn_dim"), cfg.text("activation_function"), bias),
        # LayerNorms without elementwise affine hold no parameters at all.
        "norms": {"kind": "layernorm", "per_block": 2 if affine else 0, "final": final and affine},
        "head": {"tied": cfg.flag("tie_word_embeddings")},
        "layers": [{"count": cfg.integer("num_hidden_layers")}],
    }


def _phi(cfg: HFConfig) -> Spec:
    h, a = cfg.integer("hidden_size"), cfg.integer("num_attention_heads")
    spec = llama_like(cfg, biases=_all_biases(True), mlp_bias=True)
    head_dim = spec["attention"].get("head_dim")
    if cfg.flag("qk_layernorm"):
        if head_dim not in (None, h // a):
            raise cfg.fail(
                "head_dim",
                "differs from hidden_size / heads while qk_layernorm is on: "
                "Phi's q/k LayerNorms are h/a wide, which the schema cannot express",
            )
        spec["attention"]["qk_norm"] = True
    spec["ffn"] = {**_plain_ffn(cfg.integer("intermediate_size"), cfg.text("hidden_act")), "bias": True}
    spec["norms"] = {"kind": "layernorm", "per_block": 1}
    spec["head"]["bias"] = True
    return spec


def _falcon(cfg: HFConfig) -> Spec:
    h = cfg.integer("hidden_size")
    a = cfg.divisor("num_attention_heads", h, "hidden_size")
    new_arch = cfg.flag("new_decoder_architecture")
    if new_arch:
        kv = cfg.divisor("num_kv_heads", a, "num_attention_heads", cfg.opt_integer("num_kv_heads") or a)
    else:
        kv = 1 if cfg.flag("multi_query") else a
    norms_in_parallel = cfg.opt_integer("num_ln_in_parallel_attn") or (2 if new_arch else 1)
    per_block = 2 if not cfg.flag("parallel_attn") or norms_in_parallel == 2 else 1
    bias = cfg.flag("bias")
    return {
        "hidden_size": h,
        "embeddings": {
            "vocab_size": cfg.integer("vocab_size"),
            "position": "alibi" if cfg.flag("alibi") else "rope",
            "max_positions": cfg.integer("max_position_embeddings"),
        },
        "attention": {"num_heads": a, "num_kv_heads": kv, **_all_biases(bias)},
        "ffn": _plain_ffn(cfg.opt_integer("ffn_hidden_size") or 4 * h, cfg.text("activation"), bias),
        "norms": {"kind": "layernorm", "per_block": per_block},
        "head": {"tied": cfg.flag("tie_word_embeddings")},
        "layers": [{"count": cfg.integer("num_hidden_layers")}],
    }


def _bloom(cfg: HFConfig) -> Spec:
    h = cfg.integer("hidden_size")
    return {
        "hidden_size": h,
        "embeddings": {"vocab_size": cfg.integer("vocab_size"), "position": "alibi", "norm": True},
        "attention": {"num_heads": cfg.divisor("n_head", h, "hidden_size"), **_all_biases(True)},
        "ffn": _plain_ffn(4 * h, "gelu"),
        "norms": {"kind": "layernorm"},
        "head": {"tied": cfg.flag("tie_word_embeddings")},
        "layers": [{"count": cfg.integer("n_layer")}],
    }


def _gpt_neox(cfg: HFConfig) -> Spec:
    fraction = cfg.rope("partial_rotary_factor")
    if fraction is None:
        fraction = cfg.number("rotary_pct")
    fraction = cfg.as_number("partial_rotary_factor", fraction)
    h = cfg.integer("hidden_size")
    return {
        "hidden_size": h,
        "embeddings": {
            "vocab_size": cfg.integer("vocab_size"),
            "max_positions": cfg.integer("max_position_embeddings"),
        },
        "attention": {
            "num_heads": cfg.divisor("num_attention_heads", h, "hidden_size"),
            "rotary_fraction": fraction,
            **_all_biases(cfg.flag("attention_bias")),
        },
        "ffn": _plain_ffn(cfg.integer("intermediate_size"), cfg.text("hidden_act")),
        "norms": {"kind": "layernorm"},
        "head": {"tied": cfg.flag("tie_word_embeddings")},
        "layers": [{"count": cfg.integer("num_hidden_layers")}],
    }


def _bert(cfg: HFConfig) -> Spec:
    classes = cfg.raw("architectures", None) or ["BertForMaskedLM"]
    names = isinstance(classes, list) and all(isinstance(name, str) for name in classes)
    if not names or not {"BertForMaskedLM", "BertModel"} & set(classes):
        raise cfg.fail("architectures", f"names {shown(classes)}; supported: BertForMaskedLM, BertModel")
    if cfg.flag("is_decoder") or cfg.flag("add_cross_attention"):
        raise cfg.fail("is_decoder", "is true: BERT as a decoder is not supported")
    masked_lm = "BertForMaskedLM" in classes
    h = cfg.integer("hidden_size")
    tied = cfg.flag("tie_word_embeddings")
    # transformers 5 ties decoder.bias to the head's bias only together with the weights.
    head = {"tied": tied, "bias": True, "decoder_bias": not tied, "transform": True}
    return {
        "name": _display_name(cfg.data, cfg.origin) + ("" if masked_lm else " (BertModel)"),
        "hidden_size": h,
        "embeddings": {
            **_learned(cfg, cfg.integer("max_position_embeddings")),
            "token_types": cfg.integer("type_vocab_size"),
            "norm": True,
        },
        "attention": {"num_heads": cfg.divisor("num_attention_heads", h, "hidden_size"), **_all_biases(True)},
        "ffn": _plain_ffn(cfg.integer("intermediate_size"), cfg.text("hidden_act")),
        "norms": {"kind": "layernorm", "final": False},
        "head": head if masked_lm else {"present": False, "pooler": True},
        "layers": [{"count": cfg.integer("num_hidden_layers")}],
    }


# --- shared pieces ---------------------------------------------------------------------------


def _learned(cfg: HFConfig, positions: int) -> Spec:
    return {"vocab_size": cfg.integer("vocab_size"), "position": "learned", "max_positions": positions}


def _plain_ffn(width: int, activation: str, bias: bool = True) -> Spec:
    return {"width": width, "gated": False, "bias": bias, "activation": activation}


def _all_biases(on: bool) -> Spec:
    return dict.fromkeys(("q_bias", "k_bias", "v_bias", "o_bias"), on)


def _display_name(data: Mapping[str, Any], origin: str) -> str:
    named = data.get("_name_or_path")
    if isinstance(named, str) and named.strip():
        return PurePath(named).name
    file = PurePath(origin)  # a name, not where the file was read: the same wherever it is kept
    return f"{data.get('model_type')} ({file.name})" if file.stem == "config" else file.stem


def _unsupported(data: Mapping[str, Any], origin: str) -> str:
    model_type = data.get("model_type")
    known = {key for values in (_COMMON_KEYS,) for key in values}
    understood = sorted(key for key in data if key in known)
    other = sorted(key for key in data if key not in known and key != "model_type")
    return (
        f"{origin}: model_type {shown(model_type)} is not supported "
        f"(supported: {', '.join(SUPPORTED_MODEL_TYPES)}). "
        f"Understood: {', '.join(understood) or 'none'}; not understood: {_short(other)}"
    )


def _short(keys: list[str], limit: int = 12) -> str:
    shown = ", ".join(keys[:limit]) or "none"
    return shown + (f" (+{len(keys) - limit} more)" if len(keys) > limit else "")


# Keys with one meaning across families; an unknown family's other keys are not guessed at.
_COMMON_KEYS = (
    "vocab_size", "hidden_size", "n_embd", "num_hidden_layers", "n_layer", "num_attention_heads",
    "n_head", "num_key_value_heads", "head_dim", "intermediate_size", "max_position_embeddings",
    "n_positions", "tie_word_embeddings", "hidden_act", "rope_theta", "rope_scaling",
    "rope_parameters", "torch_dtype", "dtype", "architectures", "transformers_version",
    "bos_token_id", "eos_token_id", "pad_token_id", "rms_norm_eps", "layer_norm_eps",
    "initializer_range", "use_cache", "attention_dropout",
)  # fmt: skip

_BUILDERS: dict[str, Callable[[HFConfig], Spec]] = {
    "gpt2": _gpt2,
    "opt": _opt,
    "phi": _phi,
    "falcon": _falcon,
    "bloom": _bloom,
    "gpt_neox": _gpt_neox,
    "bert": _bert,
    **dict.fromkeys(
        (
            "llama",
            "mistral",
            "mixtral",
            "qwen2",
            "qwen2_moe",
            "qwen3",
            "qwen3_moe",
            "gemma",
            "gemma2",
            "phi3",
        ),
        llama_like,
    ),
    **dict.fromkeys(("deepseek_v2", "deepseek_v3"), deepseek),
    **HYBRID_BUILDERS,
    **SEQ2SEQ_BUILDERS,
}
assert set(_BUILDERS) == set(SUPPORTED_MODEL_TYPES)
