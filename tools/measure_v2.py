"""Schema-v2 goldens: encoder-decoders, state-space and hybrid families, DeepSeek-V3's MTP layer.

Run through ``tools/measure_golden.py`` (``--v2``, ``--v2 --random``, ``--v2 --param-names``,
``--check-findings``); the building and MoE measuring helpers are the ones in that file.

Published vs built: transformers 5 builds T5 v1.1 / Flan-T5 / mT5 with ``lm_head`` tied to
``shared`` (T5Config and MT5Config force ``tie_word_embeddings = True``), while those checkpoints
keep a separate ``lm_head.weight`` (their config.json says ``tie_word_embeddings: false``). The
golden ``total``/``active`` are the published counts; ``built`` holds what the module has.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import family_formulas as ff
import measure_golden as mg
import torch
import transformers
from random_v2 import GENERATORS_V2
from torch import nn

V2_DIR = mg.ROOT / "tests" / "data" / "hf_configs_v2"
FAMILIES_OUT = mg.ROOT / "tests" / "golden" / "families_v2.json"
RANDOM_V2_OUT = mg.ROOT / "tests" / "golden" / "random_configs_v2.json"
PARAM_NAMES_V2_OUT = mg.ROOT / "tests" / "data" / "param_names_v2.json"
DEEPSEEK_V3 = mg.CONFIG_DIR / "deepseek-v3.json"

T5_HEAD_NOTE = (
    "transformers 5 ties lm_head to shared (T5Config/MT5Config force tie_word_embeddings=True); "
    "the checkpoint stores lm_head.weight separately (config tie_word_embeddings: false): "
    "published = built + vocab_size * d_model"
)

_LAYER_RE = re.compile(r"^(.*?\.(?:layers|block|h)\.)(\d+)\.(.*)$")


def add_v2_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--v2", action="store_true", help="the schema-v2 families (tests/data/hf_configs_v2)")
    ap.add_argument("--param-names", action="store_true", help="with --v2: tests/data/param_names_v2.json")
    ap.add_argument("--check-findings", action="store_true", help="tools/family_formulas.py vs the modules")


def run_v2(args: argparse.Namespace) -> int:
    if args.check_findings:
        return check_findings(_published_configs() + _random_configs(args.per_type))
    if args.param_names:
        write_param_names(args.out or PARAM_NAMES_V2_OUT)
    elif args.random:
        write_random(args.out or RANDOM_V2_OUT, args.per_type)
    else:
        write_families(args.out or FAMILIES_OUT)
    return 0


# --------------------------------------------------------------------------
# measuring one config
# --------------------------------------------------------------------------


def layer_key(name: str) -> tuple[str, str, int] | None:
    """(prefix, stack, index) of a repeated layer's parameter; None outside the layers."""
    m = _LAYER_RE.match(name)
    if not m:
        return None
    stack = "encoder" if "encoder." in m.group(1) else "decoder"
    return m.group(1), stack, int(m.group(2))


def parts(model: nn.Module) -> dict[str, int]:
    """Outside-the-layers, encoder-layer and decoder-layer parameter sums (tied tensors once)."""
    out = {"outside": 0, "encoder_layers": 0, "decoder_layers": 0}
    for name, p in model.named_parameters():
        key = layer_key(name)
        out["outside" if key is None else f"{key[1]}_layers"] += p.numel()
    return {k: v for k, v in out.items() if v or k == "outside"}


def measure_v2(d: dict[str, Any]) -> tuple[dict[str, Any], nn.Module]:
    model = mg.build(d, mg.model_classes(d["model_type"])[0])
    total = mg.numel(model)
    blocks = mg.moe_blocks(model)
    active = total - sum((b["E"] - b["k"]) * b["per_expert"] for b in blocks)
    entry: dict[str, Any] = {
        "model_type": d["model_type"],
        "model_class": type(model).__name__,
        "total": total,
        "active": active,
        "parts": parts(model),
    }
    if blocks:
        b = blocks[0]
        entry["moe"] = {"layers": len(blocks), "E": b["E"], "k": b["k"], "per_expert": b["per_expert"]}
    extra = ff.t5_published_head(d) if d["model_type"] in ("t5", "mt5") else 0
    if extra:
        entry["built"] = {"total": total, "active": active}
        entry["total"], entry["active"] = total + extra, active + extra
        entry["parts"]["outside"] += extra
        entry["note"] = T5_HEAD_NOTE
    return entry, model


