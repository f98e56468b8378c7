"""The vision side of a vision-language model: the tower that reads an image, and the projector.

The tower (``VisionStack``) is a stack like any other, at its own width e: a patch embedding (a
convolution over p×p pixels — over t frames too in Qwen's Conv3d — or Llama-4's linear layer over
the unfolded patch: the same e·C·t·p² weights), perhaps a class token, a learned position table,
a pre-norm, ViT layers of its blocks, a post-norm. Mllama adds tile embeddings.

The projector (``Projector``) maps the tower's output to the language model's hidden size h in a
few steps, each a norm, a merge of s×s neighbouring patches into one token (Qwen's spatial merge
and the pixel shuffle of Idefics3, InternVL and Llama-4 concatenate their features, s²·w wide;
Gemma-3's average pool keeps the width), a linear layer, an MLP or a learned vector (LLaVA-NeXT's
image newline). Branches are further copies fed from intermediate layers (Qwen3-VL's deepstack
mergers). The modules are transformers 5.24's ``modeling_<type>.py`` of each family; what each one
builds is in tests/data/hf_configs_v3/QUIRKS.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal, Protocol, get_args

from pydantic import ConfigDict, Field

from paramtally.core.blocks.base import Context, NonNegativeInt, NormKind, PositiveInt, Spec, leaf
from paramtally.core.blocks.dense import DenseFFN
from paramtally.core.schema.limits import MAX_LAYER_GROUPS
from paramtally.core.schema.stack import PositionKind, Stack
from paramtally.core.terms.term import Term, group
from paramtally.core.text import say

__all__ = [
    "STEP_KINDS",
    "LearnedVector",
    "Linear",
    "Merge",
    "PatchEmbedding",
    "Projector",
    "ProjectorBranch",
    "ProjectorNorm",
    "ProjectorStep",
    "TileEmbedding",
    "VisionStack",
    "retyped_step",
]

Problem = tuple[tuple[str | int, ...], str, object]
_NORM_LABELS: dict[str, Any] = {"choice_labels": {"layernorm": "LayerNorm", "rmsnorm": "RMSNorm"}}


class PatchEmbedding(Spec):
    """How pixels become the tower's tokens: one patch of p×p pixels (× t frames) per token."""

    model_config = ConfigDict(title="Patch embedding")

    patch_size: int = Field(gt=0, le=4096, title="Patch", description="Pixels per side of a patch (p).")
    temporal_patch: int = Field(
        1,
        gt=0,
        le=64,
        title="Frames per patch",
        description="Frames one patch spans (t): Qwen's Conv3d takes 2, an image repeated.",
    )
    channels: int = Field(3, gt=0, le=64, title="Channels", description="Colour channels (C).")
    linear: bool = Field(
        False,
        title="Linear",
        description="A linear layer over the unfolded patch (Llama-4) instead of a convolution: "
        "the same e·C·t·p² weights.",
    )
    bias: bool = Field(False, title="Bias", description="A bias of e on the patch embedding.")
    class_token: bool = Field(
        False,
        title="Class token",
        description="A learned token of e before the patches (CLIP, InternViT, Llama-4, Mllama).",
    )

    def terms(self, e: int) -> list[Term]:
        t = self.temporal_patch
        expr = "e·C·t·p²" if t > 1 else "e·C·p²"
        values = {"e": e, "C": self.channels, "p": self.patch_size, **({"t": t} if t > 1 else {})}
        name = "patch embedding (linear)" if self.linear else "patch embedding (convolution)"
        nodes = [leaf(name, "vision", expr + (" + e" if self.bias else ""), **values)]
        if self.class_token:
            nodes.append(leaf("class token", "vision", "e", e=e))
        return nodes


