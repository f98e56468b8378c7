"""What the installed package is: its data folders (``presets/``, ``resources/``) and its version.

Found where the import system found the data package, so the installed package reads its own
files, never paths relative to a checkout. ParamTally is always installed as plain files (a wheel
or an editable checkout), so a data folder is a real directory.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

__all__ = ["data_dir", "version"]


def data_dir(name: str) -> Path:
    """The folder of the package ``paramtally.<name>`` (``presets`` or ``resources``): the folder its
    ``__init__.py`` was imported from, what ``importlib.resources.files`` answers for a package of
    plain files (whose import, ``tempfile`` and ``zipfile`` with it, was 4 ms of every count)."""
    origin = import_module(f"paramtally.{name}").__file__
    folder = Path(origin).parent if origin else None
    if folder is None or not folder.is_dir():  # a zipped install, which ParamTally does not support
        raise RuntimeError(f"paramtally.{name} is not installed as plain files ({origin!r})")
    return folder


def version() -> str:
    """The installed package's version (package metadata), or "unknown" from a bare checkout."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as package_version

    try:
        return package_version("paramtally")
    except PackageNotFoundError:
        return "unknown"
