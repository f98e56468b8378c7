"""The pattern helper's line, typed by anyone: it makes groups or says why not, in bounded time and
memory (a count of 10⁹ once made the window write out 10⁹ layers before refusing them)."""

from __future__ import annotations

import tracemalloc

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from paramtally.core.editing import patterns
from paramtally.core.editing.patterns import PatternError
from paramtally.core.io.model_sources import load_source
from tests.hypothesis_budget import examples

_LLAMA = load_source("llama-3-8b")
_KINDS = ["attention", "mla", "mamba", "mamba2", "deltanet", "local", "global", "moe", "mamba+moe", "bogus"]
_COUNTS = st.sampled_from(["0", "1", "3", "4096", "4097", "3000000", "1000000000", "9" * 30])
_TIMES = st.sampled_from([" x ", " × ", "*", " x", ""])


def _item() -> st.SearchStrategy[str]:
    one = st.tuples(st.sampled_from(_KINDS), _TIMES, _COUNTS).map("".join)
    return st.recursive(
        one, lambda inner: st.tuples(st.lists(inner, min_size=1, max_size=3).map(", ".join), _TIMES, _COUNTS)
        .map(lambda parts: f"[{parts[0]}]{parts[1]}{parts[2]}"), max_leaves=6,
    )  # fmt: skip


_CLAUSES = st.one_of(
    _item(),
    st.tuples(_COUNTS, _COUNTS).map(lambda n: f"{n[0]} local : {n[1]} global, window 1024"),
    st.tuples(st.sampled_from(["moe", "dense", "mamba"]), _COUNTS).map(lambda p: f"{p[0]} every {p[1]}th"),
    st.lists(st.sampled_from([*_KINDS, "[", "]", ",", ";", ":", "x", "every", "window", "4096"]), max_size=12)
    .map(" ".join),
)  # fmt: skip


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_CLAUSES, min_size=1, max_size=3).map("; ".join))
@example("attention x 1000000000")  # the window froze for 80 s and took 16 GB
@example("[attention x 300000000]")
@example("100000000 local : 1 global, window 1024")
@example("attention x " + "9" * 5000)  # past the 4,300 digits Python reads
def test_any_line_makes_groups_or_is_refused_in_bounded_memory(text: str) -> None:
    tracemalloc.start()
    try:
        try:
            pattern = patterns.parse(text)
            groups = patterns.expand(pattern, _LLAMA.blocks["default"], _LLAMA.hidden_size, 32)
        except PatternError as refused:
            assert str(refused)  # said in words
        else:
            assert groups and sum(group.layers for group in groups) >= 1
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20, (text, peak)  # bytes: a 4,096-layer repetition at most
