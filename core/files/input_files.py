"""Reading files ParamTally does not trust (every file it reads): one opener, one JSON loader.

Presets, ``config.json``, the user's ``gpus.json``, a checkpoint's index and headers all come
from elsewhere (downloads, other people, a damaged disk), so each is read the same guarded way:

- only a regular file is opened (a FIFO would block forever, ``/dev/zero`` never ends), checked
  with ``os.stat`` before opening and again on the open descriptor, opened without blocking;
- its size is checked against the caller's limit before a byte is read;
- the JSON may nest at most ``MAX_DEPTH`` levels, an integer may have at most ``MAX_INT_DIGITS``
  digits, a number must be finite, an object may not repeat a key (JSON leaves that
  undefined; Python would silently keep the last one), and no text may hold a lone surrogate
  (``"\ud800"``: valid JSON, but not text any UTF-8 output can write).

Every refusal is one ``ParamTallyError`` line that names the file, and the key where one is known.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any, BinaryIO

from paramtally.core.errors import ParamTallyError
from paramtally.core.text import character_name, escaped, say

__all__ = [
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "UnusableJSON",
    "file_kind",
    "load_json_file",
    "open_regular",
    "parse_json",
    "read_regular_file",
    "typed_path",
]

MAX_DEPTH = 64  # a preset nests 4 levels, a config.json 5; no real file comes near
MAX_INT_DIGITS = 30  # 2⁶⁴ has 20 digits; Python itself refuses 4,300 (with a ValueError)

_OPEN_FLAGS = (
    os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
)
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISLNK, "a symbolic link"),
)


class UnusableJSON(ParamTallyError):
    """Valid JSON refused for what it holds: a lone surrogate, too many keys."""


def typed_path(text: str) -> Path:
    """A path as a person typed it, ``~`` expanded (left as typed for an unknown user, where
    ``Path.expanduser`` raises). Ask it ``os.path.exists``/``isdir``, which answer False for a
    name too long or holding NUL where ``Path.exists`` raises (before Python 3.12)."""
    return Path(os.path.expanduser(text))


def file_kind(mode: int) -> str:
    """What a non-regular file is, in words ('a FIFO (named pipe)')."""
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def open_regular(path: Path, origin: str | None = None, *, nofollow: bool = False) -> BinaryIO:
    """``path`` opened for reading if it is a regular file; the caller closes it.

    ``nofollow`` refuses a symbolic link as the last component (for a path already resolved).
    """
    name = origin or path.name
    flags = _OPEN_FLAGS | (getattr(os, "O_NOFOLLOW", 0) if nofollow else 0)
    try:
        _check_regular(os.stat(path, follow_symlinks=not nofollow).st_mode, name)
        descriptor = os.open(path, flags)
    except OSError as exc:
        raise ParamTallyError(
            say("{name}: cannot read ({why})", name=name, why=exc.strerror or exc)
        ) from None
    try:
        _check_regular(os.fstat(descriptor).st_mode, name)  # it may have been swapped since the stat
    except BaseException:
        os.close(descriptor)
        raise
    return os.fdopen(descriptor, "rb")


def read_regular_file(path: Path, limit: int, origin: str | None = None, *, nofollow: bool = False) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes."""
    name = origin or path.name
    with open_regular(path, name, nofollow=nofollow) as stream:
        try:
            _check_size(os.fstat(stream.fileno()).st_size, limit, name)
            data = stream.read(limit + 1)
        except OSError as exc:
            raise ParamTallyError(
                say("{name}: cannot read ({why})", name=name, why=exc.strerror or exc)
            ) from None
    _check_size(len(data), limit, name)  # it grew while being read
    return data


def load_json_file(
    path: Path, limit: int, origin: str | None = None, *, nofollow: bool = False, max_keys: int | None = None
) -> Any:
    """The JSON document in ``path`` (a regular file of at most ``limit`` bytes), guarded."""
    name = origin or path.name
    return parse_json(read_regular_file(path, limit, name, nofollow=nofollow), name, max_keys)


def parse_json(data: bytes | str, origin: str, max_keys: int | None = None) -> Any:
    """Decode UTF-8 JSON (a BOM is tolerated) within the depth, digit and key rules above; with
    ``max_keys``, a file of more keys is refused before it is decoded (each costs the decoder a
    few hundred bytes however short its text: 58 MB of index took 0.6 GB)."""
    if max_keys is not None:
        _check_keys(data, max_keys, origin)
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ParamTallyError(
                say("{origin}: not UTF-8 text (byte {at})", origin=origin, at=exc.start)
            ) from None
    else:
        text = data.removeprefix("\ufeff")
    if _nested_too_deep(text):
        raise ParamTallyError(
            say("{origin}: nested more than {most} levels deep", origin=origin, most=MAX_DEPTH)
        )
    try:
        value = json.loads(
            text,
            object_pairs_hook=_object,
            parse_int=_integer,
            parse_float=_float,
            parse_constant=_constant,
        )
    except _Refused as exc:
        raise ParamTallyError(say("{path}: {reason}", path=origin, reason=exc.describe(text))) from None
    except json.JSONDecodeError as exc:
        # Some of json's messages end in "at" ("Unterminated string starting at"): the place follows.
        where = f"at line {exc.lineno}, column {exc.colno}"
        raise ParamTallyError(
            say(
                "{origin}: not valid JSON ({why} {where})",
                origin=origin,
                why=exc.msg.removesuffix(" at"),
                where=where,
            )
        ) from None
    except RecursionError:
        raise ParamTallyError(
            say("{origin}: nested more than {most} levels deep", origin=origin, most=MAX_DEPTH)
        ) from None
    _check_depth(value, origin)
    if _SURROGATE_ESCAPE.search(text) or (isinstance(data, str) and _SURROGATE.search(text)):
        _check_surrogates(value, origin)
    return value


