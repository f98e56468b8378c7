"""Per-layer facts of a config as compact layer groups: runs, and repeating patterns of runs.

Configs say which layers differ by rule (``attn_layer_period``, ``decoder_sparse_step``, every
n-th layer global) or by list (``layer_types``). A layer's *kind* is any hashable description of
how it differs from the base block; ``changes(kind)`` is that difference as a group override.
Rules are expanded one period at a time, so a billion layers cost what one period costs; a few
exceptional layers (``mlp_only_layers``) split the periodic spans around them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

__all__ = ["MAX_EXPANDED", "LayerRuleError", "groups_from_kinds", "periodic_groups"]

Group = dict[str, Any]
_MAX_PERIOD = 256  # longest repeating pattern looked for in an explicit per-layer list
# Layers a rule is ever written out for (one period, a short stack, a per-layer list): real
# periods are under ten layers and real stacks a few hundred; a config's number is not trusted.
MAX_EXPANDED = 1 << 16


class LayerRuleError(ValueError):
    """A rule or list that would have to be written out for more than ``MAX_EXPANDED`` layers."""


def _runs(kinds: Sequence[Hashable]) -> list[tuple[Hashable, int]]:
    runs: list[tuple[Hashable, int]] = []
    for kind in kinds:
        if runs and runs[-1][0] == kind:
            runs[-1] = (kind, runs[-1][1] + 1)
        else:
            runs.append((kind, 1))
    return runs


def _group(kind: Hashable, count: int, changes: Callable[[Any], Mapping[str, Any]]) -> Group:
    override = dict(changes(kind))
    return {"count": count, "override": override} if override else {"count": count}


def _explicit(kinds: Sequence[Hashable], changes: Callable[[Any], Mapping[str, Any]]) -> list[Group]:
    return [_group(kind, count, changes) for kind, count in _runs(kinds)]


def _pattern(
    one_period: Sequence[Hashable], repeats: int, changes: Callable[[Any], Mapping[str, Any]]
) -> list[Group]:
    runs = _runs(one_period)
    if len(runs) == 1:
        return [_group(runs[0][0], runs[0][1] * repeats, changes)]
    return [{"count": repeats, "pattern": [_group(kind, count, changes) for kind, count in runs]}]


def groups_from_kinds(kinds: Sequence[Hashable], changes: Callable[[Any], Mapping[str, Any]]) -> list[Group]:
    """Groups for an explicit list of per-layer kinds: a repeating pattern when one fits the
    whole list (a last repetition may be cut short), else runs."""
    n = len(kinds)
    _check_expanded(n, n)
    for period in range(2, min(_MAX_PERIOD, n // 2) + 1):
        if all(kinds[i] == kinds[i - period] for i in range(period, n)):
            repeats = n // period
            return _pattern(kinds[:period], repeats, changes) + _explicit(kinds[repeats * period :], changes)
    return _explicit(kinds, changes)


def periodic_groups(
    n: int,
    period: int,
    kind_of: Callable[[int], Hashable],
    changes: Callable[[Any], Mapping[str, Any]],
    exceptions: Mapping[int, Hashable] | None = None,
) -> list[Group]:
    """Groups for ``n`` layers whose kind depends on the layer index modulo ``period`` only,
    except the layers in ``exceptions``, which take their own kind."""
    cuts = sorted(i for i in (exceptions or {}) if 0 <= i < n)
    groups: list[Group] = []
    start = 0
    for cut in [*cuts, n]:
        groups += _span(start, cut, period, kind_of, changes)
        if cut < n:
            groups.append(_group((exceptions or {})[cut], 1, changes))
        start = cut + 1
    return _merge(groups)


def _span(
    first: int,
    stop: int,
    period: int,
    kind_of: Callable[[int], Hashable],
    changes: Callable[[Any], Mapping[str, Any]],
) -> list[Group]:
    """Layers [first, stop): the partial period before the first aligned one, whole periods, the rest."""
    if stop - first < 2 * period:
        _check_expanded(stop - first, period)
        return _explicit([kind_of(i) for i in range(first, stop)], changes)
    _check_expanded(3 * period, period)
    aligned = first + (-first % period)
    repeats = (stop - aligned) // period
    lead = _explicit([kind_of(i) for i in range(first, aligned)], changes)
    middle = _pattern([kind_of(aligned + i) for i in range(period)], repeats, changes)
    tail = _explicit([kind_of(i) for i in range(aligned + repeats * period, stop)], changes)
    return lead + middle + tail


def _merge(groups: list[Group]) -> list[Group]:
    """Join neighbouring plain groups of the same kind (split only by an exception's place)."""
    merged: list[Group] = []
    for group in groups:
        last = merged[-1] if merged else None
        plain = "pattern" not in group and last is not None and "pattern" not in last
        if plain and last is not None and last.get("override") == group.get("override"):
            last["count"] += group["count"]
        else:
            merged.append(dict(group))
    return merged


def _check_expanded(layers: int, period: int) -> None:
    if layers > MAX_EXPANDED:
        raise LayerRuleError(
            f"a layer rule repeating every {period:,} layers would be written out for {layers:,} "
            f"layers (at most {MAX_EXPANDED:,})"
        )
