"""How a field is named to a person: from the schema's field titles, not from its path.

``('blocks', 'default', 'mixer', 'num_kv_heads')`` reads 'Blocks › default › Mixer › KV heads':
each step takes the title its model gives the field (``Field(title=...)``), keys of a mapping
(block names) stay as typed, list positions count from one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from paramtally.core.blocks import KINDS

__all__ = ["field_title", "label_for"]

# Words that read better in capitals in a label made from a field name without a title; a kind's
# tag reads as its short name where that differs in more than the first letter's case (MLA, MoE).
_WORDS = {
    "kv": "KV",
    "qk": "QK",
    "ffn": "FFN",
    "lora": "LoRA",
    "lm": "LM",
    "dim": "width",
    "num": "",
    "vocab": "vocabulary",
} | {
    tag: kind.SHORT
    for tag, kind in KINDS.items()
    if kind.SHORT.lower() == tag and kind.SHORT not in (tag, tag.capitalize())
}


def label_for(name: str) -> str:
    """A field name as words: 'num_kv_heads' → 'KV heads'."""
    words = [_WORDS.get(word, word) for word in name.split("_")]
    text = " ".join(word for word in words if word)
    return text[:1].upper() + text[1:]


def _step(node: Any, part: str | int) -> tuple[str, Any]:
    """(title of ``part`` under ``node``, the value it leads to; None once off the model)."""
    if isinstance(part, int):
        inside = node[part] if isinstance(node, Sequence) and -len(node) <= part < len(node) else None
        return f"group {part + 1}", inside
    if isinstance(node, BaseModel):
        info = type(node).model_fields.get(part)
        own = getattr(node, "field_title", None)  # a title that depends on the value (LayerGroup)
        title = (own(part) if callable(own) else None) or (info.title if info else None) or label_for(part)
        return title, getattr(node, part, None)
    if isinstance(node, Mapping):
        return part, node.get(part)
    return label_for(part), None


def field_title(path: Sequence[str | int], root: Any = None) -> str:
    """``path`` as a person reads it, titled from ``root``'s schema where the path runs through it.

    A step whose title starts with the one before drops that one ('FFN › FFN width' reads
    'FFN width')."""
    titles: list[str] = []
    node = root
    for part in path:
        title, node = _step(node, part)
        if titles and title.lower().startswith(titles[-1].lower()):
            titles.pop()
        titles.append(title)
    return " › ".join(titles)
