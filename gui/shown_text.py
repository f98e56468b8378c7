"""Free text from a file (a model's name, family, description, a block's name, a path) as a widget
shows it.

A file may hold a name of four megabytes, NUL bytes, lone surrogates or a right-to-left override,
and a file's own name may too (Linux allows any byte but '/'). Qt lays out every character it is
given, in each title, tooltip and chart: a pyqtgraph title of 300,000 characters took 19 s to wrap
(issue 30). ``shown`` hands a widget at most ``limit`` characters, whatever the text's length, with
the characters that would reorder, break or hide the text around them written out as escapes
(``\\u202e``), as Python's ``repr`` does; Qt itself drops a lone surrogate without a word.
"""

from __future__ import annotations

import re

__all__ = ["MESSAGE_CHARS", "PATH_CHARS", "SHOWN_CHARS", "TITLE_CHARS", "shown"]

SHOWN_CHARS = 120  # a name or a label; real model names are under 80
TITLE_CHARS = 60  # a name in a chart's title, which wraps it over a few lines at most
PATH_CHARS = 160  # a path, elided in the middle: its folder's start and its file's name stay
MESSAGE_CHARS = 1500  # a message in a dialog or the status bar (core quotes a file's text in some)

# C0 and C1 controls (NUL, newline, escape…), the bidirectional marks, embeddings, overrides and
# isolates (Unicode TR9), the line and paragraph separators, and lone surrogates.
_FORMATS = "\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff"
_UNSAFE = re.compile(f"[\x00-\x1f{_FORMATS}]")
_UNSAFE_IN_LINES = re.compile(f"[\x00-\x09\x0b-\x1f{_FORMATS}]")  # all but the newline


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(text: str, limit: int = SHOWN_CHARS, *, lines: bool = False, middle: bool = False) -> str:
    """``text`` with unsafe characters escaped, cut to ``limit`` characters with '…' when longer:
    its end cut off, or with ``middle`` its middle (a path). With ``lines`` newlines stay (a
    dialog's message). Costs the same for a text of any length: at most ``limit`` of its
    characters are read."""
    unsafe = _UNSAFE_IN_LINES if lines else _UNSAFE
    if len(text) <= limit:
        safe = unsafe.sub(_escape, text)
        if len(safe) <= limit:
            return safe
    if not middle:
        return unsafe.sub(_escape, text[:limit])[: limit - 1] + "…"
    half = max((limit - 1) // 2, 1)
    head = unsafe.sub(_escape, text[:half])[:half]
    tail = unsafe.sub(_escape, text[-half:])[-half:]
    return f"{head}…{tail}"
