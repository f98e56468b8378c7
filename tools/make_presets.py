#!/usr/bin/env python3
"""Generate the built-in presets (presets/<id>.json) from the published configs in tests/data/hf_configs
(and hf_configs_v2, hf_configs_v3).

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

# Presets from tests/data/hf_configs_v3 (issue 33's families; provenance in its SOURCES.md): id -> stem.
V3_FILES: dict[str, str] = {
    # the dense decoders, one model of each family
    "glm-4-9b": "glm-4-9b-0414",
    "olmo-2-7b": "olmo-2-1124-7b",
    "stablelm-2-1.6b": "stablelm-2-1_6b",
    "gpt-j-6b": "gpt-j-6b",
    "starcoder": "starcoder",
    "starcoder2-3b": "starcoder2-3b",
    "nemotron-mini-4b": "nemotron-mini-4b-instruct",
    "exaone-4.0-32b": "exaone-4.0-32b",
    "smollm3-3b": "smollm3-3b",
    "ernie-4.5-0.3b": "ernie-4.5-0.3b-pt",
    "seed-oss-36b": "seed-oss-36b-instruct",
    "apertus-8b": "apertus-8b-2509",
    "afm-4.5b": "afm-4.5b",
    "helium-1-2b": "helium-1-preview-2b",
    "command-r-plus": "c4ai-command-r-plus",
    "granite-3.1-8b": "granite-3.1-8b-instruct",
    "bitnet-b1.58-2b": "bitnet-b1.58-2b-4t",
    "hunyuan-7b": "hunyuan-7b-instruct",
    # the encoders and encoder-decoders, one model of each family
    "roberta-base": "roberta-base",
    "electra-base-discriminator": "electra-base-discriminator",
    "distilbert-base-uncased": "distilbert-base-uncased",
    "modernbert-base": "modernbert-base",
    "deberta-v3-base": "deberta-v3-base",
    "nllb-200-distilled-600m": "nllb-200-distilled-600m",
    "opus-mt-en-de": "opus-mt-en-de",
    "mbart-large-50": "mbart-large-50",
    "pegasus-large": "pegasus-large",
    # the recurrent and hybrid families, one model of each
    "lfm2-1.2b": "lfm2-1.2b",
    "lfm2-8b-a1b": "lfm2-8b-a1b",
    "recurrentgemma-2b": "recurrentgemma-2b",
    "falcon-mamba-7b": "falcon-mamba-7b",
    "nemotron-nano-9b-v2": "nvidia-nemotron-nano-9b-v2",
    "zamba-7b": "zamba-7b-v1",
    "zamba2-2.7b": "zamba2-2.7b",
    # the MoE decoders, one model of each family
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
    "jetmoe-8b": "jetmoe-8b",
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
    "glm-4-9b": ("GLM-4-9B-0414", "THUDM/GLM-4-9B-0414", "Four RMSNorms a layer."),
    "olmo-2-7b": ("OLMo-2-7B", "allenai/OLMo-2-1124-7B", "Post-norms; q/k norms over the whole projection."),
    "stablelm-2-1.6b": ("StableLM-2-1.6B", "stabilityai/stablelm-2-1_6b", ""),
    "gpt-j-6b": ("GPT-J-6B", "EleutherAI/gpt-j-6b", "The LM head has a bias."),
    "starcoder": ("StarCoder", "bigcode/starcoder", "Multi-query attention; tied by the class default."),
    "starcoder2-3b": ("StarCoder2-3B", "bigcode/starcoder2-3b", ""),
    "nemotron-mini-4b": ("Nemotron-Mini-4B", "nvidia/Nemotron-Mini-4B-Instruct", ""),
    "exaone-4.0-32b": ("EXAONE-4.0-32B", "LGAI-EXAONE/EXAONE-4.0-32B", "Three sliding layers to one global."),
    "smollm3-3b": ("SmolLM3-3B", "HuggingFaceTB/SmolLM3-3B", "Every fourth layer without RoPE."),
    "ernie-4.5-0.3b": ("ERNIE-4.5-0.3B", "baidu/ERNIE-4.5-0.3B-PT", ""),
    "seed-oss-36b": ("Seed-OSS-36B", "ByteDance-Seed/Seed-OSS-36B-Instruct", ""),
    "apertus-8b": ("Apertus-8B", "swiss-ai/Apertus-8B-2509", "xIELU learns two scalars a layer."),
    "afm-4.5b": ("AFM-4.5B", "arcee-ai/AFM-4.5B", ""),
    "helium-1-2b": ("Helium-1-2B (preview)", "kyutai/helium-1-preview-2b", ""),
    "command-r-plus": ("Command R+", "CohereForAI/c4ai-command-r-plus", "Tied by the class default."),
    "granite-3.1-8b": ("Granite-3.1-8B", "ibm-granite/granite-3.1-8b-instruct", ""),
    "bitnet-b1.58-2b": (
        "BitNet b1.58 2B4T",
        "microsoft/bitnet-b1.58-2B-4T",
        "Counted at the unpacked shapes transformers builds.",
    ),
    "hunyuan-7b": ("Hunyuan-7B", "tencent/Hunyuan-7B-Instruct", ""),
    "bert-base-uncased": (
        "BERT-base (uncased)",
        "google-bert/bert-base-uncased",
        "With its masked-LM head, tied to the word embeddings.",
    ),
    "roberta-base": ("RoBERTa-base", "FacebookAI/roberta-base", "Positions offset past the padding token."),
    "electra-base-discriminator": (
        "ELECTRA-base discriminator",
        "google/electra-base-discriminator",
        "The replaced-token discriminator head.",
    ),
    "distilbert-base-uncased": ("DistilBERT-base (uncased)", "distilbert/distilbert-base-uncased", ""),
    "modernbert-base": (
        "ModernBERT-base",
        "answerdotai/ModernBERT-base",
        "No biases; global attention every third layer, a 128-token window between.",
    ),
    "deberta-v3-base": (
        "DeBERTa-v3-base",
        "microsoft/deberta-v3-base",
        "The bare encoder (the file names no head): disentangled attention over one shared relative table.",
    ),
    "nllb-200-distilled-600m": (
        "NLLB-200-distilled-600M",
        "facebook/nllb-200-distilled-600M",
        "An M2M-100 model: sinusoidal positions are buffers, not parameters.",
    ),
    "opus-mt-en-de": (
        "OPUS-MT en-de (Marian)",
        "Helsinki-NLP/opus-mt-en-de",
        "Sinusoidal positions kept as parameters.",
    ),
    "mbart-large-50": ("mBART-large-50", "facebook/mbart-large-50", ""),
    "pegasus-large": ("Pegasus-large", "google/pegasus-large", "Sinusoidal positions kept as parameters."),
    "lfm2-1.2b": (
        "LFM2-1.2B",
        "LiquidAI/LFM2-1.2B",
        "Gated short-convolution layers with attention at 6 of 16; block_ff_dim 12,288 auto-adjusted "
        "to 8,192.",
    ),
    "lfm2-8b-a1b": (
        "LFM2-8B-A1B",
        "LiquidAI/LFM2-8B-A1B",
        "Two dense layers, then 32 experts of which 4 per token; its attention-layer indices as "
        "recalled (tests/data/hf_configs_v3/SOURCES.md).",
    ),
    "recurrentgemma-2b": (
        "RecurrentGemma-2B",
        "google/recurrentgemma-2b",
        "Griffin: two RG-LRU recurrent blocks to one local attention block (2,048 tokens).",
    ),
    "falcon-mamba-7b": ("Falcon-Mamba-7B", "tiiuae/falcon-mamba-7b", "Mamba-1 layers; untied."),
    "nemotron-nano-9b-v2": (
        "Nemotron-Nano-9B-v2",
        "nvidia/NVIDIA-Nemotron-Nano-9B-v2",
        "27 Mamba-2, 25 relu² MLP and 4 attention layers, by hybrid_override_pattern.",
    ),
    "zamba-7b": (
        "Zamba-7B",
        "Zyphra/Zamba-7B-v1",
        "Mamba layers and one shared transformer block used by 13 hybrid layers, counted once.",
    ),
    "zamba2-2.7b": (
        "Zamba2-2.7B",
        "Zyphra/Zamba2-2.7B",
        "Mamba-2 layers and two shared transformer blocks used in turn by 9 hybrid layers, each use "
        "with its own adapters; n_mamba_heads 80 inferred (tests/data/hf_configs_v3/SOURCES.md).",
    ),
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
        "The router's correction bias is a parameter here (64 per MoE layer), frozen: it never trains.",
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
    "jetmoe-8b": (
        "JetMoE-8B",
        "jetmoe/jetmoe-8b",
        "Experts in both sublayers: 8 attention experts (routed q and o over one shared k, v) and 8 MLP "
        "experts, 2 of each per token.",
    ),
}


def config_path(preset_id: str) -> Path:
    if preset_id in V3_FILES:
        return CONFIG_DIR_V3 / f"{V3_FILES[preset_id]}.json"
    if preset_id in V2_FILES:
        return CONFIG_DIR_V2 / f"{V2_FILES[preset_id]}.json"
    if preset_id in V3_FILES:
        return CONFIG_DIR_V3 / f"{V3_FILES[preset_id]}.json"
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
    if preset_id in V3_FILES:  # written from the published hyperparameters (hf_configs_v3/SOURCES.md)
        description = (
            f"Hugging Face config.json of {source} as recalled from its published hyperparameters, not "
            "copied, imported with the transformers class defaults for keys the file leaves out; counts "
            f"equal the real model's numel. {remark}"
        ).strip()
    elif "Brown" in source:
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
    ids = sorted([path.stem for path in CONFIG_DIR.glob("*.json")] + list(V2_FILES) + list(V3_FILES))
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
