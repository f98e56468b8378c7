"""What a decode step streams from memory: the weights its matmuls read, stage by stage.

A step runs the decoder's layers and the LM head for the batch's b new tokens. It reads every
weight of those layers once, but not the rest of what a GPU holds: an encoder ran once, at
prefill, and keeps no weight in the step, nor do the cross-attention's K and V projections (they
filled the cross-attention cache then); the input embedding is looked up, b rows of it, not
streamed (tied to the head, it is read as the head). A routed expert is read when one of the b
tokens picks it: with k of E experts picked per token, uniformly, an expert stays unread with
probability (1 − k/E)^b — at b = 1 a step reads the active parameters, at b = 64 of Qwen3-30B-A3B
(8 of 128) 98 % of the experts. Real routers are skewed, so this is the most a batch reads: a
bound, as the roofline it feeds is. The rule is the same wherever a part routes (``routing()``,
its E − k idle experts ``inactive``): an MoE's experts and a mixture of attention heads' (JetMoE's
q and o of k of E attention experts, each token its own pick; ``tools/measure_jetmoe_decode_reads.py``
counts the experts a real step runs).

Per stage this is a share of the bytes a GPU holds (``weights``, from the memory terms), the
parameters on one GPU weighted alike: (S + Y/ep)/(P + X/ep), with P and S the stage's parameters
outside the routed FFN experts and those of them streamed (attention experts among them, read as
the batch picks them), X and Y its routed FFN experts' parameters and those read (expert
parallelism puts X/ep of them on a GPU; tensor parallelism divides both).
Embeddings kept at 16 bits beside quantized weights, and routed experts in a format kept for them
alone (MXFP4), are weighed apart, at their own bytes (``core.memory.serving``); a GGUF format's
per-tensor types are weighed as the stage's average.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from paramtally.core.blocks import FFNKind, MixerKind
from paramtally.core.blocks.base import Context
from paramtally.core.memory.stages import model_layout
from paramtally.core.schema import Architecture, Block

__all__ = ["StageReads", "cross_projections", "stage_reads", "unread_experts"]


class StageReads(NamedTuple):
    """One stage's parameters: outside the routed experts (held, streamed by a step) and routed."""

    held: int  # P
    streamed: int  # S
    experts: int  # X
    experts_read: int  # Y, expected (rounded to a whole parameter)
    embed16: int = 0  # E: among P, the embedding and head numbers that may stay at 16 bits
    embed16_streamed: int = 0  # among S, those of them (the head's)

    def share(self, ep: int, without16: bool = False) -> float:
        """The share of a GPU's weight bytes a decode step reads (``without16``: of those outside
        the 16-bit embeddings, which are weighed apart)."""
        apart, apart_streamed = (self.embed16, self.embed16_streamed) if without16 else (0, 0)
        held = self.held - apart + self.experts / ep
        return (self.streamed - apart_streamed + self.experts_read / ep) / held if held > 0 else 0.0


@lru_cache(maxsize=256)
def stage_reads(arch: Architecture, pp: int, batch: int) -> tuple[StageReads, ...]:
    """Each pipeline stage's parameters a decode step of ``batch`` tokens streams."""
    layout = model_layout(arch, pp)
    h = arch.hidden_size
    head = (arch.embeddings.vocab_size + arch.added_vocab) * arch.embed_dim if arch.head.present else 0
    tail = head
    stack = arch.main_stack  # the decoder (its final norm before the head), or an encoder alone
    if stack.final_norm:
        tail += arch.base_block(stack).context(h).norm_per_width * h
    sizes = layout.block_sizes
    unread: dict[int, tuple[float, float]] = {}  # by the block's identity, as the stages hold it
    found = []
    for stage in layout.stages:
        streamed, read = 0.0, 0.0
        for block, layers in stage.decoder_blocks:
            params, routed = sizes[id(block)]
            if id(block) not in unread:
                unread[id(block)] = _unread(block, h, batch)
            mixers, ffn = unread[id(block)]
            streamed += layers * (params - routed - cross_projections(block, h) - mixers)
            read += layers * (routed - ffn)
        head16 = 0
        if stage.index == pp - 1:
            streamed += tail  # the LM head and the norm before it
            head16 = min(head, stage.embed16)  # the head (or the tied copy) among the 16-bit numbers
        held = stage.params - stage.experts
        streamed_whole = min(round(streamed), held)
        found.append(StageReads(held, streamed_whole, stage.experts, round(read), stage.embed16, head16))
    return tuple(found)


def cross_projections(block: Block, h: int) -> int:
    """One layer's cross-attention K and V projections: they turn the encoder's output into the
    cross-attention cache once per request, at prefill, and a decode step reads the cache instead."""
    cross = block.cross_attention
    return cross.kv_projections(block.context(h)) if cross is not None else 0


def _unread(block: Block, h: int, batch: int) -> tuple[float, float]:
    """One layer's routed parameters that no token of the batch picks (expected): its mixers'
    (a mixture of attention heads') and its FFN's."""
    ctx = block.context(h)
    mixers = sum(unread_experts(mixer, ctx, batch) for mixer in (block.mixer, block.parallel_mixer) if mixer)
    return mixers, unread_experts(block.ffn, ctx, batch)


def unread_experts(part: MixerKind | FFNKind, ctx: Context, batch: int) -> float:
    """A part's routed-expert parameters that no token of a batch of ``batch`` picks (expected):
    E experts alike, k picked per token uniformly, the E − k a token leaves its ``inactive`` ones;
    each stays unread by every token with probability (1 − k/E)^b."""
    experts, per_token = part.routing()
    idle = part.inactive(ctx)
    if not idle or per_token >= experts:
        return 0.0
    return idle * experts / (experts - per_token) * (1.0 - per_token / experts) ** batch
