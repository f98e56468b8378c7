"""The dense decoders of issue 33, each quirk against what transformers 5.24 builds: a term of the
imported layer equals the elements of the tensors the real module holds for it
(``tests/data/param_names_v3.json``), and a config that switches a quirk on counts as measured
(``tests/golden/dense_quirks_v3.json``, from ``tools/measure_dense_quirks.py``). The published and
randomized configs of every type are checked whole by test_families and test_hf_import."""

from __future__ import annotations

import json
import re
from math import prod
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.schema import Architecture, block_node

ROOT = Path(__file__).resolve().parents[2]
V3 = ROOT / "tests" / "data" / "hf_configs_v3"
NAMES = json.loads((ROOT / "tests" / "data" / "param_names_v3.json").read_text(encoding="utf-8"))
FAMILIES = json.loads((ROOT / "tests" / "golden" / "families_v3.json").read_text(encoding="utf-8"))


def published(stem: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((V3 / f"{stem}.json").read_text(encoding="utf-8"))
    return data


def imported(stem: str, **changed: Any) -> Architecture:
    return import_hf_config({**published(stem), **changed}, f"{stem}.json")


def layer_terms(arch: Architecture, run: int = 0) -> dict[str, int]:
    """One layer's leaf terms by name ("attention/q", "block norms (RMSNorm)")."""
    node = block_node(arch.runs[run].block, arch.hidden_size)
    return {"/".join(path[1:]): leaf.params for path, leaf in node.leaves()}


def per_layer(arch: Architecture, field: str) -> list[Any]:
    """The mixer's ``field`` of each layer, in order."""
    layers: dict[int, Any] = {}
    for run in arch.runs:
        for start in run.starts():
            layers.update(dict.fromkeys(range(start, start + run.count), getattr(run.block.mixer, field)))
    return [layers[index] for index in range(arch.num_layers)]


def measured(stem: str, pattern: str, where: str = "layer") -> int:
    """Elements of the first layer's (or the outside's) parameters whose names match ``pattern``."""
    entry = NAMES[stem]
    params = entry["layer_structures"][0]["params"] if where == "layer" else entry["outside_layers"]
    found = [
        prod(shape) for name, shape in params.items() if isinstance(shape, list) and re.search(pattern, name)
    ]
    assert found, f"{stem} has no parameter matching {pattern}"
    return sum(found)


@pytest.mark.parametrize(
    ("stem", "terms", "pattern"),
    [
        # Glm4DecoderLayer: four RMSNorms (input, post_self_attn, post_attention, post_mlp)
        ("glm-4-9b-0414", ["block norms (RMSNorm)"], r"layernorm"),
        # GLM-4's attention_bias biases q, k and v; o has none
        ("glm-4-9b-0414", ["attention/biases"], r"self_attn\.\w+\.bias"),
        # Glm4MLP's fused gate_up_proj [2f, h] and down_proj: 3·h·f all the same
        ("glm-4-9b-0414", ["ffn/matrices"], r"mlp\."),
        # Olmo2Attention: q_norm [a·d_h], k_norm [g·d_h]
        ("olmo-2-1124-7b", ["attention/q/k norms (RMSNorm)"], r"self_attn\.[qk]_norm"),
        # OLMo-2: post-norms only, two a layer
        ("olmo-2-1124-7b", ["block norms (RMSNorm)"], r"post_\w+_layernorm"),
        ("olmo-3-1025-7b", ["attention/q/k norms (RMSNorm)"], r"self_attn\.[qk]_norm"),
        # StableLmLayerNormPerHead: 32 + 8 bias-free LayerNorm(160) modules
        ("stablelm-2-12b", ["attention/q/k norms (per head)"], r"self_attn\.[qk]_layernorm"),
        # use_parallel_residual: input_layernorm alone, with β
        ("stablelm-2-12b", ["block norms (LayerNorm)"], r"layernorm\.(weight|bias)"),
        ("stablelm-2-1_6b", ["attention/biases"], r"self_attn\.\w+\.bias"),
    ],
)
def test_a_layer_term_is_what_the_module_builds(stem: str, terms: list[str], pattern: str) -> None:
    layer = layer_terms(imported(stem))
    assert sum(layer[name] for name in terms) == measured(stem, pattern)


def test_olmo_2_has_no_norm_before_its_sublayers() -> None:
    params = NAMES["olmo-2-1124-7b"]["layer_structures"][0]["params"]
    assert not [name for name in params if name.startswith("input_layernorm")]
    assert imported("olmo-2-1124-7b").runs[0].block.norms.count == 2


def test_olmo_3_slides_on_three_layers_of_four_and_its_layers_are_alike() -> None:
    arch = imported("olmo-3-1025-7b")
    windows = per_layer(arch, "sliding_window")
    types = published("olmo-3-1025-7b")["layer_types"]
    assert windows == [4096 if kind == "sliding_attention" else None for kind in types]
    assert len(NAMES["olmo-3-1025-7b"]["layer_structures"]) == 1  # the window shapes no parameter
