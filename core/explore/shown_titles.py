"""Every title the schema gives a person to read, for translators.

The window translates the schema's titles at its edge (``gui.i18n``); Qt's ``pyside6-lupdate``
finds strings in calls only, so ``tools/build_translations.py`` lists these into the ``Schema``
context of the translation sources. Walked from the architecture and the scenario through every
nested model and every kind of a union, so a new field or kind is listed without naming it here.
It reads the titles of every layer of core (count's parts, memory's scenario, explore's variables),
so it sits in the top library layer.
"""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import BaseModel

from paramtally.core.schema.field_specs import field_spec, kind_title

__all__ = ["ROW_WORDS", "schema_descriptions", "schema_titles"]

# Words core puts into the layer tree's rows and the breakdown's part names besides the titles
# (``core.count.parameters.run_title`` and ``block_kind``, ``core.count.breakdown``).
ROW_WORDS = (
    # the tree's rows: 'layers 0–95 (dense)', 'Decoder: 96 layers', 'MTP: 1 module'
    "layer",
    "layers",
    "module",
    "modules",
    "dense",
    "window",
    "no mixer",
    "no FFN",
    "channel mix",
    "parameters",
    "built-in",
    "user",
    "yes",
    "no",
    "none",
    # the breakdown's terms (``core.count``): 'token embedding', 'block norms (LayerNorm)'
    "attention",
    "averaged",
    "bias",
    "biases",
    "block norms",
    "branch",
    "class token",
    "convolution",
    "copies",
    "cross-attention",
    "decoder",
    "embedding norm",
    "embeddings",
    "encoder",
    "ffn",
    "context",
    "batch",
    # the scenario's line (``core.io.export.scenario_text``): 'inference, weights bf16, context …'
    "inference",
    "training",
    "mixer",
    "moe",
    "parallel mixer",
    "adapter",
    "lora",
    "ssm",
    "norms",
    "recurrent state",
    "repetitions of",
    "single GPU",
    "final norm",
    "gated norm",
    "input",
    "kv down",
    "kv latent norm",
    "kv up",
    "layer scales",
    "learned vector",
    "linear",
    "lm head",
    "matrices",
    "merge",
    "norm",
    "norms and scales",
    "patch embedding",
    "patches",
    "pool",
    "positions",
    "frozen",
    "global q, k, v",
    "post-norm",
    "pre- and post-tile embeddings",
    "pre-norm",
    "projections in and out",
    "projector",
    "q and gate",
    "q down",
    "q latent norm",
    "q up",
    "q/k norms",
    "relative position bias",
    "routed experts",
    "router",
    "scalar gates",
    "shared expert gate",
    "shared experts",
    "sinks",
    "tied to the token embedding",
    "tile and position gates",
    "tile positions",
    "token",
    "token embedding",
    "two convolutions",
    "vision tower",
    "weights",
    "wide",
    # DeepSeek-V3's MTP module (``core.count.parameters``), the KV cache's layers (``memory.kv_cache``)
    "embedding copy",
    "head copy",
    "enorm and hnorm",
    "sliding-window layers",
    "global layers",
    # the parts of the other families' blocks and heads (``core.blocks``, ``core.count``)
    "block",
    "block-diagonal",
    "classifier",
    "correction bias",
    "depthwise",
    "experts' q and o",
    "head norm",
    "indexer",
    "inner norm",
    "input and recurrence gates",
    "multi-token prediction",
    "output bias",
    "read w_in",
    "reads w_in",
    "recurrence parameter",
    "relative position embeddings",
    "relative position norm",
    "RMSNorm over w_in and h",
    "shared k, v",
    "shared MLP",
    "shared norms",
    "shared o",
    "shared q",
    "shared transformer",
    "short conv",
    "this layer's linear",
    "token classifier",
    "token types",
    "transform dense",
    "transform norm",
    "uses' MLP adapters",
)


def _models() -> Iterator[type[BaseModel]]:
    from paramtally.core.memory.scenario import Scenario
    from paramtally.core.schema import Architecture

    seen: set[type[BaseModel]] = set()
    todo: list[type[BaseModel]] = [Architecture, Scenario]
    while todo:
        model = todo.pop()
        if model in seen:
            continue
        seen.add(model)
        yield model
        for name, info in model.model_fields.items():
            spec = field_spec(name, info)
            todo += [m for m in (spec.model, *spec.models) if m is not None]


def _part_titles() -> set[str]:
    """The names of a breakdown's parts and of the memory's parts (charts, headline, tables), the
    templates' (File → New), the design variables' and figures' (Explore), and the export formats'
    kinds (a save dialog's file types)."""
    from paramtally.core.count.breakdown import PART_LABELS
    from paramtally.core.editing.templates import TEMPLATES
    from paramtally.core.explore.figures import FIGURES
    from paramtally.core.explore.variables import VARIABLES
    from paramtally.core.io.formats import FORMATS
    from paramtally.core.memory.estimate import PART_TITLES

    parts = {*PART_LABELS.values(), *PART_TITLES.values(), "KV cache + recurrent state", "Recurrent state"}
    parts |= {form.kind for form in FORMATS}  # a save dialog's file types: 'HTML page'
    explore = {variable.title for variable in VARIABLES} | {figure.title for figure in FIGURES}
    return parts | {title for title, _ in TEMPLATES.values()} | explore


def schema_titles() -> tuple[str, ...]:
    """The models' titles, their fields' titles and their choices' labels, and the parts' names,
    each once, sorted."""
    titles: set[str] = _part_titles()
    for model in _models():
        titles.add(kind_title(model))
        for name, info in model.model_fields.items():
            spec = field_spec(name, info)
            titles.add(spec.label)
            titles.update(spec.choice_labels)
            if spec.kind in ("mapping", "models"):  # a section per entry: 'Projector · Step 2'
                titles.add(spec.item_label)
    return tuple(sorted(title for title in titles if title))


def schema_descriptions() -> tuple[str, ...]:
    """Every description core gives a person as a tooltip, each once, sorted: the fields' (the form,
    the scenario, the dialogs), the derived fields' (a stack's layers), the GPU setups table's
    columns, and the design variables' (with what each allows) and figures'."""
    from dataclasses import fields

    from paramtally.core.editing.edits import DERIVED
    from paramtally.core.explore.figures import FIGURES
    from paramtally.core.explore.variables import VARIABLES, with_ffn_scaled
    from paramtally.core.memory.fit import SetupFit

    found = {
        field_spec(name, info).description for model in _models() for name, info in model.model_fields.items()
    }
    found |= {derived.info.description or "" for derived in DERIVED.values()}
    found |= {str(column.metadata["description"]) for column in fields(SetupFit)}
    hidden = next(variable for variable in VARIABLES if variable.name == "hidden_size")
    variables = (*VARIABLES, with_ffn_scaled(hidden))
    found |= {text for variable in variables for text in (variable.description, variable.constraint)}
    found |= {figure.description for figure in FIGURES}
    return tuple(sorted(text for text in found if text))
