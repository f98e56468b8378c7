"""Issue-33 goldens: 60+ more model types, vision-language models whole.

Run through ``tools/measure_golden.py``:

    python tools/measure_golden.py --v3                    # tests/golden/families_v3.json
                                                           #   + tests/data/param_names_v3.json
    python tools/measure_golden.py --v3 --random           # tests/golden/random_configs_v3.json
    python tools/measure_golden.py --v3 --check            # re-measure, compare, write nothing
    python tools/measure_golden.py --v3 --random --check

Configs: ``tests/data/hf_configs_v3/*.json`` (provenance in SOURCES.md there, what transformers
builds in QUIRKS.md there).  Every model is built on the meta device from the config dict alone
with the class its ``architectures`` names when transformers has it (an encoder without
``architectures`` is measured bare), else the task's Auto class.

Counting rules (the ones tests/golden/families_v2.json and core/ use):

* ``total``  = sum(p.numel() for p in model.parameters()) — tied tensors once, buffers never.
* ``active`` = total - sum over routed-expert groups of (E - k) * (parameters of one routed expert).
  Routers, shared experts and dense FFNs are always active.  JetMoE's attention experts (MoA)
  are routed experts too.  LongCat-Flash's zero-computation experts have no parameters: its
  ``active`` is the most a token can use (all k picks real experts).
* Where the checkpoint a config describes holds a different set of tensors than the 5.24 module
  (LongCat-Flash's phantom expert rows, a head 5.24 ties against the config), ``total``/``active``
  are the checkpoint's, ``built`` the module's and ``note`` says why — as families_v2.json does
  for T5 v1.1.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import measure_golden as mg
import torch
import transformers
from torch import nn
from transformers import CONFIG_MAPPING

V3_DIR = mg.ROOT / "tests" / "data" / "hf_configs_v3"
FAMILIES_OUT = mg.ROOT / "tests" / "golden" / "families_v3.json"
NAMES_OUT = mg.ROOT / "tests" / "data" / "param_names_v3.json"
RANDOM_OUT = mg.ROOT / "tests" / "golden" / "random_configs_v3.json"
PER_TYPE = 6

# Published model_types that name an in-library architecture under another name.
ALIASES = {"kimi_k2": "deepseek_v3"}

ENCODER_TYPES = (
    "roberta",
    "xlm-roberta",
    "camembert",
    "modernbert",
    "deberta-v2",
    "electra",
    "distilbert",
    "mpnet",
    "ernie",
    "esm",
    "xlm-roberta-xl",
    "megatron-bert",
    "longformer",
)
SEQ2SEQ_TYPES = (
    "m2m_100",
    "marian",
    "mbart",
    "pegasus",
    "umt5",
    "longt5",
    "switch_transformers",
    "t5gemma",
    "led",
)
# Config classes that force tie_word_embeddings = True whatever the file says (UMT5Config, LongT5Config,
# as T5Config and MT5Config do), while the checkpoints of a file saying false keep lm_head.weight.
FORCED_TIE_TYPES = ("umt5", "longt5")

# Where a vision-language model keeps its parts.  A parameter goes to the first part whose
# prefix it starts with; the rest is the language model (embedding, layers, norm, head).
# The patch mergers that Qwen-VL and GLM-4V keep inside the vision module project into the
# language model's width, so they count as the projector; so does Llama-4's pixel-shuffle MLP.
PROJECTOR_PREFIXES = (
    "model.multi_modal_projector.",
    "multi_modal_projector.",
    "model.connector.",
    "model.visual.merger.",
    "model.visual.deepstack_merger_list.",
    "model.visual.downsample.",
    "vision_model.vision_adapter.",
    "model.image_newline",
)
VISION_PREFIXES = ("model.vision_tower.", "model.visual.", "model.vision_model.", "vision_model.")

_LAYER_RE = re.compile(r"^(.*?\.(?:layers|layer|blocks|block|h)\.)(\d+)\.(.*)$")
_INDEX_RE = re.compile(r"^(.*?\.)(\d+)\.(.*)$")


# --------------------------------------------------------------------------
# building
# --------------------------------------------------------------------------


def make_config(d: dict[str, Any]) -> transformers.PretrainedConfig:
    clean = {k: v for k, v in d.items() if k not in mg.IGNORED_KEYS}
    clean["model_type"] = ALIASES.get(clean["model_type"], clean["model_type"])
    return CONFIG_MAPPING[clean["model_type"]].from_dict(clean)


def is_vlm(d: dict[str, Any]) -> bool:
    return "vision_config" in d


def model_class(d: dict[str, Any]) -> type[nn.Module]:
    """The class ``architectures`` names when transformers has it, else the task's Auto mapping."""
    named = (d.get("architectures") or [None])[0]
    cls = getattr(transformers, named, None) if named else None
    if cls is not None:
        return cls
    cfg_cls = type(make_config(d))
    model_type = d["model_type"]
    if model_type in ENCODER_TYPES or model_type == "pixtral":
        auto = transformers.AutoModel
    elif model_type in SEQ2SEQ_TYPES:
        auto = transformers.AutoModelForSeq2SeqLM
    elif is_vlm(d):
        auto = transformers.AutoModelForImageTextToText
    else:
        auto = transformers.AutoModelForCausalLM
    return auto._model_mapping[cfg_cls]


