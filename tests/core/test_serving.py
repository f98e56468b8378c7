"""Serving estimates: prefill, decode speed, the largest batch, KV for prompt + generated, cost."""

from __future__ import annotations

import csv
import io
import json
import warnings
from pathlib import Path

import pytest

from paramtally.core.cli import main
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.estimate import Scenario, estimate_memory, stage_terms
from paramtally.core.memory.fit import fit_setups
from paramtally.core.memory.flops import estimate_flops
from paramtally.core.memory.gpus import CatalogWarning, find_gpu, load_catalog, user_catalog_path
from paramtally.core.memory.serving import estimate_serving

LLAMA3 = load_builtin("llama-3-8b")
SERVE = Scenario(context=4096, generated=512, batch=8)


def _setup(setups, gpu: str, count: int):  # type: ignore[no-untyped-def]
    return next(fit for fit in setups if fit.gpu == gpu and fit.count == count)


# --- the KV cache holds the prompt and the generated tokens -----------------------------------


def test_kv_cache_holds_prompt_plus_generated_tokens() -> None:
    with_generated = estimate_memory(LLAMA3, Scenario(context=3000, generated=1000))
    assert with_generated.kv_cache_bytes == estimate_memory(LLAMA3, Scenario(context=4000)).kv_cache_bytes
    assert with_generated.kv_cache_bytes == 4000 * 128 * 1024  # Llama-3-8B: 128 KiB per token
    term = next(one for one in with_generated.terms if one.part == "kv_cache")
    assert "(s + n)" in term.formula and "(3000 + 1000)" in term.formula


def test_sliding_window_caps_prompt_plus_generated() -> None:
    mistral = load_builtin("mistral-7b-v0.1")  # window 4096
    at = estimate_memory(mistral, Scenario(context=3000, generated=5000)).kv_cache_bytes
    assert at == estimate_memory(mistral, Scenario(context=4096)).kv_cache_bytes


def test_the_longest_context_leaves_room_for_the_generated_tokens() -> None:
    """Found from the same terms: the prompt that fits shrinks by exactly the generated tokens."""
    arch, s = load_builtin("llama-2-13b"), Scenario(context=3000, batch=4)
    plain = _setup(fit_setups(arch, s), "a100-40gb", 1).max_context
    generated = _setup(fit_setups(arch, s.model_copy(update={"generated": 1000})), "a100-40gb", 1)
    assert 1000 < plain < 4096 - 1000  # memory binds, not the model's 4,096 positions
    assert generated.max_context == plain - 1000
    # and that prompt is the longest whose whole memory (prompt + generated) fits
    gpu = find_gpu("a100-40gb")
    at = s.model_copy(update={"generated": 1000, "context": generated.max_context})
    assert estimate_memory(arch, at).total_bytes <= gpu.capacity_bytes(s.utilization_cap)
    above = at.model_copy(update={"context": generated.max_context + 1})
    assert estimate_memory(arch, above).total_bytes > gpu.capacity_bytes(s.utilization_cap)


# --- prefill and decode -----------------------------------------------------------------------


def test_prefill_is_the_forward_flops_of_the_prompts_at_the_mfu() -> None:
    """Each prompt's tokens at the forward FLOPs per token, but the LM head's 2·e·V for the last one
    alone, whose logits a server samples (the issue, #34: the head's logits for all 4,096 prompt
    tokens made Llama-3-8B's prefill 7 % too slow at 4k)."""
    report = estimate_serving(LLAMA3, SERVE)
    assert report is not None
    gpu = find_gpu(SERVE.gpu)
    flops = estimate_flops(LLAMA3, SERVE)
    forward, head = flops.forward_per_token, 2 * 4096 * 128_256  # FLOPs per token at s = 4096
    request = SERVE.context * (forward - head) + head
    assert flops.prefill_per_request == request
    expected = SERVE.batch * request / (gpu.bf16_tflops * 1e12 * SERVE.mfu)
    assert report.prefill_seconds == pytest.approx(expected, rel=1e-12)
    every_token = SERVE.batch * SERVE.context * forward / (gpu.bf16_tflops * 1e12 * SERVE.mfu)
    assert every_token / report.prefill_seconds == pytest.approx(1.070, abs=0.001)
    term = next(t for t in flops.terms if t.name == "prefill per request")
    assert term.expr == "s·(F − 2·e·V) + 2·e·V" and "last prompt token only" in term.source


