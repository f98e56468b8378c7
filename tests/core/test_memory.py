"""Memory per GPU against the sources' own worked examples (../shared/REFERENCE.md)."""

from __future__ import annotations

import math

import pytest
from pydantic import ValidationError

from paramtally.core.cli.scenario_flags import scenario_fields
from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing.edits import with_value
from paramtally.core.errors import field_problems
from paramtally.core.io.export import breakdown_rows
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.activations import layer_activation_bytes
from paramtally.core.memory.estimate import PARTS, Scenario, estimate_memory, stage_terms
from paramtally.core.memory.fit import fit_setups
from paramtally.core.memory.flops import estimate_flops
from paramtally.core.memory.gguf_types import GGUF_DEFAULT_TYPES
from paramtally.core.memory.model_states import model_state_terms, zero_model_states
from paramtally.core.memory.quant import QUANT_FORMATS
from paramtally.core.memory.scenario import training_only_fields
from paramtally.core.memory.serving import estimate_serving
from paramtally.core.memory.stages import model_layout, with_lora
from paramtally.core.schema import Architecture
from paramtally.core.schema.field_specs import FieldSpec
from paramtally.core.schema.group_addresses import group_block


def _term(report, name: str):  # type: ignore[no-untyped-def]
    return next(term for term in report.terms if term.name == name)


# --- KV cache ------------------------------------------------------------------------------


def test_llama3_70b_kv_cache_at_128k_is_40_gib() -> None:
    report = estimate_memory(load_builtin("llama-3-70b"), Scenario(context=131_072, batch=1))
    assert report.kv_cache_bytes == 42_949_672_960
    assert "2·80·8·128·131072·1·16/8" in _term(report, "KV cache").formula


def test_llama31_8b_kv_is_128_kib_per_token() -> None:
    report = estimate_memory(load_builtin("llama-3-8b"), Scenario(context=1))
    assert report.kv_cache_bytes == 128 * 1024


def test_deepseek_v3_mla_kv_is_70272_bytes_per_token_on_every_tp_rank() -> None:
    arch = load_builtin("deepseek-v3")
    for tp in (1, 8):
        report = estimate_memory(arch, Scenario(context=1, tp=tp, gpus=tp))
        assert report.kv_cache_bytes == 61 * 576 * 2 == 70_272
    report = estimate_memory(arch, Scenario(context=1000))
    assert report.kv_cache_bytes == 70_272 * 1000


def test_mistral_sliding_window_caps_kv_at_4096_tokens() -> None:
    arch = load_builtin("mistral-7b-v0.1")
    at_window = estimate_memory(arch, Scenario(context=4096)).kv_cache_bytes
    assert at_window == 2 * 32 * 8 * 128 * 4096 * 2
    assert estimate_memory(arch, Scenario(context=32_768)).kv_cache_bytes == at_window
    assert estimate_memory(arch, Scenario(context=2048)).kv_cache_bytes == at_window // 2


def test_gemma2_global_layers_keep_the_whole_context() -> None:
    arch = load_builtin("gemma-2-9b")  # 42 layers, every 2nd global, window 4096
    report = estimate_memory(arch, Scenario(context=8192))
    per_token_layer = 2 * 8 * 256 * 2
    assert report.kv_cache_bytes == per_token_layer * (21 * 8192 + 21 * 4096)


def test_only_the_decoder_layers_of_t5_keep_a_kv_cache() -> None:
    """T5-base: 12 decoder layers cache their self-attention (2·12·12·64 numbers a token) and their
    cross-attention over the encoder's tokens; the 12 encoder layers read the input once and keep
    nothing (transformers' T5 returns past_key_values for the decoder's layers only)."""
    arch = load_builtin("t5-base")
    report = estimate_memory(arch, Scenario(context=1000))
    assert _term(report, "KV cache").value == 2 * 12 * 12 * 64 * 1000 * 2
    assert _term(report, "cross-attention KV cache").value == 2 * 12 * 12 * 64 * 1000 * 2
    assert report.kv_cache_bytes == 2 * 2 * 12 * 12 * 64 * 1000 * 2


