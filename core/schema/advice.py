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
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Protocol

from paramtally.core.errors import FieldPath, ParamTallyWarning, format_loc
from paramtally.core.schema import Architecture
from paramtally.core.schema.model import vision_only_blocks
from paramtally.core.text import say


class Scenario(Protocol):
    """What a hint asks of a scenario (``core.memory.scenario.Scenario`` has it): the schema sits
    below memory, and a count never loads the scenario's module (dtypes, GPUs)."""

    @property
    def context(self) -> int: ...

    @property
    def encoder_tokens(self) -> int | None: ...

    def __hash__(self) -> int: ...  # the hints are cached by scenario


__all__ = ["TILE", "architecture_hints", "context_hint", "encoder_tokens_hint", "hints", "warn_hints"]

TILE = 64  # the multiple the widths should be; 128 is named as better
HEAD_MULTIPLE = 8

Hints = dict[FieldPath, str]  # field path → advice


def _round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


def _tile_hint(what: str, value: int) -> str | None:
    if value % TILE == 0:
        return None
    return say(
        "{what} {value:,} is not a multiple of {tile}, so GPU matrix tiles run partly idle; "
        "{padded:,} would be (a multiple of 128 is better still)",
        what=what,
        value=value,
        tile=TILE,
        padded=_round_up(value, TILE),
    )


def _widths(arch: Architecture) -> Iterator[tuple[FieldPath, str, int]]:
    """(field path, what it is, width) of every matrix width a person sets in the base blocks."""
    yield ("hidden_size",), say("The hidden size"), arch.hidden_size
    for name, block in arch.blocks.items():
        for field, what, width in block.ffn.matrix_widths():
            yield ("blocks", name, "ffn", field), what, width


def _head_widths(arch: Architecture) -> Iterator[tuple[FieldPath, int]]:
    vision = vision_only_blocks(arch)  # their heads split the tower's width, not the hidden size
    for name, block in arch.blocks.items():
        width = arch.vision.width if arch.vision is not None and name in vision else arch.hidden_size
        head = block.mixer.head_width(block.context(width))
        if head is not None:
            yield ("blocks", name, "mixer", head[0]), head[1]


def architecture_hints(arch: Architecture) -> Hints:
    found: Hints = {}
    for path, what, width in _widths(arch):
        advice = _tile_hint(what, width)
        if advice is not None:
            found.setdefault(path, advice)
    vocab = arch.embeddings.vocab_size + arch.added_vocab
    if vocab % TILE:
        padded, better = _round_up(vocab, TILE), _round_up(vocab, 128)
        if padded == better:
            advice = say(
                "The vocabulary ({vocab:,} rows) is not padded to a multiple of {tile}, so the embedding "
                "and head matmuls run slower; pad it to {padded:,} (a multiple of 128 too)",
                vocab=vocab,
                tile=TILE,
                padded=padded,
            )
        else:
            advice = say(
                "The vocabulary ({vocab:,} rows) is not padded to a multiple of {tile}, so the embedding "
                "and head matmuls run slower; pad it to {padded:,} (or {better:,}, a multiple of 128)",
                vocab=vocab,
                tile=TILE,
                padded=padded,
                better=better,
            )
        found[("embeddings", "vocab_size")] = advice
    for path, head in _head_widths(arch):
        if head % HEAD_MULTIPLE:
            advice = say(
                "The head width {head} is not a multiple of {multiple}: fused attention "
                "kernels (FlashAttention) need one; 64 or 128 run best",
                head=head,
                multiple=HEAD_MULTIPLE,
            )
            found.setdefault(path, advice)
    return found


def _positions_path(arch: Architecture) -> FieldPath:
    return ("decoder" if arch.decoder is not None else "encoder", "max_positions")


def context_hint(arch: Architecture, context: int) -> str | None:
    """Why ``context`` tokens are beyond what the model was built for, or None."""
    limit = arch.max_positions
    if limit <= 0 or context <= limit:
        return None
    if arch.main_stack.positions == "learned":
        return say(
            "The context ({context:,} tokens) exceeds the model's {limit:,} learned positions: "
            "it has no position rows beyond them",
            context=context,
            limit=limit,
        )
    return say(
        "The context ({context:,} tokens) exceeds the model's maximum positions ({limit:,}): "
        "it was not trained that long (RoPE needs scaling to stretch)",
        context=context,
        limit=limit,
    )


def encoder_tokens_hint(arch: Architecture, tokens: int | None) -> str | None:
    """Why the encoder cannot read ``tokens`` per request, or None."""
    limit = arch.encoder.max_positions if arch.encoder is not None else 0
    if tokens is None or limit <= 0 or tokens <= limit:
        return None
    return say(
        "The encoder reads {tokens:,} tokens per request, past its {limit:,} positions (the "
        "cross-attention cache is for them all)",
        tokens=tokens,
        limit=limit,
    )


def hints(arch: Architecture, scenario: Scenario | None = None) -> Hints:
    """Every hint, by field path; with a scenario, also at its context (and the maximum positions)
    and its encoder tokens. A new dict: the caller may change it."""
    return dict(_hints(arch, scenario))


@lru_cache(maxsize=64)
def _hints(arch: Architecture, scenario: Scenario | None) -> Hints:
    # Cached: the form and the scenario's fields both ask after every edit.
    found = architecture_hints(arch)
    if scenario is None:
        return found
    advice = context_hint(arch, scenario.context)
    if advice is not None:
        found[("scenario", "context")] = advice
        found[_positions_path(arch)] = advice
    encoder = encoder_tokens_hint(arch, scenario.encoder_tokens)
    if encoder is not None:
        found[("scenario", "encoder_tokens")] = encoder
    return found


def warn_hints(
    arch: Architecture, scenario: Scenario | None = None, file_keys: Mapping[FieldPath, str] | None = None
) -> None:
    """Each hint as a ParamTallyWarning (the CLI prints 'paramtally: warning: field: advice'); a
    field a Hugging Face config.json gave is named by the file's key (``file_keys``: d_model)."""
    positions = _positions_path(arch)
    named = file_keys or {}
    for path, advice in hints(arch, scenario).items():
        if path != positions:  # the same advice as the context's, said once
            where = named.get(path) or format_loc(path)
            warnings.warn(say("{path}: {reason}", path=where, reason=advice), ParamTallyWarning, stacklevel=2)
