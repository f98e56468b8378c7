"""Longformer and LED: what their attention builds beyond RoBERTa's and BART's, read from a published
config.json and equal to the tensors the real transformers 5.24 classes hold
(``tests/data/param_names_v3.json``, from ``python tools/measure_golden.py --v3``): a second set of
biased q, k and v projections for global tokens in every (encoder) layer, windows per layer, and
LED's position tables of two lengths without an offset. Whole-model totals, every head and the
randomized configs are in test_encoder_families."""

from __future__ import annotations

import json
import re
from math import prod
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.blocks import Attention, Context
from paramtally.core.count.parameters import block_node, count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.memory.activations_hf import sdpa_refusal
from paramtally.core.schema import Architecture
from paramtally.core.terms.term import Term

ROOT = Path(__file__).resolve().parents[2]
V3 = ROOT / "tests" / "data" / "hf_configs_v3"
NAMES = json.loads((ROOT / "tests" / "data" / "param_names_v3.json").read_text(encoding="utf-8"))
GOLDEN = json.loads((ROOT / "tests" / "golden" / "families_v3.json").read_text(encoding="utf-8"))


def _config(stem: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((V3 / f"{stem}.json").read_text(encoding="utf-8"))
    return data


def _measured(stem: str, prefix: str, pattern: str) -> int:
    """Numbers of one measured layer of ``prefix`` in the tensors whose names match ``pattern``."""
    (structure,) = [s for s in NAMES[stem]["layer_structures"] if s["prefix"] == prefix]
    return sum(prod(shape) for name, shape in structure["params"].items() if re.search(pattern, name))


def _node(arch: Architecture, role: str, name: str) -> Term:
    """The first layer's term ``name`` (a block's child: "attention", "ffn") in stack ``role``."""
    run = next(run for run in arch.runs if run.stack == role)
    node = block_node(run.block, arch.hidden_size)
    (found,) = [child for child in node.children if child.name == name]
    return found


def _leaf(node: Term, name: str) -> int:
    (value,) = [child.value for child in node.children if child.name == name]
    return value


@pytest.mark.parametrize("stem", ["longformer-base-4096", "longformer-large-4096"])
def test_longformer_attention_is_robertas_plus_biased_global_q_k_v_as_measured(stem: str) -> None:
    arch = import_hf_config(_config(stem), f"{stem}.json")
    attention = _node(arch, "encoder", "attention")
    prefix = "longformer.encoder.layer."
    assert attention.value == _measured(stem, prefix, r"^attention\.(self|output\.dense)\.")
    assert _leaf(attention, "global q, k, v") == _measured(stem, prefix, r"_global\.")
    h = arch.hidden_size
    assert _leaf(attention, "global q, k, v") == 3 * h * h + 3 * h


@pytest.mark.parametrize("stem", ["led-base-16384", "led-large-16384"])
def test_led_encoder_attention_is_longformers_and_its_decoder_bart_s(stem: str) -> None:
    arch = import_hf_config(_config(stem), f"{stem}.json")
    encoder = _node(arch, "encoder", "attention")
    assert encoder.value == _measured(stem, "led.encoder.layers.", r"^self_attn\.")
    assert _leaf(encoder, "global q, k, v") == _measured(stem, "led.encoder.layers.", r"_global\.")
    decoder = _node(arch, "decoder", "attention")
    assert decoder.value == _measured(stem, "led.decoder.layers.", r"^self_attn\.")
    assert all(child.name != "global q, k, v" for child in decoder.children)
    cross = _node(arch, "decoder", "cross-attention")
    assert cross.value == _measured(stem, "led.decoder.layers.", r"^encoder_attn\.")


def test_led_keeps_a_position_table_per_stack_of_its_own_length_without_offset() -> None:
    arch = import_hf_config(_config("led-base-16384"), "led-base-16384.json")
    outside = NAMES["led-base-16384"]["outside_layers"]
    assert arch.encoder is not None and arch.decoder is not None
    rows = {role: stack.max_positions + stack.position_offset for role, stack in arch.stacks}
    assert rows == {
        "encoder": outside["led.encoder.embed_positions.weight"][0],
        "decoder": outside["led.decoder.embed_positions.weight"][0],
    }
    assert (rows["encoder"], rows["decoder"]) == (16384, 1024)


def test_one_window_for_all_layers_sits_in_the_block_a_list_in_the_layer_groups() -> None:
    """Each token attends to w / 2 tokens either side and itself (one_sided_attn_window_size)."""
    data = _config("longformer-base-4096")
    arch = import_hf_config(data, "longformer-base-4096.json")
    assert {run.block.mixer.attended_window() for run in arch.runs} == {513}
    mixed = {**data, "num_hidden_layers": 4, "attention_window": [2, 2, 8, 16]}
    runs = import_hf_config(mixed, "mixed.json").runs
    windows = [run.block.mixer.attended_window() for run in runs for _ in range(run.count)]
    assert windows == [3, 3, 9, 17]
    led = {**_config("led-base-16384"), "attention_window": 256}
    assert {run.block.mixer.attended_window() for run in import_hf_config(led, "x").runs} == {257, None}


@pytest.mark.parametrize(
    ("window", "said"),
    [
        (511, "attention_window must hold even positive integers (got 511)"),
        (0, "attention_window must hold even positive integers (got 0)"),
        ([512, 512], "attention_window lists 2 windows for 12 layers"),
        ([512] * 11 + [3], "attention_window must hold even positive integers (got 3)"),
    ],
)
def test_a_window_transformers_asserts_against_is_refused_in_one_line(window: Any, said: str) -> None:
    with pytest.raises(ParamTallyError) as caught:
        import_hf_config({**_config("longformer-base-4096"), "attention_window": window}, "c.json")
    assert str(caught.value) == f"c.json: {said}"


def test_a_window_per_layer_past_the_layers_a_list_may_hold_is_refused_before_it_is_written_out() -> None:
    many = {**_config("longformer-base-4096"), "num_hidden_layers": 1 << 20}
    with pytest.raises(ParamTallyError, match=r"attention_window is one window for 1,048,576 layers"):
        import_hf_config({**many, "attention_window": 512}, "c.json")
    with pytest.raises(ParamTallyError, match=r"attention_window lists 1,048,576 layers \(at most"):
        import_hf_config({**many, "attention_window": [2]}, "c.json")


def test_led_untied_would_be_four_tables_and_is_refused() -> None:
    """LEDModel._tied_weights_keys ties both stacks' embed_tokens to shared only with the head."""
    data = {**_config("led-base-16384"), "tie_word_embeddings": False}
    with pytest.raises(ParamTallyError, match="four V·d_model tables"):
        import_hf_config(data, "c.json")


def test_bare_models_have_no_lm_head_longformer_its_pooler() -> None:
    led = import_hf_config({**_config("led-base-16384"), "architectures": ["LEDModel"]}, "c.json")
    assert not led.head.present and count_parameters(led).total == GOLDEN["led-base-16384"]["total"]
    bare = {**_config("longformer-base-4096"), "architectures": ["LongformerModel"]}
    arch = import_hf_config(bare, "c.json")
    by_class = GOLDEN["longformer-base-4096"]["by_class"]
    assert arch.head.pooler and count_parameters(arch).total == by_class["LongformerModel"]


@pytest.mark.parametrize(
    ("heads", "kv_heads", "head_dim", "biases"),
    [(12, None, None, True), (12, 4, None, True), (12, None, 32, False), (8, 2, 16, True)],
)
def test_global_projections_repeat_q_k_v_with_their_biases(
    heads: int, kv_heads: int | None, head_dim: int | None, biases: bool
) -> None:
    """Whatever the heads' shape, the global set is q, k and v again (weights and biases)."""
    ctx = Context(h=768)
    plain = Attention(num_heads=heads, num_kv_heads=kv_heads, head_dim=head_dim, q_bias=biases, k_bias=biases)
    both = plain.model_copy(update={"global_projections": True})
    a, g, d_h = plain.heads(ctx)
    expected = 768 * (a + 2 * g) * d_h + (a * d_h + g * d_h if biases else 0)
    assert sum(t.value for t in both.terms(ctx)) - sum(t.value for t in plain.terms(ctx)) == expected


@pytest.mark.parametrize(
    ("stem", "refused_by"),
    [("longformer-base-4096", "LongformerForMaskedLM"), ("led-base-16384", "LEDForConditionalGeneration")],
)
def test_sdpa_is_refused_as_neither_class_supports_it(stem: str, refused_by: str) -> None:
    """LongformerPreTrainedModel and LEDPreTrainedModel keep PreTrainedModel's _supports_sdpa False."""
    said = sdpa_refusal(import_hf_config(_config(stem), f"{stem}.json"))
    assert f"{refused_by} refuses SDPA" in (said or "")