def test_an_encoders_layers_add_nothing_to_the_cache() -> None:
    whisper = load_builtin("whisper-small")  # 12 encoder layers, 12 decoder layers
    kv = estimate_memory(whisper, Scenario(context=448)).kv_cache_bytes
    shallow = with_value(whisper, ("encoder", "layers", 0, "count"), 1)
    assert estimate_memory(shallow, Scenario(context=448)).kv_cache_bytes == kv
    windowed = with_value(
        load_builtin("t5-base"), ("encoder", "layers", 0, "override"), {"mixer": {"sliding_window": 128}}
    )
    names = [term.name for term in estimate_memory(windowed, Scenario(context=1000)).terms]
    assert names.count("KV cache") == 1 and not any("sliding" in name for name in names)


def test_a_pipeline_stage_of_encoder_layers_keeps_no_cache() -> None:
    arch = load_builtin("t5-base")  # 24 layers: stage 0 the encoder's 12, stage 1 the decoder's
    first, last = stage_terms(arch, Scenario(context=1000, pp=2, gpus=2))
    assert not [term for term in first if term.part == "kv_cache"]
    assert sum(term.value for term in last if term.part == "kv_cache") == 2 * 2 * 12 * 12 * 64 * 1000 * 2


@pytest.mark.parametrize(
    ("changes", "bits"),
    [
        ({"kv_dtype": "bf16"}, 16),
        ({"kv_dtype": "fp8"}, 16),
        ({"kv_dtype": "q4_0"}, 32),
        ({"kv_dtype": "fp32"}, 32),
        ({"quant": "q4_k_m"}, 32),  # a GGUF: llama.cpp, whatever its cache
        ({"dtype": "fp32"}, 32),  # vLLM: the model's dtype
    ],
)
def test_the_recurrent_state_keeps_its_own_precision_whatever_the_kv_cache(
    changes: dict[str, str], bits: int
) -> None:
    """QA: Bamba's Mamba-2 state went to 4.5 bits with a q4_0 KV cache; vLLM keeps it in the model's
    dtype beside an fp8 cache, llama.cpp in F32 beside its quantized ones and with its GGUF weights."""
    bamba = load_builtin("bamba-9b")
    state = _term(estimate_memory(bamba, Scenario(**changes)), "recurrent state")
    assert state.values["bits"] == bits
    assert state.value == 29 * ((8192 + 2 * 256) * (4 - 1) + 128 * 64 * 256) * bits // 8  # conv: K − 1


def test_layers_of_several_cache_shapes_say_each_shapes_formula() -> None:
    """QA: a hand-built hybrid said 'N·s·b·bits/8' for attention beside MLA and 'N·b·bits/8' for a
    Mamba-2 beside a DeltaNet state: a number, with no formula to check it by."""
    from paramtally.core.editing import layer_ops

    arch = load_builtin("llama-3-8b")  # 32 layers: attention, MLA, Mamba-2, DeltaNet, 8 of each
    layers = arch.decoder.layers
    for group in range(3):
        layers = layer_ops.split_group(layers, group, 8)
    arch = layer_ops.with_layers(arch, layers)
    for group, mixer in ((1, "mla"), (2, "mamba2"), (3, "gated_deltanet")):
        arch = layer_ops.with_group_value(arch, ("decoder", "layers", group), ("mixer", "kind"), mixer)
    s = Scenario(context=1000, tp=2, gpus=2)
    report = estimate_memory(arch, s)
    kv, state = _term(report, "KV cache"), _term(report, "recurrent state")
    assert kv.expr == "(2·L_1·max(g/t, 1)·d_h + L_2·(r_kv + d_rope))·s·b·bits/8"
    mla = group_block(arch, ("decoder", "layers", 1)).mixer
    assert (kv.values["L_1"], kv.values["L_2"], kv.values["g"], kv.values["t"]) == (8, 8, 8, 2)
    latent = mla.kv_lora_rank + mla.qk_rope_head_dim  # type: ignore[union-attr]
    assert kv.value == (2 * 8 * 4 * 128 + 8 * latent) * 1000 * 2
    assert (
        "L_1·(" in state.expr
        and "L_2·(" in state.expr
        and (state.values["L_1"], state.values["L_2"]) == (8, 8)
    )
    # The sum of the two shapes' formulas is the state the stages count, layer by layer.
    blocks = [group_block(arch, ("decoder", "layers", group)) for group in (2, 3)]
    caches = [block.mixer.cache(block.context(arch.hidden_size), 2) for block in blocks]
    assert state.value == 8 * sum(cache.per_sequence for cache in caches) * 2


