"""Hypothesis strategies for small but varied architectures of every shape schema 2 can express:
every mixer and FFN kind, layer groups that override their base block, repeating patterns,
encoder-decoder stacks with cross-attention, and MTP modules."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from paramtally.core.blocks import MIXER_KINDS
from paramtally.core.schema import Architecture

HIDDEN = 64  # every mixer below divides it


@st.composite
def mixers(draw: st.DrawFn, kinds: tuple[str, ...] | None = None) -> dict[str, Any]:
    names = kinds or tuple(str(kind.model_fields["kind"].default) for kind in MIXER_KINDS)
    kind = draw(st.sampled_from(names))
    if kind == "mla":
        q_rank = draw(st.none() | st.integers(1, 64))
        return {
            "kind": "mla",
            "num_heads": draw(st.integers(1, 8)),
            "q_lora_rank": q_rank,
            # DeepSeek-V3.2's indexer reads the q latent: only beside a q rank
            "indexer_heads": draw(st.integers(0, 4)) if q_rank else 0,
            "indexer_head_dim": draw(st.integers(1, 32)),
            "kv_lora_rank": draw(st.integers(1, 64)),
            "qk_rope_head_dim": draw(st.integers(1, 16)),
            "qk_nope_head_dim": draw(st.integers(0, 16)),
            "v_head_dim": draw(st.integers(1, 16)),
            "q_bias": draw(st.booleans()),
            "kv_bias": draw(st.booleans()),
            "o_bias": draw(st.booleans()),
        }
    if kind == "attention":
        kv_heads = draw(st.integers(1, 4))
        return {
            "kind": "attention",
            "num_heads": kv_heads * draw(st.integers(1, 4)),
            "num_kv_heads": kv_heads,
            "head_dim": draw(st.integers(1, 32)),
            "q_bias": draw(st.booleans()),
            "k_bias": draw(st.booleans()),
            "v_bias": draw(st.booleans()),
            "o_bias": draw(st.booleans()),
            "qk_norm": draw(st.booleans()),
            "qk_norm_span": draw(st.sampled_from(["head", "projection", "heads"])),
            "o_reads_hidden": draw(st.booleans()),
            "sinks": draw(st.booleans()),
            "output_gate": draw(st.booleans()),
            "relative_buckets": draw(st.sampled_from([0, 0, 32])),
            "global_projections": draw(st.booleans()),
            "sliding_window": draw(st.none() | st.integers(1, 512)),
        }
    return draw(_recurrent(kind))


def _recurrent(kind: str) -> st.SearchStrategy[dict[str, Any]]:
    """Small valid settings of a recurrent mixer kind, from its own strategy hook."""
    from paramtally.core.blocks import MIXER_KINDS as kinds

    cls = next(k for k in kinds if k.model_fields["kind"].default == kind)
    examples = getattr(cls, "EXAMPLES", None)
    assert examples, f"{cls.__name__} needs EXAMPLES for the property tests"
    return st.sampled_from(examples).map(lambda example: {"kind": kind, **example})


@st.composite
def ffns(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["dense", "moe", "none", "rwkv_channel_mix"]))
    if kind == "none":
        return {"kind": "none"}
    if kind == "rwkv_channel_mix":
        return {"kind": kind, "width": draw(st.integers(1, 256))}
    if kind == "dense":
        return {
            "kind": "dense",
            "width": draw(st.integers(1, 256)),
            "gated": draw(st.booleans()),
            "bias": draw(st.booleans()),
            "inner_norm": draw(st.booleans()),
            "activation": draw(st.sampled_from(["silu", "gelu", "relu2", "xielu"])),
        }
    experts = draw(st.integers(1, 8))
    return {
        "kind": "moe",
        "num_experts": experts,
        "top_k": draw(st.integers(1, experts)),
        "expert_width": draw(st.integers(1, 64)),
        "gated": draw(st.booleans()),
        "shared_experts": draw(st.integers(0, 2)),
        "shared_expert_width": draw(st.none() | st.integers(1, 64)),
        "shared_expert_gate": draw(st.booleans()),
        "router_bias": draw(st.booleans()),
        "zero_experts": draw(st.integers(0, 4)),
        "expert_bias": draw(st.booleans()),
    }


@st.composite
def blocks(draw: st.DrawFn, cross: bool = False, kinds: tuple[str, ...] | None = None) -> dict[str, Any]:
    block: dict[str, Any] = {
        "mixer": draw(mixers(kinds)),
        "ffn": draw(ffns()),
        "norms": {
            "kind": draw(st.sampled_from(["layernorm", "rmsnorm"])),
            "bias": draw(st.booleans()),
            "count": draw(st.integers(0, 4)),
        },
    }
    if draw(st.booleans()):
        block["parallel_mixer"] = draw(mixers(kinds))
    if cross:
        block["cross_attention"] = draw(mixers(("attention",)))
    if draw(st.booleans()):
        targets = st.lists(
            st.sampled_from(["q", "k", "v", "o", "gate", "up", "down"]), min_size=1, max_size=7, unique=True
        )
        block["lora"] = {"rank": draw(st.integers(1, 8)), "targets": draw(targets)}
    if draw(st.booleans()):
        placement = st.sampled_from(["attention", "ffn", "both"])
        block["adapter"] = {
            "width": draw(st.integers(1, 16)),
            "placement": draw(placement),
            "bias": draw(st.booleans()),
        }
    return block


@st.composite
def overrides(draw: st.DrawFn, kinds: tuple[str, ...] | None = None) -> dict[str, Any]:
    """What a layer group may change: nothing, its FFN, its mixer, a window, an insertion."""
    choice = draw(st.sampled_from(["none", "ffn", "mixer", "window", "lora"]))
    if choice == "ffn":
        return {"ffn": draw(ffns())}
    if choice == "mixer":
        return {"mixer": draw(mixers(kinds))}
    if choice == "window":
        window = draw(st.integers(1, 64))
        return {"mixer": {"kind": "attention", "num_heads": 4, "num_kv_heads": 1, "sliding_window": window}}
    if choice == "lora":
        return {"lora": {"rank": draw(st.integers(1, 4)), "targets": ["q", "up"]}}
    return {}


@st.composite
def layer_groups(draw: st.DrawFn, depth: int = 0, kinds: tuple[str, ...] | None = None) -> dict[str, Any]:
    group: dict[str, Any] = {"count": draw(st.integers(1, 4))}
    override = draw(overrides(kinds))
    if override:
        group["override"] = override
    if depth == 0 and draw(st.integers(0, 3)) == 0:
        group["pattern"] = draw(st.lists(layer_groups(depth=1, kinds=kinds), min_size=1, max_size=3))
    return group


@st.composite
def stacks(draw: st.DrawFn, positions: str, kinds: tuple[str, ...] | None = None) -> dict[str, Any]:
    return {
        "layers": draw(st.lists(layer_groups(kinds=kinds), min_size=1, max_size=4)),
        "positions": positions,
        "max_positions": draw(st.integers(1, 256)) if positions == "learned" else 0,
        "position_offset": draw(st.integers(0, 2)),
        "embedding_norm": draw(st.booleans()),
        "final_norm": draw(st.booleans()),
    }


@st.composite
def architectures(
    draw: st.DrawFn, kinds: tuple[str, ...] | None = None, encoders: bool = True
) -> Architecture:
    """A small architecture; ``kinds`` limits the mixer kinds, ``encoders`` allows encoder-decoders."""
    positions = draw(st.sampled_from(["learned", "rope", "alibi", "sinusoidal", "none"]))
    encoder_decoder = encoders and draw(st.integers(0, 4)) == 0
    data: dict[str, Any] = {
        "hidden_size": HIDDEN,
        "embeddings": {
            "vocab_size": draw(st.integers(1, 1000)),
            "embed_dim": draw(st.none() | st.integers(1, 64)),
            "token_types": draw(st.integers(0, 2)),
        },
        "blocks": {"default": draw(blocks(kinds=kinds))},
        "decoder": draw(stacks(positions, kinds)),
        "head": {
            "present": draw(st.booleans()),
            "tied": draw(st.booleans()),
            "bias": draw(st.booleans()),
            "transform": draw(st.booleans()),
        },
        "added_vocab": draw(st.integers(0, 50)),
    }
    if encoder_decoder:
        data["blocks"]["cross"] = draw(blocks(cross=True, kinds=kinds))
        data["decoder"]["block"] = "cross"
        data["encoder"] = draw(stacks(positions, kinds))
    if draw(st.integers(0, 5)) == 0:
        data["mtp"] = {"count": draw(st.integers(1, 2)), "own_embedding": draw(st.booleans())}
    return Architecture.model_validate(data)
