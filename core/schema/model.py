"""The architecture: model-wide parts (embeddings, head), named base blocks, and the stacks.

Sizes are plain integers so that a count is exact. Cross-field rules (heads that must divide,
top-k within the experts, a group naming a block that exists) are checked on the whole
architecture so that an error names the full field path, e.g. ``blocks.default.mixer.num_kv_heads``
or ``decoder.layers.2.override.ffn.top_k``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Annotated, Any, Final, Literal, NamedTuple

from pydantic import AfterValidator, ConfigDict, Field, JsonValue, PrivateAttr, model_validator

from paramtally.core.blocks.base import NonNegativeInt, PositiveInt, Spec
from paramtally.core.errors import field_error, shown
from paramtally.core.schema.block import Block, Problem
from paramtally.core.schema.frozen import Frozen, FrozenDict, freeze
from paramtally.core.schema.hashed import HashedSpec
from paramtally.core.schema.limits import MAX_BLOCKS, MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS, MAX_RUNS
from paramtally.core.schema.stack import (
    LayerGroup,
    ResolveError,
    Run,
    Stack,
    StackRole,
    flatten,
    resolve_at,
    too_many_runs,
)
from paramtally.core.schema.vision import Projector, VisionStack
from paramtally.core.text import Line, Text, say

__all__ = [
    "MTP",
    "SCHEMA_VERSION",
    "Architecture",
    "Dropout",
    "Embeddings",
    "Head",
    "stack_runs",
    "vision_only_blocks",
]

SCHEMA_VERSION: Final = 2


EmbedProjection = Literal["in_and_out", "in", "in_after_norm"]


class Embeddings(Spec):
    """The token embedding, shared by every stack."""

    model_config = ConfigDict(title="Embeddings")

    vocab_size: NonNegativeInt = Field(
        title="Vocabulary",
        description="Rows of the token embedding table (V); 0 only for a vision tower alone, which "
        "reads pixels, not tokens.",
    )
    embed_dim: PositiveInt | None = Field(
        None,
        title="Embed width",
        description="Token embedding width when it differs from the hidden size; adds bias-free "
        "projections in and out (OPT-350m: 512 ↔ 1024).",
    )
    token_types: NonNegativeInt = Field(
        0, title="Token types", description="Token-type (segment) embedding rows, as BERT's 2."
    )
    task_types: NonNegativeInt = Field(
        0,
        title="Task types",
        description="Task-type embedding rows, added to every token's embedding as the token types are "
        "(ERNIE 3.0 with use_task_id: 3).",
    )
    patch_inputs: NonNegativeInt = Field(
        0,
        title="Patch inputs",
        description="Values of one image patch (C·p²) that a biased linear layer maps to the hidden "
        "size, each patch then a token among the text's, with no vision tower (Fuyu's "
        "vision_embed_tokens: 3·30² = 2,700); 0: none.",
    )
    extra_rows: NonNegativeInt = Field(
        0,
        title="Extra rows",
        description="Rows of the token embedding past the vocabulary the head predicts (Mllama's 8 "
        "image tokens: 128,264 rows, a head of 128,256).",
    )
    projection: EmbedProjection = Field(
        "in_and_out",
        title="Projection",
        description="How an embed width other than the hidden size reaches it: bias-free projections in "
        "and out (OPT-350m); lookups at the embed width, then a bias-free projection in (DeBERTa-v2); "
        "lookups and their norm at the embed width, then a biased projection in (ELECTRA).",
        json_schema_extra={
            "choice_labels": {
                "in_and_out": "In and out",
                "in": "In, norm after",
                "in_after_norm": "In with bias, norm before",
            },
        },
    )
    decoder_vocab_size: PositiveInt | None = Field(
        None,
        title="Decoder vocab",
        description="Rows of the decoder's own token embedding, apart from the encoder's (Marian without "
        "shared embeddings); the head predicts these.",
    )

    def lookup_width(self, h: int) -> int:
        """The width of the position and token-type rows: the embed width where the projection
        comes after the lookups, else the hidden size."""
        return (self.embed_dim or h) if self.projection != "in_and_out" else h

    def projection_params(self, h: int) -> int:
        """Parameters of the projections between the embed width and the hidden size."""
        e = self.embed_dim or h
        if e == h:
            return 0
        return {"in_and_out": 2 * e * h, "in": e * h, "in_after_norm": e * h + h}[self.projection]


class Head(Spec):
    """What turns the last hidden state into logits (or a pooled vector)."""

    model_config = ConfigDict(title="Head")

    present: bool = Field(
        True, title="LM head", description="A language-model head (off for a bare encoder)."
    )
    tied: bool = Field(False, title="Tied", description="The head shares the token embedding's weights.")
    bias: bool = Field(False, title="Bias", description="A bias of V on the head (Phi-2).")
    decoder_bias: bool = Field(
        False,
        title="Decoder bias",
        description="A second bias of V on an untied decoder (BERT's MLM head with tie_word_embeddings "
        "false: transformers then unties decoder.bias too).",
    )
    transform: bool = Field(
        False, title="Transform", description="A dense h→h layer and norm before the head (BERT's MLM head)."
    )
    pooler: bool = Field(False, title="Pooler", description="A dense h→h pooler on the first token (BERT).")
    transform_bias: bool = Field(
        True,
        title="Transform bias",
        description="A bias on the transform's dense layer (ModernBERT: classifier_bias, off).",
        json_schema_extra={"visible_when": {"transform": True}},
    )
    token_classifier: NonNegativeInt = Field(
        0,
        title="Token classifier",
        description="Outputs per token of a dense h→h and a linear classifier after it, with biases "
        "(ELECTRA's replaced-token discriminator: 1).",
    )
    attention_map_regression: bool = Field(
        False,
        title="Attention-map regression",
        description="A linear regression from every layer's attention maps to one output: a weight per "
        "layer and head, and a bias (ESM's contact-prediction head, L·a + 1), with the LM head or without.",
    )


Probability = Annotated[float, Field(ge=0, lt=1)]


class Dropout(Spec):
    """Dropout while training, as the model's config.json sets it (no parameters).

    It decides which masks the Hugging Face activation profiles keep: one byte per element on a
    GPU (PyTorch's fused dropout keeps a bool mask); a probability of 0 keeps none.
    """

    model_config = ConfigDict(title="Dropout")

    attention: Probability = Field(
        0.0,
        title="Attention dropout",
        description="On the attention probabilities (attention_dropout, attn_pdrop, "
        "attention_probs_dropout_prob): above 0 keeps an a·s mask per token and layer.",
    )
    hidden: Probability = Field(
        0.0,
        title="Residual dropout",
        description="On the attention and FFN outputs before each residual add (hidden_dropout, "
        "resid_pdrop, hidden_dropout_prob, dropout): above 0 keeps two h masks per token and layer.",
    )


class MTP(Spec):
    """Multi-token prediction modules (DeepSeek-V3): extra layers that predict further tokens.

    Each module holds two norms (enorm, hnorm) over h, a projection 2h → h, one block, and a
    norm before its head; DeepSeek-V3's checkpoint also stores its own copies of the embedding and
    the head. transformers does not build them, so they are counted apart from the total.
    """

    model_config = ConfigDict(title="Multi-token prediction")

    count: PositiveInt = Field(
        1, title="Modules", description="Prediction modules (num_nextn_predict_layers)."
    )
    block: str = Field(
        "default",
        title="Base block",
        description="The block each module holds.",
        json_schema_extra={"in_form": False},
    )
    override: Frozen = Field(
        FrozenDict(),
        title="Changes",
        description="What differs from the base block.",
        json_schema_extra={"in_form": False},
    )
    own_embedding: bool = Field(
        True, title="Own embedding", description="The checkpoint stores its own copy."
    )
    own_head: bool = Field(True, title="Own head", description="The checkpoint stores its own head copy.")


BlockName = Annotated[Line, Field(max_length=MAX_NAME_CHARS)]


def _frozen_blocks(value: dict[str, Block]) -> FrozenDict:
    frozen: FrozenDict = freeze(value)
    return frozen


# The stacks of a language model: a field shown with one of them (``FieldSpec.visible_with``).
_LANGUAGE_STACKS: list[JsonValue] = ["decoder", "encoder"]


class Architecture(HashedSpec):
    """A transformer (or hybrid) language model, as counted by ParamTally."""

    model_config = ConfigDict(title="Model")

    schema_version: Literal[2] = Field(SCHEMA_VERSION, json_schema_extra={"in_form": False})
    name: Line = Field("Untitled", max_length=MAX_NAME_CHARS, title="Name", description="Display name.")
    description: Text = Field(
        "", max_length=MAX_DESCRIPTION_CHARS, title="Description", description="Where the numbers come from."
    )
    family: Line = Field(
        "",
        max_length=MAX_NAME_CHARS,
        title="Family",
        description="Model family (Hugging Face model_type) if known.",
    )
    hidden_size: PositiveInt = Field(title="Hidden size", description="Model width (h, d_model).")
    # A vision tower alone has no vocabulary, no head, no new tokens: the form leaves them out.
    embeddings: Embeddings = Field(json_schema_extra={"visible_with": _LANGUAGE_STACKS})
    blocks: Annotated[dict[BlockName, Block], AfterValidator(_frozen_blocks)] = Field(
        min_length=1,
        max_length=MAX_BLOCKS,
        title="Blocks",
        description="Named base blocks the layer groups start from.",
    )
    decoder: Stack | None = Field(
        None, title="Decoder", description="The causal stack (decoder-only models: all)."
    )
    encoder: Stack | None = Field(None, title="Encoder", description="The bidirectional stack, if any.")
    vision: VisionStack | None = Field(
        None,
        title="Vision tower",
        description="The image encoder of a vision-language model, at its own width: patch embedding, "
        "positions, ViT layers, post-norm.",
    )
    projector: Projector | None = Field(
        None,
        title="Projector",
        description="Maps the vision tower's output to the hidden size (LLaVA's MLP, Qwen's patch "
        "merger, Gemma-3's pooled projection).",
    )
    mtp: MTP | None = Field(None, title="MTP", description="Multi-token prediction modules, counted apart.")
    head: Head = Field(Head(), title="Head", json_schema_extra={"visible_with": _LANGUAGE_STACKS})
    added_vocab: NonNegativeInt = Field(
        0,
        title="Added vocabulary",
        description="New tokens added to the vocabulary (counted as added).",
        json_schema_extra={"visible_with": _LANGUAGE_STACKS},
    )
    dropout: Dropout = Field(Dropout(), title="Dropout")

    _runs: tuple[Run, ...] = PrivateAttr(())
    _vision_runs: tuple[Run, ...] = PrivateAttr(())
    _layers_by_block: dict[Block, int] = PrivateAttr(default_factory=dict)
    _mtp_block: Block | None = PrivateAttr(None)
    _num_layers: int = PrivateAttr(0)
    # Private values are read from pydantic's private dict directly: its __getattr__ costs
    # microseconds, and every cached figure looks the runs up.

    @property
    def stacks(self) -> tuple[tuple[StackRole, Stack], ...]:
        """The stacks present, in the order a token meets them (encoder first)."""
        found: list[tuple[StackRole, Stack]] = []
        if self.encoder is not None:
            found.append(("encoder", self.encoder))
        if self.decoder is not None:
            found.append(("decoder", self.decoder))
        return tuple(found)

    @property
    def stacks_with_vision(self) -> tuple[tuple[StackRole, Stack], ...]:
        """The vision tower (if any) and the stacks, as the layer tree shows them: an image meets
        the tower first."""
        return (("vision", self.vision), *self.stacks) if self.vision is not None else self.stacks

    @property
    def main_stack(self) -> Stack:
        """The decoder, or the encoder of an encoder-only model: where the head sits (the vision
        tower of a tower alone)."""
        stack = self.decoder or self.encoder or self.vision
        assert stack is not None  # validation requires one
        return stack

    @property
    def tower_only(self) -> bool:
        """A vision tower alone (``PixtralVisionModel``): no language model, no projector, no
        vocabulary; the tower is the whole model."""
        return self.vision is not None and self.decoder is None and self.encoder is None

    @property
    def generates(self) -> bool:
        """A decoder writes tokens one by one (decode steps, a KV cache); an encoder alone (BERT) or a
        vision tower alone reads its input once and generates nothing."""
        return self.decoder is not None

    @property
    def runs(self) -> tuple[Run, ...]:
        """Every run of layers of one block, stack by stack, in order."""
        private = self.__pydantic_private__
        assert private is not None
        runs: tuple[Run, ...] = private["_runs"]
        return runs

    @property
    def vision_runs(self) -> tuple[Run, ...]:
        """The vision tower's runs of layers (none without one): apart from ``runs``, which are the
        language model's, as every memory and FLOPs figure of the layers reads them."""
        private = self.__pydantic_private__
        assert private is not None
        runs: tuple[Run, ...] = private["_vision_runs"]
        return runs

    def width_of(self, stack: Stack) -> int:
        """The width ``stack``'s layers work at: the vision tower's own, else the hidden size."""
        return stack.width if isinstance(stack, VisionStack) else self.hidden_size

    @property
    def mtp_block(self) -> Block | None:
        private = self.__pydantic_private__
        assert private is not None
        block: Block | None = private["_mtp_block"]
        return block

    @property
    def num_layers(self) -> int:
        private = self.__pydantic_private__
        assert private is not None
        layers: int = private["_num_layers"]  # counted once, when the layers were resolved
        return layers if layers else sum(stack.num_layers for _, stack in self.stacks)

    @property
    def max_positions(self) -> int:
        return self.main_stack.max_positions

    @property
    def embed_dim(self) -> int:
        return self.embeddings.embed_dim or self.hidden_size

    def base_block(self, stack: Stack) -> Block:
        return self.blocks[stack.block]

    def layers_by_block(self) -> dict[Block, int]:
        """Each distinct block and how many layers have it."""
        private = self.__pydantic_private__
        assert private is not None
        counts: dict[Block, int] = private["_layers_by_block"]
        return counts

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Architecture:
        """A copy; with ``update``, validated again (the resolved runs must follow the change)."""
        if not update:
            return super().model_copy(deep=deep)
        return type(self).model_validate({**dict(self), **update})

    @model_validator(mode="after")
    def _resolve_and_check(self) -> Architecture:
        problem = _first_problem(self)
        if problem is not None:
            loc, message, value = problem
            raise field_error(type(self).__name__, loc, message, value)
        return self


def _first_problem(arch: Architecture) -> Problem | None:
    h = arch.hidden_size
    vision = _vision_blocks(arch)
    for name, block in arch.blocks.items():
        for width in _block_widths(arch, name, vision):
            for loc, message, value in block.problems(width):
                return ("blocks", name, *loc), message, value
    if arch.tower_only:
        problem = _tower_only_problem(arch)
        if problem is not None:
            return problem
    elif not arch.stacks:
        return ("decoder",), "a model needs a decoder or an encoder stack (or a vision tower alone)", None
    elif arch.embeddings.vocab_size <= 0:
        message = "a language model needs a vocabulary: set it above 0"
        return ("embeddings", "vocab_size"), message, arch.embeddings.vocab_size
    runs: list[Run] = []
    resolved: list[_Resolved] = []
    blocks = tuple(arch.blocks.items())
    try:
        for role, stack in arch.stacks:
            _check_stack_base(arch, role, stack)
            resolved.append(_runs_of(role, stack, blocks))
            if runs and len(runs) + len(resolved[-1].runs) > MAX_RUNS:  # each stack alone is within
                raise too_many_runs((role, "layers"), MAX_RUNS - len(runs))
            runs += resolved[-1].runs
        if arch.mtp is not None:
            base = arch.blocks.get(arch.mtp.block)
            if base is None:
                raise ResolveError(
                    ("mtp", "block"),
                    say("no base block named {name}", name=shown(arch.mtp.block, 60)),
                    arch.mtp.block,
                )
            arch._mtp_block = resolve_at(base, arch.mtp.override, ("mtp",))
        if arch.vision is not None:
            _check_stack_base(arch, "vision", arch.vision)
            vision_runs = _runs_of("vision", arch.vision, blocks)
            if len(runs) + len(vision_runs.runs) > MAX_RUNS:
                raise too_many_runs(("vision", "layers"), MAX_RUNS - len(runs))
            arch._vision_runs = vision_runs.runs
    except ResolveError as exc:
        return exc.loc, exc.message, exc.value
    # One stack hands its resolved runs on as they are: the same tuple, edit after edit.
    arch._runs = resolved[0].runs if len(resolved) == 1 else tuple(runs)
    arch._num_layers = sum(one.num_layers for one in resolved)
    layers_by_block: dict[Block, int] = {}  # filled locally: a private attribute costs a µs a look
    for one in resolved:
        for block, layers in one.layers_by_block.items():
            layers_by_block[block] = layers_by_block.get(block, 0) + layers
    arch._layers_by_block = layers_by_block
    checked = set(arch.blocks.values())
    for run in (run for one in resolved for run in one.first_runs):
        if run.block in checked:
            continue
        checked.add(run.block)
        for loc, message, value in run.block.problems(h):
            return (run.stack, "layers", run.group, "override", *loc), message, value
    mtp = arch._mtp_block
    if mtp is not None and mtp not in checked:
        for loc, message, value in mtp.problems(h):
            return ("mtp", "override", *loc), message, value
    problem = _vision_problem(arch)
    return problem if problem is not None else _stack_problem(arch, runs)


def _vision_blocks(arch: Architecture) -> frozenset[str]:
    """The named blocks the vision tower's layers start from (they are counted at its width)."""
    if arch.vision is None:
        return frozenset()
    names = {arch.vision.block}
    pending = list(arch.vision.layers)
    while pending:
        group = pending.pop()
        if group.block:
            names.add(group.block)
        pending += group.pattern
    return frozenset(names)


def vision_only_blocks(arch: Architecture) -> frozenset[str]:
    """The named blocks only the vision tower's layers start from."""
    used = (arch.decoder, arch.encoder)
    return frozenset(
        name
        for name in _vision_blocks(arch)
        if not any(stack and (stack.block == name or _names_block(stack.layers, name)) for stack in used)
    )


def _block_widths(arch: Architecture, name: str, vision: frozenset[str]) -> tuple[int, ...]:
    """The widths the named block is counted at: the tower's for a vision block, the hidden size
    for the others (both for a block both use)."""
    if name not in vision or arch.vision is None:
        return (arch.hidden_size,)
    used = (arch.decoder, arch.encoder)
    both = any(stack and (stack.block == name or _names_block(stack.layers, name)) for stack in used)
    return (arch.vision.width, arch.hidden_size) if both else (arch.vision.width,)


def _names_block(groups: tuple[LayerGroup, ...], name: str) -> bool:
    return any(group.block == name or _names_block(group.pattern, name) for group in groups)


def _tower_only_problem(arch: Architecture) -> Problem | None:
    """A vision tower alone is the whole model: its width is the model's, it has no tokens to
    embed or predict, and nothing to project into."""
    vision = arch.vision
    assert vision is not None
    alone = "a vision tower alone (no decoder or encoder)"
    if arch.hidden_size != vision.width:
        message = f"must be the tower's width ({vision.width:,}) in {alone}"
        return ("hidden_size",), message, arch.hidden_size
    if arch.embeddings.vocab_size:
        message = f"must be 0 in {alone}: it reads pixels, not tokens"
        return ("embeddings", "vocab_size"), message, arch.embeddings.vocab_size
    wants_tokens = (
        ("head", "present", arch.head.present, "has no LM head: turn it off"),
        ("projector", None, arch.projector is not None, "has no projector: there is no language model"),
        ("mtp", None, arch.mtp is not None, "has no multi-token prediction"),
        ("added_vocab", None, arch.added_vocab != 0, "has no vocabulary to grow"),
    )
    for name, field, present, what in wants_tokens:
        if present:
            return ((name, field) if field else (name,)), f"{alone} {what}", None
    return None


def _vision_problem(arch: Architecture) -> Problem | None:
    """A vision tower and a projector go together; the tower's layers and the projector must fit."""
    vision, projector = arch.vision, arch.projector
    if vision is None and projector is None:
        return None
    if vision is None:
        return ("projector",), "a projector needs a vision tower to project", None
    if projector is None and not arch.tower_only:
        return ("vision",), "a vision tower needs a projector to the hidden size", None
    checked: set[Block] = set()
    for run in arch.vision_runs:
        if run.block in checked:
            continue
        checked.add(run.block)
        where = ("vision", "layers", run.group, "override")
        for loc, message, value in run.block.problems(vision.width):
            return (*where, *loc), message, value
        if run.block.cross_attention is not None:
            return (*where, "cross_attention"), "a vision layer has nothing to cross-attend to", None
    if vision.positions == "learned" and vision.max_positions <= 0:
        message = say("learned positions need a table: set the position rows above 0")
        return ("vision", "max_positions"), message, vision.max_positions
    if projector is not None:
        for loc, message, value in projector.problems(vision.width, arch.hidden_size):
            return ("projector", *loc), message, value
    return None


class _Resolved(NamedTuple):
    """A stack's runs and what follows from them alone: its layers, each distinct block's
    layers, and the first run of each distinct block (where a block's problem is reported)."""

    runs: tuple[Run, ...]
    num_layers: int
    layers_by_block: dict[Block, int]
    first_runs: tuple[Run, ...]


@lru_cache(maxsize=256)
def _runs_of(role: StackRole, stack: Stack, blocks: tuple[tuple[str, Block], ...]) -> _Resolved:
    """``flatten``, once per stack and blocks: an edit of the hidden size, the vocabulary or one
    block hands the stack on as it is (its hash kept), and need not resolve its groups again."""
    groups = stack.layers
    runs = flatten(role, groups, dict(blocks), stack.block)
    layers_by_block: dict[Block, int] = {}
    first_runs: list[Run] = []
    for run in runs:
        if run.block not in layers_by_block:
            first_runs.append(run)
        layers_by_block[run.block] = layers_by_block.get(run.block, 0) + run.layers
    layers = sum(group.layers for group in groups)
    return _Resolved(runs, layers, layers_by_block, tuple(first_runs))


def stack_runs(role: StackRole, stack: Stack, blocks: Mapping[str, Block]) -> tuple[Run, ...]:
    """The runs of ``stack`` with ``blocks``: the very tuple a valid architecture holding them
    resolved (cached with them)."""
    return _runs_of(role, stack, tuple(blocks.items())).runs


def _check_stack_base(arch: Architecture, role: StackRole, stack: Stack) -> None:
    if stack.block not in arch.blocks:
        raise ResolveError(
            (role, "block"), say("no base block named {name}", name=shown(stack.block, 60)), stack.block
        )


def _stack_problem(arch: Architecture, runs: list[Run]) -> Problem | None:
    for role, stack in arch.stacks:
        if stack.positions == "learned" and stack.max_positions <= 0:
            message = say("learned positions need a table: set the maximum positions above 0")
            return (role, "max_positions"), message, stack.max_positions
        if stack.relative_buckets:
            first = next(run for run in runs if run.stack == role and run.start == 0)
            if not first.block.mixer.bias_heads():  # the bias is added to its heads' scores
                return (
                    (role, "relative_buckets"),
                    "a relative position bias needs attention in the first layer",
                    0,
                )
    attended = arch.encoder is not None or arch.vision is not None  # what cross-attention reads
    for run in runs:
        if run.block.cross_attention is not None and (run.stack != "decoder" or not attended):
            where = (run.stack, "layers", run.group, "override", "cross_attention")
            return where, "cross-attention needs an encoder (or a vision tower) and sits in the decoder", None
    if arch.mtp_block is not None and arch.mtp_block.cross_attention is not None and not attended:
        return ("mtp", "override", "cross_attention"), "cross-attention needs an encoder to attend to", None
    return None