@pytest.mark.parametrize(
    ("profile", "decoder"), [("megatron", 232_833_024), ("hf-sdpa", 237_606_912), ("hf-eager", 471_914_496)]
)
def test_a_decoders_cross_attention_keeps_the_encoders_tokens(profile: str, decoder: int) -> None:
    """QA: Whisper-small trained on 448-token transcripts of 1,500 frames kept its cross-attention's
    K and V, and its scores, for 448 tokens: 18% (megatron) to 38% (hf-eager) too few decoder bytes.
    K and V are 4·g·d_h bytes per encoder token (2·kv·d_h·B for hf), the scores c·a·s·s_e; counted
    by hand from the preset (12 decoder layers, h 768, 12 heads of 64). The hf profiles also keep
    the cross-attention's query input, B·h per decoder token (12·448·2·768 = 8,257,536 more than the
    QA pass's hand count; measured on T5's decoder, tests/core/test_activations_hf.py); megatron keeps
    that input at 2·h and the cross-attention output's dropout mask h, as for the other two sublayers
    (12·448·3·768 = 12,386,304 more than the hand count's 220,446,720); Whisper's SDPA keeps each
    attention's output beside the output projection's copy (12·448·2·768·2 = 16,515,072 more; measured
    on a Whisper decoder layer, tests/core/test_activations_hf.py)."""
    whisper = load_builtin("whisper-small")
    s = Scenario(mode="training", context=448, encoder_tokens=1500, activations=profile)  # type: ignore[arg-type]
    report = estimate_memory(whisper, s)
    terms = [term for term in report.terms if term.name.startswith("activations (decoder")]
    assert sum(term.value for term in terms) == decoder
    cross = _term(report, "activations (decoder cross-attention)")
    assert (cross.values["s"], cross.values["s_e"], cross.values["L"]) == (448, 1500, 12)
    same = estimate_memory(
        whisper, Scenario(mode="training", context=448, encoder_tokens=448, activations=profile)
    )  # type: ignore[arg-type]
    assert same.activations_bytes < report.activations_bytes


def test_an_encoders_training_activations_are_for_its_own_tokens() -> None:
    """QA: Whisper's encoder kept activations for the 448-token transcript, not its 1,500 frames,
    and its term and the decoder's had one name."""
    whisper = load_builtin("whisper-large-v3")  # 32 + 32 layers, d 1280, 20 heads, FFN 5120
    report = estimate_memory(whisper, Scenario(mode="training", context=448))
    encoder = _term(report, "activations (encoder dense layers)")
    decoder = _term(report, "activations (decoder dense layers)")
    assert encoder.values["s"] == 1500 and decoder.values["s"] == 448
    more = estimate_memory(whisper, Scenario(mode="training", context=448, encoder_tokens=3000))
    assert _term(more, "activations (encoder dense layers)").value > encoder.value
    assert _term(more, "activations (decoder dense layers)").value == decoder.value


def test_tp_splits_kv_heads_and_replicates_beyond_them() -> None:
    arch = load_builtin("llama-3-70b")  # 8 KV heads
    one = estimate_memory(arch, Scenario(context=1024)).kv_cache_bytes
    assert estimate_memory(arch, Scenario(context=1024, tp=8, gpus=8)).kv_cache_bytes == one // 8
    assert estimate_memory(arch, Scenario(context=1024, tp=16, gpus=16)).kv_cache_bytes == one // 8


def test_kv_dtypes_use_llama_cpp_bits() -> None:
    arch = load_builtin("llama-3-8b")
    bf16 = estimate_memory(arch, Scenario(context=4096)).kv_cache_bytes
    assert estimate_memory(arch, Scenario(context=4096, kv_dtype="fp8")).kv_cache_bytes == bf16 // 2
    assert estimate_memory(arch, Scenario(context=4096, kv_dtype="q8_0")).kv_cache_bytes == bf16 * 85 // 160
    assert estimate_memory(arch, Scenario(context=4096, kv_dtype="q4_0")).kv_cache_bytes == bf16 * 45 // 160


