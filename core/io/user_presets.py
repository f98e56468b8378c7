"""User presets: one JSON file per preset in ``user_config_dir("paramtally")/presets``.

A user preset may shadow a built-in id. Every write is atomic (``core.io.atomic``); reading and
listing never write, so a broken or newer-version file stays exactly as it is until the person
deletes or replaces it. The one exception: temporary files a killed save left behind
(``core.io.atomic.TEMP_PATTERN``) are removed on the first look into the folder once an hour old.

Every entry named ``<id>.json`` in the folder is a user preset, whatever it is: one that cannot
be read (a FIFO, a dangling link, a folder, no permission) is listed as broken with the reason,
and ``delete`` removes it (a folder excepted). A folder that cannot be read at all is said once,
as a warning, and the built-in presets keep working.
"""

from __future__ import annotations

import os
import stat
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import platformdirs

from paramtally.core.errors import ParamTallyError, ParamTallyWarning, one_line, unknown_name
from paramtally.core.io import presets
from paramtally.core.io.atomic import STALE_TEMP_SECONDS, TEMP_PATTERN, AlreadyExists, write_bytes_atomic
from paramtally.core.io.presets import Preset
from paramtally.core.schema import Architecture
from paramtally.core.text import say

if TYPE_CHECKING:
    from paramtally.core.memory.scenario import Scenario

__all__ = [
    "STALE_TEMP_SECONDS",
    "PresetEntry",
    "PresetsWarning",
    "delete",
    "duplicate",
    "export",
    "id_for_file",
    "id_from_name",
    "import_file",
    "is_user",
    "list_presets",
    "load",
    "load_preset",
    "presets_dir",
    "rename",
    "resolve_id",
    "save",
    "saved_scenario",
    "user_ids",
    "user_path",
]

Origin = Literal["builtin", "user"]
_swept: set[Path] = set()  # folders whose stale temporary files were removed in this process


class PresetsWarning(ParamTallyWarning):
    """The user presets folder could not be read; the built-in presets still work."""


@dataclass(frozen=True, slots=True)
class PresetEntry:
    """One row of the preset list. ``problem`` is the reason a file cannot be loaded, else ''."""

    id: str
    origin: Origin
    path: Path
    name: str = ""
    problem: str = ""
    shadows_builtin: bool = False

    @property
    def broken(self) -> bool:
        return bool(self.problem)

    @property
    def label(self) -> str:
        """What the list says about it: built-in, user, shadows built-in, broken."""
        words = ["built-in" if self.origin == "builtin" else "user"]
        if self.shadows_builtin:
            words.append("shadows built-in")
        if self.broken:
            words.append("broken")
        return ", ".join(words)


def presets_dir() -> Path:
    # Asked each time so that XDG_CONFIG_HOME (and the test fixture setting it) is honoured.
    return Path(platformdirs.user_config_dir("paramtally")) / "presets"


def user_path(preset_id: str) -> Path:
    return presets_dir() / f"{presets.check_preset_id(preset_id)}.json"


def user_ids() -> list[str]:
    return sorted(name.removesuffix(".json") for name in _user_names())


def _user_names() -> list[str]:
    """Names of the user presets folder's ``*.json`` entries (any kind); a folder fault is warned."""
    folder = presets_dir()
    try:
        with os.scandir(folder) as entries:
            names = [entry.name for entry in entries]
    except FileNotFoundError:
        return []
    except OSError as exc:
        _folder_fault(folder, exc)
        return []
    _sweep_stale_temp_files(folder, names)
    return [name for name in names if name.endswith(".json") and not name.startswith(".")]


def _folder_fault(folder: Path, exc: OSError) -> None:
    warnings.warn(
        say(
            "{folder}: cannot read the user presets ({exc}); built-in presets still work",
            folder=folder,
            exc=exc.strerror or str(exc),
        ),
        PresetsWarning,
        stacklevel=3,
    )


def _sweep_stale_temp_files(folder: Path, names: list[str]) -> None:
    """Remove temporary files of killed saves (ours by name, regular files, an hour old), once."""
    if folder in _swept:
        return
    _swept.add(folder)
    now = time.time()
    for name in names:
        if not TEMP_PATTERN.fullmatch(name):
            continue
        path = folder / name
        try:
            info = path.lstat()
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_TEMP_SECONDS:
                path.unlink()
        except OSError:
            continue  # gone already, or not ours to remove


def _user_entry(preset_id: str) -> Path | None:
    """The folder entry of user preset ``preset_id`` (whatever kind of file it is), if there is one."""
    if not _is_id(preset_id):
        return None
    path = presets_dir() / f"{preset_id}.json"
    try:
        path.lstat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        _folder_fault(path.parent, exc)
        return None
    return path