class TileEmbedding(Spec):
    """Mllama's tiles: an image cut into up to T tiles, each with its own position table per
    aspect ratio (``MllamaPrecomputedPositionEmbedding``), an embedding per tile before and after
    the layers (``MllamaPrecomputedAspectRatioEmbedding``), and a scalar gate on each."""

    model_config = ConfigDict(title="Tile embeddings")

    tiles: int = Field(
        4, gt=0, le=1024, title="Tiles", description="Most tiles per image (T, max_num_tiles)."
    )
    aspect_ratios: int = Field(
        9,
        gt=0,
        le=1024,
        title="Aspect ratios",
        description="Rows of the tile tables (A): one per aspect-ratio id, padding included "
        "(max_aspect_ratio_id + 1).",
    )

    def terms(self, e: int, positions: int) -> list[Term]:
        values = {"A": self.aspect_ratios, "T": self.tiles, "e": e}
        return [
            leaf("tile positions", "vision", "A·T·n·e", n=positions, **values),
            leaf("pre- and post-tile embeddings", "vision", "2·A·T·e", **values),
            Term("tile and position gates", 3, "vision", "3"),
        ]


class VisionStack(Stack):
    """The vision tower: patch embedding, positions, ViT layers at its own width e, post-norm."""

    model_config = ConfigDict(title="Vision tower")

    width: PositiveInt = Field(
        title="Width", description="The tower's own width (e); the projector maps it to the hidden size."
    )
    image_size: int = Field(
        gt=0,
        le=1 << 16,
        title="Image size",
        description="Pixels per side of the image (or tile) the tower is made for: (image/p)² patches. "
        "The memory tab's image size starts here.",
    )
    patches: PatchEmbedding = Field(title="Patch embedding")
    tiles: TileEmbedding | None = Field(
        None, title="Tile embeddings", description="Mllama's per-tile position and tile tables."
    )
    positions: PositionKind = Field(
        "learned",
        title="Positions",
        description="A learned table (CLIP, SigLIP), or 2-D rotary positions without weights (Qwen, "
        "Pixtral: rope).",
    )
    max_positions: NonNegativeInt = Field(
        0,
        title="Position rows",
        description="Rows of a learned position table: the patches of one image (Qwen3-VL: its own "
        "number, interpolated).",
    )
    position_offset: NonNegativeInt = Field(
        0, title="Position offset", description="Extra rows: 1 for a class token's position."
    )
    embedding_norm: bool = Field(
        False, title="Pre-norm", description="A norm on the patch embeddings (CLIP, Pixtral, Llama-4)."
    )
    final_norm: bool = Field(True, title="Post-norm", description="A norm after the last layer.")

    def patches_per_image(self, image_size: int) -> int:
        """Patches of one square image (or tile) of ``image_size`` pixels per side."""
        side = image_size // self.patches.patch_size
        return side * side

    @property
    def tiles_per_image(self) -> int:
        return self.tiles.tiles if self.tiles is not None else 1

    def input_terms(self) -> list[Term]:
        """What the tower adds before its layers but the pre-norm: patch embedding, class token,
        positions, tile tables."""
        e = self.width
        nodes = self.patches.terms(e)
        rows = self.max_positions + self.position_offset
        if self.positions == "learned":
            expr = "(n_pos + offset)·e" if self.position_offset else "n_pos·e"
            values = {"n_pos": self.max_positions, "offset": self.position_offset, "e": e}
            nodes.append(leaf("positions", "vision", expr, **values))
        if self.tiles is not None:
            nodes += self.tiles.terms(e, rows)
        return nodes


def _norm_leaf(name: str, norm: NormKind, bias: bool, width: int) -> Term:
    ctx = Context(width, norm, bias)
    expr = "2·w" if ctx.norm_per_width == 2 else "w"
    return leaf(f"{name} ({ctx.norm_label})", "projector", expr, w=width)


