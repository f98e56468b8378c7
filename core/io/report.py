"""The design report (issue 35): one architecture under one scenario, written for a design doc.

In the order of the worked example (GPT-3 175B): the architecture's fields; the derivation,
Embedding → attention → FFN → norms → LM head, each term's formula with the numbers filled in,
added up to the total; total and active parameters with what LoRA, adapters, new tokens and a
vision tower add; weights per data type and quantization format and the scenario's memory term
by term; the GPU setups that fit; FLOPs per token and the training run with their conventions;
and what was assumed, with the tool's version.

Every figure is the calculators' (``core.count``, ``core.memory``): the report arranges their
terms and never derives a number of its own; a sum it shows is the sum of the terms shown
beside it. The content is blocks (``core.io.formats.content``) every document format writes:
Markdown and self-contained HTML. Its words are English or, through ``core.io.report_i18n``,
Simplified Chinese.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from pydantic import ValidationError

from paramtally.core.count.breakdown import ADDED_PARTS, PART_LABELS, PARTS, ParamReport, human, percent
from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import FieldPath, ParamTallyError
from paramtally.core.io.export import bandwidth_line, scenario_text
from paramtally.core.io.formats.content import (
    Block,
    Chart,
    Exported,
    Heading,
    Paragraph,
    Table,
    TermRow,
    Terms,
)
from paramtally.core.io.report_charts import bar_chart, stacked_bar
from paramtally.core.io.report_i18n import Translator
from paramtally.core.memory.estimate import MemoryReport, estimate_memory
from paramtally.core.memory.fit import SetupFit, fit_setups
from paramtally.core.memory.flops import FlopsReport, convention_text, estimate_flops
from paramtally.core.memory.layout_advice import layout_advice
from paramtally.core.memory.quant import DTYPE_BITS, QUANT_FORMATS
from paramtally.core.memory.scenario import Scenario, has_experts, unused_fields
from paramtally.core.schema import Architecture
from paramtally.core.schema.field_visibility import shown_fields
from paramtally.core.terms.term import Term
from paramtally.core.typed_numbers import GB, GIB

__all__ = ["architecture_rows", "derivation", "report_export", "report_facts"]

_LAYERS = re.compile(r"^layers (.+) \((.+)\)$")  # a run of layers: 'layers 0–95 (dense)'
_LAYER = re.compile(r"^layer (\d+) \((.+)\)$")
_QUALIFIED = re.compile(r"^(.+?) \((.+)\)$")  # 'weights (bf16)': a known name, qualified


def _gib(count: int) -> str:
    return f"{count / GIB:,.2f}"


def report_export(
    architecture: Architecture,
    scenario: Scenario,
    source: str = "",
    notes: Sequence[str] = (),
    language: str = "en",
    version: str = "",
) -> Exported:
    """The design report of ``architecture`` under ``scenario`` in ``language`` ('en', 'zh_CN').
    The figures are computed here (a refused scenario is said before anything is written); the
    blocks are made when a format asks for them."""
    t = Translator(language)
    count = count_parameters(architecture)
    memory = estimate_memory(architecture, scenario)
    flops = estimate_flops(architecture, scenario)
    setups = fit_setups(architecture, scenario)
    title = t("{name}: design report", name=architecture.name)

    def blocks() -> tuple[Block, ...]:
        return (
            *_architecture(t, architecture),
            *derivation(t, count),
            *_totals(t, count),
            *_memory(t, architecture, scenario, memory),
            *_setups(t, architecture, scenario, setups),
            *_flops(t, scenario, flops),
            *_assumed(t, architecture, scenario, (*notes, layout_advice(architecture, scenario)), version),
        )

    return Exported(
        "report", title, report_facts(t, architecture, scenario, source, version), blocks, language=language
    )


def report_facts(
    t: Translator, architecture: Architecture, scenario: Scenario, source: str, version: str
) -> list[tuple[str, str]]:
    facts = [(t("model"), architecture.name)]
    if source and source != architecture.name:
        facts.append((t("source"), source))
    return [
        *facts,
        (t("scenario"), t.name(scenario_text(scenario, architecture))),
        ("ParamTally", version or "unknown"),
    ]


# --- the architecture -----------------------------------------------------------------------------


def _architecture(t: Translator, arch: Architecture) -> list[Block]:
    found: list[Block] = [Heading(t("Architecture"))]
    if arch.description:
        found.append(Paragraph(arch.description))
    rows = [
        {t("field"): path, t("value"): value}
        for path, value in architecture_rows(arch)
        if value not in (0, "false")  # a feature that is off (no bias, no token types) says nothing
    ]
    found += [
        Paragraph(
            t(
                "The architecture's fields by id, as a preset JSON holds them; "
                "those that are off or 0, and those that do not apply to this model, are left out."
            )
        ),
        Table((t("field"), t("value")), rows),
    ]
    return found


def architecture_rows(arch: Architecture) -> Iterator[tuple[str, Any]]:
    """Each field that applies to ``arch`` (the window's form shows it, or the layer tree edits it)
    and has a value, by its dotted id (``blocks.default.mixer.num_heads``) with its value as a
    preset JSON holds it; a field holding a list or a mapping of values, item by item."""
    data = arch.model_dump(mode="json")
    for field in shown_fields(arch):
        if field.path[0] in ("name", "description", "schema_version"):
            continue
        node: Any = data
        for step in field.path:
            node = node[step]
        yield from _values(node, _dotted(field.path))


def _dotted(path: FieldPath) -> str:
    return "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in path).lstrip(".")


def _values(data: Any, path: str) -> Iterator[tuple[str, Any]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _values(value, f"{path}.{key}")
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _values(value, f"{path}[{index}]")
    elif data is not None:
        yield path, str(data).lower() if isinstance(data, bool) else data


# --- the derivation -------------------------------------------------------------------------------


def derivation(t: Translator, count: ParamReport) -> list[Block]:
    top = count.tree.children
    rows = [_term_row(t, node, depth) for child in top for _, depth, node in child.walk()]
    total = sum(node.value for node in top)  # the tree's own sum, which is the total (a test checks)
    sum_formula = " + ".join(f"{node.value:,}" for node in top) + f" = {total:,}"
    found: list[Block] = [
        Heading(t("Parameter count: the derivation")),
        Paragraph(
            t(
                "Embedding → attention → FFN → norms → LM head: each term is one unit's formula with "
                "its numbers filled in, a term repeated over layers written as layers × (one layer). "
                "The rows in bold are the ones added up; the rows under them show what each is made of."
            )
        ),
        Terms(
            t("Derivation"), rows, t("total"), total, sum_formula, (t("term"), t("formula"), t("parameters"))
        ),
    ]
    if count.mtp_tree is not None and count.mtp:
        mtp_rows = [_term_row(t, node, depth) for _, depth, node in count.mtp_tree.walk()]
        found += [
            Paragraph(
                t("Multi-token prediction modules, which transformers does not build, are counted apart:")
            ),
            Terms(
                t("MTP modules"),
                mtp_rows,
                t("MTP modules"),
                count.mtp,
                f"{count.mtp:,}",
                (t("term"), t("formula"), t("parameters")),
            ),
        ]
    return found


def _term_row(t: Translator, node: Term, depth: int) -> TermRow:
    formula = t.said(node.full_formula)  # 'one block = …' in the report's language
    if not formula and len(node.children) > 1:  # a group shows the sum of what it is made of
        formula = " + ".join(f"{child.value:,}" for child in node.children) + f" = {node.value:,}"
    return TermRow(_node_name(t, node.name), formula, node.value, depth, counted=depth == 0)


def _node_name(t: Translator, name: str) -> str:
    """A tree node's name in the report's language: a run of layers by its template, a known name
    from the catalogue, any other as the model names it."""
    if match := _LAYERS.match(name):
        which, kind = match.groups()
        return t("layers {which} ({kind})", which=which, kind=_kinds(t, kind))
    if match := _LAYER.match(name):
        index, kind = match.groups()
        return t("layer {index} ({kind})", index=index, kind=_kinds(t, kind))
    return _name(t, name)


def _kinds(t: Translator, kinds: str) -> str:
    """'attention, MoE': each kind a run of layers is named by, translated."""
    return t(", ").join(t.name(kind) for kind in kinds.split(", "))


def _name(t: Translator, name: str) -> str:
    """A name from the calculators (a tree node's, a memory or FLOPs term's): the catalogue's
    translation, else a known name with its qualifier ('weights (bf16)'), else as it is."""
    if name not in t.catalogue and (match := _QUALIFIED.match(name)) and match[1] in t.catalogue:
        return t("{name} ({qualifier})", name=t.name(match[1]), qualifier=_qualifier(t, match[2]))
    return t.name(name)


def _qualifier(t: Translator, text: str) -> str:
    """A qualifier's pieces ('fp32, last token'; 'encoder dense; window 128, dense layers'), each
    the catalogue knows in the report's language ('最后一个 token'), a dtype or a kind's name as it
    is: '激活值（prefill working set）' kept its English whole."""
    return t("; ").join(
        t(", ").join(t.name(piece) for piece in part.split(", ")) for part in text.split("; ")
    )


# --- totals -----------------------------------------------------------------------------------------


def _totals(t: Translator, count: ParamReport) -> list[Block]:
    column = (t("item"), t("parameters"), t("approx."))
    rows: list[tuple[str, int]] = [(t("total"), count.total)]
    if count.is_moe:
        rows.append((t("active per token"), count.active))
    if count.added:
        rows.append((t("base model"), count.base))
        rows += [(t(PART_LABELS[part]), count.by_part[part]) for part in PARTS if _added(count, part)]
    if count.is_multimodal:
        rows += [
            (t("vision tower"), count.vision),
            (t("projector"), count.projector),
            (t("language model alone"), count.language_model),
        ]
    if count.mtp:
        rows.append((t("MTP modules (counted apart)"), count.mtp))
    table = Table(
        column, [{column[0]: name, column[1]: value, column[2]: human(value)} for name, value in rows]
    )
    parts = [(part, value) for part in PARTS if (value := count.by_part.get(part, 0))]
    by_part = (t("part"), t("parameters"), t("share"))
    shares = [
        {by_part[0]: t(PART_LABELS[part]), by_part[1]: value, by_part[2]: f"{percent(value, count.total)}%"}
        for part, value in parts
    ]
    chart = bar_chart(
        t("Parameters by part"),
        [(t(PART_LABELS[part]), value, human(value)) for part, value in parts],
        cjk=t.language == "zh_CN",
    )
    return [
        Heading(t("Total and active parameters")),
        table,
        Heading(t("Parameters by part"), 3),
        Table(by_part, shares),
        Chart(t("Parameters by part"), "parts", chart),
    ]


def _added(count: ParamReport, part: str) -> bool:
    return part in ADDED_PARTS and bool(count.by_part.get(part))


# --- memory -------------------------------------------------------------------------------------------


def _weights_rows(t: Translator, arch: Architecture, scenario: Scenario) -> list[dict[str, Any]]:
    """The weights of the whole model in each data type and quantization format the tool knows,
    each the memory calculator's weights terms (one GPU, serving)."""
    columns = (t("format"), t("bits per weight"), t("bytes"), "GiB", t("formula"))
    formats: list[tuple[str, str, str | None, str]] = [
        (dtype, dtype, None, str(bits)) for dtype, bits in DTYPE_BITS.items()
    ]
    experts = has_experts(arch)  # a format for the experts alone leaves a dense model as it was
    formats += [
        (q.label, scenario.dtype, q.id, f"{float(q.bits):.4f}".rstrip("0").rstrip("."))
        for q in QUANT_FORMATS.values()
        if experts or not q.experts_only
    ]
    rows = []
    for label, dtype, quant, bits in formats:
        try:
            one = Scenario.model_validate(
                {"mode": "inference", "dtype": dtype, "quant": quant, "gpu": scenario.gpu}
            )
            terms = [term for term in estimate_memory(arch, one).terms if term.part == "weights"]
        except (ValidationError, ParamTallyError):  # a format this model cannot take (MXFP4 without experts)
            continue
        value = sum(term.value for term in terms)
        formula = "; ".join(term.formula for term in terms)
        rows.append(dict(zip(columns, (label, bits, value, _gib(value), formula), strict=True)))
    return rows


def _memory(t: Translator, arch: Architecture, scenario: Scenario, memory: MemoryReport) -> list[Block]:
    weights = _weights_rows(t, arch, scenario)
    rows = [TermRow(_name(t, term.name), term.formula, term.value) for term in memory.terms]
    total = memory.total_bytes
    titles = memory.part_titles()
    parts = [
        (t(titles[part]), value, f"{_gib(value)} GiB") for part, value in memory.by_part().items() if value
    ]
    stage = (
        t(
            " The busiest pipeline stage is shown: stage {stage}, {layers} layers.",
            stage=memory.stage,
            layers=memory.layers_on_gpu,
        )
        if scenario.pp > 1
        else ""
    )
    found: list[Block] = [
        Heading(t("Memory")),
        Heading(t("Weights per data type and format"), 3),
        Paragraph(
            t(
                "The whole model's weights on one GPU, bytes = parameters · bits / 8 "
                "(a quantization format's bits include its scales)."
            )
        ),
        Table(tuple(weights[0]) if weights else (), weights),
        Heading(t("The scenario's memory per GPU"), 3),
        Paragraph(t("Scenario: {scenario}.", scenario=t.name(scenario_text(scenario, arch))) + stage),
        Terms(
            t("Memory per GPU"),
            rows,
            t("total per GPU"),
            total,
            " + ".join(f"{term.value:,}" for term in memory.terms)
            + f" = {total:,} B = {_gib(total)} GiB = {total / GB:,.2f} GB",
            (t("term"), t("formula"), t("bytes")),
        ),
        Chart(
            t("Memory per GPU by part"),
            "memory",
            stacked_bar(t("Memory per GPU by part"), parts, f"{_gib(total)} GiB", cjk=t.language == "zh_CN"),
        ),
    ]
    if memory.omissions:
        found.append(Paragraph(t("Not modelled: {what}.", what="; ".join(map(t.said, memory.omissions)))))
    return found


# --- GPU setups --------------------------------------------------------------------------------------


def _setups(t: Translator, arch: Architecture, scenario: Scenario, setups: Sequence[SetupFit]) -> list[Block]:
    """The fewest GPUs of each kind that fit; no decode speed for a model that generates nothing, no
    context for a vision tower alone."""
    fewest: dict[str, SetupFit] = {}
    for fit in setups:
        if fit.fits and fit.gpu not in fewest:
            fewest[fit.gpu] = fit
    found: list[Block] = [Heading(t("GPU setups that fit"))]
    largest = max((fit.count for fit in setups), default=0)
    if not fewest:
        found.append(
            Paragraph(
                t(
                    "None of the catalogue's GPU setups (up to {count} GPUs) fits this scenario.",
                    count=largest,
                )
            )
        )
        return found
    found.append(
        Paragraph(
            t(
                "The fewest GPUs of each kind in the catalogue (counts up to {count}) "
                "on which the scenario fits, "
                "in the layout the tool chooses; the busiest GPU's memory against its usable capacity.",
                count=largest,
            )
        )
    )
    columns = [t("GPU"), t("count"), t("layout"), t("per GPU GiB"), t("free GB")]
    serving = scenario.mode == "inference" and not arch.tower_only
    generates = arch.generates
    if serving:
        columns += [t("max context"), *([t("decode tokens/s")] if generates else [])]
    rows = []
    for fit in fewest.values():
        row: list[Any] = [
            fit.gpu_name,
            fit.count,
            fit.layout,
            _gib(fit.per_gpu_bytes),
            f"{fit.free_bytes / GB:,.2f}",
        ]
        if serving:
            context = fit.max_context
            tokens = fit.decode_tokens_per_second
            row += [context, *(["" if tokens is None else f"{tokens:,.1f}"] if generates else [])]
        rows.append(dict(zip(columns, row, strict=True)))
    found.append(Table(tuple(columns), rows))
    return found


# --- FLOPs ---------------------------------------------------------------------------------------------


def _flops(t: Translator, scenario: Scenario, flops: FlopsReport) -> list[Block]:
    columns = (t("term"), t("formula"), t("FLOPs"))
    rows = [
        {columns[0]: _name(t, term.name), columns[1]: term.formula, columns[2]: term.value}
        for term in flops.terms
    ]
    convention = t(
        "Training FLOPs and time count {convention} (--attention-flops {choice}); the time is at {mfu} model "
        "FLOPs utilization (MFU, --mfu).",
        convention=t.name(convention_text(scenario.attention_flops)),
        choice=scenario.attention_flops,
        mfu=f"{flops.mfu:.0%}",
    )
    run = t(
        "Training on {tokens} tokens takes {flops} FLOPs: {days} days on {gpus} × {gpu} at {mfu} MFU "
        "({peak} TFLOP/s peak each).",
        tokens=f"{flops.tokens:,}",
        flops=f"{flops.run_flops:.3e}",
        days=f"{flops.days:,.1f}",
        gpus=flops.gpus,
        gpu=flops.gpu,
        mfu=f"{flops.mfu:.0%}",
        peak=f"{flops.peak_flops / 1e12:,.0f}",
    )
    return [
        Heading(t("FLOPs and training time")),
        Paragraph(convention),
        Table(columns, rows),
        Paragraph(run),
    ]


# --- assumptions ---------------------------------------------------------------------------------------


def _assumed(
    t: Translator, arch: Architecture, scenario: Scenario, notes: Sequence[str], version: str
) -> list[Block]:
    columns = (t("field"), t("value"), t("default"))
    rows = []
    unused = unused_fields(arch)  # what the window leaves out for this model (the KV cache's for BERT)
    for name, field in Scenario.model_fields.items():
        if name in unused:
            continue
        default = field.get_default(call_default_factory=True)
        rows.append(
            {columns[0]: name, columns[1]: _shown(getattr(scenario, name)), columns[2]: _shown(default)}
        )
    bandwidth = bandwidth_line(scenario, arch)
    left_out = ", ".join(name for name in Scenario.model_fields if name in unused)
    found: list[Block] = [
        Heading(t("What was assumed")),
        Paragraph(t("Scenario: {scenario}.", scenario=t.name(scenario_text(scenario, arch)))),
        *([Paragraph(_sentence(t.said(bandwidth), t))] if bandwidth else []),
        *(Paragraph(t.said(note)) for note in notes if note),
        Table(columns, rows, t("Scenario fields")),
        *(
            [Paragraph(t("Fields this model has no use for are left out: {fields}.", fields=left_out))]
            if left_out
            else []
        ),
        Paragraph(
            t(
                "Parameter counts equal sum(p.numel() for p in model.parameters()) of the model transformers "
                "builds; memory, FLOPs and times are estimates under the scenario above. "
                "Written by ParamTally "
                "{version}.",
                version=version or "unknown",
            )
        ),
    ]
    return found


def _sentence(text: str, t: Translator) -> str:
    return text[:1].upper() + text[1:] + ("." if t.language == "en" else "。")


def _shown(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, tuple | list | frozenset | set):
        return ", ".join(str(item) for item in value)
    return str(value)
