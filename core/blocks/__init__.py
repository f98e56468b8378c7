"""The kinds a block is made of, registered by their ``kind`` discriminator.

A block is a token mixer (how positions exchange information) and an FFN (what each position
computes on its own). Each kind is one module with a pydantic model implementing the block
protocol below; adding a kind means writing that module and listing its class here — the schema,
the form, the calculators, the CLI and the CSV all follow from the registry.

The block protocol (``Context`` gives the hidden size and the block's norm kind):

- ``terms(ctx) -> list[Node]``: the exact parameter terms, each with its formula.
- ``problems(ctx)``: rules that need the context (heads dividing the width), as field problems.
- ``tp_problem(ctx, tp)``: why tensor parallelism of size ``tp`` cannot split it, if it cannot.
- ``lora_matrices(ctx)``: the matrices a LoRA target can touch, as (target, d_in, d_out, copies).
- ``TENSOR_RULES``: checkpoint tensor-name patterns → breakdown part, for ``verify``.
- Mixers also: ``cache(ctx, tp) -> Cache`` (per-token KV and per-sequence state of one layer on
  one TP rank), ``projection_widths(ctx)`` (activations TP splits), ``context_width(ctx, decoding)`` and
  ``score_heads()`` (attention over the context; 0 for recurrent kinds), ``scan_flops(ctx)``,
  ``tp_replicated(ctx)`` (what TP keeps whole past t = g: K/V heads, Mamba-2 groups; or None).
- FFNs also: ``inactive(ctx)`` (routed-expert parameters one token does not use) and
  ``active_width()`` (the width one token passes through).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, get_args

from pydantic import Field

from paramtally.core.blocks.attention import Attention
from paramtally.core.blocks.base import Cache, Context, LoRAMatrix
from paramtally.core.blocks.dense import ACTIVATIONS, Activation, DenseFFN, NoFFN
from paramtally.core.blocks.gated_deltanet import GatedDeltaNet
from paramtally.core.blocks.insertions import Adapter, LoRA, LoRATarget
from paramtally.core.blocks.mamba import Mamba
from paramtally.core.blocks.mamba2 import Mamba2
from paramtally.core.blocks.mla import MLA
from paramtally.core.blocks.moe import MoE
from paramtally.core.blocks.no_mixer import NoMixer

__all__ = [
    "ACTIVATIONS",
    "FFN",
    "FFN_KINDS",
    "KIND_TAGS",
    "MIXER_KINDS",
    "MLA",
    "Activation",
    "Adapter",
    "Attention",
    "Cache",
    "Context",
    "DenseFFN",
    "FFNKind",
    "GatedDeltaNet",
    "LoRA",
    "LoRAMatrix",
    "LoRATarget",
    "Mamba",
    "Mamba2",
    "Mixer",
    "MixerKind",
    "MoE",
    "NoFFN",
    "NoMixer",
    "retyped",
]

# The registry: every kind a mixer or an FFN can be, discriminated by its ``kind`` field.
MixerKind = Attention | MLA | Mamba | Mamba2 | GatedDeltaNet | NoMixer
FFNKind = DenseFFN | MoE | NoFFN
Mixer = Annotated[MixerKind, Field(discriminator="kind")]
FFN = Annotated[FFNKind, Field(discriminator="kind")]
MIXER_KINDS: tuple[type[MixerKind], ...] = get_args(MixerKind)
FFN_KINDS: tuple[type[FFNKind], ...] = get_args(FFNKind)


def retyped(part: Mapping[str, Any], kind: str, h: int) -> dict[str, Any]:
    """A part (a mixer or an FFN, as a mapping) switched to ``kind``: what the new kind shares
    with the old keeps its value (heads, widths), what it requires besides starts at the kind's
    suggestion for hidden size ``h``, the rest at its defaults."""
    cls = next(k for k in (*MIXER_KINDS, *FFN_KINDS) if k.model_fields["kind"].default == kind)
    renamed = getattr(cls, "RENAMED", {})
    carried = {renamed.get(name, name): value for name, value in part.items()}
    kept = {name: value for name, value in carried.items() if name in cls.model_fields and name != "kind"}
    suggested = {name: make(h) for name, make in cls.SUGGESTED.items() if name not in kept}
    return {"kind": kind, **suggested, **kept}


# The discriminator values pydantic puts into error paths of a union (e.g. "mixer.attention.num_heads").
KIND_TAGS = frozenset(str(kind.model_fields["kind"].default) for kind in (*MIXER_KINDS, *FFN_KINDS))
