"""Activation memory: what the backward pass needs kept, per GPU (Korthikanti et al. 2022).

The paper's per-layer bytes for 16-bit activations, f = 4h and MHA are sbh(34 + 5as/h). Written
per stored tensor it is s·b·(R + S) + 5·a·s²·b with R = 10h for the tensors TP does not split
(two LayerNorm inputs 4h, the QKV and MLP inputs 4h, two dropout masks 2h) and S = 24h for the
ones it does (Q and K 4h, V 2h, output-projection input 2h, MLP 16h). We generalize S from the
widths that are really there: 2·(q + k + v + o) with GQA's k = v = g·d_h (MLA: a·(d_nope + d_rope)
for q and k, a·d_v for v and o), plus 4f for a plain FFN (activation input and output) or 8f for a
gated one (gate, up, activation output, product); an MoE layer's f is k·f_e plus the shared width.
R counts 2h for each of the block's norms.
"""

from __future__ import annotations

from fractions import Fraction

from paramtally.core.scenario import Scenario
from paramtally.core.schema import Architecture, MoE
from paramtally.core.stages import Stage
from paramtally.core.terms import Piece, Spec

__all__ = [
    "INFERENCE_CHUNK",
    "activation_specs",
    "inference_act_pieces",
    "layer_activation_bytes",
    "token_widths",
]

INFERENCE_CHUNK = 2048  # prefill tokens processed at once (chunked prefill); an assumption, stated

KORTHIKANTI = (
    "Korthikanti et al. 2022 §4 (16-bit activations, dropout masks kept), generalized: R = 2h per "
    "norm + 6h (QKV and MLP inputs, two dropout masks); S = 2·(q + k + v + o widths) + 4f plain / 8f "
    "gated FFN (MoE: f = k·f_e + shared width); 5·a·s² scores unless FlashAttention or selective "
    "recompute; full recompute keeps 2sbh; sequence parallel divides R by t; 1F1B: stage i holds "
    "p − i micro-batches"
)


def _attention_widths(arch: Architecture) -> int:
    att = arch.attention
    if att.kind == "mla":
        qk = att.num_heads * (att.qk_nope_head_dim + att.qk_rope_head_dim)
        vo = att.num_heads * att.v_head_dim
        return 2 * qk + 2 * vo
    a_w, g_w = att.num_heads * arch.head_dim, arch.num_kv_heads * arch.head_dim
    return 2 * a_w + 2 * g_w


def _ffn_width(arch: Architecture, moe: MoE | None) -> int:
    if moe is None:
        return arch.ffn.width
    shared = moe.shared_experts * (moe.shared_expert_width or moe.expert_width)
    return moe.top_k * moe.expert_width + shared


def token_widths(arch: Architecture, moe: MoE | None) -> tuple[int, int]:
    """(R, S): bytes per token per layer of 16-bit activations kept whole / split by TP."""
    h = arch.hidden_size
    r = 2 * h * arch.norms.per_block + 6 * h
    s = 2 * _attention_widths(arch) + (8 if arch.ffn.gated else 4) * _ffn_width(arch, moe)
    return r, s


def _over(symbol: str, divisor: int) -> str:
    return f"/{symbol}" if divisor > 1 else ""


def _layer_expr(s: Scenario) -> str:
    t, sp = s.tp, (s.tp if s.sequence_parallel else 1)
    if s.recompute == "full":
        return f"2·s·b·h{_over('t', sp)}"
    scores = "" if s.flash_attention or s.recompute == "selective" else f" + 5·a·s{_over('t', t)}"
    return f"s·b·(R{_over('t', sp)} + S{_over('t', t)}{scores})"


def _scale(s: Scenario) -> tuple[str, dict[str, int]]:
    return ("·B/2", {"B": 4}) if s.dtype == "fp32" else ("", {})


def _layer_values(arch: Architecture, s: Scenario, moe: MoE | None) -> dict[str, int]:
    r, w = token_widths(arch, moe)
    return {
        "s": s.context,
        "b": s.batch,
        "h": arch.hidden_size,
        "a": arch.attention.num_heads,
        "t": s.tp,
        "R": r,
        "S": w,
    }


