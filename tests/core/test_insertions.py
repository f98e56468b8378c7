"""What LoRA, adapters and new tokens add, against published counts and hand sums."""

from __future__ import annotations

from typing import Any

from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing.edits import with_value
from paramtally.core.io.presets import load_builtin
from paramtally.core.schema import Adapter, LayerGroup, LoRA


def _with_group_options(preset: str, **options: Any) -> tuple[int, Any]:
    """The preset with ``options`` (LoRA, adapter) in every layer group's block."""
    arch = load_builtin(preset)
    base = count_parameters(arch).total
    assert arch.decoder is not None
    dumped = {key: value.model_dump() for key, value in options.items()}
    layers = [
        {**group.model_dump(), "override": {**group.override, **dumped}} for group in arch.decoder.layers
    ]
    return base, count_parameters(with_value(arch, ("decoder", "layers"), layers))


def test_lora_on_llama2_7b_matches_peft() -> None:
    # PEFT's print_trainable_parameters for Llama-2-7B, r=8 on q_proj and v_proj: 4,194,304.
    base, report = _with_group_options("llama-2-7b", lora=LoRA(rank=8, targets=("q", "v")))
    assert report.added == 4_194_304
    assert report.base == base and report.total == base + 4_194_304
    lora_leaf = next(node for _, node in report.tree.leaves() if node.part == "lora")
    assert lora_leaf.formula == "r·Σ(d_in + d_out) = 8·((4096 + 4096) + (4096 + 4096)) = 131,072"


def test_lora_on_every_expert_and_the_active_share() -> None:
    # Mixtral: LoRA on w1/w2/w3 of each of the 8 experts; a token uses 2 of them.
    _, report = _with_group_options("mixtral-8x7b", lora=LoRA(rank=4, targets=("gate", "up", "down")))
    per_expert = 4 * 3 * (4096 + 14336)
    assert report.added == 32 * 8 * per_expert
    plain = count_parameters(load_builtin("mixtral-8x7b"))
    assert report.active - plain.active == 32 * 2 * per_expert


def test_houlsby_adapters() -> None:
    h, b = 768, 64
    _, report = _with_group_options("gpt2", adapter=Adapter(width=b, placement="both"))
    assert report.added == 12 * 2 * (2 * h * b + b + h)


def test_vocabulary_growth_untied_counts_embedding_and_head() -> None:
    arch = with_value(load_builtin("llama-2-7b"), ("added_vocab",), 1000)
    report = count_parameters(arch)
    assert report.added == 2 * 1000 * 4096
    assert report.by_part["vocab_growth"] == report.added


def test_group_without_insertions_adds_nothing() -> None:
    arch = load_builtin("gpt2")
    assert count_parameters(arch).added == 0
    assert arch.decoder is not None and arch.decoder.layers == (LayerGroup(count=12),)
