"""The Chinese interface: the compiled translations are the committed sources', every string the
code wraps has a translation, and the running window under zh_CN shows no untranslated text.

The scan walks what the window shows — menus and their entries, labels, buttons, group boxes,
tabs, the item views' headers and rows, the charts' titles and axes — and flags any text that
still holds an English word — the texts, and every tooltip (a widget's, a menu entry's, an item
view's rows and headers). Each dialog a person opens (About, Keyboard Shortcuts, the User Guide's
frame, Goal Seek, the layer tree's Add adapter / Add LoRA / Split, Save Preset As, the export file
dialog, the presets browser) is opened through its menu or key and scanned the same way. What
stays English by design is allowed: model names, units, field ids and values (``gelu_new``,
``layernorm``), GPU names, acronyms engineers write in Latin letters (FFN, MoE, KV, LoRA), and the
names of the models, papers and tools a field's description cites. Core's sentences (refusals,
advice, notes: ``core.text``) are said through the ``Core`` context, so a refusal shown at a field
is scanned too; the formula column stays core's notation ('4·d² = …'), as the command line's.
Goal Seek is driven to each refusal core says and to an answer, the Design space to its summary,
a hovered cell and a refused range, and a selected layer group's section title is read.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import typing
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QAbstractItemModel, QCoreApplication, QModelIndex, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QDialog,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QTabBar,
    QToolButton,
    QWidget,
)
from pytestqt.qtbot import QtBot

from paramtally.core.editing.patterns import PatternError, parse
from paramtally.core.errors import one_line
from paramtally.core.explore.shown_titles import schema_titles
from paramtally.core.io.model_sources import load_source
from paramtally.core.io.presets import builtin_ids
from paramtally.core.memory.gpus import load_catalog
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema import Architecture
from paramtally.gui.document import Document
from paramtally.gui.explore.goal_seek import GoalSeekDialog
from paramtally.gui.i18n import install_language, said_text, translate
from paramtally.gui.main_window import MainWindow
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals, give_focus, plain
from tests.gui.views_support import preset_window

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "resources" / "i18n"
BIN = Path(sys.executable).parent

# Latin-letter words a Chinese interface keeps: units, acronyms and names engineers write so.
KEPT = {
    *"B K M T G N D x".split(),
    *"GiB MiB KiB GB MB KB TB FLOP FLOPs FLOP/s tok s ms h d B/s".split(),
    *"GPU GPUs FFN MoE KV LoRA QLoRA MLA MTP RoPE SSM LM MFU CSV JSON PNG SVG HF ZeRO CUDA".split(),
    *"LayerNorm RMSNorm Mamba DeltaNet Gated FlashAttention Dropout Excel UTF BOM ParamTally".split(),
    *"LLaMA Llama LLaVA GPT Chinchilla transformers token tokens patch patches auto sink Sink".split(),
    *"dropout Key Value q k v o z gate in_proj out_proj x_proj dt_proj kv_a kv_b q_a q_b".split(),
    *"kv enorm hnorm".split(),  # DeepSeek-V3's module names (its kv projections, MTP norms)
    *"A_log C Markdown HTML English TP PP EP DP tp pp ep X Y".split(),
    *"RG LRU Transformer".split(),  # RG-LRU (Griffin's recurrence) and Transformer are names
    *"NF4 MXFP4 SwiGLU GeGLU GELU ViT MLP MLM MHA MQA SDPA HBM FSDP NoPE SSD GLM ELECTRA BERT".split(),
    *"Ctrl Shift Alt Meta Del Esc Backspace PgUp PgDown Home End Ins Return Enter Space Tab F1 F2".split(),
    *"Up Down Left Right Menu Print".split(),  # key names, as Qt writes a shortcut
}
# Models, papers' authors and tools a field's description cites (as "(Qwen3)", "(Kaplan et al.)").
CITED = set(
    """Phi ModernBERT CLIP SigLIP Qwen Pixtral InternViT Mllama BitNet BLOOM BART DeBERTa gpt oss
    Falcon Korthikanti AdamW Adam SGD Adafactor Houlsby DeepSeek Megatron Hugging Face OPT Zamba
    Gemma Jamba Helium LongCat Flash OLMo Command StableLM Marian Pegasus Whisper LLaVA PaLM Chowdhery
    Narayanan Kaplan PyTorch JetMoE Chinchilla Mistral Mixtral LFM Griffin RecurrentGemma deepstack
    ERNIE MPNet Fuyu ESM Longformer LED RWKV receptance
    pixel shuffle lightning xIELU et al fast use_cache MoA ZeRO NVIDIA llama cpp llm analysis log sum
    exp gated logit logits id false False MIT Qt Python PySide6 README params
    json html md csv svg png""".split()
)


def _choice_values() -> set[str]:
    """Every value a schema choice takes (``gelu_new``, ``layernorm``, ``adamw``): ids stay."""
    from paramtally.core.explore.shown_titles import _models
    from paramtally.core.memory.scenario import Scenario
    from paramtally.core.schema import Architecture
    from paramtally.core.schema.field_specs import field_spec

    values: set[str] = set()
    for model in _models():
        for name, info in model.model_fields.items():
            values.update(str(choice) for choice in field_spec(name, info).choices)
    assert Architecture in set(_models()) and Scenario in set(_models())
    return values


def _field_ids() -> set[str]:
    """Every field's id (``gpus``, ``lora_rank``): a description may name the field it means."""
    from paramtally.core.explore.shown_titles import _models

    return {name for model in _models() for name in model.model_fields}


