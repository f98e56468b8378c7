"""The total headline: exact count with separators and human units, MoE active, base vs added."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from paramtally.core.count.breakdown import ADDED_PARTS, PART_LABELS, ParamReport, human
from paramtally.gui.form.field_frame import RED
from paramtally.gui.shown_text import MESSAGE_CHARS, shown
from paramtally.gui.views.stale import stale_text

if TYPE_CHECKING:
    from paramtally.gui.document import Document

__all__ = ["Headline", "headline_html"]

STALE_GREY = "#8a8a8a"  # readable on the light and the dark theme, plainly not the live figures


def headline_html(report: ParamReport, stale: str = "") -> str:
    """Rich text of the headline; every number is one the report carries. With ``stale`` (the
    figures are the last valid model's, a typed value waits unapplied) the figures are greyed
    under that line in red."""
    grey = f" color:{STALE_GREY};" if stale else ""
    lines = [
        f"<span style='font-size:20pt; font-weight:600;{grey}'>{report.total:,}</span>"
        f"&nbsp;&nbsp;<span style='font-size:15pt;{grey}'>{human(report.total)} parameters</span>"
    ]
    if stale:
        warning = html.escape(shown(stale, MESSAGE_CHARS))
        lines.insert(0, f"<span style='color:{RED}; font-weight:600'>{warning}</span>")
    if report.is_multimodal:
        active = f", {report.language_model_active:,} active" if report.is_moe else ""
        lines.append(
            f"Text only: <b>{report.language_model:,}</b> ({human(report.language_model)}{active}); "
            f"vision tower {human(report.vision)}, projector {human(report.projector)}"
        )
    if report.is_moe:
        share = 100.0 * report.active / report.total if report.total else 0.0
        lines.append(
            f"MoE: <b>{report.total:,}</b> total vs <b>{report.active:,}</b> active per token "
            f"({human(report.total)} vs {human(report.active)}, {share:.1f} % active)"
        )
    if report.added:
        added = [
            f"{PART_LABELS[part]} {human(report.by_part[part])}"
            for part in ADDED_PARTS
            if report.by_part.get(part)
        ]
        lines.append(
            f"Base <b>{report.base:,}</b> ({human(report.base)}) + added "
            f"<b>{report.added:,}</b> ({human(report.added)}: {', '.join(added) or 'added'})"
        )
    if report.mtp:
        lines.append(
            f"+ multi-token prediction <b>{report.mtp:,}</b> ({human(report.mtp)}), which transformers "
            f"does not build: <b>{report.total_with_mtp:,}</b> ({human(report.total_with_mtp)}) with it"
        )
    return "<br>".join(lines)


class Headline(QLabel):
    """objectName ``totalParams``; rewrites its text on every ``changed``."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("totalParams")
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setWordWrap(True)
        self._document = document
        self.stale = False  # the figures are the last valid model's: a typed value is not applied
        document.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        report, stale = self._document.report, stale_text(self._document)
        self.stale = bool(stale)
        self.setText(headline_html(report, stale))
        tip = f"{shown(report.name)}: {report.total:,} parameters, exact"
        self.setToolTip(f"{shown(stale, MESSAGE_CHARS)}\n\n{tip} (the last valid model)" if stale else tip)
