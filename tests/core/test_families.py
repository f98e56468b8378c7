"""The family registry: one module per model family, each model type claimed once and built as
schema 2; activation quirks asked of the family."""

from __future__ import annotations

import ast
import pkgutil
from pathlib import Path

import pytest

from paramtally.core.io.importers import families
from paramtally.core.io.importers.families.base import NO_QUIRKS
from paramtally.core.io.importers.hf_config import SUPPORTED_MODEL_TYPES
from paramtally.core.io.importers.hf_reader import HFConfig

ROOT = Path(__file__).resolve().parents[2]
IMPORTERS = ROOT / "core" / "io" / "importers"


# --- the registry ---------------------------------------------------------------------------------


def test_every_module_of_the_package_is_a_registered_family() -> None:
    shared = {"base", "pieces"}
    modules = {info.name for info in pkgutil.iter_modules(families.__path__)} - shared
    assert modules == set(families.FAMILY_MODULES)
    assert len(families.families()) == len(families.FAMILY_MODULES)


def test_each_model_type_is_claimed_once_and_found_by_its_name() -> None:
    names = [kind.name for family in families.families() for kind in family.types]
    assert len(names) == len(set(names)) == len(SUPPORTED_MODEL_TYPES)
    assert all(families.find(name).name == name for name in names)  # type: ignore[union-attr]
    assert families.find("rwkv") is None


@pytest.mark.parametrize("model_type", SUPPORTED_MODEL_TYPES)
def test_each_family_builds_schema_2_directly(model_type: str) -> None:
    kind = families.find(model_type)
    assert kind is not None
    config = {"model_type": model_type, "num_experts_per_tok": 2}  # DeepSeek-V2's class has no default
    spec = kind.build(HFConfig(config, model_type, "c", kind.defaults))
    assert "blocks" in spec and spec.keys().isdisjoint({"attention", "ffn", "norms", "layers"})
    assert {"decoder", "encoder"} & spec.keys()


def test_no_importer_goes_through_the_schema_migrations() -> None:
    """Schema 1 lives only in the migrations (and their tests): the importers write schema 2."""
    for path in IMPORTERS.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        assert not [name for name in imported if name.endswith("migrations")], path


# --- what the rest of core asks of a family -------------------------------------------------------


def test_activation_quirks_come_from_the_family_its_wrappers_and_none_for_the_unknown() -> None:
    assert families.activation_quirks("gemma3") == families.activation_quirks("gemma3_text")
    assert families.activation_quirks("gemma3_text").fp32_norm
    assert families.activation_quirks("llama4").softmax_in_activation_dtype
    assert families.activation_quirks("deepseek_v2").unnormalized_top_k
    assert families.activation_quirks("my-own-model") == families.activation_quirks(None) == NO_QUIRKS
    assert (
        families.tokenizer("llama") == "sentencepiece_at_32k" and families.tokenizer("t5") == "sentencepiece"
    )
    assert families.tokenizer("gpt2") == families.tokenizer(None) == "bpe"
