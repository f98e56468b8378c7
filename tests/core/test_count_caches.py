"""The parameter count and the layer tree's rows reuse what they made for a block (its tree, its
parts, its rows) across runs, groups and edits: every figure and text must equal what is made
afresh, the plain way, for that model alone."""

from __future__ import annotations

import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from paramtally.core.count.breakdown import PARTS, ParamReport
from paramtally.core.count.layer_tree_rows import (
    BLOCK_PARTS,
    TreeRow,
    block_field_params,
    lora_gaps,
    part_summary,
    stack_rows,
)
from paramtally.core.count.parameters import block_kind, count_parameters, run_title
from paramtally.core.editing.edits import with_value
from paramtally.core.io.presets import load_builtin
from paramtally.core.schema import Architecture, Block, LayerGroup, Run, block_node
from paramtally.core.schema.stack import resolve_block
from paramtally.core.terms.term import Term
from tests.core.strategies import architectures
from tests.hypothesis_budget import examples


def clear_caches() -> None:
    """Every memoized function of the core emptied, as in a new session."""
    for name, module in list(sys.modules.items()):
        if name.startswith("paramtally.core"):
            for function in vars(module).values():
                if callable(getattr(function, "cache_clear", None)):
                    function.cache_clear()


def fresh(arch: Architecture) -> tuple[ParamReport, tuple[TreeRow, ...]]:
    clear_caches()
    return count_parameters(arch), stack_rows(arch)


def plain_rows(arch: Architecture) -> tuple[TreeRow, ...]:
    """The layer tree's rows group by group, each group's block resolved and counted on its own."""
    rows: list[TreeRow] = []
    for role, stack in arch.stacks:
        top = len(rows)
        rows.append(TreeRow("stack", (role,), None, "", 0, "", -1))
        mixed = len({run.block.mixer.kind for run in arch.runs if run.stack == role}) > 1
        start, total = 0, 0
        for index, group in enumerate(stack.layers):
            base = arch.blocks[stack.block]
            total += plain_group(arch, rows, top, (role, "layers", index), group, base, start, 1, 0, mixed)
            start += group.layers
        text = f"{role.capitalize()}: {stack.num_layers:,} layer{'s' if stack.num_layers != 1 else ''}"
        detail = f"{total:,} parameters in its layers (its input and final norm are counted apart)"
        rows[top] = TreeRow("stack", (role,), None, text, total, detail, -1)
    if arch.mtp is not None and arch.mtp_block is not None:
        block, mtp = arch.mtp_block, count_parameters(arch).mtp
        modules = f"{arch.mtp.count} module{'s' if arch.mtp.count != 1 else ''}"
        detail = f"{mtp:,} parameters, counted apart from the total (transformers does not build them)"
        rows.append(TreeRow("stack", ("mtp",), None, f"MTP: {modules}", mtp, detail, -1))
        plain_parts(rows, len(rows) - 1, ("mtp",), block, arch.hidden_size, arch.mtp.count)
    return tuple(rows)


def plain_group(
    arch: Architecture, rows: list[TreeRow], parent: int, where: tuple[str | int, ...], group: LayerGroup,
    outer: Block, start: int, repeats: int, period: int, mixed: bool,
) -> int:  # fmt: skip
    block = resolve_block(arch.blocks[group.block] if group.block else outer, group.override)
    me = len(rows)
    rows.append(TreeRow("group", where, None, "", 0, "", parent))
    if group.pattern:
        offset, total = 0, 0
        for index, inner in enumerate(group.pattern):
            total += plain_group(
                arch, rows, me, (*where, "pattern", index), inner, block, start + offset,
                repeats * group.count, group.period, mixed,
            )  # fmt: skip
            offset += inner.layers
        span = span_text(start, group.layers) if repeats == 1 else f"{group.count} ×"
        repetitions = f"{group.count:,} repetition{'s' if group.count != 1 else ''}"
        text = f"{span}: {repetitions} of {group.period} layers"
        detail = f"{total:,} parameters\n{repetitions} (F2 or double-click to change)"
        rows[me] = TreeRow("group", where, None, text, total, detail, parent, group.count)
        return total
    layers = group.count * repeats
    total = block_node(block, arch.hidden_size).value * layers
    if repeats == 1:
        text = f"{span_text(start, group.count)} ({block_kind(block, mixed)})"
    elif len(where) == 5:
        text = run_title(Run(where[0], int(where[2]), start, group.count, repeats, period, block), mixed)  # type: ignore[arg-type]
    else:
        text = f"{group.count} × ({block_kind(block, mixed)})"
    detail = f"{total:,} parameters\n{layers:,} layers (F2 or double-click to change the count)"
    rows[me] = TreeRow("group", where, None, text, total, detail, parent, group.count)
    plain_parts(rows, me, where, block, arch.hidden_size, layers)
    return total