# --------------------------------------------------------------------------
# DeepSeek-V3 multi-token prediction (not built by transformers)
# --------------------------------------------------------------------------


def mtp_modules(d: dict[str, Any]) -> dict[str, nn.Module]:
    """One MTP module as stored in the checkpoint under model.layers.<num_hidden_layers>."""
    from transformers.models.deepseek_v3.modeling_deepseek_v3 import DeepseekV3DecoderLayer, DeepseekV3RMSNorm

    cfg = mg.make_config(d)
    h, v = cfg.hidden_size, cfg.vocab_size
    with torch.device("meta"):
        layer = DeepseekV3DecoderLayer(cfg, layer_idx=cfg.num_hidden_layers)  # >= first_k_dense_replace: MoE
        layer.config = cfg  # what mg.moe_blocks reads k from when the router does not say
        return {
            "decoder_layer": layer,
            "enorm": DeepseekV3RMSNorm(h),
            "hnorm": DeepseekV3RMSNorm(h),
            "eh_proj": nn.Linear(2 * h, h, bias=False),
            "shared_head.norm": DeepseekV3RMSNorm(h),
            "embed_tokens": nn.Embedding(v, h),  # the checkpoint's own copy
            "shared_head.head": nn.Linear(h, v, bias=False),  # the checkpoint's own copy
        }


def measure_mtp(d: dict[str, Any], built: dict[str, Any]) -> dict[str, Any]:
    modules = mtp_modules(d)
    n_mtp = int(d.get("num_nextn_predict_layers", 0))
    per_module = {name: mg.numel(m) for name, m in modules.items()}
    one = sum(per_module.values())
    blocks = mg.moe_blocks(modules["decoder_layer"])
    inactive = sum((b["E"] - b["k"]) * b["per_expert"] for b in blocks)
    n_experts = blocks[0]["E"]
    moe_layers = d["num_hidden_layers"] - d["first_k_dense_replace"]
    return {
        "model_type": d["model_type"],
        "config": "tests/data/hf_configs/deepseek-v3.json",
        "built": {"total": built["total"], "active": built["active"], "model_class": built["model_class"]},
        "mtp": {
            "num_nextn_predict_layers": n_mtp,
            "per_module": per_module,
            "total": n_mtp * one,
            "active": n_mtp * (one - inactive),
            "note": "embed_tokens and shared_head.head are the checkpoint's own copies of the "
            "(untied) embedding and head; the MoE layer is built with the real DeepseekV3DecoderLayer "
            "at layer_idx = num_hidden_layers",
        },
        "total": built["total"] + n_mtp * one,
        "active": built["active"] + n_mtp * (one - inactive),
        "checkpoint_tensor_elements": built["total"] + n_mtp * one + (moe_layers + n_mtp) * n_experts,
        "checkpoint_note": "total + one e_score_correction_bias (E,) per MoE layer, main and MTP: a buffer "
        "in transformers 5, a tensor in the safetensors; the FP8 weight_scale_inv tensors are not counted",
    }


# --------------------------------------------------------------------------
# the goldens
# --------------------------------------------------------------------------


def _published_configs() -> list[tuple[str, dict[str, Any]]]:
    return [(p.stem, json.loads(p.read_text())) for p in sorted(V2_DIR.glob("*.json"))]


def write_families(out: Path) -> None:
    result: dict[str, Any] = {
        "_generated_by": {
            **mg.versions("python tools/measure_golden.py --v2"),
            "configs": "tests/data/hf_configs_v2/*.json (provenance: SOURCES.md there)",
            "fields": "total/active = published counts (tied tensors once); built = the transformers module "
            "where it differs, with note; parts = outside the layers / encoder layers / decoder layers; "
            "moe = MoE layer count, E, k and one routed expert's parameters",
        }
    }
    for stem, d in _published_configs():
        entry, _ = measure_v2(d)
        result[stem] = entry
        print(f"{stem:40s} {entry['model_class']:34s} {entry['total']:>17,d} {entry['active']:>17,d}")
    ds = json.loads(DEEPSEEK_V3.read_text())
    built = mg.measure(ds, "AutoModelForCausalLM")
    result["deepseek-v3-mtp"] = measure_mtp(ds, built)
    print(f"{'deepseek-v3-mtp':40s} {'(MTP)':34s} {result['deepseek-v3-mtp']['total']:>17,d}")
    out.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    print(f"wrote {out}")


