"""What a Hugging Face model keeps for backward outside its layers in training (transformers 5.24).

Measured on whole tiny models trained one step, labels and loss included (``tools/measure_activations.py``,
``whole_model_cases`` in ``tests/golden/activations.json``), with B bytes per activation:

- Each stack's final norm keeps what a layer's norm keeps (``activations_hf``), T5's its dropout
  mask h as well; the tensor read after it is kept once: the LM head's input B·e, or an encoder's
  output B·h, which every cross-attention's K and V projections read.
- The loss reads the logits upcast to fp32 (``ForCausalLMLoss``: ``logits.float()``), whose
  cross-entropy keeps its log-softmax, 4·V per token; T5, mT5, BART and Whisper call
  ``CrossEntropyLoss`` on the logits as they are, B·V. Its int64 labels: 8 per token.
- The token embedding keeps its int64 ids, 8 per token of each stack; a learned position table its
  int64 position ids, 8 per position; an embedding dropout (GPT-2's embd_pdrop, T5's, BART's,
  Whisper's) its mask h per token.
- Rotary layers share one pair of cos/sin tables of the rotary width d_r per position (position
  ids of batch 1), at B each; T5's relative position bias keeps the int64 bucket of each query–key
  pair, 8·s² per stack.
- Under hf-sdpa an additive attention bias reaches SDPA as a float mask, which the kernel keeps
  (a GPU's memory-efficient kernel saves its attn_bias: torch's derivatives.yaml,
  ``_scaled_dot_product_efficient_attention``): T5 makes the mask contiguous in each encoder layer,
  a·s²·B, and puts the causal −∞ in with ``torch.where`` in each decoder layer, a·s²·B and the bool
  condition s² (transformers' integrations/sdpa_attention.py ``create_position_bias_mask``); its
  cross-attentions share one zero bias, a·s·s_e·B. Falcon folds ALiBi into one (b, a, s, s) mask
  that every layer shares (``FalconModel.forward``). Batches without padding; with padding each of
  T5's masks is b times as large.
"""

from __future__ import annotations

from collections.abc import Iterable

from paramtally.core.families import activation_quirks
from paramtally.core.memory.activations_hf import norm_bytes, sdpa_refusal
from paramtally.core.memory.kv_cache import encoder_tokens
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema import Architecture, Block
from paramtally.core.schema.stack import Stack
from paramtally.core.terms.term import Term

__all__ = ["bias_mask_term", "head_terms", "input_terms"]

MEASURED = (
    "bytes PyTorch saves for backward outside the layers of a Hugging Face transformers 5.24 model "
    "trained one step with labels, measured on whole models (tools/measure_activations.py, "
    "whole_model_cases)"
)


def _term(name: str, parts: list[str], factor: str, source: str, values: dict[str, int]) -> Term:
    """``parts`` summed, times the micro-batches in flight (``factor``: '' or 'm·')."""
    expr = " + ".join(parts)
    if factor and len(parts) > 1:
        expr = f"({expr})"
    return Term.of(name, "activations", factor + expr, source, **values)


def _stacks(arch: Architecture) -> list[tuple[Stack, str]]:
    """Each stack with the symbol of its tokens: an encoder-decoder's encoder reads s_e."""
    both = arch.encoder is not None and arch.decoder is not None
    return [(stack, "s_e" if both and role == "encoder" else "s") for role, stack in arch.stacks]


def _tokens(arch: Architecture, s: Scenario) -> dict[str, int]:
    values = {"s": s.context}
    if arch.encoder is not None and arch.decoder is not None:
        values["s_e"] = encoder_tokens(arch, s) or s.context
    return values


def _byte(s: Scenario) -> int:
    return 4 if s.dtype == "fp32" else 2


def _final_norm(arch: Architecture, stack: Stack, byte: int) -> int:
    """Bytes per token a stack's final norm keeps, with its dropout mask (T5)."""
    kept = norm_bytes(arch.base_block(stack), arch.hidden_size, byte, arch.family)
    dropped = activation_quirks(arch.family).final_norm_dropout and arch.dropout.hidden > 0
    return kept + (arch.hidden_size if dropped else 0)


