"""The design report's words in another language, read from a Qt Linguist catalogue.

The report's strings are translated where the window's are: a ``.ts`` file (Qt's translation
source, XML) that translators open in Qt Linguist, context ``Report``, keyed by the English text.
Core imports no Qt, so the file is read here with ``xml.etree``; a message Linguist marks
unfinished or obsolete is not used, as ``lrelease`` leaves it out. A template keeps its
``{placeholders}`` in both languages, and numbers are formatted before they are filled in, so
they keep their separators (175,221,817,344) in every language.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from paramtally.core.errors import ParamTallyError
from paramtally.core.files.package_data import data_dir
from paramtally.core.text import CONTEXT as SAID_CONTEXT
from paramtally.core.text import said_in, say, word_swapper

__all__ = ["CONTEXT", "LANGUAGES", "Translator", "catalogue_path"]

CONTEXT = "Report"
LANGUAGES = ("en", "zh_CN")


def catalogue_path(language: str, name: str = "report") -> Any:
    """The report's own catalogue, or (``name`` 'paramtally') the window's, whose ``Core`` context
    holds core's sentences (``core.text``): the report says them as the window does."""
    return data_dir("resources") / "i18n" / f"{name}_{language}.ts"


@lru_cache(maxsize=4)
def _window_words(language: str) -> Callable[[str], str]:
    """The window's words for a line core composed (``gui.i18n.core_text``): its catalogue's
    ``Schema`` context, the schema's titles and the tree's row words."""
    return word_swapper(_catalogue(language, "paramtally", "Schema"))


@lru_cache(maxsize=8)
def _catalogue(language: str, name: str = "report", wanted: str = CONTEXT) -> Mapping[str, str]:
    if language == "en":
        return {}
    if language not in LANGUAGES:
        raise ParamTallyError(
            say(
                "no report language '{language}' (there are {names})",
                language=language,
                names=", ".join(LANGUAGES),
            )
        )
    root = ET.parse(catalogue_path(language, name)).getroot()
    found: dict[str, str] = {}
    for context in root.iter("context"):
        if context.findtext("name") != wanted:
            continue
        for message in context.iter("message"):
            source, translation = message.findtext("source"), message.find("translation")
            if source is None or translation is None or translation.get("type") in ("unfinished", "obsolete"):
                continue
            found[source] = translation.text or ""
    return found


class Translator:
    """``t("{n} layers", n="96")``: the template in the report's language, filled in. A template
    without a translation is used in English and remembered in ``missing`` (a test reads it);
    ``name`` translates a name from the model (a tree node's) when the catalogue has it, else the
    window's words in it, and keeps the rest without counting it missing: names are open-ended."""

    def __init__(self, language: str = "en") -> None:
        self.language = language
        self.catalogue = _catalogue(language)
        self.sentences = _catalogue(language, "paramtally", SAID_CONTEXT)
        self.words = _window_words(language)
        self.missing: set[str] = set()

    def __call__(self, template: str, **values: Any) -> str:
        text = self.catalogue.get(template)
        if text is None:
            if self.language != "en":
                self.missing.add(template)
            text = template
        return text.format(**values) if values else text

    def name(self, text: str) -> str:
        """A name, a part's or a run's title: the report's catalogue's translation, else in the
        window's words ('window 1,024' → '窗口 1,024', 'no FFN', the scenario's line)."""
        found = self.catalogue.get(text)
        return found if found is not None else self.words(text)

    def said(self, text: str) -> str:
        """A sentence core said (a layout advice, a note: ``core.text.Said``) in the report's
        language, from the window's catalogue; any other text as a name."""
        return said_in(text, self.sentences.get, self.name)

    @property
    def html_lang(self) -> str:
        return self.language.replace("_", "-")