# --- weights -------------------------------------------------------------------------------


_WHOLE_FORMATS = {quant for quant, fmt in QUANT_FORMATS.items() if not fmt.experts_only}


@pytest.mark.parametrize("quant", sorted(_WHOLE_FORMATS - set(GGUF_DEFAULT_TYPES)))
def test_quantized_weights_use_effective_bits(quant: str) -> None:
    arch = load_builtin("llama-2-7b")
    report = estimate_memory(arch, Scenario(quant=quant))  # type: ignore[arg-type]
    total = count_parameters(arch).total
    assert report.weights_bytes == math.ceil(total * QUANT_FORMATS[quant].bits / 8)


def test_mxfp4_keeps_the_routed_experts_alone() -> None:
    """QA: gpt-oss-20b at MXFP4 put every weight at 4.25 bits, 11.11 GB; its checkpoint (and
    transformers' Mxfp4 quantizer, vLLM) keeps the routed experts in MXFP4 and the rest in bf16:
    12.81 GiB, as its model card says. A dense model keeps all its weights at the dtype."""
    gpt_oss = load_builtin("gpt-oss-20b")
    layout = model_layout(gpt_oss, 1)
    experts = layout.stages[0].experts
    report = estimate_memory(gpt_oss, Scenario(quant="mxfp4", context=131_072))
    assert report.weights_bytes == (layout.total - experts) * 2 + experts * 17 // 32 == 13_751_518_848
    serving = estimate_serving(gpt_oss, Scenario(quant="mxfp4", context=131_072))
    assert serving is not None
    streamed = next(term for term in serving.terms if term.name.startswith("weights streamed"))
    assert streamed.value == 3_706_865_088  # the rest's S/P and the experts' Y/X, each at its bytes
    dense = load_builtin("llama-2-7b")
    assert estimate_memory(dense, Scenario(quant="mxfp4")).weights_bytes == count_parameters(dense).total * 2


def test_llama2_7b_bf16_weights() -> None:
    report = estimate_memory(load_builtin("llama-2-7b"), Scenario())
    assert report.weights_bytes == 6_738_415_616 * 2


def test_keeping_embeddings_at_16_bits() -> None:
    arch = load_builtin("llama-2-7b")
    embed = 32_000 * 4096  # token embedding and untied head, each
    plain = estimate_memory(arch, Scenario(quant="nf4")).weights_bytes
    kept = estimate_memory(arch, Scenario(quant="nf4", keep_embeddings_16bit=True)).weights_bytes
    assert kept - plain == math.ceil(2 * embed * 2) - math.ceil(2 * embed * 4.5 / 8)
    # GGUF: llama-quantize --token-embedding-type f16 --output-tensor-type f16; the token embedding
    # was Q4_0 (18 bytes per 32) and output.weight Q6_K (210 bytes per 256).
    plain = estimate_memory(arch, Scenario(quant="q4_0")).weights_bytes
    kept = estimate_memory(arch, Scenario(quant="q4_0", keep_embeddings_16bit=True)).weights_bytes
    assert kept - plain == 2 * embed * 2 - embed * 18 // 32 - embed * 210 // 256


# --- training: ZeRO, activations ----------------------------------------------------------


@pytest.mark.parametrize(("zero", "gigabytes"), [(0, 120.0), (1, 31.4), (2, 16.6), (3, 1.9)])
def test_zero_paper_7_5b_on_64_gpus(zero: int, gigabytes: float) -> None:
    per_gpu = sum(zero_model_states(7_500_000_000, zero, 64))
    assert round(per_gpu / 1e9, 1) == gigabytes


def test_zero_stages_in_a_full_estimate() -> None:
    arch = load_builtin("llama-2-7b")
    psi = count_parameters(arch).total
    reports = [estimate_memory(arch, Scenario(mode="training", zero=z, gpus=8)) for z in range(4)]
    assert reports[0].weights_bytes + reports[0].gradients_bytes + reports[0].optimizer_bytes == 16 * psi
    assert reports[1].optimizer_bytes == 12 * psi // 8
    assert reports[2].gradients_bytes == 2 * psi // 8
    assert reports[3].weights_bytes == 2 * psi // 8