def list_presets() -> list[PresetEntry]:
    """Built-in and user presets, sorted by id; each user file is read (never written) to check it."""
    builtin = presets.builtin_names()
    entries = [
        PresetEntry(preset_id, "builtin", presets.BUILTIN_DIR / f"{preset_id}.json", name=name)
        for preset_id, name in builtin.items()
    ]
    for preset_id in user_ids():
        entries.append(_entry(preset_id, "user", presets_dir() / f"{preset_id}.json", preset_id in builtin))
    return sorted(entries, key=lambda entry: (entry.id.lower(), entry.origin != "user"))


def _entry(preset_id: str, origin: Origin, path: Path, shadows: bool = False) -> PresetEntry:
    try:
        arch = _load_file(path).architecture
    except ParamTallyError as exc:
        return PresetEntry(preset_id, origin, path, problem=str(exc), shadows_builtin=shadows)
    return PresetEntry(preset_id, origin, path, name=arch.name, shadows_builtin=shadows)


def _load_file(path: Path) -> Preset:
    """A preset file; a link leading nowhere says so (rather than 'no such file')."""
    try:
        return presets.read_preset_file(path)
    except ParamTallyError as exc:
        raise ParamTallyError(_dangling(path) or one_line(exc)) from None


def _dangling(path: Path) -> str:
    """Why a symbolic link leads nowhere ('' when it is no link or leads somewhere)."""
    target = "?"
    try:
        if not path.is_symlink():
            return ""
        target = os.readlink(path)
        path.stat()
    except FileNotFoundError:
        return say("{name}: a symbolic link to {target}, which does not exist", name=path.name, target=target)
    except OSError as exc:  # a loop of links
        return say(
            "{name}: a symbolic link that cannot be followed ({exc})",
            name=path.name,
            exc=exc.strerror or str(exc),
        )
    return ""


def load(preset_id: str) -> Architecture:
    """The user preset with this id if there is one (if broken, its error), else the built-in one.

    A name that is no id may still be one preset's id or display name in other letter case
    (``Llama-3-8B``); otherwise the error suggests the closest ids.
    """
    return load_preset(preset_id).architecture


def load_preset(preset_id: str) -> Preset:
    """``load`` with the scenario a user preset was saved with (built-in presets have none)."""
    resolved = resolve_id(preset_id)
    path = _user_entry(resolved)
    return _load_file(path) if path is not None else Preset(presets.load_builtin(resolved))


def saved_scenario(preset: Preset, origin: str) -> Scenario | None:
    """The scenario ``preset`` was saved with, as the window reads it back (``saved_scenario_data``)."""
    from paramtally.core.memory.scenario import saved_scenario_data  # late: listing presets never needs it

    return saved_scenario_data(preset.scenario, origin)


def resolve_id(name: str) -> str:
    """The id ``load(name)`` reads: ``name`` itself, or the one preset whose id or display name it is."""
    if _user_entry(name) is not None or name in presets.builtin_ids():
        return name
    return _resolve_name(name)


def _resolve_name(name: str) -> str:
    entries = list_presets()
    folded = name.casefold()
    matches = {e.id for e in entries if folded in (e.id.casefold(), e.name.casefold() if e.name else None)}
    if len(matches) == 1:
        return matches.pop()
    if matches:
        raise ParamTallyError(
            say(
                "'{name}' names several presets ({ids}); give the id",
                name=name,
                ids=", ".join(sorted(matches)),
            )
        )
    ids = [entry.id for entry in entries]
    raise ParamTallyError(unknown_name(say("preset"), name, ids, say("try `paramtally presets list`")))


def is_user(preset_id: str) -> bool:
    return _user_entry(preset_id) is not None


def save(
    preset_id: str, arch: Architecture, *, overwrite: bool = True, scenario: dict[str, Any] | None = None
) -> Path:
    """Write ``arch`` (and the ``scenario`` to keep with it) as the user preset ``preset_id``,
    atomically; returns the file.

    Without ``overwrite`` the name is claimed exclusively: of two saves racing for a new id,
    one succeeds and the other says the preset exists.
    """
    path = user_path(preset_id)
    data = _preset_bytes(arch, preset_id, scenario)
    exists = ParamTallyError(say("a user preset '{id}' already exists ({path})", id=preset_id, path=path))
    if not overwrite and _user_entry(preset_id) is not None:
        raise exists
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ParamTallyError(
            say("cannot create {folder}: {exc}", folder=path.parent, exc=exc.strerror or str(exc))
        ) from None
    _sweep_stale_temp_files(path.parent, _names_in(path.parent))
    try:
        write_bytes_atomic(path, data, exclusive=not overwrite)
    except AlreadyExists:  # another save took the name since the look above
        raise exists from None
    return path


