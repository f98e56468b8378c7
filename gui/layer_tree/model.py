"""A Qt item model over a stack's tuple of layer groups (napari's tree-adapter pattern).

Top-level rows are the layer groups of the model's main stack (its decoder, or the encoder of an
encoder-only model): "layers 0–31 (dense)", or "layers 0–31: 4 × an 8-layer pattern". Children
of a plain group are what its block has besides attention and a dense FFN (MoE, LoRA, adapter).
The model never edits itself: an edit becomes a new stack from ``core.layer_ops`` handed to the
document, whose ``changed`` refreshes the rows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import (
    QAbstractItemModel,
    QByteArray,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from paramtally.core import layer_ops
from paramtally.core.breakdown import human
from paramtally.core.count import run_title
from paramtally.core.errors import FieldError, FieldPath, ParamTallyError, field_problems, one_line
from paramtally.core.schema import Architecture, Block, LayerGroup, Run, StackRole
from paramtally.gui.document import Document
from paramtally.gui.views.format import share_text  # the same share text as the charts and table

__all__ = ["BLOCKS", "COLUMNS", "LayerTreeModel"]

COLUMNS = ("Layers and blocks", "Parameters", "Share")
BLOCKS = ("moe", "lora", "adapter")  # the optional blocks of a group, in row order
BLOCK_PARTS = {
    "moe": ("moe_experts", "shared_experts", "router"),
    "lora": ("lora",),
    "adapter": ("adapters",),
}
# Block parts that are BaseModels of their own, and where a group's block keeps each.
BLOCK_FIELDS = {"moe": "ffn", "lora": "lora", "adapter": "adapter"}
MIME = "application/x-paramtally-layer-group"
Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True, slots=True)
class _GroupRow:
    start: int
    group: LayerGroup
    params: int
    by_part: dict[str, int]
    blocks: tuple[str, ...]
    block: Block | None  # the group's block (None for a pattern: its layers differ)
    run: Run | None
    mixed: bool  # the stack has several mixer kinds: labels name each group's


def main_stack(arch: Architecture) -> StackRole:
    """The stack the tree edits: the decoder, or the encoder of an encoder-only model."""
    return "decoder" if arch.decoder is not None else "encoder"


def block_part(block: Block | None, name: str) -> Any:
    """The group block's MoE (when its FFN is one), LoRA or adapter; None when it has none."""
    if block is None:
        return None
    part = getattr(block, BLOCK_FIELDS[name])
    return part if name != "moe" or getattr(part, "kind", "") == "moe" else None


def group_label(row: _GroupRow) -> str:
    group, start = row.group, row.start
    if row.run is not None:
        return run_title(row.run, row.mixed)
    end = start + group.layers - 1
    return f"layers {start}–{end}: {group.count} × a {group.period}-layer pattern"


def block_label(block: Block | None, name: str) -> str:
    part = block_part(block, name)
    if name == "moe" and part is not None:
        shared = f", +{part.shared_experts} shared" if part.shared_experts else ""
        return f"MoE: {part.num_experts} × {part.expert_width:,}, top-{part.top_k}{shared}"
    if name == "lora" and part is not None:
        return f"LoRA: rank {part.rank} on {', '.join(part.targets) or 'nothing'}"
    if name == "adapter" and part is not None:
        return f"Adapter: width {part.width}, after {part.placement}"
    return name


