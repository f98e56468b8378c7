"""A model folder someone downloaded: every file ParamTally reads from it must lie inside it.

Names come from the folder's listing and from files in it (``model.safetensors.index.json``
names its shards), so they are untrusted: ``../outside/x.safetensors``, ``/etc/passwd`` or a
shard that is a symbolic link to ``/dev/zero`` must not be opened. ``member`` resolves a name
(following every symbolic link, opening nothing) and refuses it unless it lands inside the
folder; the file is then opened without following links (``O_NOFOLLOW``) and only if it is a
regular file (``core.files.input_files``).

One place outside counts as inside: a Hugging Face hub cache keeps a revision's files in
``…/snapshots/<revision>/`` as links into the same repository's ``…/blobs/``, so for a
snapshot folder that ``blobs`` folder is part of it.
"""

from __future__ import annotations

from pathlib import Path, PurePath
from typing import BinaryIO

from paramtally.core.errors import ParamTallyError, shown
from paramtally.core.files.input_files import load_json_file, open_regular
from paramtally.core.text import say

__all__ = ["ModelFolder"]


class ModelFolder:
    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.root = path.resolve(strict=True)
        except (OSError, RuntimeError) as exc:
            raise ParamTallyError(
                say("{path}: cannot open the folder ({exc})", path=path, exc=str(exc))
            ) from None
        inside = [self.root]
        if self.root.parent.name == "snapshots":  # the Hugging Face hub cache's layout
            inside.append(self.root.parent.parent / "blobs")
        self.inside = tuple(inside)

    def listed(self, pattern: str) -> list[str]:
        """Names in the folder matching ``pattern`` (names only: nothing is resolved or opened)."""
        try:
            return sorted(path.name for path in self.path.glob(pattern))
        except OSError as exc:
            raise ParamTallyError(
                say("{path}: cannot list the folder ({why})", path=self.path, why=exc.strerror or str(exc))
            ) from None

    def member(self, name: str, named_by: str = "") -> Path:
        """``name`` resolved (symbolic links followed) if it lies inside; a refusal says why."""
        where = say("{named_by}: names {name}", named_by=named_by, name=shown(name)) if named_by else name
        if not name or PurePath(name).is_absolute():
            raise ParamTallyError(
                say("{where}, not a file name inside {folder}; refused", where=where, folder=self.path)
            )
        if "\x00" in name:  # no file name holds one (os functions raise ValueError)
            raise ParamTallyError(
                say("{where}, which holds a NUL byte, not a file name; refused", where=where)
            )
        try:
            target = (self.root / name).resolve()
        except (OSError, RuntimeError) as exc:  # a symbolic-link loop, a name too long
            raise ParamTallyError(
                say(
                    "{where}, which cannot be resolved ({error}: {exc}); refused",
                    where=where,
                    error=exc.__class__.__name__,
                    exc=str(exc),
                )
            ) from None
        if not any(target.is_relative_to(folder) for folder in self.inside):
            raise ParamTallyError(
                say(
                    "{where}, which leads outside the folder (to {target}); "
                    "only files inside {folder} are read",
                    where=where,
                    target=target,
                    folder=self.path,
                )
            )
        return target

    def has(self, name: str) -> bool:
        """Whether ``name`` exists inside (a link leading outside counts as present: reading refuses it)."""
        try:
            return (self.path / name).exists() or (self.path / name).is_symlink()
        except (OSError, ValueError):  # e.g. no permission to look: reading it will say so
            return True

    def open(self, name: str, named_by: str = "") -> BinaryIO:
        return open_regular(self.member(name, named_by), _label(name), nofollow=True)

    def load_json(self, name: str, limit: int, max_keys: int | None = None) -> object:
        return load_json_file(self.member(name), limit, _label(name), nofollow=True, max_keys=max_keys)


def _label(name: str) -> str:
    """A file name as a message shows it: a name from a hostile index may be 10,000 characters."""
    return name if len(name) <= 100 else name[:99] + "…"
