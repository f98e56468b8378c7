"""Schema-2 pieces the family modules build architectures from: the model around a decoder stack,
attention mixers, FFNs, per-layer kinds read from ``layer_types`` or a rule, DeepSeek-V3's layout
of dense layers before the experts and its multi-token-prediction modules.

Each returns plain data (a ``Spec``) that ``Architecture.model_validate`` checks; a family module
writes only what its transformers class does differently.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from paramtally.core.errors import shown
from paramtally.core.families.base import Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import MAX_EXPANDED, groups_from_kinds, periodic_groups
from paramtally.core.text import say

__all__ = [
    "CHUNKED_OR_FULL",
    "LINEAR_OR_FULL",
    "SLIDING_OR_FULL",
    "activation",
    "all_biases",
    "attention",
    "changes_from",
    "decoder_model",
    "encoder_decoder_blocks",
    "encoder_model",
    "first_k_dense",
    "gated",
    "global_layers",
    "heads_attention",
    "layer_types",
    "model",
    "moe",
    "mtp_modules",
    "plain_ffn",
]

_BIAS_KEYS = ("q_bias", "k_bias", "v_bias", "o_bias")


def decoder_model(h: int, vocab: int, block: Spec, layers: list[Spec], *, tied: bool, **stack: Any) -> Spec:
    """A decoder-only model of one base block: ``stack`` holds the decoder's own settings
    (positions, max_positions, embedding_norm, final_norm …)."""
    return {
        "hidden_size": h,
        "embeddings": {"vocab_size": vocab},
        "blocks": {"default": block},
        "decoder": {"layers": layers, **stack},
        "head": {"tied": tied},
    }


def encoder_model(h: int, vocab: int, block: Spec, layers: list[Spec], *, tied: bool, **stack: Any) -> Spec:
    """An encoder-only model (BERT and its kin): ``decoder_model`` with its layers in the encoder,
    the bidirectional stack, which keeps no KV cache: it reads its input once and generates nothing."""
    spec = decoder_model(h, vocab, block, layers, tied=tied, **stack)
    spec["encoder"] = spec.pop("decoder")
    return spec


def model(cfg: HFConfig, h: int, block: Spec, layers: list[Spec], *, positions: str = "rope") -> Spec:
    """``decoder_model`` with the keys most families name alike: vocab_size, max_position_embeddings
    (0 where a model has none) and tie_word_embeddings."""
    return decoder_model(
        h,
        cfg.integer("vocab_size"),
        block,
        layers,
        tied=cfg.flag("tie_word_embeddings"),
        positions=positions,
        max_positions=cfg.integer("max_position_embeddings", default=0, minimum=0),
    )


def attention(cfg: HFConfig, h: int, *, bias_key: str | None = "attention_bias", **extra: Any) -> Spec:
    """Attention of num_attention_heads and num_key_value_heads (the query heads where it is
    null); a head_dim that differs from h / a is kept, and h / a floored where a does not divide h."""
    a = cfg.integer("num_attention_heads")
    g = cfg.opt_integer("num_key_value_heads") or a
    head_dim = cfg.opt_integer("head_dim", default=None)
    mixer: Spec = {
        "kind": "attention",
        "num_heads": a,
        "num_kv_heads": cfg.divisor("num_key_value_heads", a, "num_attention_heads", g),
    }
    if head_dim is not None and head_dim * a != h:
        mixer["head_dim"] = head_dim
    elif h % a:
        mixer["head_dim"] = h // a
    mixer.update(all_biases(cfg.flag(bias_key) if bias_key else False))
    return {**mixer, **extra}


def heads_attention(heads: int, head_dim: int | None, q: bool, k: bool, v: bool, o: bool) -> Spec:
    """Attention of ``heads`` query and KV heads (``head_dim`` where it is not h / heads) and
    its four biases, as the encoder-decoders name them."""
    mixer: Spec = {
        "kind": "attention",
        "num_heads": heads,
        "q_bias": q,
        "k_bias": k,
        "v_bias": v,
        "o_bias": o,
    }
    if head_dim is not None:
        mixer["head_dim"] = head_dim
    return mixer


def encoder_decoder_blocks(
    encoder: Spec, decoder: Spec, cross: Spec, norms: Spec, cross_norms: int
) -> dict[str, Spec]:
    """The encoder block and the decoder block (its self-attention, cross-attention and FFN)."""
    return {
        "encoder": {**encoder, "norms": norms},
        "decoder": {**decoder, "cross_attention": cross, "norms": {**norms, "count": cross_norms}},
    }


def all_biases(on: bool) -> Spec:
    return dict.fromkeys(_BIAS_KEYS, on)


def gated(width: int, bias: bool = False, activation: str = "silu") -> Spec:
    return {"kind": "dense", "width": width, "gated": True, "bias": bias, "activation": activation}


def plain_ffn(width: int, activation: str, bias: bool = True) -> Spec:
    """A two-matrix FFN (GPT-2's MLP): up, the activation, down."""
    return {"kind": "dense", "width": width, "gated": False, "bias": bias, "activation": activation}


def moe(experts: int, top_k: int, width: int, **extra: Any) -> Spec:
    return {"kind": "moe", "num_experts": experts, "top_k": top_k, "expert_width": width, **extra}


def first_k_dense(cfg: HFConfig, experts: Spec, key: str = "first_k_dense_replace") -> list[Spec]:
    """The first ``key`` layers dense (the base block's FFN), the rest ``experts`` (DeepSeek-V3,
    GLM-4.5 and their descendants; a count past the layers makes every layer dense)."""
    n = cfg.integer("num_hidden_layers")
    k = min(cfg.integer(key, minimum=0), n)
    groups = ({"count": k}, {"count": n - k, "override": {"ffn": experts}})
    return [group for group in groups if group["count"]]


def mtp_modules(cfg: HFConfig, experts: Spec, key: str = "num_nextn_predict_layers") -> Spec | None:
    """The checkpoint's ``key`` multi-token-prediction modules, each a layer of ``experts``
    (``schema.MTP``; transformers builds none, so they are counted apart), or None."""
    predict = cfg.integer(key, minimum=0, default=0)
    return {"count": predict, "override": {"ffn": experts}} if predict else None


def activation(cfg: HFConfig, key: str = "hidden_act") -> str:
    return cfg.text(key, "silu")


def changes_from(table: Mapping[Any, Spec]) -> Callable[[Any], Spec]:
    """A layer kind → its override, from a table (a kind it lacks: no change)."""
    return lambda kind: table.get(kind, {})


# The layer types a family's transformers model runs, by the name a file may give them: those its
# causal_mask_mapping holds (Qwen3NextModel, GraniteMoeHybridModel: full and linear attention;
# GptOssModel, Cohere2Model, Gemma3TextModel: full and sliding), and the older names the config
# maps onto them (configuration_utils._LEGACY_LAYER_TYPE_REMAP). The config class accepts any of
# ALLOWED_ATTN_LAYER_TYPES, but a model with another type fails on its first forward (a KeyError
# in that mapping; Gemma 3 already when built), and a name outside that list is refused.
LINEAR_OR_FULL = {
    "full_attention": "full_attention",
    "linear_attention": "linear_attention",
    "attention": "full_attention",
    "mamba": "linear_attention",
}
CHUNKED_OR_FULL = {
    "full_attention": "full_attention",
    "chunked_attention": "chunked_attention",
    "attention": "full_attention",
}
SLIDING_OR_FULL = {
    "full_attention": "full_attention",
    "sliding_attention": "sliding_attention",
    "attention": "full_attention",
}


def layer_types(cfg: HFConfig, n: int, default: str, known: Mapping[str, str]) -> list[str]:
    """``layer_types`` by the names of ``known`` (the file's older names mapped onto them); a
    type the family's model cannot run is refused, naming the layer."""
    types = cfg.raw("layer_types", None)
    if n > MAX_EXPANDED:  # a per-layer list is written out layer by layer
        raise cfg.fail(
            "num_hidden_layers",
            say("({n:,}) is more layers than a layer list may hold ({most:,})", n=n, most=MAX_EXPANDED),
        )
    if types is None:
        return [default] * n
    if not isinstance(types, list) or len(types) != n or not all(isinstance(t, str) for t in types):
        raise cfg.fail("layer_types", say("must be a list of {n} layer-type names", n=n))
    for index, kind in enumerate(types):
        if kind not in known:
            names = sorted(set(known.values()))
            older = sorted(set(known) - set(names))
            said = _either(names)
            if older:
                said = say("{types} (or the older {older})", types=said, older=", ".join(older))
            reason = say(
                "is {kind}; a {model_type} layer is {said}",
                kind=shown(kind, 40),
                model_type=cfg.model_type,
                said=said,
            )
            raise cfg.fail(f"layer_types[{index}]", reason)
    return [known[kind] for kind in types]


def global_layers(cfg: HFConfig, n: int, every: int, changes: Callable[[Hashable], Spec]) -> list[Spec]:
    """Groups of sliding and global layers: as ``layer_types`` lists them, else every
    ``every``-th layer global (kinds: True for a global layer)."""
    if cfg.has("layer_types"):
        types = layer_types(cfg, n, "sliding_attention", SLIDING_OR_FULL)
        return groups_from_kinds([t == "full_attention" for t in types], changes)
    return periodic_groups(n, every, lambda i: (i + 1) % every == 0, changes)


def _either(names: list[str]) -> str:
    """'a or b or c': names (ids, kept as they are) joined by a translatable 'or'."""
    said: str = names[-1]
    for name in reversed(names[:-1]):
        said = say("{one} or {other}", one=name, other=said)
    return said
