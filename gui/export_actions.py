"""The window's exports: File → Export, and the entries the Compare and Design-space tabs' Export
menus are made of, all listed from the format registry (``core.io.formats``).

A view says which subjects it exports and what a menu calls them ('Breakdown', 'Heatmap'); the
registry says which formats can write each, and the text comes from core (the CLI writes through
the same functions). Charts are drawn by the view that shows them (``save_chart``, through
``gui/views/export.py``) in the picture formats the registry lists. A CSV opens with lines
recording the model, the architecture and, for the memory and GPU tables, the scenario. "CSV for
Excel" (on by default, remembered; ``excel_csv`` is its one reader) starts it with a byte-order
mark, without which Excel misreads UTF-8. Design report… writes ``paramtally report``'s page
(HTML, or Markdown with its charts beside it, by the filter or suffix chosen) for the window's
model and scenario, in Chinese when the window's language is. Files are written atomically; a
place that cannot be written gets one clear message and nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from paramtally.core.errors import ParamTallyError
from paramtally.core.io.export import about_rows, write_export
from paramtally.core.io.formats import (
    FORMATS,
    Exported,
    ExportFormat,
    Options,
    Subject,
    export_text,
    find_format,
    formats_for,
    write_file,
)
from paramtally.core.io.subjects import (
    breakdown_export,
    everything_export,
    gpus_export,
    layers_export,
    memory_export,
)
from paramtally.gui.dialogs import ask_save_path, attempt, warn
from paramtally.gui.document import Document
from paramtally.gui.i18n import chosen_language, schema_text, translate
from paramtally.gui.settings import settings
from paramtally.gui.views.export import say_exported

__all__ = [
    "CHARTS",
    "EXCEL_KEY",
    "LANGUAGE_KEY",
    "TABLES",
    "Exporter",
    "add_export_menu",
    "add_format_actions",
    "excel_csv",
    "picture_formats",
    "report_language",
    "save_export",
    "save_picture",
    "write_options",
]

EXCEL_KEY = "export/excel_csv"
LANGUAGE_KEY = "view/language"  # the window's language, as View → Language remembers it (issue 35)
# What File → Export offers, as its entries name them; the formats come from the registry.
TABLES: dict[Subject, str] = {
    "breakdown": QT_TRANSLATE_NOOP("Export", "Breakdown"),
    "layers": QT_TRANSLATE_NOOP("Export", "Per-layer table"),
    "memory": QT_TRANSLATE_NOOP("Export", "Memory terms"),
    "gpus": QT_TRANSLATE_NOOP("Export", "GPU setups"),
    "everything": QT_TRANSLATE_NOOP("Export", "Everything"),
}
_STEMS: dict[Subject, str] = {"gpus": "-gpu-setups", "everything": ""}  # the default file name's end
# A chart subject, its entry's name and the name its view draws it by (``chart_kinds``).
CHARTS: dict[Subject, tuple[str, str]] = {
    "bar_chart": (QT_TRANSLATE_NOOP("Export", "Bar chart"), "bar"),
    "pie_chart": (QT_TRANSLATE_NOOP("Export", "Pie chart"), "pie"),
    "memory_chart": (QT_TRANSLATE_NOOP("Export", "Memory chart"), "memory"),
}


# --- the Excel switch, the one reader of its setting -----------------------------------------------


def excel_csv() -> bool:
    """Whether a CSV is written for Excel (with a byte-order mark): the remembered switch, on by default."""
    return bool(settings().value(EXCEL_KEY, True, type=bool))


def write_options() -> Options:
    """How this person's exports are written (every export of the window writes with these)."""
    return Options(excel=excel_csv())


def _excel_action(parent: QObject) -> QAction:
    action = QAction(translate("Export", "CSV for &Excel (UTF-8 with byte-order mark)"), parent)
    action.setObjectName("actionExport_excel")
    action.setCheckable(True)
    action.setChecked(excel_csv())
    action.setToolTip(
        translate(
            "Export",
            "Excel reads a CSV without a byte-order mark in the local code page and garbles ·, ² and ×",
        )
    )
    action.toggled.connect(lambda on: settings().setValue(EXCEL_KEY, on))
    return action


def report_language() -> str:
    """The design report's language: the one the window starts in (View → Language's remembered
    choice, its "Follow the System" the system locale's), English unless that is Chinese."""
    return "zh_CN" if chosen_language() == "zh_CN" else "en"


# --- entries and writing, for any view ---------------------------------------------------------------


def picture_formats(subject: Subject) -> tuple[ExportFormat, ...]:
    """The picture formats the registry lists for a chart (PNG, SVG)."""
    return tuple(form for form in formats_for(subject) if form.picture)