def head_terms(arch: Architecture, s: Scenario, factor: str, flight: dict[str, int]) -> list[Term]:
    """The last stage's: each stack's final norm and the tensor read after it, and the logits and
    labels the loss keeps (a model with an LM head)."""
    byte, tokens = _byte(s), _tokens(arch, s)
    parts: list[str] = []
    values: dict[str, int] = {"b": s.batch, "B": byte} | flight
    for stack, symbol in _stacks(arch):
        if stack.final_norm:
            norm = "F_e" if symbol == "s_e" else "F"
            parts.append(f"{symbol}·b·({norm} + B·{'h' if symbol == 's_e' else 'e'})")
            values |= {norm: _final_norm(arch, stack, byte), symbol: tokens[symbol]}
    terms = []
    if parts:
        values |= {"e": arch.embed_dim} | ({"h": arch.hidden_size} if "s_e" in values else {})
        said = f"{MEASURED}: each stack's final norm as a layer's norm keeps it (F), the LM head's input B·e"
        if "s_e" in values:
            said += "; the encoder's output, which every cross-attention's K and V projections read, B·h"
        if activation_quirks(arch.family).final_norm_dropout and arch.dropout.hidden > 0:
            said += "; T5 drops out each final norm's output: its mask h in F"
        terms.append(_term("activations (final norms, LM head input)", parts, factor, said, values))
    # CrossEntropyLoss on the logits in their own dtype (the family's loss_in_activation_dtype), or
    # transformers' ForCausalLMLoss, which upcasts them to fp32 first.
    own = activation_quirks(arch.family).loss_in_activation_dtype
    logits = "the logits as they are, B·V (CrossEntropyLoss on them)" if own else (
        "the logits upcast to fp32, 4·V (transformers' loss_utils.ForCausalLMLoss: logits.float(); the "
        "cross-entropy keeps its log-softmax)"
    )  # fmt: skip
    over = "/t" if s.tp > 1 else ""
    said = (
        f"{MEASURED}: {logits}, split over TP as Megatron-LM's vocabulary-parallel cross-entropy splits "
        "them; the int64 labels, 8 per token"
    )
    values = {"s": s.context, "b": s.batch, "V": arch.embeddings.vocab_size + arch.added_vocab}
    values |= ({"B": byte} if own else {}) | ({"t": s.tp} if over else {}) | flight
    width = "B" if own else "4"
    terms.append(
        _term(
            "activations (logits and labels for the loss)",
            [f"s·b·({width}·V{over} + 8)"],
            factor,
            said,
            values,
        )
    )
    return terms


def _rotary_widths(blocks: Iterable[Block], h: int) -> list[int]:
    """The distinct rotary widths d_r of the rotary layers (one cos/sin pair each)."""
    widths = []
    for block in blocks:
        ctx = block.context(h)
        for mixer in (block.mixer, block.parallel_mixer):
            width = mixer.rotary_width(ctx) if mixer is not None else None
            if width is not None:
                widths.append(width)
    return list(dict.fromkeys(widths))


def input_terms(arch: Architecture, s: Scenario, factor: str, flight: dict[str, int]) -> list[Term]:
    """The first stage's: token ids, position ids and embedding dropout masks, and the position
    tables (rotary cos/sin, T5's relative position buckets)."""
    tokens = _tokens(arch, s)
    dropped = activation_quirks(arch.family).embedding_dropout and arch.dropout.hidden > 0
    per_token = "(8 + h)" if dropped else "8"
    parts: list[str] = []
    values: dict[str, int] = {"b": s.batch} | ({"h": arch.hidden_size} if dropped else {}) | flight
    buckets: list[str] = []
    table_values: dict[str, int] = {}  # the position tables' symbols
    for (role, stack), (_, symbol) in zip(arch.stacks, _stacks(arch), strict=True):
        values[symbol] = tokens[symbol]
        learned = stack.positions == "learned"
        parts.append(f"{symbol}·(b·{per_token} + 8)" if learned else f"{symbol}·b·{per_token}")
        # T5 looks its stack's buckets up once; UMT5's layers each look up their own table's.
        looked_up = (1 if stack.relative_buckets else 0) + _own_tables(
            (run.block, run.layers) for run in arch.runs if run.stack == role
        )
        if looked_up:
            buckets.append(f"8·{symbol}²" if looked_up == 1 else f"{looked_up}·8·{symbol}²")
            table_values[symbol] = tokens[symbol]
    said = f"{MEASURED}: the int64 token ids the embedding keeps, 8 per token of each stack"
    if dropped:
        said += "; the embedding dropout's mask, h"
    if any(stack.positions == "learned" for stack, _ in _stacks(arch)):
        said += "; a learned position table's int64 position ids, 8 per position"
    terms = [_term("activations (token ids, embedding dropout)", parts, factor, said, values)]
    rotary = any(stack.positions == "rope" for stack, _ in _stacks(arch))
    widths = _rotary_widths(arch.layers_by_block(), arch.hidden_size) if rotary else []
    tables = [f"2·s·d_r{'' if len(widths) == 1 else i + 1}·B" for i in range(len(widths))]
    if not tables and not buckets:
        return terms
    if widths:
        table_values |= {"s": s.context, "B": _byte(s)}
        table_values |= {f"d_r{'' if len(widths) == 1 else i + 1}": w for i, w in enumerate(widths)}
    said = (
        MEASURED
        + ": "
        + "; ".join(
            text
            for text, on in (
                (
                    "the rotary cos and sin tables of width d_r, one pair per position that every layer and "
                    "sequence shares (position ids of batch 1), at B bytes",
                    bool(widths),
                ),
                (
                    "T5's relative position bias: the int64 bucket of each query–key pair, per stack "
                    "(UMT5: per layer, each looking up its own table)",
                    bool(buckets),
                ),
            )
            if on
        )
    )
    terms.append(
        _term("activations (position tables)", tables + buckets, factor, said, table_values | flight)
    )
    return terms