# --- internals -------------------------------------------------------------------------------------


_KEY_END = re.compile(rb'"[ \t\r\n]*:')  # a key's closing quote and its colon (or a string's text)


def _check_keys(data: bytes | str, most: int, origin: str) -> None:
    """Refuse more than ``most`` keys, counted as quotes followed by a colon (an upper bound: a
    string may hold '\":' too); counting stops at ``most`` + 1."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    keys = sum(1 for _ in itertools.islice(_KEY_END.finditer(raw), most + 1))
    if keys > most:
        raise UnusableJSON(f"{origin}: holds more than {most:,} keys, more than any such file has")


def _check_regular(mode: int, name: str) -> None:
    if not stat.S_ISREG(mode):
        raise ParamTallyError(say("{name}: {kind}, not a regular file", name=name, kind=file_kind(mode)))


def _check_size(size: int, limit: int, name: str) -> None:
    if size > limit:
        raise ParamTallyError(
            say(
                "{name}: {size:,} bytes or more is larger than the {limit:,} allowed",
                name=name,
                size=size,
                limit=limit,
            )
        )


class _Refused(ValueError):
    """Raised inside the decoder's hooks; ``token`` locates the key in the text afterwards."""

    def __init__(self, message: str, token: str = "", key: str = "") -> None:
        super().__init__(message)
        self.message, self.token, self.key = message, token, key

    def describe(self, text: str) -> str:
        key = self.key or _key_before(text, self.token)
        return say("{path}: {reason}", path=key, reason=self.message) if key else self.message


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Refused(say("given twice in one object (which one is meant?)"), key=key)
            seen.add(key)
    return obj


def _integer(token: str) -> int:
    digits = len(token.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise _Refused(
            say("an integer of {digits:,} digits (at most {most})", digits=digits, most=MAX_INT_DIGITS), token
        )
    return int(token)


def _float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise _Refused(say("the number {token} is out of range", token=token[:40]), token)
    return value


def _constant(token: str) -> float:
    raise _Refused(say("{token} is not a number JSON allows", token=token), token)


_KEY_BEFORE = re.compile(r'"((?:[^"\\]|\\.){1,200})"\s*:\s*\[?\s*$')


def _key_before(text: str, token: str) -> str:
    """The object key right before the first occurrence of ``token`` (error path only)."""
    at = text.find(token) if token else -1
    match = _KEY_BEFORE.search(text[max(0, at - 300) : at]) if at > 0 else None
    return match.group(1) if match else ""


_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")  # "\ud800" written as an escape


def _check_surrogates(value: Any, origin: str) -> None:
    """Refuse the first key or text holding a lone surrogate (the decoder joined every pair)."""
    pending: list[tuple[Any, str]] = [(value, "")]
    while pending:
        node, key = pending.pop()
        if isinstance(node, str) and (found := _SURROGATE.search(node)):
            place = f"{_shown_key(key)}: " if key else ""
            raise UnusableJSON(f"{origin}: {place}holds {character_name(found.group())}, which is not text")
        if isinstance(node, dict):
            for name, child in node.items():
                if found := _SURROGATE.search(name):
                    what = character_name(found.group())
                    raise UnusableJSON(
                        f"{origin}: the key {_shown_key(name)} holds {what}, which is not text"
                    )
                pending.append((child, name))
        elif isinstance(node, list):
            pending.extend((child, key) for child in node)


def _shown_key(key: str) -> str:
    """A key as a message quotes it: a lone surrogate or a control character in it escaped."""
    text = escaped(key, keep="")
    return text if len(text) <= 80 else text[:79] + "…"


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')  # unrolled: a tenth of the time
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def _nested_too_deep(text: str) -> bool:
    """Deeper than ``MAX_DEPTH``, judged from the brackets outside strings before json decodes:
    its decoder recurses once a level, and a document nested to Python's recursion limit left
    the stack too short for anything watching the process (a profiler's hook failed at it).
    Each pass drops the innermost empty pairs, one level; a pass that drops nothing means the
    brackets do not match, and the decoder says where."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:  # an index's few: nothing to scan
        return False
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    for dropped in range(MAX_DEPTH):
        if len(brackets) <= 2 * (MAX_DEPTH - dropped):  # too few left to nest past the bound
            return False
        shorter = brackets.replace("[]", "").replace("{}", "")
        if len(shorter) == len(brackets):
            return False
        brackets = shorter
    return bool(brackets)


def _check_depth(value: Any, origin: str) -> None:
    pending = [(value, 1)] if isinstance(value, dict | list) else []
    while pending:
        node, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise ParamTallyError(
                say("{origin}: nested more than {most} levels deep", origin=origin, most=MAX_DEPTH)
            )
        for child in node.values() if isinstance(node, dict) else node:
            if isinstance(child, dict | list):
                pending.append((child, depth + 1))
