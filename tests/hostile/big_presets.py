"""Valid presets that are hostile to the window (issue 30): thousands of named base blocks, a name
of megabytes, text that reorders, hides or breaks what is around it. The window's tests and
bench/hostile_inputs.py write the same files.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from paramtally.core.io.presets import MAX_PRESET_BYTES

__all__ = ["HOSTILE_TEXT", "hostile_texts", "long_name", "many_blocks", "write"]

# A lone surrogate, NUL, a right-to-left override, markup, a mnemonic '&', a newline, a tab and
# Unicode's line separator: each breaks, hides or reorders text when a widget gets it raw.
HOSTILE_TEXT = "A\ud800B\x00C\u202eD<b>E</b>&F\nG\tH\u2028I"
_BASE: dict[str, Any] = {
    "schema_version": 2,
    "name": "hostile",
    "hidden_size": 1024,
    "embeddings": {"vocab_size": 32000},
    "blocks": {
        "default": {"mixer": {"kind": "attention", "num_heads": 16}, "ffn": {"kind": "dense", "width": 4096}}
    },
    "decoder": {"block": "default", "layers": [{"count": 4}]},
}
_PATTERN_RUNS = 100  # runs per pattern group


def many_blocks(count: int) -> dict[str, Any]:
    """``count`` named blocks of distinct FFN widths (multiples of 128: no hint at any), each the
    block of one layer, ``_PATTERN_RUNS`` to a pattern: a preset of ~130 bytes a block."""
    blocks = {
        f"b{i}": {
            "mixer": {"kind": "attention", "num_heads": 16},
            "ffn": {"kind": "dense", "width": 128 * (i + 1)},
        }
        for i in range(count)
    }
    runs = [{"count": 1, "block": f"b{i}"} for i in range(count)]
    groups = [{"count": 1, "pattern": runs[at : at + _PATTERN_RUNS]} for at in range(0, count, _PATTERN_RUNS)]
    return {
        **_BASE,
        "name": f"{count:,} named blocks",
        "blocks": blocks,
        "decoder": {"block": "b0", "layers": groups},
    }


def long_name(size: int = MAX_PRESET_BYTES) -> dict[str, Any]:
    """A preset of ``size`` bytes (at most the preset limit) whose name is nearly all of it."""
    frame = len(json.dumps({**_BASE, "name": ""}))
    return {**_BASE, "name": "N" * (size - frame)}


def hostile_texts() -> dict[str, Any]:
    """``HOSTILE_TEXT`` as the name, the family, the description and the only block's name."""
    block = _BASE["blocks"]["default"]
    return {
        **_BASE,
        "name": HOSTILE_TEXT,
        "family": HOSTILE_TEXT,
        "description": HOSTILE_TEXT,
        "blocks": {HOSTILE_TEXT: block},
        "decoder": {"block": HOSTILE_TEXT, "layers": [{"count": 4}]},
    }


def write(path: Path, preset: dict[str, Any]) -> Path:
    """``preset`` as JSON at ``path`` (ASCII: a lone surrogate is written as its escape)."""
    path.write_text(json.dumps(preset), encoding="ascii")
    return path
