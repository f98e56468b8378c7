"""FLOPs per token and per run (Kaplan 2020, Chinchilla), time at MFU."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from paramtally.core.count import count_parameters
from paramtally.core.errors import field_problems
from paramtally.core.flops import estimate_flops
from paramtally.core.gpus import find_gpu
from paramtally.core.memory import Scenario
from paramtally.core.presets import load_builtin


def test_gpt3_forward_is_2n_plus_attention() -> None:
    arch = load_builtin("gpt3-175b")
    report = estimate_flops(arch, Scenario(context=2048))
    n = 175_221_817_344
    attention = 2 * 96 * 2048 * (96 * 128)
    assert report.params == n
    assert report.forward_per_token == 2 * n + attention
    assert report.training_per_token == 3 * (2 * n + attention)


def test_chinchilla_tokens_and_6nd() -> None:
    arch = load_builtin("llama-2-7b")
    n = 6_738_415_616
    report = estimate_flops(arch, Scenario(mode="training"))
    assert report.chinchilla_tokens == 20 * n
    assert report.tokens == 20 * n
    assert report.six_nd == 6 * n * 20 * n
    given = estimate_flops(arch, Scenario(mode="training", tokens=2 * 10**12))
    assert given.six_nd == 6 * n * 2 * 10**12
    assert given.run_flops == given.training_per_token * 2 * 10**12


def test_moe_uses_active_parameters() -> None:
    arch = load_builtin("mixtral-8x7b")
    report = estimate_flops(arch, Scenario(context=1))
    assert report.params == 12_879_925_248 == count_parameters(arch).active
    assert report.six_nd == 6 * report.params * report.tokens


def test_time_at_mfu_on_n_gpus() -> None:
    arch = load_builtin("llama-2-7b")
    s = Scenario(mode="training", gpus=64, mfu=0.5, gpu="a100-80gb")
    report = estimate_flops(arch, s)
    peak = find_gpu("a100-80gb").bf16_tflops * 1e12
    assert report.seconds == pytest.approx(report.run_flops / (64 * peak * 0.5))
    assert report.days == pytest.approx(report.seconds / 86_400)


def test_sliding_window_caps_the_attention_term() -> None:
    arch = load_builtin("mistral-7b-v0.1")
    long = estimate_flops(arch, Scenario(context=32_768))
    at_window = estimate_flops(arch, Scenario(context=4096))
    assert long.forward_per_token == at_window.forward_per_token


def test_lora_training_skips_base_weight_gradients() -> None:
    arch = load_builtin("llama-2-7b")
    full = estimate_flops(arch, Scenario(mode="training", context=1))
    lora = estimate_flops(arch, Scenario(mode="training", context=1, lora_rank=8))
    assert lora.training_per_token < full.training_per_token
    assert "4·N_base + 6·A" in lora.terms[2].formula


def test_unknown_gpu_names_the_field() -> None:
    with pytest.raises(ValidationError) as info:
        estimate_flops(load_builtin("gpt2"), Scenario(gpu="tpu-v9"))
    path, reason = field_problems(info.value)[0]
    assert path == ("gpu",)
    assert "tpu-v9" in reason


def test_terms_carry_formulas_and_sources() -> None:
    report = estimate_flops(load_builtin("gpt2"), Scenario())
    for term in report.terms:
        assert term.formula.replace(",", "").endswith(str(term.value))
        assert term.source