def build(d: dict[str, Any], cls: type[nn.Module] | None = None) -> nn.Module:
    cfg = make_config(d)
    with torch.device("meta"):
        return (cls or model_class(d))(cfg)


def bare_class(d: dict[str, Any]) -> type[nn.Module]:
    return transformers.AutoModel._model_mapping[type(make_config(d))]


# --------------------------------------------------------------------------
# routed experts
# --------------------------------------------------------------------------


def _int_attr(owners: list[Any], names: tuple[str, ...]) -> int | None:
    for owner in owners:
        for name in names:
            val = getattr(owner, name, None)
            if isinstance(val, int) and not isinstance(val, bool):
                return val
    return None


def routed_groups(model: nn.Module) -> list[dict[str, Any]]:
    """Every group of routed experts: where, E, k, one expert's parameters, and phantom rows.

    A group is a module holding per-expert weights: an ``experts`` child (fused 3-D tensors,
    DBRX's 2-D (E*f, h) stacks, a ModuleList of experts or Switch's ModuleDict of them) or JetMoE's
    ``input_linear`` / ``output_linear`` parallel experts.  One expert's size is each expert
    tensor's numel / E; rows beyond E in a tensor (LongCat-Flash's gate_up_proj keeps one per
    zero-computation expert) are reported as ``phantom``.
    """
    cfg = model.config.get_text_config() if hasattr(model.config, "get_text_config") else model.config
    groups = []
    for name, mod in model.named_modules():
        experts = getattr(mod, "experts", None)
        if isinstance(experts, nn.Module) and not hasattr(experts, "input_linear"):
            owners = [mod, getattr(mod, "gate", None), getattr(mod, "router", None), experts]
            k = _int_attr(owners, ("top_k", "num_experts_per_tok", "moe_top_k"))
            if k is None and type(getattr(mod, "router", None)).__name__.endswith("Top1Router"):
                k = 1  # SwitchTransformersTop1Router: one expert per token, no attribute says so
            if k is None:
                k = int(getattr(cfg, "num_experts_per_tok", None) or cfg.ffn_config.moe_top_k)
            groups.append({"name": name, "k": k, **_expert_sizes(experts)})
        elif hasattr(mod, "input_linear") and hasattr(mod, "output_linear") and hasattr(mod, "router"):
            # JetMoE: the MLP (JetMoeMoE) and the attention's MoA both route over parallel experts
            n = mod.input_linear.num_experts
            sizes = _expert_sizes(nn.ModuleList([mod.input_linear, mod.output_linear]), n)
            groups.append({"name": name, "k": int(mod.router.top_k), **sizes})
    return groups


