"""Starting points for a model built by hand: a Llama-style decoder, an encoder-decoder and a
vision-language model.

File → New opens one of these; every size is then edited in the form and the layer tree. The
sizes are round and common (Llama-2-7B's decoder; the original Transformer's base encoder-decoder
widths with T5's RMSNorm and ReLU FFN; LLaVA-1.5-7B: a CLIP ViT-L/14 tower at 336², a two-layer
projector, the Llama decoder) so that few edits reach a published model.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.schema import Architecture

__all__ = ["TEMPLATES", "new_architecture"]

_ATTENTION = {"kind": "attention", "num_heads": 8}
_FFN = {"kind": "dense", "width": 2048, "gated": False, "activation": "relu"}
_BIASES = ("q_bias", "k_bias", "v_bias", "o_bias")

TEMPLATES: dict[str, tuple[str, dict[str, Any]]] = {
    "decoder": (
        "Decoder-only (Llama-style)",
        {
            "name": "New decoder",
            "hidden_size": 4096,
            "embeddings": {"vocab_size": 32000},
            "blocks": {
                "default": {
                    "mixer": {"kind": "attention", "num_heads": 32},
                    "ffn": {"kind": "dense", "width": 11008},
                }
            },
            "decoder": {"layers": [{"count": 32}], "max_positions": 4096},
        },
    ),
    "encoder-decoder": (
        "Encoder-decoder",
        {
            "name": "New encoder-decoder",
            "hidden_size": 512,
            "embeddings": {"vocab_size": 32000},
            "blocks": {
                "encoder": {"mixer": _ATTENTION, "ffn": _FFN},
                "decoder": {
                    "mixer": _ATTENTION,
                    "cross_attention": _ATTENTION,
                    "ffn": _FFN,
                    "norms": {"count": 3},
                },
            },
            "encoder": {"block": "encoder", "layers": [{"count": 6}], "positions": "none"},
            "decoder": {"block": "decoder", "layers": [{"count": 6}], "positions": "none"},
        },
    ),
    "vision-language": (
        "Vision-language (LLaVA-style)",
        {
            "name": "New vision-language model",
            "hidden_size": 4096,
            "embeddings": {"vocab_size": 32000},
            "blocks": {
                "default": {
                    "mixer": {"kind": "attention", "num_heads": 32},
                    "ffn": {"kind": "dense", "width": 11008},
                },
                "vision": {
                    "mixer": {**_ATTENTION, "num_heads": 16, **dict.fromkeys(_BIASES, True)},
                    "ffn": {
                        "kind": "dense",
                        "width": 4096,
                        "gated": False,
                        "bias": True,
                        "activation": "gelu",
                    },
                    "norms": {"kind": "layernorm"},
                },
            },
            "decoder": {"layers": [{"count": 32}], "max_positions": 4096},
            "vision": {
                "block": "vision",
                "layers": [{"count": 24}],
                "width": 1024,
                "image_size": 336,
                "patches": {"patch_size": 14, "class_token": True},
                "max_positions": 576,
                "position_offset": 1,
                "embedding_norm": True,
            },
            "projector": {"steps": [{"kind": "linear"}, {"kind": "linear"}]},
        },
    ),
}


def new_architecture(template: str) -> Architecture:
    """A fresh model from the template ``template`` (a key of ``TEMPLATES``)."""
    return Architecture.model_validate(TEMPLATES[template][1])
