#!/usr/bin/env python3
"""Measure the activation bytes PyTorch really keeps for backward in Hugging Face models.

A development tool, not part of ParamTally: it needs torch and transformers (the product never
imports either). Tiny models are built on the CPU from config dicts alone (nothing is downloaded),
cast to bf16, put in training mode and run forward once on random token ids (an encoder-decoder
reads them on both sides). Every tensor autograd saves for backward passes through
``torch.autograd.graph.saved_tensors_hooks``; the bytes kept are the sizes of the distinct storages
saved and still held by the graph when the forward ends (a view saved twice counts once),
parameters excluded. Per layer = measured(L=2) − measured(L=1): the embeddings, the final norm, the
head, the loss and the rotary tables cancel. Whole models (``whole_model_cases``) are measured at two
layers in each stack with labels, as a training step runs them: the loss's graph holds what lies
outside the layers too (the final norm, the LM head's input, the logits the loss reads, the token
ids and labels, the rotary tables, T5's position bias).

SDPA on the CPU takes its fp32 math path where a GPU runs a fused kernel: with dropout, or with a
float mask that needs its gradient (T5's learned position bias). There the tool runs the CPU's fused
kernel in an autograd function that saves what a GPU's memory-efficient kernel saves
(``_GpuEfficientAttention``), so those cases measure what a GPU keeps.

    python tools/measure_activations.py            # tests/golden/activations.json
    python tools/measure_activations.py --show     # also print each layer's saved tensors

Each golden entry holds the config, the key that sets its layer count (``layer_key``), the
attention implementation (eager / sdpa), s, b, dtype, the two totals, the per-layer difference and
the saved tensors that make it up (the autograd node that saved each one, its shape and dtype), so
a difference from ParamTally's formula can be traced to the tensor.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import sys
import weakref
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import torch
import transformers
from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForSeq2SeqLM, AutoModelForSpeechSeq2Seq

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "activations.json"
SEQ, BATCH, VOCAB = 256, 2, 1000

_LLAMA_LIKE = {
    "hidden_size": 512,
    "num_attention_heads": 8,
    "num_key_value_heads": 2,
    "intermediate_size": 1376,
    "vocab_size": VOCAB,
    "max_position_embeddings": 512,
}
_T5 = {
    "model_type": "t5",
    "d_model": 512,
    "d_kv": 64,
    "num_heads": 8,
    "d_ff": 1376,
    "vocab_size": VOCAB,
    "feed_forward_proj": "gated-gelu",
    "decoder_start_token_id": 0,
}
# The tiny configs: Llama-style sizes (h 512, 8 heads, 2 KV heads, f 1376) in each family's own
# keys; the family's class defaults (dropout, activation, norms) apply otherwise.
CONFIGS: dict[str, dict[str, Any]] = {
    "llama": {"model_type": "llama", **_LLAMA_LIKE},
    "qwen3": {"model_type": "qwen3", **_LLAMA_LIKE, "head_dim": 64},
    "mistral": {"model_type": "mistral", **_LLAMA_LIKE, "sliding_window": None},
    "mixtral": {
        "model_type": "mixtral",
        **_LLAMA_LIKE,
        "num_local_experts": 4,
        "num_experts_per_tok": 2,
        "sliding_window": None,
    },
    "gpt2": {
        "model_type": "gpt2",
        "n_embd": 512,
        "n_head": 8,
        "n_inner": 2048,
        "vocab_size": VOCAB,
        "n_positions": 512,
    },
    "gemma": {"model_type": "gemma", **_LLAMA_LIKE, "head_dim": 64},
    # GPT-2 without dropout: on the CPU a dropout above 0 sends SDPA to its fp32 math fallback, which
    # no GPU kernel does; without it the fused CPU kernel runs, as flash attention would on a GPU.
    "gpt2-nodropout": {
        "model_type": "gpt2",
        "n_embd": 512,
        "n_head": 8,
        "n_inner": 2048,
        "vocab_size": VOCAB,
        "n_positions": 512,
        "attn_pdrop": 0.0,
        "resid_pdrop": 0.0,
        "embd_pdrop": 0.0,
    },
    # GPT-2 as above without the KV cache: Hugging Face's default use_cache=True copies K and V into
    # the cache in training too, while q keeps c_attn's fused output alive (its view); without it q,
    # k and v are views of that one output.
    "gpt2-nodropout-nocache": {
        "model_type": "gpt2",
        "n_embd": 512,
        "n_head": 8,
        "n_inner": 2048,
        "vocab_size": VOCAB,
        "n_positions": 512,
        "attn_pdrop": 0.0,
        "resid_pdrop": 0.0,
        "embd_pdrop": 0.0,
        "use_cache": False,
    },
    # Falcon with ALiBi (Falcon-RW's layout: sequential attention and MLP, MHA, biases): the bias is
    # folded into one float (b, a, s, s) mask that SDPA keeps, and q, k, v are views of the fused
    # query_key_value output, as GPT-2's are of c_attn's.
    "falcon-alibi": {
        "model_type": "falcon",
        "hidden_size": 512,
        "num_attention_heads": 8,
        "vocab_size": VOCAB,
        "alibi": True,
        "new_decoder_architecture": False,
        "multi_query": False,
        "parallel_attn": False,
        "bias": True,
    },
    # gpt-oss: attention sinks, sliding layers (window 128 < s), clamped-GLU experts with biases.
    "gpt_oss": {
        "model_type": "gpt_oss",
        **_LLAMA_LIKE,
        "head_dim": 64,
        "num_local_experts": 4,
        "num_experts_per_tok": 2,
        "sliding_window": 128,
        "layer_types": ["sliding_attention", "sliding_attention"],
    },
    # Gemma-2: logit soft-capping, fp32 norms, sliding layers (window 128 < s).
    "gemma2": {
        "model_type": "gemma2",
        **_LLAMA_LIKE,
        "head_dim": 64,
        "sliding_window": 128,
        "layer_types": ["sliding_attention", "sliding_attention"],
    },
    # DeepSeek-V3: MLA with both latents (q_lora_rank, kv_lora_rank) and unequal q/k and v head dims
    # (48 + 16 against 32, as V3's 128 + 64 against 128); every layer MoE with DeepseekV3Config's
    # group-limited routing (8 groups, 4 chosen), 16 experts, top-4, one shared expert.
    "deepseek_v3": {
        "model_type": "deepseek_v3",
        **_LLAMA_LIKE,
        "num_key_value_heads": 8,
        "q_lora_rank": 128,
        "kv_lora_rank": 96,
        "qk_rope_head_dim": 16,
        "qk_nope_head_dim": 48,
        "v_head_dim": 32,
        "moe_intermediate_size": 128,
        "n_routed_experts": 16,
        "num_experts_per_tok": 4,
        "n_shared_experts": 1,
        "n_group": 8,
        "topk_group": 4,
        "first_k_dense_replace": 0,
    },
    # DeepSeek-V2-Lite: MLA without the query latent (q_lora_rank None: q straight from h), the KV
    # latent and unequal q/k and v head dims; every layer MoE with V2's greedy softmax top-k over
    # 16 experts (no groups, no bias correction), top-4, two shared experts.
    "deepseek_v2": {
        "model_type": "deepseek_v2",
        **_LLAMA_LIKE,
        "num_key_value_heads": 8,
        "q_lora_rank": None,
        "kv_lora_rank": 96,
        "qk_rope_head_dim": 16,
        "qk_nope_head_dim": 48,
        "v_head_dim": 32,
        "moe_intermediate_size": 128,
        "n_routed_experts": 16,
        "num_experts_per_tok": 4,
        "n_shared_experts": 2,
        "topk_method": "greedy",
        "first_k_dense_replace": 0,
    },
    # T5 (Flan-T5's gated-GELU FFN) with its class default dropout 0.1, which T5 also applies inside
    # the FFN; s encoder and s decoder tokens. "t5" adds an encoder layer, "t5-decoder" a decoder one,
    # "t5-relu" an encoder layer of the original T5's plain ReLU FFN (T5-Base).
    "t5": {**_T5, "num_decoder_layers": 1},
    "t5-decoder": {**_T5, "num_layers": 1},
    "t5-relu": {**_T5, "feed_forward_proj": "relu", "num_decoder_layers": 1},
    # UMT5: T5 whose every self-attention looks up a relative bias table of its own (int64 buckets
    # per layer) and whose layers share no bias (a cross-attention mask per decoder layer).
    "umt5": {**_T5, "model_type": "umt5", "num_decoder_layers": 1},
    # Whisper: a decoder layer added (self-attention, cross-attention over the encoder's s frames,
    # plain GELU FFN, LayerNorms with biases); the audio encoder of one layer reads 2·s mel frames,
    # which its strided convolution halves to s. No dropout (the class default), so SDPA runs the
    # CPU's fused kernel as flash attention would on a GPU.
    "whisper-decoder": {
        "model_type": "whisper",
        "d_model": 512,
        "encoder_attention_heads": 8,
        "decoder_attention_heads": 8,
        "encoder_ffn_dim": 1376,
        "decoder_ffn_dim": 1376,
        "encoder_layers": 1,
        "num_mel_bins": 80,
        "max_source_positions": SEQ,
        "max_target_positions": 512,
        "vocab_size": VOCAB,
        "decoder_start_token_id": 0,
        "pad_token_id": 0,
    },
}
ATTENTION = ("eager", "sdpa")
# Recurrent mixers on the CPU: transformers runs its PyTorch reference of the mamba_ssm / causal-conv1d
# / fla kernels, which keeps far more than the kernels do. The hf-eager figure is an estimate for the
# kernels: these cases measure what the fallback keeps beyond it (``kernel_fallback_cases``;
# core.memory.activations_hf.KERNEL_PATH quotes the ratios), and are the hf-eager-fallback profile's goldens
# for Mamba and Mamba-2. They run without a cache: a Qwen3-Next of linear-attention layers alone
# cannot make one (transformers raises).
FALLBACK_CONFIGS: dict[str, dict[str, Any]] = {
    "mamba-2.8b-width": {
        "model_type": "mamba",
        "hidden_size": 2560,
        "state_size": 16,
        "expand": 2,
        "conv_kernel": 4,
        "vocab_size": VOCAB,
        "use_cache": False,
    },
    "mamba2": {
        "model_type": "mamba2",
        "hidden_size": 256,
        "num_heads": 8,
        "head_dim": 64,
        "n_groups": 2,
        "state_size": 64,
        "chunk_size": 128,
        "expand": 2,
        "vocab_size": VOCAB,
        "use_cache": False,
    },
    # Widths that differ from each other (I, N, R, K; H, P, G, N, Q), so that the hf-eager-fallback
    # profile's formulas (core.activations_fallback) are fitted to tensors named unambiguously.
    "mamba-odd-widths": {
        "model_type": "mamba",
        "hidden_size": 384,
        "state_size": 8,
        "expand": 3,
        "conv_kernel": 3,
        "vocab_size": VOCAB,
        "use_cache": False,
    },
    "mamba2-odd-widths": {
        "model_type": "mamba2",
        "hidden_size": 256,
        "num_heads": 16,
        "head_dim": 32,
        "n_groups": 4,
        "state_size": 48,
        "chunk_size": 64,
        "expand": 2,
        "conv_kernel": 3,
        "vocab_size": VOCAB,
        "use_cache": False,
    },
    "qwen3_next-deltanet": {
        "model_type": "qwen3_next",
        "hidden_size": 256,
        "num_attention_heads": 8,
        "num_key_value_heads": 2,
        "head_dim": 32,
        "linear_num_key_heads": 2,
        "linear_num_value_heads": 4,
        "linear_key_head_dim": 32,
        "linear_value_head_dim": 32,
        "num_experts": 8,
        "num_experts_per_tok": 2,
        "moe_intermediate_size": 128,
        "shared_expert_intermediate_size": 128,
        "intermediate_size": 688,
        "vocab_size": VOCAB,
        "layer_types": ["linear_attention", "linear_attention"],
        "use_cache": False,
    },
}
# transformers 5.24 refuses attn_implementation="sdpa" for these classes (``_supports_sdpa = False``).
EAGER_ONLY = frozenset({"gpt_oss", "gemma2", "mamba", "mamba2", "gpt_neo", "xglm", "mpt", "openai-gpt"})
# Models whose SDPA the CPU cannot measure: DeepSeek's q/k head dim differs from its v head dim, so
# neither the CPU's fused kernel nor the GPU-kernel stand-in (``_GpuEfficientAttention``) can run it.
CPU_SDPA_FALLBACK = frozenset({"deepseek_v2", "deepseek_v3"})
# Whole models measured (two layers in each stack, with labels and the loss).
WHOLE_MODELS = (
    "llama",
    "qwen3",
    "mistral",
    "mixtral",
    "gpt2",
    "gpt2-nodropout",
    "t5",
    "umt5",
    "falcon-alibi",
)
WHOLE_LAYERS = 2
SEQ2SEQ = frozenset({"t5", "umt5", "whisper"})
SPEECH = frozenset({"whisper"})  # the encoder reads mel frames, not token ids
# The key that sets the measured layers when it is not num_hidden_layers (the other stack keeps 1).
LAYER_KEYS: dict[str, str] = {
    "t5": "num_layers",
    "t5-decoder": "num_decoder_layers",
    "t5-relu": "num_layers",
    "umt5": "num_layers",
    "whisper-decoder": "decoder_layers",
}


def attentions(config: dict[str, Any]) -> tuple[str, ...]:
    eager_only = EAGER_ONLY | CPU_SDPA_FALLBACK
    return ("eager",) if config["model_type"] in eager_only else ATTENTION


def layer_key(name: str, config: dict[str, Any]) -> str:
    if name in LAYER_KEYS:
        return LAYER_KEYS[name]
    return "n_layer" if config["model_type"] == "gpt2" else "num_hidden_layers"


# Config keys that list one entry a layer.
PER_LAYER_LISTS = ("layer_types", "attention_layers")


def layered(config: dict[str, Any], layers: int, key: str | tuple[str, ...]) -> dict[str, Any]:
    """``config`` with ``layers`` layers set by ``key`` (each of the keys, a tuple): its per-layer
    lists (``layer_types``, GPT-Neo's ``attention_layers``), if listed, cut to the first ``layers``
    (so a one- and a two-layer model hold the same kind of layer and their difference is one)."""
    values = {**config, **dict.fromkeys((key,) if isinstance(key, str) else key, layers)}
    for listed in PER_LAYER_LISTS:
        if listed in config:
            values[listed] = config[listed][:layers]
    return values


def _kind(config: dict[str, Any]) -> str:
    if config["model_type"] in SPEECH:
        return "speech"
    return "seq2seq" if config["model_type"] in SEQ2SEQ else "causal"


def _inputs(config: dict[str, Any], labels: bool = False) -> dict[str, torch.Tensor]:
    """The forward's inputs: s token ids (on both sides of an encoder-decoder, the decoder's own ids
    its input), or for a speech encoder 2·s mel frames of noise beside the decoder's s ids. With
    ``labels`` a training step's: labels a tensor of their own, as a data collator makes them (a
    causal LM's a copy of its ids; an encoder-decoder's decoder reads them shifted right)."""
    generator = torch.Generator().manual_seed(1)
    ids = torch.randint(0, VOCAB, (BATCH, SEQ), generator=generator)
    kind = _kind(config)
    if kind == "speech":
        frames = (BATCH, config["num_mel_bins"], 2 * config["max_source_positions"])
        features = torch.randn(frames, generator=generator).to(torch.bfloat16)
        return {"input_features": features, "decoder_input_ids": ids}
    if labels:
        target = torch.randint(0, VOCAB, (BATCH, SEQ), generator=generator)
        return {"input_ids": ids, "labels": target if kind == "seq2seq" else ids.clone()}
    return {"input_ids": ids, "decoder_input_ids": ids} if kind == "seq2seq" else {"input_ids": ids}


def build(config: dict[str, Any], layers: int, key: str | tuple[str, ...], attention: str) -> torch.nn.Module:
    values = {name: value for name, value in layered(config, layers, key).items() if name != "model_type"}
    cfg = AutoConfig.for_model(config["model_type"], **values)
    torch.manual_seed(0)
    kinds = {
        "speech": AutoModelForSpeechSeq2Seq,
        "seq2seq": AutoModelForSeq2SeqLM,
        "causal": AutoModelForCausalLM,
    }
    kind = kinds[_kind(config)]
    model = kind.from_config(cfg, attn_implementation=attention)
    return model.to(torch.bfloat16).train()


def _labels(root: Any, params: set[int]) -> dict[int, str]:
    """Storage → the autograd node (and attribute) that saved it, walking the graph from ``root``."""
    found: dict[int, str] = {}
    seen: set[Any] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        for attribute, value in _saved_by(node):
            if isinstance(value, torch.Tensor):
                pointer = value.untyped_storage().data_ptr()
                if pointer not in params:
                    found.setdefault(pointer, f"{type(node).__name__}.{attribute}")
        stack.extend(next_node for next_node, _ in node.next_functions)
    return found


def _saved_by(node: Any) -> Iterator[tuple[str, Any]]:
    """(name, value) of what ``node`` saved: a built-in node's ``_saved_*`` attributes, a custom
    function's ``saved_tensors`` (the GPU-kernel stand-in's, named as the kernel names them)."""
    if isinstance(node, _GpuEfficientAttention._backward_cls):  # type: ignore[attr-defined]
        yield from zip(_GpuEfficientAttention.SAVED, node.saved_tensors, strict=True)
        return
    for attribute in dir(node):
        if attribute.startswith("_saved_"):
            try:
                yield attribute[7:], getattr(node, attribute)
            except RuntimeError:  # freed or not a tensor
                continue


class _GpuEfficientAttention(torch.autograd.Function):
    """SDPA as a GPU's memory-efficient kernel keeps it, computed with the CPU's fused kernel.

    On the CPU, SDPA with dropout or with a float mask that needs its gradient (T5's learned position
    bias) takes the math path, which keeps fp32 scores and copies no GPU kernel keeps. A GPU runs the
    memory-efficient kernel there, whose backward reads query, key, value, attn_bias, output,
    log_sumexp and a philox seed and offset (torch's tools/autograd/derivatives.yaml,
    ``_scaled_dot_product_efficient_attention``): this function saves the same tensors (the two
    8-byte philox scalars apart) and is never differentiated."""

    SAVED = ("query", "key", "value", "attn_bias", "output", "log_sumexp")

    @staticmethod
    def forward(  # type: ignore[override]
        ctx: Any,
        query: torch.Tensor,
        key: torch.Tensor,
        value: torch.Tensor,
        mask: Any,
        causal: bool,
        scale: Any,
    ) -> torch.Tensor:
        heads = query.shape[1] // key.shape[1]  # enable_gqa: the kernel reads each KV head for its group
        k, v = (
            (key, value)
            if heads == 1
            else (key.repeat_interleave(heads, 1), value.repeat_interleave(heads, 1))
        )
        fused = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu
        output, log_sumexp = fused(query, k, v, 0.0, causal, attn_mask=mask, scale=scale)
        ctx.save_for_backward(query, key, value, mask, output, log_sumexp)
        return output

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        raise NotImplementedError("a measurement stand-in: never differentiated")


@contextlib.contextmanager
def gpu_attention_kernels() -> Iterator[None]:
    """SDPA calls the CPU would run on its math path run on ``_GpuEfficientAttention`` instead."""
    functional = torch.nn.functional
    original = functional.scaled_dot_product_attention

    def sdpa(
        query: torch.Tensor,
        key: torch.Tensor,
        value: torch.Tensor,
        attn_mask: Any = None,
        dropout_p: float = 0.0,
        is_causal: bool = False,
        scale: Any = None,
        **kwargs: Any,
    ) -> torch.Tensor:
        needs_grad = isinstance(attn_mask, torch.Tensor) and attn_mask.requires_grad
        if (dropout_p > 0 or needs_grad) and query.shape[-1] == value.shape[-1]:
            return _GpuEfficientAttention.apply(query, key, value, attn_mask, is_causal, scale)
        return original(
            query,
            key,
            value,
            attn_mask=attn_mask,
            dropout_p=dropout_p,
            is_causal=is_causal,
            scale=scale,
            **kwargs,
        )

    functional.scaled_dot_product_attention = sdpa
    try:
        yield
    finally:
        functional.scaled_dot_product_attention = original


class _Saved:
    """What a node keeps in place of a saved tensor: its weak reference says, after the forward,
    whether a node of the graph still holds the tensor."""

    __slots__ = ("__weakref__", "tensor")

    def __init__(self, tensor: torch.Tensor) -> None:
        self.tensor = tensor


def saved_bytes(
    config: dict[str, Any], layers: int, key: str | tuple[str, ...], attention: str, labels: bool = False
) -> tuple[int, list[dict[str, Any]]]:
    """Bytes of the distinct non-parameter storages autograd saves in one forward and still holds
    after it, and the tensors (``labels``: with labels and the loss). A node outside the loss's graph
    (DeepSeek's group top-k, whose only output is an integer index) dies in the forward with what it
    saved, whose address a later tensor may take: only storages still held are counted, each once."""
    model = build(config, layers, key, attention)
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    saved: list[tuple[weakref.ref[_Saved], int, tuple[int, ...], str, int]] = []

    def pack(tensor: torch.Tensor) -> _Saved:
        storage = tensor.untyped_storage()
        held = _Saved(tensor)
        dtype = str(tensor.dtype).removeprefix("torch.")
        saved.append((weakref.ref(held), storage.data_ptr(), tuple(tensor.shape), dtype, storage.nbytes()))
        return held

    inputs = _inputs(config, labels)
    hooks = torch.autograd.graph.saved_tensors_hooks(pack, lambda held: held.tensor)
    with hooks, gpu_attention_kernels():
        output = model(**inputs)
    root = output.loss if labels else output.logits
    gc.collect()
    storages: dict[int, tuple[tuple[int, ...], str, int]] = {}
    for ref, pointer, shape, dtype, size in saved:
        if ref() is not None and pointer not in params:
            storages.setdefault(pointer, (shape, dtype, size))
    names = _labels(root.grad_fn, params)
    tensors = [
        {"saved_by": names.get(pointer, "?"), "shape": list(shape), "dtype": dtype, "bytes": size}
        for pointer, (shape, dtype, size) in storages.items()
    ]
    return sum(size for _, _, size in storages.values()), tensors


def activation_units(name: str) -> float | None:
    """Tensors of its input's size an ``ACT2FN`` activation saves for backward, its output not
    counted (the next matrix keeps that one anyway); None when it does not run in bf16 on its own."""
    from transformers.activations import ACT2FN

    try:
        function = ACT2FN[name]
        start = torch.randn(64, 128, dtype=torch.bfloat16, requires_grad=True)
        x = start * 1.0  # not a leaf, as an FFN's projection output is not
        storages: dict[int, int] = {}

        def pack(tensor: torch.Tensor) -> torch.Tensor:
            if tensor.numel() > 1:
                storages[tensor.untyped_storage().data_ptr()] = tensor.untyped_storage().nbytes()
            return tensor

        with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
            y = function(x)
    except (KeyError, RuntimeError):
        return None
    storages.pop(y.untyped_storage().data_ptr(), None)
    return sum(storages.values()) / (x.numel() * x.element_size())


def _key(tensor: dict[str, Any]) -> tuple[Any, ...]:
    return (tensor["saved_by"], tuple(tensor["shape"]), tensor["dtype"], tensor["bytes"])


def measure(name: str, attention: str, configs: dict[str, dict[str, Any]] = CONFIGS) -> dict[str, Any]:
    config = configs[name]
    key = layer_key(name, config)
    one, first = saved_bytes(config, 1, key, attention)
    two, second = saved_bytes(config, 2, key, attention)
    added = Counter(map(_key, second)) - Counter(map(_key, first))  # the layer the second model adds
    layer = [
        {"saved_by": key[0], "shape": list(key[1]), "dtype": key[2], "bytes": key[3], "count": count}
        for key, count in sorted(added.items(), key=lambda item: (-item[0][3], item[0][0]))
    ]
    return {
        "name": f"{name}-{attention}",
        "family": name,
        "attention": attention,
        "config": config,
        "layer_key": key,
        "dtype": "bf16",
        "seq": SEQ,
        "batch": BATCH,
        "bytes_one_layer_model": one,
        "bytes_two_layer_model": two,
        "per_layer": two - one,
        "layer_tensors": layer,
    }


def whole_model_keys(name: str, config: dict[str, Any]) -> tuple[str, ...]:
    """The keys that set every stack's layers: an encoder-decoder's both."""
    if _kind(config) != "causal":
        return ("num_layers", "num_decoder_layers")
    return (layer_key(name, config),)


def _counted(tensors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tensors, alike ones counted together, largest first."""
    counts = Counter(map(_key, tensors))
    return [
        {"saved_by": key[0], "shape": list(key[1]), "dtype": key[2], "bytes": key[3], "count": count}
        for key, count in sorted(counts.items(), key=lambda item: (-item[0][3], item[0][0]))
    ]


def measure_whole(name: str, attention: str) -> dict[str, Any]:
    """A whole model of ``WHOLE_LAYERS`` layers in each stack, trained one step: with labels, the
    loss's graph (what lies outside the layers as well)."""
    config = CONFIGS[name]
    keys = whole_model_keys(name, config)
    total, tensors = saved_bytes(config, WHOLE_LAYERS, keys, attention, labels=True)
    return {
        "name": f"{name}-{attention}",
        "family": name,
        "attention": attention,
        "config": config,
        "layer_keys": list(keys),
        "layers": WHOLE_LAYERS,
        "dtype": "bf16",
        "seq": SEQ,
        "batch": BATCH,
        "bytes": total,
        "tensors": _counted(tensors),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print each layer's saved tensors")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    entries = [
        measure(name, attention) for name, config in CONFIGS.items() for attention in attentions(config)
    ]
    fallback = [measure(name, "eager", FALLBACK_CONFIGS) for name in FALLBACK_CONFIGS]
    whole = [
        measure_whole(name, attention) for name in WHOLE_MODELS for attention in attentions(CONFIGS[name])
    ]
    from transformers.activations import ACT2CLS

    units = {name: activation_units(name) for name in sorted(ACT2CLS)}
    print("activation functions (tensors of the input's size kept, output not counted):", units)
    for entry in entries + fallback:
        listed = sum(t["bytes"] * t["count"] for t in entry["layer_tensors"])
        print(f"{entry['name']:<24} per layer {entry['per_layer']:>12,} B  (tensors listed: {listed:,})")
        if args.show:
            for t in entry["layer_tensors"]:
                shape = str(t["shape"])
                print(f"    {t['count']} × {t['saved_by']:<48} {shape:<22} {t['dtype']:<9} {t['bytes']:>10,}")
    for entry in whole:
        print(
            f"{entry['name']:<24} whole model {entry['bytes']:>12,} B "
            f"({WHOLE_LAYERS} layers a stack, with the loss)"
        )
    header = {
        "_generated_by": "tools/measure_activations.py",
        "_versions": {"torch": torch.__version__, "transformers": transformers.__version__},
        "_method": (
            "saved_tensors_hooks, distinct storages, parameters excluded; per layer = L2 − L1; whole models "
            "with labels and the loss; CPU, SDPA's math-path calls on a GPU-kernel stand-in"
        ),
    }
    data = {
        **header,
        "activation_functions": units,
        "cases": entries,
        "kernel_fallback_cases": fallback,
        "whole_model_cases": whole,
    }
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
