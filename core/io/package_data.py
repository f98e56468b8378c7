"""Data folders shipped inside the installed package (``presets/``, ``resources/``).

Found through ``importlib.resources`` so the installed package reads its own files, never paths
relative to a checkout. ParamTally is always installed as plain files (a wheel or an editable
checkout), so a data folder is a real directory.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["data_dir"]


def data_dir(name: str) -> Path:
    """The folder of the package ``paramtally.<name>`` (``presets`` or ``resources``)."""
    folder = resources.files(f"paramtally.{name}")
    if not isinstance(folder, Path):  # a zipped install, which ParamTally does not support
        raise RuntimeError(f"paramtally.{name} is not installed as plain files ({folder!r})")
    return folder
