"""Schema-2 families (hybrids, state-space, encoder-decoders, MTP) against the real transformers
modules (tests/golden/families_v2.json, measured by tools/measure_golden.py --v2 on the meta
device), and the shapes their configs describe."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.count.parameters import count_parameters
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.presets import parse_preset
from paramtally.core.schema import Architecture
from tests.layer_blocks import layer_windows

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "tests" / "data" / "hf_configs_v2"
GOLDEN = json.loads((ROOT / "tests" / "golden" / "families_v2.json").read_text(encoding="utf-8"))
DEEPSEEK_V3 = ROOT / "tests" / "data" / "hf_configs" / "deepseek-v3.json"


def _import(stem: str, **changes: Any) -> Architecture:
    data = {**json.loads((CONFIGS / f"{stem}.json").read_text(encoding="utf-8")), **changes}
    return import_hf_config(data, f"{stem}.json")


@pytest.mark.parametrize("stem", sorted(path.stem for path in CONFIGS.glob("*.json")))
def test_published_config_counts_as_measured(stem: str) -> None:
    report = count_parameters(_import(stem))
    assert (report.total, report.active) == (GOLDEN[stem]["total"], GOLDEN[stem]["active"])


def test_deepseek_v3_counts_its_mtp_module_apart() -> None:
    data = json.loads(DEEPSEEK_V3.read_text(encoding="utf-8"))
    report = count_parameters(import_hf_config(data, "deepseek-v3.json"))
    golden = GOLDEN["deepseek-v3-mtp"]
    assert report.total == golden["built"]["total"] == 671_026_404_352  # what transformers builds
    assert report.active == golden["built"]["active"]
    assert report.total_with_mtp == golden["total"] == 684_489_830_400  # the checkpoint: "685B"
    assert report.active + report.mtp_active == golden["active"]
    assert (report.mtp, report.mtp_active) == (golden["mtp"]["total"], golden["mtp"]["active"])
    assert report.mtp_tree is not None and report.mtp_tree.value == report.mtp


def _layer_kinds(arch: Architecture) -> list[tuple[str, str]]:
    return [(row.mixer, row.kind) for row in count_parameters(arch).layers]


def test_jamba_attends_every_8th_layer_and_routes_every_2nd() -> None:
    arch = _import("jamba-v0.1")
    kinds = _layer_kinds(arch)
    assert [i for i, (mixer, _) in enumerate(kinds) if mixer == "attention"] == [4, 12, 20, 28]
    assert [i for i, (_, ffn) in enumerate(kinds) if ffn == "moe"] == list(range(1, 32, 2))
    assert arch.decoder is not None and len(arch.decoder.layers) == 1  # one pattern, repeated 4 times


def test_qwen3_next_mixes_deltanet_and_gated_attention() -> None:
    arch = _import("qwen3-next-80b-a3b-instruct")
    kinds = _layer_kinds(arch)
    assert [i for i, (mixer, _) in enumerate(kinds) if mixer == "attention"] == list(range(3, 48, 4))
    assert {ffn for _, ffn in kinds} == {"moe"}
    report = count_parameters(arch)
    paths = [path for path, _, _ in report.tree.walk()]
    assert any(path[-2:] == ("attention", "q/k norms (RMSNorm)") for path in paths)


def test_gemma3_five_local_one_global() -> None:
    arch = _import("gemma-3-1b")
    assert layer_windows(arch) == ([512] * 5 + [None]) * 4 + [512, 512]


def test_falcon_h1_runs_mamba_and_attention_side_by_side() -> None:
    (block,) = _import("synthetic-falcon-h1-defaults").layers_by_block()
    assert (block.mixer.kind, block.parallel_mixer and block.parallel_mixer.kind) == ("attention", "mamba2")


def test_t5_is_an_encoder_and_a_decoder_with_cross_attention() -> None:
    arch = _import("flan-t5-base")
    assert arch.encoder is not None and arch.decoder is not None
    report = count_parameters(arch)
    roles = [node.name for node in report.tree.children]
    assert roles[:3] == ["embeddings", "encoder", "decoder"]
    assert report.by_part["cross_attention"] == 12 * 4 * 768 * 768
    tied = count_parameters(_import("flan-t5-base", tie_word_embeddings=True))
    assert report.total - tied.total == 32128 * 768  # the published checkpoint keeps its own head


def test_whisper_front_end_is_its_own_part() -> None:
    report = count_parameters(_import("whisper-small"))
    assert report.by_part["frontend"] == 80 * 768 * 3 + 768 + 768 * 768 * 3 + 768


def test_a_billion_layers_of_a_pattern_cost_one_period() -> None:
    arch = _import("jamba-v0.1", num_hidden_layers=1_000_000_000)
    assert len(arch.runs) <= 8
    report = count_parameters(arch)
    assert report.total > 10**18


def test_the_readme_example_is_jamba_written_by_hand() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = readme.split("```json\n", 1)[1].split("```", 1)[0]
    by_hand = count_parameters(parse_preset(example, "README.md"))
    assert (by_hand.total, by_hand.active) == (GOLDEN["jamba-v0.1"]["total"], GOLDEN["jamba-v0.1"]["active"])
