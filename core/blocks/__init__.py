"""The kinds a block is made of, registered by their ``kind`` discriminator.

A block is a token mixer (how positions exchange information) and an FFN (what each position
computes on its own), with what is inserted on top (LoRA, adapters). Each kind is one module with a
pydantic model that has its role's protocol (``core.blocks.protocols``: ``MixerProtocol``,
``FFNProtocol``, ``InsertionProtocol``): its parameters with their formulas, its KV cache or
recurrent state, its activation bytes under each profile, its FLOPs, its LoRA targets, tensor-name
rules and GGUF tensor classes, whether it routes tokens, the design variables and tree edits it
takes, and its names and chart colour. Code outside ``core.blocks`` asks a part through its protocol
and never tests which kind it is (``tests/test_kind_dispatch.py`` holds it to that).

How to add a kind (a mixer, say): write ``core/blocks/<kind>.py`` with a ``Kind`` subclass whose
``kind`` field is ``Literal["<tag>"]``, its schema fields with titles and descriptions, and every
member of ``MixerProtocol`` (copy a kind of the same family — ``mamba2.py`` for a recurrent mixer,
``attention.py`` for attention — and change what differs; cite the paper or transformers module each
formula comes from); then add the class to ``MixerKind`` below. That is all: mypy refuses the
registry line until the class has the whole protocol, and the schema, the form, the kind switch, the
layer tree, the pattern language, the calculators, the charts, the CLI and the CSV follow from the
registry. Give it ``EXAMPLES`` (small valid settings) for the property tests, a golden count from
the real module (tools/), and the family importer that reads it from a config.json.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, get_args

from pydantic import Field

from paramtally.core.blocks.activation_profiles import HFProfile, KernelPath
from paramtally.core.blocks.attention import Attention
from paramtally.core.blocks.base import (
    Bounds,
    Cache,
    Context,
    GGUFTensor,
    LoRAMatrix,
    Spec,
    TreeEdit,
    carried_into,
)
from paramtally.core.blocks.dense import ACTIVATIONS, Activation, DenseFFN, NoFFN
from paramtally.core.blocks.disentangled_attention import DisentangledAttention
from paramtally.core.blocks.gated_deltanet import GatedDeltaNet
from paramtally.core.blocks.insertions import Adapter, LoRA, LoRATarget
from paramtally.core.blocks.lightning_attention import LightningAttention
from paramtally.core.blocks.mamba import Mamba
from paramtally.core.blocks.mamba2 import Mamba2
from paramtally.core.blocks.mla import MLA
from paramtally.core.blocks.moa import MoA
from paramtally.core.blocks.moe import MoE
from paramtally.core.blocks.no_mixer import NoMixer
from paramtally.core.blocks.protocols import FFNProtocol, InsertionProtocol, KindProtocol, MixerProtocol
from paramtally.core.blocks.rg_lru import RGLRU
from paramtally.core.blocks.rwkv import RWKVTimeMix
from paramtally.core.blocks.rwkv_channel_mix import RWKVChannelMix
from paramtally.core.blocks.shared_transformer import SharedTransformer
from paramtally.core.blocks.short_conv import ShortConv
from paramtally.core.errors import register_union_tags

__all__ = [
    "ACTIVATIONS",
    "FFN",
    "FFNS",
    "FFN_KINDS",
    "INSERTION_KINDS",
    "KINDS",
    "KIND_TAGS",
    "MIXERS",
    "MIXER_KINDS",
    "MLA",
    "RGLRU",
    "TREE_EDITS",
    "VALUE_KINDS",
    "Activation",
    "Adapter",
    "Attention",
    "Bounds",
    "Cache",
    "Context",
    "DenseFFN",
    "DisentangledAttention",
    "FFNKind",
    "FFNProtocol",
    "GGUFTensor",
    "GatedDeltaNet",
    "HFProfile",
    "InsertionProtocol",
    "KernelPath",
    "KindProtocol",
    "LightningAttention",
    "LoRA",
    "LoRAMatrix",
    "LoRATarget",
    "Mamba",
    "Mamba2",
    "Mixer",
    "MixerKind",
    "MixerProtocol",
    "MoA",
    "MoE",
    "NoFFN",
    "NoMixer",
    "RWKVChannelMix",
    "RWKVTimeMix",
    "SharedTransformer",
    "ShortConv",
    "TreeEdit",
    "kinds_with",
    "retyped",
    "tag_of",
    "windowed_mixer",
]

# The registry: every kind a mixer or an FFN can be, discriminated by its ``kind`` field.
MixerKind = (
    Attention
    | MLA
    | Mamba
    | Mamba2
    | GatedDeltaNet
    | NoMixer
    | DisentangledAttention
    | ShortConv
    | RGLRU
    | SharedTransformer
    | MoA
    | LightningAttention
    | RWKVTimeMix
)
FFNKind = DenseFFN | MoE | NoFFN | RWKVChannelMix
Mixer = Annotated[MixerKind, Field(discriminator="kind")]
FFN = Annotated[FFNKind, Field(discriminator="kind")]
MIXER_KINDS: tuple[type[MixerKind], ...] = get_args(MixerKind)
FFN_KINDS: tuple[type[FFNKind], ...] = get_args(FFNKind)
INSERTION_KINDS: tuple[type[LoRA | Adapter], ...] = (LoRA, Adapter)

if TYPE_CHECKING:
    # mypy proves here that every registered kind has its role's protocol: a kind that leaves out
    # an answer fails the type check at its registry line, not a figure at run time.
    def _roles(mixer: MixerKind, ffn: FFNKind, insertion: LoRA | Adapter) -> tuple[object, ...]:
        roles: tuple[MixerProtocol, FFNProtocol, InsertionProtocol] = (mixer, ffn, insertion)
        return roles


def tag_of(kind: type[MixerKind | FFNKind]) -> str:
    """A kind's ``kind`` value, as files write it ("moe")."""
    return str(kind.model_fields["kind"].default)