def _attention_heads(blocks: Iterable[tuple[Block, int]]) -> tuple[int, int]:
    """(layers whose mixer takes an additive attention bias, its heads) among ``blocks`` (T5 and
    Falcon: every layer's alike)."""
    layers, heads = 0, 0
    for block, count in blocks:
        if biased := block.mixer.bias_heads():
            layers += count
            heads = max(heads, biased)
    return layers, heads


def _own_tables(blocks: Iterable[tuple[Block, int]]) -> int:
    """Relative position bias tables the layers among ``blocks`` look up themselves (UMT5's)."""
    return sum(block.mixer.relative_tables() * count for block, count in blocks)


def bias_mask_term(
    arch: Architecture,
    s: Scenario,
    stacks: list[tuple[str, tuple[tuple[Block, int], ...]]],
    factor: str,
    flight: dict[str, int],
) -> Term | None:
    """hf-sdpa: the float masks SDPA keeps where an attention bias is added to the scores — T5's
    relative position bias, ALiBi — for the layers of one stage (``stacks``: each role's blocks)."""
    if s.activations != "hf-sdpa" or sdpa_refusal(arch) is not None:
        return None
    tokens, byte = _tokens(arch, s), _byte(s)
    roles: dict[str, Stack] = dict(arch.stacks)
    parts: list[str] = []
    values: dict[str, int] = {"B": byte}
    heads = 0
    cross = cross_each = False
    a = "(a/t)" if s.tp > 1 else "a"  # TP splits the heads, each rank's mask with them
    for role, held in stacks:
        stack = roles.get(role) or arch.main_stack  # '' : a decoder-only model's one stack
        layers, count = _attention_heads(held)
        if not layers:
            continue
        heads = max(heads, count)
        own = _own_tables(held)
        if stack.positions == "alibi":
            parts.append(f"b·{a}·s²·B")
            values |= {"b": s.batch, "s": s.context}
        elif (stack.relative_buckets or own) and role == "encoder":
            parts.append(f"L_e·{a}·s_e²·B")
            values |= {"L_e": layers, "s_e": tokens.get("s_e", s.context)}
        elif stack.relative_buckets or own:
            parts.append(f"L_d·({a}·B + 1)·s²")
            values |= {"L_d": layers, "s": s.context}
            cross = cross or any(block.cross_attention is not None for block, _ in held)
            cross_each = cross_each or bool(own)  # UMT5's layers share no bias: each its own zeros
    if not parts:
        return None
    if cross:
        parts.append(f"L_d·{a}·s·s_e·B" if cross_each else f"{a}·s·s_e·B")
        values |= {"s_e": tokens.get("s_e", s.context)}
    values |= {"a": heads} | ({"t": s.tp} if s.tp > 1 else {}) | flight
    said = (
        "hf-sdpa: an additive attention bias reaches SDPA as a float mask the kernel keeps for backward "
        "(a GPU's memory-efficient kernel saves attn_bias: torch's derivatives.yaml, "
        "_scaled_dot_product_efficient_attention); "
        + (
            "T5: each encoder layer's contiguous copy of the position bias a·s_e²·B, each decoder layer's "
            "torch.where with the causal mask a·s²·B and its bool condition s², one zero bias the "
            "cross-attentions share a·s·s_e·B (transformers' integrations/sdpa_attention.py "
            "create_position_bias_mask; measured: tools/measure_activations.py), UMT5's one per layer; "
            if "L_e" in values or "L_d" in values
            else ""
        )
        + (
            "ALiBi: one (b, a, s, s) mask every layer shares (FalconModel.forward; measured); "
            if "b" in values
            else ""
        )
        + "a batch without padding (padding makes each of T5's masks b times as large)"
    )
    return _term("activations (attention bias masks, SDPA)", parts, factor, said, values)
