"""DeBERTa's disentangled attention (``DisentangledSelfAttention``, He et al. 2021,
arXiv:2006.03654): softmax attention whose scores add content-to-position (c2p) and
position-to-content (p2c) terms, read off a relative position table the whole stack shares
(``Stack.relative_embeddings``).

Parameters (transformers 5.24 ``models/deberta_v2``): those of biased attention (query_proj,
key_proj, value_proj and the output dense, h·a·d_h each with a bias of a·d_h or h), plus, where
the positions are projected apart (``share_att_key`` false), ``pos_key_proj`` for c2p and
``pos_query_proj`` for p2c, each h·a·d_h + a·d_h. With ``share_att_key`` (DeBERTa-v3) the
position table goes through key_proj and query_proj themselves: no more parameters.

What the relative scores cost (``disentangled_attention_bias``; measured by
tools/measure_deberta_scores.py, tests/golden/deberta_scores.json): each of c2p and p2c multiplies
every token's query (c2p) or key (p2c) with the 2k rows of the projected table, k the span each
side (``pos_ebd_size``): 2·2k·a·d_h FLOPs per token, a [b·a, s, 2k] product that ``torch.gather``
keeps for backward (a·2k activations per token), and p2c's bmm keeps the key heads apart (a·d_h).
Once per layer and forward pass, whatever its tokens and sequences, the 2k table rows go through
projections (``per_forward_flops``: 2·2k·h·a·d_h FLOPs each): key_proj and query_proj both with
``share_att_key``, whichever scores are on (an unused one too), else each own projection; those
own projections multiply no token (``table_params``: outside the 2·N per token). Measured over
whole forward passes at several lengths and batches (the same tool). Left out of the activations,
as they are per layer and forward pass: the gather's int64 index of s² positions and the projected
rows repeated over the batch (b·a·2k·d_h).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import ConfigDict, Field

from paramtally.core.blocks.activation_profiles import HFProfile
from paramtally.core.blocks.attention import Attention
from paramtally.core.blocks.base import Context, FieldProblem, NonNegativeInt, leaf
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

    relative_span: NonNegativeInt = Field(
        0,
        title="Relative span",
        description="Relative positions each side the scores read (k, att_span: position_buckets, "
        "else max_relative_positions): 2k rows of the stack's relative table; 0 without relative "
        "attention.",
    )
    c2p: bool = Field(
        False,
        title="Content-to-position scores",
        description="Each query scored against the 2k relative positions (pos_att_type c2p).",
    )
    p2c: bool = Field(
        False,
        title="Position-to-content scores",
        description="Each key scored against the 2k relative positions (pos_att_type p2c).",
    )

    SHORT: ClassVar[str] = "disentangled attention"
    # Its own names and colour: Attention's ("attn", its orange) would name this kind instead.
    PATTERN_NAMES: ClassVar[tuple[str, ...]] = ("deberta",)
    COLOR: ClassVar[str] = "#A6761D"
    # Small valid settings for the property tests (tests/core/strategies.py).
    EXAMPLES: ClassVar[tuple[dict[str, object], ...]] = (
        {"num_heads": 2, "head_dim": 8, **dict.fromkeys(("q_bias", "k_bias", "v_bias", "o_bias"), True)},
        {
            "num_heads": 4,
            "head_dim": 16,
            "position_key": True,
            "position_query": True,
            "q_bias": True,
            "relative_span": 8,
            "c2p": True,
            "p2c": True,
        },
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

    def _relative_scores(self) -> int:
        """How many of c2p and p2c the scores add."""
        return (self.c2p + self.p2c) if self.relative_span else 0

    def _table_projections(self) -> int:
        """The projections the 2k table rows go through in a layer: its own (``pos_key_proj``,
        ``pos_query_proj``), else key_proj and query_proj both (``share_att_key``: transformers
        projects both whichever scores are on; a span without scores or own projections is that)."""
        own = self.position_key + self.position_query
        return own if own else (2 if self.relative_span else 0)

    def table_params(self, ctx: Context) -> int:
        """The own position projections: they multiply the table's rows, never a token."""
        a, _, d_h = self.heads(ctx)
        return (self.position_key + self.position_query) * (ctx.h * a * d_h + a * d_h)

    def per_forward_flops(self, ctx: Context) -> Term | None:
        """The 2k table rows through each projection, once per layer and forward pass (the matmul;
        its bias adds no multiply)."""
        projections = self._table_projections()
        if not projections or not self.relative_span:
            return None
        a, _, d_h = self.heads(ctx)
        return Term.of(
            "relative table projections",
            "flops",
            "n·2·R·h·d",
            "n: the projections of DeBERTa's relative table in a layer (key_proj and query_proj with "
            "share_att_key, else its own pos_key_proj / pos_query_proj); R = 2k: its rows; d = a·d_h",
            n=projections,
            R=2 * self.relative_span,
            h=ctx.h,
            d=a * d_h,
        )

    def _relative_widths(self, ctx: Context) -> int:
        """Activations per token the relative scores keep: per score the gathered product's 2k
        columns per head; p2c's key heads apart (its bmm keeps them)."""
        a, _, d_h = self.heads(ctx)
        keys = a * d_h if self.p2c and self.relative_span else 0
        return self._relative_scores() * a * 2 * self.relative_span + keys

    def projection_widths(self, ctx: Context) -> int:
        """Attention's, and the relative scores' (TP splits each by head)."""
        return super().projection_widths(ctx) + self._relative_widths(ctx)

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> int:
        """Attention's, and the relative scores' tensors at the activation bytes (measured)."""
        return super().hf_bytes(ctx, hf) + hf.b * self._relative_widths(ctx)

    def scan_flops(self, ctx: Context) -> int:
        """FLOPs per token beyond attention over the context: each relative score's product of the
        token's query or key with the 2k projected rows (2·2k·a·d_h)."""
        a, _, d_h = self.heads(ctx)
        return self._relative_scores() * 2 * 2 * self.relative_span * a * d_h

    def problems(self, ctx: Context) -> list[FieldProblem]:
        found = super().problems(ctx)
        if (self.c2p or self.p2c) and not self.relative_span:
            found.append((("relative_span",), "relative scores need a relative span above 0", 0))
        return found
