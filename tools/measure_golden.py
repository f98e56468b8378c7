#!/usr/bin/env python3
"""Measure golden parameter counts with the real transformers model classes.

This is a development tool, not part of ParamTally: it needs torch and
transformers (the product never imports either).  Every model is built on the
meta device from a config dict alone, so nothing is downloaded and no memory
is allocated.  Only in-library classes are used (``auto_map`` and
``trust_remote_code`` are ignored).

    python tools/measure_golden.py                  # tests/golden/presets.json
    python tools/measure_golden.py --random         # tests/golden/random_configs.json
    python tools/measure_golden.py --shapes DIR     # per-preset shape dumps (text)

Schema-v2 families (configs in tests/data/hf_configs_v2/, kept apart from hf_configs/ because
today's importer cannot read them):

    python tools/measure_golden.py --v2                # tests/golden/families_v2.json (+ DeepSeek-V3 MTP)
    python tools/measure_golden.py --v2 --random       # tests/golden/random_configs_v2.json
    python tools/measure_golden.py --v2 --param-names  # tests/data/param_names_v2.json
    python tools/measure_golden.py --check-findings    # tools/family_formulas.py against the modules

Issue-33 families (configs in tests/data/hf_configs_v3/, see tools/measure_v3.py):

    python tools/measure_golden.py --v3            # tests/golden/families_v3.json + data/param_names_v3.json
    python tools/measure_golden.py --v3 --random   # tests/golden/random_configs_v3.json
    python tools/measure_golden.py --check         # all three measured again and compared, nothing written
    python tools/measure_golden.py --random --check    # the randomized ones only

``total``  = sum(p.numel() for p in model.parameters())  (tied weights once).
``active`` = total - sum over MoE blocks of (E - k) * (params of one routed
expert), the routed expert being measured from the module itself (a
``ModuleList`` entry, or the fused 3-D expert tensors' numel / E).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
import transformers
from torch import nn
from transformers import CONFIG_MAPPING, AutoModelForCausalLM, AutoModelForSeq2SeqLM

ROOT = Path(__file__).resolve().parent.parent
CONFIG_DIR = ROOT / "tests" / "data" / "hf_configs"
PRESETS_OUT = ROOT / "tests" / "golden" / "presets.json"
RANDOM_OUT = ROOT / "tests" / "golden" / "random_configs.json"
SEED = 20240611
PER_TYPE = 8

# Keys that would make transformers reach for remote code or quantizers;
# they do not change any parameter shape of the in-library class.
IGNORED_KEYS = ("auto_map", "quantization_config")


# --------------------------------------------------------------------------
# building and measuring
# --------------------------------------------------------------------------


def make_config(d: dict[str, Any]) -> transformers.PretrainedConfig:
    clean = {k: v for k, v in d.items() if k not in IGNORED_KEYS}
    cls = CONFIG_MAPPING[clean["model_type"]]
    return cls.from_dict(clean)


SEQ2SEQ_TYPES = ("t5", "mt5", "bart")


def model_classes(model_type: str) -> list[str]:
    """Classes to measure: the causal-LM class, the seq2seq LM class, or for BERT the MLM and bare models."""
    if model_type == "bert":
        return ["BertForMaskedLM", "BertModel"]
    if model_type in SEQ2SEQ_TYPES:
        return ["AutoModelForSeq2SeqLM"]
    if model_type == "whisper":
        return ["WhisperForConditionalGeneration"]
    return ["AutoModelForCausalLM"]


def build(d: dict[str, Any], class_name: str) -> nn.Module:
    cfg = make_config(d)
    with torch.device("meta"):
        if class_name == "AutoModelForCausalLM":
            return AutoModelForCausalLM.from_config(cfg, trust_remote_code=False)
        if class_name == "AutoModelForSeq2SeqLM":
            return AutoModelForSeq2SeqLM.from_config(cfg, trust_remote_code=False)
        return getattr(transformers, class_name)(cfg)


def numel(module: nn.Module) -> int:
    return sum(p.numel() for p in module.parameters())


def _top_k(block: nn.Module, cfg: Any) -> int:
    for owner in (block, getattr(block, "gate", None), getattr(block, "router", None)):
        if owner is None:
            continue
        for attr in ("top_k", "num_experts_per_tok"):
            val = getattr(owner, attr, None)
            if isinstance(val, int):
                return val
    return int(cfg.num_experts_per_tok)


def moe_blocks(model: nn.Module) -> list[dict[str, Any]]:
    """Every module that owns an ``experts`` child, with E, k and one expert's size."""
    out = []
    for name, mod in model.named_modules():
        experts = getattr(mod, "experts", None)
        if not isinstance(experts, nn.Module):
            continue
        if isinstance(experts, nn.ModuleList):
            n_exp = len(experts)
            per = numel(experts[0])
            assert all(numel(e) == per for e in experts), name
            layout = "ModuleList"
        else:
            params = list(experts.parameters())
            n_exp = int(params[0].shape[0])
            assert all(p.shape[0] == n_exp for p in params), name
            total = numel(experts)
            assert total % n_exp == 0, name
            per = total // n_exp
            layout = "fused 3-D"
        out.append(
            {
                "name": name,
                "E": n_exp,
                "k": _top_k(mod, model.config),
                "per_expert": per,
                "layout": layout,
            }
        )
    return out


