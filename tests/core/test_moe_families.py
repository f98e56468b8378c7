"""Issue 33's mixture-of-experts decoders, one quirk each: what transformers 5.24 builds beyond a
Mixtral layer, read from a published config.json and equal to the tensors the real class holds
(``tests/data/param_names_v3.json``, measured by ``tools/measure_golden.py --v3``). Whole-model
totals and actives of the published and random configs are in test_families / test_hf_import."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from math import prod
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.count.parameters import block_node, count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.importers.tensor_parts import part_of
from paramtally.core.schema import Architecture
from paramtally.core.terms.term import Term

ROOT = Path(__file__).resolve().parents[2]
V3 = ROOT / "tests" / "data" / "hf_configs_v3"
NAMES = json.loads((ROOT / "tests" / "data" / "param_names_v3.json").read_text(encoding="utf-8"))
GOLDEN = json.loads((ROOT / "tests" / "golden" / "families_v3.json").read_text(encoding="utf-8"))


def config(stem: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((V3 / f"{stem}.json").read_text(encoding="utf-8"))
    return data


def imported(stem: str, **changes: Any) -> Architecture:
    return import_hf_config({**config(stem), **changes}, f"{stem}.json")


def measured(stem: str, pattern: str, structure: int = -1, kind: str = "params") -> int:
    """Elements of one layer's tensors (of layer structure ``structure``) whose names match."""
    params = NAMES[stem]["layer_structures"][structure][kind]
    found = [prod(shape) for name, shape in params.items() if re.search(pattern, name)]
    assert found, f"{stem} has no tensor matching {pattern}"
    return sum(found)


def outside(stem: str, pattern: str) -> int:
    tensors = NAMES[stem]["outside_layers"]
    found = [
        prod(shape) for name, shape in tensors.items() if re.search(pattern, name) and isinstance(shape, list)
    ]
    assert found, f"{stem} has no tensor matching {pattern} outside its layers"
    return sum(found)


def nodes(node: Term) -> Iterator[Term]:
    yield node
    for child in node.children:
        yield from nodes(child)


def term(arch: Architecture, name: str, run: int = -1) -> int:
    """One layer's term named ``name`` (its name's start), in run ``run`` of the decoder."""
    layer = block_node(arch.runs[run].block, arch.hidden_size)
    leaves = [node for node in nodes(layer) if not node.children]
    (found,) = [node for node in leaves if node.name == name] or [
        node for node in leaves if node.name.startswith(name)
    ]
    params: int = found.value
    return params


def layer(arch: Architecture, run: int = -1) -> int:
    params: int = block_node(arch.runs[run].block, arch.hidden_size).value
    return params


def layer_measured(stem: str, structure: int = -1) -> int:
    return sum(prod(shape) for shape in NAMES[stem]["layer_structures"][structure]["params"].values())


# --- OLMoE ------------------------------------------------------------------------------------------


def test_olmoe_normalizes_q_and_k_over_the_whole_projection() -> None:
    """OlmoeAttention: q_norm = RMSNorm(h), k_norm = RMSNorm((h / a)·g), not one head's d_h."""
    arch = imported("olmoe-1b-7b-0924")
    assert term(arch, "q/k norms") == measured("olmoe-1b-7b-0924", r"self_attn\.[qk]_norm") == 2048 + 2048
    assert layer(arch) == layer_measured("olmoe-1b-7b-0924")


# --- Granite-3 MoE ------------------------------------------------------------------------------------


def test_granite_multipliers_scale_activations_and_hold_no_parameters() -> None:
    """embedding_multiplier, attention_multiplier, residual_multiplier and logits_scaling are floats
    the forward pass multiplies by: none of them is a parameter, whatever its value."""
    stem = "granite-3.1-3b-a800m-instruct"
    plain = dict.fromkeys(("embedding_multiplier", "attention_multiplier", "residual_multiplier"), 1.0)
    bare = count_parameters(imported(stem, **plain, logits_scaling=1.0))
    published = count_parameters(imported(stem))
    assert (
        (bare.total, bare.active)
        == (published.total, published.active)
        == (
            GOLDEN[stem]["total"],
            GOLDEN[stem]["active"],
        )
    )
    assert not [name for name in NAMES[stem]["outside_layers"] if "multiplier" in name or "scaling" in name]


