"""The GPU catalog: built-in kinds from resources/gpus.json plus the user's own file.

The user's ``gpus.json`` in the config dir (``platformdirs.user_config_dir("paramtally")``) has
the same shape; an entry with a built-in id changes the fields it gives (``{"id": "h100-sxm-80gb",
"usd_per_hour": 2.1}`` sets a price), a new id is a new kind. A corrupt or invalid user file is
reported as a warning naming the file and field, and the built-in kinds still load.
"""

from __future__ import annotations

import os
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from paramtally.core.errors import ParamTallyError, ParamTallyWarning, field_error, one_line, unknown_name
from paramtally.core.files.input_files import load_json_file
from paramtally.core.files.package_data import data_dir
from paramtally.core.schema.limits import MAX_DESCRIPTION_CHARS, MAX_GPUS, MAX_NAME_CHARS
from paramtally.core.text import Line, Text, say

__all__ = ["BUILTIN_FILE", "GPU", "CatalogWarning", "find_gpu", "load_catalog", "user_catalog_path"]

BUILTIN_FILE = data_dir("resources") / "gpus.json"
MAX_CATALOG_BYTES = 4 * 1024 * 1024  # the built-in catalog is 10 KB


class CatalogWarning(ParamTallyWarning):
    """The user's GPU file could not be used (wholly or in part)."""


class GPU(BaseModel):
    """One GPU kind. Memory is the marketed size in bytes (80 GB = 80·10⁹)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS, pattern=r"^[a-z0-9][a-z0-9._-]*$")] = (
        Field(description="Short id used on the command line and in scenarios.")
    )
    name: Line = Field(max_length=MAX_NAME_CHARS, description="Display name.")
    # Bounds keep every figure derived from a GPU a finite float (1 EiB, 10⁹ TFLOP/s, 10⁹ GB/s;
    # 1 GFLOP/s and 1 MB/s at least: 1e-320 TFLOP/s made a training time of infinite days).
    memory_bytes: Annotated[int, Field(gt=0, le=1 << 60, strict=True)] = Field(
        description="Memory in bytes (marketed GB = 10⁹)."
    )
    usable_fraction: Annotated[float, Field(ge=0.01, le=1)] = Field(
        1.0, description="Share the GPU may use (Apple unified memory ≈ 0.75 by default)."
    )
    bf16_tflops: Annotated[float, Field(ge=1e-3, le=1e9)] = Field(description="Dense BF16 TFLOP/s.")
    bandwidth_gbs: Annotated[float, Field(ge=1e-3, le=1e9)] = Field(description="Memory bandwidth in GB/s.")
    usd_per_hour: Annotated[float, Field(gt=0, le=1e9)] | None = Field(
        None, description="Price of one GPU-hour in US dollars (serving cost per token); empty: unknown."
    )
    note: Text = Field(
        "", max_length=MAX_DESCRIPTION_CHARS, description="Where the figures come from, caveats."
    )

    def capacity_bytes(self, utilization_cap: float = 1.0) -> int:
        """Bytes a run may fill: memory × usable fraction × utilization cap."""
        return int(self.memory_bytes * self.usable_fraction * utilization_cap)


# What platformdirs reads to find the config dir (XDG on Linux and macOS, the profile on Windows).
_CONFIG_VARIABLES = ("XDG_CONFIG_HOME", "HOME", "APPDATA", "USERPROFILE")


def user_catalog_path() -> Path:
    return _catalog_path(*(os.environ.get(name) for name in _CONFIG_VARIABLES))


@lru_cache(maxsize=8)
def _catalog_path(*_environment: str | None) -> Path:
    """Keyed by the variables platformdirs reads: a new XDG_CONFIG_HOME is followed at once. The
    catalog is read several times per edit (the memory panel, FLOPs, serving, the GPU table) and
    platformdirs makes the path anew each time, which cost more than the catalog's own lookup."""
    return Path(platformdirs.user_config_dir("paramtally")) / "gpus.json"