def english_words(text: str, allowed: set[str]) -> list[str]:
    """The English words of ``text`` that are not ``allowed``. HTML tags and entities, the
    mnemonic of a translated entry ('文件(&F)', in its tooltip '文件(F)'), a lone letter (a formula's
    symbol), a command-line flag, a command in backquotes and ids (a token with a digit, an underscore or a
    dot: 'gpt3-175b', 'gelu_new', 'H100') and a file's place are not words."""
    plain = re.sub(r"<[^>]+>|&[a-z]+;|\(&?[A-Z0-9]\)|«[^»]*»|`[^`]*`", " ", text).replace("&", "")
    words = []
    for token in re.findall(r"[A-Za-z0-9_.'/+-]+", plain):
        if token.startswith("--"):  # a command-line flag (--make-vocab-size-divisible-by) is an id
            continue
        if token.startswith(("/", "~/")):  # a file's place (About's '/usr/share/…/presets') is a name
            continue
        token = token.strip(".'/-+")
        if not re.search("[A-Za-z]", token) or re.search(r"[0-9_.]", token) or token in allowed:
            continue
        words += [word.strip("'") for word in re.split(r"[-/+]", token) if word and word not in allowed]
    # A lone letter is a formula's symbol (h, d_h's d, E, a·s), not a word.
    return [word for word in words if word.lower() not in allowed and len(word) > 1]


_SHOWN_ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)


def _model_texts(model: QAbstractItemModel, parent: QModelIndex, where: str) -> Iterator[tuple[str, str]]:
    for column in range(model.columnCount(parent)):
        for role in _SHOWN_ROLES:
            header = model.headerData(column, Qt.Orientation.Horizontal, role)
            if not parent.isValid() and isinstance(header, str):
                yield f"{where} header", header
    formulas = where.endswith("breakdownTable")  # core's notation ('4·d² = …'), as the CLI writes it
    for row in range(model.rowCount(parent)):
        for column in range(model.columnCount(parent)):
            if formulas and column == model.columnCount(parent) - 1:
                continue
            for role in _SHOWN_ROLES[: 1 if formulas else 2]:  # a term's tooltip is its formula
                text = model.data(model.index(row, column, parent), role)
                if isinstance(text, str):
                    yield f"{where} row {row} column {column}", text
        yield from _model_texts(model, model.index(row, 0, parent), where)


def _menu_texts(menu: QMenu) -> Iterator[tuple[str, str]]:
    menu.aboutToShow.emit()  # Open Recent fills itself when shown
    for action in menu.actions():
        if action.text():
            yield f"menu {menu.title()}", action.text()
        if action.toolTip() and menu.toolTipsVisible():  # a user preset's name in Compare's menu
            continue
        if action.toolTip():
            yield f"menu {menu.title()} tooltip", action.toolTip()
        if action.menu() is not None:
            yield from _menu_texts(typing.cast(QMenu, action.menu()))


# Widgets whose text is a document or names, not the interface's words: presets' ids and model
# names, a file dialog's files and folders, the User Guide (a document, in English), the recent
# files (paths).
_NAMES_ONLY = ("presetList", "guideText", "guideSections", "listView", "treeView", "sidebar", "lookInCombo")
# Tooltips that show a figure's terms in core's notation with their sources ('KV cache: 2·L·g·d_h·…
# [vLLM, llama.cpp]'), as the breakdown's formula column and the command line do.
_FORMULA_TIPS = ("memoryChart", "servingSummary", "flopsSummary")