class LayerTreeModel(QAbstractItemModel):
    """Rows: layer groups, with MoE / LoRA / adapter children. Columns: node, parameters, share."""

    def __init__(self, document: Document) -> None:
        super().__init__(document)
        self.document = document
        self._rows: list[_GroupRow] = []
        self._total = 1
        self._rows, self._total = self._compute()
        document.changed.connect(self.refresh)

    # --- the adapter ---------------------------------------------------------------------------

    @property
    def stack(self) -> StackRole:
        return main_stack(self.document.architecture)

    def layers(self) -> layer_ops.Layers:
        stack = getattr(self.document.architecture, self.stack)
        return stack.layers  # type: ignore[no-any-return]

    def _compute(self) -> tuple[list[_GroupRow], int]:
        # Sums per group from the runs (one per distinct block and run): never one row per layer.
        report, arch, stack = self.document.report, self.document.architecture, self.stack
        layers = self.layers()
        params = [0] * len(layers)
        parts: list[dict[str, int]] = [{} for _ in layers]
        runs: list[list[Run]] = [[] for _ in layers]
        for run, row in zip(arch.runs, report.groups, strict=True):
            if run.stack != stack:
                continue
            params[run.group] += row.params * run.layers
            runs[run.group].append(run)
            for part, value in row.by_part.items():
                parts[run.group][part] = parts[run.group].get(part, 0) + value * run.layers
        rows = []
        mixed = len({run.block.mixer.kind for group_runs in runs for run in group_runs}) > 1
        for i, (start, group) in enumerate(zip(layer_ops.group_starts(layers), layers, strict=True)):
            run = runs[i][0] if len(runs[i]) == 1 and not group.pattern else None
            block = run.block if run is not None else None
            blocks = tuple(name for name in BLOCKS if block_part(block, name) is not None)
            rows.append(_GroupRow(start, group, params[i], parts[i], blocks, block, run, mixed))
        return rows, max(1, report.total)

    def refresh(self) -> None:
        rows, total = self._compute()
        if rows == self._rows and total == self._total:
            return  # e.g. a scenario edit: nothing in the stack changed
        same_shape = [r.blocks for r in rows] == [r.blocks for r in self._rows]
        if same_shape:
            self._rows, self._total = rows, total
            if rows:
                last = self.index(len(rows) - 1, len(COLUMNS) - 1)
                self.dataChanged.emit(self.index(0, 0), last)
                for i, row in enumerate(rows):
                    if row.blocks:
                        parent = self.index(i, 0)
                        self.dataChanged.emit(
                            self.index(0, 0, parent),
                            self.index(len(row.blocks) - 1, len(COLUMNS) - 1, parent),
                        )
            return
        self.beginResetModel()
        self._rows, self._total = rows, total
        self.endResetModel()

    def group_row(self, index: Index) -> int:
        """The layer group an index belongs to (its own row, or its parent's for a block)."""
        return index.row() if index.internalId() == 0 else int(index.internalId()) - 1

    def block_of(self, index: Index) -> str | None:
        if not index.isValid() or index.internalId() == 0:
            return None
        return self._rows[self.group_row(index)].blocks[index.row()]

    # --- QAbstractItemModel --------------------------------------------------------------------

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, 0)
        return self.createIndex(row, column, parent.row() + 1)

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid() or index.internalId() == 0:
            return QModelIndex()
        return self.createIndex(int(index.internalId()) - 1, 0, 0)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return len(self._rows)
        if parent.internalId() == 0 and parent.column() == 0:
            return len(self._rows[parent.row()].blocks)
        return 0

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self._rows[self.group_row(index)]
        block = self.block_of(index)
        if role == Qt.ItemDataRole.EditRole and block is None and index.column() == 0:
            return row.group.count
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        params = row.params if block is None else sum(row.by_part.get(p, 0) for p in BLOCK_PARTS[block])
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column() == 0:
                return group_label(row) if block is None else block_label(row.block, block)
            if index.column() == 1:
                return human(params)
            return share_text(params, self._total)
        if role == Qt.ItemDataRole.ToolTipRole:
            if block is not None:
                spec = block_part(row.block, block)
                fields = ", ".join(
                    f"{k.replace('_', ' ')} {v}" for k, v in spec.model_dump().items() if k != "kind"
                )
                return f"{params:,} parameters\n{fields}\nRight-click to edit or remove; Delete removes it"
            return f"{params:,} parameters\n{row.group.count} layers (F2 or double-click to change)"
        if role == Qt.ItemDataRole.UserRole:
            return params
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.internalId() == 0:
            flags |= Qt.ItemFlag.ItemIsDragEnabled
            if index.column() == 0:
                flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or self.block_of(index) is not None or index.column() != 0:
            return False
        try:
            count = int(value)
        except (TypeError, ValueError):
            return False
        return self.document.set_field((self.stack, "layers", index.row(), "count"), count, keep=False)

    # --- drag and drop: a move of a whole group ------------------------------------------------

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction

    def mimeTypes(self) -> list[str]:
        return [MIME]

    def mimeData(self, indexes: list[QModelIndex]) -> QMimeData:
        data = QMimeData()
        rows = sorted({i.row() for i in indexes if i.isValid() and i.internalId() == 0})
        if rows:
            data.setData(MIME, QByteArray(str(rows[0]).encode()))
        return data

    def canDropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: Index
    ) -> bool:
        return data.hasFormat(MIME) and action == Qt.DropAction.MoveAction

    def dropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: Index
    ) -> bool:
        """Ask the document to move the group; False so the view removes nothing itself."""
        if not self.canDropMimeData(data, action, row, column, parent):
            return False
        source = int(bytes(data.data(MIME).data()).decode())
        if parent.isValid():  # dropped onto a row: take its place
            target = self.group_row(parent)
        else:
            target = len(self._rows) if row < 0 else row
            target = target - 1 if source < target else target
        target = max(0, min(target, len(self._rows) - 1))
        if target != source:
            label = group_label(self._rows[source])
            self.edit(lambda layers: layer_ops.move_group(layers, source, target), f"Move {label}")
        return False

    # --- edits -----------------------------------------------------------------------------------

    def row(self, row: int) -> _GroupRow:
        return self._rows[row]

    def edit(
        self, change: Callable[[layer_ops.Layers], layer_ops.Layers], text: str, path: FieldPath | None = None
    ) -> bool:
        """Apply a pure stack edit, validate in core, make it one undo step; a refusal is reported."""
        path = path or (self.stack, "layers")
        try:
            layers = change(self.layers())
            arch = layer_ops.with_layers(self.document.architecture, layers, self.stack)
        except ValidationError as exc:
            problems = field_problems(exc)
            self.document.report_problem(path, problems[0][1] if problems else one_line(exc))
            return False
        except FieldError as exc:
            self.document.report_problem(path, exc.reason)
            return False
        except ParamTallyError as exc:
            self.document.report_problem(path, str(exc))
            return False
        self.document.set_architecture(arch, text)
        return True