def _expert_sizes(experts: nn.Module, n_experts: int | None = None) -> dict[str, Any]:
    if isinstance(experts, nn.ModuleList | nn.ModuleDict) and n_experts is None:
        # a ModuleDict of experts: SwitchTransformersExperts' expert_0 … expert_{E-1}
        each = list(experts.values() if isinstance(experts, nn.ModuleDict) else experts)
        sizes = {mg.numel(e) for e in each}
        assert len(sizes) == 1, "experts of unequal size"
        layout = "ModuleDict" if isinstance(experts, nn.ModuleDict) else "ModuleList"
        return {"E": len(each), "per_expert": sizes.pop(), "phantom": 0, "layout": layout}
    n = n_experts or _int_attr([experts], ("num_routed_experts", "num_experts"))
    per_expert, phantom, layouts = 0, 0, set()
    for p in experts.parameters():
        if p.ndim == 3:
            rows, row_size = p.shape[0], p[0].numel()
            layouts.add("fused 3-D")
        else:  # DBRX: (E * ffn, hidden), one expert a block of rows
            rows, row_size = n, p.numel() // n
            layouts.add("fused 2-D (E*f, h)")
        n = n or rows
        assert rows >= n, f"{rows} rows for {n} experts"
        per_expert += row_size
        phantom += (rows - n) * row_size
    return {"E": n, "per_expert": per_expert, "phantom": phantom, "layout": " + ".join(sorted(layouts))}


def inactive(groups: list[dict[str, Any]]) -> int:
    return sum((g["E"] - g["k"]) * g["per_expert"] + g["phantom"] for g in groups)


