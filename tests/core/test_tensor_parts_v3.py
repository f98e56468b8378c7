"""Tensor names of the issue-33 families land in the right part, with buffers told apart.

The names, shapes and buffer kinds are those of the real transformers 5.24 modules
(``tests/data/param_names_v3.json``), the totals and the vision-language split the measured
goldens (``tests/golden/families_v3.json``), both from ``python tools/measure_golden.py --v3``.
A checkpoint saves the parameters and the persistent buffers: every persistent buffer must be
recognised as one (never counted), and every parameter as a parameter.
"""

from __future__ import annotations

import json
from math import prod
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.io.importers.tensor_parts import BUFFER, PROJECTOR, QUANT, VISION_TOWER, part_of

ROOT = Path(__file__).resolve().parents[2]
NAMES = json.loads((ROOT / "tests" / "data" / "param_names_v3.json").read_text(encoding="utf-8"))
GOLDEN = json.loads((ROOT / "tests" / "golden" / "families_v3.json").read_text(encoding="utf-8"))
STEMS = sorted(stem for stem in NAMES if not stem.startswith("_"))


def _indexes(ranges: str) -> list[int]:
    out: list[int] = []
    for span in ranges.split(","):
        first, _, last = span.partition("-")
        out += range(int(first), int(last or first) + 1)
    return out


def saved_tensors(entry: dict[str, Any]) -> list[tuple[str, int, bool]]:
    """(name, elements, is a parameter) of every tensor the model's state dict saves."""
    found: list[tuple[str, int, bool]] = []

    def add(name: str, value: Any) -> None:
        if isinstance(value, dict):  # a buffer: saved only when persistent
            if value["buffer"] == "persistent":
                found.append((name, prod(value["shape"]), False))
        else:
            found.append((name, prod(value), True))

    for name, value in entry["outside_layers"].items():
        add(name, value)
    for structure in entry["layer_structures"]:
        for index in _indexes(structure["layers"]):
            prefix = f"{structure['prefix']}{index}."
            for name, value in (*structure["params"].items(), *structure.get("buffers", {}).items()):
                add(prefix + name, value)
    return found


@pytest.mark.parametrize("stem", STEMS)
def test_saved_buffers_are_told_from_parameters(stem: str) -> None:
    saved = saved_tensors(NAMES[stem])
    wrong = [name for name, _, is_param in saved if (part_of(name) in (BUFFER, QUANT)) == is_param]
    assert not wrong
    golden = GOLDEN[stem]
    built = golden.get("built", golden)["total"]  # the names are the built module's
    assert sum(n for name, n, is_param in saved if part_of(name) not in (BUFFER, QUANT)) == built


VLMS = [stem for stem in STEMS if "vision_tower" in GOLDEN[stem]["parts"]]


@pytest.mark.parametrize("stem", VLMS)
def test_vision_tower_and_projector_are_the_measured_parts(stem: str) -> None:
    parts: dict[str, int] = {}
    for name, n, is_param in saved_tensors(NAMES[stem]):
        if is_param:
            part = part_of(name)
            parts[part] = parts.get(part, 0) + n
    measured = GOLDEN[stem]["parts"]
    assert parts.get(VISION_TOWER, 0) == measured["vision_tower"]
    assert parts.get(PROJECTOR, 0) == measured.get("projector", 0)


def test_there_are_vision_language_models_to_check() -> None:
    assert len(VLMS) >= 15


@pytest.mark.parametrize(
    ("name", "part"),
    [
        # as published checkpoints store them, before transformers 5 renames them on loading
        ("visual.blocks.31.mlp.down_proj.weight", VISION_TOWER),  # Qwen2.5-VL
        ("visual.merger.mlp.2.weight", PROJECTOR),
        ("vision_tower.vision_model.encoder.layers.0.self_attn.q_proj.weight", VISION_TOWER),  # LLaVA
        ("multi_modal_projector.linear_1.weight", PROJECTOR),
        ("language_model.model.layers.0.self_attn.q_proj.weight", "attention"),
        ("language_model.lm_head.weight", "lm_head"),
        ("vision_encoder.transformer.layers.0.attention.wq.weight", VISION_TOWER),  # Mistral's own
        ("vision_language_adapter.w_in.weight", PROJECTOR),
        ("patch_merger.merging_layer.weight", PROJECTOR),
        ("vision_model.encoder.layers.0.mlp.fc1.weight", VISION_TOWER),  # InternVL's remote code
        ("mlp1.1.weight", PROJECTOR),
        ("v.blk.0.attn_q.weight", VISION_TOWER),  # llama.cpp mmproj GGUF
        ("mm.2.weight", PROJECTOR),
        ("model.embed_tokens.weight", "embeddings"),
        # buffers older checkpoints saved, and quantization state
        ("bert.embeddings.position_ids", BUFFER),
        ("model.layers.0.self_attn.rotary_emb.inv_freq", BUFFER),
        ("model.layers.0.mlp.gate.e_score_correction_bias", BUFFER),  # DeepSeek-V3
        ("model.layers.0.mlp.down_proj.weight.absmax", QUANT),
        ("model.layers.0.mlp.down_proj.weight.quant_map", QUANT),
        ("model.layers.0.mlp.down_proj.weight.quant_state.bitsandbytes__nf4", QUANT),
        ("model.layers.0.mlp.down_proj.weight_scale_inv", QUANT),
    ],
)
def test_published_names_land_in_their_part(name: str, part: str) -> None:
    assert part_of(name) == part


def test_ernie_keeps_its_correction_bias_as_a_parameter() -> None:
    """ERNIE-4.5's ``Ernie4_5_MoeStatics`` holds it as a frozen ``nn.Parameter``; DeepSeek's is a buffer."""
    assert part_of("model.layers.0.mlp.gate.moe_statics.e_score_correction_bias") not in (BUFFER, QUANT)
