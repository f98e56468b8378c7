"""User presets: one JSON file per preset in ``user_config_dir("paramtally")/presets``.

A user preset may shadow a built-in id. Every write is atomic (``core.atomic``); reading and
listing never write, so a broken or newer-version file stays exactly as it is until the person
deletes or replaces it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import platformdirs

from paramtally.core import presets
from paramtally.core.atomic import write_text_atomic
from paramtally.core.errors import ParamTallyError, unknown_name
from paramtally.core.presets import Preset
from paramtally.core.schema import Architecture

__all__ = [
    "PresetEntry",
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
    "user_ids",
    "user_path",
]

Origin = Literal["builtin", "user"]


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
    folder = presets_dir()
    try:
        return sorted(path.stem for path in folder.glob("*.json") if not path.name.startswith("."))
    except OSError:
        return []


def list_presets() -> list[PresetEntry]:
    """Built-in and user presets, sorted by id; each file is read (never written) to check it."""
    builtin = set(presets.builtin_ids())
    entries = [
        _entry(preset_id, "builtin", presets.BUILTIN_DIR / f"{preset_id}.json") for preset_id in builtin
    ]
    for preset_id in user_ids():
        entries.append(_entry(preset_id, "user", presets_dir() / f"{preset_id}.json", preset_id in builtin))
    return sorted(entries, key=lambda entry: (entry.id.lower(), entry.origin != "user"))


def _entry(preset_id: str, origin: Origin, path: Path, shadows: bool = False) -> PresetEntry:
    try:
        arch = presets.load_preset_file(path)
    except ParamTallyError as exc:
        return PresetEntry(preset_id, origin, path, problem=str(exc), shadows_builtin=shadows)
    return PresetEntry(preset_id, origin, path, name=arch.name, shadows_builtin=shadows)


def load(preset_id: str) -> Architecture:
    """The user preset with this id if there is one (if broken, its error), else the built-in one.

    A name that is no id may still be one preset's id or display name in other letter case
    (``Llama-3-8B``); otherwise the error suggests the closest ids.
    """
    return load_preset(preset_id).architecture


def load_preset(preset_id: str) -> Preset:
    """``load`` with the scenario a user preset was saved with (built-in presets have none)."""
    resolved = resolve_id(preset_id)
    path = presets_dir() / f"{resolved}.json"
    return presets.read_preset_file(path) if path.is_file() else Preset(presets.load_builtin(resolved))


def resolve_id(name: str) -> str:
    """The id ``load(name)`` reads: ``name`` itself, or the one preset whose id or display name it is."""
    if (_is_id(name) and (presets_dir() / f"{name}.json").is_file()) or name in presets.builtin_ids():
        return name
    return _resolve_name(name)


def _resolve_name(name: str) -> str:
    entries = list_presets()
    folded = name.casefold()
    matches = {e.id for e in entries if folded in (e.id.casefold(), e.name.casefold() if e.name else None)}
    if len(matches) == 1:
        return matches.pop()
    if matches:
        raise ParamTallyError(f"'{name}' names several presets ({', '.join(sorted(matches))}); give the id")
    ids = [entry.id for entry in entries]
    raise ParamTallyError(unknown_name("preset", name, ids, "try `paramtally presets list`"))


def is_user(preset_id: str) -> bool:
    return _is_id(preset_id) and (presets_dir() / f"{preset_id}.json").is_file()


def save(
    preset_id: str, arch: Architecture, *, overwrite: bool = True, scenario: dict[str, Any] | None = None
) -> Path:
    """Write ``arch`` (and the ``scenario`` to keep with it) as the user preset ``preset_id``,
    atomically; returns the file."""
    path = user_path(preset_id)
    if not overwrite and path.exists():
        raise ParamTallyError(f"a user preset '{preset_id}' already exists ({path})")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ParamTallyError(f"cannot create {path.parent}: {exc.strerror or exc}") from None
    write_text_atomic(path, presets.dump_preset(arch, scenario))
    return path


def _save_copy(preset: Preset, new_id: str) -> Path:
    return save(new_id, preset.architecture, overwrite=False, scenario=preset.scenario)


def duplicate(source_id: str, new_id: str) -> Path:
    """Copy any preset (user or built-in, with its scenario) to a new user preset; never overwrites."""
    return _save_copy(load_preset(source_id), new_id)


def rename(old_id: str, new_id: str) -> Path:
    """Give a user preset a new id. The new file is written before the old one goes."""
    if not is_user(old_id):
        raise ParamTallyError(f"'{old_id}' is not a user preset; only user presets can be renamed")
    if old_id == new_id:
        return user_path(old_id)
    path = _save_copy(load_preset(old_id), new_id)
    user_path(old_id).unlink()
    return path


def delete(preset_id: str) -> Path:
    """Remove a user preset's file (a broken one too). Built-in presets cannot be deleted."""
    if not is_user(preset_id):
        known = preset_id in presets.builtin_ids()
        reason = "is built in and cannot be deleted" if known else "is not a user preset"
        raise ParamTallyError(f"'{preset_id}' {reason}")
    path = user_path(preset_id)
    try:
        path.unlink()
    except OSError as exc:
        raise ParamTallyError(f"cannot delete {path}: {exc.strerror or exc}") from None
    return path


def import_file(file: Path, preset_id: str | None = None, *, overwrite: bool = False) -> str:
    """Copy a preset file (any known schema version, or a HF config.json) in as a user preset.

    The copy is written in the current schema; the source file is only read.
    """
    from paramtally.core.sources import read_source  # sources imports this module

    if not file.is_file():
        raise ParamTallyError(f"{file}: no such file")
    preset = read_source(str(file))
    new_id = preset_id or id_for_file(file)
    save(new_id, preset.architecture, overwrite=overwrite, scenario=preset.scenario)
    return new_id


def id_from_name(name: str) -> str:
    """The id a display name suggests: 'My LLaMA 7B' → 'my-llama-7b'."""
    words = "".join(c if (c.isascii() and c.isalnum()) or c in "._+" else " " for c in name.lower()).split()
    return _id_from_stem("-".join(words))


def id_for_file(file: Path) -> str:
    """The id a file is imported under by default: its stem, or its folder's name for a config.json."""
    stem = file.resolve().parent.name if file.stem == "config" else file.stem
    return _id_from_stem(stem)


def export(preset_id: str, file: Path, *, overwrite: bool = False) -> Path:
    """Write a preset (user or built-in) to ``file`` in the current schema, atomically."""
    preset = load_preset(preset_id)
    if file.is_dir():
        raise ParamTallyError(f"{file} is a folder; give a file name")
    if not overwrite and file.exists():
        raise ParamTallyError(f"{file} already exists (use --force to replace it)")
    write_text_atomic(file, presets.dump_preset(preset.architecture, preset.scenario))
    return file


def _is_id(preset_id: str) -> bool:
    try:
        presets.check_preset_id(preset_id)
    except ParamTallyError:
        return False
    return True


def _id_from_stem(stem: str) -> str:
    cleaned = "".join(c if (c.isascii() and c.isalnum()) or c in "._+-" else "-" for c in stem)
    cleaned = cleaned.strip("-._+") or "imported"
    return presets.check_preset_id(cleaned[:100])
