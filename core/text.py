"""Text from files nobody vouches for: what a name may hold, and how any text is shown safely.

Three kinds of character make printed text lie or break: control characters (an escape
sequence recolours or rewrites a terminal, a newline forges a line, NUL cuts a C string),
bidirectional controls (U+202E turns ``gpt2.json`` into ``nosj.2tpg``: Trojan Source,
CVE-2021-42574) and lone surrogates (half of a UTF-16 pair: no UTF-8 encoder writes one, so a
name holding one crashed every output). A name refuses them all; a description keeps line
breaks and tabs; everything printed shows them as escapes (``\\x1b``, ``\\u202e``, ``\\ud800``).

Core's own sentences are text too: each is said with its template, so a window or a report can say
it in another language: ``say("KV heads ({g}) must divide the query heads ({a})", g=8, a=96)``.

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

import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import Annotated, Any

from pydantic import AfterValidator

__all__ = [
    "CONTEXT",
    "Line",
    "Said",
    "Text",
    "character_name",
    "escaped",
    "first_unsafe",
    "json_text",
    "message_line",
    "one_line_name",
    "said_in",
    "say",
    "word_swapper",
]

# C0 and C1 controls, DEL, the bidirectional embeddings, overrides, isolates and marks, and
# every surrogate (a str only holds a lone one: the JSON decoder joins a pair).
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_WORDS = {"\n": "a line break", "\r": "a carriage return", "\t": "a tab", "\x00": "a NUL byte"}


def first_unsafe(text: str, allowed: str = "") -> int | None:
    """The index of the first character ``text`` may not hold (``allowed`` aside), or None."""
    for match in _UNSAFE.finditer(text):
        if match.group() not in allowed:
            return match.start()
    return None


def character_name(char: str) -> str:
    """'U+202E (RIGHT-TO-LEFT OVERRIDE)', 'U+000A (a line break)', 'U+D800 (a lone surrogate)'."""
    code = f"U+{ord(char):04X}"
    if char in _WORDS:
        return f"{code} ({_WORDS[char]})"
    if "\ud800" <= char <= "\udfff":
        return f"{code} (a lone surrogate, half of a UTF-16 pair)"
    name = unicodedata.name(char, "")
    return f"{code} ({name})" if name else f"{code} (a control character)"


def escaped(text: str, keep: str = "\n\t") -> str:
    """``text`` with each unsafe character but those in ``keep`` as an escape (``\\x1b``, ``\\u202e``)."""
    return _UNSAFE.sub(lambda match: _escape(match.group(), keep), text)


def _escape(char: str, keep: str) -> str:
    if char in keep:
        return char
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte no encoding could read, as os.fsdecode keeps it: that byte
        code -= 0xDC00
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


_LONG_WORD = re.compile(r"\S{161,}")


def message_line(text: str) -> str:
    """A message as one printable line of a readable length: every unsafe character escaped and
    a word of more than 160 characters (a 5,000-character path typed, a name from a file) shown
    by its first 60 and last 80 around an ellipsis."""
    return _LONG_WORD.sub(lambda match: f"{match.group()[:60]}…{match.group()[-80:]}", escaped(text, keep=""))


def json_text(data: object, indent: int | None = 2, separators: tuple[str, str] | None = None) -> str:
    """``data`` as JSON that is safe to print and to write: a figure that is not finite is a bug,
    refused (``Infinity`` is not JSON), and the characters above are JSON escapes (``\\u202e``),
    so the data reads back exactly (json escapes the C0 controls itself, not DEL, C1 or U+202E)."""
    import json  # late: most text never becomes JSON

    try:
        text = json.dumps(data, indent=indent, separators=separators, ensure_ascii=False, allow_nan=False)
    except ValueError as exc:  # "Out of range float values are not JSON compliant"
        raise ValueError(f"a figure is not a finite number ({exc})") from None
    # Only its own line breaks are left raw: json.dumps wrote every C0 control in a string as an escape.
    return _UNSAFE.sub(lambda match: _json_escape(match.group()), text)


def _json_escape(char: str) -> str:
    return char if char == "\n" else f"\\u{ord(char):04x}"


def one_line_name(text: str, limit: int) -> str:
    """``text`` made a name a model may carry: escapes for what a name refuses, cut to ``limit``
    characters (a folder's or a GGUF file's own name becomes a model's name)."""
    name = escaped(text, keep="")
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _checked(allowed: str, what: str) -> AfterValidator:
    def check(text: str) -> str:
        at = first_unsafe(text, allowed)
        if at is not None:
            raise ValueError(f"holds {character_name(text[at])} at character {at + 1:,}; {what}")
        return text

    return AfterValidator(check)


# A name, a family, a block's name: one line of text, shown as it is wherever it goes.
Line = Annotated[str, _checked("", "a name is one line of printable text")]
# A description: lines of printable text (line breaks and tabs kept).
Text = Annotated[str, _checked("\n\t", "a description is printable text")]

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


def word_swapper(words: Mapping[str, str]) -> Callable[[str], str]:
    """A line core composed of titles and a few words ('layers 0–11 (window 1,024)', 'inference,
    weights bf16, context 2,048') with each word of ``words`` put in its translation, longest
    first; names, numbers and units stay. The window (``gui.i18n.core_text``) and the design report
    say such lines through the same words. Whole words only (not 'no' in 'norms'), never a piece
    of a field path ('mixer' in 'blocks.default.mixer.num_heads' stays)."""
    # A word its translation keeps as it is ('Gated DeltaNet', a method's name) stays a word of its
    # own: matched whole, it keeps a shorter one inside it ('Gated' → 门控) from being put in Chinese.
    known = {text: said or text for text, said in words.items() if text}
    if all(said == text for text, said in known.items()):
        return str  # no translation: the text stays English
    alternatives = "|".join(re.escape(text) for text in sorted(known, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w.-])(?:{alternatives})(?![\w-]|\.\w)")
    return lambda text: pattern.sub(lambda found: known[found.group(0)], text)
