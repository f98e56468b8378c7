"""Llama (``LlamaForCausalLM``), and the Llama-shaped builder its descendants share.

A Llama layer: RMSNorm, attention (q/k/v/o, RoPE), RMSNorm, a gated MLP (gate, up, down). Mistral,
Mixtral, Qwen2/3 (dense and MoE), Gemma 1/2, Phi-3 and most dense decoders since differ only in
bias flags, q/k norms and what they span, the norms' kind and number per block, a plain MLP for
the gated one, where the head width comes from, the sliding-window rule, the activation's key and
which layers hold experts: a ``LlamaShape`` says which, and ``llama_shaped`` builds the schema-2
architecture from it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import periodic_groups
from paramtally.core.families.pieces import activation, changes_from, decoder_model
from paramtally.core.text import say

__all__ = ["FAMILY", "LLAMA_DEFAULTS", "Layers", "LlamaShape", "Window", "llama_shaped"]

_BIAS_KEYS = ("q_bias", "k_bias", "v_bias", "o_bias")

LLAMA_DEFAULTS: dict[str, Any] = {
    "vocab_size": 32000,
    "hidden_size": 4096,
    "intermediate_size": 11008,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": None,
    "head_dim": None,
    "hidden_act": "silu",
    "max_position_embeddings": 2048,
    "tie_word_embeddings": False,
    "attention_bias": False,
    "mlp_bias": False,
}


@dataclass(frozen=True, slots=True)
class Window:
    """A family's sliding-window rule (no parameters; it drives the KV cache).

    ``switch``: the flag that turns it on (Qwen's ``use_sliding_window``); ``below_key``: the key
    of the first sliding layer (Qwen's ``max_window_layers``: only 0, every layer sliding, fits the
    schema); ``global_every``: every n-th layer attends globally (Gemma-2: 2); ``reads_layer_types``:
    the model reads a file's ``layer_types`` (a layer slides where it says sliding_attention).
    """

    switch: str | None = None
    below_key: str | None = None
    global_every: int = 0
    reads_layer_types: bool = False


# Which layers of n hold experts: the base block's dense FFN spec → the layer groups.
Layers = Callable[[HFConfig, Spec], list[Spec]]


def _one_group(cfg: HFConfig, dense: Spec) -> list[Spec]:
    return [{"count": cfg.integer("num_hidden_layers")}]


@dataclass(frozen=True, slots=True)
class LlamaShape:
    """What a Llama-shaped family does differently from Llama (the defaults are Llama's).

    ``bias_key`` switches the biases of the ``biased`` projections (None: they are always on);
    ``o_bias_key`` switches o's bias on its own (Seed-OSS's ``attention_out_bias``; None: o follows
    ``bias_key`` where ``biased`` names it); ``mlp_bias_key`` switches the MLP's biases (None:
    never); ``gated``: gate, up and down (False: up and down, as Arcee's and Nemotron's relu²
    MLPs); ``qk_norm_span``: what a q/k norm covers (``Attention.qk_norm_span``); ``norm`` and
    ``norm_bias``: the norms' kind and LayerNorm's β; ``head_dim_key``: the key of the head width
    (None: h / a whatever the file says, as StableLM); ``kv_heads_key``: the key of the KV heads
    (None: as many as query heads whatever the file says, as Persimmon); ``rotary_fraction``: the file's
    ``partial_rotary_factor`` is read (it shapes no parameter but the FLOPs and the tree show it).
    """

    bias_key: str | None = "attention_bias"
    biased: tuple[str, ...] = _BIAS_KEYS
    o_bias_key: str | None = None
    qk_norm: bool = False
    qk_norm_span: Literal["head", "projection", "heads"] = "head"
    mlp_bias_key: str | None = None
    gated: bool = True
    norms_per_block: int = 2
    norm: Literal["rmsnorm", "layernorm"] = "rmsnorm"
    norm_bias: bool = True
    head_dim_key: str | None = "head_dim"
    kv_heads_key: str | None = "num_key_value_heads"
    rotary_fraction: bool = False
    window: Window | None = None
    activation: Callable[[HFConfig], str] = activation
    layers: Layers = _one_group


def llama_shaped(cfg: HFConfig, shape: LlamaShape) -> Spec:
    """The architecture of a Llama-shaped config: one base block, RoPE, an RMSNorm at the end."""
    h, a = cfg.integer("hidden_size"), cfg.integer("num_attention_heads")
    key = shape.kv_heads_key
    kv = cfg.divisor(key, a, "num_attention_heads", cfg.opt_integer(key) or a) if key else a
    mixer: Spec = {"kind": "attention", "num_heads": a, "num_kv_heads": kv}
    head_dim = cfg.opt_integer(shape.head_dim_key) if shape.head_dim_key else None
    if head_dim is not None and (head_dim != h // a or h % a):
        mixer["head_dim"] = head_dim
    elif h % a:
        mixer["head_dim"] = h // a  # transformers floors h / a
    mixer.update(_biases(cfg, shape))
    if shape.qk_norm:
        mixer["qk_norm"] = True
        if shape.qk_norm_span != "head":
            mixer["qk_norm_span"] = shape.qk_norm_span
    window = _checked_window(cfg, shape.window) if shape.window else {}
    every = window.pop("global_every", 0)
    mixer.update(window)
    fraction = cfg.rope("partial_rotary_factor")
    if fraction is not None and shape.rotary_fraction:
        mixer["rotary_fraction"] = cfg.as_number("partial_rotary_factor", fraction)
    mlp_bias = shape.mlp_bias_key is not None and cfg.flag(shape.mlp_bias_key)
    vocab, positions = cfg.integer("vocab_size"), cfg.integer("max_position_embeddings")
    ffn = {"kind": "dense", "width": cfg.integer("intermediate_size"), "bias": mlp_bias}
    if not shape.gated:
        ffn["gated"] = False
    ffn["activation"] = shape.activation(cfg)
    norms: Spec = {"kind": shape.norm, "count": shape.norms_per_block}
    if shape.norm == "layernorm" and not shape.norm_bias:
        norms["bias"] = False
    block = {"mixer": mixer, "ffn": ffn, "norms": norms}
    tied = cfg.flag("tie_word_embeddings")
    layers = shape.layers(cfg, ffn)
    if every:  # every n-th layer global (Gemma-2: no experts, so the stack was one group)
        n = cfg.integer("num_hidden_layers")
        changes = changes_from({True: {"mixer": {"sliding_window": None}}})
        layers = periodic_groups(n, every, lambda i: (i + 1) % every == 0, changes)
    return decoder_model(h, vocab, block, layers, tied=tied, max_positions=positions)


def _biases(cfg: HFConfig, shape: LlamaShape) -> Spec:
    on = bool(shape.biased) and (shape.bias_key is None or cfg.flag(shape.bias_key))
    biases = {name: on and name in shape.biased for name in _BIAS_KEYS}
    if shape.o_bias_key is not None:
        biases["o_bias"] = cfg.flag(shape.o_bias_key)
    return biases


def _window(cfg: HFConfig, rule: Window) -> Spec:
    """The window the rule gives every layer (with Gemma-2's global layers), or none."""
    if rule.switch is not None:
        # Qwen slides only on layers >= max_window_layers; only the all-layers case fits the schema.
        if not cfg.flag(rule.switch) or (rule.below_key and cfg.integer(rule.below_key, minimum=0) > 0):
            return {}
    if not cfg.raw("sliding_window", None):
        return {}
    window = cfg.integer("sliding_window")
    return (
        {"sliding_window": window, "global_every": rule.global_every}
        if rule.global_every
        else {"sliding_window": window}
    )


def _checked_window(cfg: HFConfig, rule: Window) -> Spec:
    """``_window``, or a file's own ``layer_types`` (the config checked their names): every layer
    sliding or none is read as it says; a mix is held to the window rule, and a layer that
    slides where the rule says it does not (or the other way) is refused, not guessed."""
    window = _window(cfg, rule)
    types = cfg.raw("layer_types", None)
    if types is None or not rule.reads_layer_types:
        return window
    for index, kind in enumerate(types):
        if kind not in ("full_attention", "sliding_attention"):
            raise cfg.fail(
                f"layer_types[{index}]",
                say(
                    "is {kind}; a {model_type} layer is full_attention or sliding_attention",
                    kind=kind,
                    model_type=cfg.model_type,
                ),
            )
    size = cfg.raw("sliding_window", None)
    if rule.switch is not None and not cfg.flag(rule.switch):
        size = None
    if set(types) == {"full_attention"} or (set(types) == {"sliding_attention"} and not size):
        return {}
    if set(types) == {"sliding_attention"}:
        return {"sliding_window": cfg.integer("sliding_window")}
    slides = window.get("sliding_window") is not None
    every = window.get("global_every", 0)
    for index, kind in enumerate(types):
        ruled = (
            "sliding_attention" if slides and not (every and (index + 1) % every == 0) else "full_attention"
        )
        if kind != ruled:
            raise cfg.fail(
                f"layer_types[{index}]",
                say(
                    "is {kind}, but use_sliding_window, sliding_window and max_window_layers make it "
                    "{ruled}: a stack whose layers slide otherwise is not read",
                    kind=kind,
                    ruled=ruled,
                ),
            )
    return window


LLAMA = LlamaShape(mlp_bias_key="mlp_bias")

FAMILY = Family(
    "Llama",
    (
        ModelType(
            "llama",
            lambda cfg: llama_shaped(cfg, LLAMA),
            LLAMA_DEFAULTS,
            tokenizer="sentencepiece_at_32k",
        ),
    ),
)