def test_granitemoe_experts_sit_in_block_sparse_moe_under_a_bias_free_router() -> None:
    stem = "granite-3.1-3b-a800m-instruct"
    arch = imported(stem)
    assert term(arch, "router") == measured(stem, r"block_sparse_moe\.router\.") == 40 * 1536
    assert term(arch, "routed experts") == measured(stem, r"block_sparse_moe\.experts\.")
    assert layer(arch) == layer_measured(stem)


def test_granitemoeshared_adds_a_gated_shared_mlp_of_shared_intermediate_size() -> None:
    """GraniteMoeSharedMLP: input_linear [2s, h], output_linear [h, s], no bias; always active."""
    stem = "moe-7b-1b-active-shared-experts"
    arch = imported(stem)
    assert term(arch, "shared experts") == measured(stem, r"shared_mlp\.") == 3 * 2048 * 2048
    assert layer(arch) == layer_measured(stem)
    routed = count_parameters(imported(stem, shared_intermediate_size=0))
    published = count_parameters(arch)
    assert published.total - routed.total == published.active - routed.active == 24 * 3 * 2048 * 2048


def test_granitemoeshared_without_a_shared_width_builds_no_shared_mlp() -> None:
    """shared_intermediate_size 0 (the class default): shared_mlp is None, as granitemoe."""
    arch = imported("moe-7b-1b-active-shared-experts", shared_intermediate_size=0)
    assert arch.runs[0].block.ffn.shared_experts == 0


# --- Phi-3.5-MoE -------------------------------------------------------------------------------------


def test_phimoe_layernorms_have_a_bias_and_the_attention_too() -> None:
    stem = "phi-3.5-moe-instruct"
    arch = imported(stem)
    norms = measured(stem, r"(input|post_attention)_layernorm\.")
    assert term(arch, "block norms") == norms == 2 * 2 * 4096
    assert term(arch, "biases") == measured(stem, r"self_attn\.[qkvo]_proj\.bias")
    assert outside(stem, r"^model\.norm\.") == 2 * 4096
    assert layer(arch) == layer_measured(stem)


def test_phimoe_head_has_a_bias_with_lm_head_bias() -> None:
    stem = "phi-3.5-moe-instruct"
    with_bias, without = (count_parameters(imported(stem, lm_head_bias=on)) for on in (True, False))
    assert with_bias.total - without.total == outside(stem, r"^lm_head\.bias") == 32064
    assert imported(stem).head.bias


def test_phimoe_router_has_no_bias() -> None:
    stem = "phi-3.5-moe-instruct"
    assert term(imported(stem), "router") == measured(stem, r"mlp\.router\.") == 16 * 4096


# --- DBRX ---------------------------------------------------------------------------------------------


def test_dbrx_reads_its_nested_attention_and_ffn_configs() -> None:
    """attn_config.kv_n_heads (8) shapes Wqkv [h + 2·g·d_h, h]; ffn_config's experts of 10752."""
    stem = "dbrx-instruct"
    arch = imported(stem)
    mixer, ffn = arch.runs[0].block.mixer, arch.runs[0].block.ffn
    assert (mixer.num_heads, mixer.num_kv_heads) == (48, 8)
    assert (ffn.num_experts, ffn.top_k, ffn.expert_width) == (16, 4, 10752)
    attention = measured(stem, r"attn\.(Wqkv|out_proj)")
    assert attention == (6144 + 2 * 8 * 128) * 6144 + 6144 * 6144
    assert (
        sum(node.value for node in nodes(block_node(arch.runs[0].block, 6144)) if node.name == "attention")
        == attention
    )


def test_dbrx_fused_2d_experts_hold_the_numbers_of_e_gated_experts() -> None:
    """DbrxExpertGLU: w1, v1, w2 each [E·f, h] = [172032, 6144]."""
    stem = "dbrx-instruct"
    assert (
        term(imported(stem), "routed experts")
        == measured(stem, r"ffn\.experts\.mlp\.(w1|v1|w2)")
        == 3 * 172032 * 6144
    )