def _entries(data: Any, origin: str) -> list[Any]:
    if isinstance(data, dict) and isinstance(data.get("gpus"), list):
        data = data["gpus"]
    if not isinstance(data, list):
        raise ParamTallyError(say("{origin}: expected a JSON object with a 'gpus' list", origin=origin))
    if len(data) > MAX_GPUS:  # every setup table tries each kind: 20,000 made compare take 8 minutes
        raise ParamTallyError(
            say(
                "{origin}: lists {n:,} GPUs, more than the {most:,} a catalog may hold",
                origin=origin,
                n=len(data),
                most=MAX_GPUS,
            )
        )
    return list(data)


@lru_cache(maxsize=1)
def _builtin() -> tuple[GPU, ...]:
    data = load_json_file(BUILTIN_FILE, MAX_CATALOG_BYTES)
    return tuple(GPU.model_validate(entry) for entry in _entries(data, BUILTIN_FILE.name))


def _warn(message: str) -> None:
    warnings.warn(message, CatalogWarning, stacklevel=3)


@lru_cache(maxsize=8)
def _user(path: Path, _stamp: tuple[int, int]) -> tuple[tuple[GPU, ...], tuple[str, ...]]:
    """The valid entries of the user's file and its problem, if any, in one line (cached per version)."""
    try:
        entries = _entries(load_json_file(path, MAX_CATALOG_BYTES, str(path)), str(path))
    except ParamTallyError as exc:
        return (), (say("{problem}; file ignored, using the built-in GPUs", problem=one_line(exc)),)
    gpus: list[GPU] = []
    problems: list[str] = []
    builtin = {gpu.id: gpu for gpu in _builtin()}
    for index, entry in enumerate(entries):
        known = builtin.get(str(entry.get("id"))) if isinstance(entry, dict) else None
        try:
            gpus.append(GPU.model_validate({**known.model_dump(), **entry} if known else entry))
        except ValidationError as exc:
            inside = bool(exc.errors()[0]["loc"])  # a field inside the entry, or the entry
            problems.append(
                say("gpus.{index}.{reason}", index=index, reason=one_line(exc))
                if inside
                else say("gpus.{index}: {reason}", index=index, reason=one_line(exc))
            )
    if not problems:
        return tuple(gpus), ()
    problem = (  # one line per file
        say(
            "{path}: {problem}; entry skipped (and {more:,} more entries)",
            path=path,
            problem=problems[0],
            more=len(problems) - 1,
        )
        if len(problems) > 1
        else say("{path}: {problem}; entry skipped", path=path, problem=problems[0])
    )
    return tuple(gpus), (problem,)


def load_catalog(user_file: Path | None = None) -> tuple[GPU, ...]:
    """Built-in GPUs, then the user's (a user entry with a built-in id replaces it)."""
    path = user_file if user_file is not None else user_catalog_path()
    try:
        stat = path.stat()
    except OSError:
        return _builtin()
    extra, problems = _user(path, (stat.st_mtime_ns, stat.st_size))
    for problem in problems:
        _warn(problem)
    if not extra:
        return _builtin()
    mine = {gpu.id: gpu for gpu in extra}
    merged = [mine.pop(gpu.id, gpu) for gpu in _builtin()]
    return (*merged, *mine.values())


def find_gpu(gpu_id: str, catalog: tuple[GPU, ...] | None = None) -> GPU:
    """The GPU with ``gpu_id``; a ValidationError on the Scenario's ``gpu`` field otherwise."""
    catalog = catalog if catalog is not None else load_catalog()
    folded = gpu_id.casefold()
    for gpu in catalog:
        if gpu.id == gpu_id:
            return gpu
    named = [gpu for gpu in catalog if folded in (gpu.id.casefold(), gpu.name.casefold())]
    if len(named) == 1:
        return named[0]
    ids = [gpu.id for gpu in catalog]
    known = ", ".join(ids[:16]) + (f", … {len(ids)} in all" if len(ids) > 16 else "")
    message = unknown_name("GPU", gpu_id[:100], ids, f"known: {known}")
    raise field_error("Scenario", ("gpu",), message, gpu_id)
