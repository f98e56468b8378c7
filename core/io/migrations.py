"""Schema migrations: each step turns a preset of version n into version n + 1.

Register a step with ``@step(n)`` when the schema changes; a file from a newer version than this
program knows is refused (and left untouched), never guessed at. Steps work on a copy of the
decoded JSON and never touch the file itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paramtally.core.errors import ParamTallyError, one_line, shown
from paramtally.core.schema import SCHEMA_VERSION
from paramtally.core.text import say

__all__ = ["LEGACY_KEYS", "MIGRATIONS", "detect_version", "migrate", "step"]

Data = dict[str, Any]
MIGRATIONS: dict[int, Callable[[Data], Data]] = {}

# Version 0, the pre-release layout: flat keys at the top level (and ``layers`` as a plain count).
# Each maps to its place in version 1.
LEGACY_KEYS: dict[str, tuple[str, str]] = {
    "vocab_size": ("embeddings", "vocab_size"),
    "n_heads": ("attention", "num_heads"),
    "n_kv_heads": ("attention", "num_kv_heads"),
    "ffn_width": ("ffn", "width"),
    "tie_embeddings": ("head", "tied"),
}


def step(from_version: int) -> Callable[[Callable[[Data], Data]], Callable[[Data], Data]]:
    def register(function: Callable[[Data], Data]) -> Callable[[Data], Data]:
        MIGRATIONS[from_version] = function
        return function

    return register


def detect_version(data: Data) -> object:
    """The file's schema version; without one, told by its layout (flat 0, one global block 1)."""
    if "schema_version" in data:
        return data["schema_version"]
    if "n_layers" in data or isinstance(data.get("layers"), int) or LEGACY_KEYS.keys() & data.keys():
        return 0
    if {"attention", "ffn", "layers", "norms"} & data.keys():
        return 1
    return SCHEMA_VERSION


def migrate(data: Data, origin: str) -> Data:
    version = detect_version(data)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise ParamTallyError(
            say(
                "{origin}: schema_version must be a whole number, not {got}",
                origin=origin,
                got=shown(version),
            )
        )
    if version > SCHEMA_VERSION:
        raise ParamTallyError(
            say(
                "{origin}: written by a newer ParamTally (schema {version}; this one reads up to "
                "{newest}); the file was left as it is",
                origin=origin,
                version=version,
                newest=SCHEMA_VERSION,
            )
        )
    while version < SCHEMA_VERSION:
        if version not in MIGRATIONS:
            raise ParamTallyError(
                say("{origin}: no migration from schema version {version}", origin=origin, version=version)
            )
        try:
            data = MIGRATIONS[version](dict(data))
        except ParamTallyError as exc:
            raise ParamTallyError(say("{path}: {reason}", path=origin, reason=one_line(exc))) from None
        version += 1
        data["schema_version"] = version
    return data


@step(0)
def _flat_to_nested(data: Data) -> Data:
    """0 → 1: ``n_layers``/``layers: int`` become one layer group; flat keys move into their section.

    Anything malformed is left in place for validation to name (no guessing, no crash).
    """
    data.pop("schema_version", None)
    if "n_layers" in data:
        if "layers" in data:
            raise ParamTallyError(say("n_layers: give either n_layers or layers, not both"))
        data["layers"] = data.pop("n_layers")
    if isinstance(data.get("layers"), int) and not isinstance(data["layers"], bool):
        data["layers"] = [{"count": data["layers"]}]
    for key, (section, field) in LEGACY_KEYS.items():
        if key not in data:
            continue
        target = data.get(section, {})
        if not isinstance(target, dict):
            continue  # validation names the malformed section
        if field in target:
            raise ParamTallyError(
                say("{key}: also given as {section}.{field}", key=key, section=section, field=field)
            )
        data[section] = {**target, field: data.pop(key)}
    return data