def test_dbrx_layernorms_have_no_bias() -> None:
    stem = "dbrx-instruct"
    arch = imported(stem)
    assert term(arch, "block norms") == measured(stem, r"norm_[12]\.") == 2 * 6144
    assert outside(stem, r"norm_f\.") == 6144
    assert layer(arch) == layer_measured(stem)


def test_dbrx_clip_qkv_holds_no_parameters() -> None:
    stem = "dbrx-instruct"
    clipped = count_parameters(imported(stem)).total
    data = config(stem)
    unclipped = count_parameters(
        import_hf_config({**data, "attn_config": {**data["attn_config"], "clip_qkv": None}}, "c")
    ).total
    assert clipped == unclipped == GOLDEN[stem]["total"]


def test_dbrx_refuses_a_tied_head_as_its_config_does() -> None:
    with pytest.raises(ParamTallyError, match=r"tie_word_embeddings is true, which DbrxConfig refuses"):
        imported("dbrx-instruct", tie_word_embeddings=True)


def test_dbrx_a_nested_config_that_is_not_an_object_is_refused_naming_it() -> None:
    with pytest.raises(ParamTallyError, match=r"attn_config must be an object or null"):
        imported("dbrx-instruct", attn_config=8)
    with pytest.raises(ParamTallyError, match=r"ffn_config\.moe_top_k must be a positive integer"):
        imported("dbrx-instruct", ffn_config={"moe_top_k": 0})


# --- ERNIE-4.5-MoE -------------------------------------------------------------------------------------


def test_ernie_router_correction_bias_is_a_parameter_counted_per_moe_layer() -> None:
    """Ernie4_5_MoeStatics.e_score_correction_bias: nn.Parameter [1, E], requires_grad False."""
    stem = "ernie-4.5-21b-a3b-pt"
    assert measured(stem, r"moe_statics\.e_score_correction_bias") == 64
    arch = imported(stem)
    router, bias = term(arch, "router"), term(arch, "router correction bias (frozen)")
    assert (router, bias) == (64 * 2560, 64)  # the weight trains, the correction bias is frozen
    assert router + bias == measured(stem, r"mlp\.gate\.")
    assert layer(arch) == layer_measured(stem)


def test_ernie_moe_layers_follow_start_end_and_interval() -> None:
    """Layer i has experts when (i + 1) % interval == 0 and start <= i <= end (-1: the last)."""
    stem = "ernie-4.5-21b-a3b-pt"
    published = imported(stem)
    assert [(run.count * run.repeats, run.block.ffn.kind) for run in published.runs] == [
        (1, "dense"),
        (27, "moe"),
    ]
    assert layer(published, 0) == layer_measured(stem, 0)
    spaced = imported(stem, moe_layer_start_index=2, moe_layer_end_index=9, moe_layer_interval=2)
    kinds = [run.block.ffn.kind for run in spaced.runs for _ in range(run.count * run.repeats)]
    assert [i for i, kind in enumerate(kinds) if kind == "moe"] == [3, 5, 7, 9]


def test_ernie_use_bias_biases_attention_mlps_shared_experts_and_the_tied_head() -> None:
    """Ernie4_5_MoeForCausalLM: lm_head = nn.Linear(h, V, bias=config.use_bias), tied or not; the
    routed experts never have one."""
    stem = "ernie-4.5-21b-a3b-pt"
    arch = imported(stem, use_bias=True)
    assert arch.head.tied and arch.head.bias
    ffn = arch.runs[-1].block.ffn
    assert ffn.shared_expert_bias and not ffn.expert_bias
    plain = count_parameters(imported(stem)).total
    h, a, g, d, V, f, s = 2560, 20, 4, 128, 103424, 12288, 3072
    attention = a * d + 2 * g * d + h
    assert count_parameters(arch).total - plain == 28 * attention + (2 * f + h) + 27 * (2 * s + h) + V


# --- Hunyuan-A13B ---------------------------------------------------------------------------------------


def test_hunyuan_builds_per_head_query_and_key_layernorms_whatever_use_qk_norm_says() -> None:
    stem = "hunyuan-a13b-instruct"
    for flag in (True, False):
        arch = imported(stem, use_qk_norm=flag)
        assert term(arch, "q/k norms") == measured(stem, r"(query|key)_layernorm") == 2 * 128
    assert layer(imported(stem)) == layer_measured(stem)


