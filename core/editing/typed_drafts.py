"""Values a person typed that do not fit yet ("drafts"), kept until a combination validates.

Changing a model often takes several fields at once: GPT-3 with hidden size 8192 needs 64 heads,
and whichever is typed first is refused on its own. So a refused value is not thrown away: it
stays a draft, shown in its field with the reason, and every later edit is tried together with
the drafts. ``settle`` applies the largest set of drafts that validates with the model (the
newest edit first among equals) and says why the rest still does not fit. The schema stays the
only judge: nothing here knows a rule.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from paramtally.core.editing.edits import FieldPath, with_field_values
from paramtally.core.errors import FieldError, ParamTallyError, field_problems, format_loc, one_line

__all__ = ["MAX_COMBINED", "Settled", "problems_of", "settle"]

Model = TypeVar("Model", bound=BaseModel)
# Up to this many drafts every subset is tried (2^6 = 64 validations, well under a millisecond
# each); beyond it only all of them together and each one alone.
MAX_COMBINED = 6
_REFUSED = (ValidationError, ParamTallyError, KeyError, IndexError, TypeError, ValueError)


@dataclass(frozen=True)
class Settled(Generic[Model]):
    """The valid model after the drafts that fit went in, the drafts left, and why they are left.

    ``problems`` maps a field path to its reason: each pending draft's, and the other field its
    rule names (hidden size vs heads), so both fields can say it.
    """

    model: Model
    applied: tuple[FieldPath, ...] = ()
    pending: dict[FieldPath, Any] = field(default_factory=dict)
    problems: dict[FieldPath, str] = field(default_factory=dict)


def _subsets(paths: list[FieldPath]) -> Iterator[tuple[FieldPath, ...]]:
    """Largest first; among equal sizes, those holding the newest edits (last in ``paths``) first."""
    newest_first = paths[::-1]
    if len(paths) <= MAX_COMBINED:
        for size in range(len(paths), 0, -1):
            yield from combinations(newest_first, size)
    else:
        yield tuple(newest_first)
        yield from ((path,) for path in newest_first)


def settle(model: Model, drafts: Mapping[FieldPath, Any]) -> Settled[Model]:
    """Apply the largest set of ``drafts`` that validates with ``model``; keep the rest pending."""
    paths = list(drafts)
    for subset in _subsets(paths):
        try:
            settled = with_field_values(model, {path: drafts[path] for path in subset})
        except _REFUSED:
            continue
        pending = {path: drafts[path] for path in paths if path not in subset}
        return Settled(settled, subset, pending, problems_of(settled, pending))
    pending = dict(drafts)
    return Settled(model, (), pending, problems_of(model, pending))


def _reasons(model: BaseModel, values: Mapping[FieldPath, Any]) -> list[tuple[FieldPath, str]]:
    """(field, reason) for each problem of ``model`` with ``values``; empty when they fit."""
    try:
        with_field_values(model, values)
    except ValidationError as exc:
        return field_problems(exc) or [((), one_line(exc))]
    except _REFUSED as exc:
        return [(exc.path, exc.reason) if isinstance(exc, FieldError) else ((), one_line(exc))]
    return []


def problems_of(model: BaseModel, pending: Mapping[FieldPath, Any]) -> dict[FieldPath, str]:
    """Why the pending drafts do not fit ``model``: at each draft, and at the field a rule names.

    The drafts are judged together (the fields show them together: hidden 8192 with heads 100
    is one problem, said at both); a draft that problem leaves out is judged alone.
    """
    if not pending:
        return {}  # nothing to judge: ``model`` is valid already (validating it again costs a whole pass)
    together = _reasons(model, pending)
    problems: dict[FieldPath, str] = {}
    for where, reason in together:
        if where:
            problems.setdefault(where, reason)
    for path, value in pending.items():
        if path in problems:
            continue
        without = {other: v for other, v in pending.items() if other != path}
        if together and without and _reasons(model, without) != together:
            problems[path] = together[0][1]  # taking it out changes the problem: it is part of it
            continue
        alone = _reasons(model, {path: value})
        if not alone:
            others = ", ".join(format_loc(other) for other in without)
            problems[path] = f"does not fit together with {others}"
            continue
        own = [reason for where, reason in alone if where == path]
        problems[path] = own[0] if own else alone[0][1]
        for where, reason in alone:
            if where:
                problems.setdefault(where, reason)
    return problems
