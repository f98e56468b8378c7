"""Image tokens follow what each family's image processor does to the image (core.families.
image_resize), against tests/golden/image_tokens.json (tools/measure_image_tokens.py: transformers'
smart_resize for Qwen2-VL, the fixed-size resizes of Gemma-3, PaliGemma and LLaVA-1.5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paramtally.core.cli import main
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.vision import seen_size, tokens_per_image, tower_tokens_per_image

GOLDEN = json.loads((Path(__file__).parents[1] / "golden" / "image_tokens.json").read_text())["cases"]


@pytest.mark.parametrize("case", GOLDEN, ids=lambda c: f"{c['preset']}-{c['image_size']}")
def test_tokens_follow_the_processor(case: dict[str, object]) -> None:
    arch = load_builtin(str(case["preset"]))
    size = int(case["image_size"])  # type: ignore[call-overload]
    assert list(seen_size(arch, size)) == case["seen"]
    assert tokens_per_image(arch, size) == case["tokens"]
    class_token = int(arch.vision.patches.class_token) if arch.vision else 0
    assert tower_tokens_per_image(arch, size) == int(case["patches"]) + class_token  # type: ignore[call-overload]


def test_golden_holds_the_cases_the_qa_pass_found() -> None:
    found = {(c["preset"], c["image_size"]): c["tokens"] for c in GOLDEN}
    assert found["qwen2.5-vl-7b", 1000] == 1296  # 1008²: 72² patches merged 2×2
    assert found["gemma-3-4b", 1024] == 256
    assert found["llava-1.5-7b", 672] == 576


def test_families_not_modelled_take_the_image_as_given() -> None:
    arch = load_builtin("idefics3-8b")  # Idefics3's splitting into tiles is not modelled
    assert seen_size(arch, 728) == (728, 728)


def test_the_cli_says_the_tokens_of_the_resized_image(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "qwen2.5-vl-7b", "--image-size", "1000"]) == 0
    out = capsys.readouterr().out
    assert "1,296 tokens in the context (5,184 patches in the tower per image)" in out
    assert "resized to 1,008×1,008" in out
