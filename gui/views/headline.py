"""The total headline: exact count with separators and human units, MoE active, base vs added."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from paramtally.core.count.breakdown import ADDED_PARTS, PART_LABELS, ParamReport, human
from paramtally.gui.form.field_frame import RED
from paramtally.gui.i18n import schema_text, translate
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
        f"&nbsp;&nbsp;<span style='font-size:15pt;{grey}'>"
        + translate("Headline", "{human} parameters").format(human=human(report.total))
        + "</span>"
    ]
    if stale:
        warning = html.escape(shown(stale, MESSAGE_CHARS))
        lines.insert(0, f"<span style='color:{RED}; font-weight:600'>{warning}</span>")
    if report.is_multimodal:
        active = (
            translate("Headline", ", {count} active").format(count=f"{report.language_model_active:,}")
            if report.is_moe
            else ""
        )
        lines.append(
            translate(
                "Headline",
                "Text only: <b>{count}</b> ({human}{active}); vision tower {vision}, projector {projector}",
            ).format(
                count=f"{report.language_model:,}",
                human=human(report.language_model),
                active=active,
                vision=human(report.vision),
                projector=human(report.projector),
            )
        )
    if report.is_moe:
        share = 100.0 * report.active / report.total if report.total else 0.0
        lines.append(
            translate(
                "Headline",
                "MoE: <b>{total}</b> total vs <b>{active}</b> active per token "
                "({total_human} vs {active_human}, {share}&nbsp;% active)",
            ).format(
                total=f"{report.total:,}",
                active=f"{report.active:,}",
                total_human=human(report.total),
                active_human=human(report.active),
                share=f"{share:.1f}",
            )
        )
    if report.added:
        added = [
            f"{schema_text(PART_LABELS[part])} {human(report.by_part[part])}"
            for part in ADDED_PARTS
            if report.by_part.get(part)
        ]
        lines.append(
            translate(
                "Headline",
                "Base <b>{base}</b> ({base_human}) + added <b>{added}</b> ({added_human}: {parts})",
            ).format(
                base=f"{report.base:,}",
                base_human=human(report.base),
                added=f"{report.added:,}",
                added_human=human(report.added),
                parts=", ".join(added) or translate("Headline", "added"),
            )
        )
    if report.mtp:
        lines.append(
            translate(
                "Headline",
                "+ multi-token prediction <b>{mtp}</b> ({mtp_human}), which transformers "
                "does not build: <b>{total}</b> ({total_human}) with it",
            ).format(
                mtp=f"{report.mtp:,}",
                mtp_human=human(report.mtp),
                total=f"{report.total_with_mtp:,}",
                total_human=human(report.total_with_mtp),
            )
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
        tip = translate("Headline", "{name}: {total} parameters, exact").format(
            name=shown(report.name), total=f"{report.total:,}"
        )
        last = translate("Headline", "(the last valid model)")
        self.setToolTip(f"{shown(stale, MESSAGE_CHARS)}\n\n{tip} {last}" if stale else tip)
