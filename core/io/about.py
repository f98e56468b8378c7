"""What the window's Help → About says: the version, the licence and where ParamTally keeps its files.

Each place is asked of the code that reads or writes it (platformdirs through ``user_presets``,
``gpus``, ``recent``, ``error_log`` and ``desktop_entry``), so About names the folders in use on
this machine, ``XDG_CONFIG_HOME`` and the like included. The README ships inside the package, so
the guide opens offline wherever ParamTally is installed.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path

from paramtally.core.files.package_data import data_dir, version
from paramtally.core.io.desktop_entry import entry_paths
from paramtally.core.io.error_log import error_log_path
from paramtally.core.io.recent import recent_path
from paramtally.core.io.user_presets import presets_dir
from paramtally.core.memory.gpus import user_catalog_path
from paramtally.core.text import say

__all__ = ["Location", "licence", "locations", "readme_path", "version"]


@dataclass(frozen=True, slots=True)
class Location:
    title: str
    path: Path
    what: str  # what is kept there, in a few words


def licence() -> str:
    """The licence the package metadata declares (an SPDX expression: "MIT")."""
    try:
        data = metadata.metadata("paramtally")
    except metadata.PackageNotFoundError:
        return "unknown"
    declared = data.get_all("License-Expression") or data.get_all("License") or ["unknown"]
    return str(declared[0])


def readme_path() -> Path:
    """The README, the user's guide, as installed with the package (a checkout's own README when
    installed editable)."""
    return Path(str(resources.files("paramtally"))) / "README.md"


def locations() -> tuple[Location, ...]:
    """Where ParamTally reads and writes its files on this machine, in the order a person looks."""
    desktop_file, _ = entry_paths()
    return (
        Location("Your presets", presets_dir(), say("presets saved from the window or imported")),
        Location(
            "Built-in presets", data_dir("presets"), say("the presets shipped with ParamTally (read only)")
        ),
        Location(
            "Your GPU catalog", user_catalog_path(), say("GPU kinds added to the built-in ones, or prices")
        ),
        Location("Recent models", recent_path(), say("File → Open Recent")),
        Location(
            "Error log", error_log_path(), say("the trace of an unexpected error, to attach to a report")
        ),
        Location("Desktop entry", desktop_file, say("written by `paramtally desktop-entry install`")),
        Location("User guide", readme_path(), say("the README, shown by Help → User Guide")),
    )