def _random_configs(per_type: int) -> list[tuple[str, dict[str, Any]]]:
    configs = []
    for model_type in sorted(GENERATORS_V2):
        r = random.Random(f"{mg.SEED}:{model_type}")
        for i in range(per_type):
            configs.append((f"{model_type}-{i:02d}", GENERATORS_V2[model_type](r)))
    return configs


def write_random(out: Path, per_type: int) -> None:
    entries = []
    for name, d in _random_configs(per_type):
        entry, _ = measure_v2(d)
        entries.append({"name": name, "config": d, **entry})
    gen = mg.versions(f"python tools/measure_golden.py --v2 --random --per-type {per_type}")
    gen["seed"] = str(mg.SEED)
    entries[0] = {**entries[0], "_generated_by": gen}
    out.write_text(json.dumps(entries, indent=1, sort_keys=True) + "\n")
    print(f"wrote {out} ({len(entries)} entries, {out.stat().st_size:,} bytes)")


# --------------------------------------------------------------------------
# parameter names per distinct layer structure
# --------------------------------------------------------------------------


def names_entry(model: nn.Module) -> dict[str, Any]:
    outside: dict[str, int] = {}
    layers: dict[tuple[str, int], list[tuple[str, int]]] = {}
    for name, p in model.named_parameters():
        key = layer_key(name)
        if key is None:
            outside[name] = p.numel()
        else:
            layers.setdefault((key[0], key[2]), []).append((_LAYER_RE.match(name).group(3), p.numel()))
    structures: dict[tuple[str, tuple[tuple[str, int], ...]], list[int]] = {}
    for (prefix, idx), params in sorted(layers.items()):
        structures.setdefault((prefix, tuple(params)), []).append(idx)
    return {
        "outside_layers": outside,
        "layer_structures": [
            {"prefix": prefix, "layers": mg._ranges(idxs), "params": dict(params)}
            for (prefix, params), idxs in structures.items()
        ],
    }


def write_param_names(out: Path) -> None:
    result: dict[str, Any] = {
        "_source": (
            f"parameter names and numel of the real transformers {transformers.__version__} models (meta), "
            "one entry per distinct layer structure per stack; checkpoint_only = tensors the published "
            "checkpoint holds that the module does not; from tools/measure_golden.py --v2 --param-names"
        )
    }
    for stem, d in _published_configs():
        entry, model = measure_v2(d)
        result[stem] = names_entry(model)
        if "built" in entry:
            result[stem]["checkpoint_only"] = {"lm_head.weight": ff.t5_published_head(d)}
    ds = json.loads(DEEPSEEK_V3.read_text())
    prefix = f"model.layers.{ds['num_hidden_layers']}."
    mtp: dict[str, int] = {}
    for module_name, module in mtp_modules(ds).items():
        for name, p in module.named_parameters():
            lead = "" if module_name == "decoder_layer" else module_name + "."
            mtp[prefix + lead + name] = p.numel()
    result["deepseek-v3-mtp"] = {"checkpoint_only": mtp}
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {out}")


# --------------------------------------------------------------------------
# tools/family_formulas.py against the modules
# --------------------------------------------------------------------------


def check_findings(configs: list[tuple[str, dict[str, Any]]]) -> int:
    failures = 0
    for name, d in configs:
        exp = ff.expected(d)
        model = mg.build(d, mg.model_classes(d["model_type"])[0])
        got: dict[tuple[str, int], int] = {}
        outside = 0
        for pname, p in model.named_parameters():
            key = layer_key(pname)
            if key is None:
                outside += p.numel()
            else:
                got[(key[1], key[2])] = got.get((key[1], key[2]), 0) + p.numel()
        bad = [k for k in sorted(set(got) | set(exp["layers"])) if got.get(k) != exp["layers"].get(k)]
        exp_outside = sum(exp["outside"].values())
        if bad or outside != exp_outside or mg.numel(model) != exp["total"]:
            failures += 1
            where = (
                f", first {bad[0]}: built {got.get(bad[0])} formula {exp['layers'].get(bad[0])}"
                if bad
                else ""
            )
            print(
                f"MISMATCH {name}: total built {mg.numel(model):,} formula {exp['total']:,}; outside built "
                f"{outside:,} formula {exp_outside:,}; {len(bad)} layers differ{where}"
            )
    print(f"check-findings: {len(configs) - failures} of {len(configs)} configs match layer by layer")
    return 1 if failures else 0


if __name__ == "__main__":  # pragma: no cover - run through measure_golden.py
    sys.exit(mg.main())
