"""What frameworks really allocate (issue 14): TP past the KV heads, GGUF per-tensor types,
expert parallelism, Megatron's vocabulary padding, interleaved pipelines, few micro-batches."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from paramtally.core.cli import main
from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing.edits import with_value
from paramtally.core.errors import field_problems
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.estimate import Scenario, estimate_memory, stage_terms
from paramtally.core.memory.fit import fit_setup, fit_setups
from paramtally.core.memory.gguf_types import GGUF_DEFAULT_TYPES, stage_types, type_bytes
from paramtally.core.memory.gpus import find_gpu
from paramtally.core.memory.quant import QUANT_FORMATS
from paramtally.core.memory.stages import model_layout


def _term(report, name: str):  # type: ignore[no-untyped-def]
    return next(term for term in report.terms if term.name == name)


# --- 1. tensor parallel wider than the KV heads ------------------------------------------------

# Llama-2-70B's config.json: vocab 32000, hidden 8192, 80 layers, FFN 28672, 64 heads, 8 KV heads.
V, H, L, F, A, G = 32_000, 8192, 80, 28_672, 64, 8
D = H // A
LLAMA2_70B_NUMEL = 2 * V * H + L * (2 * H * H + 2 * H * G * D + 3 * H * F + 2 * H) + H


def test_llama2_70b_numel_from_its_config() -> None:
    assert count_parameters(load_builtin("llama-2-70b")).total == LLAMA2_70B_NUMEL == 68_976_648_192


def test_llama2_70b_tp16_weights_are_numel_over_16_plus_the_replicated_kv_share() -> None:
    report = estimate_memory(load_builtin("llama-2-70b"), Scenario(tp=16, gpus=16))
    split = LLAMA2_70B_NUMEL * 2 // 16  # bf16, every matrix split evenly
    # vLLM gives each of the 16 ranks one whole KV head (max(8/16, 1) = 1), not half of one:
    # K and V hold 2·h·d_h per layer per rank instead of 2·h·d_h·g/16.
    replicated = L * (2 * H * D * 1 - 2 * H * D * G // 16) * 2
    assert replicated == 167_772_160
    assert report.weights_bytes == split + replicated == 8_789_853_184
    share = _term(report, "replicated K/V weights (bf16)")
    assert share.value == replicated
    assert "K·(1/g − 1/t)" in share.formula and "vLLM" in share.source


def test_no_replicated_share_while_tp_divides_the_kv_heads() -> None:
    report = estimate_memory(load_builtin("llama-2-70b"), Scenario(tp=8, gpus=8))
    assert report.weights_bytes == LLAMA2_70B_NUMEL * 2 // 8
    assert not [t for t in report.terms if "replicated" in t.name]


def test_replicated_kv_share_trains_too() -> None:
    s = Scenario(mode="training", tp=16, gpus=16)
    report = estimate_memory(load_builtin("llama-2-70b"), s)
    extra = L * 2 * H * D * (16 - G) // 16  # parameters per rank beyond the even split
    assert _term(report, "replicated K/V gradients (bf16)").value == extra * 2
    states = _term(report, "replicated K/V optimizer states (AdamW m + v fp32 + fp32 master)")
    assert states.value == extra * 12


def test_the_fit_table_sees_the_replicated_share() -> None:
    arch = load_builtin("gemma-2b")  # one KV head: on 2 GPUs both keep it whole
    s = Scenario(context=1)
    fit = fit_setup(arch, s, find_gpu(s.gpu), 2)
    laid_out = Scenario(context=1, tp=2, gpus=2)
    assert (fit.tp, fit.pp) == (2, 1)
    report = estimate_memory(arch, laid_out)
    assert _term(report, "replicated K/V weights (bf16)").value > 0
    assert fit.per_gpu_bytes == report.total_bytes


# Bamba-9B (the preset): 29 Mamba-2 layers of hidden 4096, inner 8192, 128 heads, 1 group, state
# 256, conv 4 with a bias, no in_proj bias; 3 attention layers with 8 KV heads.
BH, BI, BHEADS, BN, BK, MAMBA_LAYERS = 4096, 8192, 128, 256, 4, 29


def _vllm_mamba2_numel_per_rank(t: int) -> int:
    """One Mamba-2 layer on one of t ranks, from vLLM MambaMixer2's shapes: one group (G = 1) is
    padded to t groups so each rank holds a whole one; everything else is split by t."""
    conv_dim = BI + 2 * t * BN  # I + 2·(G + t − G)·N
    in_proj = (BI + conv_dim + BHEADS) * BH // t
    conv1d = conv_dim * BK // t + conv_dim // t  # weight and bias
    return in_proj + conv1d + 3 * BHEADS // t + BI // t + BI * BH // t  # A, D, dt_bias; norm; out_proj


def test_mamba2_with_one_group_splits_over_tp_by_replicating_the_group() -> None:
    arch = load_builtin("bamba-9b")
    whole = _vllm_mamba2_numel_per_rank(1)
    extra = MAMBA_LAYERS * (_vllm_mamba2_numel_per_rank(8) - whole / 8)  # beyond an even split
    assert extra == 29 * 2 * 256 * (4096 + 4 + 1) * (1 - 1 / 8)  # the B/C rows and conv: 2·N·(h + K + 1)
    report = estimate_memory(arch, Scenario(tp=8, gpus=8))
    share = _term(report, "replicated Mamba-2 B/C weights (bf16)")
    assert share.value == extra * 2
    assert report.weights_bytes == count_parameters(arch).total * 2 // 8 + share.value
    assert "MambaMixer2" in share.source


def test_a_mamba_state_is_the_one_vllm_and_llama_cpp_keep() -> None:
    """QA: Mamba-2.8B's state at batch 8 was 104.86 MB where vLLM keeps 99.61 MB: the conv state
    holds its last K − 1 inputs (vLLM MambaStateShapeCalculator, llama.cpp's (d_conv − 1)·d_inner),
    transformers' MambaCache K of them."""
    state = _term(estimate_memory(load_builtin("mamba-2.8b"), Scenario(batch=8)), "recurrent state")
    layers, inner, conv, ssm = 64, 5120, 4, 16
    assert state.value == layers * inner * (conv - 1 + ssm) * 8 * 16 // 8 == 99_614_720


def test_mamba2_state_per_rank_keeps_a_whole_group() -> None:
    s = Scenario(tp=8, gpus=8, batch=1)
    state = _term(estimate_memory(load_builtin("bamba-9b"), s), "recurrent state")
    # vLLM's conv state (I/t + 2·max(G/t, 1)·N)·(K − 1) per rank (the conv's last K − 1 inputs) and
    # SSM state (H/t)·P·N.
    per_layer = (BI // 8 + 2 * BN) * (BK - 1) + BHEADS // 8 * (BI // BHEADS) * BN
    assert state.value == MAMBA_LAYERS * per_layer * 2


@pytest.mark.parametrize(("groups", "tp", "words"), [(2, 8, None), (8, 2, None), (3, 2, "neither divides")])
def test_mamba2_groups_and_tp(groups: int, tp: int, words: str | None) -> None:
    arch = with_value(load_builtin("bamba-9b"), ("blocks", "default", "mixer", "groups"), groups)
    if words is None:
        report = estimate_memory(arch, Scenario(tp=tp, gpus=tp))
        replicated = [t for t in report.terms if t.name.startswith("replicated Mamba-2")]
        assert bool(replicated) == (tp > groups)
        return
    with pytest.raises(ValidationError) as info:
        estimate_memory(arch, Scenario(tp=tp, gpus=tp))
    assert words in field_problems(info.value)[0][1]


# --- 2. GGUF: a type per tensor ------------------------------------------------------------------

# Published GGUF files (10^9 bytes): QuantFactory/Meta-Llama-3-8B-GGUF and TheBloke/Llama-2-7B-GGUF.
PUBLISHED = [
    ("llama-3-8b", "q4_0", 4.66),
    ("llama-3-8b", "q4_k_m", 4.92),
    ("llama-3-8b", "q8_0", 8.54),
    ("llama-2-7b", "q4_0", 3.83),
    ("llama-2-7b", "q4_k_m", 4.08),
    ("llama-2-7b", "q8_0", 7.16),
]


@pytest.mark.parametrize(("preset", "quant", "gigabytes"), PUBLISHED)
def test_gguf_weights_within_half_a_percent_of_the_published_files(
    preset: str, quant: str, gigabytes: float
) -> None:
    weights = estimate_memory(load_builtin(preset), Scenario(quant=quant)).weights_bytes  # type: ignore[arg-type]
    assert abs(weights / 1e9 / gigabytes - 1) < 0.005


@pytest.mark.parametrize(("preset", "quant", "gigabytes"), PUBLISHED)
def test_gguf_file_with_its_metadata_is_the_published_size_to_its_digits(
    preset: str, quant: str, gigabytes: float
) -> None:
    """The tensors alone are 6.6–7.1 MB short of Llama-3-8B's files (4.65, 4.91, 8.53 GB where 4.66,
    4.92, 8.54 are published): the tokenizer, estimated from the vocabulary, makes up the rest."""
    report = estimate_memory(load_builtin(preset), Scenario(quant=quant))  # type: ignore[arg-type]
    data, metadata, total = report.file_terms
    assert data.value == report.weights_bytes and total.value == data.value + metadata.value
    assert round(total.value / 1e9, 2) == gigabytes
    assert "estimate" in total.name and "estimate" in metadata.name and "estimate" in metadata.source


def test_gguf_metadata_by_hand() -> None:
    """Llama 3's BPE vocabulary: 128,256 tokens of about 7 bytes with their 8-byte length and int32
    type, and its 280,147 merges; Llama-2's SentencePiece: 32,000 tokens with a float32 score each."""
    llama3 = estimate_memory(load_builtin("llama-3-8b"), Scenario(quant="q4_k_m")).file_terms[1]
    assert llama3.value == 128_256 * (8 + 7 + 4) + 280_147 * (8 + 7 + 1) == 6_919_216
    llama2 = estimate_memory(load_builtin("llama-2-7b"), Scenario(quant="q4_0")).file_terms[1]
    assert llama2.value == 32_000 * (8 + 7 + 4 + 4) and "SentencePiece" in llama2.source
    # Not on the GPU, and only for a GGUF file: a split model's file is the whole model's.
    split = estimate_memory(load_builtin("llama-3-8b"), Scenario(quant="q4_k_m", tp=2, gpus=2))
    whole = estimate_memory(load_builtin("llama-3-8b"), Scenario(quant="q4_k_m"))
    assert split.file_terms[-1].value == whole.file_terms[-1].value
    assert split.total_bytes == sum(t.value for t in split.terms)
    assert not estimate_memory(load_builtin("llama-3-8b"), Scenario(quant="awq-4bit-g128")).file_terms


def test_llama3_8b_q4_k_m_by_llama_cpp_rules() -> None:
    """Q4_K everywhere but output.weight (Q6_K) and attn_v/ffn_down in use_more_bits layers
    (i < 4, i ≥ 28, (i − 4) % 3 == 2: 16 of 32) at Q6_K; norms F32."""
    v, h, f, g, d, layers = 128_256, 4096, 14_336, 8, 128, 32
    more = [i for i in range(layers) if i < layers // 8 or i >= 7 * layers // 8 or (i - layers // 8) % 3 == 2]
    assert len(more) == 16
    q6k = v * h + len(more) * (h * g * d + f * h)
    norms = layers * 2 * h + h
    total = count_parameters(load_builtin("llama-3-8b")).total
    q4k = total - q6k - norms
    expected = q4k * 144 // 256 + q6k * 210 // 256 + norms * 4
    report = estimate_memory(load_builtin("llama-3-8b"), Scenario(quant="q4_k_m"))
    assert report.weights_bytes == expected
    assert "llama_tensor_get_type" in report.terms[0].source


def test_q8_0_keeps_its_output_at_q8_0_and_q4_0_moves_it_to_q6_k() -> None:
    arch = load_builtin("llama-2-7b")
    stage = model_layout(arch, 1).stages[0]
    q8 = stage_types(arch, "q8_0", 0, 32, stage.params, 0, True, False).all
    q4 = stage_types(arch, "q4_0", 0, 32, stage.params, 0, True, False).all
    assert set(q8) == {"Q8_0", "F32"}
    assert q4["Q6_K"] == 32_000 * 4096  # output.weight only; token_embd stays Q4_0


def test_mixtral_eight_experts_keep_k_and_v_at_q8_0() -> None:
    arch = load_builtin("mixtral-8x7b")  # "for the 8-expert model, bumping this to Q8_0 trades ~128MB"
    stage = model_layout(arch, 1).stages[0]
    types = stage_types(arch, "q4_0", 0, 32, stage.params, 0, True, False).all
    assert types["Q8_0"] == 32 * 2 * 4096 * 8 * 128


def test_rows_that_a_block_does_not_divide_fall_back() -> None:
    arch = load_builtin("qwen1.5-moe-a2.7b")  # expert width 1408 is not a multiple of 256
    stage = model_layout(arch, 1).stages[0]
    types = stage_types(arch, "q4_k_m", 0, 24, stage.params, 0, True, False).all
    # ffn_down_exps rows are 1408 long: Q4_K → Q5_0, Q6_K → Q8_0 (tensor_type_fallback).
    assert types["Q5_0"] > 0 and types["Q8_0"] > 0
    assert types["Q5_0"] + types["Q8_0"] == 24 * 60 * 1408 * 2048


@pytest.mark.parametrize("preset", ["gemma-2-9b", "llama-3-8b", "deepseek-v3", "whisper-small", "gpt2"])
@pytest.mark.parametrize("pp", [1, 3])
def test_gguf_types_cover_every_parameter_of_every_stage(preset: str, pp: int) -> None:
    arch = load_builtin(preset)
    for quant in GGUF_DEFAULT_TYPES:
        for stage in model_layout(arch, pp).stages:
            last = stage.index == pp - 1
            types = stage_types(arch, quant, stage.first, stage.count, stage.params, stage.index, last, False)
            assert sum(types.all.values()) == stage.params
            assert all(count > 0 for count in types.all.values())


def test_gguf_default_block_bits_are_gguf_s_own_table() -> None:
    for quant, kind in GGUF_DEFAULT_TYPES.items():
        block, size = type_bytes(kind)
        assert QUANT_FORMATS[quant].bits == size * 8 / block
    assert QUANT_FORMATS["iq4_xs"].bits == 4.25


# --- 5. expert parallelism ---------------------------------------------------------------------


def test_expert_parallel_divides_routed_experts_and_their_states() -> None:
    arch = load_builtin("mixtral-8x7b")
    experts = count_parameters(arch).by_part["moe_experts"]
    total = count_parameters(arch).total
    s = Scenario(mode="training", gpus=8, ep=8)
    report = estimate_memory(arch, s)
    assert _term(report, "routed expert weights (bf16)").value == experts * 2 // 8
    assert _term(report, "routed expert gradients (bf16)").value == experts * 2 // 8
    assert _term(report, "weights (bf16)").value == (total - experts) * 2
    without = estimate_memory(arch, Scenario(mode="training", gpus=8))
    assert without.weights_bytes - report.weights_bytes == experts * 2 * 7 // 8
    assert report.activations_bytes == without.activations_bytes  # balanced routing: same pairs per GPU
    assert any("all-to-all" in note for note in report.omissions)


def test_expert_parallel_with_zero_shards_experts_over_all_data_parallel_gpus() -> None:
    arch = load_builtin("mixtral-8x7b")
    experts = count_parameters(arch).by_part["moe_experts"]
    report = estimate_memory(arch, Scenario(mode="training", gpus=16, ep=4, zero=1))
    # Each expert lives on 16/4 = 4 GPUs, whose ZeRO-1 shards its states: /(ep·N_d/ep) = /N_d.
    state = _term(report, "routed expert optimizer states (AdamW m + v fp32 + fp32 master)")
    assert state.value == experts * 12 // 16
    assert _term(report, "routed expert gradients (bf16)").value == experts * 2 // 4


@pytest.mark.parametrize(
    ("preset", "values", "field", "words"),
    [
        ("mixtral-8x7b", {"gpus": 4, "ep": 8}, "ep", "data-parallel"),
        ("mixtral-8x7b", {"gpus": 16, "ep": 16}, "ep", "8 experts"),
        ("llama-2-7b", {"gpus": 2, "ep": 2}, "ep", "MoE"),
        ("llama-2-7b", {"mode": "training", "virtual_stages": 2}, "virtual_stages", "pipeline"),
        ("llama-2-7b", {"mode": "training", "pp": 8, "gpus": 8, "virtual_stages": 8}, "virtual_stages", "32"),
        (
            "llama-2-7b",
            {"mode": "training", "pp": 4, "gpus": 4, "virtual_stages": 2, "micro_batches": 6},
            "micro_batches",
            "multiple",
        ),
    ],
)
def test_parallel_layouts_that_cannot_be_name_the_field(
    preset: str, values: dict[str, object], field: str, words: str
) -> None:
    with pytest.raises(ValidationError) as info:
        estimate_memory(load_builtin(preset), Scenario.model_validate(values))
    path, reason = field_problems(info.value)[0]
    assert path == (field,)
    assert words in reason


def test_fit_table_keeps_expert_parallel_where_the_layout_allows() -> None:
    arch = load_builtin("mixtral-8x7b")
    setups = fit_setups(arch, Scenario(mode="training", gpus=8, ep=8, zero=1))
    layouts = {fit.layout for fit in setups if fit.count == 64}
    assert any("EP=8" in layout for layout in layouts)


# --- 5. Megatron's vocabulary padding -------------------------------------------------------------


def test_megatron_pads_the_vocabulary_to_a_multiple_of_128_t() -> None:
    arch = load_builtin("gpt3-175b")  # V = 50257, untied head: two vocabulary matrices
    s = Scenario(mode="training", tp=8, gpus=8, context=2048, vocab_padding=True)
    report = estimate_memory(arch, s)
    rows = 51_200 - 50_257  # next multiple of 128·8 = 1024
    assert _term(report, "vocabulary padding weights (bf16)").value == 2 * rows * 12288 * 2 // 8
    assert _term(report, "vocabulary padding gradients (bf16)").value == 2 * rows * 12288 * 2 // 8
    logits = _term(report, "output layer (fp32 logits)")
    assert logits.value == 4 * 2048 * (12288 + 51_200) // 8
    plain = estimate_memory(arch, s.model_copy(update={"vocab_padding": False}))
    assert not [t for t in plain.terms if "padding" in t.name]


def test_padding_sits_with_the_vocabulary_matrices_of_each_stage() -> None:
    arch = load_builtin("gpt3-175b")
    s = Scenario(mode="training", pp=4, gpus=4, context=2048, vocab_padding=True)
    stages = stage_terms(arch, s)
    rows = 50_304 - 50_257  # multiple of 128
    for index, terms in enumerate(stages):
        padding = [t for t in terms if t.name == "vocabulary padding weights (bf16)"]
        if index in (0, 3):
            assert padding[0].value == rows * 12288 * 2
        else:
            assert not padding


# --- 5. interleaved pipeline, few micro-batches ----------------------------------------------------

GPT3 = Scenario(mode="training", context=2048, flash_attention=False, pp=8, gpus=8)
GPT3_LAYER = 2_868_903_936  # Korthikanti: sbh(34 + 5as/h) at s 2048, b 1


def test_interleaved_first_stage_keeps_1_plus_p_minus_1_over_pv() -> None:
    report = estimate_memory(load_builtin("gpt3-175b"), GPT3.model_copy(update={"virtual_stages": 4}))
    # 12 layers × 8 micro-batches × (1 + 7/32): Korthikanti et al. 2022 §4.2.3.
    assert _term(report, "activations").value == 12 * GPT3_LAYER * 8 * (32 + 7) // 32


def test_fewer_micro_batches_than_stages() -> None:
    arch = load_builtin("gpt3-175b")
    report = estimate_memory(arch, GPT3.model_copy(update={"micro_batches": 3}))
    assert _term(report, "activations").value == 3 * 12 * GPT3_LAYER
    enough = estimate_memory(arch, GPT3.model_copy(update={"micro_batches": 64}))
    assert _term(enough, "activations").value == 8 * 12 * GPT3_LAYER


# --- the command line -----------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "quant", "gigabytes"), PUBLISHED)
def test_cli_quant_weights_match_the_published_files(
    preset: str, quant: str, gigabytes: float, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["memory", preset, "--quant", quant, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert abs(data["weights_bytes"] / 1e9 / gigabytes - 1) < 0.005


def test_cli_parallel_flags(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["memory", "mixtral-8x7b", "--mode", "training", "--tp", "4", "--ep", "8", "--pp", "2"]
    args += ["--virtual-stages", "2", "--micro-batches", "4", "--sequence-parallel", "--vocab-padding"]
    assert main([*args, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scenario"]["gpus"] == 4 * 8 * 2  # tp · ep · pp when --gpus is not given
    scenario = data["scenario"]
    assert (scenario["ep"], scenario["virtual_stages"], scenario["micro_batches"]) == (8, 2, 4)
    assert scenario["sequence_parallel"] and scenario["vocab_padding"]
    names = {term["term"] for term in data["terms"]}  # 32,000 rows padded to 32,256 = 63·128·4
    assert {"routed expert weights (bf16)", "vocabulary padding weights (bf16)"} <= names
    assert any("all-to-all" in note for note in data["omissions"])
    # A causal FlashAttention kernel skips the masked half full attention's model FLOPs count.
    assert data["flops"]["hardware_training_per_token"] >= data["flops"]["training_per_token_causal"]
    assert main(args) == 0
    table = capsys.readouterr().out
    assert "Not modelled: expert parallelism's all-to-all" in table and "(EP=" in table


def test_cli_bad_expert_parallel_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "mixtral-8x7b", "--ep", "3"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.splitlines() == [err] and "ep" in err and "8 experts" in err