def test_hunyuan_experts_and_shared_mlp_take_intermediate_size_not_the_moe_lists() -> None:
    """HunYuanMoEV1Moe: experts and shared_mlp of intermediate_size; moe_intermediate_size and
    num_shared_expert are not read."""
    stem = "hunyuan-a13b-instruct"
    n = 32
    ignored = {"moe_intermediate_size": [999] * n, "num_shared_expert": [3] * n}
    published, changed = count_parameters(imported(stem)), count_parameters(imported(stem, **ignored))
    assert (
        (published.total, published.active)
        == (changed.total, changed.active)
        == (
            GOLDEN[stem]["total"],
            GOLDEN[stem]["active"],
        )
    )
    arch = imported(stem, intermediate_size=1024)
    assert term(arch, "shared experts") == 3 * 4096 * 1024
    assert term(arch, "routed experts") == 64 * 3 * 4096 * 1024


def test_hunyuan_cross_layer_attention_keys_are_not_read() -> None:
    """transformers 5.24 reads no use_cla / cla_share_factor: every layer has its own k and v."""
    stem = "hunyuan-a13b-instruct"
    shared = count_parameters(imported(stem, use_cla=True, cla_share_factor=2)).total
    assert shared == GOLDEN[stem]["total"]


def test_hunyuan_top_k_per_layer_from_a_list() -> None:
    stem = "hunyuan-a13b-instruct"
    arch = imported(stem, moe_topk=[2] * 16 + [8] * 16)
    assert [(run.count * run.repeats, run.block.ffn.top_k) for run in arch.runs] == [(16, 2), (16, 8)]
    report = count_parameters(arch)
    expert = 3 * 4096 * 3072
    assert report.total - report.active == 16 * (64 - 2) * expert + 16 * (64 - 8) * expert
    with pytest.raises(
        ParamTallyError, match=r"moe_topk must be a positive integer or a list of one per layer"
    ):
        imported(stem, moe_topk=[8] * 31)


def test_hunyuan_without_head_dim_is_refused_as_transformers_cannot_build_it() -> None:
    data = {key: value for key, value in config("hunyuan-a13b-instruct").items() if key != "head_dim"}
    with pytest.raises(ParamTallyError, match=r"head_dim is missing: HunYuanMoEV1Attention reads it"):
        import_hf_config(data, "c")


# --- MiniMax-M2 ------------------------------------------------------------------------------------------


def test_minimax_m2_normalizes_q_and_k_over_the_whole_projection() -> None:
    """MiniMaxM2Attention: q_norm [a·d_h] = [6144], k_norm [g·d_h] = [1024] on h = 3072."""
    stem = "minimax-m2"
    arch = imported(stem)
    assert term(arch, "q/k norms") == measured(stem, r"self_attn\.[qk]_norm") == 6144 + 1024
    assert term(arch, "q") == 3072 * 6144
    assert layer(arch) == layer_measured(stem)


def test_minimax_m2_head_dim_defaults_to_128_not_h_over_a() -> None:
    data = {key: value for key, value in config("minimax-m2").items() if key != "head_dim"}
    arch = import_hf_config({**data, "hidden_size": 1024, "num_attention_heads": 16}, "c")
    assert arch.runs[0].block.mixer.head_dim == 128


def test_minimax_m2_router_bias_is_a_buffer_and_no_shared_expert_is_built() -> None:
    stem = "minimax-m2"
    buffers = NAMES[stem]["layer_structures"][0]["buffers"]
    assert buffers["mlp.e_score_correction_bias"]["buffer"] == "persistent"
    arch = imported(stem, shared_intermediate_size=4096)
    assert term(arch, "router") == measured(stem, r"mlp\.gate\.") == 256 * 3072
    assert arch.runs[0].block.ffn.shared_experts == 0


# --- dots.llm1 ---------------------------------------------------------------------------------------------


def test_dots1_is_first_k_dense_with_shared_experts_and_per_head_q_k_norms() -> None:
    stem = "dots.llm1.inst"
    arch = imported(stem)
    assert [(run.count * run.repeats, run.block.ffn.kind) for run in arch.runs] == [(1, "dense"), (61, "moe")]
    assert layer(arch, 0) == layer_measured(stem, 0)
    assert layer(arch) == layer_measured(stem)
    assert term(arch, "q/k norms") == measured(stem, r"self_attn\.[qk]_norm") == 2 * 128
    assert term(arch, "shared experts") == measured(stem, r"shared_experts\.") == 3 * 4096 * 2 * 1408


