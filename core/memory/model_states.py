"""Weights, gradients and optimizer states on one GPU, with TP, expert parallelism and ZeRO / FSDP.

Mixed-precision AdamW keeps 2Ψ weights + 2Ψ gradients + 12Ψ fp32 master, m and v (ZeRO paper,
Rajbhandari et al. 2020). ZeRO-1 shards the optimizer states over the N_d data-parallel GPUs,
ZeRO-2 also the gradients, ZeRO-3 (FSDP full sharding) also the weights. Tensor parallelism
divides everything by t first. LoRA/QLoRA: the base is frozen (no gradients or states); only
the adapters train.

Some parameters are held differently, each its own "share" with its own terms:
- expert parallelism (Megatron-LM) spreads the routed experts over ep of the N_d data-parallel
  GPUs: their weights, gradients and states are divided by t·ep, and where ZeRO shards them by
  t·N_d (over the N_d/ep GPUs that hold the same experts; llm-analysis does the same);
- tensor parallelism wider than the KV heads: a rank keeps max(g/t, 1) whole KV heads (vLLM), so
  the K/V projections put K·(1/g − 1/t) parameters more on each rank than an even 1/t split;
- Megatron-LM pads the vocabulary to a multiple of 128·t: each vocabulary matrix gets V_p − V rows.
GGUF formats store each tensor in its own type (``core.memory.gguf_types``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from paramtally.core.memory.gguf_types import (
    GGUF_DEFAULT_TYPES,
    LLAMA_CPP_SOURCE,
    bytes_of,
    stage_types,
    type_bytes,
)
from paramtally.core.memory.quant import DTYPE_BITS, QUANT_FORMATS, experts_only, format_bits
from paramtally.core.memory.scenario import Scenario, weights_format
from paramtally.core.memory.stages import Stage
from paramtally.core.schema import Architecture
from paramtally.core.terms.formula import Number
from paramtally.core.terms.term import Term

__all__ = [
    "MEGATRON_VOCAB_MULTIPLE",
    "model_state_terms",
    "optimizer_bytes_per_param",
    "padded_vocab",
    "state_key",
    "zero_model_states",
]

ZERO_SOURCE = "ZeRO (Rajbhandari et al. 2020): stage 1 shards optimizer states, 2 gradients, 3 weights"
MEGATRON_VOCAB_MULTIPLE = 128  # Megatron-LM's --make-vocab-size-divisible-by default
_OPTIMIZER_STATES = {"adamw": 8, "adam8bit": 2, "sgd": 4, "none": 0}
_OPTIMIZER_LABEL = {
    "adamw": "AdamW m + v fp32",
    "adam8bit": "8-bit Adam m + v",
    "sgd": "SGD momentum fp32",
    "none": "no states",
}
_EXPERT_SOURCE = (
    "Megatron-LM expert parallelism: each of ep GPUs holds E/ep routed experts (TP-split inside); "
    "ZeRO shards them over the N_d/ep GPUs holding the same experts (llm-analysis)"
)
_PAD_SOURCE = (
    "Megatron-LM pads the vocabulary to a multiple of 128·t (make-vocab-size-divisible-by 128 × TP): "
    "V_p − V rows more in each of the m vocabulary matrices on this stage"
)


def optimizer_bytes_per_param(optimizer: str, trainable_dtype: str) -> int:
    """Optimizer state bytes per trainable parameter, with the fp32 master copy when weights are 16-bit."""
    if optimizer == "none":
        return 0
    master = 0 if trainable_dtype == "fp32" else 4
    return _OPTIMIZER_STATES[optimizer] + master


def padded_vocab(vocab: int, tp: int) -> int:
    """Megatron-LM's padded vocabulary: the next multiple of 128·t."""
    multiple = MEGATRON_VOCAB_MULTIPLE * tp
    return -(-vocab // multiple) * multiple


def _over(symbols: tuple[str, ...], sizes: Mapping[str, Number]) -> str:
    """``/t``, ``/(t·N_d)``: the divisors among ``symbols`` whose size is above 1."""
    used = [name for name in symbols if sizes[name] != 1]
    if not used:
        return ""
    return "/" + used[0] if len(used) == 1 else "/(" + "·".join(used) + ")"


@dataclass(slots=True)  # not frozen: made for every stage of every layout, never changed
class _Share:
    """Parameters one GPU holds alike: ``count`` (a formula over ``values``) of them, divided by the
    ``split`` symbols, or by ``zero_split`` where ZeRO shards them."""

    label: str  # put before the term names: "" for the model itself, "routed expert " …
    count: str
    values: dict[str, Number]
    split: tuple[str, ...]
    zero_split: tuple[str, ...]
    source: str = ""
    types: Mapping[str, int] | None = None  # GGUF: the numbers by ggml type
    bits: Fraction | None = None  # bits per number when they differ from the format's
    routed: bool = False  # the routed experts (a format may keep them alone: ``experts_only``)
    frozen: bool = False  # held without gradients or optimizer states (a frozen vision tower)

    def over(self, sharded: bool) -> str:
        return _over(self.zero_split if sharded else self.split, self.values)


def _adapter_dtype(s: Scenario) -> str:
    return s.dtype if DTYPE_BITS[s.dtype] >= 16 else "bf16"


def _weights_quant(s: Scenario, adapters: bool) -> str | None:
    quant = weights_format(s)
    return None if s.mode == "training" and not adapters else quant


def _gguf(
    arch: Architecture | None, s: Scenario, stage: Stage, quant: str | None
) -> tuple[Mapping[str, int], Mapping[str, int], Mapping[str, int]] | None:
    if arch is None or quant not in GGUF_DEFAULT_TYPES:
        return None
    last = stage.index == s.pp - 1
    keep16 = s.keep_embeddings_16bit
    found = stage_types(arch, quant, stage.first, stage.count, stage.params, stage.index, last, keep16)
    return found.all, found.routed, found.kv


def _shares(
    arch: Architecture | None, s: Scenario, stage: Stage, adapters: bool, quant: str | None
) -> list[_Share]:
    """The ways the stage's parameters (not its trainable adapters) sit on one GPU."""
    t, dp, ep = s.tp, s.dp, s.ep
    sizes: dict[str, Number] = {"t": t, "N_d": dp}
    base = stage.params - (stage.adapters if adapters else 0)
    trained = s.train_vision or (arch is not None and arch.tower_only)  # memory.vision.tower_trains
    frozen = stage.vision if s.mode == "training" and not adapters and not trained else 0
    fixed = stage.frozen if s.mode == "training" and not adapters else 0  # adapters freeze it all anyway
    base -= frozen + fixed
    # The routed experts apart: split by expert parallelism, or kept in a format of their own.
    experts = stage.experts if ep > 1 or experts_only(quant) else 0
    gguf = _gguf(arch, s, stage, quant) if quant in GGUF_DEFAULT_TYPES else None
    model_types = expert_types = None
    if gguf is not None:
        every, routed, _ = gguf
        default = GGUF_DEFAULT_TYPES[str(quant)]
        removed = {**(routed if experts else {})}
        removed[default] = removed.get(default, 0) + (stage.adapters if adapters else 0)
        model_types = {k: v - removed.get(k, 0) for k, v in every.items() if v - removed.get(k, 0)}
        expert_types = dict(routed)
    rest = ""  # a format for the experts alone leaves the rest at the dtype: said where it is weighed
    if experts_only(quant):
        none = "" if stage.experts else " (none here)"
        rest = (
            f"{QUANT_FORMATS[str(quant)].label} keeps the routed experts alone{none}; the rest at {s.dtype}"
        )
    shares = [_Share("", "P", {"P": base - experts, **sizes}, ("t",), ("t", "N_d"), rest, model_types)]
    if experts:
        source = _EXPERT_SOURCE if ep > 1 else QUANT_FORMATS[str(quant)].source
        shares.append(
            _Share("routed expert ", "X", {"X": experts, "ep": ep, **sizes}, ("t", "ep"), ("t", "N_d"),
                   source, expert_types, routed=True)
        )  # fmt: skip
    if frozen:
        source = f"the vision tower, frozen: weights alone, at {s.dtype}"
        shares.append(
            _Share("frozen vision tower ", "F", {"F": frozen, **sizes}, ("t",), ("t", "N_d"), source,
                   frozen=True)
        )  # fmt: skip
    if fixed:
        source = (
            f"parameters transformers builds with requires_grad false (a sine position table, a router's "
            f"correction bias): weights alone, at {s.dtype}"
        )
        shares.append(
            _Share(
                "frozen parameters ", "F", {"F": fixed, **sizes}, ("t",), ("t", "N_d"), source, frozen=True
            )
        )
    for kept in stage.replicated if t > 1 else ():
        if t > kept.g:
            bits = None
            if gguf is not None and gguf[2]:
                bits = 8 * bytes_of(gguf[2]) / sum(gguf[2].values())
            values = {"K": kept.numbers, "g": kept.g, **sizes}
            label = f"replicated {kept.what} "
            shares.append(_Share(label, "K·(1/g − 1/t)", values, (), ("N_d",), kept.source, bits=bits))
    if arch is not None and s.vocab_padding and s.mode == "training" and stage.vocab_matrices:
        vocab = arch.embeddings.vocab_size + arch.added_vocab
        padded = padded_vocab(vocab, t)
        if padded > vocab:
            values = {"m": stage.vocab_matrices, "V_p": padded, "V": vocab, "e": arch.embed_dim, **sizes}
            shares.append(
                _Share("vocabulary padding ", "m·(V_p − V)·e", values, ("t",), ("t", "N_d"), _PAD_SOURCE)
            )
    return shares


def _typed_bytes(types: Mapping[str, int]) -> tuple[str, dict[str, Number]]:
    """``(N_Q4_K·144/256 + N_F32·4)``: numbers by ggml type × bytes per block / values per block."""
    parts: list[str] = []
    values: dict[str, Number] = {}
    for kind in sorted(types, key=lambda k: -types[k]):
        block, size = type_bytes(kind)
        symbol = f"N_{kind}"
        parts.append(f"{symbol}·{size}" if block == 1 else f"{symbol}·{size}/{block}")
        values[symbol] = types[kind]
    return "(" + " + ".join(parts) + ")", values


def _weight_terms(share: _Share, s: Scenario, adapters: bool, stage: Stage, quant: str | None) -> list[Term]:
    zero3 = s.mode == "training" and s.zero == 3
    bits, label = format_bits(s.dtype, quant)
    over = share.over(zero3)
    name = ("frozen base weights" if adapters else "weights") + f" ({label})"
    source = share.source or f"Σ numel × bits/8 at {label}"
    if zero3:
        source += f"; {ZERO_SOURCE}"
    if share.types is not None:
        expr, numbers = _typed_bytes(share.types)
        return [
            Term.of(share.label + name, "weights", expr + over, LLAMA_CPP_SOURCE, **numbers, **share.values)
        ]
    values = {**share.values, "bits": share.bits or bits}
    keep16 = share.label == "" and s.keep_embeddings_16bit and bits < 16 and stage.embed16 > 0
    if not keep16:
        return [Term.of(share.label + name, "weights", f"{share.count}·bits/8{over}", source, **values)]
    kept = "embeddings and LM head kept at 16 bits"
    return [
        Term.of(name, "weights", f"(P − E)·bits/8{over}", source, E=stage.embed16, **values),
        Term.of(
            "embeddings / LM head (16-bit)", "weights", f"E·16/8{over}", kept, E=stage.embed16, **share.values
        ),
    ]


def _state_terms(share: _Share, s: Scenario, dtype: str) -> list[Term]:
    """Gradients and optimizer states of the share's parameters."""
    grad = 2 if s.grad_dtype == "bf16" else 4
    k = optimizer_bytes_per_param(s.optimizer, dtype)
    source = (share.source + "; " if share.source else "") + ZERO_SOURCE
    terms = [
        Term.of(
            f"{share.label}gradients ({s.grad_dtype})",
            "gradients",
            f"{share.count}·{grad}{share.over(s.zero >= 2)}",
            f"one gradient per trainable parameter; {source}",
            **share.values,
        )
    ]
    if k:
        master = "" if dtype == "fp32" else " + fp32 master"
        terms.append(
            Term.of(
                f"{share.label}optimizer states ({_OPTIMIZER_LABEL[s.optimizer]}{master})",
                "optimizer",
                f"{share.count}·{k}{share.over(s.zero >= 1)}",
                f"{k} B/param (ZeRO paper: Adam 12 = 4 master + 4 m + 4 v); {source}",
                **share.values,
            )
        )
    return terms


def model_state_terms(
    arch: Architecture | None, s: Scenario, stage: Stage, adapters: bool
) -> tuple[list[Term], list[Term]]:
    """(weights, gradients and optimizer states) of one GPU of ``stage``: the states, when training,
    of what trains — the whole model, or only its adapters (``adapters``: LoRA/adapter training)."""
    quant = _weights_quant(s, adapters)
    shares = _shares(arch, s, stage, adapters, quant)
    weights = [
        term
        for share in shares
        for term in _weight_terms(share, s, adapters, stage, _share_quant(share, quant))
    ]
    if s.mode != "training":
        return weights, []
    if not adapters:
        return weights, [
            term for share in shares if not share.frozen for term in _state_terms(share, s, s.dtype)
        ]
    adapter = _Share("", "A", {"A": stage.adapters, "t": s.tp, "N_d": s.dp}, ("t",), ("t", "N_d"))
    if stage.adapters:
        a_dtype = _adapter_dtype(s)
        weights.append(
            Term.of(
                f"adapter weights ({a_dtype})",
                "weights",
                f"A·bits/8{adapter.over(s.zero == 3)}",
                "trainable LoRA/adapter parameters r·(d_in + d_out) per matrix",
                bits=DTYPE_BITS[a_dtype],
                **adapter.values,
            )
        )
    return weights, _state_terms(adapter, s, _adapter_dtype(s))


def _share_quant(share: _Share, quant: str | None) -> str | None:
    """The format a share's weights are kept in: a format for the experts alone leaves the rest at
    the dtype."""
    return quant if share.routed or not experts_only(quant) else None


def state_key(s: Scenario, stage: Stage, adapters: bool) -> object:
    """What of ``stage`` its model-state terms depend on: stages of one layout with the same key
    have the same terms (its index and first layer matter only to GGUF's per-layer types)."""
    if _weights_quant(s, adapters) in GGUF_DEFAULT_TYPES:
        return stage
    # The blocks by identity: a key lives within one layout, whose stages share the block objects
    # (hashing a block's fields is the slow part otherwise).
    blocks = tuple((id(block), n) for block, n in stage.blocks)
    return (
        stage.params,
        stage.adapters,
        stage.embed16,
        blocks,
        stage.experts,
        stage.vocab_matrices,
        stage.vision,
        stage.frozen,
    )


def zero_model_states(psi: int, zero: int, dp: int) -> tuple[int, int, int]:
    """(weights, gradients, optimizer) bytes per GPU of mixed-precision AdamW over ``dp`` GPUs."""
    s = Scenario(mode="training", zero=zero, gpus=dp)
    parts = dict.fromkeys(("weights", "gradients", "optimizer"), 0)
    weights, states = model_state_terms(None, s, Stage(0, 0, 1, psi, 0, 0), adapters=False)
    for term in weights + states:
        parts[term.part] += term.value
    return parts["weights"], parts["gradients"], parts["optimizer"]
