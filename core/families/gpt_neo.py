"""GPT-Neo (``GPTNeoForCausalLM``): GPT-2's layout — learned positions (``wpe``), two LayerNorms a
layer, a plain biased MLP ``c_fc``/``c_proj`` of ``intermediate_size`` (4·h when null), ``ln_f`` —
with separate q, k, v projections without biases and an ``out_proj`` with one
(``GPTNeoSelfAttention``); the head is tied by default.

``attention_types`` makes some layers "local": ``GPTNeoSelfAttention`` masks all but the last
``window_size`` tokens with a causal-mask buffer (``bias``, not persistent). A local layer holds
the same parameters as a global one, and transformers 5.24 caches every token for it (the
``DynamicCache`` it builds from ``GPTNeoConfig``, which has no ``sliding_window`` or
``layer_types``), and its eager attention scores every key before masking: every layer is
imported as global attention, the pattern only checked as ``GPTNeoConfig`` checks it."""

from __future__ import annotations

from typing import Any

from paramtally.core.errors import shown
from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import decoder_model, plain_ffn
from paramtally.core.text import say

__all__ = ["FAMILY"]

_KINDS = ("global", "local")  # GPTNeoAttention refuses any other


def gpt_neo(cfg: HFConfig) -> Spec:
    h = cfg.integer("hidden_size")
    n = cfg.integer("num_layers")
    _check_attention_types(cfg, n)
    mixer = {
        "kind": "attention",
        "num_heads": cfg.divisor("num_heads", h, "hidden_size"),
        "q_bias": False,
        "k_bias": False,
        "v_bias": False,
        "o_bias": True,  # GPTNeoSelfAttention.out_proj = nn.Linear(h, h, bias=True)
    }
    block = {
        "mixer": mixer,
        "ffn": plain_ffn(cfg.opt_integer("intermediate_size") or 4 * h, cfg.text("activation_function")),
        "norms": {"kind": "layernorm"},
    }
    return decoder_model(
        h,
        cfg.integer("vocab_size"),
        block,
        [{"count": n}],
        tied=cfg.flag("tie_word_embeddings"),
        positions="learned",
        max_positions=cfg.integer("max_position_embeddings"),
    )


def _check_attention_types(cfg: HFConfig, n: int) -> None:
    """Refuse the layer kinds ``GPTNeoConfig`` or ``GPTNeoAttention`` refuses: ``n`` layers in
    all, each "global" or "local". The kinds are the file's ``attention_layers`` where it has
    them (``GPTNeoConfig`` then keeps them over its expansion of ``attention_types``), else
    ``attention_types``'s ``[[kind, …], repeats]`` entries written out."""
    entries = _attention_types(cfg)
    if cfg.has("attention_layers"):
        listed: Any = cfg.raw("attention_layers")
        if not isinstance(listed, list) or not all(isinstance(kind, str) for kind in listed):
            raise cfg.fail(
                "attention_layers", say("must be a list of layer kinds (got {got})", got=shown(listed))
            )
        _check_kinds(cfg, [(f"attention_layers[{index}]", [kind]) for index, kind in enumerate(listed)])
        _check_layers(cfg, "attention_layers", len(listed), n)
        return
    _check_kinds(cfg, [(f"attention_types[{index}]", kinds) for index, (kinds, _) in enumerate(entries)])
    _check_layers(cfg, "attention_types", sum(len(kinds) * repeats for kinds, repeats in entries), n)


def _attention_types(cfg: HFConfig) -> list[tuple[list[Any], int]]:
    """``attention_types`` as (kinds, repeats) entries, which ``GPTNeoConfig`` expands whatever
    the file's ``attention_layers``; a shape it cannot expand is refused."""
    types: Any = cfg.raw("attention_types", None)
    if types is None:  # GPTNeoConfig's default
        return [(["global", "local"], 12)]
    entries = []
    for entry in types if isinstance(types, list) else [None]:
        if not (
            isinstance(entry, list)
            and len(entry) == 2
            and isinstance(entry[0], list)
            and isinstance(entry[1], int)
            and not isinstance(entry[1], bool)
            and entry[1] >= 0
        ):
            raise cfg.fail(
                "attention_types",
                say("must be a list of [[kind, …], repeats] entries (got {got})", got=shown(types)),
            )
        entries.append((entry[0], entry[1]))
    return entries


def _check_kinds(cfg: HFConfig, kinds_at: list[tuple[str, list[Any]]]) -> None:
    for key, kinds in kinds_at:
        for kind in kinds:
            if kind not in _KINDS:
                said = say("{one} or {other}", one=_KINDS[0], other=_KINDS[1])
                reason = say(
                    "is {kind}; a {model_type} layer is {said}",
                    kind=shown(kind, 40),
                    model_type=cfg.model_type,
                    said=said,
                )
                raise cfg.fail(key, reason)


def _check_layers(cfg: HFConfig, key: str, layers: int, n: int) -> None:
    if layers != n:
        raise cfg.fail(key, say("makes {layers:,} layers, num_layers says {n:,}", layers=layers, n=n))


FAMILY = Family(
    "GPT-Neo",
    (
        ModelType(
            "gpt_neo",
            gpt_neo,
            {
                "vocab_size": 50257,
                "max_position_embeddings": 2048,
                "hidden_size": 2048,
                "num_layers": 24,
                "num_heads": 16,
                "attention_types": None,
                "intermediate_size": None,
                "activation_function": "gelu_new",
                "tie_word_embeddings": True,
                "attention_dropout": 0.0,
                "resid_dropout": 0.0,
            },
            # GPTNeoPreTrainedModel does not set _supports_sdpa: 5.24 refuses attn_implementation="sdpa".
            activations=ActivationQuirks(sdpa_refused_by="GPTNeoForCausalLM"),
            dropout=("attention_dropout", "resid_dropout"),
            # GPTNeoConfig.attribute_map: the common names stand for its own.
            renamed_keys={"num_attention_heads": "num_heads", "num_hidden_layers": "num_layers"},
        ),
    ),
)
