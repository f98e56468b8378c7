"""The compare view's tables, filled from a ``core.explore.compare.Comparison``.

- figures: per column the headline (total, active, memory per GPU under the scenario) and the
  parts, each with its difference from the baseline column, absolute and in percent;
- GPU fit: per GPU kind, the fewest GPUs each column fits on (fits / does not fit);
- schema diff: every field that differs from the baseline in some column, field by field.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
from PySide6.QtGui import QBrush, QFont, QPalette
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from paramtally.core.count.breakdown import PART_LABELS
from paramtally.core.errors import FieldPath
from paramtally.core.explore.compare import Comparison, canonical_dump
from paramtally.core.memory.scenario import gpus_text
from paramtally.core.schema import Architecture
from paramtally.core.schema.field_titles import field_title
from paramtally.core.typed_numbers import GB
from paramtally.gui.explore.figure_text import delta_text, figure_text
from paramtally.gui.i18n import core_text, said_text, schema_text, title_text, translate
from paramtally.gui.views.setups_table import FIT_COLORS

__all__ = ["HEADLINE_ROWS", "column_headers", "fill_diff", "fill_figures", "fill_fits", "make_table"]

# (figure, title, unit) of the headline rows; the parts follow, in the breakdown's order.
HEADLINE_ROWS = (
    ("total", QT_TRANSLATE_NOOP("Compare", "Total parameters"), "params"),
    ("active", QT_TRANSLATE_NOOP("Compare", "Active parameters"), "params"),
    ("memory_bytes", QT_TRANSLATE_NOOP("Compare", "Memory per GPU"), "bytes"),
)
_LONG_VALUE = 32  # characters of a schema value shown in its cell; the tooltip has all of it


def make_table(name: str, parent: QWidget | None = None) -> QTableWidget:
    table = QTableWidget(parent)
    table.setObjectName(name)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
    table.setWordWrap(False)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    return table


def column_headers(comparison: Comparison, names: Sequence[str]) -> list[str]:
    """Each column's name as shown (``Pins.names``), the baseline's marked on a second line."""
    return [
        name + "\n" + translate("Compare", "(baseline)") if index == comparison.baseline else name
        for index, name in enumerate(names)
    ]


def _item(text: str, tooltip: str = "", align_right: bool = True) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    if tooltip:
        item.setToolTip(tooltip)
    if align_right:
        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


def _set_headers(table: QTableWidget, columns: Sequence[str], rows: Sequence[str]) -> None:
    table.setColumnCount(len(columns))
    table.setRowCount(len(rows))
    table.setHorizontalHeaderLabels(list(columns))
    table.setVerticalHeaderLabels(list(rows))


# --- figures and parts -----------------------------------------------------------------------------


def fill_figures(table: QTableWidget, comparison: Comparison, names: Sequence[str]) -> None:
    """Two lines a cell: the figure, then its difference from the baseline (or 'baseline')."""
    rows = [
        *((figure, translate("Compare", title), unit) for figure, title, unit in HEADLINE_ROWS),
        *((part, schema_text(PART_LABELS[part]), "params") for part in comparison.parts),
    ]
    headers = column_headers(comparison, names)
    _set_headers(table, headers, [title for _, title, _ in rows])
    bold = QFont(table.font())
    bold.setBold(True)
    for row, (name, title, unit) in enumerate(rows):
        if row < len(HEADLINE_ROWS):
            table.verticalHeaderItem(row).setFont(bold)
        for index, column in enumerate(comparison.columns):
            delta = comparison.delta(index, name)
            if delta.value is None:  # memory the scenario cannot give this model
                problem = column.memory_problem
                short = problem if len(problem) <= 40 else problem[:39].rstrip() + "…"  # whole in the tooltip
                item = _item(f"—\n{short}", problem)
            else:
                exact = f"{delta.value:,}" if unit == "params" else figure_text(delta.value, unit)
                if index == comparison.baseline:
                    second, tip = translate("Compare", "baseline"), f"{title}: {delta.value:,}"
                else:
                    second = delta_text(delta.absolute, delta.percent, unit)
                    tip = translate("Compare", "{title}: {value}; baseline {baseline}").format(
                        title=title, value=f"{delta.value:,}", baseline=f"{delta.baseline or 0:,}"
                    )
                    if delta.absolute is not None:
                        tip += translate("Compare", "; difference {difference}").format(
                            difference=f"{delta.absolute:+,}"
                        )
                item = _item(f"{exact}\n{second}", tip)
            if row < len(HEADLINE_ROWS):
                item.setFont(bold)
            table.setItem(row, index, item)


# --- fits per GPU kind -------------------------------------------------------------------------------


def fill_fits(table: QTableWidget, comparison: Comparison, names: Sequence[str]) -> None:
    """Per GPU kind (rows) and column: the fewest GPUs of the kind that hold it, or that none does."""
    kinds: dict[str, str] = {}
    for column in comparison.columns:
        for setup in column.setups:
            kinds.setdefault(setup.gpu, setup.gpu_name)
    headers = column_headers(comparison, names)
    _set_headers(table, headers, list(kinds.values()))
    for row, gpu in enumerate(kinds):
        for index, column in enumerate(comparison.columns):
            setups = [s for s in column.setups if s.gpu == gpu]
            if not setups:
                table.setItem(
                    row, index, _item("—", column.memory_problem or translate("Compare", "no setups"), False)
                )
                continue
            fewest = comparison.fewest_gpus(index, gpu)
            chosen = next((s for s in setups if s.count == fewest), None)
            if chosen is not None:
                gpus = said_text(gpus_text(chosen.count))  # '8 GPUs' in the window's language (8 个 GPU)
                text = translate("Compare", "✔ {gpus} · {size} GB each").format(
                    gpus=gpus, size=f"{chosen.per_gpu_bytes / GB:,.1f}"
                )
            else:
                text = translate("Compare", "✘ not on {count}").format(count=max(s.count for s in setups))
            tip = f"{column.setups_note[:1].upper()}{column.setups_note[1:]}.\n" if column.setups_note else ""
            tip += translate("Compare", "The fewest of {counts} GPUs (Goal Seek finds any count):").format(
                counts=", ".join(str(s.count) for s in setups)
            )
            tip += "\n" + "\n".join(
                translate(
                    "Compare", "{count} × {gpu}: {fits} ({used} of {usable} GB per GPU, {layout})"
                ).format(
                    count=s.count,
                    gpu=s.gpu_name,
                    fits=translate("Compare", "fits") if s.fits else translate("Compare", "does not fit"),
                    used=f"{s.per_gpu_bytes / GB:,.1f}",
                    usable=f"{s.capacity_bytes / GB:,.1f}",
                    layout=core_text(s.layout),
                )
                for s in setups
            )
            item = _item(text, tip, False)
            item.setForeground(QBrush(FIT_COLORS[chosen is not None]))
            table.setItem(row, index, item)


# --- schema diff -------------------------------------------------------------------------------------


def fill_diff(
    table: QTableWidget, comparison: Comparison, names: Sequence[str], archs: Sequence[Architecture]
) -> None:
    """A row per field that differs from the baseline in any column; a column that keeps the
    baseline's value shows it dimmed, one that differs shows its own in bold. Each cell is read
    from its own column: a column whose part differs whole (T5 has no base block 'default') has no
    diff at a field inside it, and showed the baseline's there, dimmed, as if it had it too."""
    before: dict[FieldPath, Any] = {}
    for diffs in comparison.diffs:
        for diff in diffs:
            before.setdefault(diff.path, diff.before)
    headers = column_headers(comparison, names)
    table.setColumnCount(len(headers))
    table.setHorizontalHeaderLabels(headers)
    if not before:
        table.setRowCount(1)
        table.setVerticalHeaderLabels(["—"])
        table.setItem(
            0,
            comparison.baseline,
            _item(translate("Compare", "no field differs from the baseline"), "", False),
        )
        return
    root = archs[comparison.baseline]
    dumps = [canonical_dump(arch) for arch in archs]
    titles = [title_text(field_title(path, root)) for path in before]
    table.setRowCount(len(before))
    table.setVerticalHeaderLabels(titles)
    bold = QFont(table.font())
    bold.setBold(True)
    dim = QBrush(table.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text))
    for row, (path, base_value) in enumerate(before.items()):
        dotted = ".".join(str(part) for part in path)
        table.verticalHeaderItem(row).setToolTip(dotted)
        for index in range(len(headers)):
            value = _value_at(dumps[index], path)
            text = _value_text(value)
            shown = text[:_LONG_VALUE] + ("…" if len(text) > _LONG_VALUE else "")
            item = _item(shown, f"{dotted}: {text}", False)
            if value != base_value:
                item.setFont(bold)
            else:
                item.setForeground(dim)
            table.setItem(row, index, item)


def _value_at(dump: Any, path: FieldPath) -> Any:
    """The value at ``path`` in a model's dump; None where the model has no such field."""
    node = dump
    for step in path:
        if isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
        else:
            return None
    return node


def _value_text(value: Any) -> str:
    if value is None:
        return translate("Compare", "— (not set)")
    if isinstance(value, bool):
        return schema_text("yes") if value else schema_text("no")
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)
