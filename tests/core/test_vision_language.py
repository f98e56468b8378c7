"""Vision-language models counted whole: a vision tower, a projector and the language model, each
exactly as transformers 5.24 builds them (tests/golden/families_v3.json, measured by
tools/measure_golden.py --v3), and the schema's rules for them."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from paramtally.core.count.parameters import count_parameters
from paramtally.core.io.presets import load_builtin
from paramtally.core.schema import Architecture

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = json.loads((ROOT / "tests" / "golden" / "families_v3.json").read_text(encoding="utf-8"))
# Each VLM preset and its golden's name (one model of each vision-language family; tools/make_vlm_presets.py).
VLM_PRESETS = {
    "qwen2-vl-7b": "qwen2-vl-7b-instruct", "qwen2.5-vl-7b": "qwen2.5-vl-7b-instruct",
    "qwen3-vl-8b": "qwen3-vl-8b-instruct", "qwen3-vl-30b-a3b": "qwen3-vl-30b-a3b-instruct",
    "gemma-3-4b": "gemma-3-4b-it", "gemma-3-27b": "gemma-3-27b-it", "paligemma-3b": "paligemma-3b-pt-224",
    "llava-1.5-7b": "llava-1.5-7b-hf", "llava-next-mistral-7b": "llava-v1.6-mistral-7b-hf",
    "llava-onevision-7b": "llava-onevision-qwen2-7b-ov-hf", "aya-vision-8b": "aya-vision-8b",
    "pixtral-12b": "pixtral-12b", "mistral-small-3.1-24b": "mistral-small-3.1-24b-instruct-2503",
    "idefics3-8b": "idefics3-8b-llama3", "smolvlm2-2.2b": "smolvlm2-2.2b-instruct",
    "internvl3-1b": "internvl3-1b-hf", "glm-4.1v-9b": "glm-4.1v-9b-thinking",
    "llama-4-scout-vision": "llama-4-scout-17b-16e-instruct",
    "llama-3.2-11b-vision": "llama-3.2-11b-vision-instruct",
}  # fmt: skip


@pytest.mark.parametrize("preset_id", sorted(VLM_PRESETS))
def test_vlm_preset_counts_each_part_as_the_real_model(preset_id: str) -> None:
    report = count_parameters(load_builtin(preset_id))
    golden = FAMILIES[VLM_PRESETS[preset_id]]
    parts = golden["parts"]
    assert (report.total, report.active) == (golden["total"], golden["active"])
    assert (report.vision, report.projector, report.language_model) == (
        parts["vision_tower"],
        parts["projector"],
        parts["language_model"],
    )
    assert (report.language_model, report.language_model_active) == (
        golden["text_only"]["total"],
        golden["text_only"]["active"],
    )
    assert report.by_part["vision"] == report.vision and report.by_part["projector"] == report.projector


def test_every_vision_language_family_has_a_preset() -> None:
    families = {FAMILIES[name]["model_type"] for name in VLM_PRESETS.values()}
    measured = {
        entry["model_type"]
        for entry in FAMILIES.values()
        if isinstance(entry, dict) and "vision_tower" in entry.get("parts", {})
    }
    # pixtral is a llava config with a Pixtral tower: its preset is pixtral-12b (model_type llava).
    assert measured <= families | {"pixtral"} and "llava" in families


def test_the_tree_shows_the_vision_tower_then_the_projector() -> None:
    report = count_parameters(load_builtin("gemma-3-4b"))
    names = [node.name for node in report.tree.children]
    assert names[:3] == ["vision tower", "projector", "embeddings"]
    tower = report.tree.children[0]
    assert {leaf.part for _, leaf in tower.leaves()} == {"vision"}
    leaves = {node.name: node for _, node in report.tree.children[1].leaves()}
    assert leaves["pool 4×4 (16 patches → 1 token, averaged)"].value == 0
    # Gemma-3's projection is a bare [e, h] parameter: 1152·2560, no bias; the soft-embedding norm γ.
    assert leaves["linear"].value == 1152 * 2560
    assert leaves["norm (RMSNorm)"].value == 1152


def _qwen() -> dict[str, Any]:
    return copy.deepcopy(load_builtin("qwen2.5-vl-7b").model_dump(mode="json"))


def test_editing_the_tower_changes_only_the_vision_part() -> None:
    data = _qwen()
    before = count_parameters(Architecture.model_validate(data))
    data["vision"]["layers"][0]["count"] = 31
    after = count_parameters(Architecture.model_validate(data))
    per_layer = before.vision - after.vision
    # One Qwen2.5-VL vision layer: attention 4·e² + 4·e, gated MLP with biases, two RMSNorms.
    e, f = 1280, 3420
    assert per_layer == 4 * e * e + 4 * e + 3 * e * f + 2 * f + e + 2 * e
    assert after.language_model == before.language_model and after.projector == before.projector


def test_a_projector_must_end_at_the_hidden_size() -> None:
    data = _qwen()
    data["projector"]["steps"][-1] = {"kind": "linear", "width": 4096}
    with pytest.raises(
        ValidationError, match=r"(?s)projector\.steps\.3.*ends 4,096 wide, not at the hidden size"
    ):
        Architecture.model_validate(data)


def test_a_tower_needs_a_projector_and_the_reverse() -> None:
    data = _qwen()
    projector = data.pop("projector")
    with pytest.raises(ValidationError, match="vision tower needs a projector"):
        Architecture.model_validate(data)
    data["projector"], data["vision"] = projector, None
    with pytest.raises(ValidationError, match="projector needs a vision tower"):
        Architecture.model_validate(data)


def test_vision_blocks_are_checked_at_the_tower_width() -> None:
    data = _qwen()
    data["blocks"]["vision"]["mixer"]["num_heads"] = 24  # 1280 is no multiple of 24; 3584 is not either
    data["hidden_size"] = 3600  # a multiple of 24: the check must read the tower's width
    data["blocks"]["default"]["mixer"]["head_dim"] = 128
    with pytest.raises(ValidationError, match=r"hidden size \(1,280\) is not a multiple of the 24 heads"):
        Architecture.model_validate(data)


def test_cross_attention_reads_the_image_in_mllama() -> None:
    arch = load_builtin("llama-3.2-11b-vision")
    runs = [run for run in arch.runs if run.block.cross_attention is not None]
    assert [start for run in runs for start in run.starts()] == [3, 8, 13, 18, 23, 28, 33, 38]
    assert all(run.block.mixer.kind == "no_mixer" for run in runs)
    data = arch.model_dump(mode="json")
    data["vision"] = data["projector"] = None
    with pytest.raises(ValidationError, match="cross-attention needs an encoder"):
        Architecture.model_validate(data)


def test_mllama_counts_its_tiles_gates_and_longer_embedding() -> None:
    report = count_parameters(load_builtin("llama-3.2-11b-vision"))
    leaves = {path[-1]: node for path, node in report.tree.leaves() if path[1] == "vision tower"}
    assert leaves["tile positions"].value == 9 * 4 * 1601 * 1280 == 73_774_080
    assert leaves["tile and position gates"].value == 3
    embedding = next(node for node in report.tree.children if node.name == "embeddings")
    assert embedding.value == 128_264 * 4096  # eight image-token rows more than the head's 128,256
    # 35 scalar gates in all: 3 in the tile tables, 2 in each of 8 global vision layers and 8 cross layers.
    gates = sum(node.value for path, node in report.tree.leaves() if "gate" in path[-1])
    assert gates == 35


def test_the_layer_tree_rows_put_the_tower_first_at_its_width() -> None:
    from paramtally.core.count.layer_tree_rows import stack_rows

    arch = load_builtin("internvl3-1b")
    rows = stack_rows(arch)
    assert [row.text for row in rows if row.kind == "stack"] == [
        "Vision tower: 24 layers",
        "Decoder: 24 layers",
    ]
    (group,) = [row for row in rows if row.kind == "group" and row.group[0] == "vision"]
    # InternViT's layer at e = 1,024: biased attention, biased MLP of 4,096, two LayerNorms, λ1 and λ2.
    e = 1024
    assert group.params == 24 * (4 * e * e + 4 * e + 2 * e * 4096 + 4096 + e + 4 * e + 2 * e)


def test_a_projector_step_switched_to_another_kind_keeps_what_they_share() -> None:
    from paramtally.core.editing.edits import with_values

    arch = load_builtin("llava-1.5-7b")
    mlp = with_values(arch, {("projector", "steps", 1, "kind"): "dense"})
    assert mlp.projector is not None and mlp.projector.steps[1].model_dump() == {
        "kind": "dense", "width": 4 * 4096, "gated": True, "bias": True, "activation": "silu",
        "inner_norm": False,
    }  # fmt: skip
    norm = with_values(mlp, {("projector", "steps", 1, "kind"): "norm"})
    assert norm.projector is not None and norm.projector.steps[1].model_dump() == {
        "kind": "norm", "norm": "layernorm", "bias": True,
    }  # fmt: skip


def test_without_biases_reaches_the_tower_and_the_projector() -> None:
    from paramtally.core.editing.edits import without_biases

    report = count_parameters(without_biases(load_builtin("llava-1.5-7b")))
    e, h, layers = 1024, 4096, 24
    # CLIP's q, k, v, o and MLP biases, and the projector's two, are gone; LayerNorm β stays.
    assert report.vision == 303_507_456 - layers * (4 * e + 4096 + e)
    assert report.projector == 20_979_712 - 2 * h


def test_the_vision_language_template_is_llava_on_llama_2() -> None:
    from paramtally.core.editing.templates import new_architecture

    report = count_parameters(new_architecture("vision-language"))
    golden = FAMILIES["llava-1.5-7b-hf"]["parts"]
    assert (report.vision, report.projector) == (golden["vision_tower"], golden["projector"])
    assert report.language_model == 6_738_415_616  # Llama-2-7B, its 32,000 tokens


def test_the_design_space_varies_the_language_model_not_the_tower() -> None:
    from paramtally.core.explore.variables import find_variable
    from paramtally.core.memory.scenario import Scenario

    arch = load_builtin("qwen2.5-vl-7b")
    width = find_variable("ffn_width", arch)
    assert width.read(arch, Scenario()) == 18944  # the text model's, though the tower's is 3,420
    wider, _ = width.write(arch, Scenario(), 20480)
    assert wider.blocks["vision"] == arch.blocks["vision"]
    assert count_parameters(wider).vision == count_parameters(arch).vision
    hidden = find_variable("hidden_size", arch)
    assert hidden.read(arch, Scenario()) == 3584
    wide, _ = hidden.write(arch, Scenario(), 4480)  # 28 heads of 160
    # The projector's last layer maps to the new hidden size: 5,120·4,480 + 4,480.
    assert count_parameters(wide).projector == 1280 + 5120 * 5120 + 5120 + 5120 * 4480 + 4480
    assert count_parameters(wide).vision == count_parameters(arch).vision
