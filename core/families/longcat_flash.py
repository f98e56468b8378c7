"""LongCat-Flash (``LongcatFlashForCausalLM``): ``num_layers`` blocks (``num_hidden_layers`` is the
property 2·``num_layers``), each two sub-layers of MLA and a dense MLP of ``ffn_hidden_size``
(``self_attn.0``/``.1``, ``mlps.0``/``.1``, each with its pair of RMSNorms) and one
shortcut-connected MoE (ScMoE, ``mlp``) that reads the first attention's output beside ``mlps.0``.

Here a block is two layers: the first's FFN is the MoE with ``mlps.0`` as its always-active shared
expert (a gated MLP of ``ffn_hidden_size``, the same numbers), the second's the dense ``mlps.1``.
The MoE: ``n_routed_experts`` experts of ``expert_ffn_hidden_size``, top ``moe_topk``, and
``zero_expert_num`` zero-computation (identity) experts that only the router's classifier
``[E + Z, h]`` (bias with ``router_bias``) sees. A token that picks a zero expert uses fewer
parameters: the active count is the most, all ``moe_topk`` picks real.

transformers 5.24 allocates ``experts.gate_up_proj`` for E + Z experts but ``down_proj`` for E: the
Z phantom rows are never read and the checkpoint holds E (LongCat-Flash-Chat: built 741,053,585,408,
published 560,664,958,976). The count is the checkpoint's. The router's
``e_score_correction_bias`` is a buffer; the checkpoint's MTP layer is not built nor counted.
"""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import activation, decoder_model, moe
from paramtally.core.text import say

__all__ = ["FAMILY"]


def longcat_flash(cfg: HFConfig) -> Spec:
    bias = cfg.flag("attention_bias")
    nope, rope = cfg.integer("qk_nope_head_dim", minimum=0), cfg.integer("qk_rope_head_dim")
    qk = cfg.opt_integer("qk_head_dim")
    if qk is not None and qk != nope + rope:
        raise cfg.fail(
            "qk_head_dim",
            say("({qk}) differs from qk_nope_head_dim + qk_rope_head_dim ({sum})", qk=qk, sum=nope + rope),
        )
    mixer: Spec = {
        "kind": "mla",
        "num_heads": cfg.integer("num_attention_heads"),
        "q_lora_rank": cfg.integer("q_lora_rank"),
        "kv_lora_rank": cfg.integer("kv_lora_rank"),
        "qk_rope_head_dim": rope,
        "qk_nope_head_dim": nope,
        "v_head_dim": cfg.integer("v_head_dim"),
        "q_bias": bias,
        "kv_bias": bias,
        "o_bias": bias,
    }
    act = activation(cfg)
    width = cfg.integer("ffn_hidden_size")
    routed = moe(
        cfg.integer("n_routed_experts"),
        cfg.integer("moe_topk"),
        cfg.integer("expert_ffn_hidden_size"),
        zero_experts=cfg.integer("zero_expert_num", minimum=0)
        if cfg.raw("zero_expert_num") is not None
        else 0,
        shared_experts=1,  # mlps.0, beside the MoE
        shared_expert_width=width,
        router_bias=cfg.flag("router_bias", False),
    )
    ffn: Spec = {"kind": "dense", "width": width, "bias": False, "activation": act}
    block = {"mixer": mixer, "ffn": ffn, "norms": {"kind": "rmsnorm"}}
    shortcut = {"count": 1, "override": {"ffn": {"kind": "moe", "activation": act, **routed}}}
    layers = [{"count": cfg.integer("num_layers"), "pattern": [shortcut, {"count": 1}]}]
    return decoder_model(
        cfg.integer("hidden_size"),
        cfg.integer("vocab_size"),
        block,
        layers,
        tied=cfg.flag("tie_word_embeddings"),
        max_positions=cfg.integer("max_position_embeddings"),
    )


FAMILY = Family(
    "LongCat-Flash",
    (
        ModelType(
            "longcat_flash",
            longcat_flash,
            {
                "vocab_size": 131072,
                "hidden_size": 6144,
                "num_layers": 28,
                "num_attention_heads": 64,
                "hidden_act": "silu",
                "max_position_embeddings": 131072,
                "tie_word_embeddings": False,
                "attention_bias": False,
                "ffn_hidden_size": 12288,
                "q_lora_rank": 1536,
                "kv_lora_rank": 512,
                "qk_nope_head_dim": 128,
                "qk_rope_head_dim": 64,
                "v_head_dim": 128,
                "qk_head_dim": None,
                "moe_topk": 12,
                "n_routed_experts": 512,
                "zero_expert_num": 256,
                "expert_ffn_hidden_size": 2048,
            },
            # LongcatFlashTopkRouter: F.linear(hidden_states.type(torch.float32), …)
            activations=ActivationQuirks(fp32_router_input=True),
            # LongcatFlashConfig.attribute_map
            renamed_keys={
                "num_local_experts": "n_routed_experts",
                "num_experts_per_tok": "moe_topk",
                "intermediate_size": "ffn_hidden_size",
                "moe_intermediate_size": "expert_ffn_hidden_size",
            },
        ),
    ),
)
