"""DeBERTa's disentangled attention (``DisentangledSelfAttention``, He et al. 2021,
arXiv:2006.03654): softmax attention whose scores add content-to-position (c2p) and
position-to-content (p2c) terms, read off a relative position table the whole stack shares
(``Stack.relative_embeddings``).

Parameters (transformers 5.24 ``models/deberta_v2``): those of biased attention (query_proj,
key_proj, value_proj and the output dense, h·a·d_h each with a bias of a·d_h or h), plus, where
the positions are projected apart (``share_att_key`` false), ``pos_key_proj`` for c2p and
``pos_query_proj`` for p2c, each h·a·d_h + a·d_h. With ``share_att_key`` (DeBERTa-v3) the
position table goes through key_proj and query_proj themselves: no more parameters.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import ConfigDict, Field

from paramtally.core.blocks.attention import Attention
from paramtally.core.blocks.base import Context, leaf
from paramtally.core.terms.term import Term

__all__ = ["DisentangledAttention"]


class DisentangledAttention(Attention):
    """Attention with relative positions disentangled from content (DeBERTa)."""

    model_config = ConfigDict(title="Disentangled attention")

    # A kind of its own in the registry's union, with every answer of Attention's it does not
    # change: the subclass narrows the tag, which mypy reads as a clash of two literals.
    kind: Literal["disentangled_attention"] = "disentangled_attention"  # type: ignore[assignment]
    position_key: bool = Field(
        False,
        title="Position key projection",
        description="Its own projection of the relative positions for content-to-position scores "
        "(pos_key_proj: c2p without share_att_key).",
    )
    position_query: bool = Field(
        False,
        title="Position query projection",
        description="Its own projection of the relative positions for position-to-content scores "
        "(pos_query_proj: p2c without share_att_key).",
    )

    SHORT: ClassVar[str] = "disentangled attention"
    # Its own names and colour: Attention's ("attn", its orange) would name this kind instead.
    PATTERN_NAMES: ClassVar[tuple[str, ...]] = ("deberta",)
    COLOR: ClassVar[str] = "#A6761D"
    # Small valid settings for the property tests (tests/core/strategies.py).
    EXAMPLES: ClassVar[tuple[dict[str, object], ...]] = (
        {"num_heads": 2, "head_dim": 8, **dict.fromkeys(("q_bias", "k_bias", "v_bias", "o_bias"), True)},
        {"num_heads": 4, "head_dim": 16, "position_key": True, "position_query": True, "q_bias": True},
        {"num_heads": 1, "head_dim": 4, "position_key": True, "sliding_window": 64},
    )
    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("attention", r"pos_(key|query)_proj|query_proj|key_proj|value_proj"),
        ("embeddings", r"rel_embeddings"),
    )

    def terms(self, ctx: Context, part: str = "attention") -> list[Term]:
        nodes = super().terms(ctx, part)
        a, _, d_h = self.heads(ctx)
        for name, on in (
            ("position key projection", self.position_key),
            ("position query projection", self.position_query),
        ):
            if on:
                nodes.append(leaf(name, part, "h·a·d_h + a·d_h", h=ctx.h, a=a, d_h=d_h))
        return nodes
