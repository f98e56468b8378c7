#!/usr/bin/env python3
"""Generate the built-in presets (presets/<id>.json) from the published configs in tests/data/hf_configs.

Every preset goes through the same importer a user's config.json does, so a preset and its
config.json always count the same. Files hold only non-default fields (plus schema_version),
indented for reading in a diff. The tool checks each total against tests/golden/presets.json
and exits non-zero (writing nothing) when one disagrees.

    python tools/make_presets.py            # write presets/*.json
    python tools/make_presets.py --check    # compare only; exit 1 if a file would change
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

from paramtally.core.count.parameters import count_parameters  # noqa: E402
from paramtally.core.io.atomic import write_text_atomic  # noqa: E402
from paramtally.core.io.importers.hf_config import import_hf_config  # noqa: E402
from paramtally.core.schema import SCHEMA_VERSION, Architecture  # noqa: E402

CONFIG_DIR = ROOT / "tests" / "data" / "hf_configs"
CONFIG_DIR_V2 = ROOT / "tests" / "data" / "hf_configs_v2"
CONFIG_DIR_V3 = ROOT / "tests" / "data" / "hf_configs_v3"
PRESET_DIR = ROOT / "presets"
GOLDEN = ROOT / "tests" / "golden" / "presets.json"
GOLDEN_V2 = ROOT / "tests" / "golden" / "families_v2.json"
GOLDEN_V3 = ROOT / "tests" / "golden" / "families_v3.json"
SKIP = {"bert-base-uncased"}  # an encoder: importable, but not a built-in preset
DEFAULTS = (
    "the transformers 5.24 {cls} defaults ({why}); not a published config.json, so read it as that "
    "class's model"
)

# Presets from tests/data/hf_configs_v2 (provenance of each file in its SOURCES.md): id -> file stem.
V2_FILES: dict[str, str] = {
    "t5-base": "t5-base",
    "flan-t5-base": "flan-t5-base",
    "mt5-base": "mt5-base",
    "bart-base": "bart-base",
    "bart-large": "synthetic-bart-large-defaults",
    "whisper-small": "whisper-small",
    "whisper-large-v3": "whisper-large-v3",
    "mamba-130m": "mamba-130m-hf",
    "mamba-2.8b": "mamba-2.8b-hf",
    "mamba2-7b": "synthetic-mamba2-codestral-defaults",
    "jamba-v0.1": "jamba-v0.1",
    "bamba-9b": "synthetic-bamba-defaults-attn-9-18-27",
    "granite-4.0-h-style": "synthetic-granitemoehybrid-defaults-attn-every-8",
    "falcon-h1-style": "synthetic-falcon-h1-defaults",
    "qwen3-next-80b-a3b": "qwen3-next-80b-a3b-instruct",
    "gemma-3-1b": "gemma-3-1b",
    "llama-4-scout": "synthetic-llama4-scout-text-defaults",
    "gpt-oss-20b": "gpt-oss-20b",
    "gpt-oss-120b": "synthetic-gpt-oss-120b-defaults",
    "command-r7b": "c4ai-command-r7b-12-2024",
}

# Presets from tests/data/hf_configs_v3 (issue 33's model types; provenance in its SOURCES.md):
# id -> file stem. Their golden counts are in tests/golden/families_v3.json.
V3_FILES: dict[str, str] = {
    "olmoe-1b-7b": "olmoe-1b-7b-0924",
    "granite-3.1-3b-a800m": "granite-3.1-3b-a800m-instruct",
    "phi-3.5-moe": "phi-3.5-moe-instruct",
    "dbrx": "dbrx-instruct",
    "ernie-4.5-21b-a3b": "ernie-4.5-21b-a3b-pt",
    "hunyuan-a13b": "hunyuan-a13b-instruct",
    "minimax-m2": "minimax-m2",
    "dots-llm1": "dots.llm1.inst",
    "deepseek-v3.2-exp": "deepseek-v3.2-exp",
    "longcat-flash": "longcat-flash-chat",
}

# id -> (display name, where the config comes from, extra remark or "")
SOURCES: dict[str, tuple[str, str, str]] = {
    "gpt2": ("GPT-2", "openai-community/gpt2", ""),
    "gpt2-medium": ("GPT-2 Medium", "openai-community/gpt2-medium", ""),
    "gpt2-large": ("GPT-2 Large", "openai-community/gpt2-large", ""),
    "gpt2-xl": ("GPT-2 XL", "openai-community/gpt2-xl", ""),
    "gpt3-175b": (
        "GPT-3 175B",
        "Brown et al. 2020, table 2.1, written as a GPT-2 config",
        "The reference worked example: learned positions, LayerNorm with γ and β, biases, LM head not tied.",
    ),
    "opt-125m": ("OPT-125M", "facebook/opt-125m", ""),
    "opt-350m": (
        "OPT-350M",
        "facebook/opt-350m",
        "Post-LN without a final norm; 512-wide embeddings projected to 1024.",
    ),
    "opt-1.3b": ("OPT-1.3B", "facebook/opt-1.3b", ""),
    "llama-2-7b": ("Llama-2-7B", "meta-llama/Llama-2-7b-hf", ""),
    "llama-2-13b": ("Llama-2-13B", "meta-llama/Llama-2-13b-hf", ""),
    "llama-2-70b": ("Llama-2-70B", "meta-llama/Llama-2-70b-hf", ""),
    "llama-3-8b": ("Llama-3-8B", "meta-llama/Meta-Llama-3-8B", ""),
    "llama-3-70b": ("Llama-3-70B", "meta-llama/Meta-Llama-3-70B", ""),
    "llama-3.1-405b": ("Llama-3.1-405B", "meta-llama/Llama-3.1-405B", ""),
    "llama-3.2-1b": ("Llama-3.2-1B", "meta-llama/Llama-3.2-1B", "LM head tied to the embedding."),
    "mistral-7b-v0.1": ("Mistral-7B-v0.1", "mistralai/Mistral-7B-v0.1", ""),
    "mixtral-8x7b": ("Mixtral-8x7B", "mistralai/Mixtral-8x7B-v0.1", ""),
    "qwen2-0.5b": ("Qwen2-0.5B", "Qwen/Qwen2-0.5B", "LM head tied to the embedding."),
    "qwen2-7b": ("Qwen2-7B", "Qwen/Qwen2-7B", ""),
    "qwen2.5-7b": ("Qwen2.5-7B", "Qwen/Qwen2.5-7B", ""),
    "qwen3-8b": ("Qwen3-8B", "Qwen/Qwen3-8B", ""),
    "qwen1.5-moe-a2.7b": ("Qwen1.5-MoE-A2.7B", "Qwen/Qwen1.5-MoE-A2.7B", ""),
    "qwen3-30b-a3b": ("Qwen3-30B-A3B", "Qwen/Qwen3-30B-A3B", ""),
    "deepseek-v2-lite": ("DeepSeek-V2-Lite", "deepseek-ai/DeepSeek-V2-Lite", ""),
    "deepseek-v3": (
        "DeepSeek-V3",
        "deepseek-ai/DeepSeek-V3",
        "The 61 main layers as transformers builds them (671B); the multi-token-prediction module "
        "(num_nextn_predict_layers) of the published 685B checkpoint is counted apart, as MTP.",
    ),
    "gemma-2b": ("Gemma-2B", "google/gemma-2b", ""),
    "gemma-7b": ("Gemma-7B", "google/gemma-7b", ""),
    "gemma-2-9b": ("Gemma-2-9B", "google/gemma-2-9b", ""),
    "phi-2": ("Phi-2", "microsoft/phi-2", ""),
    "phi-3-mini-4k": ("Phi-3-mini-4k", "microsoft/Phi-3-mini-4k-instruct", ""),
    "falcon-7b": ("Falcon-7B", "tiiuae/falcon-7b", "multi_query: one KV head."),
    "bloom-560m": ("BLOOM-560M", "bigscience/bloom-560m", ""),
    "gpt-neox-20b": ("GPT-NeoX-20B", "EleutherAI/gpt-neox-20b", ""),
    "pythia-1b": ("Pythia-1B", "EleutherAI/pythia-1b", ""),
    "t5-base": ("T5-Base", "t5-base", "Encoder-decoder; the head is tied to the shared embedding."),
    "flan-t5-base": (
        "Flan-T5-Base",
        "google/flan-t5-base",
        "Its checkpoint keeps a separate lm_head, counted as published (transformers 5 ties it).",
    ),
    "mt5-base": ("mT5-Base", "google/mt5-base (reconstructed from its published sizes)", ""),
    "bart-base": ("BART-Base", "facebook/bart-base", ""),
    "bart-large": ("BART-Large", DEFAULTS.format(cls="BartConfig", why="facebook/bart-large's sizes"), ""),
    "whisper-small": (
        "Whisper-small",
        "openai/whisper-small",
        "The convolutional front-end is its own part.",
    ),
    "whisper-large-v3": ("Whisper-large-v3", "openai/whisper-large-v3", ""),
    "mamba-130m": ("Mamba-130M", "state-spaces/mamba-130m-hf", ""),
    "mamba-2.8b": ("Mamba-2.8B", "state-spaces/mamba-2.8b-hf", ""),
    "mamba2-7b": (
        "Mamba-2 7B",
        DEFAULTS.format(cls="Mamba2Config", why="the sizes of Mamba-Codestral-7B"),
        "",
    ),
    "jamba-v0.1": ("Jamba-v0.1", "ai21labs/Jamba-v0.1", "Attention every 8th layer, MoE every 2nd."),
    "bamba-9b": (
        "Bamba-9B",
        DEFAULTS.format(cls="BambaConfig", why="with attention at layers 9, 18, 27"),
        "",
    ),
    "granite-4.0-h-style": (
        "Granite-4.0-H style",
        DEFAULTS.format(cls="GraniteMoeHybridConfig", why="with attention every 8th layer"),
        "",
    ),
    "falcon-h1-style": (
        "Falcon-H1 style",
        DEFAULTS.format(cls="FalconH1Config", why="Mamba-2 beside attention"),
        "",
    ),
    "qwen3-next-80b-a3b": ("Qwen3-Next-80B-A3B", "Qwen/Qwen3-Next-80B-A3B-Instruct", ""),
    "gemma-3-1b": ("Gemma-3-1B", "google/gemma-3-1b-pt", "Five sliding-window layers to one global."),
    "llama-4-scout": (
        "Llama-4-Scout (text)",
        DEFAULTS.format(cls="Llama4TextConfig", why="whose docstring names Llama-4-Scout-17B-16E"),
        "",
    ),
    "gpt-oss-20b": ("GPT-OSS-20B", "openai/gpt-oss-20b", ""),
    "gpt-oss-120b": (
        "GPT-OSS-120B",
        DEFAULTS.format(cls="GptOssConfig", why="116.8B and 5.1B active, as published for gpt-oss-120b"),
        "",
    ),
    "command-r7b": ("Command R7B", "CohereForAI/c4ai-command-r7b-12-2024", ""),
    "olmoe-1b-7b": ("OLMoE-1B-7B", "allenai/OLMoE-1B-7B-0924", "64 experts, 8 per token."),
    "granite-3.1-3b-a800m": (
        "Granite-3.1-3B-A800M",
        "ibm-granite/granite-3.1-3b-a800m-instruct",
        "LM head tied; Granite's multipliers scale activations and hold no parameters.",
    ),
    "phi-3.5-moe": (
        "Phi-3.5-MoE",
        "microsoft/Phi-3.5-MoE-instruct",
        "LayerNorms and the LM head with biases.",
    ),
    "dbrx": ("DBRX", "databricks/dbrx-instruct", "16 experts, 4 per token; LayerNorms without bias."),
    "ernie-4.5-21b-a3b": (
        "ERNIE-4.5-21B-A3B",
        "baidu/ERNIE-4.5-21B-A3B-PT",
        "The router's correction bias is a parameter here (64 per MoE layer).",
    ),
    "hunyuan-a13b": ("Hunyuan-A13B", "tencent/Hunyuan-A13B-Instruct", "A shared MLP beside 64 experts."),
    "minimax-m2": (
        "MiniMax-M2",
        "MiniMaxAI/MiniMax-M2",
        "The checkpoint's 3 MTP modules are not built by transformers and not counted.",
    ),
    "dots-llm1": ("dots.llm1", "rednote-hilab/dots.llm1.inst", ""),
    "deepseek-v3.2-exp": (
        "DeepSeek-V3.2-Exp",
        "deepseek-ai/DeepSeek-V3.2-Exp (tests/data/hf_configs_v3/SOURCES.md: DeepSeek-V3's file with the "
        "V3.2 indexer keys)",
        "A lightning indexer in every layer; the MTP module is counted apart.",
    ),
    "longcat-flash": (
        "LongCat-Flash",
        "meituan-longcat/LongCat-Flash-Chat",
        "28 blocks of two MLA sub-layers, the shortcut MoE on the first (its dense MLP shown as the "
        "shared expert); 256 zero-computation experts in the router; active is the most, every pick real.",
    ),
}


def config_path(preset_id: str) -> Path:
    if preset_id in V3_FILES:
        return CONFIG_DIR_V3 / f"{V3_FILES[preset_id]}.json"
    if preset_id in V2_FILES:
        return CONFIG_DIR_V2 / f"{V2_FILES[preset_id]}.json"
    return CONFIG_DIR / f"{preset_id}.json"


def build(preset_id: str) -> Architecture:
    path = config_path(preset_id)
    data = json.loads(path.read_text(encoding="utf-8"))
    arch = import_hf_config(data, origin=path.name)
    name, source, remark = SOURCES[preset_id]
    description = (
        f"Hugging Face config.json of {source}, imported with the transformers class defaults "
        f"for keys the file leaves out; counts equal the real model's numel."
    )
    if "Brown" in source:
        description = f"{source}. {remark}"
    elif "defaults" in source:
        description = f"From {source}; counts equal that module's numel. {remark}".strip()
    elif remark:
        description = f"{description} {remark}"
    return arch.model_copy(update={"name": name, "description": description})


def _keep_kinds(full: Any, trimmed: Any) -> Any:
    """``trimmed`` with every ``kind`` of ``full`` put back: a discriminator is never a default."""
    if isinstance(full, dict) and isinstance(trimmed, dict):
        kept = {key: _keep_kinds(full[key], value) for key, value in trimmed.items()}
        return {"kind": full["kind"], **kept} if "kind" in full else kept
    if isinstance(full, list) and isinstance(trimmed, list) and len(full) == len(trimmed):
        return [_keep_kinds(a, b) for a, b in zip(full, trimmed, strict=True)]
    return trimmed


def preset_text(arch: Architecture) -> str:
    body = _keep_kinds(arch.model_dump(mode="json"), arch.model_dump(mode="json", exclude_defaults=True))
    ordered: dict[str, Any] = {"schema_version": SCHEMA_VERSION}
    for key in ("name", "description", "family"):
        if key in body:
            ordered[key] = body.pop(key)
    ordered.update(body)
    return json.dumps(ordered, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file would change")
    args = parser.parse_args(argv)
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    families = json.loads(GOLDEN_V2.read_text(encoding="utf-8"))
    golden |= {preset_id: families[stem] for preset_id, stem in V2_FILES.items()}
    families_v3 = json.loads(GOLDEN_V3.read_text(encoding="utf-8"))
    golden |= {preset_id: families_v3[stem] for preset_id, stem in V3_FILES.items()}
    ids = sorted(
        [path.stem for path in CONFIG_DIR.glob("*.json") if path.stem not in SKIP]
        + list(V2_FILES)
        + list(V3_FILES)
    )
    unknown = set(ids) - SOURCES.keys()
    if unknown:
        print(f"no display name for {sorted(unknown)}: add them to SOURCES", file=sys.stderr)
        return 1
    texts: dict[str, str] = {}
    for preset_id in ids:
        arch = build(preset_id)
        report = count_parameters(arch)
        expected = golden.get(preset_id)
        if expected and (report.total, report.active) != (expected["total"], expected["active"]):
            print(
                f"{preset_id}: {report.total:,}/{report.active:,} differs from the golden "
                f"{expected['total']:,}/{expected['active']:,}; nothing written",
                file=sys.stderr,
            )
            return 1
        texts[preset_id] = preset_text(arch)
        print(f"{preset_id:20s} {report.total:>18,} {report.active:>18,}")
    changed = [i for i, text in texts.items() if _current(i) != text]
    if args.check:
        print(f"{len(changed)} preset file(s) would change: {', '.join(changed) or 'none'}")
        return 1 if changed else 0
    for preset_id in changed:
        write_text_atomic(PRESET_DIR / f"{preset_id}.json", texts[preset_id])
    print(f"wrote {len(changed)} of {len(texts)} presets to {PRESET_DIR}")
    return 0


def _current(preset_id: str) -> str | None:
    path = PRESET_DIR / f"{preset_id}.json"
    return path.read_text(encoding="utf-8") if path.is_file() else None


if __name__ == "__main__":
    raise SystemExit(main())