def test_an_encoder_decoders_prefill_runs_the_encoder_over_its_own_tokens() -> None:
    """QA: T5-base read 16 prompt tokens in 0.144 ms whether its encoder had 512 tokens or 2,048 (the
    encoder was run at the decoder's 16, causally, and no cross-attention); Whisper's 1,500 frames were
    2% of their FLOPs. The encoder's tokens each attend all of them (4·L·s_enc·d); the decoder's
    cross-attend over them (4·L·s_enc·d)."""
    t5 = load_builtin("t5-base")  # 12 + 12 layers, d = 12 heads × 64 = 768
    gpu = find_gpu("h100-sxm-80gb")
    short, long = (Scenario(context=16, encoder_tokens=n, batch=8) for n in (512, 2048))
    flops = {n: estimate_flops(t5, scenario) for n, scenario in ((512, short), (2048, long))}
    terms = {n: {term.name: term for term in report.terms} for n, report in flops.items()}
    encoder, decoder = "forward per encoder token (prefill)", "forward per decoder token (prefill)"
    layers, d, more = 12, 768, 2048 - 512
    assert terms[2048][encoder].value - terms[512][encoder].value == 4 * layers * more * d
    assert terms[2048][decoder].value - terms[512][decoder].value == 4 * layers * more * d
    head = 2 * 768 * 32_128  # the LM head, for the last prompt token alone
    for n, scenario in ((512, short), (2048, long)):
        request = n * terms[n][encoder].value + 16 * (terms[n][decoder].value - head) + head
        assert flops[n].prefill_per_request == request
        report = estimate_serving(t5, scenario)
        assert report is not None
        expected = 8 * request / (gpu.bf16_tflops * 1e12 * scenario.mfu)
        assert report.prefill_seconds == pytest.approx(expected, rel=1e-12)
    # Counted by hand: 0.00233 s and 0.01144 s on one H100 at MFU 0.4.
    assert [estimate_serving(t5, one).prefill_seconds for one in (short, long)] == pytest.approx(  # type: ignore[union-attr]
        [0.00233, 0.01144], rel=0.005
    )
    # The setups table's prefill is the same figure.
    setup = next(fit for fit in fit_setups(t5, long) if fit.gpu == "h100-sxm-80gb" and fit.count == 1)
    assert setup.prefill_seconds == pytest.approx(estimate_serving(t5, long).prefill_seconds, rel=1e-9)  # type: ignore[union-attr]


def test_decode_reads_the_weights_and_the_kv_cache_of_the_memory_report() -> None:
    """A step streams every weight but the input embedding, looked up (Llama-3-8B's head is its own)."""
    report = estimate_serving(LLAMA3, SERVE)
    memory = estimate_memory(LLAMA3, SERVE)
    assert report is not None and report.decode_bound == "memory bandwidth"
    bandwidth = find_gpu(SERVE.gpu).bandwidth_gbs * 1e9 * SERVE.bandwidth_efficiency  # as reached
    params, embedding = 8_030_261_248, 128_256 * 4096
    step = (memory.weights_bytes * (params - embedding) / params + memory.kv_cache_bytes) / bandwidth
    assert report.decode_tokens_per_second == pytest.approx(SERVE.batch / step, rel=1e-12)
    assert report.decode_tokens_per_second_per_sequence * SERVE.batch == pytest.approx(
        report.decode_tokens_per_second
    )
    assert report.kv_cache_bytes == memory.kv_cache_bytes and report.tokens_per_sequence == 4608


