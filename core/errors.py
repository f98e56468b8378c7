"""Errors a person can read: every message names the field or file it is about."""

from __future__ import annotations

import re
import typing
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails, InitErrorDetails, PydanticCustomError

from paramtally.core.text import Said, say

__all__ = [
    "FieldError",
    "FieldPath",
    "FieldProblem",
    "ParamTallyError",
    "ParamTallyWarning",
    "close_names",
    "field_error",
    "field_problems",
    "format_loc",
    "one_line",
    "plain_reason",
    "register_union_tags",
    "shown",
    "unknown_name",
    "without_union_tags",
]


class ParamTallyError(Exception):
    """A problem with the user's input, said in one line; never a bug."""


FieldPath = tuple[str | int, ...]  # a field named by its keys from the model down


class FieldError(ParamTallyError):
    """A refusal that belongs to one field: ``path`` and ``reason`` apart, "path: reason" as a line."""

    def __init__(self, path: FieldPath, reason: str) -> None:
        super().__init__(say("{path}: {reason}", path=format_loc(path), reason=reason) if path else reason)
        self.path, self.reason = path, reason


class ParamTallyWarning(UserWarning):
    """Part of a user's file was skipped (the rest still works): say it once, in one line."""


FieldProblem = tuple[FieldPath, str]  # (field path, reason)


def format_loc(loc: Sequence[str | int]) -> str:
    """A field path as people read it in a message: ``blocks.default.mixer.num_heads``."""
    return ".".join(str(part) for part in loc)


def field_error(title: str, loc: tuple[str | int, ...], message: str, value: Any) -> ValidationError:
    """A ValidationError that points at ``loc`` (pydantic's model validators cannot)."""
    # The sentence rides in the context too: pydantic keeps only its text as the message.
    error = PydanticCustomError("consistency", message, {"said": message})
    detail = InitErrorDetails(type=error, loc=loc, input=value)
    return ValidationError.from_exception_data(title, [detail])


def field_problems(exc: ValidationError) -> list[FieldProblem]:
    """Each error as (field path, reason in plain words), dropping pydantic's union-branch noise.

    A tuple whose item is refused is also called "too short" by pydantic (it counts only the
    valid items); that echo is dropped when the item's own error is there.
    """
    errors = exc.errors(include_url=False)
    locs = [without_union_tags(error["loc"]) for error in errors]
    problems: list[FieldProblem] = []
    for error, loc in zip(errors, locs, strict=True):
        echo = error["type"] == "too_short" and any(
            len(other) > len(loc) and other[: len(loc)] == loc for other in locs
        )
        if echo:
            continue
        if loc[-1:] == ("[key]",):  # a mapping's key refused: the mapping is the field, the key its value
            reason = say("the name {name} {reason}", name=shown(loc[-2], 60), reason=plain_reason(error))
            problems.append((loc[:-2], reason))
        elif error["type"] in ("union_tag_invalid", "union_tag_not_found"):  # the tag is a field of its own
            tag = str((error.get("ctx") or {}).get("discriminator", "kind")).strip("'")
            problems.append(((*loc, tag), plain_reason(error)))
        else:
            problems.append((loc, plain_reason(error)))
    return problems


def _limit(value: object) -> str:
    """A bound as the help text writes it: 16,777,216 (an int with thousands separators)."""
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _entries(number: object) -> str:
    return say("1 entry") if number == 1 else say("{n} entries", n=number)


# pydantic's error type → the same reason in plain words (pydantic says "Input should be …").
_PLAIN: dict[str, Callable[[dict[str, Any]], str]] = {
    "greater_than": lambda ctx: say("must be more than {limit}", limit=_limit(ctx["gt"])),
    "greater_than_equal": lambda ctx: say("must be at least {limit}", limit=_limit(ctx["ge"])),
    "less_than": lambda ctx: say("must be less than {limit}", limit=_limit(ctx["lt"])),
    "less_than_equal": lambda ctx: say("must be at most {limit}", limit=_limit(ctx["le"])),
    "finite_number": lambda ctx: say("must be a finite number"),
    "too_short": lambda ctx: say("needs at least {entries}", entries=_entries(ctx["min_length"])),
    "too_long": lambda ctx: say("takes at most {entries}", entries=_entries(ctx["max_length"])),
    "int_parsing": lambda ctx: say("must be a whole number"),
    "int_type": lambda ctx: say("must be a whole number"),
    "int_from_float": lambda ctx: say("must be a whole number"),
    "float_parsing": lambda ctx: say("must be a number"),
    "float_type": lambda ctx: say("must be a number"),
    "bool_parsing": lambda ctx: say("must be true or false"),
    "bool_type": lambda ctx: say("must be true or false"),
    "string_type": lambda ctx: say("must be text"),
    "string_too_long": lambda ctx: say("takes at most {limit} characters", limit=_limit(ctx["max_length"])),
    "string_too_short": lambda ctx: say("needs at least {limit} characters", limit=_limit(ctx["min_length"])),
    "string_pattern_mismatch": lambda ctx: say("is not in the form this field takes"),
    # field_problems puts the tag's field (kind) in the path: "mixer.kind: must be one of …"
    "union_tag_invalid": lambda ctx: say(
        "must be one of {expected}, not '{tag}'", expected=ctx["expected_tags"], tag=ctx["tag"]
    ),
    "union_tag_not_found": lambda ctx: say("is required"),
    "string_unicode": lambda ctx: say("holds a lone surrogate (half of a UTF-16 pair), which is not text"),
    "literal_error": lambda ctx: _one_of(ctx["expected"]),
    "missing": lambda ctx: say("is required"),
    "extra_forbidden": lambda ctx: say("is not a known setting"),
    "model_type": lambda ctx: say("must be a group of settings (a JSON object)"),
    "model_attributes_type": lambda ctx: say("must be a group of settings (a JSON object)"),
    "dict_type": lambda ctx: say("must be a group of settings (a JSON object)"),
    "tuple_type": lambda ctx: say("must be a list"),
    "list_type": lambda ctx: say("must be a list"),
}