MIXERS: Mapping[str, type[MixerKind]] = {tag_of(kind): kind for kind in MIXER_KINDS}
FFNS: Mapping[str, type[FFNKind]] = {tag_of(kind): kind for kind in FFN_KINDS}
KINDS: Mapping[str, type[MixerKind | FFNKind]] = {**MIXERS, **FFNS}
# The discriminator values pydantic puts into error paths of a union (e.g. "mixer.attention.num_heads").
KIND_TAGS = frozenset(KINDS)
register_union_tags(KIND_TAGS)  # errors reads them out of a refused value's path


def retyped(part: Mapping[str, Any], kind: str, h: int) -> dict[str, Any]:
    """A part (a mixer or an FFN, as a mapping) switched to ``kind``: what the new kind shares
    with the old keeps its value (heads, widths), what it requires besides starts at the kind's
    suggestion for hidden size ``h``, the rest at its defaults."""
    return carried_into(KINDS[kind], part, h)


def kinds_with(variable: str) -> frozenset[str]:
    """The tags of the kinds that hold the design variable ``variable`` (``VARIABLES``)."""
    return frozenset(tag for tag, kind in KINDS.items() if variable in kind.VARIABLES)


def windowed_mixer() -> tuple[str, str]:
    """(tag, window field) of the mixer the pattern language's local and global layers are."""
    return next((tag, kind.WINDOW_FIELD) for tag, kind in MIXERS.items() if kind.WINDOW_FIELD)


# The value edits of the layer tree, (block field, field) → the kinds they apply to: an edit of
# several groups reaches only those whose part has the field as the edit means it — a Mamba-2
# mixer's heads are SSM heads, and a MoE has no FFN width (``TREE_VALUES``).
VALUE_KINDS: Mapping[tuple[str | int, ...], tuple[str, ...]] = {
    (slot, field): tuple(tag for tag, kind in kinds.items() if field in kind.TREE_VALUES)
    for slot, kinds in (("mixer", MIXERS), ("ffn", FFNS))
    for field in dict.fromkeys(field for kind in kinds.values() for field in kind.TREE_VALUES)
}
# What the layer tree adds to a group and takes away, one action each (a MoE, LoRA, an adapter), by
# the action's name: the edit and the model its dialog asks for.
TREE_EDITS: Mapping[str, tuple[TreeEdit, type[Spec]]] = {
    edit.name: (edit, kind)
    for kind in (*FFN_KINDS, *MIXER_KINDS, *INSERTION_KINDS)
    if (edit := kind.TREE_EDIT) is not None
}
