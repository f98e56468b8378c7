"""Helpers shared by the views' tests: a real Document on a preset and architecture variants."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from paramtally.core.edit import with_value
from paramtally.core.schema import Architecture
from paramtally.core.sources import load_source
from paramtally.gui.document import Document

__all__ = ["MOE_LAYERS", "make_document", "moe_variant"]

# GPT-3's stack with its last 94 layers turned into MoE blocks carrying LoRA: total ≠ active, added > 0.
MOE_LAYERS = [
    {"count": 2},
    {
        "count": 94,
        "override": {
            "ffn": {"kind": "moe", "num_experts": 64, "top_k": 4, "expert_width": 4096, "shared_experts": 1},
            "lora": {"rank": 16},
        },
    },
]


def make_document(source: str = "gpt3-175b") -> Document:
    return Document(load_source(source), source)


def moe_variant(arch: Architecture) -> Architecture:
    return with_value(arch, ("decoder", "layers"), MOE_LAYERS)