def test_a_pipeline_decode_step_reads_every_stage_once_in_turn() -> None:
    """QA: with 16 stages the step was 16 reads of the busiest stage (Gemma-3-1B's first, with the
    302M-parameter embedding): decode speed fell as GPUs were added, 6,077 tok/s on 4, 1,159 on 64."""
    gemma = load_builtin("gemma-3-1b")
    one, deep = Scenario(context=4096, tp=4, gpus=4), Scenario(context=4096, tp=4, pp=16, gpus=64)
    kv = sum(term.value for terms in stage_terms(gemma, deep) for term in terms if term.part == "kv_cache")
    report, single = estimate_serving(gemma, deep), estimate_serving(gemma, one)
    assert report is not None and single is not None
    streamed = next(term for term in report.terms if term.name.startswith("weights streamed"))
    step = next(term for term in report.terms if term.name == "decode step, memory (s)")
    assert step.values["K"] == kv  # every stage's cache, once
    # The stages hold what one GPU of the single stage does (its embedding on the first, looked up;
    # the tied head's copy on the last, streamed): a step streams about as much either way.
    alone = next(term for term in single.terms if term.name.startswith("weights streamed"))
    assert streamed.amount == pytest.approx(alone.amount, rel=0.01)
    assert report.decode_tokens_per_second == pytest.approx(single.decode_tokens_per_second, rel=0.02)
    weights = sum(
        term.value for terms in stage_terms(gemma, deep) for term in terms if term.part == "weights"
    )
    prefill = next(term for term in report.terms if term.name == "prefill time (s)")
    assert prefill.values["W"] == weights  # one read of every stage's weights


def test_a_pipelines_streamed_weights_say_each_stage() -> None:
    """QA: two stages said 'W_s = 69,503,033,344 = 69,503,033,344', no stage's share in sight."""
    llama = load_builtin("llama-3-70b")
    report = estimate_serving(llama, Scenario(tp=2, pp=2, gpus=4))
    assert report is not None
    streamed = next(term for term in report.terms if term.name.startswith("weights streamed"))
    step = next(term for term in report.terms if term.name == "decode step, memory (s)")
    assert streamed.expr == "W_1 + W_2" and streamed.exact == step.values["W_s"]
    # The first stage's input embedding is looked up, not streamed: it streams less than the last.
    assert streamed.values["W_1"] < streamed.values["W_2"]
    deep = estimate_serving(llama, Scenario(tp=1, pp=16, gpus=16))
    assert deep is not None
    assert next(term.expr for term in deep.terms if term.name.startswith("weights streamed")) == "W_s"


@pytest.mark.parametrize("batch", [1, 64])
def test_moe_decode_reads_the_experts_the_batch_picks(batch: int) -> None:
    """One token reads its 2 of Mixtral's 8 experts a layer; 64 tokens nearly all of them (QA: the
    step read W·A/N whatever the batch, 3.7× too little for Qwen3-30B-A3B at b = 64)."""
    mixtral = load_builtin("mixtral-8x7b")
    s = Scenario(context=4096, batch=batch, tp=2, gpus=2)
    report = estimate_serving(mixtral, s)
    memory = estimate_memory(mixtral, s)
    assert report is not None
    total, experts, embedding = 46_702_792_704, 32 * 8 * 3 * 4096 * 14336, 32000 * 4096
    read = experts * (1 - (6 / 8) ** batch)  # an expert no token of the batch picks stays unread
    streamed = memory.weights_bytes * (total - experts - embedding + read) / total
    step = (streamed + memory.kv_cache_bytes) / (3350 * 1e9 * s.bandwidth_efficiency)
    assert report.decode_tokens_per_second == pytest.approx(batch / step, rel=1e-9)
    if batch == 1:  # the active parameters, less the input embedding: A − e·V of N
        assert streamed == pytest.approx(memory.weights_bytes * (12_879_925_248 - embedding) / total)