def test_fp32_gradients_and_other_optimizers() -> None:
    arch = load_builtin("gpt2")
    psi = count_parameters(arch).total
    base = Scenario(mode="training")
    assert estimate_memory(arch, base.model_copy(update={"grad_dtype": "fp32"})).gradients_bytes == 4 * psi
    assert estimate_memory(arch, base.model_copy(update={"optimizer": "adam8bit"})).optimizer_bytes == 6 * psi
    assert estimate_memory(arch, base.model_copy(update={"optimizer": "sgd"})).optimizer_bytes == 8 * psi
    assert estimate_memory(arch, base.model_copy(update={"optimizer": "none"})).optimizer_bytes == 0


GPT3 = Scenario(mode="training", context=2048, batch=1, flash_attention=False)


def test_gpt3_activations_per_layer_korthikanti() -> None:
    arch = load_builtin("gpt3-175b")
    assert layer_activation_bytes(arch, GPT3) == 2_868_903_936
    s, b, h, a = 2048, 1, 12288, 96
    assert layer_activation_bytes(arch, GPT3) == s * b * h * 34 + 5 * a * s * s * b


def test_gpt3_recompute_and_flash_attention() -> None:
    arch = load_builtin("gpt3-175b")
    sbh = 2048 * 1 * 12288
    assert layer_activation_bytes(arch, GPT3.model_copy(update={"recompute": "full"})) == 2 * sbh
    selective = GPT3.model_copy(update={"recompute": "selective"})
    assert layer_activation_bytes(arch, selective) == 34 * sbh
    flash = GPT3.model_copy(update={"flash_attention": True})
    assert layer_activation_bytes(arch, flash) == 34 * sbh


def test_gpt3_tensor_and_sequence_parallel() -> None:
    arch = load_builtin("gpt3-175b")
    s, b, h, a, t = 2048, 1, 12288, 96, 8
    tp = GPT3.model_copy(update={"tp": t, "gpus": t})
    assert layer_activation_bytes(arch, tp) == s * b * h * 10 + s * b * h * 24 // t + 5 * a * s * s * b // t
    sp = tp.model_copy(update={"sequence_parallel": True})
    assert layer_activation_bytes(arch, sp) == (s * b * h * 34 + 5 * a * s * s * b) // t


def test_gpt3_activations_in_the_report() -> None:
    report = estimate_memory(load_builtin("gpt3-175b"), GPT3)
    assert _term(report, "activations").value == 96 * 2_868_903_936
    assert "Korthikanti" in _term(report, "activations").source


def test_pipeline_first_stage_holds_p_microbatches() -> None:
    arch = load_builtin("gpt3-175b")
    report = estimate_memory(arch, GPT3.model_copy(update={"pp": 8, "gpus": 8}))
    assert report.stage == 0
    assert report.layers_on_gpu == 12
    assert _term(report, "activations").value == 8 * 12 * 2_868_903_936


def test_gated_ffn_and_gqa_generalization() -> None:
    arch = load_builtin("llama-2-7b")  # gated, f = 11008, MHA
    s = Scenario(mode="training", context=4096)
    h, f = 4096, 11008
    r, w = 2 * h * 2 + 6 * h, 2 * (4 * h) + 8 * f
    assert layer_activation_bytes(arch, s) == 4096 * (r + w)
    gqa = load_builtin("llama-3-8b")  # 32 query heads, 8 KV heads, d_h 128, f = 14336
    expected = 2 * (2 * 32 * 128 + 2 * 8 * 128) + 8 * 14336
    assert layer_activation_bytes(gqa, s) == 4096 * (2 * 4096 * 2 + 6 * 4096 + expected)


# --- LoRA / QLoRA --------------------------------------------------------------------------


