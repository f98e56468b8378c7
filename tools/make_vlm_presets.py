#!/usr/bin/env python3
"""Write the vision-language presets (presets/<id>.json), built by hand from published configs.

Each preset here is written by hand from its config.json in tests/data/hf_configs_v3 and from
what transformers 5.24 builds for it (tests/data/hf_configs_v3/QUIRKS.md, the shapes in
tests/data/param_names_v3.json); the importers read the same files, held to the same goldens by
tests/core/test_vlm_import.py. The tool
checks every preset against tests/golden/families_v3.json — total, vision tower, projector and
language model — and writes nothing when one disagrees.

    python tools/make_vlm_presets.py            # write presets/*.json
    python tools/make_vlm_presets.py --check    # compare only; exit 1 if a file would change
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
from paramtally.core.schema import Architecture  # noqa: E402

GOLDEN = ROOT / "tests" / "golden" / "families_v3.json"
PRESET_DIR = ROOT / "presets"
SOURCE = (
    "Built by hand from the Hugging Face config.json of {repo} and the modules transformers 5.24 builds "
    "for it ({cls}); counts equal the real model's numel, split into vision tower, projector and "
    "language model as tests/golden/families_v3.json measures them. "
)
Data = dict[str, Any]


def attention(heads: int, kv: int | None = None, head_dim: int | None = None, **extra: Any) -> Data:
    mixer: Data = {"kind": "attention", "num_heads": heads}
    if kv is not None and kv != heads:
        mixer["num_kv_heads"] = kv
    if head_dim is not None:
        mixer["head_dim"] = head_dim
    return {**mixer, **extra}


BIASED = {"q_bias": True, "k_bias": True, "v_bias": True, "o_bias": True}


def dense(width: int, **extra: Any) -> Data:
    return {"kind": "dense", "width": width, **extra}


def vit_block(
    heads: int,
    width: int,
    act: str,
    *,
    biased: bool = True,
    gated: bool = False,
    mlp_bias: bool = True,
    norm: str = "layernorm",
    **norms: Any,
) -> Data:
    """A ViT layer: attention (biases on q, k, v and o unless ``biased`` is off), an MLP, two norms."""
    ffn = dense(width, gated=gated, bias=mlp_bias, activation=act)
    return {
        "mixer": attention(heads, **(BIASED if biased else {})),
        "ffn": ffn,
        "norms": {"kind": norm, **norms},
    }


def tower(layers: int | list[Data], width: int, image: int, patch: int, **extra: Any) -> Data:
    groups = [{"count": layers}] if isinstance(layers, int) else layers
    patches = {"patch_size": patch, **extra.pop("patches", {})}
    return {
        "block": "vision",
        "layers": groups,
        "width": width,
        "image_size": image,
        "patches": patches,
        **extra,
    }


def siglip(image: int, layers: int = 27, post: bool = True) -> tuple[Data, Data]:
    """SigLIP's tower (SiglipVisionModel, Idefics3's and SmolVLM's copies): biased conv patches, a
    learned table of (image/p)² rows, LayerNorm blocks with biases everywhere, a post-norm."""
    block = vit_block(16, 4304, "gelu_pytorch_tanh")
    side = image // 14
    stack = tower(layers, 1152, image, 14, patches={"bias": True}, max_positions=side * side, final_norm=post)
    return block, stack


def clip(image: int = 336) -> tuple[Data, Data]:
    """CLIP ViT-L/14 (CLIPVisionModel): bias-free conv patches, a class token and its position,
    pre- and post-norm, quick-GELU MLPs; every layer built, though LLaVA reads the second-last."""
    side = image // 14
    block = vit_block(16, 4096, "quick_gelu")
    stack = tower(
        24,
        1024,
        image,
        14,
        patches={"class_token": True},
        max_positions=side * side,
        position_offset=1,
        embedding_norm=True,
    )
    return block, stack


def pixtral(image: int, patch: int) -> tuple[Data, Data]:
    """Pixtral's tower: bias-free conv patches, an RMSNorm pre-norm, 2-D rotary positions, RMSNorm
    blocks with gated bias-free MLPs, no post-norm."""
    block = vit_block(16, 4096, "silu", biased=False, gated=True, mlp_bias=False, norm="rmsnorm")
    block["mixer"]["head_dim"] = 64
    stack = tower(24, 1024, image, patch, positions="rope", embedding_norm=True, final_norm=False)
    return block, stack


def llama(
    h: int, layers: int, heads: int, kv: int, ffn: int, vocab: int, positions: int, **mixer: Any
) -> Data:
    return {
        "hidden_size": h,
        "embeddings": {"vocab_size": vocab},
        "blocks": {"default": {"mixer": attention(heads, kv, **mixer), "ffn": dense(ffn)}},
        "decoder": {"layers": [{"count": layers}], "max_positions": positions},
    }


def gemma3_text(h: int, layers: int, heads: int, kv: int, head_dim: int, ffn: int) -> Data:
    """Gemma-3's text model: five sliding-window layers (1,024) to one global, q/k norms, four
    norms a layer, tied."""
    sliding = attention(heads, kv, head_dim, qk_norm=True, sliding_window=1024)
    repeats, rest = divmod(layers, 6)
    groups: list[Data] = [
        {
            "count": repeats,
            "pattern": [{"count": 5}, {"count": 1, "override": {"mixer": {"sliding_window": None}}}],
        }
    ]
    if rest:
        groups.append({"count": rest})
    return {
        "hidden_size": h,
        "embeddings": {"vocab_size": 262208},
        "blocks": {
            "default": {
                "mixer": sliding,
                "ffn": dense(ffn, activation="gelu_pytorch_tanh"),
                "norms": {"kind": "rmsnorm", "count": 4},
            }
        },
        "decoder": {"layers": groups, "max_positions": 131072},
        "head": {"tied": True},
    }


def linear(width: int | None = None, bias: bool = True) -> Data:
    step: Data = {"kind": "linear"}
    if width is not None:
        step["width"] = width
    return step if bias else {**step, "bias": False}


def norm(kind: str = "layernorm") -> Data:
    return {"kind": "norm", "norm": kind}


def merge(factor: int = 2, concat: bool = True) -> Data:
    return {"kind": "merge", "factor": factor} | ({} if concat else {"concat": False})


def vlm(
    name: str,
    family: str,
    repo: str,
    cls: str,
    note: str,
    text: Data,
    vision: tuple[Data, Data],
    projector: Data,
) -> Data:
    block, stack = vision
    return {
        "schema_version": 2,
        "name": name,
        "description": SOURCE.format(repo=repo, cls=cls) + note,
        "family": family,
        **{key: value for key, value in text.items() if key != "blocks"},
        "blocks": {**text["blocks"], "vision": block},
        "vision": stack,
        "projector": projector,
    }


def qwen_tower(layers: int, width: int, patch: int, **extra: Any) -> Data:
    return tower(
        layers, width, 448, patch, patches={"temporal_patch": 2, **extra.pop("patches", {})}, **extra
    )


def presets() -> dict[str, tuple[str, Data]]:
    """Preset id → (its golden's name in families_v3.json, the preset)."""
    qwen2_lm = llama(3584, 28, 28, 4, 18944, 152064, 32768, q_bias=True, k_bias=True, v_bias=True)
    qwen25_lm = {**qwen2_lm, "decoder": {"layers": [{"count": 28}], "max_positions": 128000}}
    qwen3_lm = llama(4096, 36, 32, 8, 12288, 151936, 262144, head_dim=128, qk_norm=True)
    qwen3_moe = llama(2048, 48, 32, 4, 6144, 151936, 262144, head_dim=128, qk_norm=True)
    qwen3_moe["blocks"]["default"]["ffn"] = {
        "kind": "moe",
        "num_experts": 128,
        "top_k": 8,
        "expert_width": 768,
    }
    qwen3_merger = [norm(), merge(), linear(4608), linear()]
    deepstack = [{"count": 3, "steps": [merge(), norm(), linear(4608), linear()]}]
    qwen3_vision = (
        vit_block(16, 4304, "gelu_pytorch_tanh"),
        qwen_tower(27, 1152, 16, patches={"bias": True}, max_positions=2304, final_norm=False),
    )
    qwen_note = "Image tokens follow the image's pixels (dynamic resolution): 448² gives 256."
    gemma_note = (
        "Vision: SigLIP at 896² (64² patches); projector: 4×4 average pooling to 256 tokens, the "
        "soft-embedding RMSNorm and a bias-free projection (a bare parameter)."
    )
    mistral_h = {"head_dim": 128}
    mllama_text = llama(4096, 40, 32, 8, 14336, 128256, 131072)
    mllama_text["embeddings"]["extra_rows"] = 8
    mllama_text["blocks"]["cross"] = {
        "mixer": {"kind": "no_mixer"},
        "cross_attention": attention(32, 8, qk_norm=True),
        "ffn": dense(14336),
        "norms": {"count": 2, "gates": 2},
    }
    cross = {"count": 1, "block": "cross"}
    mllama_text["decoder"]["layers"] = [
        {"count": 3},
        {"count": 7, "pattern": [cross, {"count": 4}]},
        cross,
        {"count": 1},
    ]
    mllama_block = vit_block(16, 5120, "gelu", biased=False)
    mllama_stack = tower(
        [{"count": 32}, {"count": 8, "override": {"norms": {"gates": 2}}}],
        1280,
        560,
        14,
        patches={"class_token": True},
        max_positions=1600,
        position_offset=1,
        tiles={"tiles": 4, "aspect_ratios": 9},
        embedding_norm=True,
    )
    scout_text = llama(5120, 48, 40, 8, 16384, 202048, 10485760, head_dim=128, sliding_window=8192)
    scout_text["blocks"]["default"]["ffn"] = {
        "kind": "moe",
        "num_experts": 16,
        "top_k": 1,
        "expert_width": 8192,
        "shared_experts": 1,
    }
    scout_text["decoder"]["layers"] = [
        {
            "count": 12,
            "pattern": [
                {"count": 3},
                {"count": 1, "override": {"mixer": {"sliding_window": None, "rope": False}}},
            ],
        }
    ]
    llama4_vision = (
        vit_block(16, 5632, "gelu"),
        tower(
            34,
            1408,
            336,
            14,
            patches={"linear": True, "class_token": True},
            max_positions=576,
            position_offset=1,
            embedding_norm=True,
        ),
    )
    glm_text = llama(4096, 40, 32, 2, 13696, 151552, 65536, q_bias=True, k_bias=True, v_bias=True)
    glm_text["blocks"]["default"]["norms"] = {"count": 4}
    glm_vision = (
        vit_block(12, 4096, "silu", biased=False, gated=True, mlp_bias=False, norm="rmsnorm"),
        tower(
            24,
            1536,
            336,
            14,
            patches={"temporal_patch": 2, "bias": True},
            max_positions=576,
            embedding_norm=True,
        ),
    )
    internvl_block = vit_block(16, 4096, "gelu", scales=2)
    internvl_stack = tower(
        24,
        1024,
        448,
        14,
        patches={"bias": True, "class_token": True},
        max_positions=1024,
        position_offset=1,
        final_norm=False,
    )
    onevision_lm = llama(3584, 28, 28, 4, 18944, 152128, 32768, q_bias=True, k_bias=True, v_bias=True)
    command_r7b = {
        "hidden_size": 4096,
        "embeddings": {"vocab_size": 256000},
        "blocks": {
            "default": {
                "mixer": attention(32, 8, sliding_window=4096),
                "ffn": dense(14336),
                "norms": {"kind": "layernorm", "bias": False, "count": 1},
            }
        },
        "decoder": {
            "layers": [
                {
                    "count": 8,
                    "pattern": [
                        {"count": 3},
                        {"count": 1, "override": {"mixer": {"sliding_window": None, "rope": False}}},
                    ],
                }
            ],
            "max_positions": 16384,
        },
        "head": {"tied": True},
    }
    return {
        "qwen2-vl-7b": (
            "qwen2-vl-7b-instruct",
            vlm(
                "Qwen2-VL-7B",
                "qwen2_vl",
                "Qwen/Qwen2-VL-7B-Instruct",
                "Qwen2VLForConditionalGeneration",
                "Vision: Conv3d patches of 2 frames × 14², LayerNorm blocks with biases, 2-D rotary "
                "positions; "
                "projector: the patch merger (LayerNorm, 2×2 spatial merge, MLP). " + qwen_note,
                qwen2_lm,
                (
                    vit_block(16, 5120, "quick_gelu"),
                    qwen_tower(32, 1280, 14, positions="rope", final_norm=False),
                ),
                {"steps": [norm(), merge(), linear(5120), linear()]},
            ),
        ),
        "qwen2.5-vl-7b": (
            "qwen2.5-vl-7b-instruct",
            vlm(
                "Qwen2.5-VL-7B",
                "qwen2_5_vl",
                "Qwen/Qwen2.5-VL-7B-Instruct",
                "Qwen2_5_VLForConditionalGeneration",
                "Vision: Conv3d patches of 2 frames × 14², RMSNorm blocks with biased gated MLPs, 2-D rotary "
                "positions; windowed attention (no parameters) on all but 4 layers. Projector: the patch "
                "merger (RMSNorm, 2×2 spatial merge, MLP to the hidden size). " + qwen_note,
                qwen25_lm,
                (
                    vit_block(16, 3420, "silu", gated=True, norm="rmsnorm"),
                    qwen_tower(32, 1280, 14, positions="rope", final_norm=False),
                ),
                {"steps": [norm("rmsnorm"), merge(), linear(5120), linear()]},
            ),
        ),
        "qwen3-vl-8b": (
            "qwen3-vl-8b-instruct",
            vlm(
                "Qwen3-VL-8B",
                "qwen3_vl",
                "Qwen/Qwen3-VL-8B-Instruct",
                "Qwen3VLForConditionalGeneration",
                "Vision: biased Conv3d patches of 2 frames × 16², a learned table of 2,304 rows "
                "(interpolated), "
                "LayerNorm blocks; projector: the merger and three deepstack mergers fed from layers 8, 16 "
                "and 24. " + qwen_note,
                qwen3_lm,
                qwen3_vision,
                {"steps": qwen3_merger, "branches": deepstack},
            ),
        ),
        "qwen3-vl-30b-a3b": (
            "qwen3-vl-30b-a3b-instruct",
            vlm(
                "Qwen3-VL-30B-A3B",
                "qwen3_vl_moe",
                "Qwen/Qwen3-VL-30B-A3B-Instruct",
                "Qwen3VLMoeForConditionalGeneration",
                "The Qwen3-VL tower and mergers before a Qwen3-MoE text model (top-8 of 128 experts). "
                + qwen_note,
                qwen3_moe,
                qwen3_vision,
                {"steps": qwen3_merger, "branches": deepstack},
            ),
        ),
        "gemma-3-4b": (
            "gemma-3-4b-it",
            vlm(
                "Gemma-3-4B",
                "gemma3",
                "google/gemma-3-4b-it",
                "Gemma3ForConditionalGeneration",
                gemma_note,
                gemma3_text(2560, 34, 8, 4, 256, 10240),
                siglip(896),
                {"steps": [merge(4, concat=False), norm("rmsnorm"), linear(bias=False)]},
            ),
        ),
        "gemma-3-27b": (
            "gemma-3-27b-it",
            vlm(
                "Gemma-3-27B",
                "gemma3",
                "google/gemma-3-27b-it",
                "Gemma3ForConditionalGeneration",
                gemma_note,
                gemma3_text(5376, 62, 32, 16, 128, 21504),
                siglip(896),
                {"steps": [merge(4, concat=False), norm("rmsnorm"), linear(bias=False)]},
            ),
        ),
        "paligemma-3b": (
            "paligemma-3b-pt-224",
            vlm(
                "PaliGemma-3B",
                "paligemma",
                "google/paligemma-3b-pt-224",
                "PaliGemmaForConditionalGeneration",
                "Vision: SigLIP at 224² (256 tokens); projector: one linear layer; text: Gemma-2B, tied.",
                {**llama(2048, 18, 8, 1, 16384, 257216, 8192, head_dim=256), "head": {"tied": True}},
                siglip(224),
                {"steps": [linear()]},
            ),
        ),
        "llava-1.5-7b": (
            "llava-1.5-7b-hf",
            vlm(
                "LLaVA-1.5-7B",
                "llava",
                "llava-hf/llava-1.5-7b-hf",
                "LlavaForConditionalGeneration",
                "Vision: CLIP ViT-L/14 at 336² (576 image tokens; the class token is dropped); projector: "
                "two linear layers with a GELU; text: Vicuna-7B (Llama-2).",
                llama(4096, 32, 32, 32, 11008, 32064, 4096),
                clip(),
                {"steps": [linear(), linear()]},
            ),
        ),
        "llava-next-mistral-7b": (
            "llava-v1.6-mistral-7b-hf",
            vlm(
                "LLaVA-NeXT-Mistral-7B",
                "llava_next",
                "llava-hf/llava-v1.6-mistral-7b-hf",
                "LlavaNextForConditionalGeneration",
                "As LLaVA-1.5 with the image-newline vector (counted with the projector); its any-resolution "
                "tiling puts up to five 336² tiles' tokens in the context (one here); text: Mistral-7B-v0.2.",
                llama(4096, 32, 32, 8, 14336, 32064, 32768),
                clip(),
                {"steps": [linear(), linear(), {"kind": "vector"}]},
            ),
        ),
        "llava-onevision-7b": (
            "llava-onevision-qwen2-7b-ov-hf",
            vlm(
                "LLaVA-OneVision-Qwen2-7B",
                "llava_onevision",
                "llava-hf/llava-onevision-qwen2-7b-ov-hf",
                "LlavaOnevisionForConditionalGeneration",
                "LLaVA-NeXT's two-layer projector and image-newline vector around SigLIP-So400m at 384² "
                "(26 layers: its last one cut, 729 tokens a tile; up to 3×3 tiles and the whole image "
                "in the context); text: Qwen2-7B.",
                onevision_lm,
                siglip(384, 26),
                {"steps": [linear(), linear(), {"kind": "vector"}]},
            ),
        ),
        "aya-vision-8b": (
            "aya-vision-8b",
            vlm(
                "Aya-Vision-8B",
                "aya_vision",
                "CohereLabs/aya-vision-8b",
                "AyaVisionForConditionalGeneration",
                "Vision: SigLIP-So400m at 364² tiles (676 patches); projector: 2×2 pixel shuffle, LayerNorm, "
                "a SwiGLU MLP (linear_1 to 28,672, halved by the gate, linear_2 from 14,336; 169 tokens a "
                "tile); text: Command R7B (Cohere-2), tied.",
                command_r7b,
                siglip(364, 27),
                {"steps": [merge(), norm(), linear(28672), {"kind": "linear", "in_width": 14336}]},
            ),
        ),
        "pixtral-12b": (
            "pixtral-12b",
            vlm(
                "Pixtral-12B",
                "llava",
                "mistral-community/pixtral-12b",
                "LlavaForConditionalGeneration",
                "A llava config with a Pixtral tower (16² patches, 2-D rotary positions, up to 1,024²); "
                "projector: LLaVA's two biased linear layers; text: Mistral-Nemo-12B.",
                llama(5120, 40, 32, 8, 14336, 131072, 1024000, **mistral_h),
                pixtral(1024, 16),
                {"steps": [linear(), linear()]},
            ),
        ),
        "mistral-small-3.1-24b": (
            "mistral-small-3.1-24b-instruct-2503",
            vlm(
                "Mistral-Small-3.1-24B",
                "mistral3",
                "mistralai/Mistral-Small-3.1-24B-Instruct-2503",
                "Mistral3ForConditionalGeneration",
                "Untied, as the checkpoint keeps lm_head (5.24 builds it tied for want of a top-level key). "
                "Vision: Pixtral at 14² patches; projector: RMSNorm, the 2×2 patch merger (a bias-free "
                "linear layer back to e), two bias-free linear layers.",
                llama(5120, 40, 32, 8, 32768, 131072, 131072, **mistral_h),
                pixtral(1540, 14),
                {
                    "steps": [
                        norm("rmsnorm"),
                        merge(),
                        linear(1024, bias=False),
                        linear(bias=False),
                        linear(bias=False),
                    ]
                },
            ),
        ),
        "idefics3-8b": (
            "idefics3-8b-llama3",
            vlm(
                "Idefics3-8B",
                "idefics3",
                "HuggingFaceM4/Idefics3-8B-Llama3",
                "Idefics3ForConditionalGeneration",
                "Vision: SigLIP at 364² tiles (676 patches); connector: 2×2 pixel shuffle and a bias-free "
                "linear layer (169 tokens a tile); text: Llama-3.1-8B with three added tokens.",
                llama(4096, 32, 32, 8, 14336, 128259, 131072),
                siglip(364),
                {"steps": [merge(2), linear(bias=False)]},
            ),
        ),
        "smolvlm2-2.2b": (
            "smolvlm2-2.2b-instruct",
            vlm(
                "SmolVLM2-2.2B",
                "smolvlm",
                "HuggingFaceTB/SmolVLM2-2.2B-Instruct",
                "SmolVLMForConditionalGeneration",
                "Vision: SigLIP at 384² tiles (729 patches); connector: 4×4 pixel shuffle and a bias-free "
                "linear layer; text: a 1.7B Llama.",
                llama(2048, 24, 32, 32, 8192, 49280, 16384),
                siglip(384),
                {"steps": [merge(4), linear(bias=False)]},
            ),
        ),
        "internvl3-1b": (
            "internvl3-1b-hf",
            vlm(
                "InternVL3-1B",
                "internvl",
                "OpenGVLab/InternVL3-1B-hf",
                "InternVLForConditionalGeneration",
                "Untied, as the checkpoint keeps lm_head (5.24 builds it tied for want of a top-level key). "
                "Vision: InternViT-300M at 448² with layer scales; projector: 2×2 pixel shuffle, LayerNorm, "
                "an MLP (256 tokens a tile); text: Qwen2.5-0.5B.",
                llama(896, 24, 14, 2, 4864, 151674, 32768, q_bias=True, k_bias=True, v_bias=True),
                (internvl_block, internvl_stack),
                {"steps": [merge(), norm(), linear(), linear()]},
            ),
        ),
        "glm-4.1v-9b": (
            "glm-4.1v-9b-thinking",
            vlm(
                "GLM-4.1V-9B",
                "glm4v",
                "THUDM/GLM-4.1V-9B-Thinking",
                "Glm4vForConditionalGeneration",
                "Vision: biased Conv3d patches, an RMSNorm after them, a learned table of 576 rows, RMSNorm "
                "blocks whose gated MLP is 4,096 wide; projector: the 2×2 downsampling convolution (a merge "
                "and a biased linear layer in count), the merger's projection, LayerNorm and gated MLP; "
                "text: GLM-4 (four norms a layer).",
                glm_text,
                glm_vision,
                {"steps": [merge(), linear(), linear(bias=False), norm(), dense(13696, activation="silu")]},
            ),
        ),
        "llama-4-scout-vision": (
            "llama-4-scout-17b-16e-instruct",
            vlm(
                "Llama-4-Scout-17B-16E",
                "llama4",
                "meta-llama/Llama-4-Scout-17B-16E-Instruct",
                "Llama4ForConditionalGeneration",
                "Vision: linear patches (unfold), a class token, LayerNorm blocks with biases; projector: "
                "the vision adapter (2×2 pixel shuffle, a two-layer MLP) and the projection to the hidden "
                "size; text: 16 routed experts and a shared one per layer, chunked attention on three "
                "layers of four.",
                scout_text,
                llama4_vision,
                {"steps": [merge(), linear(4096, bias=False), linear(4096, bias=False), linear(bias=False)]},
            ),
        ),
        "llama-3.2-11b-vision": (
            "llama-3.2-11b-vision-instruct",
            vlm(
                "Llama-3.2-11B-Vision",
                "mllama",
                "meta-llama/Llama-3.2-11B-Vision-Instruct",
                "MllamaForConditionalGeneration",
                "Vision: 32 layers and 8 gated global layers over up to 4 tiles of 560², tile and position "
                "tables with gates; projector: one linear layer from the last and 5 intermediate layers' "
                "outputs; text: Llama-3.1-8B whose layers 3, 8, …, 38 cross-attend to the image instead of "
                "attending to the text (gated), its embedding 8 rows longer than the head.",
                mllama_text,
                (mllama_block, mllama_stack),
                {"features": 6, "steps": [linear()]},
            ),
        ),
    }


def check(arch: Architecture, golden: Data) -> list[str]:
    report = count_parameters(arch)
    parts = golden["parts"]
    found = {
        "total": report.total,
        "active": report.active,
        "vision_tower": report.vision,
        "projector": report.projector,
        "language_model": report.language_model,
        "text_only_active": report.language_model_active,
    }
    wanted = {
        "total": golden["total"],
        "active": golden["active"],
        "vision_tower": parts["vision_tower"],
        "projector": parts["projector"],
        "language_model": parts["language_model"],
        "text_only_active": golden["text_only"]["active"],
    }
    return [f"{key} {found[key]:,} ≠ {wanted[key]:,}" for key in wanted if found[key] != wanted[key]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare only; write nothing")
    args = parser.parse_args()
    goldens = json.loads(GOLDEN.read_text(encoding="utf-8"))
    texts: dict[Path, str] = {}
    failed = False
    for preset_id, (golden_name, data) in presets().items():
        arch = Architecture.model_validate(data)
        wrong = check(arch, goldens[golden_name])
        if wrong:
            print(f"{preset_id}: {'; '.join(wrong)}", file=sys.stderr)
            failed = True
        texts[PRESET_DIR / f"{preset_id}.json"] = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if failed:
        return 1
    stale = [
        path.name for path, text in texts.items() if not path.exists() or path.read_text("utf-8") != text
    ]
    if args.check:
        print("up to date" if not stale else f"would change: {', '.join(stale)}")
        return 1 if stale else 0
    for path, text in texts.items():
        write_text_atomic(path, text)
    print(f"wrote {len(texts)} presets ({len(stale)} changed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