def widget_texts(root: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) of everything ``root`` and its children show a person: texts and tooltips."""
    for widget in [root, *root.findChildren(QWidget)]:
        name = widget.objectName()
        if name in _NAMES_ONLY or any(parent.objectName() in _NAMES_ONLY for parent in _parents(widget)):
            continue
        if widget.toolTip() and name not in _FORMULA_TIPS:
            yield f"tooltip {type(widget).__name__} {name}", widget.toolTip()
        if isinstance(widget, QLabel):
            yield f"label {name}", widget.text()
        elif isinstance(widget, QAbstractButton):
            yield f"button {name}", widget.text()
        elif isinstance(widget, QGroupBox):
            yield f"group {name}", widget.title()
        elif isinstance(widget, QTabBar):
            yield from ((f"tab {i}", widget.tabText(i)) for i in range(widget.count()))
            yield from ((f"tab {i} tooltip", widget.tabToolTip(i)) for i in range(widget.count()))
        elif isinstance(widget, QLineEdit):
            yield f"placeholder {name}", widget.placeholderText()
        elif isinstance(widget, QHeaderView):  # its view's headers, read with that view
            continue
        elif isinstance(widget, QAbstractItemView) and widget.model() is not None:
            yield from _model_texts(widget.model(), QModelIndex(), f"view {name}")
    if isinstance(root, QDialog):
        yield f"title {root.objectName()}", root.windowTitle()


def _parents(widget: QWidget) -> Iterator[QWidget]:
    parent = widget.parentWidget()
    while parent is not None:
        yield parent
        parent = parent.parentWidget()


def shown_texts(window: MainWindow) -> Iterator[tuple[str, str]]:
    """(where, text) of everything the window shows a person."""
    for action in window.menuBar().actions():
        yield "menu bar", action.text()
        if action.menu() is not None:
            yield from _menu_texts(typing.cast(QMenu, action.menu()))
    yield from widget_texts(window)
    tree = window.tree  # the layer tree's context menu, at the main stack's first group
    group = tree.tree_model.index(0, 0, tree.tree_model.index(0, 0))
    tree.setCurrentIndex(group)
    yield from _menu_texts(tree.build_menu(group))
    charts = [window.charts.bar, window.memory.chart]
    for chart in charts:
        item = chart.getPlotItem()
        yield f"chart {chart.objectName()} title", item.titleLabel.text
        for side in ("left", "bottom"):
            yield f"chart {chart.objectName()} axis", item.getAxis(side).labelText
    yield "pie title", window.charts.pie.title()
    for part in window.charts.bar.parts_shown:  # drawn whenever the charts' tab is
        yield f"bar value {part}", window.charts.bar.value_labels[part].text()


@pytest.fixture
def chinese() -> Iterator[None]:
    assert install_language("zh_CN")
    yield
    install_language("en")


@pytest.mark.parametrize("preset", ["gpt3-175b", "mixtral-8x7b", "jamba-v0.1", "deepseek-v3"])
def test_window_under_zh_cn_shows_no_untranslated_text(qtbot: QtBot, chinese: None, preset: str) -> None:
    arch = load_source(preset)
    window = MainWindow(Document(arch, preset, preset_id=preset))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.tabs.setCurrentWidget(window.memory_scroll)  # the memory panel draws once shown
    qtbot.waitUntil(lambda: bool(window.memory.summary.text()))
    explore = window.explore  # the Compare and Design space tabs build and fill once shown
    window.tabs.setCurrentWidget(explore.compare_tab)
    qtbot.waitUntil(lambda: explore.compare_tab.view.figures.rowCount() > 0)
    window.tabs.setCurrentWidget(explore.design_tab)
    qtbot.waitUntil(lambda: bool(explore.design_tab.view.status.text()))
    assert_translated(shown_texts(window), _allowed(arch, preset))


def _allowed(arch: Architecture, preset: str) -> set[str]:
    allowed = KEPT | CITED | _choice_values() | _field_ids() | {gpu.name for gpu in load_catalog()}
    names = " ".join([arch.name, arch.description or "", *(gpu.name for gpu in load_catalog())])
    allowed |= set(re.findall(r"[A-Za-z0-9_.'/+-]+", names))
    allowed |= {word for token in list(allowed) for word in re.split(r"[-/]", token)}
    return allowed | {preset, *builtin_ids()}


def assert_translated(texts: Iterable[tuple[str, str]], allowed: set[str]) -> None:
    escaped = [(where, text, words) for where, text in texts if (words := english_words(text, allowed))]
    assert not escaped, "\n".join(f"{where}: {text!r} ({', '.join(words)})" for where, text, words in escaped)


def _scanned(texts: list[tuple[str, str]], qtbot: QtBot) -> Callable[[QWidget], None]:
    """A dialog's answer: read everything it shows, then close it with Escape, as a person would."""

    def scan(dialog: QWidget) -> None:
        texts.extend(
            (f"{dialog.objectName() or type(dialog).__name__} · {where}", text)
            for where, text in widget_texts(dialog)
        )
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)

    return scan


