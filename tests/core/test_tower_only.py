"""A vision tower alone (``"model_type": "pixtral"``, transformers 5.24's ``PixtralVisionModel``):
the tower is the whole model. Its count against tests/golden/tower_only.json (measured by
tools/measure_tower_only.py), the schema's rules for it, and what memory, FLOPs and the command
line say of a model with no language model."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from paramtally.core.cli import main as cli
from paramtally.core.count.parameters import count_parameters
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.fit import fit_setups
from paramtally.core.memory.flops import estimate_flops
from paramtally.core.memory.scenario import Scenario
from paramtally.core.memory.serving import estimate_serving
from paramtally.core.schema import Architecture

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "tests" / "data" / "hf_configs_v3" / "pixtral-12b-vision-encoder.json"
GOLDEN = json.loads((ROOT / "tests" / "golden" / "tower_only.json").read_text(encoding="utf-8"))
CASES = {entry["name"]: entry for entry in GOLDEN["configs"]}
E, F, L = 1024, 4096, 24  # Pixtral-12B's encoder: width, MLP width, layers


def _pixtral() -> Architecture:
    return import_hf_config(json.loads(CONFIG.read_text(encoding="utf-8")), CONFIG.name)


def _data() -> dict[str, Any]:
    return copy.deepcopy(_pixtral().model_dump(mode="json"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_pixtral_alone_counts_as_pixtral_vision_model(name: str) -> None:
    entry = CASES[name]
    report = count_parameters(import_hf_config(entry["config"], f"{name}.json"))
    assert entry["model_class"] == "PixtralVisionModel"
    assert (report.total, report.active) == (entry["total"], entry["total"])
    parts = entry["parts"]
    assert report.vision == report.total == parts["patch_conv"] + parts["ln_pre"] + parts["layers"]
    assert (report.language_model, report.projector) == (0, 0) and report.tower_only


def test_the_published_encoder_is_its_terms() -> None:
    report = count_parameters(_pixtral())
    # Conv2d [e, 3, 16, 16] without bias, ln_pre γ, 24 × (q, k, v, o e×e; gate, up, down; 2 RMSNorms).
    assert report.total == E * 3 * 16 * 16 + E + L * (4 * E * E + 3 * E * F + 2 * E) == 403_489_792
    assert [node.name for node in report.tree.children] == ["vision tower"]
    assert report.by_part == {"vision": report.total}
    assert report.embedding_params == 0


def test_head_dim_does_not_widen_pixtral_attention() -> None:
    apart, alike = CASES["pixtral-head-dim-apart"], CASES["pixtral-alone-00"]
    assert apart["config"]["head_dim"] != alike["config"]["head_dim"]
    assert apart["total"] == alike["total"]  # 5.24 builds q/k/v/o e×e whatever head_dim says
    assert count_parameters(import_hf_config(apart["config"], "apart.json")).total == apart["total"]


@pytest.mark.parametrize(
    ("change", "where", "said"),
    [
        ({"hidden_size": 2048}, "hidden_size", "must be the tower's width"),
        ({"embeddings": {"vocab_size": 32000}}, "embeddings.vocab_size", "reads pixels, not tokens"),
        ({"head": {"present": True}}, "head.present", "has no LM head"),
        ({"added_vocab": 8}, "added_vocab", "has no vocabulary to grow"),
        (
            {"projector": {"steps": [{"kind": "linear", "width": 1024}]}},
            "projector",
            "has no projector",
        ),
    ],
)
def test_a_tower_alone_refuses_what_needs_a_language_model(
    change: dict[str, Any], where: str, said: str
) -> None:
    data = {**_data(), **change}
    with pytest.raises(ValidationError, match=rf"(?s){where}.*{said}"):
        Architecture.model_validate(data)


def test_a_language_model_still_needs_a_vocabulary_and_a_stack() -> None:
    data = copy.deepcopy(
        import_hf_config(
            json.loads((ROOT / "tests/data/hf_configs/gpt2.json").read_text()), "gpt2.json"
        ).model_dump(mode="json")
    )
    data["embeddings"]["vocab_size"] = 0
    with pytest.raises(ValidationError, match="a language model needs a vocabulary"):
        Architecture.model_validate(data)
    data["embeddings"]["vocab_size"], data["decoder"] = 50257, None
    with pytest.raises(ValidationError, match="needs a decoder or an encoder stack"):
        Architecture.model_validate(data)


def test_serving_holds_the_weights_and_the_tower_working_set_without_a_kv_cache() -> None:
    arch, s = _pixtral(), Scenario(images=2)
    memory = estimate_memory(arch, s)
    assert memory.kv_cache_bytes == 0
    assert memory.weights_bytes == 2 * 403_489_792
    names = [term.name for term in memory.terms if term.part == "activations"]
    assert names == ["activations (vision tower working set)"]  # no context, no logits
    tower = next(term for term in memory.terms if term.part == "activations")
    n = (1024 // 16) ** 2  # patches of one 1,024² image
    assert tower.value == 2 * n * 2 * (2 * E + 2 * F)  # N·n·B·(2·e + W_v), the gated MLP's 2f
    assert estimate_serving(arch, s) is None  # it generates nothing: no decode speed


def test_training_trains_the_tower_whatever_the_vision_switch_says() -> None:
    arch = _pixtral()
    for train_vision in (False, True):
        memory = estimate_memory(arch, Scenario(mode="training", train_vision=train_vision))
        assert memory.trainable_params == 403_489_792
        assert memory.gradients_bytes == 2 * 403_489_792  # bf16 gradients of every parameter
        assert memory.optimizer_bytes == 12 * 403_489_792  # AdamW's master, m and v
        assert memory.kv_cache_bytes == 0
        names = [term.name for term in memory.terms if term.part == "activations"]
        assert names == ["activations (vision tower, estimate)"]


def test_what_a_tower_alone_cannot_be_split_into_is_refused_at_the_field() -> None:
    arch = _pixtral()
    with pytest.raises(ValidationError, match=r"(?s)pp.*not split into pipeline stages"):
        estimate_memory(arch, Scenario(pp=2, gpus=2))
    with pytest.raises(ValidationError, match=r"(?s)lora_rank.*LoRA on a vision tower alone"):
        estimate_memory(arch, Scenario(mode="training", lora_rank=8))


def test_the_fit_table_lays_a_tower_out_over_data_parallel_gpus() -> None:
    for mode in ("inference", "training"):
        rows = fit_setups(_pixtral(), Scenario(mode=mode))
        assert rows and {(row.tp, row.pp) for row in rows} == {(1, 1)}
        assert all(row.decode_tokens_per_second is None for row in rows)


def test_flops_count_a_patch_as_the_token() -> None:
    flops = estimate_flops(_pixtral(), Scenario())
    n = (1024 // 16) ** 2
    attention = 4 * L * n * E  # QKᵀ and A·V, each patch over all n: no causal half to average
    assert flops.non_embedding_params == 403_489_792  # the patch convolution multiplies too
    assert flops.forward_per_token == 2 * 403_489_792 + attention
    assert flops.prefill_per_request == n * flops.forward_per_token  # one image, no LM head


def test_a_towers_attention_has_no_causal_half() -> None:
    """PixtralVisionModel's eager attention over n patches: 4·L·n²·E FLOPs (FlopCounterMode, tiny
    tower), so the causal and full conventions of training FLOPs agree, as for an encoder alone."""
    causal, full = (
        estimate_flops(_pixtral(), Scenario(mode="training", attention_flops=convention))
        for convention in ("causal", "full")
    )
    assert causal.training_per_token == full.training_per_token
    assert causal.hardware_training_per_token == full.hardware_training_per_token


def test_the_command_line_says_it_is_a_tower_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert cli(["count", str(CONFIG)]) == 0
    out = capsys.readouterr().out
    assert "403,489,792 parameters" in out
    assert "a vision tower alone: no language model (text only: 0), no projector, no LM head" in out
    assert cli(["memory", str(CONFIG), "--mode", "training"]) == 0
    out = capsys.readouterr().out
    assert "encoded by the tower alone (no language model, no KV cache), the tower trained" in out
    assert "KV cache" not in out.split("term")[1].split("By part")[0]
    report = tmp_path / "pixtral.md"
    assert cli(["report", str(CONFIG), "--output", str(report)]) == 0
    text = report.read_text(encoding="utf-8")
    assert "403,489,792" in text and "language model alone" in text
