"""DeepSeek-V2, -V3 and -V3.2 (``DeepseekV2ForCausalLM``, ``DeepseekV3ForCausalLM``,
``DeepseekV32ForCausalLM``): multi-head latent attention (MLA); the first ``first_k_dense_replace``
layers dense, the rest MoE with ``n_shared_experts`` shared experts. Kimi-K2 (``kimi_k2``, remote
code) is DeepSeek-V3's class. V3.2 is V3 with a lightning indexer in every layer's attention
(``DeepseekV32Indexer``: ``wq_b``, ``wk``, a LayerNorm ``k_norm`` with β, ``weights_proj``; 13,959,424
a layer in V3.2-Exp); its router bias is a buffer as V3's.

``num_key_value_heads`` and ``head_dim`` do not shape MLA (newer files write head_dim =
qk_rope_head_dim); ``moe_layer_freq`` is ignored by transformers, and so here.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import groups_from_kinds
from paramtally.core.families.llama import LLAMA_DEFAULTS
from paramtally.core.families.pieces import (
    activation,
    changes_from,
    decoder_model,
    first_k_dense,
    mtp_modules,
)
from paramtally.core.text import say

__all__ = ["FAMILY"]


def deepseek(cfg: HFConfig, *, mlp_bias_key: str | None = None, indexer: bool = False) -> Spec:
    """``mlp_bias_key``: the key that biases the MLPs (V2's ``mlp_bias``; V3's are never biased);
    ``indexer``: every layer's attention has V3.2's lightning indexer (``index_n_heads`` heads of
    ``index_head_dim``), which reads the q latent."""
    bias = cfg.flag("attention_bias")
    q_rank = cfg.opt_integer("q_lora_rank")
    if indexer and q_rank is None:
        raise cfg.fail(
            "q_lora_rank", say("is null, but DeepSeek-V3.2's attention and indexer read the q latent")
        )
    mlp_bias = mlp_bias_key is not None and cfg.flag(mlp_bias_key)
    mixer: Spec = {
        "kind": "mla",
        "num_heads": cfg.integer("num_attention_heads"),
        "q_lora_rank": q_rank,
        "q_bias": bias and q_rank is not None,
        "kv_bias": bias,
        "o_bias": bias,
        **{
            key: cfg.integer(key)
            for key in ("kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim")
        },
    }
    if indexer:
        mixer.update(
            indexer_heads=cfg.integer("index_n_heads"), indexer_head_dim=cfg.integer("index_head_dim")
        )
    act = activation(cfg)
    experts: Spec = {
        "kind": "moe",
        "activation": act,
        "num_experts": cfg.integer("n_routed_experts"),
        "top_k": cfg.integer("num_experts_per_tok"),
        "expert_width": cfg.integer("moe_intermediate_size"),
        "shared_experts": cfg.integer("n_shared_experts", minimum=0),
        "shared_expert_bias": mlp_bias,
    }
    h, vocab = cfg.integer("hidden_size"), cfg.integer("vocab_size")
    positions = cfg.integer("max_position_embeddings")
    ffn = {"kind": "dense", "width": cfg.integer("intermediate_size"), "bias": mlp_bias, "activation": act}
    block = {"mixer": mixer, "ffn": ffn, "norms": {"kind": "rmsnorm"}}
    layers = (
        _mlp_layer_types(cfg, experts)
        if indexer and cfg.has("mlp_layer_types")
        else first_k_dense(cfg, experts)
    )
    spec = decoder_model(
        h, vocab, block, layers, tied=cfg.flag("tie_word_embeddings"), max_positions=positions
    )
    # DeepSeek-V3's checkpoint holds num_nextn_predict_layers MoE prediction modules, which
    # transformers does not build: counted apart (ParamReport.mtp).
    predict = mtp_modules(cfg, experts)
    if predict is not None:
        spec["mtp"] = predict
    return spec


def _mlp_layer_types(cfg: HFConfig, experts: Spec) -> list[Spec]:
    """A file's own ``mlp_layer_types`` (DeepseekV32Config derives them from
    ``first_k_dense_replace`` where it has none): "dense" or "sparse" per layer."""
    n = cfg.integer("num_hidden_layers")
    types = cfg.raw("mlp_layer_types")
    if not isinstance(types, list) or len(types) != n or not set(types) <= {"dense", "sparse"}:
        raise cfg.fail(
            "mlp_layer_types", say('must list "dense" or "sparse" for each of the {n} layers', n=n)
        )
    return groups_from_kinds([kind == "sparse" for kind in types], changes_from({True: {"ffn": experts}}))


_DEEPSEEK_DEFAULTS: dict[str, Any] = {
    **LLAMA_DEFAULTS,
    "attention_bias": False,
    "mlp_bias": False,
    "kv_lora_rank": 512,
    "q_lora_rank": 1536,
    "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "v_head_dim": 128,
}
# DeepseekV3TopkRouter: F.linear(hidden_states.type(torch.float32), self.weight.type(torch.float32))
# keeps an fp32 copy of the layer's input. DeepseekV2TopkRouter scales topk_weights by
# routed_scaling_factor without dividing them by their sum, whatever norm_topk_prob says.
_V3_ROUTER = ActivationQuirks(fp32_router_input=True)
_V2_ROUTER = ActivationQuirks(fp32_router_input=True, unnormalized_top_k=True)

FAMILY = Family(
    "DeepSeek-V2, DeepSeek-V3, DeepSeek-V3.2",
    (
        ModelType(
            "deepseek_v2",
            lambda cfg: deepseek(cfg, mlp_bias_key="mlp_bias"),
            {
                **_DEEPSEEK_DEFAULTS,
                "vocab_size": 102400,
                "first_k_dense_replace": 0,
                "n_routed_experts": 64,
                "n_shared_experts": 2,
                "num_experts_per_tok": None,
                "moe_intermediate_size": 1407,
            },
            activations=_V2_ROUTER,
        ),
        ModelType(
            "deepseek_v3",
            deepseek,
            {
                **_DEEPSEEK_DEFAULTS,
                "vocab_size": 129280,
                "hidden_size": 7168,
                "intermediate_size": 18432,
                "num_hidden_layers": 61,
                "num_attention_heads": 128,
                "max_position_embeddings": 4096,
                "first_k_dense_replace": 3,
                "n_routed_experts": 256,
                "n_shared_experts": 1,
                "num_experts_per_tok": 8,
                "moe_intermediate_size": 2048,
            },
            activations=_V3_ROUTER,
            aliases=("kimi_k2",),
        ),
        ModelType(
            "deepseek_v32",
            lambda cfg: deepseek(cfg, indexer=True),
            {
                **_DEEPSEEK_DEFAULTS,
                "vocab_size": 129280,
                "hidden_size": 7168,
                "intermediate_size": 18432,
                "num_hidden_layers": 61,
                "num_attention_heads": 128,
                "max_position_embeddings": 163840,
                "first_k_dense_replace": 3,
                "n_routed_experts": 256,
                "n_shared_experts": 1,
                "num_experts_per_tok": 8,
                "moe_intermediate_size": 2048,
                "index_n_heads": 64,
                "index_head_dim": 128,
            },
            activations=_V3_ROUTER,
        ),
    ),
)