def test_dialogs_under_zh_cn_show_no_untranslated_text(
    qtbot: QtBot, chinese: None, modals: Modals, tmp_path: Path
) -> None:
    """Every dialog opened from its menu entry, key or button under zh_CN, read whole (texts and
    tooltips) and closed with Escape."""
    arch = load_source("llama-3-8b")  # a gated FFN: the form offers "From hidden…" (LLaMA's rule)
    window = MainWindow(Document(arch, "llama-3-8b", preset_id="llama-3-8b"))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    texts: list[tuple[str, str]] = []
    scan = _scanned(texts, qtbot)
    menu_entries = ["actionAbout", "actionShortcuts", "actionGuide", "actionGoalSeek", "actionSavePresetAs"]
    menu_entries += ["actionExport_report", "actionImportPreset", "actionOpen"]
    for name in menu_entries:  # Help → About, … File → Export → Design report…: each entry as chosen
        action = window.findChild(QAction, name)
        assert action is not None and action.isEnabled(), name
        modals.expect(scan, name)
        action.trigger()
        modals.wait_done()
    modals.expect(scan, "From hidden…")
    qtbot.mouseClick(window.findChild(QToolButton, "ffnWidthFromHidden"), Qt.MouseButton.LeftButton)
    modals.wait_done()
    tree = window.tree  # the layer tree's dialogs, through its context menu (the Menu key)
    for entry in ("Split at layer…", "Convert FFN to MoE…", "Add LoRA…", "Add adapter…"):
        tree.setCurrentIndex(tree.tree_model.group_index(0))
        give_focus(qtbot, tree)
        modals.choose(plain(translate("LayerTree", entry)))
        modals.expect(scan, entry)
        qtbot.keyClick(tree, Qt.Key.Key_Menu)
        modals.wait_done()
    window.findChild(QAction, "actionBrowsePresets").trigger()  # File → Browse Presets: a pane
    qtbot.waitUntil(lambda: window.presets_browser.isVisible())
    texts += widget_texts(window.presets_browser)
    dialogs = {where.split(" · ")[0] for where, _ in texts}
    assert len(dialogs) >= 13, sorted(dialogs)  # each dialog was opened and read
    assert_translated(texts, _allowed(arch, "llama-3-8b"))


def test_core_sentences_read_in_chinese_at_the_field_in_the_notes_and_in_the_edit_menu(
    qtbot: QtBot, chinese: None, type_into: TypeInto
) -> None:
    """A refusal, an advice, the layout note and an undo step's name: core says them (in English,
    as the command line prints them), the window says them in Chinese, their numbers kept."""
    window = MainWindow(Document(load_source("gpt3-175b"), "gpt3-175b", preset_id="gpt3-175b"))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    form = window.form
    vocab = form._rows[("embeddings", "vocab_size")].error
    assert vocab is not None and vocab.text().startswith("词表（50,257 行）未填充到 64 的倍数")
    heads = ("blocks", "default", "mixer", "num_kv_heads")
    type_into(form.editor(heads), "5")
    assert form.error_text(heads) == "KV heads (5) must divide the query heads (96)"  # core's own words
    label = form._rows[heads].error
    assert label is not None and label.text() == "KV 头数（5）必须整除查询头数（96）"
    assert "KV 头数（5）必须整除查询头数（96）" in form.editor(heads).toolTip()
    assert window.undo_action.text().startswith("撤销") and "（尚未应用）" in window.undo_action.text()
    type_into(form.editor(heads), "8")
    assert "设置" in window.undo_action.text()
    window.tabs.setCurrentWidget(window.memory_scroll)
    qtbot.waitUntil(lambda: bool(window.memory.summary.text()))
    type_into(window.memory.controls.editors["gpus"], "8")
    qtbot.waitUntil(lambda: "个 GPU" in window.memory.layout_note.text())
    note = window.memory.layout_note.text()
    assert "8" in note and english_words(note, KEPT) == [], note
    assert "设置" in window.undo_action.text()
    with pytest.raises(PatternError) as refused:  # what the pattern dialog says as a person types
        parse("[mamba ×7, attenton] × 4")
    said = said_text(one_line(refused.value))
    assert said.startswith("“[mamba ×7, attenton] × 4”：未知的层类型“attenton”"), said
    assert "attention, mla, mamba" in said  # the kinds to type stay as they are typed


