"""Every built-in preset counts exactly as its real transformers model (tests/golden/presets.json and,
for the schema-2 families, families_v2.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing.edits import without_biases
from paramtally.core.io.presets import builtin_ids, load_builtin
from tests.core.test_vision_language import VLM_PRESETS

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "tests" / "golden" / "presets.json").read_text(encoding="utf-8"))
FAMILIES = json.loads((ROOT / "tests" / "golden" / "families_v2.json").read_text(encoding="utf-8"))
FAMILIES_V3 = json.loads((ROOT / "tests" / "golden" / "families_v3.json").read_text(encoding="utf-8"))
# Schema-2 presets: their config file in tests/data/hf_configs_v2 (tools/make_presets.py's V2_FILES).
V2_PRESETS = {
    "t5-base": "t5-base", "flan-t5-base": "flan-t5-base", "mt5-base": "mt5-base", "bart-base": "bart-base",
    "bart-large": "synthetic-bart-large-defaults", "whisper-small": "whisper-small",
    "whisper-large-v3": "whisper-large-v3", "mamba-130m": "mamba-130m-hf", "mamba-2.8b": "mamba-2.8b-hf",
    "mamba2-7b": "synthetic-mamba2-codestral-defaults", "jamba-v0.1": "jamba-v0.1",
    "bamba-9b": "synthetic-bamba-defaults-attn-9-18-27",
    "granite-4.0-h-style": "synthetic-granitemoehybrid-defaults-attn-every-8",
    "falcon-h1-style": "synthetic-falcon-h1-defaults", "qwen3-next-80b-a3b": "qwen3-next-80b-a3b-instruct",
    "gemma-3-1b": "gemma-3-1b", "llama-4-scout": "synthetic-llama4-scout-text-defaults",
    "gpt-oss-20b": "gpt-oss-20b", "gpt-oss-120b": "synthetic-gpt-oss-120b-defaults",
    "command-r7b": "c4ai-command-r7b-12-2024",
}  # fmt: skip

# Issue 33's families: their config file in tests/data/hf_configs_v3 (tools/make_presets.py's V3_FILES).
V3_PRESETS = {
    "glm-4-9b": "glm-4-9b-0414", "olmo-2-7b": "olmo-2-1124-7b", "stablelm-2-1.6b": "stablelm-2-1_6b",
    "gpt-j-6b": "gpt-j-6b", "starcoder": "starcoder", "starcoder2-3b": "starcoder2-3b",
    "nemotron-mini-4b": "nemotron-mini-4b-instruct", "exaone-4.0-32b": "exaone-4.0-32b",
    "smollm3-3b": "smollm3-3b", "ernie-4.5-0.3b": "ernie-4.5-0.3b-pt",
    "seed-oss-36b": "seed-oss-36b-instruct",
    "apertus-8b": "apertus-8b-2509", "afm-4.5b": "afm-4.5b", "helium-1-2b": "helium-1-preview-2b",
    "command-r-plus": "c4ai-command-r-plus", "granite-3.1-8b": "granite-3.1-8b-instruct",
    "bitnet-b1.58-2b": "bitnet-b1.58-2b-4t", "hunyuan-7b": "hunyuan-7b-instruct",
    "roberta-base": "roberta-base", "electra-base-discriminator": "electra-base-discriminator",
    "distilbert-base-uncased": "distilbert-base-uncased", "modernbert-base": "modernbert-base",
    "deberta-v3-base": "deberta-v3-base",
    "nllb-200-distilled-600m": "nllb-200-distilled-600m", "opus-mt-en-de": "opus-mt-en-de",
    "mbart-large-50": "mbart-large-50", "pegasus-large": "pegasus-large",
    "lfm2-1.2b": "lfm2-1.2b",
    "lfm2-8b-a1b": "lfm2-8b-a1b",
    "recurrentgemma-2b": "recurrentgemma-2b",
    "falcon-mamba-7b": "falcon-mamba-7b",
    "nemotron-nano-9b-v2": "nvidia-nemotron-nano-9b-v2",
    "zamba-7b": "zamba-7b-v1",
    "zamba2-2.7b": "zamba2-2.7b",
    "olmoe-1b-7b": "olmoe-1b-7b-0924", "granite-3.1-3b-a800m": "granite-3.1-3b-a800m-instruct",
    "phi-3.5-moe": "phi-3.5-moe-instruct", "dbrx": "dbrx-instruct",
    "ernie-4.5-21b-a3b": "ernie-4.5-21b-a3b-pt", "hunyuan-a13b": "hunyuan-a13b-instruct",
    "minimax-m2": "minimax-m2", "dots-llm1": "dots.llm1.inst", "deepseek-v3.2-exp": "deepseek-v3.2-exp",
    "longcat-flash": "longcat-flash-chat",
    "jetmoe-8b": "jetmoe-8b",
}  # fmt: skip

PRESET_IDS = (
    "gpt2 gpt2-medium gpt2-large gpt2-xl gpt3-175b opt-125m opt-350m opt-1.3b llama-2-7b llama-2-13b "
    "llama-2-70b llama-3-8b llama-3-70b llama-3.1-405b llama-3.2-1b mistral-7b-v0.1 mixtral-8x7b "
    "qwen2-0.5b qwen2-7b qwen2.5-7b qwen3-8b qwen1.5-moe-a2.7b qwen3-30b-a3b deepseek-v2-lite deepseek-v3 "
    "gemma-2b gemma-7b gemma-2-9b phi-2 phi-3-mini-4k falcon-7b bloom-560m gpt-neox-20b pythia-1b "
    "bert-base-uncased"
).split()


def test_every_built_in_preset_is_checked_here() -> None:
    # The vision-language presets are checked part by part in test_vision_language.py.
    assert set(builtin_ids()) == set(PRESET_IDS) | set(V2_PRESETS) | set(V3_PRESETS) | set(VLM_PRESETS)


@pytest.mark.parametrize("preset_id", sorted(V2_PRESETS))
def test_schema_2_preset_counts_as_the_real_model(preset_id: str) -> None:
    report = count_parameters(load_builtin(preset_id))
    golden = FAMILIES[V2_PRESETS[preset_id]]
    assert (report.total, report.active) == (golden["total"], golden["active"])


@pytest.mark.parametrize("preset_id", sorted(V3_PRESETS))
def test_issue_33_preset_counts_as_the_real_model(preset_id: str) -> None:
    arch = load_builtin(preset_id)
    report = count_parameters(arch)
    golden = FAMILIES_V3[V3_PRESETS[preset_id]]
    tied = arch.head.tied if arch.head.present else None  # the golden's None: no LM head
    assert (report.total, report.active, tied) == (golden["total"], golden["active"], golden["tied"])


def test_deepseek_v3_preset_carries_its_mtp_module() -> None:
    report = count_parameters(load_builtin("deepseek-v3"))
    assert report.total_with_mtp == FAMILIES["deepseek-v3-mtp"]["total"]


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_preset_counts_as_the_real_model(preset_id: str) -> None:
    report = count_parameters(load_builtin(preset_id))
    assert (report.total, report.active) == (GOLDEN[preset_id]["total"], GOLDEN[preset_id]["active"])


@pytest.mark.parametrize(
    "preset_id", [*PRESET_IDS, *sorted(V2_PRESETS), *sorted(V3_PRESETS), *sorted(VLM_PRESETS)]
)
def test_preset_has_a_display_name_and_source(preset_id: str) -> None:
    arch = load_builtin(preset_id)
    assert arch.name not in ("Untitled", preset_id)
    sources = ("config.json of", "Brown et al. 2020", "defaults")
    assert any(source in arch.description for source in sources)


def test_gpt3_worked_example() -> None:
    # Brown et al. 2020: 175,221,817,344; without biases 175,211,200,512; one block without biases
    # 1,811,988,480.
    arch = load_builtin("gpt3-175b")
    assert count_parameters(arch).total == 175_221_817_344
    bare = count_parameters(without_biases(arch))
    assert bare.total == 175_211_200_512
    (layers,) = [node for node in bare.tree.children if node.count == 96]
    assert layers.unit_value == 1_811_988_480