def layer_activation_bytes(arch: Architecture, s: Scenario, moe: MoE | None = None) -> int:
    """Bytes one layer keeps for one micro-batch on one GPU (training)."""
    scale, extra = _scale(s)
    return Spec.of("", "", _layer_expr(s) + scale, "", **_layer_values(arch, s, moe), **extra).value


def _first_moe(arch: Architecture) -> MoE | None:
    return next((group.moe for group in arch.layers if group.moe), None)


def _training_specs(arch: Architecture, s: Scenario, stage: Stage, last: bool) -> list[Spec]:
    scale, extra = _scale(s)
    in_flight = s.pp - stage.index
    specs = []
    for count, moe, label in (
        (stage.dense_layers, None, "dense"),
        (stage.moe_layers, _first_moe(arch), "MoE"),
    ):
        if not count:
            continue
        name = (
            "activations"
            if not (stage.dense_layers and stage.moe_layers)
            else f"activations ({label} layers)"
        )
        expr = ("m·" if in_flight > 1 else "") + "L·" + _layer_expr(s) + scale
        values = _layer_values(arch, s, moe) | {"L": count, "m": in_flight} | extra
        specs.append(Spec.of(name, "activations", expr, KORTHIKANTI, **values))
    if last and arch.head.present:
        specs.append(
            Spec.of(
                "output layer (fp32 logits)",
                "activations",
                f"4·s·b·(h + V){_over('t', s.tp)}",
                "Korthikanti et al. 2022 §4.3: output layer 4sbh/t·(1 + V/h), on the last stage",
                s=s.context,
                b=s.batch,
                h=arch.hidden_size,
                V=arch.embeddings.vocab_size,
                t=s.tp,
            )
        )
    return specs


def _inference_width(arch: Architecture) -> int:
    ffn = max(_ffn_width(arch, group.moe) for group in arch.layers)
    att = arch.attention
    if att.kind == "mla":
        qkv = att.num_heads * (2 * (att.qk_nope_head_dim + att.qk_rope_head_dim) + att.v_head_dim)
    else:
        qkv = (att.num_heads + 2 * arch.num_kv_heads) * arch.head_dim
    return qkv + (2 if arch.ffn.gated else 1) * ffn


_INFERENCE_SOURCE = (
    "working set of one layer while a prefill chunk of C tokens runs: residual and norm output 2h, "
    "q/k/v and FFN intermediates W split by TP, at B bytes; an estimate, as vLLM profiles it"
)


def activation_specs(arch: Architecture, s: Scenario, stage: Stage, last: bool) -> list[Spec]:
    """Activation terms of one pipeline stage on one GPU."""
    if s.mode == "training":
        return _training_specs(arch, s, stage, last)
    specs = [
        Spec.of(
            "activations (prefill working set)",
            "activations",
            f"min(s·b, C)·B·(2·h + W{_over('t', s.tp)})",
            _INFERENCE_SOURCE,
            s=s.context,
            b=s.batch,
            C=INFERENCE_CHUNK,
            B=4 if s.dtype == "fp32" else 2,
            h=arch.hidden_size,
            W=_inference_width(arch),
            t=s.tp,
        )
    ]
    if last and arch.head.present:
        specs.append(
            Spec.of(
                "logits (fp32, last token)",
                "activations",
                "b·V·4",
                "sampling reads fp32 logits of each sequence's last token",
                b=s.batch,
                V=arch.embeddings.vocab_size,
            )
        )
    return specs


def inference_act_pieces(arch: Architecture, s: Scenario) -> list[Piece]:
    """The prefill working set as ceil(p·min(b·s, C)/q), for the largest context."""
    per_token = Fraction(
        (4 if s.dtype == "fp32" else 2) * (2 * arch.hidden_size * s.tp + _inference_width(arch)), s.tp
    )
    return [(per_token.numerator, per_token.denominator, s.batch, INFERENCE_CHUNK)]