def test_the_chinese_report_says_core_s_sentences_in_chinese() -> None:
    """The layout advice, the bandwidth line and 'one block = …' come from core; the report reads
    the window's catalogue for them."""
    from paramtally.core.io.formats import export_text
    from paramtally.core.io.report import report_export

    arch = load_source("gpt3-175b")
    scenario = Scenario(gpus=8, tp=1)
    said = export_text("md", report_export(arch, scenario, "gpt3-175b", language="zh_CN"))
    assert "8 个 GPU 组成 8 个模型副本" in said and "单个块 = 1,812,099,072" in said
    assert "解码和预填充读取权重时按 GPU 峰值 HBM 带宽的 68.5% 计算" in said
    english = export_text("md", report_export(arch, scenario, "gpt3-175b", language="en"))
    assert "8 GPUs as 8 copies of the model" in english and "one block = 1,812,099,072" in english


def test_menus_tabs_sections_and_form_labels_read_in_chinese(qtbot: QtBot, chinese: None) -> None:
    window = MainWindow(Document(load_source("gpt3-175b"), "gpt3-175b", preset_id="gpt3-175b"))
    qtbot.addWidget(window)
    assert [action.text() for action in window.menuBar().actions()] == [
        "文件(&F)",
        "编辑(&E)",
        "视图(&V)",
        "探索(&X)",
        "帮助(&H)",
    ]
    assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == [
        "参数量",
        "显存与 GPU 适配",
        "对比",
        "设计空间",
    ]
    sections = {title: section.button.shown_title for title, section in window.form.sections.items()}
    assert sections["Model"] == "模型" and sections["Embeddings"] == "嵌入"
    assert sections["Block «default» · Mixer"] == "块 «default» · 混合器"
    labels = [label.text() for label in window.form.findChildren(QLabel) if label.buddy() is None]
    form_labels = [
        window.form._rows[path].layout.labelForField(window.form._rows[path].frame.parentWidget()).text()
        for path in window.form.paths()
    ]
    chinese_labels = [text for text in form_labels if re.search(r"[\u4e00-\u9fff]", text)]
    assert labels and len(chinese_labels) >= 0.9 * len(form_labels), form_labels
    # numbers keep their separators
    assert "175,221,817,344" in window.headline.text()


def test_every_wrapped_string_and_schema_title_has_a_translation(tmp_path: Path) -> None:
    """lupdate run over the code now finds nothing the committed .ts lacks or leaves untranslated."""
    if shutil.which("pyside6-lupdate", path=str(BIN)) is None:
        pytest.fail("pyside6-lupdate is not installed (PySide6-Essentials ships it)")
    ts = tmp_path / "paramtally_zh_CN.ts"
    shutil.copy(I18N / "paramtally_zh_CN.ts", ts)
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import build_translations
    finally:
        sys.path.remove(str(ROOT / "tools"))
    titles = tmp_path / "schema_titles.py"
    titles.write_text(build_translations.schema_calls(), encoding="utf-8")
    sources = sorted(str(path) for path in (ROOT / "gui").rglob("*.py"))
    command = [str(BIN / "pyside6-lupdate"), "-no-obsolete", "-locations", "none", *sources, str(titles)]
    subprocess.run([*command, "-ts", str(ts)], check=True, capture_output=True)
    text = ts.read_text(encoding="utf-8")
    assert 'type="unfinished"' not in text
    assert text == (I18N / "paramtally_zh_CN.ts").read_text(encoding="utf-8")
    assert len(schema_titles()) > 150


