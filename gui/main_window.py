"""The main window: the form over the layer tree on the left, the views of the figures on the right.

It composes widgets that each bind to the one Document; it computes nothing. Menus: File (open a
preset or a config.json; save/export entries are added by ``extend_file_menu``), Edit (undo and
redo from the document's QUndoStack), View (light / dark / follow the system; the pane keys of
``gui.panes``), Explore (``gui.explore.hooks``), Help (``gui.help_menu``).

The first paint shows the form, the layer tree, the headline, the tabs' titles and the menu bar's;
what it does not show is built right after it (``load_views``): the menus' entries and keys, the
presets browser while its dock is closed, the charts, the table of terms and the memory panel.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import TYPE_CHECKING, Any, Literal

import shiboken6
from pydantic import ValidationError
from PySide6.QtCore import QByteArray, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFrame,
    QLabel,
    QMainWindow,
    QMenu,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from paramtally.core.errors import ParamTallyError, one_line
from paramtally.core.io.recent import forget_source, recent_sources, remember_source
from paramtally.gui.document import Document
from paramtally.gui.explore.hooks import add_explore
from paramtally.gui.form import ArchitectureForm
from paramtally.gui.i18n import said_text, schema_text, translate
from paramtally.gui.layer_tree import LayerTree
from paramtally.gui.problem_status import ProblemStatus
from paramtally.gui.settings import settings
from paramtally.gui.shown_text import MESSAGE_CHARS, PATH_CHARS, shown
from paramtally.gui.theme import apply_theme
from paramtally.gui.views import BAR_MINIMUM, PIE_MINIMUM

if TYPE_CHECKING:
    from PySide6.QtGui import QAction

    from paramtally.core.io.importers.stored_count import StoredCount
    from paramtally.gui.explore.pins import Pins

__all__ = ["MainWindow", "ViewsWhen", "settings"]


# When the window builds what its first paint does not show (the menus' entries, the presets browser
# while its dock is closed, the charts, the table of terms and the memory panel): at once (tests),
# right after its first paint (the app), or when asked (``--screenshot`` asks for the views of the
# tab in its picture and nothing else).
ViewsWhen = Literal["now", "after_first_paint", "on_request"]


def _view(name: str, document: Document) -> QWidget:
    """A view from gui/views by class name (imported late: pyqtgraph loads after the first paint)."""
    import paramtally.gui.views as views

    widget: QWidget = getattr(views, name)(document)
    return widget


class MainWindow(QMainWindow):
    views_shown = Signal()  # the views of the tab in front are built (``load_shown_views``)
    views_ready = Signal()  # the menus' entries and every view are built (``load_views``)

    def __init__(self, document: Document, parent: QWidget | None = None, views: ViewsWhen = "now") -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.document = document
        self.last_error = ""
        self.views_loaded = False
        self._opened_seen = document.opened  # the model the status bar last said was opened
        self._error_before_open = ""
        self._open_words = ""  # how the status bar names the opening under way ("Opened <label>" else)
        self.menus_built = False
        self._build_widgets()
        self._build_presets_dock()
        self._build_menu_bar()
        if views == "after_first_paint":
            # The headline is on screen from the start: its first paint is the window's.
            self.headline.installEventFilter(self)
        elif views == "now":
            self.load_views()
        document.changed.connect(self._update_title)
        document.undo_stack.cleanChanged.connect(self._update_title)
        document.source_changed.connect(self._update_title)
        document.source_changed.connect(self._remember_preset)
        document.about_to_open.connect(self._before_open)
        document.source_changed.connect(self._say_opened)
        self._update_title()
        self.resize(1440, 900)
        self._restore()
        if not self.presets_dock.isHidden():  # open when the window last closed: in the first paint
            self._build_presets_browser()

    # --- layout ----------------------------------------------------------------------------------

    def _build_widgets(self, pins: Pins | None = None) -> None:
        doc = self.document
        self.form = ArchitectureForm(doc)
        # The splitter may not squeeze the form below its editors' natural width (a ~60-pixel
        # column at 1024×700 with the presets open, issue 11); it scrolls only up and down.
        body = self.form.widget()
        self.form.setMinimumWidth(
            body.sizeHint().width()
            + self.form.verticalScrollBar().sizeHint().width()
            + 2 * self.form.frameWidth()
        )
        self.tree = LayerTree(doc)
        self.tree.group_selected.connect(self.form.show_group)  # the group's block, first in the form
        self.tree.groups_selected.connect(self.form.show_selection)  # what a value typed there reaches
        tree_box = QWidget()
        tree_layout = QVBoxLayout(tree_box)
        tree_layout.setContentsMargins(4, 4, 4, 0)
        tree_title = QLabel(
            translate(
                "MainWindow",
                "<b>Stacks, layer groups and blocks</b> — select a group to edit its block above; "
                "right-click (or the Menu key) to split, change the mixer, convert to MoE, copy and paste, "
                "make a pattern; drag to reorder",
            )
        )
        tree_title.setWordWrap(True)
        tree_layout.addWidget(tree_title)
        tree_layout.addWidget(self.tree)
        self.left = QSplitter(Qt.Orientation.Vertical)
        self.left.setObjectName("leftSplitter")
        self.left.addWidget(self.form)
        self.left.addWidget(tree_box)
        self.left.setStretchFactor(0, 3)
        self.left.setStretchFactor(1, 1)
        self.left.setSizes([600, 240])

        self.headline = _view("Headline", doc)
        # Parameters: the charts over the table of terms; memory gets a tab of its own, full height.
        self.right_split = QSplitter(Qt.Orientation.Vertical)
        self.right_split.setObjectName("rightSplitter")
        # Until the charts are built (right after the first paint) their place says what comes.
        self.views_placeholder = QLabel(translate("MainWindow", "Drawing the charts and the table of terms…"))
        self.views_placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.views_placeholder.setEnabled(False)  # the palette's grey for text that is not content
        # The charts' room, kept from the first paint: in a narrow window their least width (the bar
        # beside the pie) pushed the form and the presets dock aside when they came (1024×700).
        bar, pie = BAR_MINIMUM[0], PIE_MINIMUM[0]
        self.views_placeholder.setMinimumWidth(bar + self.right_split.handleWidth() + pie)
        self.right_split.addWidget(self.views_placeholder)
        # Scrolled, so the panel's own minimum height never forces the window taller than the screen.
        self.memory_scroll = QScrollArea()
        self.memory_scroll.setObjectName("memoryScroll")
        self.memory_scroll.setWidgetResizable(True)
        self.memory_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("rightTabs")
        self.tabs.setDocumentMode(True)
        # Short titles: four tabs fit 1024 pixels (gui/explore adds Compare and Design space).
        self.tabs.addTab(self.right_split, translate("MainWindow", "Parameters"))
        self.tabs.setTabToolTip(
            0, translate("MainWindow", "Parameters: charts by part or per layer, and the table of formulas")
        )
        self.tabs.addTab(self.memory_scroll, translate("MainWindow", "Memory and GPU fit"))
        self.tabs.setTabToolTip(
            1, translate("MainWindow", "Memory budget per GPU under the scenario, and the GPU setups it fits")
        )
        # Compare and Design space, built when shown; the pinned columns outlive a change of language
        self.explore = add_explore(self, doc, self.tabs, pins)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(4, 4, 4, 4)
        right_layout.addWidget(self.headline)
        right_layout.addWidget(self.tabs, 1)

        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.setObjectName("mainSplitter")
        self.split.addWidget(self.left)
        self.split.addWidget(right)
        self.split.setStretchFactor(0, 0)
        self.split.setStretchFactor(1, 1)
        self.split.setSizes([440, 1000])
        self.setCentralWidget(self.split)
        self.problem_status = ProblemStatus(doc)
        self.statusBar().addWidget(self.problem_status, 1)

    def _build_presets_dock(self) -> None:
        # The presets browser's dock, empty until the browser is built (``_build_presets_browser``):
        # here from the start, so the remembered window state (``_restore``) opens or closes it.
        self.presets_dock = QDockWidget(translate("MainWindow", "Presets"), self)
        self.presets_dock.setObjectName("presetsDock")
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.presets_dock)
        self.presets_dock.hide()  # File → Browse Presets shows it; the window state remembers it

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.headline and event.type() == QEvent.Type.Paint:
            self.headline.removeEventFilter(self)
            QTimer.singleShot(0, self._build_menus)  # the keys first: a person may type at once
            QTimer.singleShot(0, self.load_shown_views)  # the charts paint before the rest is built
            QTimer.singleShot(0, self.load_views)
        return super().eventFilter(watched, event)

    def load_shown_views(self) -> None:
        """Build the views of the tab in front: the charts and the table of terms (pyqtgraph and
        numpy load here), or the memory panel. ``--screenshot`` builds no more than these."""
        if self.tabs.currentWidget() is self.memory_scroll:
            self._build_memory_panel()
        else:
            self._build_parameter_views()
        self.views_shown.emit()

    def load_views(self) -> None:
        """Build what the first paint does not show: the menus' entries, then every view (the charts,
        the table of terms and the memory panel).

        ``run_app`` calls this right after the first paint (the menus, then the tab in front), so
        the form, the tree, the headline and the menu bar's titles show at once and the rest
        follows; tests build everything up front.
        """
        if self.views_loaded:
            return
        self._build_menus()
        self._build_parameter_views()
        self._build_memory_panel()
        self.views_loaded = True
        self.views_ready.emit()

    def _build_parameter_views(self) -> None:
        if hasattr(self, "charts"):
            return
        self.charts = _view("BreakdownCharts", self.document)
        self.table = _view("BreakdownTable", self.document)
        # Deleted now, not later, so the splitter's indices are the views'. setParent(None) then
        # deleteLater() left Python owning a widget Qt also deleted: a worker crashed in CI.
        shiboken6.delete(self.views_placeholder)
        del self.views_placeholder
        self.right_split.addWidget(self.charts)
        self.right_split.addWidget(self.table)
        self.right_split.setStretchFactor(0, 1)
        self.right_split.setStretchFactor(1, 1)
        value = settings().value("window/rightSplitter")
        if isinstance(value, QByteArray):
            self.right_split.restoreState(value)

    def _build_memory_panel(self) -> None:
        if hasattr(self, "memory"):
            return
        self.memory = _view("MemoryPanel", self.document)
        self.memory_scroll.setWidget(self.memory)

    # --- menus -----------------------------------------------------------------------------------

    def _build_menu_bar(self) -> None:
        """The menu bar's titles, in the first paint; their entries follow it (``_build_menus``)."""
        bar = self.menuBar()
        self.file_menu = bar.addMenu(translate("MainWindow", "&File"))
        self.edit_menu = bar.addMenu(translate("MainWindow", "&Edit"))
        self.view_menu = bar.addMenu(translate("MainWindow", "&View"))
        self.explore_menu = bar.addMenu(translate("MainWindow", "E&xplore"))
        self.explore_menu.setObjectName("menuExplore")
        self.help_menu = bar.addMenu(translate("MainWindow", "&Help"))
        self.help_menu.setObjectName("menuHelp")

    def _build_menus(self) -> None:
        """Every menu's entries and their keys (built once)."""
        if self.menus_built:
            return
        self.menus_built = True
        from paramtally.gui.explore.hooks import add_explore_menu
        from paramtally.gui.help_menu import add_help_menu
        from paramtally.gui.panes import PaneKeys

        self.build_file_menu(self.file_menu)
        self.undo_action = self.document.undo_stack.createUndoAction(self, translate("MainWindow", "&Undo"))
        self.undo_action.setShortcuts(QKeySequence.StandardKey.Undo)
        self.redo_action = self.document.undo_stack.createRedoAction(self, translate("MainWindow", "&Redo"))
        self.redo_action.setShortcuts(QKeySequence.StandardKey.Redo)  # Ctrl+Y and Ctrl+Shift+Z
        self.edit_menu.addActions([self.undo_action, self.redo_action])
        self._build_view_menu(self.view_menu)
        self._build_language_menu(self.view_menu)
        self.view_menu.addSeparator()
        self.pane_keys = PaneKeys(self, self.view_menu)  # F6, Ctrl+1…4
        add_explore_menu(self.explore_menu, self.explore)  # compare, goal seek, design space
        self.help = add_help_menu(self, self.help_menu)  # guide, keyboard shortcuts, about

    def build_file_menu(self, menu: QMenu) -> None:
        """File: open, [extensions: presets, save, export], quit. Issue 6 hooks in at ``extend_file_menu``."""
        from PySide6.QtGui import QAction

        from paramtally.core.editing.templates import TEMPLATES
        from paramtally.core.io import presets

        self.open_action = menu.addAction(translate("MainWindow", "&Open…"), self.open_dialog)
        self.open_action.setShortcut(QKeySequence.StandardKey.Open)
        self.open_action.setObjectName("actionOpen")
        # A Hugging Face model folder (config.json beside its weights): the file dialog only
        # steps into a folder, so it has an entry of its own.
        folder = menu.addAction(translate("MainWindow", "Open &Folder…"), self.open_folder_dialog)
        folder.setObjectName("actionOpenFolder")
        new = menu.addMenu(translate("MainWindow", "&New"))
        new.setObjectName("menuNew")
        for template, (title, _) in TEMPLATES.items():
            action = new.addAction(
                schema_text(title), lambda t=template: self.may_replace() and self.new_model(t)
            )
            action.setObjectName(f"actionNew:{template}")
        self.recent_menu = menu.addMenu(translate("MainWindow", "Open &Recent"))
        self.recent_menu.setObjectName("menuOpenRecent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        builtin = menu.addMenu(translate("MainWindow", "Open &Built-in Preset"))
        for preset_id in presets.builtin_ids():
            builtin.addAction(preset_id, lambda p=preset_id: self.open_builtin(p))
        menu.addSeparator()
        self.file_extensions_at = menu.addSeparator()  # hook point: extensions go above Quit
        self.extend_file_menu(menu)
        self.quit_action = menu.addAction(
            translate("MainWindow", "&Quit"), lambda: self.presets_browser.request_quit(self)
        )
        self.quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)

    def extend_file_menu(self, menu: QMenu) -> None:
        """Hook: save preset / export CSV entries (gui/presets/, gui/export_actions.py)."""
        from paramtally.gui.export_actions import add_export_menu
        from paramtally.gui.presets import add_preset_actions

        self._build_presets_browser()
        browse = self.presets_dock.toggleViewAction()
        browse.setText(translate("MainWindow", "Browse &Presets"))
        browse.setShortcut(QKeySequence("Ctrl+P"))
        browse.setObjectName("actionBrowsePresets")
        menu.insertAction(self.file_extensions_at, browse)
        add_preset_actions(menu, self.presets_browser, self)
        self.exporter = add_export_menu(menu, self, self.document)
        menu.addSeparator()

    def _build_presets_browser(self) -> None:
        """The presets browser in its dock (built once): before the first paint when the dock opens
        with the window, else with the menus, whose entries act through it."""
        if hasattr(self, "presets_browser"):
            return
        from paramtally.gui.presets import PresetsBrowser

        self.presets_browser = PresetsBrowser(self.document)
        self.presets_dock.setWidget(self.presets_browser)

    def may_replace(self) -> bool:
        """Before another model replaces this one: "save changes?" (False: the person cancelled)."""
        return self.presets_browser.maybe_save()

    def _build_view_menu(self, menu: QMenu) -> None:
        from PySide6.QtGui import QActionGroup

        from paramtally.gui.theme import THEMES

        theme_menu = menu.addMenu(translate("MainWindow", "&Theme"))
        group = self._theme_group = QActionGroup(self)
        group.setExclusive(True)
        current = str(settings().value("view/theme", "system"))
        self.theme_actions: dict[str, QAction] = {}
        for theme in THEMES:
            titles = {
                "system": translate("MainWindow", "Follow the &System"),
                "light": translate("MainWindow", "&Light"),
                "dark": translate("MainWindow", "&Dark"),
            }
            action = theme_menu.addAction(titles[theme])
            action.setCheckable(True)
            action.setChecked(theme == current)
            action.triggered.connect(lambda _=False, t=theme: self.set_theme(t))
            group.addAction(action)
            self.theme_actions[theme] = action

    def _build_language_menu(self, menu: QMenu) -> None:
        """View → Language: follow the system, or one of ``LANGUAGES`` (each named in itself),
        remembered; the window speaks it at once (``set_language``)."""
        from PySide6.QtGui import QActionGroup

        from paramtally.gui.i18n import LANGUAGES, SYSTEM

        language_menu = menu.addMenu(translate("MainWindow", "&Language"))
        language_menu.setObjectName("menuLanguage")
        group = self._language_group = QActionGroup(self)
        group.setExclusive(True)
        current = str(settings().value("view/language", SYSTEM))
        self.language_actions: dict[str, QAction] = {}
        names = {SYSTEM: translate("MainWindow", "Follow the &System"), **LANGUAGES}
        for language, name in names.items():
            action = language_menu.addAction(name)
            action.setObjectName(f"actionLanguage:{language}")
            action.setCheckable(True)
            action.setChecked(language == (current if current in names else SYSTEM))
            action.triggered.connect(lambda _=False, lang=language: self.set_language(lang))
            group.addAction(action)
            self.language_actions[language] = action

    def set_language(self, language: str) -> None:
        """Remember ``language`` (a key of ``LANGUAGES`` or ``SYSTEM``) and speak it now: its
        translations installed, the window's content built anew in it (``retranslate``)."""
        from paramtally.gui.i18n import (
            LANGUAGES,
            chosen_language,
            current_language,
            install_language,
            set_language_setting,
        )

        set_language_setting(language)
        self.language_actions[language].setChecked(True)
        spoken = chosen_language()  # "system": the locale's
        if spoken != current_language():
            if not install_language(spoken):  # its translations are missing: English stays
                install_language("en")
                spoken = "en"
            self.retranslate()
        self.show_status(
            translate("MainWindow", "Language: {language}").format(language=LANGUAGES[spoken]), 10000
        )

    def retranslate(self) -> None:
        """Build the window's content anew in the language installed now, from the same document.

        Every text is set where its widget is built (some 450 places), so the window builds its
        widgets again rather than each keeping a second path that sets its texts; the document
        (the model, its undo history, its cached figures) is not touched, and what the person
        arranged (``gui.window_state``: splitters, tab, tree selection, scroll positions, …) is
        given to the new widgets. The window itself, its geometry, the presets dock and the
        pinned columns stay; the old widgets go once the event loop is back (``deleteLater``:
        this runs inside a menu action of the old menu bar).
        """
        from PySide6.QtWidgets import QMenuBar

        from paramtally.gui.window_state import capture, restore

        state = capture(self)
        pins = self.explore.pins
        pins.setParent(self)  # out of the old Explore, before that goes
        self.explore.retire()
        browser = self.__dict__.pop("presets_browser", None)
        old: list[QObject | None] = [self.explore, self.problem_status, browser]
        if self.menus_built:
            old += [self.pane_keys, self.help, self.exporter, self.undo_action, self.redo_action]
            old += [self._theme_group, self._language_group]
        for item in old:
            if item is not None:
                item.deleteLater()
        self.statusBar().removeWidget(self.problem_status)
        for name in ("charts", "table", "memory"):
            self.__dict__.pop(name, None)
        menus_were_built, self.menus_built = self.menus_built, False
        self._build_widgets(pins)  # Qt deletes the old central widget later
        self.presets_dock.setWindowTitle(translate("MainWindow", "Presets"))
        self.setMenuBar(QMenuBar(self))  # and the old menu bar
        self._build_menu_bar()
        if browser is not None:
            self._build_presets_browser()
        if menus_were_built:
            self._build_menus()
        if self.views_loaded:
            self._build_parameter_views()
            self._build_memory_panel()
        restore(self, state)

    def set_theme(self, theme: str) -> None:
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, theme)
        self.theme_actions[theme].setChecked(True)
        settings().setValue("view/theme", theme)

    # --- open --------------------------------------------------------------------------------------

    def open_source(self, source: str, weights: bool = False) -> bool:
        """Load a preset id, preset JSON, HF config.json or folder through core; False with a message.

        With ``weights`` (Open Folder), a folder whose architecture cannot be read but whose
        weights are there shows their stored count in a dialog and keeps the model."""
        from paramtally.core.io.model_sources import read_source, source_identity

        try:
            if weights:
                from paramtally.core.io.importers.stored_count import StoredCount, read_source_or_weights

                found = read_source_or_weights(source)
                if isinstance(found, StoredCount):
                    self._show_stored_count(found)
                    return True
                preset = found
            else:
                preset = read_source(source)
            label, preset_id = source_identity(source)
        except (ParamTallyError, ValidationError) as exc:
            self._show_problem("", one_line(exc))
            return False
        except (RecursionError, ValueError, TypeError, OverflowError, MemoryError) as exc:
            # core says every bad file in one line; should a case slip through, say it, keep the model
            self._show_problem(PurePath(source).name, f"cannot be read ({type(exc).__name__}: {exc})")
            return False
        self.document.load(preset.architecture, label, preset_id, preset.scenario)
        if preset_id is None:  # a preset is remembered by its id (_remember_preset), a file by its path
            remember_source(source)
        return True

    def _show_stored_count(self, stored: StoredCount) -> None:
        """A checkpoint without an architecture to edit: its stored count, the model kept."""
        from paramtally.gui.stored_count_dialog import StoredCountDialog, headline

        StoredCountDialog(stored, self).exec()
        kept = shown(self.document.architecture.name)
        self.show_status(
            translate("MainWindow", "{stored}, not editable — {kept} stays open").format(
                stored=headline(stored), kept=kept
            ),
            10000,
        )

    def _before_open(self) -> None:
        self._error_before_open = self.last_error

    def _say_opened(self) -> None:
        """Whichever way a model was opened (a menu, the presets browser, a file, Open Recent), the
        status bar says in one line what opened and what became of the scenario (core's note: what
        was kept, what the model gave); with the notice the opening gave, if any (a saved scenario
        skipped), which "Opened …" would replace unseen."""
        doc = self.document
        if doc.opened == self._opened_seen:
            return  # saved under a new name, renamed: nothing opened
        self._opened_seen = doc.opened
        label = self._open_words or translate("MainWindow", "Opened {source}").format(
            source=shown(doc.source_label, PATH_CHARS)
        )
        words = f"{label}: {shown(doc.architecture.name)}"
        self._open_words = ""
        text = " — ".join(part for part in (words, doc.opening_note) if part)
        if self.last_error != self._error_before_open:
            self.show_status(f"{text} — ⚠ {self.last_error}", 15000)
        else:
            self.show_status(text, 10000 if doc.opening_note else 5000)

    def open_builtin(self, preset_id: str) -> bool:
        """File → Open Built-in Preset: that preset, not a user preset that took its id (as the
        presets browser's built-in row opens it)."""
        self._open_words = translate("MainWindow", "Opened the built-in {preset}").format(preset=preset_id)
        opened = self.presets_browser.ops.open_builtin(preset_id)
        self._open_words = ""
        return opened

    def new_model(self, template: str) -> bool:
        """Start a model from a template (core.editing.templates): a new, unsaved document."""
        from paramtally.core.editing.templates import TEMPLATES, new_architecture

        arch = new_architecture(template)
        self._open_words = translate("MainWindow", "New model from {template}").format(
            template=schema_text(TEMPLATES[template][0])
        )
        self.document.load(arch, arch.name)
        return True

    def open_dialog(self) -> None:
        from paramtally.gui.dialogs import ask_open_path, warn

        if not self.may_replace():
            return
        path = ask_open_path(
            self,
            translate("MainWindow", "Open preset or config.json"),
            translate("MainWindow", "Model configs (*.json);;All files (*)"),
        )
        if path is not None and not self.open_source(str(path)):
            warn(self, translate("MainWindow", "Cannot open"), self.last_error)

    def open_folder_dialog(self) -> None:
        from paramtally.gui.dialogs import ask_open_folder, warn

        if not self.may_replace():
            return
        path = ask_open_folder(
            self,
            translate("MainWindow", "Open a model folder (its config.json, or the weights of any model)"),
        )
        if path is not None and not self.open_source(str(path), weights=True):
            warn(self, translate("MainWindow", "Cannot open"), self.last_error)

    def _remember_preset(self) -> None:
        """A preset opened from the browser or saved under a new id is the model to reopen next."""
        if self.document.preset_id is not None:
            remember_source(self.document.preset_id)

    def _fill_recent_menu(self) -> None:
        """File → Open Recent: the models opened last, newest first (&1 … for the keyboard)."""
        self.recent_menu.clear()
        sources = recent_sources()
        for number, source in enumerate(sources, start=1):
            entry = shown(source, PATH_CHARS, middle=True).replace("&", "&&")
            prefix = f"&{number} " if number < 10 else ""
            action = self.recent_menu.addAction(f"{prefix}{entry}", lambda s=source: self._open_recent(s))
            action.setToolTip(shown(source, MESSAGE_CHARS, middle=True))
        if not sources:
            self.recent_menu.addAction(translate("MainWindow", "No model opened yet")).setEnabled(False)

    def _open_recent(self, source: str) -> None:
        """An entry of Open Recent; one that no longer opens (a file moved, a preset deleted
        elsewhere) is said in a dialog that offers to take it off the list."""
        from paramtally.gui.dialogs import Button, ask_question

        if not self.may_replace() or self.open_source(source):
            return
        answer = ask_question(
            self,
            translate("MainWindow", "Cannot open"),
            translate("MainWindow", "{reason}\n\nRemove it from Open Recent?").format(reason=self.last_error),
            default=Button.Yes,
        )
        if answer == Button.Yes:
            forget_source(source)

    # --- state ------------------------------------------------------------------------------------

    def show_notice(self, text: str) -> None:
        """Something the person should know that stops nothing (e.g. a skipped user file)."""
        self.last_error = text
        self.show_status(f"⚠ {text}", 15000)

    def _show_problem(self, path: str, reason: str) -> None:
        """A file that could not be opened (refused values stay in ``problem_status``)."""
        reason = said_text(reason)
        self.last_error = f"{path}: {reason}" if path else reason
        self.show_status(f"⚠ {self.last_error}", 15000)

    def show_status(self, text: str, timeout: int) -> None:
        """A passing message in the status bar, one line of at most ``MESSAGE_CHARS`` (it may quote a
        file: Qt lays out the whole text at each paint)."""
        self.statusBar().showMessage(shown(text, MESSAGE_CHARS), timeout)

    def _update_title(self, *_: Any) -> None:
        title = f"{shown(self.document.source_label, PATH_CHARS, middle=True)}[*] — ParamTally"
        if title != self.windowTitle():  # runs on every edit: skip the platform call when unchanged
            self.setWindowTitle(title)
        dirty = self.document.dirty
        if dirty != self.isWindowModified():  # Qt sets the title again even when it is unchanged
            self.setWindowModified(dirty)

    def _restore(self) -> None:
        store = settings()
        for key, restore in (("window/geometry", self.restoreGeometry), ("window/state", self.restoreState)):
            value = store.value(key)
            if isinstance(value, QByteArray):
                restore(value)
        for splitter in (self.split, self.left):  # the right one fills in load_views
            value = store.value(f"window/{splitter.objectName()}")
            if isinstance(value, QByteArray):
                splitter.restoreState(value)

    def save_geometry(self) -> None:
        store = settings()
        store.setValue("window/geometry", self.saveGeometry())
        store.setValue("window/state", self.saveState())
        for splitter in (self.split, self.left, self.right_split):
            store.setValue(f"window/{splitter.objectName()}", splitter.saveState())
        store.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_geometry()
        super().closeEvent(event)