class ProjectorNorm(Spec):
    """A norm over the features as they are at this step."""

    model_config = ConfigDict(title="Norm")

    kind: Literal["norm"] = "norm"
    norm: NormKind = Field(
        "layernorm",
        title="Norm",
        description="LayerNorm has γ and β; RMSNorm only γ.",
        json_schema_extra=_NORM_LABELS,
    )
    bias: bool = Field(
        True,
        title="LayerNorm β",
        description="LayerNorm's β (RMSNorm has none).",
        json_schema_extra={"visible_when": {"norm": "layernorm"}},
    )

    def apply(self, width: int, h: int) -> tuple[list[Term], int]:
        return [_norm_leaf("norm", self.norm, self.bias, width)], width

    def kept_widths(self, width: int) -> int:
        return width


class Merge(Spec):
    """s×s neighbouring patches become one token: no weights, s² times fewer tokens."""

    model_config = ConfigDict(title="Merge")

    kind: Literal["merge"] = "merge"
    factor: int = Field(
        2, gt=0, le=64, title="Merge", description="s: each s×s patches become one token (s² fewer)."
    )
    concat: bool = Field(
        True,
        title="Concatenate",
        description="Their features side by side, s²·w wide (Qwen's spatial merge, pixel shuffle); "
        "off: averaged, the width kept (Gemma-3's pooling).",
    )

    def apply(self, width: int, h: int) -> tuple[list[Term], int]:
        s = self.factor
        out = width * s * s if self.concat else width
        what = f"{s * s} patches → 1 token" + (f", {out:,} wide" if self.concat else ", averaged")
        name = f"{'merge' if self.concat else 'pool'} {s}×{s} ({what})"
        return [Term(name, 0, "projector", "no weights")], out

    def kept_widths(self, width: int) -> int:
        return 0


class Linear(Spec):
    """A linear layer from the features' width to ``width`` (empty: the hidden size)."""

    model_config = ConfigDict(title="Linear")

    kind: Literal["linear"] = "linear"
    width: PositiveInt | None = Field(
        None, title="Out width", description="Width it maps to; empty means the hidden size."
    )
    bias: bool = Field(True, title="Bias", description="A bias of its out width.")
    in_width: PositiveInt | None = Field(
        None,
        title="In width",
        description="Width it is built to read, where that is not the width the step before gives "
        "(empty: that width). Llama-4's adapter reads its vision intermediate_size: a file where that "
        "differs from the pixel-shuffled width builds, but cannot run.",
    )

    def apply(self, width: int, h: int) -> tuple[list[Term], int]:
        out = self.width or h
        expr = "d_in·d_out + d_out" if self.bias else "d_in·d_out"
        return [leaf("linear", "projector", expr, d_in=self.in_width or width, d_out=out)], out

    def kept_widths(self, width: int) -> int:
        return width


class LearnedVector(Spec):
    """One learned vector of the features' width (LLaVA-NeXT's ``image_newline``)."""

    model_config = ConfigDict(title="Learned vector")

    kind: Literal["vector"] = "vector"

    def apply(self, width: int, h: int) -> tuple[list[Term], int]:
        return [leaf("learned vector", "projector", "w", w=width)], width

    def kept_widths(self, width: int) -> int:
        return width


class ProjectorStepRole(Protocol):
    """What the projector, its count and its memory ask of a step (an MLP step is a dense FFN, which
    answers it in ``core.blocks.dense``)."""

    def apply(self, width: int, h: int) -> tuple[list[Term], int]:
        """Its terms reading features ``width`` wide, and the width it ends at."""
        ...

    def kept_widths(self, width: int) -> int:
        """Features per token of its input it keeps for backward (its input where it has weights)."""
        ...


ProjectorStepKind = ProjectorNorm | Merge | Linear | DenseFFN | LearnedVector

if TYPE_CHECKING:
    # mypy proves every step kind has the step's role, as ``core.blocks`` does for its kinds.
    def _role(step: ProjectorStepKind) -> ProjectorStepRole:
        return step


ProjectorStep = Annotated[ProjectorStepKind, Field(discriminator="kind")]
STEP_KINDS: dict[str, type[ProjectorStepKind]] = {
    str(kind.model_fields["kind"].default): kind for kind in get_args(ProjectorStepKind)
}


