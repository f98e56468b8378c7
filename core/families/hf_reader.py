"""Typed, validated reads from a Hugging Face ``config.json`` with the class defaults behind it.

Every read names the key in its error, so a bad file gives one line such as
``config.json: num_key_value_heads must be a positive integer (got -8)``. The reader also
remembers which keys it used, for the "understood / not understood" report.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import PurePath
from types import MappingProxyType
from typing import Any, Protocol

from paramtally.core.errors import ParamTallyError, shown
from paramtally.core.families.layer_pattern import MAX_EXPANDED
from paramtally.core.text import say

__all__ = ["ALIASES", "MISSING", "HFConfig", "Nested", "display_name"]

MISSING: Any = object()
_EXACT_FLOAT = 2**53  # every whole number up to here is exact as a float
_MISSPELT = 0.9  # difflib's ratio from which an unread key is taken for a read one misspelt

# Other spellings of the same key in circulation (transformers' attribute_map and renamed keys):
# canonical name -> alternatives, tried in order when the canonical key is absent.
ALIASES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "n_embd": ("hidden_size",),
        "n_layer": ("num_hidden_layers",),
        "n_head": ("num_attention_heads",),
        "n_positions": ("max_position_embeddings",),
        "hidden_size": ("n_embed", "n_embd"),
        "num_hidden_layers": ("n_layer",),
        "num_attention_heads": ("n_head",),
        "num_local_experts": ("num_experts",),
        "num_experts": ("num_local_experts",),
        "n_routed_experts": ("num_experts", "num_local_experts"),
        "sliding_window": ("sliding_window_size",),
    }
)


class Nested(Protocol):
    """What a nested config is read as: a model type's name and its config class's defaults."""

    @property
    def name(self) -> str: ...

    @property
    def defaults(self) -> Mapping[str, Any]: ...


class HFConfig:
    """One decoded ``config.json`` of a supported ``model_type``, read against its config class's
    ``defaults``."""

    def __init__(
        self,
        data: Mapping[str, Any],
        model_type: str,
        origin: str,
        defaults: Mapping[str, Any],
        prefix: str = "",
    ) -> None:
        self.data = data
        self.model_type = model_type
        self.origin = origin
        self.defaults = defaults
        self.prefix = prefix  # where a nested config sits in the file ("text_config.")
        self.used: set[str] = set()
        self.absent: set[str] = set()  # keys read that the file lacks (a default stood in)
        self.nested_configs: list[HFConfig] = []

    def fail(self, key: str, message: str) -> ParamTallyError:
        return ParamTallyError(
            say("{path}: {key} {reason}", path=self.origin, key=f"{self.prefix}{key}", reason=message)
        )

    def nested(self, key: str, kind: Nested, **given: Any) -> HFConfig:
        """The sub-config at ``key`` (a wrapper's ``text_config`` or ``vision_config``; absent or
        null: all of ``kind``'s defaults) read as ``kind``, its keys named ``key.…`` in errors.
        ``given`` are values the wrapper decides for it (its top-level tie)."""
        value = self.raw(key, None)
        if value is None:
            value = {}
        if not isinstance(value, Mapping):
            raise self.fail(key, say("must be an object (got {got})", got=shown(value)))
        child = HFConfig({**value, **given}, kind.name, self.origin, kind.defaults, f"{self.prefix}{key}.")
        self.nested_configs.append(child)
        return child

    def raw(self, key: str, default: Any = MISSING) -> Any:
        """The file's value (explicit ``null`` included), else an alias's, else the class default."""
        for name in (key, *ALIASES.get(key, ())):
            if name in self.data:
                self.used.add(name)
                return self.data[name]
        self.absent.add(key)
        if key in self.defaults:
            return self.defaults[key]
        if default is MISSING:
            raise self.fail(
                key, say("is missing and {model_type} has no default for it", model_type=self.model_type)
            )
        return default

    def misspelt(self) -> Iterator[tuple[str, str, str]]:
        """(key in the file, key read, the model type reading it) for each key that no read used
        and that is spelt almost as a key read but absent, whose default then stood in:
        'num_hidden_layer' for num_hidden_layers (nested configs' keys by their place in the file)."""

        from difflib import get_close_matches  # late: only once a config is read

        absent = sorted(self.absent)
        for key in self.data:
            if key in self.used or key in self.absent or not isinstance(key, str):
                continue
            near = get_close_matches(key, absent, n=1, cutoff=_MISSPELT)
            if near:
                yield f"{self.prefix}{key}", f"{self.prefix}{near[0]}", self.model_type
        for child in self.nested_configs:
            yield from child.misspelt()

    def has(self, key: str) -> bool:
        return any(name in self.data for name in (key, *ALIASES.get(key, ())))

    def integer(self, key: str, *, minimum: int = 1, default: Any = MISSING) -> int:
        value = self.raw(key, default)
        if isinstance(value, float) and value.is_integer():
            if abs(value) > _EXACT_FLOAT:  # 1e30 as a float is only near a whole number: no guess
                raise self.fail(
                    key,
                    say(
                        "is {value}, too large for a float to hold exactly; write an integer",
                        value=repr(value),
                    ),
                )
            value = int(value)  # 4096.0
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            bound = (
                say("a positive integer") if minimum == 1 else say("an integer ≥ {minimum}", minimum=minimum)
            )
            raise self.fail(key, say("must be {bound} (got {got})", bound=bound, got=shown(value)))
        return value

    def divisor(self, key: str, whole: int, whole_key: str, value: int | None = None) -> int:
        """``key`` (or its given ``value``) as a positive integer that must divide ``whole``."""
        part = self.integer(key) if value is None else value
        if whole % part:
            raise self.fail(
                key,
                say(
                    "({part}) must divide {whole_key} ({whole})", part=part, whole_key=whole_key, whole=whole
                ),
            )
        return part

    def opt_integer(self, key: str, *, default: Any = MISSING) -> int | None:
        """An integer that may be ``null`` (meaning "derive it")."""
        if self.raw(key, default) is None:
            return None
        return self.integer(key, default=default)

    def flag(self, key: str, default: Any = MISSING) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, say("must be true or false (got {got})", got=shown(value)))
        return value

    def text(self, key: str, default: Any = MISSING) -> str:
        value = self.raw(key, default)
        if not isinstance(value, str):
            raise self.fail(key, say("must be a string (got {got})", got=shown(value)))
        return value

    def number(self, key: str, default: Any = MISSING) -> float:
        return self.as_number(key, self.raw(key, default))

    def as_number(self, key: str, value: Any) -> float:
        """``value`` (read from ``key``) as a float; a string, list or bool is refused."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(key, say("must be a number (got {got})", got=shown(value)))
        return float(value)

    def int_list(self, key: str) -> list[int]:
        value = self.raw(key, [])
        if value is None:
            return []
        if not isinstance(value, list) or not all(
            isinstance(item, int) and not isinstance(item, bool) for item in value
        ):
            raise self.fail(key, say("must be a list of layer indexes (got {got})", got=shown(value)))
        if len(value) > MAX_EXPANDED:
            raise self.fail(
                key, say("lists {n:,} layers (at most {most:,})", n=len(value), most=MAX_EXPANDED)
            )
        return value

    def rope(self, key: str) -> Any:
        """A RoPE setting from ``rope_parameters`` (newer files) or the top level (older files)."""
        parameters = self.data.get("rope_parameters")
        if parameters is not None and not isinstance(parameters, dict):
            raise self.fail("rope_parameters", say("must be an object (got {got})", got=shown(parameters)))
        if parameters and key in parameters:
            self.used.add("rope_parameters")
            return parameters[key]
        scaling = self.data.get("rope_scaling")
        if scaling is not None and not isinstance(scaling, dict):
            raise self.fail("rope_scaling", say("must be an object or null (got {got})", got=shown(scaling)))
        return self.raw(key, None)


def display_name(data: Mapping[str, Any], origin: str) -> str:
    """The model's name: the last part of its ``_name_or_path``, else the file's."""
    named = data.get("_name_or_path")
    if isinstance(named, str) and named.strip():
        return PurePath(named).name
    file = PurePath(origin)  # a name, not where the file was read: the same wherever it is kept
    return f"{data.get('model_type')} ({file.name})" if file.stem == "config" else file.stem
