"""A sentence core says, kept with its template so a window or a report can say it in another
language: ``say("KV heads ({g}) must divide the query heads ({a})", g=8, a=96)``.

A ``Said`` is the English sentence itself (a ``str``: the command line, logs and tests read it as
before) that also remembers its ``template`` and named ``fields``. Whoever shows it in another
language looks the template up in its catalogue and fills the same fields in — the window through
Qt's translator (``gui.i18n.core_text``, context ``Core``), the design report through its ``.ts``
reader (``core.io.report_i18n``); a field that is itself a ``Said`` is translated the same way.
Nothing matches a finished sentence. Numbers are formatted by the template (``{n:,}``), so they
keep their separators in every language.

``tools/build_translations.py`` finds every ``say("…")`` call in core by reading the code, so a
template must be a literal string there (implicit concatenation is fine, an f-string is not).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["CONTEXT", "Said", "said_in", "say"]

CONTEXT = "Core"  # the catalogues' context for core's sentences


class Said(str):
    """The English sentence, with the ``template`` and ``fields`` it was made from."""

    template: str
    fields: Mapping[str, Any]

    def __new__(cls, template: str, fields: Mapping[str, Any]) -> Said:
        said = super().__new__(cls, template.format(**fields) if fields else template)
        said.template, said.fields = template, dict(fields)
        return said

    def __reduce__(self) -> tuple[Any, ...]:  # pickled (a worker's result) as what it is
        return (Said, (self.template, self.fields))


def say(template: str, **fields: Any) -> Said:
    """``template`` filled with ``fields`` in English, translatable later as a whole."""
    return Said(template, fields)


def said_in(text: str, lookup: Callable[[str], str | None], plain: Callable[[str], str] = str) -> str:
    """``text`` in another language: a ``Said``'s template through ``lookup`` (None or "" when the
    catalogue has none: the English is kept), its fields said the same way; any other text through
    ``plain`` (a title or a name: kept by default). A translation whose fields do not fit its
    template (a translator's slip) falls back to English."""
    if not isinstance(text, Said):
        return plain(text)
    template = lookup(text.template) or text.template
    fields = {
        name: said_in(value, lookup, plain) if isinstance(value, str) else value
        for name, value in text.fields.items()
    }
    try:
        return template.format(**fields)
    except (KeyError, IndexError, ValueError):
        return str(text)