def test_lora_trains_only_the_adapters() -> None:
    arch = load_builtin("llama-2-7b")
    s = Scenario(mode="training", lora_rank=16, lora_targets=("q", "k", "v", "o"))
    report = estimate_memory(arch, s)
    adapters = count_parameters(with_lora(arch, 16, ("q", "k", "v", "o"))).by_part["lora"]
    assert adapters == 32 * 4 * 16 * (4096 + 4096)
    assert report.trainable_params == adapters
    assert report.gradients_bytes == 2 * adapters
    assert report.optimizer_bytes == 12 * adapters
    assert report.weights_bytes == 2 * 6_738_415_616 + 2 * adapters


def test_serving_leaves_the_training_only_lora_fields() -> None:
    """A LoRA rank (and QLoRA) set for training and kept while switching to serving (the window
    hides the fields) changes no serving figure. QLoRA made the served weights NF4 under a bf16
    label: 5.5 GiB for Llama-3-8B instead of 16.6 (found by a QA pass)."""
    arch = load_builtin("llama-2-7b")
    plain, kept = Scenario(), Scenario(lora_rank=16, lora_targets=("q", "k", "v", "o"), qlora=True)
    assert estimate_memory(arch, kept) == estimate_memory(arch, plain)
    assert estimate_serving(arch, kept) == estimate_serving(arch, plain)
    assert estimate_flops(arch, kept) == estimate_flops(arch, plain)
    training = Scenario(mode="training", lora_rank=16)
    assert (
        estimate_memory(arch, training).total_bytes
        != estimate_memory(arch, Scenario(mode="training")).total_bytes
    )


def test_qlora_base_in_nf4_double_quant() -> None:
    arch = load_builtin("llama-2-7b")
    report = estimate_memory(arch, Scenario(mode="training", lora_rank=8, qlora=True))
    base = _term(report, "frozen base weights (bitsandbytes NF4 + double quant)")
    assert base.value == math.ceil(6_738_415_616 * 4.127 / 8)


# --- the report as a whole and bad input ------------------------------------------------------


@pytest.mark.parametrize(
    "scenario",
    [
        Scenario(),
        Scenario(mode="training", zero=2, gpus=16, tp=2, pp=2),
        Scenario(quant="q4_k_m", keep_embeddings_16bit=True, context=65_536, batch=4),
    ],
)
def test_terms_add_up_to_the_parts(scenario: Scenario) -> None:
    report = estimate_memory(load_builtin("mixtral-8x7b"), scenario)
    for part in PARTS:
        assert sum(t.value for t in report.terms if t.part == part) == report.by_part()[part]
    assert report.total_bytes == sum(report.by_part().values())
    for term in report.terms:
        assert term.formula.endswith(f"{term.value:,}") or term.formula.endswith(str(term.value))
        assert term.source


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"context": 0}, "context"),
        ({"zero": 4}, "zero"),
        ({"gpus": 3, "tp": 2}, "gpus"),
        ({"mode": "training", "qlora": True}, "lora_rank"),
    ],
)
def test_scenario_rejects_bad_values_naming_the_field(values: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError) as info:
        Scenario.model_validate(values)
    assert field_problems(info.value)[0][0] == (field,)


def test_tp_must_divide_the_heads() -> None:
    with pytest.raises(ValidationError) as info:
        estimate_memory(load_builtin("gpt3-175b"), Scenario(tp=5, gpus=5))
    path, reason = field_problems(info.value)[0]
    assert path == ("tp",)
    assert "96" in reason


def test_every_field_has_a_description() -> None:
    for name, field in Scenario.model_fields.items():
        assert field.description, name


# --- every block its own activations (schema 2) ------------------------------------------------


def _mixtral_split(wide_first: bool) -> Architecture:
    """Mixtral's 32 MoE layers as a wide (f_e 14336) and a narrow (f_e 1024) group of 16 each."""
    arch = load_builtin("mixtral-8x7b")
    moe = arch.runs[0].block.ffn.model_dump()
    wide = {"count": 16, "override": {"ffn": moe}}
    narrow = {"count": 16, "override": {"ffn": {**moe, "expert_width": 1024}}}
    return with_value(arch, ("decoder", "layers"), [wide, narrow] if wide_first else [narrow, wide])