def test_an_encoder_decoders_decode_step_streams_the_decoder_and_the_head() -> None:
    """QA: T5's step read its encoder's weights (445.8 MB a step, not 247.6): a step runs the 12
    decoder layers — less the cross-attention's K and V projections, which filled the cache at
    prefill — and the head (tied: the embedding read as the head)."""
    t5 = load_builtin("t5-base")
    report = estimate_serving(t5, Scenario(context=512))
    assert report is not None
    streamed = next(term for term in report.terms if term.name.startswith("weights streamed"))
    decoder_layers, cross_kv, head, norm = 113_273_856, 12 * 2 * 768 * 768, 32128 * 768, 768
    assert streamed.values["S"] == decoder_layers - cross_kv + head + norm
    assert streamed.values["P"] == 222_903_552 and streamed.values["W"] == 2 * 222_903_552


@pytest.mark.parametrize("weights", [{"dtype": "int4"}, {"quant": "q4_k_m"}])
def test_sixteen_bit_embeddings_are_weighed_at_their_own_bytes(weights: dict[str, str]) -> None:
    """QA: with the embeddings kept at 16 bits beside 4-bit weights, a step 'read' the input
    embedding at the average bytes (12 % too much at q4_k_m): it reads the rest and the 16-bit head."""
    s = Scenario(context=4096, keep_embeddings_16bit=True, **weights)
    report = estimate_serving(LLAMA3, s)
    assert report is not None
    held = estimate_memory(LLAMA3, s).weights_bytes
    streamed = next(term for term in report.terms if term.name.startswith("weights streamed"))
    assert streamed.value == held - 128_256 * 4096 * 2  # all but the input embedding, looked up


def test_expert_parallelism_streams_each_gpus_own_share() -> None:
    """QA: with EP 8, each GPU read W·A/N though it holds, and reads, all of the model's weights
    outside the experts: Qwen3-30B-A3B said 2,508 tok/s, above the 1,087 its 3.08 GB allow."""
    qwen = load_builtin("qwen3-30b-a3b")
    report = estimate_serving(qwen, Scenario(context=2048, gpus=8, ep=8))
    assert report is not None
    outside = estimate_memory(qwen, Scenario(context=2048, gpus=8, ep=8))
    non_expert = next(t for t in outside.terms if t.name.startswith("weights")).value
    assert report.decode_tokens_per_second < 3350e9 / non_expert
    assert report.gpus == 8  # one copy spans the 8 GPUs its experts are spread over (it said 1)


def test_a_large_batch_of_short_sequences_is_compute_bound() -> None:
    report = estimate_serving(LLAMA3, Scenario(context=128, batch=4096))
    assert report is not None and report.decode_bound == "compute"
    flops = estimate_flops(LLAMA3, Scenario(context=128)).decode_per_token  # reads all 128 cached tokens
    expected = 1 / (4096 * flops / (989e12 * 0.4))  # one step computes the batch's 4,096 tokens
    assert report.decode_tokens_per_second_per_sequence == pytest.approx(expected, rel=1e-12)


def test_every_setup_and_the_report_agree_on_the_same_layout() -> None:
    """The fit table evaluates the same formulas in floats that the report evaluates exactly."""
    setup = _setup(fit_setups(LLAMA3, SERVE, max_batch=True), "h100-sxm-80gb", 1)
    report = estimate_serving(LLAMA3, SERVE)
    assert report is not None
    assert setup.prefill_seconds == pytest.approx(report.prefill_seconds, rel=1e-12)
    assert setup.decode_tokens_per_second == pytest.approx(report.decode_tokens_per_second, rel=1e-12)
    assert setup.max_batch == report.max_batch
    for term in report.terms:
        assert term.formula.startswith(term.expr) and term.source


