"""Errors a person can read: every message names the field or file it is about."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

__all__ = [
    "FieldProblem",
    "ParamTallyError",
    "ParamTallyWarning",
    "field_error",
    "field_problems",
    "format_loc",
    "one_line",
    "shown",
    "unknown_name",
]


class ParamTallyError(Exception):
    """A problem with the user's input, said in one line; never a bug."""


class ParamTallyWarning(UserWarning):
    """Part of a user's file was skipped (the rest still works): say it once, in one line."""


FieldProblem = tuple[str, str]  # (dotted field path, reason)


def format_loc(loc: Sequence[str | int]) -> str:
    return ".".join(str(part) for part in loc)


def field_error(title: str, loc: tuple[str | int, ...], message: str, value: Any) -> ValidationError:
    """A ValidationError that points at ``loc`` (pydantic's model validators cannot)."""
    detail = InitErrorDetails(type=PydanticCustomError("consistency", message), loc=loc, input=value)
    return ValidationError.from_exception_data(title, [detail])


def field_problems(exc: ValidationError) -> list[FieldProblem]:
    """Each error as (field path, reason), dropping pydantic's union-branch noise."""
    problems: list[FieldProblem] = []
    for error in exc.errors(include_url=False):
        loc = [part for part in error["loc"] if not _is_union_tag(part)]
        problems.append((format_loc(loc), error["msg"]))
    return problems


def one_line(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        path, reason = field_problems(exc)[0]
        more = len(exc.errors()) - 1
        suffix = f" (and {more} more)" if more > 0 else ""
        return f"{path}: {reason}{suffix}" if path else f"{reason}{suffix}"
    return str(exc)


def shown(value: Any, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters: a message quotes input, never all of it."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def unknown_name(kind: str, name: str, known: Sequence[str], hint: str = "") -> str:
    """ "unknown preset 'lama-3-8b' (did you mean llama-3-8b?)": the closest known names, if any."""
    from difflib import get_close_matches  # late: only on this error path

    close = get_close_matches(name.casefold(), [item.casefold() for item in known], n=3, cutoff=0.6)
    by_folded = {item.casefold(): item for item in known}
    names = [by_folded[item] for item in close]
    suggestion = " or ".join(filter(None, (", ".join(names[:-1]), names[-1] if names else "")))
    tail = f"did you mean {suggestion}?" if suggestion else hint
    return f"unknown {kind} '{name}'" + (f" ({tail})" if tail else "")


def _is_union_tag(part: str | int) -> bool:
    # pydantic puts the chosen union member's type name in the path, e.g. "MoE" or "int".
    return isinstance(part, str) and (part[:1].isupper() or part in {"int", "none", "function-after"})