def retyped_step(step: Mapping[str, Any], kind: str, h: int) -> dict[str, Any]:
    """A projector step switched to ``kind``: the fields the new kind has keep their values, an MLP
    starts 4·h wide (as a new dense FFN does)."""
    cls = STEP_KINDS[kind]
    fields = cls.model_fields
    kept = {
        name: value for name, value in step.items() if name in fields and name != "kind" and value is not None
    }
    suggested = {name: make(h) for name, make in getattr(cls, "SUGGESTED", {}).items() if name not in kept}
    return {"kind": kind, **suggested, **kept}


Steps = Annotated[tuple[ProjectorStep, ...], Field(min_length=1, max_length=MAX_LAYER_GROUPS)]


def _walk(steps: tuple[ProjectorStepKind, ...], width: int, h: int) -> tuple[list[Term], int]:
    """The steps' terms from features ``width`` wide, and the width they end at."""
    nodes: list[Term] = []
    for step in steps:
        found, width = step.apply(width, h)
        nodes += found
    return nodes, width


def _merged(steps: tuple[ProjectorStepKind, ...]) -> int:
    """How many patches become one token over the steps (the product of s²)."""
    merged = 1
    for step in steps:
        if isinstance(step, Merge):
            merged *= step.factor**2
    return merged


class ProjectorBranch(Spec):
    """Further projector steps fed from an intermediate vision layer, ``count`` copies of them
    (Qwen3-VL's deepstack mergers: 3)."""

    model_config = ConfigDict(title="Projector branch")

    count: PositiveInt = Field(1, title="Copies", description="Copies of these steps (one per layer fed).")
    steps: Steps = Field(strict=False, title="Steps", description="In order, from the tower's width e.")


class Projector(Spec):
    """What maps the vision tower's output to the language model's hidden size."""

    model_config = ConfigDict(title="Projector")

    features: int = Field(
        1,
        gt=0,
        le=1024,
        title="Feature layers",
        description="Vision layers whose outputs are concatenated at its input, features·e wide "
        "(Mllama: the last and 5 intermediate = 6).",
    )
    steps: Steps = Field(strict=False, title="Steps", description="In order, from the tower's width.")
    branches: tuple[ProjectorBranch, ...] = Field(
        (),
        strict=False,
        max_length=MAX_LAYER_GROUPS,
        title="Branches",
        description="Copies of further steps fed from intermediate layers (Qwen3-VL's deepstack).",
    )

    def terms(self, e: int, h: int) -> list[Term]:
        nodes, _ = _walk(self.steps, self.features * e, h)
        for branch in self.branches:
            inner, _ = _walk(branch.steps, e, h)
            one = group("branch", inner)
            title = f"branch ({branch.count} copies)" if branch.count > 1 else "branch"
            repeated = one.repeated(branch.count)
            nodes.append(Term(title, repeated.value, "", f"one copy = {one.value:,}", branch.count,
                              False, repeated.children))  # fmt: skip
        return nodes

    @property
    def merged(self) -> int:
        """Patches per token the projector leaves (s² of each merge)."""
        return _merged(self.steps)

    def problems(self, e: int, h: int) -> list[Problem]:
        """Paths that do not end at the hidden size."""
        found: list[Problem] = []
        paths: list[tuple[tuple[str | int, ...], tuple[ProjectorStepKind, ...], int]] = [
            (("steps",), self.steps, self.features * e)
        ]
        paths += [(("branches", i, "steps"), b.steps, e) for i, b in enumerate(self.branches)]
        for where, steps, width in paths:
            _, end = _walk(steps, width, h)
            if end != h:
                message = say(
                    "ends {end:,} wide, not at the hidden size ({h:,}): end with a linear layer "
                    "to the hidden size (an empty out width)",
                    end=end,
                    h=h,
                )
                found.append(((*where, len(steps) - 1), message, end))
        return found