def _preset_bytes(arch: Architecture, preset_id: str, scenario: dict[str, Any] | None) -> bytes:
    """The preset's file; refused when larger than a preset may be (it could not be loaded back)."""
    data = presets.dump_preset(arch, scenario).encode("utf-8")
    if len(data) > presets.MAX_PRESET_BYTES:
        raise ParamTallyError(
            say(
                "preset '{id}' would be {size:,} bytes, more than the {most:,} a preset may have; "
                "it was not written",
                id=preset_id,
                size=len(data),
                most=presets.MAX_PRESET_BYTES,
            )
        )
    return data


def _names_in(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


def _save_copy(preset: Preset, new_id: str) -> Path:
    return save(new_id, preset.architecture, overwrite=False, scenario=preset.scenario)


def duplicate(source_id: str, new_id: str) -> Path:
    """Copy any preset (user or built-in, with its scenario) to a new user preset; never overwrites."""
    return _save_copy(load_preset(source_id), new_id)


def rename(old_id: str, new_id: str) -> Path:
    """Give a user preset a new id. The new file is written before the old one goes."""
    if not is_user(old_id):
        raise ParamTallyError(say("'{id}' is not a user preset; only user presets can be renamed", id=old_id))
    if old_id == new_id:
        return user_path(old_id)
    path = _save_copy(load_preset(old_id), new_id)
    user_path(old_id).unlink()
    return path


def delete(preset_id: str) -> Path:
    """Remove a user preset's file (a broken one too). Built-in presets cannot be deleted."""
    path = _user_entry(preset_id)
    if path is None:
        known = preset_id in presets.builtin_ids()
        refusal = (
            say("'{id}' is built in and cannot be deleted", id=preset_id)
            if known
            else say("'{id}' is not a user preset", id=preset_id)
        )
        raise ParamTallyError(refusal)
    if path.is_dir() and not path.is_symlink():
        raise ParamTallyError(
            say("{path} is a folder, not a preset file; ParamTally deletes only files", path=path)
        )
    try:
        path.unlink()
    except OSError as exc:
        raise ParamTallyError(
            say("cannot delete {path}: {exc}", path=path, exc=exc.strerror or str(exc))
        ) from None
    return path


def import_file(file: Path, preset_id: str | None = None, *, overwrite: bool = False) -> str:
    """Copy a preset file (any known schema version, or a HF config.json) in as a user preset.

    The copy is written in the current schema; the source file is only read.
    """
    from paramtally.core.io.model_sources import read_source  # sources imports this module

    if not os.path.lexists(file):
        raise ParamTallyError(say("{path}: no such file", path=file))
    new_id = presets.check_preset_id(preset_id) if preset_id is not None else id_for_file(file)
    preset = read_source(str(file))
    save(new_id, preset.architecture, overwrite=overwrite, scenario=preset.scenario)
    return new_id


def id_from_name(name: str) -> str:
    """The id a display name suggests: 'My LLaMA 7B' → 'my-llama-7b'."""
    words = "".join(c if (c.isascii() and c.isalnum()) or c in "._+" else " " for c in name.lower()).split()
    return _id_from_stem("-".join(words))


def id_for_file(file: Path) -> str:
    """The id a file is imported under by default: its stem, or its folder's name for a config.json."""
    stem = Path(os.path.realpath(file)).parent.name if file.stem == "config" else file.stem
    return _id_from_stem(stem)


def export(preset_id: str, file: Path, *, overwrite: bool = False) -> Path:
    """Write a preset (user or built-in) to ``file`` in the current schema, atomically."""
    preset = load_preset(preset_id)
    return export_model(preset.architecture, file, scenario=preset.scenario, overwrite=overwrite)


def export_model(
    arch: Architecture, file: Path, *, scenario: dict[str, Any] | None = None, overwrite: bool = False
) -> Path:
    """Write ``arch`` (and the ``scenario`` to keep with it) to ``file`` as a preset saved under
    that id would hold it, atomically: the model open in the window, edits and all."""
    if os.path.isdir(file):
        raise ParamTallyError(say("{path} is a folder; give a file name", path=file))
    if not overwrite and os.path.lexists(file):
        raise ParamTallyError(say("{path} already exists (use --force to replace it)", path=file))
    data = _preset_bytes(arch, file.stem, scenario)
    write_bytes_atomic(file, data, exclusive=not overwrite)
    return file


def _is_id(preset_id: str) -> bool:
    try:
        presets.check_preset_id(preset_id)
    except ParamTallyError:
        return False
    return True


def _id_from_stem(stem: str) -> str:
    cleaned = "".join(c if (c.isascii() and c.isalnum()) or c in "._+-" else "-" for c in stem)
    # An id names a file '<id>.json': a name ending in .json ('llama (config.json)', the name of
    # every imported config.json) suggested an id that is refused, and Save crashed on it.
    while True:
        cleaned = cleaned[:100].strip("-._+")
        if not cleaned.endswith(".json"):
            break
        cleaned = cleaned.removesuffix(".json")
    return presets.check_preset_id(cleaned or "imported")