def measure(d: dict[str, Any], class_name: str) -> dict[str, Any]:
    model = build(d, class_name)
    total = numel(model)
    inactive = sum((b["E"] - b["k"]) * b["per_expert"] for b in moe_blocks(model))
    return {
        "model_class": type(model).__name__,
        "total": total,
        "active": total - inactive,
    }


# --------------------------------------------------------------------------
# presets
# --------------------------------------------------------------------------


def versions(command: str) -> dict[str, str]:
    return {
        "transformers": transformers.__version__,
        "torch": torch.__version__,
        "command": command,
    }


def run_presets(out: Path) -> None:
    result: dict[str, Any] = {"_generated_by": versions("python tools/measure_golden.py")}
    for path in sorted(CONFIG_DIR.glob("*.json")):
        d = json.loads(path.read_text())
        classes = model_classes(d["model_type"])
        measured = [measure(d, c) for c in classes]
        entry = {"model_type": d["model_type"], **measured[0]}
        if len(measured) > 1:
            entry["by_class"] = {
                m["model_class"]: {"total": m["total"], "active": m["active"]} for m in measured
            }
        result[path.stem] = entry
        print(f"{path.stem:22s} {entry['model_class']:28s} {entry['total']:>16,d} {entry['active']:>16,d}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    print(f"wrote {out}")


# --------------------------------------------------------------------------
# shape dumps
# --------------------------------------------------------------------------

_LAYER_RE = re.compile(r"^(.*?\.)(\d+)\.(.*)$")


def _split(name: str) -> tuple[str, int, str] | None:
    m = _LAYER_RE.match(name)
    if not m:
        return None
    return m.group(1), int(m.group(2)), m.group(3)


def dump_shapes(model_id: str, d: dict[str, Any], class_name: str) -> str:
    model = build(d, class_name)
    lines = [
        f"# {model_id}  class={type(model).__name__}  model_type={d['model_type']}",
        f"# transformers {transformers.__version__}, torch {torch.__version__}",
        f"# total numel = {numel(model):,}",
    ]
    inp = model.get_input_embeddings()
    out = model.get_output_embeddings() if hasattr(model, "get_output_embeddings") else None
    if out is not None:
        tied = out.weight is inp.weight
        lines.append(f"# output embedding tied to input embedding: {tied}")
    non_layer, layers = [], {}
    for name, p in model.named_parameters():
        s = _split(name)
        if s is None:
            non_layer.append((name, p))
        else:
            layers.setdefault(s[1], []).append((s[0], s[2], p))
    lines.append("")
    lines.append("## non-layer parameters")
    for name, p in non_layer:
        lines.append(f"{name:70s} {tuple(p.shape)!s:24s} {p.numel():>14,d}")
    first_name: dict[int, str] = {}
    for name, p in model.named_parameters(remove_duplicate=False):
        if id(p) in first_name:
            lines.append(f"(tied alias, counted once) {name} -> {first_name[id(p)]}")
        else:
            first_name[id(p)] = name
    # group layers by structure signature
    sigs: dict[tuple, list[int]] = {}
    for idx, plist in sorted(layers.items()):
        sig = tuple((sub, tuple(p.shape)) for _, sub, p in plist)
        sigs.setdefault(sig, []).append(idx)
    lines.append("")
    lines.append(f"## layers: {len(layers)}; distinct layer structures: {len(sigs)}")
    for sig, idxs in sigs.items():
        n = sum(_prod(s) for _, s in sig)
        lines.append(f"#   layers {_ranges(idxs)}: {n:,} params each")
    for sig, idxs in sigs.items():
        idx = idxs[0]
        prefix = layers[idx][0][0]
        lines.append("")
        lines.append(f"## layer {idx} ({prefix}{idx}.*), same structure as layers {_ranges(idxs)}")
        for sub, shape in sig:
            lines.append(f"{sub:70s} {shape!s:24s} {_prod(shape):>14,d}")
        bufs = [(n, b) for n, b in model.named_buffers() if (_split(n) or (None, -1))[1] == idx]
        for n, b in bufs:
            s = _split(n)
            lines.append(f"  (buffer, not a parameter) {s[2]:44s} {tuple(b.shape)!s:24s}")
    blocks = moe_blocks(model)
    if blocks:
        b = blocks[0]
        lines.append("")
        lines.append(
            f"## MoE: {len(blocks)} blocks; first {b['name']}: E={b['E']} k={b['k']} "
            f"one routed expert={b['per_expert']:,} params, experts stored as {b['layout']}"
        )
    return "\n".join(lines) + "\n"


def _prod(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _ranges(idxs: list[int]) -> str:
    parts, start, prev = [], idxs[0], idxs[0]
    for i in [*idxs[1:], None]:
        if i is not None and i == prev + 1:
            prev = i
            continue
        parts.append(f"{start}" if start == prev else f"{start}-{prev}")
        if i is not None:
            start = prev = i
    return ",".join(parts)


def run_shapes(out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for path in sorted(CONFIG_DIR.glob("*.json")):
        d = json.loads(path.read_text())
        texts = [dump_shapes(path.stem, d, c) for c in model_classes(d["model_type"])]
        (out_dir / f"{path.stem}.txt").write_text("\n\n".join(texts))
        print(f"wrote {out_dir / (path.stem + '.txt')}")


# --------------------------------------------------------------------------
# randomized configs
# --------------------------------------------------------------------------


def _heads(r: random.Random, max_hidden: int = 256) -> tuple[int, int, int]:
    """(hidden, heads, head_dim) with hidden = heads * head_dim <= max_hidden."""
    while True:
        heads = r.choice([1, 2, 4, 6, 8])
        hd = r.choice([8, 16, 24, 32])
        if heads * hd <= max_hidden:
            return heads * hd, heads, hd


def _kv(r: random.Random, heads: int) -> int:
    return r.choice([g for g in range(1, heads + 1) if heads % g == 0])


def _rope(r: random.Random, d: dict[str, Any], partial: float | None = None) -> None:
    """Write RoPE settings in either the old or the new key spelling."""
    theta = r.choice([10000.0, 500000.0, 1000000.0])
    if r.random() < 0.5:
        d["rope_theta"] = theta
        if partial is not None:
            d["partial_rotary_factor"] = partial
    else:
        rp: dict[str, Any] = {"rope_type": "default", "rope_theta": theta}
        if partial is not None:
            rp["partial_rotary_factor"] = partial
        d["rope_parameters"] = rp


def _dtype(r: random.Random, d: dict[str, Any]) -> None:
    d["torch_dtype" if r.random() < 0.5 else "dtype"] = r.choice(["float16", "bfloat16", "float32"])


def _maybe_tie(r: random.Random, d: dict[str, Any]) -> None:
    x = r.random()
    if x < 0.4:
        d["tie_word_embeddings"] = True
    elif x < 0.8:
        d["tie_word_embeddings"] = False
    # else: omitted, class default applies


def _vocab(r: random.Random) -> int:
    return r.randint(50, 1000)


def gen_gpt2(r: random.Random) -> dict[str, Any]:
    h, a, _ = _heads(r)
    d = {
        "model_type": "gpt2",
        "architectures": ["GPT2LMHeadModel"],
        "vocab_size": _vocab(r),
        "n_positions": r.choice([64, 128, 1024]),
        "n_embd": h,
        "n_layer": r.randint(1, 6),
        "n_head": a,
    }
    if r.random() < 0.5:
        d["n_inner"] = r.choice([h * 2, h * 4, 96, 200])
    _maybe_tie(r, d)
    return d


def gen_opt(r: random.Random) -> dict[str, Any]:
    h, a, _ = _heads(r)
    d = {
        "model_type": "opt",
        "architectures": ["OPTForCausalLM"],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "ffn_dim": r.choice([h * 4, 100, 64]),
        "num_hidden_layers": r.randint(1, 6),
        "num_attention_heads": a,
        "max_position_embeddings": r.choice([64, 128, 2048]),
        "do_layer_norm_before": r.random() < 0.6,
        "word_embed_proj_dim": h if r.random() < 0.5 else r.choice([16, 32, 48, 64]),
    }
    if r.random() < 0.4:
        d["enable_bias"] = r.random() < 0.5
    if r.random() < 0.3:
        d["layer_norm_elementwise_affine"] = r.random() < 0.5
    if r.random() < 0.3:
        d["_remove_final_layer_norm"] = r.random() < 0.5
    _maybe_tie(r, d)
    return d


def _llama_like(r: random.Random, model_type: str, arch: str) -> dict[str, Any]:
    h, a, hd = _heads(r)
    d: dict[str, Any] = {
        "model_type": model_type,
        "architectures": [arch],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "intermediate_size": r.choice([h * 2, h * 3, 100, 352]),
        "num_hidden_layers": r.randint(1, 6),
        "num_attention_heads": a,
        "num_key_value_heads": _kv(r, a),
        "max_position_embeddings": r.choice([128, 4096]),
    }
    if r.random() < 0.5:
        d["head_dim"] = r.choice([hd, 8, 16, 40, 64])
    _rope(r, d)
    _dtype(r, d)
    _maybe_tie(r, d)
    return d


def gen_llama(r: random.Random) -> dict[str, Any]:
    d = _llama_like(r, "llama", "LlamaForCausalLM")
    if r.random() < 0.6:
        d["attention_bias"] = r.random() < 0.5
    if r.random() < 0.6:
        d["mlp_bias"] = r.random() < 0.5
    return d


def gen_mistral(r: random.Random) -> dict[str, Any]:
    d = _llama_like(r, "mistral", "MistralForCausalLM")
    d["sliding_window"] = r.choice([None, 64, 4096])
    return d


def gen_mixtral(r: random.Random) -> dict[str, Any]:
    d = _llama_like(r, "mixtral", "MixtralForCausalLM")
    e = r.choice([2, 4, 8, 16])
    d["num_local_experts"] = e
    d["num_experts_per_tok"] = r.randint(1, min(e, 4))
    d["intermediate_size"] = r.choice([32, 64, 96, 200])
    d["sliding_window"] = r.choice([None, 128])
    return d


def gen_qwen2(r: random.Random) -> dict[str, Any]:
    d = _llama_like(r, "qwen2", "Qwen2ForCausalLM")  # explicit head_dim is read via getattr
    d["use_sliding_window"] = False
    d["max_window_layers"] = d["num_hidden_layers"]
    return d


def gen_qwen3(r: random.Random) -> dict[str, Any]:
    d = _llama_like(r, "qwen3", "Qwen3ForCausalLM")
    if r.random() < 0.7:
        d["attention_bias"] = r.random() < 0.5
    return d


def _moe_layers(r: random.Random, d: dict[str, Any]) -> None:
    n = d["num_hidden_layers"]
    d["decoder_sparse_step"] = r.choice([1, 1, 2, 3])
    if r.random() < 0.5:
        d["mlp_only_layers"] = sorted(r.sample(range(n), r.randint(0, n)))


def gen_qwen2_moe(r: random.Random) -> dict[str, Any]:
    d = _llama_like(r, "qwen2_moe", "Qwen2MoeForCausalLM")
    e = r.choice([4, 8, 12, 60])
    d.update(
        {
            "num_experts": e,
            "num_experts_per_tok": r.randint(1, min(e, 4)),
            "moe_intermediate_size": r.choice([16, 32, 48]),
            "shared_expert_intermediate_size": r.choice([32, 64, 128]),
            "norm_topk_prob": r.random() < 0.5,
        }
    )
    if r.random() < 0.5:
        d["qkv_bias"] = r.random() < 0.5
    _moe_layers(r, d)
    return d


def gen_qwen3_moe(r: random.Random) -> dict[str, Any]:
    d = _llama_like(r, "qwen3_moe", "Qwen3MoeForCausalLM")
    e = r.choice([4, 8, 16, 128])
    d.update(
        {
            "num_experts_per_tok": r.randint(1, min(e, 8)),
            "moe_intermediate_size": r.choice([16, 32, 48]),
            "norm_topk_prob": r.random() < 0.5,
        }
    )
    d["num_experts" if r.random() < 0.7 else "num_local_experts"] = e
    if r.random() < 0.5:
        d["attention_bias"] = r.random() < 0.5
    _moe_layers(r, d)
    return d


def gen_gemma(r: random.Random) -> dict[str, Any]:
    d = _llama_like(r, "gemma", "GemmaForCausalLM")
    d["head_dim"] = r.choice([8, 16, 32, 64])
    d["hidden_act"] = r.choice(["gelu", "gelu_pytorch_tanh"])
    if r.random() < 0.3:
        d["attention_bias"] = True
    return d


def gen_gemma2(r: random.Random) -> dict[str, Any]:
    d = _llama_like(r, "gemma2", "Gemma2ForCausalLM")
    d["head_dim"] = r.choice([8, 16, 32, 64])
    d["query_pre_attn_scalar"] = d["head_dim"]
    d["sliding_window"] = r.choice([16, 64, 4096])
    if r.random() < 0.3:
        d["attention_bias"] = True
    return d


def gen_phi(r: random.Random) -> dict[str, Any]:
    h, a, _ = _heads(r)
    d = {
        "model_type": "phi",
        "architectures": ["PhiForCausalLM"],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "intermediate_size": r.choice([h * 4, 100]),
        "num_hidden_layers": r.randint(1, 6),
        "num_attention_heads": a,
        "num_key_value_heads": _kv(r, a),
        "qk_layernorm": r.random() < 0.5,
        "max_position_embeddings": 2048,
    }
    _rope(r, d, partial=r.choice([0.25, 0.4, 0.5, 1.0]))
    _dtype(r, d)
    _maybe_tie(r, d)
    return d


def gen_phi3(r: random.Random) -> dict[str, Any]:
    d = _llama_like(r, "phi3", "Phi3ForCausalLM")
    d["sliding_window"] = r.choice([None, 2047])
    d["original_max_position_embeddings"] = d["max_position_embeddings"]
    d["pad_token_id"] = 0  # the class default (32000) is outside a small vocabulary
    if r.random() < 0.3:
        d["partial_rotary_factor"] = 0.5
    return d


def gen_falcon(r: random.Random) -> dict[str, Any]:
    h, a, _ = _heads(r)
    d: dict[str, Any] = {
        "model_type": "falcon",
        "architectures": ["FalconForCausalLM"],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "num_hidden_layers": r.randint(1, 6),
        "num_attention_heads": a,
        "bias": r.random() < 0.5,
        "alibi": r.random() < 0.3,
    }
    kind = r.choice(["7b", "40b", "mha", "serial"])
    if kind == "7b":
        d.update({"multi_query": True, "new_decoder_architecture": False, "parallel_attn": True})
        if r.random() < 0.5:
            d["num_kv_heads"] = _kv(r, a)  # ignored: multi_query forces one KV head
    elif kind == "40b":
        d.update(
            {
                "new_decoder_architecture": True,
                "num_kv_heads": _kv(r, a),
                "parallel_attn": True,
                "multi_query": r.random() < 0.5,
            }
        )
        if r.random() < 0.5:
            d["num_ln_in_parallel_attn"] = r.choice([1, 2])
    elif kind == "mha":
        d.update({"multi_query": False, "new_decoder_architecture": False, "parallel_attn": True})
        if r.random() < 0.5:
            d["num_ln_in_parallel_attn"] = 2
    else:
        d.update({"multi_query": r.random() < 0.5, "new_decoder_architecture": False, "parallel_attn": False})
    if r.random() < 0.4:
        d["ffn_hidden_size"] = r.choice([h * 2, 100])
    _maybe_tie(r, d)
    return d


def gen_bloom(r: random.Random) -> dict[str, Any]:
    h, a, _ = _heads(r)
    d: dict[str, Any] = {
        "model_type": "bloom",
        "architectures": ["BloomForCausalLM"],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "n_layer": r.randint(1, 6),
        "n_head": a,
        "apply_residual_connection_post_layernorm": r.random() < 0.3,
    }
    _maybe_tie(r, d)
    return d


def gen_gpt_neox(r: random.Random) -> dict[str, Any]:
    h, a, _ = _heads(r)
    d: dict[str, Any] = {
        "model_type": "gpt_neox",
        "architectures": ["GPTNeoXForCausalLM"],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "num_hidden_layers": r.randint(1, 6),
        "num_attention_heads": a,
        "intermediate_size": r.choice([h * 4, 100]),
        "use_parallel_residual": r.random() < 0.5,
        "max_position_embeddings": 2048,
    }
    if r.random() < 0.5:
        d["attention_bias"] = r.random() < 0.5
    pct = r.choice([0.25, 0.5, 1.0])
    if r.random() < 0.5:
        d["rotary_pct"] = pct
        d["rotary_emb_base"] = 10000
    else:
        d["rope_parameters"] = {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": pct}
    _maybe_tie(r, d)
    return d


def _deepseek(r: random.Random, model_type: str, arch: str) -> dict[str, Any]:
    h, a, _ = _heads(r)
    n = r.randint(1, 6)
    e = r.choice([4, 8, 16, 64])
    d: dict[str, Any] = {
        "model_type": model_type,
        "architectures": [arch],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "intermediate_size": r.choice([h * 2, 100]),
        "moe_intermediate_size": r.choice([16, 32, 48]),
        "num_hidden_layers": n,
        "num_attention_heads": a,
        "num_key_value_heads": a,
        "n_routed_experts": e,
        "n_shared_experts": r.choice([1, 2]),
        "num_experts_per_tok": r.randint(1, min(e, 6)),
        "first_k_dense_replace": r.randint(0, n),
        "kv_lora_rank": r.choice([16, 32, 64]),
        "q_lora_rank": r.choice([None, 24, 48, 96]),
        "qk_nope_head_dim": r.choice([8, 16, 32]),
        "qk_rope_head_dim": r.choice([8, 16]),
        "v_head_dim": r.choice([8, 16, 24]),
        "max_position_embeddings": 4096,
    }
    if r.random() < 0.4:
        d["attention_bias"] = r.random() < 0.5
    if r.random() < 0.3:
        # newer tools write head_dim = qk_rope_head_dim; MLA shapes must not depend on it
        d["head_dim"] = d["qk_rope_head_dim"]
    _rope(r, d)
    _dtype(r, d)
    _maybe_tie(r, d)
    return d


def gen_deepseek_v2(r: random.Random) -> dict[str, Any]:
    d = _deepseek(r, "deepseek_v2", "DeepseekV2ForCausalLM")
    if r.random() < 0.5:
        d.update({"topk_method": "group_limited_greedy", "n_group": 2, "topk_group": 1})
    else:
        d.update({"topk_method": "greedy", "n_group": 1, "topk_group": 1})
    if r.random() < 0.3:
        d["mlp_bias"] = True
    return d


def gen_deepseek_v3(r: random.Random) -> dict[str, Any]:
    d = _deepseek(r, "deepseek_v3", "DeepseekV3ForCausalLM")
    g = r.choice([g for g in (1, 2, 4) if d["n_routed_experts"] % g == 0])
    d.update(
        {
            "n_group": g,
            "topk_group": r.randint(1, g),
            "topk_method": "noaux_tc",
            "scoring_func": "sigmoid",
            "num_nextn_predict_layers": 1,
        }
    )
    return d


def gen_bert(r: random.Random) -> dict[str, Any]:
    h, a, _ = _heads(r)
    d: dict[str, Any] = {
        "model_type": "bert",
        "architectures": ["BertForMaskedLM"],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "num_hidden_layers": r.randint(1, 6),
        "num_attention_heads": a,
        "intermediate_size": r.choice([h * 4, 100]),
        "max_position_embeddings": r.choice([64, 128, 512]),
        "type_vocab_size": r.choice([1, 2, 4]),
        "hidden_act": r.choice(["gelu", "relu"]),
    }
    _maybe_tie(r, d)
    return d


GENERATORS: dict[str, Callable[[random.Random], dict[str, Any]]] = {
    "bert": gen_bert,
    "bloom": gen_bloom,
    "deepseek_v2": gen_deepseek_v2,
    "deepseek_v3": gen_deepseek_v3,
    "falcon": gen_falcon,
    "gemma": gen_gemma,
    "gemma2": gen_gemma2,
    "gpt2": gen_gpt2,
    "gpt_neox": gen_gpt_neox,
    "llama": gen_llama,
    "mistral": gen_mistral,
    "mixtral": gen_mixtral,
    "opt": gen_opt,
    "phi": gen_phi,
    "phi3": gen_phi3,
    "qwen2": gen_qwen2,
    "qwen2_moe": gen_qwen2_moe,
    "qwen3": gen_qwen3,
    "qwen3_moe": gen_qwen3_moe,
}


def run_random(out: Path, per_type: int) -> None:
    entries: list[dict[str, Any]] = []
    for model_type in sorted(GENERATORS):
        r = random.Random(f"{SEED}:{model_type}")
        made = 0
        attempts = 0
        while made < per_type:
            attempts += 1
            assert attempts < per_type * 10, f"{model_type}: too many invalid configs"
            d = GENERATORS[model_type](r)
            try:
                measured = [measure(d, c) for c in model_classes(model_type)]
            except Exception as exc:  # invalid combination: report and draw again
                print(f"skip {model_type}: {type(exc).__name__}: {exc}", file=sys.stderr)
                continue
            for m in measured:
                suffix = "" if len(measured) == 1 else f"-{m['model_class']}"
                entries.append({"name": f"{model_type}-{made:02d}{suffix}", "config": d, **m})
            made += 1
        print(f"{model_type}: {made} configs")
    # A plain list of entries; provenance rides on the first entry only.
    gen = versions(f"python tools/measure_golden.py --random --per-type {per_type}")
    gen["seed"] = str(SEED)
    entries[0] = {**entries[0], "_generated_by": gen}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(entries, indent=1, sort_keys=True) + "\n")
    print(f"wrote {out} ({len(entries)} entries, {out.stat().st_size:,} bytes)")


def main(argv: list[str] | None = None) -> int:
    # the schema-v2 families live in tools/measure_v2.py, which builds on the helpers above
    from measure_v2 import add_v2_arguments, run_v2
    from measure_v3 import add_v3_arguments, run_v3

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--random", action="store_true", help="write the randomized golden file instead")
    ap.add_argument("--per-type", type=int, default=PER_TYPE, help="random configs per model_type")
    ap.add_argument("--shapes", type=Path, metavar="DIR", help="write per-preset shape dumps to DIR")
    ap.add_argument("--out", type=Path, help="output file (default: tests/golden/...)")
    add_v2_arguments(ap)
    add_v3_arguments(ap)
    args = ap.parse_args(argv)
    transformers.logging.set_verbosity_error()
    if args.check and (args.v2 or args.check_findings or args.shapes):
        ap.error("--check re-measures the issue-33 goldens (--v3); it has no --v2 or --shapes form")
    if args.v3 or args.check:
        return run_v3(args)
    if args.v2 or args.check_findings:
        return run_v2(args)
    if args.shapes:
        run_shapes(args.shapes)
    elif args.random:
        run_random(args.out or RANDOM_OUT, args.per_type)
    else:
        run_presets(args.out or PRESETS_OUT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
