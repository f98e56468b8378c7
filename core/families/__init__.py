"""The Hugging Face model families the importer reads: a config's ``model_type`` → its ``ModelType``.

Each module of this package is one family and declares ``FAMILY`` (``base.Family``), but for
what the families share (``base``, ``pieces``, ``vision_parts``; ``image_resize``: how a
processor resizes an image) and the reading of a config (``hf_reader``: typed keys;
``layer_pattern``: per-layer rules as layer groups). ``FAMILY`` holds
its model types, each with the config class's defaults, the builder of a schema-2 architecture,
and the facts the rest of core asks of the family (activation quirks, tokenizer, dropout keys),
plus any aliases (other model_types naming the same architecture). Adding a family is one new
module and its name in ``FAMILY_MODULES``.

The modules are loaded on the first question (a config to import, a family's quirks), not when
core is imported: a preset's count never needs them.
"""

from __future__ import annotations

from collections.abc import Collection
from difflib import SequenceMatcher
from functools import cache
from importlib import import_module

from paramtally.core.families.base import (
    NO_QUIRKS,
    ActivationQuirks,
    Family,
    ModelType,
    Tokenizer,
)
from paramtally.core.families.image_resize import AS_GIVEN, ImageResize

__all__ = [
    "FAMILY_MODULES",
    "activation_quirks",
    "alias_target",
    "families",
    "find",
    "image_resize",
    "nearest",
    "supported_model_types",
    "tokenizer",
]

# One line per family module of this package.
FAMILY_MODULES = (
    "apertus",
    "arcee",
    "aya_vision",
    "bamba",
    "bart",
    "bert",
    "biogpt",
    "bitnet",
    "bloom",
    "codegen",
    "cohere",
    "cohere2",
    "dbrx",
    "deberta_v2",
    "deepseek",
    "distilbert",
    "dots1",
    "electra",
    "ernie",
    "ernie4_5",
    "ernie4_5_moe",
    "esm",
    "exaone4",
    "falcon",
    "falcon_h1",
    "falcon_mamba",
    "fuyu",
    "gemma",
    "gemma_vl",
    "glm4",
    "glm4_moe",
    "glm4v",
    "gpt2",
    "gpt_bigcode",
    "gpt_neo",
    "gpt_neox",
    "gpt_oss",
    "gptj",
    "granite",
    "granite_hybrid",
    "granitemoe",
    "helium",
    "hunyuan_v1_dense",
    "hunyuan_v1_moe",
    "idefics3",
    "internvl",
    "jamba",
    "jetmoe",
    "led",
    "lfm2",
    "llama",
    "llama4",
    "llava",
    "longcat_flash",
    "longformer",
    "m2m_100",
    "mamba",
    "marian",
    "mbart",
    "megatron_bert",
    "minimax",
    "minimax_m2",
    "mistral",
    "mllama",
    "modernbert",
    "mpnet",
    "mpt",
    "nemotron",
    "nemotron_h",
    "olmo",
    "olmoe",
    "openai_gpt",
    "opt",
    "pegasus",
    "persimmon",
    "phi",
    "phimoe",
    "qwen",
    "qwen3_next",
    "qwen_vl",
    "recurrent_gemma",
    "roberta",
    "rwkv",
    "seed_oss",
    "smollm3",
    "stablelm",
    "starcoder2",
    "switch_transformers",
    "t5",
    "t5gemma",
    "whisper",
    "xglm",
    "xlm_roberta_xl",
    "zamba",
)


_ALIKE = 0.6  # difflib's ratio from which two names are taken for kin (errors.close_names' cutoff)


@cache
def families() -> tuple[Family, ...]:
    """Every family, in the order of ``FAMILY_MODULES``."""
    return tuple(_load(name) for name in FAMILY_MODULES)


def _load(name: str) -> Family:
    family = getattr(import_module(f"{__name__}.{name}"), "FAMILY", None)
    if not isinstance(family, Family):
        raise TypeError(f"{__name__}.{name} declares no FAMILY")
    return family


@cache
def _by_name() -> dict[str, ModelType]:
    """Each model type by its name and its aliases' names (a name is claimed once)."""
    table: dict[str, ModelType] = {}
    for family in families():
        for kind in family.types:
            for name in (kind.name, *kind.aliases):
                if name in table:
                    raise ValueError(f"model_type {name} is claimed by {table[name].name} and {kind.name}")
                table[name] = kind
    return table


def find(model_type: str) -> ModelType | None:
    """The model type a config's ``model_type`` names (an alias: the type it is), or None."""
    return _by_name().get(model_type)


def alias_target(model_type: str) -> str | None:
    """The supported model type an alias is read as, or None (not an alias)."""
    kind = _by_name().get(model_type)
    return kind.name if kind is not None and kind.name != model_type else None


@cache
def supported_model_types() -> tuple[str, ...]:
    """The model types the importer reads, aliases left out, sorted."""
    return tuple(sorted(kind.name for family in families() for kind in family.types))


@cache
def _quirk_table() -> dict[str, ModelType]:
    """Each model type by every family name an architecture may carry: its own, its aliases',
    and those of the wrappers around it."""
    table = dict(_by_name())
    for family in families():
        for kind in family.types:
            table.update(dict.fromkeys(kind.wrapped_by, kind))
    return table


def activation_quirks(family: str | None) -> ActivationQuirks:
    """How the family's transformers modules keep activations (none: the common rule)."""
    kind = _quirk_table().get(family or "")
    return kind.activations if kind is not None else NO_QUIRKS


def image_resize(family: str | None) -> ImageResize:
    """What the family's image processor does to an image (as given where unknown)."""
    kind = _quirk_table().get(family or "")
    return kind.image_resize if kind is not None else AS_GIVEN


def tokenizer(family: str | None) -> Tokenizer:
    """The kind of the family's vocabulary (BPE where unknown)."""
    kind = _quirk_table().get(family or "")
    return kind.tokenizer if kind is not None else "bpe"


def nearest(names: Collection[object], keys: Collection[str], n: int = 3) -> list[str]:
    """The ``n`` supported model types most like a config named ``names`` (its model_type, and a
    wrapper's text model's) holding ``keys``: the share of the keys that shape parameters it has
    in common with a type's defaults (Jaccard), then, weighing less, names alike enough to mean
    something (gemma3 and gemma3_text; not glm4_moe and gemma)."""
    said = [name.casefold() for name in names if isinstance(name, str)]
    kinds = [kind for family in families() for kind in family.types]
    shaping = {key for kind in kinds for key in kind.defaults}
    given = set(keys) & shaping

    def likeness(kind: ModelType) -> tuple[float, float]:
        own = set(kind.defaults)
        shared = len(given & own) / len(given | own) if given else 0.0
        alike = max((SequenceMatcher(None, name, kind.name).ratio() for name in said), default=0.0)
        return shared + (0.3 * alike if alike >= _ALIKE else 0.0), alike  # a tie: the closer name

    return [kind.name for kind in sorted(kinds, key=likeness, reverse=True)[:n]]
