"""Each family's ``layer_types`` takes exactly what transformers builds and runs, and refuses the
rest in one line naming the layer (issue 30: Qwen3-Next with 'full_attn' counted 79.75 B instead
of 79.67 B, gpt-oss with 'zz_attention' showed 40.09 GiB instead of 43.09 GiB, both exit 0).

What transformers takes was measured by ``tools/measure_layer_types.py`` (a two-layer model of
each family with each type, one forward pass) into ``tests/golden/layer_types.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.errors import ParamTallyError
from paramtally.core.families import find
from paramtally.core.io.importers.hf_config import import_hf_config

ROOT = Path(__file__).resolve().parents[2]
MEASURED = json.loads((ROOT / "tests" / "golden" / "layer_types.json").read_text())
CASES = [
    (family, kind, outcome)
    for family, outcomes in MEASURED["families"].items()
    for kind, outcome in outcomes.items()
]


def _config(family: str, kind: str) -> dict[str, Any]:
    read_as = find(family)
    assert read_as is not None, family
    layers = read_as.defaults.get("num_hidden_layers", 2)
    config: dict[str, Any] = {
        "model_type": family,
        "num_hidden_layers": layers,
        "layer_types": [kind] * layers,
    }
    if family.startswith("qwen2") or family == "qwen3":
        config |= {"use_sliding_window": True, "sliding_window": 4096, "max_window_layers": 0}
    return config


@pytest.mark.parametrize(("family", "kind", "outcome"), CASES, ids=[f"{f}-{k}" for f, k, _ in CASES])
def test_a_layer_type_is_taken_exactly_when_transformers_runs_it(
    family: str, kind: str, outcome: str
) -> None:
    config = _config(family, kind)
    if outcome == "runs":
        import_hf_config(config, "config.json")
        return
    with pytest.raises(ParamTallyError) as refused:
        import_hf_config(config, "config.json")
    line = str(refused.value)
    assert len(line.splitlines()) == 1
    assert line.startswith("config.json: layer_types") or line.startswith("config.json: layer_types[0]"), line


def test_the_issues_typos_are_refused_naming_the_layer_and_the_types() -> None:
    with pytest.raises(
        ParamTallyError, match=r"layer_types\[3\] is 'full_attn', not a layer type transformers knows"
    ):
        types = ["linear_attention", "linear_attention", "linear_attention", "full_attn"] * 12
        import_hf_config({"model_type": "qwen3_next", "layer_types": types}, "config.json")
    with pytest.raises(
        ParamTallyError, match=r"layer_types\[1\] is 'chunked_attention'; a gpt_oss layer is "
    ):
        import_hf_config(
            {"model_type": "gpt_oss", "layer_types": ["sliding_attention", "chunked_attention"] * 18}, "c"
        )


def test_the_older_names_read_as_transformers_maps_them() -> None:
    newer = ["linear_attention", "linear_attention", "linear_attention", "full_attention"] * 12
    older = [{"full_attention": "attention", "linear_attention": "mamba"}[kind] for kind in newer]
    counted = [import_hf_config({"model_type": "qwen3_next", "layer_types": t}, "c") for t in (newer, older)]
    assert counted[0].runs == counted[1].runs


def test_a_list_of_another_length_is_refused_as_transformers_does() -> None:
    with pytest.raises(ParamTallyError, match="layer_types lists 3 layers, num_hidden_layers says 36"):
        import_hf_config({"model_type": "gpt_oss", "layer_types": ["full_attention"] * 3}, "config.json")


@pytest.mark.parametrize("key", ["layer_types", "layers_block_type"])
def test_a_family_that_derives_its_layer_types_refuses_a_file_that_sets_them(key: str) -> None:
    with pytest.raises(ParamTallyError, match=f"config.json: {key} is not set in a jamba config.json"):
        import_hf_config({"model_type": "jamba", key: ["mamba"] * 32}, "config.json")


def test_granites_layers_block_type_is_its_layer_types() -> None:
    kinds = ["linear_attention"] * 7 + ["full_attention"]
    a = import_hf_config(
        {"model_type": "granitemoehybrid", "num_hidden_layers": 8, "layer_types": kinds}, "c"
    )
    b = import_hf_config(
        {"model_type": "granitemoehybrid", "num_hidden_layers": 8, "layers_block_type": kinds}, "c"
    )
    assert a.runs == b.runs and {run.block.mixer.kind for run in a.runs} == {"mamba2", "attention"}


def test_a_qwen2_list_that_slides_otherwise_than_its_rule_is_refused_not_guessed() -> None:
    config = {"model_type": "qwen2", "num_hidden_layers": 4, "use_sliding_window": True, "sliding_window": 64,
              "max_window_layers": 0, "layer_types": ["sliding_attention", "full_attention"] * 2}  # fmt: skip
    with pytest.raises(ParamTallyError, match=r"layer_types\[1\] is full_attention, but use_sliding_window"):
        import_hf_config(config, "config.json")
