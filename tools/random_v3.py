"""Small randomized configs of the issue-33 families (tools/measure_golden.py --v3 --random).

Each generator draws a small config of one model_type that moves the keys deciding shapes in
that family — biases, q/k norms, layer patterns, expert counts, legacy key spellings, tie — and
sometimes leaves a key out so that the class default applies.  A draw transformers refuses is
reported and drawn again by the caller.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from measure_golden import _dtype, _heads, _kv, _maybe_tie, _rope, _vocab
from random_v2 import _maybe, _t5_like

Cfg = dict[str, Any]
R = random.Random


def _decoder(
    r: R, model_type: str, arch: str, *, layers: tuple[int, int] = (1, 6), head_dim: bool = True
) -> Cfg:
    """The keys every Llama-shaped decoder shares, small and random."""
    h, a, hd = _heads(r)
    d: Cfg = {
        "model_type": model_type,
        "architectures": [arch],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "intermediate_size": r.choice([h * 2, h * 3, 100, 352]),
        "num_hidden_layers": r.randint(*layers),
        "num_attention_heads": a,
        "num_key_value_heads": _kv(r, a),
        "max_position_embeddings": r.choice([128, 4096]),
        "pad_token_id": 0,  # class defaults name ids beyond a small vocabulary
    }
    if head_dim and r.random() < 0.5:
        d["head_dim"] = r.choice([hd, 8, 16, 40])
    _rope(r, d)
    _dtype(r, d)
    _maybe_tie(r, d)
    return d


def _tie_or_default(r: R, d: Cfg) -> None:
    """Tied or the class default, never false: with tie_word_embeddings false transformers 5.x also
    unties the ties a family declares (encoder/decoder embeddings, Zamba's shared block), a state no
    published model has."""
    _maybe(r, d, "tie_word_embeddings", [True], 0.5)


def _flags(r: R, d: Cfg, *keys: str, p: float = 0.6) -> None:
    for key in keys:
        _maybe(r, d, key, [True, False], p)


def _experts(r: R, e_key: str, k_key: str, counts: tuple[int, ...] = (2, 4, 8, 16)) -> Cfg:
    e = r.choice(counts)
    return {e_key: e, k_key: r.randint(1, min(e, 4))}


def _sliding_types(r: R, n: int) -> list[str]:
    return [r.choice(["sliding_attention", "full_attention"]) for _ in range(n)]


# --- dense decoders ---------------------------------------------------------------------------


def gen_glm4(r: R) -> Cfg:
    d = _decoder(r, "glm4", "Glm4ForCausalLM")
    _flags(r, d, "attention_bias")
    _maybe(r, d, "partial_rotary_factor", [0.5, 1.0])
    return d


def gen_glm(r: R) -> Cfg:
    d = _decoder(r, "glm", "GlmForCausalLM")
    _flags(r, d, "attention_bias")
    _maybe(r, d, "partial_rotary_factor", [0.5, 1.0])
    return d


def gen_olmo(r: R) -> Cfg:
    d = _decoder(r, "olmo", "OlmoForCausalLM")
    _flags(r, d, "attention_bias")
    _maybe(r, d, "clip_qkv", [None, 8.0])
    return d


def gen_olmo2(r: R) -> Cfg:
    d = _decoder(r, "olmo2", "Olmo2ForCausalLM", head_dim=False)
    _flags(r, d, "attention_bias")
    return d


def gen_olmo3(r: R) -> Cfg:
    d = _decoder(r, "olmo3", "Olmo3ForCausalLM", head_dim=False)
    _flags(r, d, "attention_bias")
    d["sliding_window"] = r.choice([16, 4096])
    if r.random() < 0.7:
        d["layer_types"] = _sliding_types(r, d["num_hidden_layers"])
    return d


def gen_stablelm(r: R) -> Cfg:
    d = _decoder(r, "stablelm", "StableLmForCausalLM", head_dim=False)
    _flags(r, d, "use_qkv_bias", "qk_layernorm", "use_parallel_residual")
    _maybe(r, d, "partial_rotary_factor", [0.25, 0.5, 1.0])
    return d


def gen_persimmon(r: R) -> Cfg:
    # num_key_value_heads and head_dim are drawn too: PersimmonAttention reads neither
    d = _decoder(r, "persimmon", "PersimmonForCausalLM")
    _flags(r, d, "qk_layernorm")
    _maybe(r, d, "partial_rotary_factor", [0.25, 0.5, 1.0])
    _maybe(r, d, "hidden_act", ["relu2", "gelu"])
    return d


def gen_fuyu(r: R) -> Cfg:
    """Persimmon under FuyuConfig: flat as published (the text keys moved into text_config, the
    tie the wrapper's), or with a text_config whose own tie is not taken upwards; the patch
    linear's C·p² inputs drawn."""
    text = gen_persimmon(r)
    top_tie = text.pop("tie_word_embeddings", None)
    d: Cfg = {"model_type": "fuyu", "architectures": ["FuyuForCausalLM"]}
    if r.random() < 0.5:
        d.update({key: value for key, value in text.items() if key not in ("model_type", "architectures")})
    else:
        text.pop("architectures")
        _maybe(r, text, "tie_word_embeddings", [True, False], 0.5)
        d["text_config"] = text
        _maybe(r, d, "hidden_size", [2 * text["hidden_size"]], 0.5)  # left at the top: not the text's
    if top_tie is not None:
        d["tie_word_embeddings"] = top_tie
    _maybe(r, d, "patch_size", [2, 4, 30])
    _maybe(r, d, "num_channels", [1, 3])
    return d


def gen_mpt(r: R) -> Cfg:
    h, a, _ = _heads(r)
    d: Cfg = {
        "model_type": "mpt",
        "architectures": [r.choice(["MPTForCausalLM", "MptForCausalLM"])],
        "vocab_size": _vocab(r),
        "d_model": h,
        "n_heads": a,
        "n_layers": r.randint(1, 6),
        "max_seq_len": r.choice([64, 2048]),
    }
    _maybe(r, d, "expansion_ratio", [4])
    _maybe(r, d, "no_bias", [True])
    _maybe(r, d, "attn_config", [{"alibi": True, "clip_qkv": r.choice([None, 6.0])}])
    _maybe_tie(r, d)
    return d


def gen_starcoder2(r: R) -> Cfg:
    d = _decoder(r, "starcoder2", "Starcoder2ForCausalLM", head_dim=False)
    _flags(r, d, "use_bias")
    d["sliding_window"] = r.choice([None, 64])
    return d


def gen_nemotron(r: R) -> Cfg:
    d = _decoder(r, "nemotron", "NemotronForCausalLM")
    _flags(r, d, "attention_bias", "mlp_bias")
    d["partial_rotary_factor"] = r.choice([0.5, 1.0])
    d["hidden_act"] = "relu2"
    return d


def gen_exaone4(r: R) -> Cfg:
    d = _decoder(r, "exaone4", "Exaone4ForCausalLM")
    if r.random() < 0.6:
        d["sliding_window"] = r.choice([16, 4096])
        d["layer_types"] = _sliding_types(r, d["num_hidden_layers"])
    return d


def gen_smollm3(r: R) -> Cfg:
    d = _decoder(r, "smollm3", "SmolLM3ForCausalLM")
    _flags(r, d, "attention_bias", "mlp_bias")
    n = d["num_hidden_layers"]
    if r.random() < 0.5:
        d["no_rope_layers"] = [r.choice([0, 1]) for _ in range(n)]
    else:
        d["no_rope_layer_interval"] = r.choice([2, 4])
    return d


def gen_ernie4_5(r: R) -> Cfg:
    d = _decoder(r, "ernie4_5", "Ernie4_5ForCausalLM")
    _flags(r, d, "use_bias")
    return d


def gen_seed_oss(r: R) -> Cfg:
    d = _decoder(r, "seed_oss", "SeedOssForCausalLM")
    _flags(r, d, "attention_bias", "attention_out_bias", "mlp_bias")
    return d


def gen_apertus(r: R) -> Cfg:
    d = _decoder(r, "apertus", "ApertusForCausalLM")
    _flags(r, d, "attention_bias")
    d["hidden_act"] = "xielu"
    return d


def gen_arcee(r: R) -> Cfg:
    d = _decoder(r, "arcee", "ArceeForCausalLM")
    _flags(r, d, "attention_bias", "mlp_bias")
    return d


def gen_helium(r: R) -> Cfg:
    d = _decoder(r, "helium", "HeliumForCausalLM")
    _flags(r, d, "attention_bias", "mlp_bias")
    return d


def gen_cohere(r: R) -> Cfg:
    d = _decoder(r, "cohere", "CohereForCausalLM", head_dim=False)
    _flags(r, d, "attention_bias", "use_qk_norm")
    return d


def gen_granite(r: R) -> Cfg:
    d = _decoder(r, "granite", "GraniteForCausalLM", head_dim=False)
    _flags(r, d, "attention_bias", "mlp_bias")
    d["embedding_multiplier"] = r.choice([1.0, 12.0])
    return d


def _hunyuan(r: R, model_type: str, arch: str) -> Cfg:
    d = _decoder(r, model_type, arch)
    d.setdefault("head_dim", d["hidden_size"] // d["num_attention_heads"])  # 5.24 cannot build without it
    _flags(r, d, "attention_bias")
    return d


def gen_hunyuan_v1_dense(r: R) -> Cfg:
    return _hunyuan(r, "hunyuan_v1_dense", "HunYuanDenseV1ForCausalLM")


def gen_bitnet(r: R) -> Cfg:
    d = _decoder(r, "bitnet", "BitNetForCausalLM", head_dim=False)
    _flags(r, d, "attention_bias")
    d["hidden_act"] = "relu2"
    return d


def gen_gptj(r: R) -> Cfg:
    h, a, hd = _heads(r)
    d: Cfg = {
        "model_type": "gptj",
        "architectures": ["GPTJForCausalLM"],
        "vocab_size": _vocab(r),
        "n_embd": h,
        "n_head": a,
        "n_layer": r.randint(1, 6),
        "n_positions": r.choice([64, 2048]),
        "rotary_dim": r.choice([x for x in (4, 8, hd) if x <= hd]),
    }
    _maybe(r, d, "n_inner", [None, h * 2, 100])
    _maybe_tie(r, d)
    return d


def gen_gpt_bigcode(r: R) -> Cfg:
    h, a, _ = _heads(r)
    d: Cfg = {
        "model_type": "gpt_bigcode",
        "architectures": ["GPTBigCodeForCausalLM"],
        "vocab_size": _vocab(r),
        "n_embd": h,
        "n_head": a,
        "n_layer": r.randint(1, 6),
        "n_positions": r.choice([64, 8192]),
    }
    _flags(r, d, "multi_query")
    _maybe(r, d, "n_inner", [None, h * 2, 100])
    _maybe_tie(r, d)
    return d


def gen_gpt_neo(r: R) -> Cfg:
    h, a, _ = _heads(r)
    n = r.randint(1, 6)
    d: Cfg = {
        "model_type": "gpt_neo",
        "architectures": ["GPTNeoForCausalLM"],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "max_position_embeddings": r.choice([64, 2048]),
        "window_size": r.choice([4, 256]),
    }
    # GPTNeoConfig.attribute_map: either spelling of heads and layers
    d.update(
        {"num_heads": a, "num_layers": n}
        if r.random() < 0.7
        else {"num_attention_heads": a, "num_hidden_layers": n}
    )
    if n % 2 == 0 and r.random() < 0.5:
        d["attention_types"] = [[["global", "local"], n // 2]]
    else:  # always written: the class default makes 24 layers, which GPTNeoConfig checks
        d["attention_types"] = [[[r.choice(["global", "local"])], 1] for _ in range(n)]
    _maybe(r, d, "intermediate_size", [None, h * 2, 100])
    _maybe(r, d, "activation_function", ["gelu_new", "relu"])
    _maybe_tie(r, d)
    return d


def gen_codegen(r: R) -> Cfg:
    """GPT-J's keys, which CodeGenConfig reads alike (its module fuses q, k and v, no shape key)."""
    return {**gen_gptj(r), "model_type": "codegen", "architectures": ["CodeGenForCausalLM"]}


def gen_xglm(r: R) -> Cfg:
    h, a, _ = _heads(r)
    d: Cfg = {
        "model_type": "xglm",
        "architectures": ["XGLMForCausalLM"],
        "vocab_size": _vocab(r),
        "ffn_dim": r.choice([h * 2, h * 4, 100]),
        "max_position_embeddings": r.choice([64, 2048]),
    }
    # XGLMConfig.attribute_map: either spelling of width, heads and layers
    n = r.randint(1, 6)
    if r.random() < 0.7:
        d.update({"d_model": h, "attention_heads": a, "num_layers": n})
    else:
        d.update({"hidden_size": h, "num_attention_heads": a, "num_hidden_layers": n})
    _flags(r, d, "scale_embedding")
    _maybe_tie(r, d)
    return d


def gen_biogpt(r: R) -> Cfg:
    h, a, _ = _heads(r)
    d: Cfg = {
        "model_type": "biogpt",
        "architectures": ["BioGptForCausalLM"],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "num_attention_heads": a,
        "num_hidden_layers": r.randint(1, 6),
        "intermediate_size": r.choice([h * 2, h * 4, 100]),
        "max_position_embeddings": r.choice([64, 1024]),
    }
    _flags(r, d, "scale_embedding")
    _maybe_tie(r, d)
    return d


def gen_openai_gpt(r: R) -> Cfg:
    """GPT-1: no key sets the MLP's width (4·h); afn picks modeling_openai's own activations."""
    h, a, _ = _heads(r)
    d: Cfg = {
        "model_type": "openai-gpt",
        "architectures": [r.choice(["OpenAIGPTLMHeadModel", "OpenAIGPTModel"])],
        "vocab_size": _vocab(r),
        "n_embd": h,
        "n_head": a,
        "n_layer": r.randint(1, 6),
        "n_positions": r.choice([64, 512]),
    }
    _maybe(r, d, "afn", ["gelu", "relu", "silu", "swish"])
    _maybe_tie(r, d)
    return d


def gen_lfm2(r: R) -> Cfg:
    d = _decoder(r, "lfm2", "Lfm2ForCausalLM", head_dim=False)
    n = d["num_hidden_layers"]
    del d["intermediate_size"]
    d["block_ff_dim"] = r.choice([96, 256, 3 * d["hidden_size"]])
    _flags(r, d, "block_auto_adjust_ff_dim", "conv_bias")
    _maybe(r, d, "block_ffn_dim_multiplier", [1.0, 1.5])
    _maybe(r, d, "block_multiple_of", [16, 64, 256])
    d["conv_L_cache"] = r.choice([2, 3, 4])
    attn = sorted(r.sample(range(n), r.randint(0, n)))
    if r.random() < 0.5:
        d["full_attn_idxs"] = attn
    else:
        d["layer_types"] = ["full_attention" if i in attn else "conv" for i in range(n)]
    if "tie_word_embeddings" in d and r.random() < 0.5:
        d["tie_embedding"] = d.pop("tie_word_embeddings")  # the legacy spelling LFM2 files carry
    return d


# --- mixture-of-experts decoders ----------------------------------------------------------------


def gen_glm4_moe(r: R) -> Cfg:
    d = _decoder(r, "glm4_moe", "Glm4MoeForCausalLM")
    d.update(_experts(r, "n_routed_experts", "num_experts_per_tok"))
    d.update({"moe_intermediate_size": r.choice([16, 32, 48]), "n_group": 1, "topk_group": 1})
    d["n_shared_experts"] = r.choice([1, 2])
    d["first_k_dense_replace"] = r.randint(0, d["num_hidden_layers"])
    _flags(r, d, "attention_bias", "use_qk_norm")
    return d


def gen_olmoe(r: R) -> Cfg:
    d = _decoder(r, "olmoe", "OlmoeForCausalLM", head_dim=False)
    d.update(_experts(r, "num_experts", "num_experts_per_tok"))
    d["intermediate_size"] = r.choice([16, 32, 48])
    _flags(r, d, "attention_bias")
    return d


def gen_ernie4_5_moe(r: R) -> Cfg:
    d = _decoder(r, "ernie4_5_moe", "Ernie4_5_MoeForCausalLM")
    n = d["num_hidden_layers"]
    d.update(_experts(r, "moe_num_experts", "moe_k"))
    d["moe_intermediate_size"] = r.choice([16, 32, 48])
    d["moe_num_shared_experts"] = r.choice([0, 1, 2])
    d["moe_layer_start_index"] = r.randint(0, n - 1)
    _maybe(r, d, "moe_layer_end_index", [n - 1, max(0, n - 2)])
    d["moe_layer_interval"] = r.choice([1, 2])
    _flags(r, d, "use_bias")
    return d


def _granite_moe(r: R, model_type: str, arch: str) -> Cfg:
    d = _decoder(r, model_type, arch, head_dim=False)
    d.update(_experts(r, "num_local_experts", "num_experts_per_tok"))
    d["intermediate_size"] = r.choice([16, 32, 48])
    _flags(r, d, "attention_bias")
    return d


def gen_granitemoe(r: R) -> Cfg:
    return _granite_moe(r, "granitemoe", "GraniteMoeForCausalLM")


def gen_granitemoeshared(r: R) -> Cfg:
    d = _granite_moe(r, "granitemoeshared", "GraniteMoeSharedForCausalLM")
    d["shared_intermediate_size"] = r.choice([0, 32, 64])
    return d


def gen_phimoe(r: R) -> Cfg:
    d = _decoder(r, "phimoe", "PhimoeForCausalLM", head_dim=False)
    d.update(_experts(r, "num_local_experts", "num_experts_per_tok"))
    d["num_experts_per_tok"] = 2  # sparsemixer routing is written for top-2
    d["num_local_experts"] = max(d["num_local_experts"], 2)
    d["intermediate_size"] = r.choice([16, 32, 48])
    _flags(r, d, "attention_bias", "lm_head_bias")
    return d


def gen_dbrx(r: R) -> Cfg:
    h, a, _ = _heads(r)
    e = r.choice([2, 4, 8, 16])
    d: Cfg = {
        "model_type": "dbrx",
        "architectures": ["DbrxForCausalLM"],
        "vocab_size": _vocab(r),
        "d_model": h,
        "n_heads": a,
        "n_layers": r.randint(1, 6),
        "max_seq_len": 128,
        "attn_config": {"kv_n_heads": _kv(r, a), "clip_qkv": 8, "rope_theta": 500000},
        "ffn_config": {
            "ffn_hidden_size": r.choice([16, 32, 48]),
            "moe_num_experts": e,
            "moe_top_k": r.randint(1, e),
        },
    }
    return d  # DbrxConfig refuses tie_word_embeddings


def gen_dots1(r: R) -> Cfg:
    d = _decoder(r, "dots1", "Dots1ForCausalLM")
    d.update(_experts(r, "n_routed_experts", "num_experts_per_tok"))
    d.update({"moe_intermediate_size": r.choice([16, 32, 48]), "n_group": 1, "topk_group": 1})
    d["n_shared_experts"] = r.choice([1, 2])
    d["first_k_dense_replace"] = r.randint(0, d["num_hidden_layers"])
    _flags(r, d, "attention_bias")
    return d


def gen_jetmoe(r: R) -> Cfg:
    h, _, _ = _heads(r)  # JetMoE's heads are kv heads × experts per token
    kv_heads = r.choice([1, 2, 4])
    d: Cfg = {
        "model_type": "jetmoe",
        "architectures": ["JetMoeForCausalLM"],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "num_hidden_layers": r.randint(1, 6),
        "num_key_value_heads": kv_heads,
        "kv_channels": r.choice([8, 16, 32]),
        "intermediate_size": r.choice([16, 32, 100]),
        "max_position_embeddings": 128,
    }
    d.update(_experts(r, "num_local_experts", "num_experts_per_tok"))
    _maybe_tie(r, d)
    return d


def gen_minimax_m2(r: R) -> Cfg:
    d = _decoder(r, "minimax_m2", "MiniMaxM2ForCausalLM")
    d.update(_experts(r, "num_local_experts", "num_experts_per_tok"))
    d["intermediate_size"] = r.choice([16, 32, 48])
    return d


def gen_hunyuan_v1_moe(r: R) -> Cfg:
    d = _hunyuan(r, "hunyuan_v1_moe", "HunYuanMoEV1ForCausalLM")
    n = d["num_hidden_layers"]
    e = r.choice([2, 4, 8])
    d["num_experts"] = e
    d["intermediate_size"] = r.choice([16, 32, 48])
    d["moe_topk"] = [r.randint(1, e) for _ in range(n)] if r.random() < 0.5 else r.randint(1, e)
    return d


def gen_lfm2_moe(r: R) -> Cfg:
    d = _decoder(r, "lfm2_moe", "Lfm2MoeForCausalLM", head_dim=False)
    n = d["num_hidden_layers"]
    d.update(_experts(r, "num_experts", "num_experts_per_tok"))
    d["moe_intermediate_size"] = r.choice([16, 32, 48])
    d["num_dense_layers"] = r.randint(0, n)
    d["layer_types"] = [r.choice(["full_attention", "conv"]) for _ in range(n)]
    _flags(r, d, "use_expert_bias", "conv_bias")
    return d


def _mla(r: R, model_type: str, arch: str) -> Cfg:
    h, a, _ = _heads(r)
    n = r.randint(1, 5)
    e = r.choice([4, 8, 16])
    d: Cfg = {
        "model_type": model_type,
        "architectures": [arch],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "intermediate_size": r.choice([h * 2, 100]),
        "moe_intermediate_size": r.choice([16, 32, 48]),
        "num_hidden_layers": n,
        "num_attention_heads": a,
        "num_key_value_heads": a,
        "n_routed_experts": e,
        "n_shared_experts": r.choice([1, 2]),
        "num_experts_per_tok": r.randint(1, min(e, 4)),
        "first_k_dense_replace": r.randint(0, n),
        "n_group": 1,
        "topk_group": 1,
        "kv_lora_rank": r.choice([16, 32]),
        "q_lora_rank": r.choice([None, 24, 48]),
        "qk_nope_head_dim": r.choice([8, 16]),
        "qk_rope_head_dim": r.choice([8, 16]),
        "v_head_dim": r.choice([8, 16, 24]),
        "max_position_embeddings": 4096,
    }
    _rope(r, d)
    _maybe_tie(r, d)
    return d


def gen_deepseek_v32(r: R) -> Cfg:
    d = _mla(r, "deepseek_v32", "DeepseekV32ForCausalLM")
    d["q_lora_rank"] = r.choice([24, 48])  # the indexer reads the query latent
    d.update({"index_n_heads": r.choice([1, 2, 4]), "index_head_dim": r.choice([16, 32]), "index_topk": 8})
    return d


def gen_kimi_k2(r: R) -> Cfg:
    d = _mla(r, "kimi_k2", "DeepseekV3ForCausalLM")  # the published alias of deepseek_v3
    d.update({"topk_method": "noaux_tc", "scoring_func": "sigmoid", "num_nextn_predict_layers": 0})
    return d


def gen_longcat_flash(r: R) -> Cfg:
    d = _mla(r, "longcat_flash", "LongcatFlashForCausalLM")
    d["num_layers"] = d.pop("num_hidden_layers")
    d["ffn_hidden_size"] = d.pop("intermediate_size")
    d["expert_ffn_hidden_size"] = d.pop("moe_intermediate_size")
    d["moe_topk"] = d.pop("num_experts_per_tok")
    d["zero_expert_num"] = r.choice([0, 2, 4])
    d["q_lora_rank"] = r.choice([24, 48])
    for key in ("n_shared_experts", "first_k_dense_replace", "n_group", "topk_group", "num_key_value_heads"):
        del d[key]
    return d


# --- recurrent and hybrid -----------------------------------------------------------------------


def gen_falcon_mamba(r: R) -> Cfg:
    h = r.choice([16, 32, 64])
    d: Cfg = {
        "model_type": "falcon_mamba",
        "architectures": ["FalconMambaForCausalLM"],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "num_hidden_layers": r.randint(1, 4),
        "state_size": r.choice([4, 8, 16]),
        "expand": r.choice([1, 2]),
        "conv_kernel": r.choice([2, 4]),
        "time_step_rank": r.choice(["auto", 4, 8]),
    }
    _flags(r, d, "use_bias", "use_conv_bias")
    _maybe_tie(r, d)
    return d


def gen_minimax(r: R) -> Cfg:
    """Lightning and softmax layers as layer_types lists them (the older name "attention" too) or
    the class's alternation; experts in every layer; head_dim set or derived (h / a)."""
    d = _decoder(r, "minimax", "MiniMaxForCausalLM", layers=(1, 5))
    d.update(_experts(r, "num_local_experts", "num_experts_per_tok"))
    if r.random() < 0.6:
        names = ["linear_attention", "full_attention", "attention"]
        d["layer_types"] = [r.choice(names) for _ in range(d["num_hidden_layers"])]
    _maybe(r, d, "block_size", [4, 16, 256])
    _maybe(r, d, "sliding_window", [None, 64], p=0.3)
    return d


def gen_rwkv(r: R) -> Cfg:
    """RWKV-4: the attention and FFN widths set, null (h and 4·h) or left to the class, tied or not."""
    h = r.choice([32, 64, 96])
    d: Cfg = {
        "model_type": "rwkv",
        "architectures": ["RwkvForCausalLM"],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "num_hidden_layers": r.randint(1, 4),
        "context_length": r.choice([128, 1024]),
    }
    _maybe(r, d, "attention_hidden_size", [None, h, 48])
    _maybe(r, d, "intermediate_size", [None, 100, 2 * h])
    _maybe_tie(r, d)
    return d


def gen_recurrent_gemma(r: R) -> Cfg:
    heads = r.choice([1, 2, 4])
    hd = r.choice([8, 16])
    h = heads * hd * r.choice([1, 2])
    d: Cfg = {
        "model_type": "recurrent_gemma",
        "architectures": ["RecurrentGemmaForCausalLM"],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "lru_width": r.choice([h, 2 * h]),
        "num_attention_heads": heads,
        "num_key_value_heads": 1,
        "head_dim": hd,
        "intermediate_size": r.choice([2 * h, 6 * h, 100]),
        "num_hidden_layers": r.randint(1, 6),
        "block_types": r.choice([["recurrent", "recurrent", "attention"], ["attention", "recurrent"]]),
        "conv1d_width": r.choice([2, 4]),
        "partial_rotary_factor": r.choice([0.5, 1.0]),
    }
    _flags(r, d, "attention_bias")
    return d


def gen_zamba(r: R) -> Cfg:
    heads = r.choice([2, 4])
    h = heads * r.choice([8, 16])
    period, offset = r.choice([2, 3]), r.randint(0, 1)
    n = offset + period * r.randint(2, 3) + r.randint(0, period - 1)  # the shared block needs two uses
    d: Cfg = {
        "model_type": "zamba",
        "architectures": ["ZambaForCausalLM"],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "attention_hidden_size": 2 * h,
        "num_attention_heads": heads,
        "num_key_value_heads": heads,
        "intermediate_size": r.choice([2 * h, 100]),
        "num_hidden_layers": n,
        "attn_layer_period": period,
        "attn_layer_offset": offset,
        "n_mamba_heads": r.choice([1, 2]),
        "mamba_d_state": r.choice([4, 8]),
        "mamba_dt_rank": r.choice([4, 8]),
        "mamba_expand": 2,
        "use_mamba_kernels": False,
    }
    _flags(r, d, "mamba_conv_bias", "mamba_proj_bias")
    _tie_or_default(r, d)
    return d


def gen_zamba2(r: R) -> Cfg:
    heads = r.choice([2, 4])
    h = heads * r.choice([8, 16])
    n = r.randint(2, 8)
    types = [r.choice(["mamba", "hybrid"]) for _ in range(n)]
    d: Cfg = {
        "model_type": "zamba2",
        "architectures": ["Zamba2ForCausalLM"],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "num_attention_heads": heads,
        "num_key_value_heads": heads,
        "intermediate_size": r.choice([2 * h, 100]),
        "num_hidden_layers": n,
        "layers_block_type": types,
        "num_mem_blocks": r.choice([1, 2]),
        "mamba_d_state": r.choice([8, 16]),
        "mamba_headdim": 8,
        "n_mamba_heads": r.choice([2, 4]),
        "mamba_ngroups": 1,
        "adapter_rank": r.choice([4, 8]),
        "use_mamba_kernels": False,
    }
    _flags(r, d, "use_shared_attention_adapter", "use_shared_mlp_adapter", "add_bias_linear", "use_conv_bias")
    _tie_or_default(r, d)
    return d


def gen_nemotron_h(r: R) -> Cfg:
    heads = r.choice([2, 4])
    h = heads * 16
    n = r.randint(2, 8)
    pattern = "".join(r.choice("M*-") for _ in range(n))
    d: Cfg = {
        "model_type": "nemotron_h",
        "architectures": ["NemotronHForCausalLM"],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "num_attention_heads": heads,
        "num_key_value_heads": _kv(r, heads),
        "head_dim": r.choice([16, 32]),
        "intermediate_size": r.choice([2 * h, 100]),
        "num_hidden_layers": n,
        "hybrid_override_pattern": pattern,
        "mamba_num_heads": r.choice([2, 4]),
        "mamba_head_dim": r.choice([8, 16]),
        "n_groups": r.choice([1, 2]),
        "ssm_state_size": r.choice([8, 16]),
        "use_mamba_kernels": False,
    }
    _flags(r, d, "attention_bias", "mlp_bias", "use_bias", "use_conv_bias")
    _maybe_tie(r, d)
    return d


# --- encoders -----------------------------------------------------------------------------------


def _bert_like(r: R, model_type: str, arch: str | None) -> Cfg:
    h, a, _ = _heads(r)
    d: Cfg = {
        "model_type": model_type,
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "num_hidden_layers": r.randint(1, 4),
        "num_attention_heads": a,
        "intermediate_size": r.choice([h * 4, 100]),
        "max_position_embeddings": r.choice([64, 130, 514]),
        "type_vocab_size": r.choice([1, 2]),
        "pad_token_id": 1,
    }
    if arch:
        d["architectures"] = [arch]
    return d


def gen_roberta(r: R) -> Cfg:
    return _bert_like(r, "roberta", r.choice(["RobertaForMaskedLM", "RobertaModel", "RobertaForCausalLM"]))


def gen_xlm_roberta(r: R) -> Cfg:
    return _bert_like(r, "xlm-roberta", r.choice(["XLMRobertaForMaskedLM", "XLMRobertaModel"]))


def gen_camembert(r: R) -> Cfg:
    heads = ["CamembertForMaskedLM", "CamembertModel", "CamembertForCausalLM"]
    return _bert_like(r, "camembert", r.choice(heads))


def gen_mpnet(r: R) -> Cfg:
    """No token types; MPNetEmbeddings fixes its padding index at 1, whatever pad_token_id says."""
    d = _bert_like(r, "mpnet", r.choice(["MPNetForMaskedLM", "MPNetModel"]))
    del d["type_vocab_size"]
    d["pad_token_id"] = r.choice([0, 1])
    _maybe(r, d, "relative_attention_num_buckets", [8, 32])
    _maybe_tie(r, d)
    return d


def gen_ernie(r: R) -> Cfg:
    d = _bert_like(r, "ernie", r.choice(["ErnieForMaskedLM", "ErnieModel"]))
    d["pad_token_id"] = 0
    _maybe(r, d, "use_task_id", [True, False], 0.8)
    _maybe(r, d, "task_type_vocab_size", [1, 3, 5])
    _maybe_tie(r, d)
    return d


def gen_xlm_roberta_xl(r: R) -> Cfg:
    """RoBERTa's keys; pre-norm layers and a final LayerNorm change no key."""
    d = _bert_like(r, "xlm-roberta-xl", r.choice(["XLMRobertaXLForMaskedLM", "XLMRobertaXLModel"]))
    _maybe_tie(r, d)
    return d


def gen_megatron_bert(r: R) -> Cfg:
    d = _bert_like(r, "megatron-bert", r.choice(["MegatronBertForMaskedLM", "MegatronBertModel"]))
    d["pad_token_id"] = 0
    _maybe_tie(r, d)
    return d


def gen_esm(r: R) -> Cfg:
    """Absolute or rotary positions, the embedding norm on, off or null (EsmConfig's default), the
    contact head's L·a inputs through the layers and heads; no token types."""
    d = _bert_like(r, "esm", r.choice(["EsmForMaskedLM", "EsmModel"]))
    del d["type_vocab_size"]
    d["max_position_embeddings"] = r.choice([64, 130, 1026])
    _maybe(r, d, "position_embedding_type", ["absolute", "rotary"], 0.8)
    _maybe(r, d, "emb_layer_norm_before", [True, False, None])
    _flags(r, d, "token_dropout")
    d["mask_token_id"] = 2
    _maybe_tie(r, d)
    return d


def _windows(r: R, n: int) -> int | list[int]:
    """Longformer's and LED's attention_window: one even number, or a list of one per layer."""
    if r.random() < 0.5:
        return r.choice([2, 8, 512])
    return [r.choice([2, 4, 16]) for _ in range(n)]


def gen_longformer(r: R) -> Cfg:
    """attention_window one for all layers or one per layer (it changes no shape; the importer reads it)."""
    d = _bert_like(r, "longformer", r.choice(["LongformerForMaskedLM", "LongformerModel"]))
    d["attention_window"] = _windows(r, d["num_hidden_layers"])
    _maybe_tie(r, d)
    return d


def gen_electra(r: R) -> Cfg:
    d = _bert_like(r, "electra", r.choice(["ElectraForPreTraining", "ElectraForMaskedLM", "ElectraModel"]))
    d["embedding_size"] = r.choice([d["hidden_size"], 16, 32])
    return d


def gen_deberta_v2(r: R) -> Cfg:
    d = _bert_like(r, "deberta-v2", r.choice([None, "DebertaV2ForMaskedLM"]))
    d.update({"relative_attention": r.random() < 0.7, "position_buckets": r.choice([-1, 16, 256])})
    d["type_vocab_size"] = r.choice([0, 2])
    _flags(r, d, "position_biased_input", "share_att_key")
    _maybe(r, d, "norm_rel_ebd", ["layer_norm", "none"])
    _maybe(r, d, "pos_att_type", ["p2c|c2p", "c2p", ["p2c", "c2p"]])
    _maybe(r, d, "embedding_size", [16, 32])
    return d


def gen_distilbert(r: R) -> Cfg:
    h, a, _ = _heads(r)
    d: Cfg = {
        "model_type": "distilbert",
        "architectures": [r.choice(["DistilBertForMaskedLM", "DistilBertModel"])],
        "vocab_size": _vocab(r),
        "dim": h,
        "n_heads": a,
        "n_layers": r.randint(1, 4),
        "hidden_dim": r.choice([h * 4, 100]),
        "max_position_embeddings": r.choice([64, 512]),
        "sinusoidal_pos_embds": r.random() < 0.3,
        "pad_token_id": 0,
    }
    _maybe_tie(r, d)
    return d


def gen_modernbert(r: R) -> Cfg:
    h, a, _ = _heads(r)
    d: Cfg = {
        "model_type": "modernbert",
        "architectures": [r.choice(["ModernBertForMaskedLM", "ModernBertModel"])],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "num_attention_heads": a,
        "num_hidden_layers": r.randint(1, 4),
        "intermediate_size": r.choice([h * 2, 100]),
        "global_attn_every_n_layers": r.choice([1, 3]),
        "local_attention": 16,
        "pad_token_id": 0,
    }
    _flags(r, d, "attention_bias", "mlp_bias", "norm_bias", "decoder_bias", "classifier_bias")
    _maybe_tie(r, d)
    return d


# --- encoder-decoders ---------------------------------------------------------------------------


def _bart_like(r: R, model_type: str, arch: str) -> Cfg:
    h, a, _ = _heads(r, 128)
    d: Cfg = {
        "model_type": model_type,
        "architectures": [arch],
        "vocab_size": _vocab(r),
        "d_model": h,
        "encoder_layers": r.randint(1, 3),
        "decoder_layers": r.randint(1, 3),
        "encoder_attention_heads": a,
        "decoder_attention_heads": a,
        "encoder_ffn_dim": r.choice([64, 100, 4 * h]),
        "decoder_ffn_dim": r.choice([64, 100, 4 * h]),
        "max_position_embeddings": r.choice([64, 128, 1024]),
        "scale_embedding": r.random() < 0.5,
        "pad_token_id": 1,
        "decoder_start_token_id": 2,
    }
    _tie_or_default(r, d)
    return d


def gen_m2m_100(r: R) -> Cfg:
    return _bart_like(r, "m2m_100", "M2M100ForConditionalGeneration")


def gen_marian(r: R) -> Cfg:
    d = _bart_like(r, "marian", "MarianMTModel")
    d["pad_token_id"] = d["vocab_size"] - 1
    d["decoder_start_token_id"] = d["vocab_size"] - 1
    if r.random() < 0.4:  # a separate target vocabulary (share_encoder_decoder_embeddings false)
        d["share_encoder_decoder_embeddings"] = False
        d["decoder_vocab_size"] = r.randint(50, 1000)
        d["pad_token_id"] = min(d["vocab_size"], d["decoder_vocab_size"]) - 1
        d["decoder_start_token_id"] = d["pad_token_id"]
    return d


def gen_mbart(r: R) -> Cfg:
    return _bart_like(r, "mbart", "MBartForConditionalGeneration")


def gen_pegasus(r: R) -> Cfg:
    d = _bart_like(r, "pegasus", "PegasusForConditionalGeneration")
    d["pad_token_id"] = 0
    d["decoder_start_token_id"] = 0
    return d


def gen_led(r: R) -> Cfg:
    """BART's keys with a position table per stack (no offset) and the encoder's attention windows."""
    d = _bart_like(r, "led", r.choice(["LEDForConditionalGeneration", "LEDModel"]))
    del d["max_position_embeddings"], d["scale_embedding"]
    d["max_encoder_position_embeddings"] = r.choice([64, 256])
    d["max_decoder_position_embeddings"] = r.choice([32, 64])
    d["attention_window"] = _windows(r, d["encoder_layers"])
    _maybe(r, d, "decoder_attention_heads", [2, 4])
    return d


def gen_umt5(r: R) -> Cfg:
    return _t5_like(r, "umt5", "UMT5ForConditionalGeneration")


def gen_longt5(r: R) -> Cfg:
    d = _t5_like(r, "longt5", "LongT5ForConditionalGeneration")
    kind = r.choice(["transient-global", "transient-global", "local", None])  # None: the class default
    if kind is not None:
        d["encoder_attention_type"] = kind
    _maybe(r, d, "local_radius", [1, 3, 127])
    _maybe(r, d, "global_block_size", [2, 16])
    return d


def gen_switch_transformers(r: R) -> Cfg:
    """Sparse layers every step of each stack, the step derived from a count of sparse layers (0 too:
    it still makes layer 1 sparse) or set outright, as a published file does."""
    d = _t5_like(r, "switch_transformers", "SwitchTransformersForConditionalGeneration")
    del d["feed_forward_proj"]  # Switch reads dense_act_fn, never gated
    d.pop("tie_word_embeddings", None)
    _tie_or_default(r, d)
    d["num_decoder_layers"] = d.get("num_decoder_layers", r.randint(1, 4))  # the class defaults to 12
    d["dense_act_fn"] = r.choice(["relu", "gelu_new", "silu"])
    d["num_experts"] = r.choice([1, 2, 4, 8])
    for stack, layers in (("encoder", d["num_layers"]), ("decoder", d["num_decoder_layers"])):
        d[f"num_sparse_{stack}_layers"] = r.randint(0, layers)
        _maybe(r, d, f"{stack}_sparse_step", [1, 2, 3], p=0.3)
    _flags(r, d, "router_bias", p=0.4)
    return d


def _t5gemma_stack(r: R, h: int) -> Cfg:
    """One T5Gemma stack (T5GemmaModuleConfig) of width h: its own heads, FFN, layers, vocabulary,
    biases and sliding/full pattern (or the class's alternation), a window or none."""
    a = r.choice([a for a in (1, 2, 4, 8) if h % a == 0])  # validate_architecture: a divides h
    n = r.randint(1, 4)
    d: Cfg = {
        "hidden_size": h,
        "intermediate_size": r.choice([h * 2, 100]),
        "num_hidden_layers": n,
        "num_attention_heads": a,
        "num_key_value_heads": _kv(r, a),
        "head_dim": r.choice([h // a, 8, 16]),
        "vocab_size": _vocab(r),
        "max_position_embeddings": 128,
        "pad_token_id": 0,
    }
    _flags(r, d, "attention_bias", p=0.4)
    _maybe(r, d, "sliding_window", [4, 64, None], p=0.5)
    if r.random() < 0.5:
        d["layer_types"] = _sliding_types(r, n)
    return d


def gen_t5gemma(r: R) -> Cfg:
    """An encoder and a decoder of one width (9B-2B's two widths are refused), each drawn apart."""
    h, _, _ = _heads(r)
    d: Cfg = {
        "model_type": "t5gemma",
        "architectures": ["T5GemmaForConditionalGeneration"],
        "encoder": _t5gemma_stack(r, h),
        "decoder": _t5gemma_stack(r, h),
    }
    _maybe_tie(r, d)
    _dtype(r, d)
    return d


# --- vision-language ----------------------------------------------------------------------------


def _text(r: R, model_type: str, **extra: Any) -> Cfg:
    h, a, _ = _heads(r)
    d: Cfg = {
        "model_type": model_type,
        "vocab_size": r.randint(300, 1000),
        "hidden_size": h,
        "intermediate_size": r.choice([h * 2, 100]),
        "num_hidden_layers": r.randint(1, 3),
        "num_attention_heads": a,
        "num_key_value_heads": _kv(r, a),
        "pad_token_id": 0,
    }
    d.update(extra)
    return d


def _vit(r: R, **keys: str) -> Cfg:
    """A small ViT under the key names a vision config uses (hidden/heads/layers/ffn/patch)."""
    heads = r.choice([2, 4])
    h = heads * r.choice([8, 16])
    names = {"hidden": "hidden_size", "heads": "num_attention_heads", "layers": "num_hidden_layers"}
    names.update({"ffn": "intermediate_size", "patch": "patch_size", **keys})
    return {
        names["hidden"]: h,
        names["heads"]: heads,
        names["layers"]: r.randint(1, 3),
        names["ffn"]: r.choice([2 * h, 4 * h, 100]),
        names["patch"]: r.choice([4, 8, 14]),
    }


def _image_ids(d: Cfg, key: str = "image_token_id") -> Cfg:
    d[key] = d["text_config"]["vocab_size"] - 1
    return d


def _qwen_vl(r: R, model_type: str, arch: str, text_type: str, vision: Cfg) -> Cfg:
    text = _text(r, text_type, head_dim=r.choice([8, 16]))
    text["rope_parameters"] = {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [1, 1, 2]}
    text["head_dim"] = 8
    d: Cfg = {"model_type": model_type, "architectures": [arch], "text_config": text, "vision_config": vision}
    d["vision_config"]["out_hidden_size"] = text["hidden_size"]
    _maybe_tie(r, d)
    return _image_ids(d)


def gen_qwen2_vl(r: R) -> Cfg:
    vision = _vit(r, hidden="embed_dim", heads="num_heads", layers="depth", ffn="mlp_ratio")
    vision["mlp_ratio"] = r.choice([2, 4])
    vision["spatial_merge_size"] = r.choice([1, 2])
    d = _qwen_vl(r, "qwen2_vl", "Qwen2VLForConditionalGeneration", "qwen2_vl_text", vision)
    vision["hidden_size"] = vision.pop("out_hidden_size")  # Qwen2-VL calls the output width hidden_size
    return d


def gen_qwen2_5_vl(r: R) -> Cfg:
    vision = _vit(r, heads="num_heads", layers="depth")
    vision["spatial_merge_size"] = r.choice([1, 2])
    vision["fullatt_block_indexes"] = [0]
    return _qwen_vl(r, "qwen2_5_vl", "Qwen2_5_VLForConditionalGeneration", "qwen2_5_vl_text", vision)


def _qwen3_vision(r: R) -> Cfg:
    vision = _vit(r, heads="num_heads", layers="depth")
    vision["spatial_merge_size"] = r.choice([1, 2])
    vision["num_position_embeddings"] = r.choice([16, 64])
    vision["deepstack_visual_indexes"] = sorted(
        r.sample(range(vision["depth"]), r.randint(0, vision["depth"]))
    )
    return vision


def gen_qwen3_vl(r: R) -> Cfg:
    return _qwen_vl(r, "qwen3_vl", "Qwen3VLForConditionalGeneration", "qwen3_vl_text", _qwen3_vision(r))


def gen_qwen3_vl_moe(r: R) -> Cfg:
    d = _qwen_vl(
        r, "qwen3_vl_moe", "Qwen3VLMoeForConditionalGeneration", "qwen3_vl_moe_text", _qwen3_vision(r)
    )
    d["text_config"].update(_experts(r, "num_experts", "num_experts_per_tok"))
    d["text_config"]["moe_intermediate_size"] = r.choice([16, 32])
    d["text_config"]["decoder_sparse_step"] = r.choice([1, 2])
    return d


def _siglip(r: R) -> Cfg:
    vision = _vit(r)
    vision.update(
        {"model_type": "siglip_vision_model", "image_size": vision["patch_size"] * r.choice([2, 4, 8])}
    )
    return vision


def gen_gemma3(r: R) -> Cfg:
    text = _text(r, "gemma3_text", head_dim=r.choice([8, 16]), sliding_window=16)
    vision = _siglip(r)
    patches = vision["image_size"] // vision["patch_size"]
    tokens = r.choice([t for t in (1, 4, 16, 64) if t <= patches * patches and patches % int(t**0.5) == 0])
    d: Cfg = {
        "model_type": "gemma3",
        "architectures": ["Gemma3ForConditionalGeneration"],
        "text_config": text,
        "vision_config": vision,
        "mm_tokens_per_image": tokens,
    }
    _maybe_tie(r, d)
    return _image_ids(d, "image_token_index")


def gen_paligemma(r: R) -> Cfg:
    text = _text(r, r.choice(["gemma", "gemma2"]), head_dim=r.choice([8, 16]))
    vision = _siglip(r)
    d: Cfg = {
        "model_type": "paligemma",
        "architectures": ["PaliGemmaForConditionalGeneration"],
        "text_config": text,
        "vision_config": vision,
        "projection_dim": text["hidden_size"],
    }
    _maybe_tie(r, d)
    return _image_ids(d, "image_token_index")


def _clip(r: R) -> Cfg:
    vision = _vit(r)
    vision.update({"model_type": "clip_vision_model", "image_size": vision["patch_size"] * r.choice([2, 4])})
    return vision


def gen_llava(r: R) -> Cfg:
    text = _text(r, r.choice(["llama", "mistral", "qwen2"]))
    d: Cfg = {
        "model_type": "llava",
        "architectures": ["LlavaForConditionalGeneration"],
        "text_config": text,
        "vision_config": _clip(r),
        "vision_feature_layer": r.choice([-1, -2]),
    }
    _flags(r, d, "multimodal_projector_bias")
    _maybe_tie(r, d)
    return _image_ids(d, "image_token_index")


def _pixtral_vision(r: R) -> Cfg:
    vision = _vit(r)
    head_dim = vision["hidden_size"] // vision["num_attention_heads"]
    return {**vision, "model_type": "pixtral", "head_dim": head_dim, "image_size": vision["patch_size"] * 4}


def gen_pixtral(r: R) -> Cfg:
    """Pixtral as published: a llava wrapper around a pixtral vision encoder (or the encoder alone)."""
    vision = _pixtral_vision(r)
    if r.random() < 0.25:
        return {**vision, "architectures": ["PixtralVisionModel"]}
    d: Cfg = {
        "model_type": "llava",
        "architectures": ["LlavaForConditionalGeneration"],
        "text_config": _text(r, "mistral"),
        "vision_config": vision,
        "vision_feature_layer": -1,
        "vision_feature_select_strategy": "full",
    }
    _maybe_tie(r, d)
    return _image_ids(d, "image_token_index")


def gen_llava_next(r: R) -> Cfg:
    vision = _clip(r)
    size = vision["image_size"]
    d: Cfg = {
        "model_type": "llava_next",
        "architectures": ["LlavaNextForConditionalGeneration"],
        "text_config": _text(r, r.choice(["llama", "mistral"])),
        "vision_config": vision,
        "image_grid_pinpoints": [[size, 2 * size], [2 * size, size]],
    }
    _flags(r, d, "multimodal_projector_bias")
    _maybe_tie(r, d)
    return _image_ids(d, "image_token_index")


def gen_llava_onevision(r: R) -> Cfg:
    """LLaVA-NeXT's parts around a SigLIP (or CLIP) tower; a text_config tie is taken upwards."""
    vision = _siglip(r) if r.random() < 0.7 else _clip(r)
    size = vision["image_size"]
    text = _text(r, r.choice(["qwen2", "llama", "mistral"]))
    _maybe(r, text, "tie_word_embeddings", [True], 0.5)  # taken upwards whatever the top level says
    d: Cfg = {
        "model_type": "llava_onevision",
        "architectures": ["LlavaOnevisionForConditionalGeneration"],
        "text_config": text,
        "vision_config": vision,
        "vision_feature_layer": r.choice([-1, -2, [-2, -1]]),
        "image_grid_pinpoints": [[size, size], [size, 2 * size]],
    }
    _flags(r, d, "multimodal_projector_bias")
    _maybe_tie(r, d)
    return _image_ids(d, "image_token_index")


def gen_aya_vision(r: R) -> Cfg:
    """SigLIP, a pixel shuffle, LayerNorm and a SwiGLU MLP (alignment_intermediate_size wide or the
    text width), and a Cohere-2 or Cohere language model."""
    text = _text(r, r.choice(["cohere2", "cohere"]))
    if text["model_type"] == "cohere2":
        text.update({"sliding_window": 16, "sliding_window_pattern": r.choice([2, 4])})
    d: Cfg = {
        "model_type": "aya_vision",
        "architectures": ["AyaVisionForConditionalGeneration"],
        "text_config": text,
        "vision_config": _siglip(r),
        "downsample_factor": r.choice([2, 2, 1]),
    }
    _maybe(r, d, "alignment_intermediate_size", [16, 32, 64, 4 * text["hidden_size"]])
    _maybe_tie(r, d)
    return _image_ids(d, "image_token_index")


def gen_mistral3(r: R) -> Cfg:
    vision = _pixtral_vision(r)
    d: Cfg = {
        "model_type": "mistral3",
        "architectures": ["Mistral3ForConditionalGeneration"],
        "text_config": _text(r, "mistral", head_dim=r.choice([8, 16])),
        "vision_config": vision,
        "spatial_merge_size": r.choice([1, 2]),
    }
    _flags(r, d, "multimodal_projector_bias")
    _maybe_tie(r, d)
    return _image_ids(d, "image_token_index")


def _idefics3_like(r: R, model_type: str, arch: str, vision_type: str) -> Cfg:
    vision = _vit(r)
    vision["model_type"] = vision_type
    vision["image_size"] = vision["patch_size"] * 4
    d: Cfg = {
        "model_type": model_type,
        "architectures": [arch],
        "text_config": _text(r, "llama"),
        "vision_config": vision,
        "scale_factor": r.choice([1, 2]),
    }
    _maybe_tie(r, d)
    return _image_ids(d)


def gen_idefics3(r: R) -> Cfg:
    return _idefics3_like(r, "idefics3", "Idefics3ForConditionalGeneration", "idefics3_vision")


def gen_smolvlm(r: R) -> Cfg:
    return _idefics3_like(r, "smolvlm", "SmolVLMForConditionalGeneration", "smolvlm_vision")


def gen_internvl(r: R) -> Cfg:
    vision = _vit(r)
    vision["model_type"] = "internvl_vision"
    vision["image_size"] = [vision["patch_size"] * 4] * 2
    vision["patch_size"] = [vision["patch_size"]] * 2
    _flags(r, vision, "attention_bias", "use_qk_norm", "use_mean_pooling", "use_absolute_position_embeddings")
    _maybe(r, vision, "norm_type", ["layer_norm", "rms_norm"])
    _maybe(r, vision, "layer_scale_init_value", [0.0, 0.1])
    d: Cfg = {
        "model_type": "internvl",
        "architectures": ["InternVLForConditionalGeneration"],
        "text_config": _text(r, r.choice(["qwen2", "llama"])),
        "vision_config": vision,
        "downsample_ratio": 0.5,
    }
    _maybe_tie(r, d)
    return _image_ids(d)


def gen_glm4v(r: R) -> Cfg:
    vision = _vit(r, heads="num_heads", layers="depth")
    vision.update({"model_type": "glm4v", "spatial_merge_size": 2, "image_size": vision["patch_size"] * 4})
    _flags(r, vision, "attention_bias")
    text = _text(r, "glm4v_text")
    text["rope_parameters"] = {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [1, 1, 2]}
    vision["out_hidden_size"] = text["hidden_size"]
    d: Cfg = {
        "model_type": "glm4v",
        "architectures": ["Glm4vForConditionalGeneration"],
        "text_config": text,
        "vision_config": vision,
    }
    _maybe_tie(r, d)
    return _image_ids(d)


def gen_llama4(r: R) -> Cfg:
    text = _text(r, "llama4_text", head_dim=r.choice([8, 16]))
    n = text["num_hidden_layers"]
    text.update(_experts(r, "num_local_experts", "num_experts_per_tok"))
    text["intermediate_size_mlp"] = r.choice([32, 64])
    text["interleave_moe_layer_step"] = r.choice([1, 2])
    text["no_rope_layers"] = r.choice([[], [r.choice([0, 1]) for _ in range(n)]])
    _flags(r, text, "use_qk_norm")
    vision = _vit(r)
    vision.update({"model_type": "llama4_vision_model", "image_size": vision["patch_size"] * 4})
    vision.update(
        {"vision_output_dim": r.choice([16, 32]), "projector_input_dim": 32, "projector_output_dim": 32}
    )
    vision["pixel_shuffle_ratio"] = 0.5
    d: Cfg = {
        "model_type": "llama4",
        "architectures": ["Llama4ForConditionalGeneration"],
        "text_config": text,
        "vision_config": vision,
    }
    _maybe_tie(r, d)
    return _image_ids(d, "image_token_index")


def gen_mllama(r: R) -> Cfg:
    text = _text(r, "mllama_text_model")
    n = text["num_hidden_layers"] = r.randint(2, 5)
    text["cross_attention_layers"] = sorted(r.sample(range(n), r.randint(1, n)))
    vision = _vit(r, heads="attention_heads")
    vision.update({"model_type": "mllama_vision_model", "image_size": vision["patch_size"] * 4})
    vision["num_global_layers"] = r.randint(1, 2)
    vision["max_num_tiles"] = r.choice([1, 4])
    vision["intermediate_layers_indices"] = sorted(r.sample(range(vision["num_hidden_layers"]), 1))
    vision["vision_output_dim"] = vision["hidden_size"] * (1 + len(vision["intermediate_layers_indices"]))
    vision["supported_aspect_ratios"] = [[1, 1]] if vision["max_num_tiles"] == 1 else [[1, 1], [1, 2], [2, 1]]
    d: Cfg = {
        "model_type": "mllama",
        "architectures": ["MllamaForConditionalGeneration"],
        "text_config": text,
        "vision_config": vision,
    }
    return _image_ids(d, "image_token_index")


# model_types spelt with a hyphen, which a function's name cannot hold.
_MODEL_TYPES = {
    "xlm_roberta": "xlm-roberta",
    "xlm_roberta_xl": "xlm-roberta-xl",
    "deberta_v2": "deberta-v2",
    "megatron_bert": "megatron-bert",
    "openai_gpt": "openai-gpt",
}
GENERATORS_V3: dict[str, Callable[[R], Cfg]] = {
    _MODEL_TYPES.get(name.removeprefix("gen_"), name.removeprefix("gen_")): fn
    for name, fn in dict(globals()).items()
    if name.startswith("gen_") and callable(fn)
}
