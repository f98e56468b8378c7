"""Advice that stops nothing: sizes that run badly on GPUs, a context beyond the model's positions.

A hint never refuses a value (the model counts the same); the window shows it amber at the
field, the CLI prints it as ``paramtally: warning: …``. Why these sizes:

- Matrix widths that are multiples of 64 fill the tensor cores' tiles; other widths leave
  part of every tile idle (NVIDIA, "Matrix Multiplication Background User's Guide", and the
  padding of GPT-2's vocabulary from 50,257 to 50,304 rows in Karpathy's nanoGPT, reported
  as its largest single speed-up). 128 is better still on recent GPUs.
- FlashAttention's kernels need a head width that is a multiple of 8 (Dao et al. 2022).
- A model has seen positions up to its maximum only: a learned table has no rows beyond it,
  and rotary positions extrapolate badly without scaling.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator

from paramtally.core.errors import ParamTallyWarning
from paramtally.core.schema import Architecture

__all__ = ["TILE", "architecture_hints", "context_hint", "hints", "warn_hints"]

TILE = 64  # the multiple the widths should be; 128 is named as better
HEAD_MULTIPLE = 8

Hints = dict[str, str]  # field path → advice


def _round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


def _tile_hint(what: str, value: int) -> str | None:
    if value % TILE == 0:
        return None
    return (
        f"{what} {value:,} is not a multiple of {TILE}, so GPU matrix tiles run partly idle; "
        f"{_round_up(value, TILE):,} would be (a multiple of 128 is better still)"
    )


def _widths(arch: Architecture) -> Iterator[tuple[str, str, int]]:
    """(field path, what it is, width) of every matrix width a person sets."""
    yield "hidden_size", "The hidden size", arch.hidden_size
    if any(group.moe is None for group in arch.layers):
        yield "ffn.width", "The FFN width", arch.ffn.width
    for index, group in enumerate(arch.layers):
        if group.moe is not None:
            yield f"layers.{index}.moe.expert_width", "The expert width", group.moe.expert_width


def architecture_hints(arch: Architecture) -> Hints:
    found: Hints = {}
    for path, what, width in _widths(arch):
        advice = _tile_hint(what, width)
        if advice is not None:
            found.setdefault(path, advice)
    vocab = arch.embeddings.vocab_size + arch.added_vocab
    if vocab % TILE:
        padded, better = _round_up(vocab, TILE), _round_up(vocab, 128)
        found["embeddings.vocab_size"] = (
            f"The vocabulary ({vocab:,} rows) is not padded to a multiple of {TILE}, so the embedding "
            f"and head matmuls run slower; pad it to {padded:,}"
            + (" (a multiple of 128 too)" if padded == better else f" (or {better:,}, a multiple of 128)")
        )
    if arch.attention.kind == "standard" and arch.head_dim % HEAD_MULTIPLE:
        path = "attention.head_dim" if arch.attention.head_dim else "attention.num_heads"
        found[path] = (
            f"The head width {arch.head_dim} is not a multiple of {HEAD_MULTIPLE}: fused attention "
            "kernels (FlashAttention) need one; 64 or 128 run best"
        )
    return found


def context_hint(arch: Architecture, context: int) -> str | None:
    """Why ``context`` tokens are beyond what the model was built for, or None."""
    limit = arch.embeddings.max_positions
    if limit <= 0 or context <= limit:
        return None
    if arch.embeddings.position == "learned":
        return (
            f"The context ({context:,} tokens) exceeds the model's {limit:,} learned positions: "
            "it has no position rows beyond them"
        )
    return (
        f"The context ({context:,} tokens) exceeds the model's maximum positions ({limit:,}): "
        "it was not trained that long (RoPE needs scaling to stretch)"
    )


def hints(arch: Architecture, context: int | None = None) -> Hints:
    """Every hint, by field path; with a context, also at the context and the maximum positions."""
    found = architecture_hints(arch)
    advice = context_hint(arch, context) if context is not None else None
    if advice is not None:
        found["scenario.context"] = advice
        found["embeddings.max_positions"] = advice
    return found


def warn_hints(arch: Architecture, context: int | None = None) -> None:
    """Each hint as a ParamTallyWarning (the CLI prints 'paramtally: warning: field: advice')."""
    for path, advice in hints(arch, context).items():
        if path != "embeddings.max_positions":  # the same advice as the context's, said once
            warnings.warn(f"{path}: {advice}", ParamTallyWarning, stacklevel=2)