def plain_parts(
    rows: list[TreeRow], parent: int, where: tuple[str | int, ...], block: Block, h: int, layers: int
) -> None:
    by_field = block_field_params(block, h)
    for name in BLOCK_PARTS:
        part = getattr(block, name)
        if part is None:
            continue
        line, detail = part_summary(part)
        if name == "lora" and (gaps := lora_gaps(block)):  # targets the block has no matrix for, first
            said = ["{}: {}".format(", ".join(targets), why) for targets, why in gaps]
            line = line.replace("LoRA", f"LoRA ({'; '.join(said)})", 1)
            detail += "".join(f"\n{one}, so they count 0" for one in said)
        title = Block.model_fields[name].title or name
        text = line if line.startswith(title) else f"{title}: {line}"
        params = by_field.get(name, 0) * layers
        rows.append(TreeRow("part", where, name, text, params, f"{params:,} parameters\n{detail}", parent))


def span_text(start: int, count: int) -> str:
    return f"layer {start}" if count == 1 else f"layers {start}–{start + count - 1}"


def run_nodes(report: ParamReport) -> list[Term]:
    """The report's nodes of runs of layers ("layers 0–3 (dense)"), stack by stack."""
    return [node for _, _, node in report.tree.walk() if node.text.startswith("one block = ")]


@settings(max_examples=examples(50))  # each example empties every cache of the core up to eight times
@given(st.lists(architectures(), min_size=2, max_size=4), st.integers(1, 4))
def test_figures_after_other_models_and_edits_equal_those_made_afresh(
    archs: list[Architecture], step: int
) -> None:
    # Other models and edited copies first, so the caches hold their blocks at other sizes.
    seen = [*archs, *(with_value(arch, ("hidden_size",), arch.hidden_size + 8 * step) for arch in archs)]
    warm = [(count_parameters(arch), stack_rows(arch)) for arch in seen]
    for arch, (report, rows) in zip(seen, warm, strict=True):
        assert (report, rows) == fresh(arch)


@given(architectures())
def test_each_run_is_its_block_counted_once_and_repeated(arch: Architecture) -> None:
    h = arch.hidden_size
    nodes = run_nodes(count_parameters(arch))
    assert len(nodes) == len(arch.runs)
    for node, run in zip(nodes, arch.runs, strict=True):
        one = block_node(run.block, h)
        assert node.children == one.repeated(run.layers).children
        assert node.value == one.value * run.layers and node.count == run.layers
        assert node.text == f"one block = {one.value:,}"


@given(architectures())
def test_the_tree_rows_equal_those_made_group_by_group(arch: Architecture) -> None:
    assert stack_rows(arch) == plain_rows(arch)
    edited = with_value(arch, ("hidden_size",), arch.hidden_size * 2)
    assert stack_rows(edited) == plain_rows(edited)


def leaf_sums(node: Term) -> dict[str, int]:
    sums: dict[str, int] = {}
    for _, leaf in node.leaves():
        sums[leaf.part] = sums.get(leaf.part, 0) + leaf.value
    return sums


@given(architectures())
def test_the_reports_rows_and_sums_equal_those_made_run_by_run(arch: Architecture) -> None:
    # The report adds each block's parts once for all its layers, and takes each stack's run
    # titles and (block, layers) pairs from a plan kept across edits: the plain way is run by run.
    for model in (arch, with_value(arch, ("hidden_size",), arch.hidden_size * 2)):
        h, report = model.hidden_size, count_parameters(model)
        sums = leaf_sums(report.tree)
        assert report.by_part == {part: sums[part] for part in PARTS if part in sums}
        assert len(report.groups) == len(model.runs)
        idle = 0
        for row, run in zip(report.groups, model.runs, strict=True):
            one = block_node(run.block, h)
            assert (row.stack, row.group, row.start, row.count, row.repeats, row.period) == (
                run.stack, run.group, run.start, run.count, run.repeats, run.period,
            )  # fmt: skip
            assert (row.mixer, row.kind) == (run.block.mixer.kind, run.block.ffn.kind)
            assert row.params == one.value and row.by_part == leaf_sums(one)
            assert row.active == one.value - run.block.inactive(h)
            idle += run.layers * run.block.inactive(h)
        assert report.active == report.total - idle
        mixed = {
            role: len({r.block.mixer.kind for r in model.runs if r.stack == role}) > 1
            for role, _ in model.stacks
        }
        titles = [node.name for node in run_nodes(report)]
        assert titles == [run_title(run, mixed[run.stack]) for run in model.runs]


def test_a_parts_choices_read_as_the_form_shows_them() -> None:
    """Seen on Whisper's tree: 'Norms — Norm layernorm', the file's tag, beside the form's 'LayerNorm'."""
    rows = stack_rows(load_builtin("whisper-large-v3"))
    norms = [row.text for row in rows if row.part == "norms"]
    assert norms == ["Norms — Norm LayerNorm", "Norms — Norm LayerNorm, Norms per block 3"]  # decoder: 3