def moe_summary(groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Groups with the same (kind, E, k, per_expert) merged, with their layer count."""
    out: dict[tuple, dict[str, Any]] = {}
    for g in groups:
        where = re.sub(r"\.\d+\.", ".*.", g["name"])
        key = (where, g["E"], g["k"], g["per_expert"], g["layout"], g["phantom"])
        entry = out.setdefault(
            key,
            {
                "module": where,
                "layers": 0,
                "E": g["E"],
                "k": g["k"],
                "per_expert": g["per_expert"],
                "layout": g["layout"],
            },
        )
        if g["phantom"]:
            entry["phantom_per_layer"] = g["phantom"]
        entry["layers"] += 1
    return list(out.values())


# --------------------------------------------------------------------------
# parts
# --------------------------------------------------------------------------


def layer_key(name: str) -> tuple[str, str, int] | None:
    """(prefix, stack, index) of a repeated layer's tensor; None outside the layers."""
    m = _LAYER_RE.match(name)
    if not m:
        return None
    stack = "encoder" if "encoder." in m.group(1) else "decoder"
    return m.group(1), stack, int(m.group(2))


def vlm_part(name: str) -> str:
    if name.startswith(PROJECTOR_PREFIXES):
        return "projector"
    if name.startswith(VISION_PREFIXES):
        return "vision_tower"
    return "language_model"


def parts(model: nn.Module, vlm: bool) -> dict[str, int]:
    """VLMs: vision tower / projector / language model; others: outside / encoder / decoder layers."""
    out: dict[str, int] = {}
    for name, p in model.named_parameters():
        if vlm:
            key = vlm_part(name)
        else:
            lk = layer_key(name)
            key = "outside" if lk is None else f"{lk[1]}_layers"
        out[key] = out.get(key, 0) + p.numel()
    return out


def tied(model: nn.Module) -> bool | None:
    """The head is the input embedding, or the decoder's own where the decoder embeds apart
    (T5Gemma: get_input_embeddings is the encoder's, the head is tied to the decoder's)."""
    out = model.get_output_embeddings() if hasattr(model, "get_output_embeddings") else None
    if out is None or getattr(out, "weight", None) is None:
        return None
    tables = [model.get_input_embeddings()]
    decoder = model.get_decoder() if hasattr(model, "get_decoder") else None
    if isinstance(decoder, nn.Module) and hasattr(decoder, "get_input_embeddings"):
        tables.append(decoder.get_input_embeddings())
    return any(out.weight is table.weight for table in tables)


# --------------------------------------------------------------------------
# checkpoint vs module
# --------------------------------------------------------------------------


def checkpoint_delta(d: dict[str, Any], model: nn.Module, groups: list[dict[str, Any]]) -> tuple[int, str]:
    """(checkpoint total - built total, why) where the checkpoint a config describes is not the module."""
    phantom = sum(g["phantom"] for g in groups)
    if phantom:
        return -phantom, (
            "transformers 5.24 LongcatFlashExperts allocates gate_up_proj for n_routed_experts + "
            "zero_expert_num rows but down_proj for n_routed_experts; the zero-computation experts are "
            "identities and the checkpoint holds n_routed_experts of each: published = built - phantom rows"
        )
    if d["model_type"] in FORCED_TIE_TYPES and d.get("tie_word_embeddings") is False and tied(model):
        return model.get_output_embeddings().weight.numel(), (
            f"transformers 5.24 ties lm_head to shared ({type(model.config).__name__} forces "
            "tie_word_embeddings=True); the checkpoint stores lm_head.weight separately (config "
            "tie_word_embeddings: false): published = built + vocab_size * d_model"
        )
    text_says_untied = getattr(make_config(d).get_text_config(), "tie_word_embeddings", None) is False
    if is_vlm(d) and "tie_word_embeddings" not in d and tied(model) and text_says_untied:
        return model.get_output_embeddings().weight.numel(), (
            f"{type(model.config).__name__} defaults tie_word_embeddings to True in transformers 5.24 and "
            "the file has no top-level key, so the module ties lm_head to the embedding; the text_config "
            "says untied (as 4.x read it) and the checkpoints keep lm_head (Mistral-Small-3.1: 24.0B, "
            "InternVL-1B: 0.94B): published = built + vocab_size * hidden_size"
        )
    return 0, ""


# --------------------------------------------------------------------------
# measuring one config
# --------------------------------------------------------------------------


def measure(d: dict[str, Any]) -> tuple[dict[str, Any], nn.Module]:
    model = build(d)
    vlm = is_vlm(d)
    total = mg.numel(model)
    groups = routed_groups(model)
    active = total - inactive(groups)
    entry: dict[str, Any] = {
        "model_type": d["model_type"],
        "model_class": type(model).__name__,
        "total": total,
        "active": active,
        "tied": tied(model),
        "parts": parts(model, vlm),
    }
    if d["model_type"] in ALIASES:
        entry["alias_of"] = ALIASES[d["model_type"]]
    if groups:
        entry["moe"] = moe_summary(groups)
    if vlm:
        entry["text_only"] = _text_only(entry, groups)
    elif d["model_type"] in ENCODER_TYPES and type(model) is not bare_class(d):
        bare = build(d, bare_class(d))
        entry["by_class"] = {
            type(model).__name__: total,
            type(bare).__name__: mg.numel(bare),
        }
    delta, why = checkpoint_delta(d, model, groups)
    if delta:
        entry["built"] = {"total": total, "active": entry["active"], "tied": entry["tied"]}
        entry["total"] = total + delta
        # a head of its own sits outside the layers; LongCat's phantom rows are in its decoder layers
        entry["parts"]["language_model" if vlm else "outside" if delta > 0 else "decoder_layers"] += delta
        if delta > 0:  # the head the module ties is a tensor of its own in the checkpoint
            entry["tied"] = False
            entry["active"] += delta
            if vlm:
                entry["text_only"] = _text_only(entry, groups)
        entry["note"] = why
    if vlm:
        alone = _text_model_alone(d, bool(entry["tied"]))
        if alone is not None:
            entry["text_model_alone"] = alone
    return entry, model


def _text_only(entry: dict[str, Any], groups: list[dict[str, Any]]) -> dict[str, int]:
    lm = entry["parts"]["language_model"]
    return {"total": lm, "active": lm - inactive(groups)}


def _text_model_alone(d: dict[str, Any], tie: bool) -> dict[str, Any] | None:
    """The text_config built alone with its causal-LM class (where transformers maps one), tied as the
    whole model's head is: a check that the language-model part is that model and nothing else."""
    cfg = make_config(d).get_text_config()
    cls = transformers.AutoModelForCausalLM._model_mapping.get(type(cfg), None)
    if cls is None:
        return None
    cfg.tie_word_embeddings = tie
    with torch.device("meta"):
        model = cls(cfg)
    return {"model_class": cls.__name__, "total": mg.numel(model), "tied": tied(model)}


# --------------------------------------------------------------------------
# parameter names and shapes
# --------------------------------------------------------------------------


def _stack_of(name: str) -> tuple[str, int, str] | None:
    m = _INDEX_RE.match(name)
    return (m.group(1), int(m.group(2)), m.group(3)) if m else None


def names_entry(model: nn.Module) -> dict[str, Any]:
    """Parameters and buffers with shapes, outside the repeated layers and per distinct layer structure."""
    outside: dict[str, Any] = {}
    layers: dict[tuple[str, int], list[tuple[str, str, list[int]]]] = {}
    persistent = set(model.state_dict(keep_vars=True))
    for kind, name, shape in _tensors(model, persistent):
        where = _stack_of(name)
        if where is None:
            outside[name] = shape if kind == "param" else {"buffer": kind, "shape": shape}
        else:
            layers.setdefault(where[:2], []).append((kind, where[2], shape))
    structures: dict[tuple, list[int]] = {}
    for (prefix, idx), tensors in sorted(layers.items()):
        structures.setdefault((prefix, tuple((k, n, tuple(s)) for k, n, s in tensors)), []).append(idx)
    entry: dict[str, Any] = {"outside_layers": outside, "layer_structures": []}
    for (prefix, tensors), idxs in structures.items():
        params = {n: list(s) for k, n, s in tensors if k == "param"}
        bufs = {n: {"buffer": k, "shape": list(s)} for k, n, s in tensors if k != "param"}
        item: dict[str, Any] = {"prefix": prefix, "layers": mg._ranges(idxs), "params": params}
        if bufs:
            item["buffers"] = bufs
        entry["layer_structures"].append(item)
    aliases = _aliases(model)
    if aliases:
        entry["tied_aliases"] = aliases
    return entry


def _tensors(model: nn.Module, persistent: set[str]) -> Iterator[tuple[str, str, list[int]]]:
    for name, p in model.named_parameters():
        yield "param", name, list(p.shape)
    for name, b in model.named_buffers():
        yield ("persistent" if name in persistent else "non-persistent"), name, list(b.shape)


def _aliases(model: nn.Module) -> dict[str, str]:
    first: dict[int, str] = {}
    out = {}
    for name, p in model.named_parameters(remove_duplicate=False):
        if id(p) in first:
            out[name] = first[id(p)]
        else:
            first[id(p)] = name
    return out


# --------------------------------------------------------------------------
# the goldens
# --------------------------------------------------------------------------


def _shapes_inline(text: str) -> str:
    """A shape on one line: ``[64, 3072, 2560]`` rather than one number a line."""
    one_line = lambda m: "[" + ", ".join(n.strip() for n in m.group(1).split(",")) + "]"  # noqa: E731
    return re.sub(r"\[\s*(\d+(?:,\s*\d+)*)\s*\]", one_line, text)


def published_configs() -> list[tuple[str, dict[str, Any]]]:
    return [(p.stem, json.loads(p.read_text())) for p in sorted(V3_DIR.glob("*.json"))]


FIELDS = (
    "total/active = the checkpoint's counts (tied tensors once, buffers never); built = the transformers "
    "module where it differs, with note; active = total - sum over routed-expert groups of (E - k) * one "
    "expert; tied = lm_head/decoder weight is the input embedding; parts = outside / encoder_layers / "
    "decoder_layers, or for vision-language models vision_tower / projector / language_model (prefix "
    "rules in tools/measure_v3.py); text_only = the language model part; text_model_alone = text_config "
    "built alone with its causal-LM class, tied as the whole model; moe = routed-expert groups; "
    "by_class = encoder with its head and bare"
)


def write_families(families_out: Path, names_out: Path) -> None:
    families: dict[str, Any] = {
        "_generated_by": {
            **mg.versions("python tools/measure_golden.py --v3"),
            "configs": "tests/data/hf_configs_v3/*.json (provenance: SOURCES.md there)",
            "fields": FIELDS,
        }
    }
    names: dict[str, Any] = {
        "_source": (
            f"parameter and buffer names with shapes of the real transformers {transformers.__version__} "
            "models (meta device), outside the repeated layers and once per distinct layer structure; "
            "buffers say persistent (in the state dict) or non-persistent; tied_aliases = names that are "
            "another parameter; from python tools/measure_golden.py --v3"
        )
    }
    for stem, d in published_configs():
        entry, model = measure(d)
        families[stem] = entry
        names[stem] = names_entry(model)
        print(f"{stem:40s} {entry['model_class']:38s} {entry['total']:>18,d} {entry['active']:>18,d}")
    families_out.write_text(json.dumps(families, indent=2, sort_keys=True) + "\n")
    names_out.write_text(_shapes_inline(json.dumps(names, indent=1)) + "\n")
    print(f"wrote {families_out} and {names_out}")


def random_configs(per_type: int) -> list[tuple[str, dict[str, Any]]]:
    """Valid random configs per model_type; a draw transformers refuses is reported and drawn again."""
    from random_v3 import GENERATORS_V3

    out = []
    for model_type in sorted(GENERATORS_V3):
        r = random.Random(f"{mg.SEED}:v3:{model_type}")
        made = attempts = 0
        while made < per_type:
            attempts += 1
            assert attempts < per_type * 10, f"{model_type}: too many invalid configs"
            d = GENERATORS_V3[model_type](r)
            try:
                build(d)
            except Exception as exc:  # an invalid combination: say so and draw again
                print(f"skip {model_type}: {type(exc).__name__}: {str(exc)[:200]}", file=sys.stderr)
                continue
            out.append((f"{model_type}-{made:02d}", d))
            made += 1
    return out


def write_random(out: Path, per_type: int) -> None:
    entries = []
    for name, d in random_configs(per_type):
        entry, _ = measure(d)
        entries.append({"name": name, "config": d, **entry})
    gen = mg.versions(f"python tools/measure_golden.py --v3 --random --per-type {per_type}")
    gen["seed"] = f"{mg.SEED}:v3"
    entries[0] = {**entries[0], "_generated_by": gen}
    out.write_text(json.dumps(entries, indent=1, sort_keys=True) + "\n")
    print(f"wrote {out} ({len(entries)} entries, {out.stat().st_size:,} bytes)")


# --------------------------------------------------------------------------
# command line
# --------------------------------------------------------------------------


def add_v3_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--v3", action="store_true", help="the issue-33 families (tests/data/hf_configs_v3)")
    ap.add_argument(
        "--check",
        action="store_true",
        help="measure the issue-33 goldens again and compare, writing nothing (with --random: only those)",
    )


Job = tuple[list[Path], Callable[[list[Path]], None]]


def run_v3(args: argparse.Namespace) -> int:
    per_type = args.per_type if args.per_type != mg.PER_TYPE else PER_TYPE
    families: Job = ([args.out or FAMILIES_OUT, NAMES_OUT], lambda paths: write_families(*paths))
    randoms: Job = ([args.out or RANDOM_OUT], lambda paths: write_random(paths[0], per_type))
    if not args.check:
        targets, writer = randoms if args.random else families
        writer(targets)
        return 0
    stale = []
    for targets, writer in [randoms] if args.random else [families, randoms]:
        stale += _stale(targets, writer)
    for t in stale:
        print(f"CHECK FAILED: {t.relative_to(mg.ROOT)} differs from a fresh measurement")
    return 1 if stale else 0


def _stale(targets: list[Path], writer: Callable[[list[Path]], None]) -> list[Path]:
    """The target files that differ from what the writer writes now (written to a scratch folder)."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = [Path(tmp) / t.name for t in targets]
        writer(fresh)
        stale = [
            t
            for t, f in zip(targets, fresh, strict=True)
            if not t.exists() or t.read_bytes() != f.read_bytes()
        ]
    if not stale:
        print(
            "check: "
            + ", ".join(str(t.relative_to(mg.ROOT)) for t in targets)
            + " are what the modules measure"
        )
    return stale
