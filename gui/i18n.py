"""The window's language: Qt's translation system for ParamTally's strings and Qt's own.

Every string the window shows goes through ``translate(context, text)`` (Qt's
``QCoreApplication.translate``, under a short name ``pyside6-lupdate`` also extracts). The sources
are ``resources/i18n/paramtally_<lang>.ts`` (Qt Linguist's format, in the repository); the compiled
``.qm`` beside them is what is loaded (``tools/build_translations.py`` makes both). Texts that come
from core — the schema's titles, the parts of a breakdown, the tree's rows — are translated here, at
the window's edge, in the ``Schema`` context; core stays English (and Qt-free), so the CLI does too.

Which language: the one chosen in View → Language (setting ``view/language``), else the system
locale's (``LANG=zh_CN.UTF-8`` → Chinese). A change applies at once: ``install_language`` swaps the
translators, then ``MainWindow.retranslate`` builds the window's content anew from the same
document — each widget sets its texts where it is built, so building it again is what retranslates
it — and gives the new widgets what the person had arranged (``gui.window_state``). Qt's own
widgets (a line edit's context menu, a message box's buttons) follow the translator they find when
they are next shown.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QLibraryInfo, QLocale, QTranslator

from paramtally.core.files.package_data import data_dir
from paramtally.core.text import CONTEXT as CORE
from paramtally.core.text import Said, said_in, word_swapper
from paramtally.gui.settings import settings

__all__ = [
    "LANGUAGES",
    "SYSTEM",
    "chosen_language",
    "core_text",
    "current_language",
    "install_language",
    "qm_path",
    "said_text",
    "schema_text",
    "set_language_setting",
    "title_text",
    "translate",
]

# Qt's own texts its shipped qtbase_zh_CN leaves in English (QFileDialog's non-native form, as the
# offscreen and Xvfb sessions show it), translated in ParamTally's catalogue: listed for lupdate.
QT_OWN = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
)

# The languages the window speaks, by Qt locale name, each named in itself.
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}
SYSTEM = "system"  # the setting's value that follows the system locale
_SETTING = "view/language"
_installed: list[QTranslator] = []  # kept alive: a translator Python collects stops translating
_current = ["en"]  # the language installed last (``current_language``)


def translate(context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """``text`` in the window's language (itself when no translation is loaded or known)."""
    return QCoreApplication.translate(context, text, disambiguation, n)


def schema_text(text: str) -> str:
    """A title from core (a field's, a part's, a kind's) in the window's language."""
    return QCoreApplication.translate("Schema", text) if text else text


# 'Blocks «default»' keeps the name between guillemets; 'group 3', 'MoE (8 experts)' keep their numbers.
_QUOTED = re.compile(r"^(?P<head>.*?) «(?P<name>.*)»$")
_NUMBERED = re.compile(r"^(?P<head>[^\d]*?) (?P<number>\d[\d,]*)$")


def title_text(title: str) -> str:
    """A composed title ('Blocks «default» · Mixer', 'Blocks › default › KV heads', 'Vision
    projector · Step 2') piece by piece: names between guillemets and numbers stay."""
    if not title:
        return title
    pieces = re.split(r"( · | › )", title)
    return "".join(_title_piece(piece) if index % 2 == 0 else piece for index, piece in enumerate(pieces))


# 'Layer group: layers 0–31 (dense)': a title, then what the tree calls the thing it names.
_LABELLED = re.compile(r"^(?P<head>[^:«]+): (?P<rest>.+)$")


def _title_piece(piece: str) -> str:
    whole = schema_text(piece)
    if whole != piece:
        return whole
    if (labelled := _LABELLED.match(piece)) and (head := schema_text(labelled["head"])) != labelled["head"]:
        return translate("Title", "{title}: {what}").format(title=head, what=core_text(labelled["rest"]))
    if quoted := _QUOTED.match(piece):
        return f"{schema_text(quoted['head'])} «{quoted['name']}»"
    if numbered := _NUMBERED.match(piece):
        return f"{schema_text(numbered['head'])} {numbered['number']}"
    return piece


_glossary: list[Callable[[str], str]] = []  # built once per language installed


def core_text(text: str) -> str:
    """Text from core in the window's language. A sentence core said (``core.text.Said``: a
    refusal, advice, a note, an undo step's name) through its template in the ``Core`` context,
    its fields said the same way; a line core composed of schema titles and a few words ('Mixer:
    Attention — Heads 96', 'layers 0–95 (dense)'), each known title or word put in the window's
    language, longest first; names, numbers and units stay. English when no translation is loaded."""
    if not _installed or not text:
        return text
    if isinstance(text, Said):
        return said_text(text)
    if not _glossary:
        _glossary.append(_build_glossary())
    return _glossary[0](text)


def _build_glossary() -> Callable[[str], str]:
    from paramtally.core.explore.shown_titles import ROW_WORDS, schema_titles

    return word_swapper({text: schema_text(text) for text in (*schema_titles(), *ROW_WORDS)})


def said_text(text: str, words: Callable[[str], str] | None = None) -> str:
    """A sentence core said (``core.text.Said``: a refusal, advice, a note, an undo step's name) in
    the window's language: its template through the ``Core`` context, filled with its fields, each
    a title put in the window's language whole (``title_text``; ``words`` instead for a field made
    of titles, as a tree row's details are) — names, ids and typed text stay. Any other text is
    kept as it is: a sentence is never translated word by word."""
    if not _installed or not isinstance(text, Said):
        return text
    return said_in(text, lambda template: QCoreApplication.translate(CORE, template), words or title_text)


def current_language() -> str:
    """The language the window speaks now ('en', 'zh_CN'): what an export in words (a design
    report) should be written in by default."""
    return _current[0]


def chosen_language() -> str:
    """The language to start in: the setting, else the system locale's if the window speaks it."""
    chosen = str(settings().value(_SETTING, SYSTEM))
    if chosen in LANGUAGES:
        return chosen
    system = QLocale.system().name()  # 'zh_CN' under LANG=zh_CN.UTF-8
    if system in LANGUAGES:
        return system
    return "zh_CN" if system.startswith("zh") and system not in ("zh_TW", "zh_HK") else "en"


def set_language_setting(language: str) -> None:
    """Remember ``language`` (a key of ``LANGUAGES`` or ``SYSTEM``): the one to start in."""
    settings().setValue(_SETTING, language)


def qm_path(language: str) -> str:
    """The compiled translations of ParamTally's strings for ``language``."""
    return str(data_dir("resources") / "i18n" / f"paramtally_{language}.qm")


def install_language(language: str) -> bool:
    """Load ``language``'s translations into the running application (ParamTally's, then Qt's own
    for the standard dialogs' buttons); English needs none. False when ours could not be loaded."""
    app = QCoreApplication.instance()
    assert app is not None
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    _glossary.clear()
    _current[0] = "en"
    if language == "en":
        return True
    ours = QTranslator(app)
    if not ours.load(qm_path(language)):
        return False
    qt_own = QTranslator(app)
    # PySide6-Essentials ships qtbase_<lang>.qm (the buttons of QMessageBox, QFileDialog, …).
    if qt_own.load(f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt_own)
        _installed.append(qt_own)
    app.installTranslator(ours)
    _installed.append(ours)
    _current[0] = language
    return True
