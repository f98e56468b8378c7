"""Hypothesis strategies for small but varied architectures."""

from __future__ import annotations

from hypothesis import strategies as st

from paramtally.core.schema import (
    FFN,
    Adapter,
    Architecture,
    Attention,
    Embeddings,
    Head,
    LayerGroup,
    LoRA,
    MoE,
    Norms,
)


@st.composite
def attentions(draw: st.DrawFn) -> Attention:
    if draw(st.booleans()):
        return Attention(
            kind="mla",
            num_heads=draw(st.integers(1, 8)),
            q_lora_rank=draw(st.none() | st.integers(1, 64)),
            kv_lora_rank=draw(st.integers(1, 64)),
            qk_rope_head_dim=draw(st.integers(1, 16)),
            qk_nope_head_dim=draw(st.integers(0, 16)),
            v_head_dim=draw(st.integers(1, 16)),
            q_bias=draw(st.booleans()),
            k_bias=draw(st.booleans()),
            o_bias=draw(st.booleans()),
        )
    kv_heads = draw(st.integers(1, 4))
    return Attention(
        num_heads=kv_heads * draw(st.integers(1, 4)),
        num_kv_heads=kv_heads,
        head_dim=draw(st.integers(1, 32)),
        q_bias=draw(st.booleans()),
        k_bias=draw(st.booleans()),
        v_bias=draw(st.booleans()),
        o_bias=draw(st.booleans()),
        qk_norm=draw(st.booleans()),
    )


@st.composite
def layer_groups(draw: st.DrawFn) -> LayerGroup:
    moe = None
    if draw(st.booleans()):
        experts = draw(st.integers(1, 8))
        moe = MoE(
            num_experts=experts,
            top_k=draw(st.integers(1, experts)),
            expert_width=draw(st.integers(1, 64)),
            shared_experts=draw(st.integers(0, 2)),
            shared_expert_width=draw(st.none() | st.integers(1, 64)),
            shared_expert_gate=draw(st.booleans()),
            router_bias=draw(st.booleans()),
            expert_bias=draw(st.booleans()),
        )
    lora = draw(
        st.none()
        | st.builds(
            LoRA,
            rank=st.integers(1, 8),
            targets=st.lists(
                st.sampled_from(["q", "k", "v", "o", "gate", "up", "down"]),
                min_size=1,
                max_size=7,
                unique=True,
            ).map(tuple),
        )
    )
    adapter = draw(
        st.none()
        | st.builds(
            Adapter,
            width=st.integers(1, 16),
            placement=st.sampled_from(["attention", "ffn", "both"]),
            bias=st.booleans(),
        )
    )
    return LayerGroup(count=draw(st.integers(1, 4)), moe=moe, lora=lora, adapter=adapter)


@st.composite
def architectures(draw: st.DrawFn) -> Architecture:
    position = draw(st.sampled_from(["learned", "rope", "alibi", "sinusoidal", "none"]))
    return Architecture(
        hidden_size=draw(st.integers(1, 128)),
        embeddings=Embeddings(
            vocab_size=draw(st.integers(1, 1000)),
            embed_dim=draw(st.none() | st.integers(1, 64)),
            position=position,
            max_positions=draw(st.integers(1, 256)) if position == "learned" else 0,
            position_offset=draw(st.integers(0, 2)),
            token_types=draw(st.integers(0, 2)),
            norm=draw(st.booleans()),
        ),
        attention=draw(attentions()),
        ffn=FFN(width=draw(st.integers(1, 256)), gated=draw(st.booleans()), bias=draw(st.booleans())),
        norms=Norms(
            kind=draw(st.sampled_from(["layernorm", "rmsnorm"])),
            bias=draw(st.booleans()),
            per_block=draw(st.integers(0, 4)),
            final=draw(st.booleans()),
        ),
        head=Head(
            present=draw(st.booleans()),
            tied=draw(st.booleans()),
            bias=draw(st.booleans()),
            transform=draw(st.booleans()),
            pooler=draw(st.booleans()),
        ),
        layers=tuple(draw(st.lists(layer_groups(), min_size=1, max_size=4))),
        added_vocab=draw(st.integers(0, 50)),
    )