def test_committed_qm_is_built_from_the_committed_ts(tmp_path: Path) -> None:
    built = tmp_path / "paramtally_zh_CN.qm"
    subprocess.run(
        [str(BIN / "pyside6-lrelease"), "-silent", str(I18N / "paramtally_zh_CN.ts"), "-qm", str(built)],
        check=True,
    )
    assert built.read_bytes() == (I18N / "paramtally_zh_CN.qm").read_bytes()


def test_english_stays_when_no_translation_is_installed() -> None:
    from paramtally.gui.i18n import current_language

    assert install_language("zh_CN") and current_language() == "zh_CN"
    install_language("en")
    assert current_language() == "en"
    assert translate("MainWindow", "&File") == "&File"
    assert QCoreApplication.translate("Schema", "Hidden size") == "Hidden size"


def test_view_language_is_remembered_and_said(qtbot: QtBot, window: MainWindow) -> None:
    from paramtally.gui.i18n import chosen_language

    names = [action.text() for action in window.language_actions.values()]
    assert names == ["Follow the &System", "English", "简体中文"]
    window.language_actions["zh_CN"].trigger()
    assert window.language_actions["zh_CN"].isChecked()
    assert chosen_language() == "zh_CN"
    assert window.statusBar().currentMessage() == "界面语言：简体中文"  # said at once, in Chinese
    window.language_actions["en"].trigger()
    assert chosen_language() == "en"
    window.language_actions["system"].trigger()
    assert chosen_language() == "en"  # this test's process runs under an English (or C) locale
    from paramtally.gui.export_actions import report_language

    window.language_actions["zh_CN"].trigger()  # File → Export → Design report… writes Chinese
    assert report_language() == "zh_CN"
    window.language_actions["system"].trigger()  # "system" itself is no language: the locale's
    assert report_language() == "en"


