"""Images in memory: the tokens they put in the language model's context, and the vision tower's
working set and activations.

An image of S pixels per side is first resized as the family's image processor does
(``core.families.image_resize``: Qwen2-VL's smart_resize to multiples of 28, Gemma-3's, PaliGemma's
and LLaVA-1.5's to the tower's own size; other families' images taken as given). An image (or
tile) the tower sees at S pixels per side is (S/p)² patches in the vision tower, and the projector's
merges leave (S/p)²/Π s² tokens for the language model: Qwen2.5-VL at 448² has 1,024 patches and
256 tokens, Gemma-3 at 896² 4,096 and 256 (its 4×4 pooling), LLaVA-1.5 at 336² 576 (the class
token dropped). They join the text in the context — its KV cache, its activations — except in
Mllama, whose cross-attention layers read the tower's tokens (class token included, per tile) and
cache their K and V once per sequence, as a decoder caches an encoder's.

The tower's own activations are estimates: Korthikanti et al. 2022's per-layer terms at its width,
with attention within each image (or tile); nothing here measured them.
"""

from __future__ import annotations

import math
from functools import lru_cache

from paramtally.core.families import image_resize
from paramtally.core.memory.scenario import Scenario, with_changes
from paramtally.core.schema import Architecture
from paramtally.core.schema.vision import Merge, ProjectorStepKind
from paramtally.core.terms.term import Term
from paramtally.core.text import say

__all__ = [
    "cross_image_tokens",
    "image_tokens",
    "images_text",
    "language_scenario",
    "seen_size",
    "tokens_per_image",
    "tower_tokens_per_image",
    "tower_trains",
    "vision_terms",
]

KORTHIKANTI = (
    "an estimate: Korthikanti et al. 2022's activations of a transformer layer, s·b·h·(34 + 5·a·s/h) "
    "bytes at 16 bits (34 with FlashAttention or selective recompute, 2 with full recompute), at the "
    "tower's width e over each image's n tokens, for the N images of a micro-batch; the tower unsplit "
    "by TP, on the first pipeline stage"
)


def seen_size(arch: Architecture, image_size: int | None = None) -> tuple[int, int]:
    """Height and width the vision tower sees of a square image of ``image_size`` pixels a side
    (empty: the tower's own size), after the family's image processor resized it
    (``core.families.image_resize``: Qwen2-VL's smart_resize at patch·merge, Gemma-3's, PaliGemma's
    and LLaVA-1.5's fixed size)."""
    vision = arch.vision
    if vision is None:
        return 0, 0
    merge = math.isqrt(arch.projector.merged) if arch.projector is not None else 1
    rule = image_resize(arch.family)
    return rule.resized(image_size or vision.image_size, vision.image_size, vision.patches.patch_size * merge)


