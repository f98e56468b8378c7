"""The block, the unit of a stack: a token mixer, an FFN, their norms and what is inserted.

A block's parameters are the sum of its parts' terms (each part computes its own, see
``core.blocks``). Blocks are frozen and hashable, so a block that recurs in many layer groups is
counted once: ``block_node`` is cached by value.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pydantic import ConfigDict, Field, ValidationInfo, field_validator

from paramtally.core.blocks import (
    FFN,
    FFN_KINDS,
    MIXER_KINDS,
    Adapter,
    Attention,
    Context,
    FFNKind,
    LoRA,
    LoRAMatrix,
    Mixer,
    MixerKind,
)
from paramtally.core.blocks.base import NonNegativeInt, NormKind, Spec, leaf, norm_leaf
from paramtally.core.schema.hashed import HashedSpec
from paramtally.core.terms.term import Term, group

__all__ = ["Block", "BlockNorms", "Problem", "block_fields", "block_node"]

Problem = tuple[tuple[str | int, ...], str, object]  # (field path, message, value)


class BlockNorms(Spec):
    """The norms around the mixer and the FFN (pre- or post-norm, the count is what matters)."""

    model_config = ConfigDict(title="Norms")

    kind: NormKind = Field(
        "rmsnorm",
        title="Norm",
        description="LayerNorm has γ and β; RMSNorm only γ.",
        json_schema_extra={"choice_labels": {"layernorm": "LayerNorm", "rmsnorm": "RMSNorm"}},
    )
    affine: bool = Field(
        True,
        title="Learned weights",
        description="The norms' γ (and LayerNorm's β). Off: they only normalize and hold no "
        "parameters (OLMo-1); the stack's final norm and any q/k norms follow.",
    )
    bias: bool = Field(
        True,
        title="LayerNorm β",
        description="LayerNorm's β (RMSNorm has none).",
        json_schema_extra={"visible_when": {"kind": "layernorm", "affine": True}},
    )
    count: NonNegativeInt = Field(
        2,
        title="Norms per block",
        description="Norms in one block (Gemma-2: 4; Falcon-7B: 1; T5 decoder: 3).",
    )
    scales: NonNegativeInt = Field(
        0,
        title="Layer scales",
        description="Learned per-channel scale vectors of h in one block, on the residual branches "
        "(InternViT's λ1 and λ2: 2).",
    )
    gates: NonNegativeInt = Field(
        0,
        title="Scalar gates",
        description="Learned scalar gates in one block (Mllama's tanh gates on the attention and MLP "
        "outputs: 2).",
    )


class Block(HashedSpec):
    """One layer: mixer (+ a parallel one), optional cross-attention, FFN, norms, insertions.

    Its hash is computed once: blocks key many cached figures, and the fit table's layouts look
    them up again and again."""

    model_config = ConfigDict(title="Block")

    mixer: Mixer = Field(title="Mixer", description="How positions exchange information.")
    parallel_mixer: Mixer | None = Field(
        None,
        title="Parallel mixer",
        description="A second mixer on the same input, summed with the first (Falcon-H1: Mamba-2 "
        "beside attention).",
    )
    cross_attention: Attention | None = Field(
        None, title="Cross-attention", description="Attention over the encoder's output (encoder-decoder)."
    )
    ffn: FFN = Field(
        title="FFN", description="The position-wise network: dense, mixture of experts, or none."
    )
    norms: BlockNorms = Field(BlockNorms(), title="Norms")
    lora: LoRA | None = Field(None, title="LoRA", description="LoRA updates in this block.")
    adapter: Adapter | None = Field(None, title="Adapter", description="Bottleneck adapters in this block.")

    @field_validator("mixer", "parallel_mixer", "ffn", mode="before")
    @classmethod
    def _first_kind_by_default(cls, value: Any, info: ValidationInfo) -> Any:
        """A part written without a ``kind`` is of the registry's first kind (attention, dense)."""
        if isinstance(value, dict) and "kind" not in value:
            first = (FFN_KINDS if info.field_name == "ffn" else MIXER_KINDS)[0]
            return {"kind": first.model_fields["kind"].default, **value}
        return value

    def context(self, h: int) -> Context:
        return _context(h, self.norms.kind, self.norms.bias, self.norms.affine)

    def lora_matrices(self, h: int) -> list[LoRAMatrix]:
        ctx = self.context(h)
        return [*self.mixer.lora_matrices(ctx), *self.ffn.lora_matrices(ctx)]

    @property
    def insertions(self) -> tuple[LoRA | Adapter, ...]:
        """What is inserted into the block (``core.blocks.INSERTION_KINDS``), in field order."""
        return tuple(part for part in (self.lora, self.adapter) if part is not None)

    def inactive(self, h: int) -> int:
        """Parameters one token does not use in this layer: idle routed experts (the FFN's, the
        mixer's) and their LoRA."""
        idle = _ffn_inactive(self.ffn, self.context(h)) + self.mixer.inactive(self.context(h))
        routing = self.ffn.routing()
        if routing[0] > routing[1] and self.insertions:
            matrices = self.lora_matrices(h)
            idle += sum(part.idle(matrices, routing) for part in self.insertions)
        return idle

    def problems(self, h: int) -> list[Problem]:
        ctx = self.context(h)
        found: list[Problem] = []
        for name in ("mixer", "parallel_mixer", "cross_attention", "ffn"):
            part = getattr(self, name)
            if part is not None:
                found += [((name, *loc), message, value) for loc, message, value in part.problems(ctx)]
        return found

    def tp_problem(self, h: int, tp: int) -> str | None:
        ctx = self.context(h)
        for part in (self.mixer, self.parallel_mixer, self.cross_attention, self.ffn):
            problem = part.tp_problem(ctx, tp) if part is not None else None
            if problem:
                return problem
        return None