@pytest.mark.parametrize(("lang", "expected"), [("zh_CN.UTF-8", "zh_CN"), ("en_US.UTF-8", "en"), ("C", "en")])
def test_the_language_follows_the_system_locale(tmp_path: Path, lang: str, expected: str) -> None:
    """A fresh process under LANG: Qt reads the locale when it starts."""
    script = (
        "from PySide6.QtCore import QCoreApplication; app = QCoreApplication([]); "
        "from paramtally.gui.i18n import chosen_language, install_language, translate; "
        "language = chosen_language(); install_language(language); "
        "print(language, translate('MainWindow', '&File'))"
    )
    env = {"PATH": "/usr/bin:/bin", "LANG": lang, "LC_ALL": lang, "XDG_CONFIG_HOME": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == [expected, {"zh_CN": "文件(&F)", "en": "&File"}[expected]]


def _pick(qtbot: QtBot, box: QComboBox, data: str) -> None:
    """Pick the entry of a closed combo box that stands for ``data`` with the arrow keys."""
    wanted = box.findData(data)
    assert wanted >= 0, data
    box.setFocus()
    key = Qt.Key.Key_Down if wanted > box.currentIndex() else Qt.Key.Key_Up
    while box.currentIndex() != wanted:
        qtbot.keyClick(box, key)


def test_goal_seek_refusals_answer_and_status_read_in_chinese(
    qtbot: QtBot, chinese: None, modals: Modals
) -> None:
    """Goal Seek driven to each refusal core says (no value meets the target; the figure does not
    change; no value fits the GPUs) and to an answer, read whole each time: the lines, the table's
    rows and headers and Apply; then applied, the status bar's line. Numbers and ids stay."""
    window = preset_window(qtbot, "llama-3-8b", (1024, 700))
    assert window.document.set_scenario_values({"mode": "training"})  # no vocabulary fits 24 GB then
    texts: list[tuple[str, str]] = []
    said: dict[str, str] = {}

    def answer(dialog: QWidget) -> None:
        assert isinstance(dialog, GoalSeekDialog)
        for case, field, figure, target in (
            ("unreachable", "num_heads", "total", "1e15"),
            ("unchanged", "vocab_size", "kv", "1GB"),
            ("unfit", "vocab_size", "fits", ""),
            ("fewest", "gpus", "fits", ""),
            ("answer", "num_layers", "total", "10B"),
        ):
            _pick(qtbot, dialog.field_box, field)
            _pick(qtbot, dialog.figure_box, figure)
            if target:
                dialog.value_edit.setFocus()
                dialog.value_edit.selectAll()
                qtbot.keyClicks(dialog.value_edit, target)
                qtbot.keyClick(dialog.value_edit, Qt.Key.Key_Return)
            else:  # one RTX 3090 is too small to train it with any vocabulary; H100s hold it
                _pick(qtbot, dialog.gpu_box, "rtx-3090" if case == "unfit" else "h100-sxm-80gb")
                dialog.solve_now()
            said[case] = dialog.answer.text()
            texts.extend((f"goal seek · {case} · {where}", text) for where, text in widget_texts(dialog))
        modals.click_button(dialog, plain(translate("GoalSeek", "&Apply {value}").format(value="42")))

    modals.expect(answer, "goal seek")
    give_focus(qtbot, window.form)
    qtbot.keyClick(window, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    assert "头数（num_heads）没有满足 总参数量 &gt;= 1,000,000,000,000,000 的取值" in said["unreachable"]
    assert "最小允许值（8）只得到 8,835,567,616" in said["unreachable"]
    assert "词表大小（vocab_size）不改变每块 GPU 的 KV 缓存（取 128,256 及其两侧时都是" in said["unchanged"]
    assert "词表大小（vocab_size）没有能放进 NVIDIA" in said["unfit"] and "每块 GPU 也需要" in said["unfit"]
    assert said["fewest"].startswith("<b>GPU 数量 = ") and "可放入" in said["fewest"], said["fewest"]
    assert said["answer"].startswith("<b>层数 = 42</b> — 总参数量 ≥ 10,000,000,000")
    status = window.statusBar().currentMessage()
    assert status == "目标求解：层数 = 42", status
    texts.append(("status bar", status))
    assert_translated(texts, _allowed(window.document.architecture, "llama-3-8b"))


def test_design_space_status_hover_and_refusals_read_in_chinese(
    qtbot: QtBot, chinese: None, type_into: TypeInto
) -> None:
    """The Design space's line under the heatmap — its summary with a GPU setup's fits, a cell the
    pointer is over, and a range core refuses — and the status bar's line when the open model is
    pinned from there, read in Chinese, numbers and ids kept."""
    window = preset_window(qtbot, "llama-3-8b", (1024, 700))
    explore = window.explore
    window.tabs.setCurrentWidget(explore.design_tab)
    view = explore.design_view
    qtbot.waitUntil(lambda: view.isVisible() and view.sweep is not None)
    qtbot.mouseClick(view.fits_check, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.sweep is not None and view.sweep.fits is not None, timeout=20_000)
    texts = [("summary", view.status.text())]
    i, j = 40, 10
    qtbot.mouseMove(view.heatmap.viewport(), view.heatmap.cell_center(i, j))
    qtbot.waitUntil(lambda: "hidden_size = " in view.hover.text())
    hover = view.hover.text()
    assert "总参数量" in hover and "每块 GPU 显存" in hover and ("可放入" in hover or "放不进" in hover), (
        hover
    )
    texts.append(("hover", hover))
    type_into(view.y_range, "16:1")
    refusal = view.status.text()
    assert refusal.startswith("⚠ Y：“16:1”既不是 起始:结束:步长"), refusal
    texts.append(("refusal", refusal))
    pin = window.findChild(QAction, "actionPin")  # Explore → Pin, away from the Compare tab
    assert pin is not None
    pin.trigger()
    pinned = window.statusBar().currentMessage()
    assert pinned.startswith("已固定 ") and pinned.endswith("：请看“对比”标签页"), pinned
    texts.append(("status bar", pinned))
    assert_translated(texts, _allowed(window.document.architecture, "llama-3-8b"))


def test_a_selected_layer_group_s_section_is_titled_in_chinese(qtbot: QtBot, chinese: None) -> None:
    """The form's section for the group the tree selects: 'Layer group: layers 0–31 (dense)' in
    the window's words, its layers' numbers kept (the form still finds it by core's title)."""
    window = preset_window(qtbot, "llama-3-8b", (1024, 700))
    tree = window.tree
    tree.setCurrentIndex(tree.tree_model.group_index(0))
    form = window.form
    title, section = next(iter(form.sections.items()))
    assert title == "Layer group: layers 0–31 (dense) · Mixer"
    shown = section.button.shown_title
    assert shown.startswith("层组：层 0–31") and shown.endswith(" · 混合器"), shown
    assert english_words(shown, KEPT) == [], shown