def add_format_actions(
    menu: QMenu,
    subject: Subject,
    label: str,
    export: Callable[[ExportFormat], object],
    pictures: bool = False,
) -> list[QAction]:
    """One entry '``label`` as <format>…' per format the registry has for ``subject``: its text
    formats, or with ``pictures`` its picture formats; a format's first letter is its mnemonic."""
    chosen = [form for form in formats_for(subject) if form.picture == pictures]
    return [
        menu.addAction(
            translate("Export", "{what} as &{format}…").format(
                what=translate("Export", label), format=form.title
            ),
            lambda f=form: export(f),
        )
        for form in chosen
    ]


def _named(what: str) -> str:
    """'breakdown' (an entry's name in lower case, as a dialog's title says it) in the window's
    language; itself in English."""
    labels = (*TABLES.values(), *(label for label, _ in CHARTS.values()))
    label = next((label for label in labels if label.lower() == what), None)
    said = translate("Export", label) if label is not None else what
    return what if said == label else said


def file_filter(form: ExportFormat) -> str:
    """'HTML page (*.html)' as a save dialog lists it, in the window's language."""
    return f"{schema_text(form.kind)} (*{form.suffix})"


def save_export(
    widget: QWidget,
    form: ExportFormat,
    content: Callable[[], Exported],
    what: str,
    stem: str,
    path: Path | None = None,
) -> Path | None:
    """``content`` written in ``form`` to ``path`` (or where the save dialog says); 'Exported …' in
    the status bar, one warning when it cannot be made or written; the file, or None."""
    target = path or ask_save_path(
        widget,
        translate("Export", "Export {what} as {format}").format(what=_named(what), format=form.title),
        f"{stem}{form.suffix}",
        file_filter(form),
        form.suffix,
    )
    if target is None:
        return None
    write = lambda: write_export(target, export_text(form, content(), write_options()))  # noqa: E731
    if not attempt(widget, translate("Export", "Export failed"), write):
        return None
    say_exported(widget, target)
    return target


def save_picture(
    widget: QWidget,
    forms: Iterable[ExportFormat],
    draw: Callable[[Path], object],
    what: str,
    stem: str,
    path: Path | None = None,
) -> Path | None:
    """A chart drawn by ``draw`` to ``path`` (or where the dialog says, among ``forms``; the
    suffix typed chooses the format); the file, or None."""
    offered = tuple(forms)
    titles = "/".join(form.title for form in offered)
    filters = ";;".join(file_filter(form) for form in offered)
    title = translate("Export", "Export {what} as {format}").format(what=_named(what), format=titles)
    target = path or ask_save_path(widget, title, f"{stem}{offered[0].suffix}", filters, offered[0].suffix)
    if target is None or not attempt(widget, translate("Export", "Export failed"), lambda: draw(target)):
        return None
    say_exported(widget, target)
    return target


# --- File → Export ------------------------------------------------------------------------------------