def test_dots1_router_correction_bias_is_a_buffer_not_counted() -> None:
    stem = "dots.llm1.inst"
    buffers = NAMES[stem]["layer_structures"][-1]["buffers"]
    assert buffers["mlp.gate.e_score_correction_bias"] == {"buffer": "persistent", "shape": [128]}
    assert term(imported(stem), "router") == measured(stem, r"mlp\.gate\.") == 128 * 4096


# --- DeepSeek-V3.2 ---------------------------------------------------------------------------------------


def test_deepseek_v32_indexer_has_its_own_parameters_in_every_layer() -> None:
    """DeepseekV32Indexer: wq_b [n_i·d_i, r_q], wk [d_i, h], k_norm LayerNorm(d_i) with β,
    weights_proj [n_i, h]: 13,959,424 a layer in V3.2-Exp."""
    stem = "deepseek-v3.2-exp"
    arch = imported(stem)
    for run in (0, -1):
        assert term(arch, "indexer", run) == measured(stem, r"self_attn\.indexer\.", run) == 13_959_424
        assert layer(arch, run) == layer_measured(stem, run)
    v3 = count_parameters(imported(stem, model_type="deepseek_v3")).total
    assert count_parameters(arch).total - v3 == 61 * 13_959_424 == GOLDEN[stem]["total"] - 671_026_404_352


def test_deepseek_v32_indexer_caches_its_key_beside_the_latent() -> None:
    from paramtally.core.blocks import Context

    mixer = imported("deepseek-v3.2-exp").runs[0].block.mixer
    assert mixer.cache(Context(7168), 1).per_token == 512 + 64 + 128


def test_deepseek_v32_needs_the_q_latent() -> None:
    with pytest.raises(ParamTallyError, match=r"q_lora_rank is null, but DeepSeek-V3.2"):
        imported("deepseek-v3.2-exp", q_lora_rank=None)


def test_deepseek_v32_reads_a_files_own_mlp_layer_types() -> None:
    stem = "deepseek-v3.2-exp"
    types = ["dense"] * 5 + ["sparse"] * 56
    arch = imported(stem, mlp_layer_types=types)
    assert [(run.count * run.repeats, run.block.ffn.kind) for run in arch.runs] == [(5, "dense"), (56, "moe")]
    with pytest.raises(ParamTallyError, match=r"mlp_layer_types must list"):
        imported(stem, mlp_layer_types=["dense"] * 3)


def test_deepseek_v32_mtp_layer_is_counted_apart() -> None:
    report = count_parameters(imported("deepseek-v3.2-exp"))
    assert report.total == GOLDEN["deepseek-v3.2-exp"]["total"] and report.mtp > 0


# --- verify: the checkpoint's tensor names land in the parts the count predicts ------------------------

MOE_STEMS = [
    "olmoe-1b-7b-0924",
    "granite-3.1-3b-a800m-instruct",
    "moe-7b-1b-active-shared-experts",
    "phi-3.5-moe-instruct",
    "dbrx-instruct",
    "ernie-4.5-21b-a3b-pt",
    "hunyuan-a13b-instruct",
    "minimax-m2",
    "dots.llm1.inst",
    "deepseek-v3.2-exp",
    "jetmoe-8b",
]


@pytest.mark.parametrize("stem", MOE_STEMS)
def test_the_built_models_tensors_fall_in_the_predicted_parts(stem: str) -> None:
    from tests.core.test_tensor_parts_v3 import saved_tensors

    found: dict[str, int] = {}
    for name, n, is_param in saved_tensors(NAMES[stem]):
        if is_param:
            found[part_of(name)] = found.get(part_of(name), 0) + n
    arch = import_hf_config({**config(stem), "architectures": [GOLDEN[stem]["model_class"]]}, "c")
    predicted = {part: n for part, n in count_parameters(arch).by_part.items() if n}
    found = {part: n for part, n in found.items() if n}
    assert found == predicted