def test_mixtral_wide_and_narrow_moe_groups_keep_the_same_activations_in_either_order() -> None:
    s = Scenario(mode="training", context=4096)
    first, second = (estimate_memory(_mixtral_split(order), s) for order in (True, False))
    assert first.activations_bytes == second.activations_bytes
    wide = layer_activation_bytes(_mixtral_split(True), s, _mixtral_split(True).runs[0].block)
    narrow = layer_activation_bytes(_mixtral_split(True), s, _mixtral_split(True).runs[1].block)
    assert narrow < wide
    logits = _term(first, "output layer (fp32 logits)").value
    assert first.activations_bytes == 16 * wide + 16 * narrow + logits


def test_qwen3_q_k_norms_sit_under_attention_in_the_tree_and_the_csv() -> None:
    report = count_parameters(load_builtin("qwen3-8b"))
    (path,) = [path for path, _, node in report.tree.walk() if node.name.startswith("q/k norms")]
    assert path[-2:] == ("attention", "q/k norms (RMSNorm)")
    (row,) = [row for row in breakdown_rows(report) if row["name"].startswith("q/k norms")]
    assert row["path"].split(" › ")[-2] == "attention" and row["depth"] == len(path) - 1


@pytest.mark.parametrize(
    "scenario",
    [
        Scenario(mode="training", tp=2, pp=8, gpus=32, ep=2, zero=1),
        Scenario(quant="q4_k_m", pp=8, gpus=8),
        Scenario(tp=8, pp=8, gpus=64),
    ],
)
def test_stages_that_hold_alike_share_terms_equal_to_their_own(scenario: Scenario) -> None:
    # stage_terms computes model states once per kind of stage; each stage's must be its own.
    arch = load_builtin("deepseek-v3")
    layout = model_layout(arch, scenario.pp)
    adapters = scenario.mode == "training" and layout.adapters > 0
    stages = stage_terms(arch, scenario)
    for stage, terms in zip(layout.stages, stages, strict=True):
        weights, states = model_state_terms(arch, scenario, stage, adapters)
        own = [(t.name, t.expr, dict(t.values), t.value) for t in weights + states]
        shared = [
            (t.name, t.expr, dict(t.values), t.value)
            for t in terms
            if t.part in ("weights", "gradients", "optimizer")
        ]
        assert shared == own


def test_the_prefill_working_set_names_only_widths_that_differ() -> None:
    # Gemma-2's local and global layers are equally wide: one W, no max over equal symbols.
    gemma = estimate_memory(load_builtin("gemma-2-9b"), Scenario())
    working = _term(gemma, "activations (prefill working set)")
    assert "max(" not in working.expr and working.values["W"] == 36864
    # Jamba's attention and Mamba layers differ: the widest is a max over the distinct ones.
    jamba = estimate_memory(load_builtin("jamba-v0.1"), Scenario())
    working = _term(jamba, "activations (prefill working set)")
    widths = [value for name, value in working.values.items() if name.startswith("W_")]
    assert working.expr.count("W_") == len(widths) == len(set(widths)) > 1


def _other_value(spec: FieldSpec) -> object:
    """A value of a scenario field other than its default, read from the schema."""
    if spec.kind == "bool":
        return not spec.default
    if spec.kind == "choice":
        return next(choice for choice in spec.choices if choice != spec.default)
    if spec.kind == "choices":
        return spec.choices
    assert spec.kind == "int" and spec.maximum is not None
    return min(int(spec.maximum), max(int(spec.minimum or 0), int(spec.default or 0)) + 3)


@pytest.mark.parametrize("name", sorted(training_only_fields()))
def test_a_training_field_left_on_changes_no_serving_figure(name: str) -> None:
    """QA: a QLoRA tick kept when switching to inference (the window hides it) made the weights NF4;
    an interleaved pipeline left on refused pp 1; ZeRO showed in the serving setups."""
    spec = next(spec for spec in scenario_fields() if spec.name == name)
    arch = load_builtin("mixtral-8x7b")
    plain = Scenario(gpus=8, tp=8)
    kept = Scenario.model_validate({**plain.model_dump(), name: _other_value(spec), "lora_rank": 16})
    assert kept != plain
    # (The FLOPs of a training run, shown in either mode, read its recompute: not a serving figure.)
    figures = (estimate_memory, estimate_serving, fit_setups)
    assert [figure(arch, kept) for figure in figures] == [figure(arch, plain) for figure in figures]