class Exporter(QObject):
    """Writes the document's tables and the window's charts; each method returns the file or None."""

    def __init__(self, window: QWidget, document: Document) -> None:
        super().__init__(window)
        self.window, self.document = window, document
        self.excel_action = _excel_action(self)

    def content(self, subject: Subject) -> Exported:
        """What ``subject`` exports of the document now; a refused scenario is said first."""
        document = self.document
        architecture, scenario, source = document.architecture, document.scenario, document.source_label
        if subject == "breakdown":
            return breakdown_export(document.report, about_rows(architecture, None, source))
        if subject == "layers":
            return layers_export(document.report, about_rows(architecture, None, source))
        about = about_rows(architecture, scenario, source)
        if subject == "everything":
            return everything_export(
                document.report,
                document.memory,
                document.setups,
                architecture,
                scenario,
                document.serving,
                about,
            )
        memory = self._needed(document.memory, "memory figures")
        setups = self._needed(document.setups, "GPU setups")
        if subject == "gpus":
            return gpus_export(architecture, setups, about)
        if subject == "memory":
            from paramtally.core.memory.fit import fit_setups  # late: the first paint has no memory model

            # Its JSON is `paramtally memory --format json`'s: every setup with its largest batch.
            fitted = fit_setups(architecture, scenario, max_batch=scenario.mode == "inference")
            flops, serving = document.flops, document.serving
            return memory_export(architecture, scenario, memory, fitted, flops, serving, source, about)
        raise ValueError(subject)

    def _needed(self, value: Any, what: str) -> Any:
        if not value:
            raise ParamTallyError(f"no {what} for the current scenario (see the memory tab)")
        return value

    def _stem(self, end: str) -> str:
        """The default file name: the model's, then ``end`` ('-breakdown')."""
        label = self.document.source_label or self.document.architecture.name
        return "".join(c if c.isalnum() or c in "._-" else "-" for c in label) + end

    # --- actions --------------------------------------------------------------------------------------

    def export(
        self, subject: Subject, form: ExportFormat | str = "csv", path: Path | None = None
    ) -> Path | None:
        chosen = find_format(form) if isinstance(form, str) else form
        stem = self._stem(_STEMS.get(subject, f"-{subject}"))
        return save_export(
            self.window, chosen, lambda: self.content(subject), TABLES[subject].lower(), stem, path
        )

    def export_chart(self, chart: str, path: Path | None = None) -> Path | None:
        """The chart its view names ``chart`` ('bar', 'pie', 'memory') as PNG or SVG, by the suffix."""
        subject = next(subject for subject, (_, kind) in CHARTS.items() if kind == chart)
        owner = self._chart_owner(chart)
        if owner is None:
            warn(self.window, "Export failed", "There is no such chart to export in this window.")
            return None
        draw = lambda target: owner.save_chart(target, chart)  # noqa: E731
        forms = picture_formats(subject)
        return save_picture(
            self.window, forms, draw, CHARTS[subject][0].lower(), self._stem(f"-{chart}"), path
        )

    def export_report(self, path: Path | None = None) -> Path | None:
        """The design report of the window's model and scenario, as HTML or Markdown by the filter
        or the suffix chosen (Markdown's charts are written beside it)."""
        forms = sorted(formats_for("report"), key=lambda form: form.name != "html")  # HTML first
        filters = ";;".join(file_filter(form) for form in forms)
        title = translate("Export", "Export design report")
        target = path or ask_save_path(
            self.window, title, self._stem("-report.html"), filters, forms[0].suffix
        )
        if target is None:
            return None
        form = next((form for form in forms if form.suffix == target.suffix.lower()), forms[0])
        write = lambda: write_file(form, self._report(), target, write_options())  # noqa: E731
        if not attempt(self.window, translate("Export", "Export failed"), write):
            return None
        say_exported(self.window, target)
        return target

    def _report(self) -> Exported:
        from paramtally.core.files.package_data import version
        from paramtally.core.io.report import report_export  # late: the first paint needs no report

        document = self.document
        self._needed(document.memory, "memory figures")  # a refused scenario is said, as for the tables
        return report_export(
            document.architecture,
            document.scenario,
            document.source_label,
            language=report_language(),
            version=version(),
        )

    def _chart_owner(self, chart: str) -> Any:
        """The view that draws ``chart`` (its ``chart_kinds`` name it), or None before it is built."""
        for widget in self.window.findChildren(QWidget):
            if chart in getattr(widget, "chart_kinds", ()):
                return widget
        return None


def _action_name(subject: Subject, form: ExportFormat) -> str:
    """The entry's object name; CSV's and everything's JSON keep the names they had before the
    registry (scripts and tests find them by it)."""
    if form.name == "csv":
        return f"actionExport_{subject}"
    if (subject, form.name) == ("everything", "json"):
        return "actionExport_json"
    return f"actionExport_{subject}_{form.name}"


def add_export_menu(menu: QMenu, window: QWidget, document: Document) -> Exporter:
    """Adds File → Export ▸: for each text format of the registry, its tables (CSV with the Excel
    switch), then each chart in the picture formats. A function the window's start-up may call
    whenever it builds the File menu."""
    exporter = Exporter(window, document)
    submenu = menu.addMenu(translate("Export", "&Export"))
    submenu.setObjectName("menuExport")
    for form in (form for form in FORMATS if not form.picture):
        subjects = [subject for subject in TABLES if form.can_export(subject)]
        for subject in subjects:
            action = submenu.addAction(
                translate("Export", "{what} as {format}…").format(
                    what=translate("Export", TABLES[subject]), format=form.title
                ),
                lambda s=subject, f=form: exporter.export(s, f),
            )
            action.setObjectName(_action_name(subject, form))
        if form.name == "csv":
            submenu.addAction(exporter.excel_action)
        if subjects:
            submenu.addSeparator()
    report = submenu.addAction(translate("Export", "Design &report…"), lambda: exporter.export_report())
    report.setObjectName("actionExport_report")
    report.setToolTip(
        translate("Export", "The derivation, memory, GPU setups and FLOPs as one HTML page or Markdown")
    )
    submenu.addSeparator()
    for subject, (label, chart) in CHARTS.items():
        titles = "/".join(form.title for form in picture_formats(subject))
        action = submenu.addAction(
            translate("Export", "{what} as {format}…").format(what=translate("Export", label), format=titles),
            lambda c=chart: exporter.export_chart(c),
        )
        action.setObjectName(f"actionExport_{chart}_chart")
    return exporter