@pytest.mark.parametrize(
    ("name", "part"),
    [
        # as save_pretrained writes them (transformers 5.24's conversion back to the published names)
        ("model.layers.0.block_sparse_moe.input_linear.weight", "moe_experts"),  # Granite-3 MoE
        ("model.layers.0.block_sparse_moe.output_linear.weight", "moe_experts"),
        ("model.layers.0.shared_mlp.input_linear.weight", "shared_experts"),
        ("model.layers.0.block_sparse_moe.router.layer.weight", "router"),
        ("model.layers.0.mlp.gate.wg.weight", "router"),  # Hunyuan
        ("model.layers.1.mlp.gate.moe_statics.e_score_correction_bias", "router"),  # ERNIE: a parameter
        ("transformer.blocks.0.norm_attn_norm.attn.Wqkv.weight", "attention"),  # DBRX
        ("transformer.blocks.0.norm_attn_norm.attn.out_proj.weight", "attention"),
        ("transformer.blocks.0.norm_attn_norm.norm_1.weight", "norms"),
        ("model.layers.0.self_attn.indexer.wq_b.weight", "attention"),  # DeepSeek-V3.2
        ("model.layers.0.mlp.input_linear.weight", "moe_experts"),  # JetMoE's MLP experts
        ("model.layers.0.mlp.output_linear.weight", "moe_experts"),
        ("model.layers.0.mlp.bias", "moe_experts"),
        ("model.layers.0.mlp.router.layer.weight", "router"),
        ("model.layers.0.self_attention.experts.input_linear.weight", "attention"),  # its attention experts
        ("model.layers.0.self_attention.experts.bias", "attention"),
        ("model.layers.0.self_attention.experts.router.layer.weight", "router"),
        ("model.layers.0.self_attention.kv_proj.weight", "attention"),
    ],
)
def test_saved_moe_names_land_in_their_part(name: str, part: str) -> None:
    assert part_of(name) == part


# --- LongCat-Flash --------------------------------------------------------------------------------------


def test_longcat_router_scores_real_and_zero_experts() -> None:
    """LongcatFlashTopkRouter.classifier: [E + Z, h] = [768, 6144]; zero experts hold no weights."""
    stem = "longcat-flash-chat"
    arch = imported(stem)
    assert term(arch, "router", 0) == measured(stem, r"mlp\.router\.classifier") == (512 + 256) * 6144
    without = count_parameters(imported(stem, zero_expert_num=0))
    assert count_parameters(arch).total - without.total == 28 * 256 * 6144


def test_longcat_counts_the_checkpoints_experts_not_the_phantom_rows() -> None:
    """transformers 5.24 allocates gate_up_proj for E + Z experts, down_proj for E: the Z rows are
    never read, and the checkpoint holds E of each."""
    stem = "longcat-flash-chat"
    golden = GOLDEN[stem]
    assert term(imported(stem), "routed experts", 0) == 512 * 3 * 6144 * 2048
    phantom = golden["moe"][0]["phantom_per_layer"]
    assert phantom == 256 * 2 * 2048 * 6144
    assert (
        count_parameters(imported(stem)).total == golden["built"]["total"] - 28 * phantom == golden["total"]
    )


def test_longcat_block_is_two_mla_sub_layers_with_the_shortcut_moe_on_the_first() -> None:
    """num_layers blocks, each two MLAs, two dense MLPs, four norms and one MoE: the first MLP is
    the MoE's always-active shared expert here."""
    stem = "longcat-flash-chat"
    arch = imported(stem)
    kinds: dict[int, tuple[str, str]] = {}
    for run in arch.runs:
        for j in range(run.repeats):
            for i in range(run.count):
                kinds[run.start + j * run.period + i] = (run.block.mixer.kind, run.block.ffn.kind)
    assert [kinds[i] for i in range(56)] == [("mla", "moe"), ("mla", "dense")] * 28
    one_block = layer(arch, 0) + layer(arch, 1)
    assert one_block == layer_measured(stem) - GOLDEN[stem]["moe"][0]["phantom_per_layer"]
    assert term(arch, "shared experts", 0) == term(arch, "matrices", 1) == measured(stem, r"^mlps\.0\.")


