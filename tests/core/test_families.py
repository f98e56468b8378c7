"""The family registry: one module per model family, each model type claimed once and built as
schema 2; aliases read as the type they are; an unknown type refused in one short line naming
the nearest; the README's list written from the registry; activation quirks asked of the family."""

from __future__ import annotations

import ast
import importlib.util
import json
import pkgutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from paramtally.core import families
from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError, ParamTallyWarning
from paramtally.core.families.base import NO_QUIRKS
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.io.importers.hf_config import SUPPORTED_MODEL_TYPES, import_hf_config

ROOT = Path(__file__).resolve().parents[2]
V3 = ROOT / "tests" / "data" / "hf_configs_v3"
GOLDEN_V3 = json.loads((ROOT / "tests" / "golden" / "families_v3.json").read_text(encoding="utf-8"))
IMPORTERS = (ROOT / "core" / "io" / "importers", ROOT / "core" / "families")


def _v3(stem: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((V3 / f"{stem}.json").read_text(encoding="utf-8"))
    return data


# --- the registry ---------------------------------------------------------------------------------


def test_every_module_of_the_package_is_a_registered_family() -> None:
    shared = {"base", "pieces", "vision_parts", "hf_reader", "layer_pattern", "image_resize"}
    modules = {info.name for info in pkgutil.iter_modules(families.__path__)} - shared
    assert modules == set(families.FAMILY_MODULES)
    assert len(families.families()) == len(families.FAMILY_MODULES)


def test_each_model_type_is_claimed_once_and_found_by_its_name() -> None:
    names = [kind.name for family in families.families() for kind in family.types]
    assert len(names) == len(set(names)) == len(SUPPORTED_MODEL_TYPES)
    assert all(families.find(name).name == name for name in names)  # type: ignore[union-attr]
    assert families.find("reformer") is None and families.alias_target("llama") is None


# Keys a class defaults to None although its model cannot be built without them (Lfm2MoeConfig's
# layer_types is None, which Lfm2MoeDecoderLayer indexes; AyaVisionConfig's vision default has 14
# heads at 1,152 wide, which SiglipAttention refuses: a vision_config of SiglipVisionConfig's defaults).
NO_DEFAULT: dict[str, dict[str, Any]] = {
    "aya_vision": {"vision_config": {"model_type": "siglip_vision_model"}},
    "hunyuan_v1_dense": {"head_dim": 128},
    "hunyuan_v1_moe": {"head_dim": 128},
    "dots1": {"n_routed_experts": 8, "n_shared_experts": 1},
    "lfm2_moe": {"layer_types": ["conv"] * 32},
    "esm": {"vocab_size": 33},  # EsmConfig names no vocabulary
}


@pytest.mark.parametrize("model_type", SUPPORTED_MODEL_TYPES)
def test_each_family_builds_schema_2_directly(model_type: str) -> None:
    kind = families.find(model_type)
    assert kind is not None
    config = {"model_type": model_type, "num_experts_per_tok": 2}  # DeepSeek-V2's class has no default
    config |= NO_DEFAULT.get(model_type, {})
    spec = kind.build(HFConfig(config, model_type, "c", kind.defaults))
    assert "blocks" in spec and spec.keys().isdisjoint({"attention", "ffn", "norms", "layers"})
    # A stack of layers: a decoder or an encoder, or the vision tower of a tower alone (pixtral).
    assert {"decoder", "encoder"} & spec.keys() or ("vision" in spec and "projector" not in spec)


def test_no_importer_goes_through_the_schema_migrations() -> None:
    """Schema 1 lives only in the migrations (and their tests): the importers write schema 2."""
    for path in [path for folder in IMPORTERS for path in folder.rglob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        assert not [name for name in imported if name.endswith("migrations")], path


# --- issue 33's types, as each family module lands ---------------------------------------------------

READ_V3 = sorted(
    stem
    for stem, entry in GOLDEN_V3.items()
    if not stem.startswith("_") and families.find(entry["model_type"]) is not None
)


@pytest.mark.filterwarnings("ignore::paramtally.core.errors.ParamTallyWarning")  # an alias is said
@pytest.mark.parametrize("stem", READ_V3)
def test_each_published_config_of_a_type_read_counts_as_measured(stem: str) -> None:
    golden = GOLDEN_V3[stem]
    arch = import_hf_config({**_v3(stem), "architectures": [golden["model_class"]]}, f"{stem}.json")
    report = count_parameters(arch)
    tied = arch.head.tied if arch.head.present else None  # the golden's None: no LM head
    assert (report.total, report.active, tied) == (golden["total"], golden["active"], golden["tied"])


def test_glm_4_5_has_its_per_head_q_k_norms_only_with_use_qk_norm() -> None:
    """GLM-4.5 sets use_qk_norm, GLM-4.5-Air leaves it out (Glm4MoeConfig: false)."""
    big, air = (import_hf_config(_v3(stem), "c") for stem in ("glm-4.5", "glm-4.5-air"))
    assert big.runs[0].block.mixer.qk_norm and not air.runs[0].block.mixer.qk_norm  # type: ignore[union-attr]
    assert [(run.layers, run.block.ffn.kind) for run in big.runs] == [(3, "dense"), (89, "moe")]


# --- aliases --------------------------------------------------------------------------------------


def test_kimi_k2_is_read_as_deepseek_v3_and_says_so_once() -> None:
    golden = GOLDEN_V3["kimi-k2-instruct"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        arch = import_hf_config(_v3("kimi-k2-instruct"), "config.json")
    said = [str(w.message) for w in caught if issubclass(w.category, ParamTallyWarning)]
    assert said == ["config.json: model_type 'kimi_k2' is read as deepseek_v3, the same architecture"]
    report = count_parameters(arch)
    assert (report.total, report.active) == (golden["total"], golden["active"])
    assert golden["alias_of"] == families.alias_target("kimi_k2") == arch.family == "deepseek_v3"
    assert "model_type 'kimi_k2', read as deepseek_v3" in arch.description


def test_the_command_line_says_the_alias_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from paramtally.core.cli import main

    config = tmp_path / "config.json"
    config.write_text(json.dumps(_v3("kimi-k2-instruct")), encoding="utf-8")
    assert main(["count", str(config), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["total"] == GOLDEN_V3["kimi-k2-instruct"]["total"]
    notes = [line for line in err.splitlines() if "kimi_k2" in line]
    assert notes == [
        f"paramtally: warning: {config}: model_type 'kimi_k2' is read as deepseek_v3, the same architecture"
    ]


# --- an unknown model type --------------------------------------------------------------------------


UNKNOWN = sorted(
    path.stem
    for path in V3.glob("*.json")
    if families.find(json.loads(path.read_text())["model_type"]) is None
)


@pytest.mark.parametrize("stem", UNKNOWN)
def test_an_unknown_type_is_one_line_naming_it_three_supported_types_and_what_to_do(stem: str) -> None:
    data = _v3(stem)
    with pytest.raises(ParamTallyError) as refused:
        import_hf_config(data, f"some/folder/{stem}/config.json")
    line = str(refused.value)
    assert len(line) <= 300 and "\n" not in line
    assert f"model_type '{data['model_type']}' is not supported (nearest: " in line
    nearest = line.split("(nearest: ")[1].split(")")[0].split(", ")
    assert len(nearest) == 3 and set(nearest) <= set(SUPPORTED_MODEL_TYPES)
    assert "open a similar preset" in line and "give the checkpoint folder" in line


@pytest.mark.parametrize(
    ("stem", "near", "renamed"),
    [
        # An unknown wrapper around a text_config (gemma3 and qwen2_5_vl themselves are read now).
        ("gemma-3-27b-it", "gemma3_text", "gemma3_future"),
        # Types read since (zamba, falcon_mamba): as unknown copies of them.
        ("zamba-7b-v1", "jamba", "zamba_private"),
        ("falcon-mamba-7b", "mamba", "falcon_mamba_private"),
        ("qwen2.5-vl-7b-instruct", "qwen2", "qwen2_future_vl"),
    ],
)
def test_the_nearest_types_are_the_alike_architectures(stem: str, near: str, renamed: str | None) -> None:
    data = _v3(stem) if renamed is None else {**_v3(stem), "model_type": renamed}
    with pytest.raises(ParamTallyError, match=rf"\(nearest: [^)]*\b{near}\b"):
        import_hf_config(data, "config.json")


def test_a_long_path_and_name_still_fit_the_line() -> None:
    origin = "/deep" * 1000 + "/config.json"
    with pytest.raises(ParamTallyError) as refused:
        import_hf_config({"model_type": "x" * 5000, "hidden_size": 64}, origin)
    line = str(refused.value)
    assert len(line) == 300 and line.startswith("…") and "/config.json: model_type 'xxx" in line


def test_a_refusal_names_a_built_in_preset_of_the_nearest_type() -> None:
    with pytest.raises(ParamTallyError, match=r"open a similar preset \(deepseek-v2-lite\) and edit it"):
        import_hf_config({"model_type": "deepseek_v4", "kv_lora_rank": 512, "n_routed_experts": 64}, "c")


# --- what the rest of core asks of a family -------------------------------------------------------


def test_activation_quirks_come_from_the_family_its_wrappers_and_none_for_the_unknown() -> None:
    assert families.activation_quirks("gemma3") == families.activation_quirks("gemma3_text")
    assert families.activation_quirks("gemma3_text").fp32_norm
    assert families.activation_quirks("llama4").softmax_in_activation_dtype
    assert families.activation_quirks("kimi_k2") == families.activation_quirks("deepseek_v3")
    assert families.activation_quirks("deepseek_v2").unnormalized_top_k
    assert families.activation_quirks("my-own-model") == families.activation_quirks(None) == NO_QUIRKS
    assert (
        families.tokenizer("llama") == "sentencepiece_at_32k" and families.tokenizer("t5") == "sentencepiece"
    )
    assert families.tokenizer("gpt2") == families.tokenizer(None) == "bpe"


# --- the README ---------------------------------------------------------------------------------


def _readme_tool() -> Any:
    spec = importlib.util.spec_from_file_location(
        "readme_model_types", ROOT / "tools" / "readme_model_types.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_lists_the_registrys_model_types() -> None:
    checked = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "readme_model_types.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in readme for name in SUPPORTED_MODEL_TYPES)
    assert "`kimi_k2` (read as `deepseek_v3`)" in readme


def test_a_readme_that_disagrees_is_rewritten_from_the_registry() -> None:
    tool = _readme_tool()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    stale = readme.replace("- Whisper: `whisper`\n", "")
    assert stale != readme and tool.rewritten(stale) == readme