# --- the largest batch ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "scenario", "gpu"),
    [
        ("llama-3-8b", SERVE, "h100-sxm-80gb"),
        ("mistral-7b-v0.1", Scenario(context=32_768, generated=1024), "l40s"),
        ("jamba-v0.1", Scenario(context=65_536, tp=4, gpus=4), "h100-sxm-80gb"),
        ("llama-2-7b", Scenario(context=512, quant="q4_k_m"), "rtx-4090"),
    ],
)
def test_max_batch_is_the_largest_batch_whose_memory_fits(preset: str, scenario: Scenario, gpu: str) -> None:
    arch = load_builtin(preset)
    s = scenario.model_copy(update={"gpu": gpu})
    report = estimate_serving(arch, s)
    assert report is not None and report.max_batch > 0
    capacity = find_gpu(gpu).capacity_bytes(s.utilization_cap)
    at = estimate_memory(arch, s.model_copy(update={"batch": report.max_batch}))
    above = estimate_memory(arch, s.model_copy(update={"batch": report.max_batch + 1}))
    assert at.total_bytes <= capacity < above.total_bytes


def test_max_batch_is_zero_when_one_sequence_does_not_fit() -> None:
    report = estimate_serving(load_builtin("mixtral-8x7b"), Scenario())
    assert report is not None and report.max_batch == 0 and not report.fits


# --- cost ----------------------------------------------------------------------------------------


def test_cost_per_million_tokens_from_the_catalog_price() -> None:
    report = estimate_serving(LLAMA3, SERVE)
    assert report is not None
    price = find_gpu(SERVE.gpu).usd_per_hour
    assert price is not None and report.usd_per_gpu_hour == price
    per_token = price / 3600 / report.decode_tokens_per_second
    assert report.usd_per_million_output_tokens == pytest.approx(per_token * 1e6, rel=1e-12)
    prompt = price / 3600 * report.prefill_seconds / (SERVE.batch * SERVE.context)
    assert report.usd_per_million_prompt_tokens == pytest.approx(prompt * 1e6, rel=1e-12)


def test_a_user_gpus_file_sets_a_price_and_keeps_the_rest() -> None:
    path = user_catalog_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"gpus": [{"id": "h100-sxm-80gb", "usd_per_hour": 2.0}]}), encoding="utf-8")
    mine, builtin = find_gpu("h100-sxm-80gb"), find_gpu("h100-sxm-80gb", load_catalog(Path("/nonexistent")))
    assert mine.usd_per_hour == 2.0 and mine.model_copy(update={"usd_per_hour": None}) == builtin.model_copy(
        update={"usd_per_hour": None}
    )
    report = estimate_serving(LLAMA3, SERVE)
    assert report is not None and report.usd_per_million_output_tokens == pytest.approx(
        2.0 / 3600 / report.decode_tokens_per_second * 1e6
    )