def test_longcat_active_is_the_most_every_pick_a_real_expert() -> None:
    stem = "longcat-flash-chat"
    report = count_parameters(imported(stem))
    per_expert = GOLDEN[stem]["moe"][0]["per_expert"]
    assert report.total - report.active == 28 * (512 - 12) * per_expert
    assert report.active == GOLDEN[stem]["active"]


# --- JetMoE: routed experts in the attention too --------------------------------------------------------


def test_jetmoe_attention_experts_are_routed_q_and_o_over_one_shared_kv_proj() -> None:
    """JetMoeMoA: input_linear [E, g·d_h, h], output_linear [E, h, g·d_h], router [E, h], bias [h];
    kv_proj [2·g·d_h, h] outside the experts."""
    stem = "jetmoe-8b"
    arch = imported(stem)
    assert arch.runs[0].block.mixer.kind == "moa"
    experts = measured(stem, r"self_attention\.experts\.(input|output)_linear")
    assert term(arch, "experts' q and o") == experts == 8 * 2 * 2048 * 16 * 128
    assert term(arch, "k, v") == measured(stem, r"self_attention\.kv_proj") == 2 * 2048 * 16 * 128
    attention_bias = [n for n in nodes(block_node(arch.runs[0].block, 2048)) if n.name == "output bias"]
    assert [n.value for n in attention_bias] == [2048, 2048]  # the MoA's and the MoE's
    assert measured(stem, r"self_attention\.experts\.bias") == measured(stem, r"^mlp\.bias") == 2048
    assert layer(arch) == layer_measured(stem)


def test_jetmoe_active_leaves_out_the_idle_experts_of_both_sublayers() -> None:
    """Top 2 of 8 in each: 6 MLP experts (34,603,008 each) and 6 attention experts' q and o
    (8,388,608 each) idle per layer, as the golden's two MoE groups say."""
    stem = "jetmoe-8b"
    report = count_parameters(imported(stem))
    mlp, attention = (group["per_expert"] for group in GOLDEN[stem]["moe"])
    assert (mlp, attention) == (3 * 2048 * 5632, 2 * 2048 * 16 * 128)
    assert report.total - report.active == 24 * 6 * (mlp + attention)
    assert (report.total, report.active) == (GOLDEN[stem]["total"], GOLDEN[stem]["active"])


def test_jetmoe_one_expert_per_token_is_a_routed_mqa_and_all_experts_leave_none_idle() -> None:
    stem = "jetmoe-8b"
    everyone = count_parameters(imported(stem, num_experts_per_tok=8))
    assert everyone.active == everyone.total
    one = imported(stem, num_experts_per_tok=1)
    block = one.runs[0].block
    # k·g query heads over g KV heads
    assert (block.mixer.score_heads(), block.mixer.gguf_gqa(block.context(2048))) == (16, 1)


def test_jetmoe_caches_one_kv_proj_whatever_the_experts() -> None:
    """The KV cache is kv_proj's, 2·g·d_h per token and layer; routing touches only q and o."""
    arch = imported("jetmoe-8b")
    ctx = arch.runs[0].block.context(2048)
    cache = arch.runs[0].block.mixer.cache(ctx, 1)
    more = imported("jetmoe-8b", num_local_experts=16, num_experts_per_tok=4).runs[0].block
    assert more.mixer.cache(more.context(2048), 1) == cache
    assert (cache.per_token, cache.per_sequence) == (2 * 16 * 128, 0)


def test_jetmoe_refuses_more_experts_per_token_than_experts_as_its_config_does() -> None:
    with pytest.raises(ParamTallyError, match="num_experts_per_tok"):
        imported("jetmoe-8b", num_experts_per_tok=9)


def test_an_attention_switched_to_moa_keeps_its_kv_heads_and_sets_the_head_width_it_needs() -> None:
    """Llama's head width is empty (h / a); the MoA's experts need one: it starts at 128."""
    from paramtally.core.editing.layer_ops import block_with_value
    from paramtally.core.io.model_sources import load_source

    arch = load_source("llama-3-8b")
    block = block_with_value(arch.runs[0].block, ("mixer", "kind"), "moa", arch.hidden_size)
    assert block.mixer.kind == "moa"
    assert (block.mixer.num_kv_heads, block.mixer.head_dim, block.mixer.top_k) == (8, 128, 2)