def _one_of(expected: str) -> str:
    """pydantic lists every choice; a long list (26 activations) is named by a few and its size."""
    names = re.findall(r"'([^']*)'", expected)
    if len(names) <= 8:
        return say("must be one of {expected}", expected=expected)
    return say("must be a known name ({names}, … {n} in all)", names=", ".join(names[:5]), n=len(names))


def plain_reason(error: ErrorDetails) -> str:
    """One pydantic error's reason as a person would say it; our own rules keep their words."""
    context = error.get("ctx") or {}
    if isinstance(context.get("said"), Said):  # our own rule's sentence (``field_error``)
        return typing.cast(str, context["said"])
    raised = context.get("error")  # a validator's ValueError(say(…))
    if isinstance(raised, ValueError) and raised.args and isinstance(raised.args[0], Said):
        return typing.cast(str, raised.args[0])
    plain = _PLAIN.get(error["type"])
    if plain is not None:
        try:
            reason = plain(dict(error.get("ctx") or {}))
        except KeyError:  # a context without the expected key: pydantic's words are still right
            return error["msg"].removeprefix("Value error, ")
        if error["type"] == "literal_error" and isinstance(error.get("input"), str):
            return say("{reason}, not '{value}'", reason=reason, value=error["input"])
        return reason
    # Our own rules' words, or pydantic's for a rare case, said as the rules above say theirs.
    return error["msg"].removeprefix("Value error, ").replace("Input should be ", "must be ")


def one_line(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        problems = field_problems(exc) or [((), str(exc))]
        path, reason = problems[0]
        more = len(problems) - 1
        if more > 0:
            reason = say("{reason} (and {more} more)", reason=reason, more=more)
        return say("{path}: {reason}", path=format_loc(path), reason=reason) if path else reason
    # The sentence itself when core said one (``str(exc)`` would be its English copy).
    return exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], Said) else str(exc)


def shown(value: Any, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters: a message quotes input, never all of it."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def close_names(name: str, known: Sequence[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    """The known names closest to ``name`` (letter case aside), closest first: those it begins,
    shortest first ('bert-base' is the start of bert-base-uncased, which difflib's ratio ranked
    below bart-base, roberta-base and t5-base, and left out), then difflib's nearest."""
    from difflib import get_close_matches  # late: only on an error path

    folded = name.casefold()
    by_folded = {item.casefold(): item for item in known}
    begun = sorted((item for item in by_folded if len(folded) >= 3 and item.startswith(folded)), key=len)
    close = get_close_matches(folded, list(by_folded), n=n, cutoff=cutoff)
    return [by_folded[item] for item in dict.fromkeys([*begun, *close])][:n]


def unknown_name(kind: str, name: str, known: Sequence[str], hint: str = "") -> str:
    """ "unknown preset 'lama-3-8b' (did you mean llama-3-8b?)": the closest known names, if any."""
    names = close_names(name, known)
    suggestion = (
        say("{one} or {other}", one=", ".join(names[:-1]), other=names[-1])
        if len(names) > 1
        else "".join(names)
    )
    if suggestion:
        return say("unknown {kind} '{name}' (did you mean {names}?)", kind=kind, name=name, names=suggestion)
    if hint:
        return say("unknown {kind} '{name}' ({hint})", kind=kind, name=name, hint=hint)
    return say("unknown {kind} '{name}'", kind=kind, name=name)


def without_union_tags(loc: Sequence[str | int]) -> FieldPath:
    """A pydantic error location as a field path (the union members it names taken out)."""
    return tuple(part for part in loc if not _is_union_tag(part))


# The discriminator values of the schema's tagged unions: the kinds' tags, which ``core.blocks``
# registers as it defines them. errors sits below every layer and names no kind; no error can name a
# kind's tag before that kind is defined.
_UNION_TAGS: set[str] = set()


def register_union_tags(tags: Iterable[str]) -> None:
    """Take ``tags`` for discriminator values that pydantic puts in an error's path."""
    _UNION_TAGS.update(tags)


def _is_union_tag(part: str | int) -> bool:
    # pydantic puts the chosen union member in the path: a discriminator value ("attention" in
    # "mixer.attention.num_heads") or a type name ("MoE", "int").
    return isinstance(part, str) and (
        part[:1].isupper() or part in {"int", "none", "function-after"} or part in _UNION_TAGS
    )