@step(1)
def _global_block_to_blocks(data: Data) -> Data:
    """1 → 2: the one global attention, FFN and norms become the base block ``default``; layer
    groups change only what differs (MoE, LoRA, adapter); positions and the final norm move to the
    decoder stack; every n-th global layer of a sliding-window model becomes a repeating pattern.

    Anything malformed is left for validation to name: a step never guesses or crashes.
    """
    data.pop("schema_version", None)
    attention, ffn, norms = (_section(data.pop(key, None)) for key in ("attention", "ffn", "norms"))
    layers = data.pop("layers", None)
    embeddings = _section(data.get("embeddings"))
    mixer, every = _mixer_v2(attention)
    dense = {"kind": "dense", **ffn}
    block_norms = {
        key: norms[old]
        for old, key in (("kind", "kind"), ("bias", "bias"), ("per_block", "count"))
        if old in norms
    }
    data["blocks"] = {"default": {"mixer": mixer, "ffn": dense, "norms": block_norms}}
    stack: Data = {"block": "default", "final_norm": norms.get("final", True)}
    for old, key in (
        ("position", "positions"),
        ("max_positions", "max_positions"),
        ("position_offset", "position_offset"),
        ("relative_buckets", "relative_buckets"),
        ("norm", "embedding_norm"),
    ):
        if old in embeddings:
            stack[key] = embeddings.pop(old)
    if isinstance(data.get("embeddings"), dict):
        data["embeddings"] = embeddings
    groups = [_group_v2(group, dense) for group in layers] if isinstance(layers, list) else layers
    if every and isinstance(groups, list) and all(isinstance(g, dict) for g in groups):
        groups = _with_global_layers(groups, every)
    stack["layers"] = groups
    data["decoder"] = stack
    return data


def _section(value: Any) -> Data:
    """A copy of a section that should be an object; anything else becomes an empty one, whose
    required fields validation then names."""
    return dict(value) if isinstance(value, dict) else {}


def _mixer_v2(attention: Data) -> tuple[Data, int]:
    """The v1 attention section as a v2 mixer, and its global-every period (0: none)."""
    every = attention.pop("global_every", 0)
    if attention.pop("kind", "standard") == "mla":
        if "k_bias" in attention:
            attention["kv_bias"] = attention.pop("k_bias")
        for unused in ("num_kv_heads", "head_dim", "v_bias", "qk_norm", "sliding_window", "rotary_fraction"):
            attention.pop(unused, None)
        return {"kind": "mla", **attention}, 0
    for unused in ("q_lora_rank", "kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim"):
        attention.pop(unused, None)
    has_window = attention.get("sliding_window") is not None
    return {"kind": "attention", **attention}, every if isinstance(every, int) and has_window else 0


def _group_v2(group: Any, dense: Data) -> Any:
    if not isinstance(group, dict):
        return group
    override: Data = {}
    moe = group.get("moe")
    if isinstance(moe, dict):
        shared = {key: dense[key] for key in ("gated", "activation") if key in dense}
        override["ffn"] = {"kind": "moe", **shared, **moe}
    for insertion in ("lora", "adapter"):
        if group.get(insertion) is not None:
            override[insertion] = group[insertion]
    rest = {key: value for key, value in group.items() if key not in ("moe", "lora", "adapter")}
    return {**rest, "override": override} if override else rest


def _with_global_layers(groups: list[Data], every: int) -> list[Data]:
    """Split groups so every ``every``-th layer of the stack attends globally (v1's global_every)."""
    result: list[Data] = []
    start = 0
    for group in groups:
        count = group.get("count")
        if not isinstance(count, int) or count <= 0:
            return groups  # malformed: validation names it
        result += _global_split(group, start, count, every)
        start += count
    return result


def _global_split(group: Data, start: int, count: int, every: int) -> list[Data]:
    """Layers i with (i + 1) % every == 0 are global: [sliding × (every − 1), global] repeated,
    with the partial periods before and after written out."""
    override = group.get("override", {})
    global_override = {**override, "mixer": {**override.get("mixer", {}), "sliding_window": None}}

    def run(n: int, is_global: bool) -> list[Data]:
        return (
            [_clean({**group, "count": n, "override": global_override if is_global else override})]
            if n
            else []
        )

    if every == 1:
        return run(count, True)
    lead = -start % every  # layers before the next period starts; the last of them is global
    if count < lead:
        return run(count, False)
    pieces = run(lead - 1, False) + run(1, True) if lead else []
    whole, rest = divmod(count - lead, every)
    if whole:
        pieces.append({"count": whole, "pattern": run(every - 1, False) + run(1, True)})
    return pieces + run(rest, False)


def _clean(group: Data) -> Data:
    return {key: value for key, value in group.items() if not (key == "override" and not value)}