def test_a_corrupt_user_gpus_file_is_one_warning_and_the_built_in_price_stays() -> None:
    path = user_catalog_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"gpus": [{"id": "h100-sxm-80gb", "usd_per_hour": ', encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = estimate_serving(LLAMA3, SERVE)
    messages = [str(one.message) for one in caught if issubclass(one.category, CatalogWarning)]
    assert len(messages) == 1 and "gpus.json" in messages[0] and "\n" not in messages[0]
    assert report is not None and report.usd_per_gpu_hour == 4.176


def test_a_gpu_without_a_price_has_no_cost() -> None:
    report = estimate_serving(LLAMA3, SERVE.model_copy(update={"gpu": "mi300x"}))
    assert report is not None and report.usd_per_million_output_tokens is None
    assert report.decode_tokens_per_second > 0


def test_training_has_no_serving_figures() -> None:
    assert estimate_serving(LLAMA3, Scenario(mode="training")) is None


# --- the command line ---------------------------------------------------------------------------


def test_json_has_the_issue_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "llama-3-8b", "--context", "4096", "--generated", "512", "--batch", "8",
                 "--format", "json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    report = estimate_serving(LLAMA3, SERVE)
    assert report is not None
    assert data["activations_bytes"] == estimate_memory(LLAMA3, SERVE).activations_bytes
    assert data["prefill_seconds"] == report.prefill_seconds
    assert data["decode_tokens_per_second"] == report.decode_tokens_per_second
    assert data["max_batch"] == report.max_batch == 90
    setups = fit_setups(LLAMA3, SERVE, max_batch=True)
    assert [one["max_batch"] for one in data["setups"]] == [fit.max_batch for fit in setups]
    assert all("decode_tokens_per_second" in one and "prefill_seconds" in one for one in data["setups"])
    assert data["serving"]["terms"][0]["formula"].startswith("max(b·F_p/(t·P·u), W/(f_bw·BW))")


def test_training_json_has_the_keys_empty(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "gpt2", "--mode", "training", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["prefill_seconds"] is None and data["serving"] is None and data["activations_bytes"] > 0
    assert all(one["max_batch"] is None for one in data["setups"])


def test_max_batch_flag_prints_it_for_each_listed_setup(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "llama-3-8b", "--generated", "512", "--max-batch"]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if line.startswith("GPU "))
    assert header.rstrip().endswith("max batch")
    setups = fit_setups(LLAMA3, Scenario(generated=512), max_batch=True)
    rows = [line for line in out.splitlines() if line.startswith(("NVIDIA", "AMD", "Apple"))]
    assert len(rows) == len(setups)
    assert [row.split()[-1] for row in rows] == [f"{fit.max_batch:,}" for fit in setups]
    assert "Serving on 1 × NVIDIA H100 SXM 80GB" in out and "prefill time (s): max(" in out


def test_setups_csv_carries_the_serving_columns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "llama-3-8b", "--format", "csv", "--setups", "--max-batch"]) == 0
    text = capsys.readouterr().out.split("\n\n", 1)[1]
    rows = list(csv.DictReader(io.StringIO(text)))
    h100 = next(row for row in rows if row["gpu"] == "h100-sxm-80gb" and row["count"] == "1")
    fit = _setup(fit_setups(LLAMA3, Scenario(), max_batch=True), "h100-sxm-80gb", 1)
    assert int(h100["max_batch"]) == fit.max_batch and float(h100["prefill_seconds"]) > 0


def test_bandwidth_efficiency_scales_memory_bound_decode(capsys: pytest.CaptureFixture[str]) -> None:
    """`--bandwidth-efficiency 0.5` halves Llama-3-8B's decode tokens/s against 1.0 (a memory-bound
    step reads at f_bw·BW), doubles the $ per generated token, and the setups table follows; the
    default is gpt-fast's measurement, cited in the help and the term."""
    args = ["memory", "llama-3-8b", "--context", "4096", "--format", "json"]
    figures = {}
    for share in ("1.0", "0.5"):
        assert main([*args, "--bandwidth-efficiency", share]) == 0
        data = json.loads(capsys.readouterr().out)
        figures[share] = data
    full, half = figures["1.0"], figures["0.5"]
    assert full["serving"]["decode_bound"] == half["serving"]["decode_bound"] == "memory bandwidth"
    assert half["serving"]["bandwidth_efficiency"] == 0.5
    assert half["decode_tokens_per_second"] == pytest.approx(full["decode_tokens_per_second"] / 2, rel=1e-12)
    assert half["usd_per_million_output_tokens"] == pytest.approx(2 * full["usd_per_million_output_tokens"])
    fast, slow = (
        {(one["gpu"], one["count"]): one["decode_tokens_per_second"] for one in figures[k]["setups"]}
        for k in ("1.0", "0.5")
    )
    assert all(slow[key] <= fast[key] / 2 * (1 + 1e-9) for key in fast if fast[key])
    default = Scenario()
    assert default.bandwidth_efficiency == 0.685
    report = estimate_serving(LLAMA3, SERVE)
    assert report is not None
    memory_step = next(t for t in report.terms if t.name == "decode step, memory (s)")
    assert "gpt-fast" in memory_step.source and "1,397 of 2,039 GB/s" in memory_step.source
    assert "gpt-fast" in (Scenario.model_fields["bandwidth_efficiency"].description or "")