def _patches(arch: Architecture, image_size: int | None) -> int:
    """Patches of one image (or tile) as the tower sees it."""
    assert arch.vision is not None
    p = arch.vision.patches.patch_size
    height, width = seen_size(arch, image_size)
    return (height // p) * (width // p)


def tokens_per_image(arch: Architecture, image_size: int | None = None) -> int:
    """Tokens one image puts in the language model's context: its tiles' patches over the
    projector's merges (0 without a vision tower)."""
    vision, projector = arch.vision, arch.projector
    if vision is None or projector is None:
        return 0
    return vision.tiles_per_image * (_patches(arch, image_size) // projector.merged)


def tower_tokens_per_image(arch: Architecture, image_size: int | None = None) -> int:
    """Tokens the vision tower runs over for one image: its patches and class token, per tile."""
    vision = arch.vision
    if vision is None:
        return 0
    per_tile = _patches(arch, image_size) + vision.patches.class_token
    return vision.tiles_per_image * per_tile


def tower_trains(arch: Architecture, s: Scenario) -> bool:
    """Whether a training trains the vision tower: when asked, and always for a tower alone (it is
    the whole model: frozen, nothing would train)."""
    return s.train_vision or arch.tower_only


def _cross_attending(arch: Architecture) -> bool:
    """Whether the language model reads the image through cross-attention (Mllama), not its context."""
    return arch.encoder is None and any(run.block.cross_attention is not None for run in arch.runs)


def image_tokens(arch: Architecture, s: Scenario) -> int:
    """Tokens the images of one sequence add to the language model's context."""
    if arch.vision is None or not s.images or _cross_attending(arch):
        return 0
    return s.images * tokens_per_image(arch, s.image_size)


def cross_image_tokens(arch: Architecture, s: Scenario) -> int | None:
    """Tokens a cross-attention over the image reads per sequence (Mllama); None for other models."""
    if arch.vision is None or not _cross_attending(arch):
        return None
    return max(s.images, 1) * tower_tokens_per_image(arch, s.image_size)


def language_scenario(arch: Architecture, s: Scenario) -> Scenario:
    """``s`` as the language model's layers see it: its context holds the image tokens too."""
    tokens = image_tokens(arch, s)
    return with_changes(s, (("context", s.context + tokens),)) if tokens else s


def images_text(arch: Architecture, s: Scenario) -> str | None:
    """The images of a sequence in words, as the memory reports say them ('1 image of 448² pixels:
    256 tokens in the context (1,024 patches in the tower), the tower frozen'); None without a tower.
    Each piece is a sentence core says (``say``), so the window puts it in its language."""
    vision = arch.vision
    if vision is None:
        return None
    size = s.image_size or vision.image_size
    if not s.images:
        if arch.tower_only:
            return say("no images (0 of {size:,}² pixels): the weights alone", size=size)
        return say("no images (0 of {size:,}² pixels): text alone", size=size)
    if s.images == 1:
        count = say("1 image of {size:,}² pixels", size=size)
    else:
        count = say("{n:,} images of {size:,}² pixels", n=s.images, size=size)
    height, width = seen_size(arch, size)
    if (height, width) != (size, size):  # the processor resized it: say to what
        count = say("{count}, resized to {height:,}×{width:,}", count=count, height=height, width=width)
    patches = tower_tokens_per_image(arch, size)
    if arch.tower_only:
        if s.mode == "training":
            return say(
                "{count}: {patches:,} patches each, encoded by the tower alone (no language model, no "
                "KV cache), the tower trained",
                count=count,
                patches=patches,
            )
        return say(
            "{count}: {patches:,} patches each, encoded by the tower alone (no language model, no KV cache)",
            count=count,
            patches=patches,
        )
    cross = cross_image_tokens(arch, s)
    if cross is not None:
        where = say(
            "{tokens:,} tokens read by cross-attention ({patches:,} patches in the tower per image)",
            tokens=cross,
            patches=patches,
        )
    else:
        where = say(
            "{tokens:,} tokens in the context ({patches:,} patches in the tower per image)",
            tokens=image_tokens(arch, s),
            patches=patches,
        )
    if s.mode != "training":
        return say("{count}: {where}", count=count, where=where)
    if tower_trains(arch, s):
        return say("{count}: {where}, the tower trained", count=count, where=where)
    return say("{count}: {where}, the tower frozen", count=count, where=where)


def _tower_widths(arch: Architecture) -> int:
    """The widest intermediate of the tower's layers (attention projections or MLP)."""
    vision = arch.vision
    assert vision is not None
    widest = 0
    for run in arch.vision_runs:
        block = run.block
        ctx = block.context(vision.width)
        ffn = (2 if block.ffn.gated else 1) * block.ffn.active_width()
        widest = max(widest, block.mixer.prefill_width(ctx), ffn)
    return widest


def _projector_widths(arch: Architecture) -> int:
    """The features the projector's weighted steps keep for backward per image token of the tower:
    each step's input (and an MLP's intermediate), scaled down by the merges before it."""
    vision, projector = arch.vision, arch.projector
    assert vision is not None and projector is not None
    kept, width, merged = 0, projector.features * vision.width, 1
    steps: tuple[ProjectorStepKind, ...] = projector.steps
    for step in steps:
        kept += step.kept_widths(width) // merged  # an MLP: its input and its intermediate
        if isinstance(step, Merge):
            merged *= step.factor**2
        width = step.apply(width, arch.hidden_size)[1]
    return kept


@lru_cache(maxsize=256)
def vision_terms(arch: Architecture, s: Scenario) -> tuple[Term, ...]:
    """The images' terms on the first pipeline stage: the tower's working set while serving; in
    training the projector's activations and, when the tower trains, the tower's."""
    vision = arch.vision
    if vision is None or not s.images:
        return ()
    n = tower_tokens_per_image(arch, s.image_size) // vision.tiles_per_image  # attention spans a tile
    images = s.batch * max(s.images, 1) * vision.tiles_per_image
    byte = 4 if s.dtype == "fp32" else 2
    e = vision.width
    if s.mode == "inference":
        working = Term.of(
            "activations (vision tower working set)",
            "activations",
            "N·n·B·(2·e + W_v)",
            "an estimate: one tower layer's residual, norm output and widest intermediate W_v for "
            "every patch of the batch's N images (or tiles) at once, at B bytes; the tower encodes "
            "before the language model's prefill, so beside its working set this is an upper bound",
            N=images,
            n=n,
            B=byte,
            e=e,
            W_v=_tower_widths(arch),
        )
        return (working,)
    terms = (
        []
        if arch.projector is None
        else [
            Term.of(
                "activations (projector, estimate)",
                "activations",
                "N·n·W_p·B",
                "an estimate: each weighted projector step keeps its input (an MLP its intermediate too) "
                "per image token, W_p in all after the merges before each step",
                N=images,
                n=n,
                W_p=_projector_widths(arch),
                B=byte,
            )
        ]
    )
    if tower_trains(arch, s):
        heads = max((run.block.mixer.score_heads() for run in arch.vision_runs), default=0)
        layers = vision.num_layers
        values: dict[str, int] = {}
        if s.recompute == "full":
            expr = "L_v·N·n·2·e"
        elif s.flash_attention or s.recompute == "selective":
            expr = "L_v·N·n·34·e"
        else:
            expr, values = "L_v·N·n·(34·e + 5·a_v·n)", {"a_v": heads}
        terms.append(
            Term.of(
                "activations (vision tower, estimate)",
                "activations",
                expr,
                KORTHIKANTI,
                L_v=layers,
                N=images,
                n=n,
                e=e,
                **values,
            )
        )
    return tuple(terms)
