"""Put ParamTally in the desktop's application menu: a freedesktop ``.desktop`` file and its icon.

Both go to the user's XDG data dir (``$XDG_DATA_HOME``, else ``~/.local/share``, via platformdirs):
``applications/paramtally.desktop`` and ``icons/hicolor/scalable/apps/paramtally.svg``, the places
the Desktop Entry and Icon Theme specifications name. Writes are atomic; uninstall removes only
these two files.
"""

from __future__ import annotations

import sys
from pathlib import Path

import platformdirs

from paramtally.core.errors import ParamTallyError
from paramtally.core.files.package_data import data_dir
from paramtally.core.io.atomic import write_bytes_atomic, write_text_atomic
from paramtally.core.text import say

__all__ = ["APP_ID", "entry_paths", "entry_text", "install", "uninstall"]

APP_ID = "paramtally"


def entry_paths(data_home: Path | None = None) -> tuple[Path, Path]:
    """Where the ``.desktop`` file and the icon go."""
    base = data_home if data_home is not None else Path(platformdirs.user_data_dir())
    return (
        base / "applications" / f"{APP_ID}.desktop",
        base / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg",
    )


_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


def _quote(argument: str) -> str:
    """One Exec argument, quoted as the Desktop Entry spec says (double quotes, never single)."""
    if not _RESERVED & set(argument):
        return argument
    escaped = "".join("\\" + char if char in '"`$\\' else char for char in argument)
    return f'"{escaped}"'


def _exec_line() -> str:
    # The interpreter that runs this very install, so the menu starts the same ParamTally
    # (a venv's python needs no activation). %f: a config.json or preset the desktop hands over.
    command = " ".join(_quote(part) for part in (sys.executable, "-m", APP_ID))
    return command.replace("\\", "\\\\") + " %f"  # the spec's string escaping comes on top


def entry_text() -> str:
    return "\n".join(
        [
            "[Desktop Entry]",
            "Type=Application",
            "Version=1.5",
            "Name=ParamTally",
            "GenericName=Transformer size calculator",
            "Comment=Exact parameter counts, memory and FLOPs of transformer language models",
            f"Exec={_exec_line()}",
            f"Icon={APP_ID}",
            "Terminal=false",
            "Categories=Development;Science;",
            "MimeType=application/json;",
            f"StartupWMClass={APP_ID}",
            "Keywords=LLM;transformer;parameters;GPU;memory;",
            "",
        ]
    )


def install(data_home: Path | None = None) -> tuple[Path, Path]:
    entry, icon = entry_paths(data_home)
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        icon.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ParamTallyError(
            say("cannot create {name}: {why}", name=exc.filename, why=exc.strerror or str(exc))
        ) from None
    write_bytes_atomic(icon, (data_dir("resources") / f"{APP_ID}.svg").read_bytes())
    write_text_atomic(entry, entry_text())
    return entry, icon


def uninstall(data_home: Path | None = None) -> list[Path]:
    """Remove the two files; the ones that were there are returned."""
    removed = []
    for path in entry_paths(data_home):
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise ParamTallyError(
                say("cannot remove {path}: {why}", path=path, why=exc.strerror or str(exc))
            ) from None
        removed.append(path)
    return removed
