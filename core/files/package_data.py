"""What the installed package is: its data folders (``presets/``, ``resources/``) and its version.

Found through ``importlib.resources`` so the installed package reads its own files, never paths
relative to a checkout. ParamTally is always installed as plain files (a wheel or an editable
checkout), so a data folder is a real directory.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["data_dir", "version"]


def data_dir(name: str) -> Path:
    """The folder of the package ``paramtally.<name>`` (``presets`` or ``resources``)."""
    folder = resources.files(f"paramtally.{name}")
    if not isinstance(folder, Path):  # a zipped install, which ParamTally does not support
        raise RuntimeError(f"paramtally.{name} is not installed as plain files ({folder!r})")
    return folder


def version() -> str:
    """The installed package's version (package metadata), or "unknown" from a bare checkout."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as package_version

    try:
        return package_version("paramtally")
    except PackageNotFoundError:
        return "unknown"
