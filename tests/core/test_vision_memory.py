"""Vision-language models in memory and on the command line: image tokens in the context (from the
image size, the patch size and the projector's merges), the tower's weights on the first stage,
frozen or trained, and its activations (estimates, said so)."""

from __future__ import annotations

import json

import pytest

from paramtally.core.cli import main
from paramtally.core.count.parameters import count_parameters
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.estimate import Scenario, estimate_memory
from paramtally.core.memory.flops import matmul_params
from paramtally.core.memory.vision import cross_image_tokens, image_tokens, tokens_per_image
from tests.core.test_vision_language import FAMILIES, VLM_PRESETS


def _terms(preset: str, **fields: object) -> dict[str, int]:
    memory = estimate_memory(load_builtin(preset), Scenario.model_validate(fields))
    return {term.name: term.value for term in memory.terms}


@pytest.mark.parametrize(
    ("preset", "tokens"),
    [
        ("qwen2.5-vl-7b", 256),  # 448² at 14² patches: 32² = 1,024, merged 2×2
        ("gemma-3-4b", 256),  # 896²: 64² = 4,096 pooled 4×4: Gemma-3's mm_tokens_per_image
        ("paligemma-3b", 256),  # 224²: 16², no merge (num_image_tokens 256)
        ("llava-1.5-7b", 576),  # 336²: 24², the class token dropped
        ("idefics3-8b", 169),  # 364²: 26² shuffled 2×2 (image_seq_len 169)
        ("internvl3-1b", 256),  # 448²: 32² shuffled 2×2 (image_seq_length 256)
        ("llama-4-scout-vision", 144),  # 336²: 24² shuffled 2×2
    ],
)
def test_tokens_per_image_follow_the_image_patches_and_merges(preset: str, tokens: int) -> None:
    assert tokens_per_image(load_builtin(preset)) == tokens


def test_qwen_tokens_follow_the_pixels() -> None:
    arch = load_builtin("qwen2.5-vl-7b")
    assert tokens_per_image(arch, 896) == (896 // 14) ** 2 // 4 == 1024
    assert image_tokens(arch, Scenario(images=3, image_size=896)) == 3 * 1024


def test_image_tokens_are_in_the_kv_cache_as_text_tokens_are() -> None:
    # Two images of 256 tokens beside 4,096 text tokens cache what 4,608 text tokens would.
    with_images = _terms("qwen2.5-vl-7b", images=2, context=4096)
    text_alone = _terms("qwen2.5-vl-7b", images=0, context=4096 + 2 * 256)
    assert with_images["KV cache"] == text_alone["KV cache"] == 2 * 28 * 4 * 128 * 4608 * 2
    assert "activations (vision tower working set)" in with_images
    assert "activations (vision tower working set)" not in text_alone


def test_mllama_caches_the_image_in_its_cross_attention_not_its_context() -> None:
    arch = load_builtin("llama-3.2-11b-vision")
    s = Scenario(images=1, context=4096)
    assert image_tokens(arch, s) == 0
    assert cross_image_tokens(arch, s) == 4 * 1601  # four tiles of 40² patches and a class token
    terms = _terms("llama-3.2-11b-vision", images=1, context=4096)
    # Eight cross-attention layers keep K and V of 8 heads of 128 for each image token, at 2 bytes.
    assert terms["cross-attention KV cache"] == 2 * 8 * 8 * 128 * 6404 * 2
    assert terms["KV cache"] == 2 * 32 * 8 * 128 * 4096 * 2  # the 32 self-attention layers, text alone


def test_weights_hold_the_tower_and_a_frozen_tower_trains_nothing() -> None:
    arch = load_builtin("gemma-3-4b")
    report = count_parameters(arch)
    frozen = estimate_memory(arch, Scenario(mode="training"))
    trained = estimate_memory(arch, Scenario(mode="training", train_vision=True))
    assert frozen.weights_bytes == trained.weights_bytes == 2 * report.total
    # bf16 gradients and AdamW's 12 bytes a parameter: none for the frozen tower's 416,866,032.
    assert trained.gradients_bytes - frozen.gradients_bytes == 2 * report.vision
    assert trained.optimizer_bytes - frozen.optimizer_bytes == 12 * report.vision
    assert trained.trainable_params - frozen.trainable_params == report.vision == 416_866_032
    names = {term.name for term in frozen.terms}
    assert "frozen vision tower weights (bf16)" in names
    assert "activations (vision tower, estimate)" not in names
    estimate = next(term for term in trained.terms if term.name == "activations (vision tower, estimate)")
    # 27 layers · 1 image · 4,096 patches · 34 · 1,152 (FlashAttention: no scores kept)
    assert estimate.value == 27 * 4096 * 34 * 1152
    assert "an estimate" in estimate.source


def test_lora_leaves_the_tower_without_adapters() -> None:
    memory = estimate_memory(load_builtin("llava-1.5-7b"), Scenario(mode="training", lora_rank=8))
    # LoRA r=8 on q and v of the 32 language-model layers alone: 2·8·(4096 + 4096) each.
    assert memory.trainable_params == 32 * 2 * 8 * (4096 + 4096)


def test_flops_per_token_leave_the_tower_out() -> None:
    arch = load_builtin("qwen2.5-vl-7b")
    text = load_builtin("qwen2.5-vl-7b").model_copy(update={"vision": None, "projector": None})
    assert matmul_params(arch) == matmul_params(text)


@pytest.mark.parametrize("preset", sorted(VLM_PRESETS))
def test_count_json_names_the_parts_and_the_text_only_total(
    preset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["count", preset, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    golden = FAMILIES[VLM_PRESETS[preset]]
    assert (data["total"], data["vision_tower"], data["projector"], data["language_model"]) == (
        golden["total"],
        golden["parts"]["vision_tower"],
        golden["parts"]["projector"],
        golden["parts"]["language_model"],
    )
    assert data["text_only_active"] == golden["text_only"]["active"]
    assert sum(part["params"] for part in data["parts"]) == data["total"]


def test_count_table_says_the_text_only_total(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", "gemma-3-4b"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "Gemma-3-4B: 4,300,079,472 parameters (4.30B)"
    assert "text only: 3,880,263,168 (3.88B) in the language model" in out
    assert "Vision tower" in out and "Projector" in out


def test_memory_command_says_the_images(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "qwen2.5-vl-7b", "--images", "2", "--image-size", "896"]) == 0
    out = capsys.readouterr().out
    assert (
        "2 images of 896² pixels: 2,048 tokens in the context (4,096 patches in the tower per image)" in out
    )
    assert "2·L·g·d_h·s·b·bits/8 = 2·28·4·128·6144·1·16/8" in out  # 4,096 text + 2,048 image tokens


def test_memory_command_refuses_nothing_but_warns_images_without_a_tower(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["memory", "gpt2", "--images", "3"]) == 0
    err = capsys.readouterr().err
    assert "--images is for models with a vision tower; ignored for GPT-2, which has none" in err