@lru_cache(maxsize=1024)
def block_node(block: Block, h: int) -> Term:
    """The terms of one layer of ``block`` at hidden size ``h``, as a tree."""
    return group("block", [node for _, node in block_fields(block, h)])


@lru_cache(maxsize=1024)
def block_fields(block: Block, h: int) -> tuple[tuple[str, Term], ...]:
    """One layer's terms per block field present (``mixer``, ``parallel_mixer``,
    ``cross_attention``, ``ffn``, ``norms``, ``lora``, ``adapter``), in that order: the children of
    ``block_node``. An FFN without terms (none) and a block without norms have no entry."""
    ctx = block.context(h)
    mixer = block.mixer
    fields = [("mixer", _part_group(mixer, ctx, mixer.PART, mixer.PART))]
    if block.parallel_mixer is not None:
        part = block.parallel_mixer.PART
        name = part if part != mixer.PART else f"parallel {part}"
        fields.append(("parallel_mixer", _part_group(block.parallel_mixer, ctx, name, part)))
    if block.cross_attention is not None:
        cross = _part_group(block.cross_attention, ctx, "cross-attention", "cross_attention")
        fields.append(("cross_attention", cross))
    ffn = _ffn_group(block.ffn, ctx)
    if ffn is not None:
        fields.append(("ffn", ffn))
    norms = block.norms
    if (norms.count and norms.affine) or norms.scales or norms.gates:
        fields.append(("norms", _norms(ctx, norms.count, norms.scales, norms.gates)))
    matrices = block.lora_matrices(h) if block.insertions else []
    fields += [(part.FIELD, part.term(ctx, matrices)) for part in block.insertions]
    return tuple(fields)


@lru_cache(maxsize=1024)
def _part_group(mixer: MixerKind, ctx: Context, name: str, part: str) -> Term:
    # By the part, not the block: the blocks of a stack share a few mixers and FFNs (a hybrid's
    # ten blocks, five mixers and two FFNs), and a new hidden size counts each once.
    return group(name, mixer.terms(ctx, part))


@lru_cache(maxsize=1024)
def _ffn_group(ffn: FFNKind, ctx: Context) -> Term | None:
    terms = ffn.terms(ctx)
    return group(ffn.GROUP, terms) if terms else None


@lru_cache(maxsize=1024)
def _norms(ctx: Context, count: int, scales: int = 0, gates: int = 0) -> Term:
    # Cached apart from the block: the blocks of a stack mostly share their norms.
    # Norms without parameters (no γ, no β) have no term; they still keep activations.
    norms = norm_leaf(ctx, "block norms", ctx.h, times=count) if count and ctx.norm_per_width else None
    if not scales and not gates and norms is not None:
        return norms
    nodes = [norms] if norms is not None else []
    if scales:
        scale = leaf("layer scales", "norms", "n·h", n=scales, h=ctx.h) if scales > 1 else None
        nodes.append(scale or leaf("layer scale", "norms", "h", h=ctx.h))
    if gates:
        nodes.append(leaf("scalar gates" if gates > 1 else "scalar gate", "norms", "n", n=gates))
    return group("norms and scales", nodes)


@lru_cache(maxsize=1024)
def _ffn_inactive(ffn: FFNKind, ctx: Context) -> int:
    # Cached apart from the block: the blocks of a stack share a few FFNs (a hybrid's five MoE
    # blocks, one MoE).
    return ffn.inactive(ctx)


@lru_cache(maxsize=256)
def _context(h: int, norm: NormKind, norm_bias: bool, norm_affine: bool) -> Context:
    """One (immutable) Context per width and norm: the memory figures ask every block of every
    pipeline stage for its own, and a frozen dataclass is slow to make."""
    return Context(h, norm, norm_bias, norm_affine)
