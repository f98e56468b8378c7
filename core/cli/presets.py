"""``paramtally presets list|show|import|export|delete``: built-in and user presets."""

from __future__ import annotations

import argparse
import sys
import warnings

from paramtally.core.cli.output import emit, emit_json, format_table
from paramtally.core.count.breakdown import human
from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyWarning
from paramtally.core.files.input_files import typed_path
from paramtally.core.io import presets, user_presets

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # Without an ACTION it lists them: 'paramtally presets' is what a person types first.
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    listing = actions.add_parser(
        "list", help="every preset: built-in, user (shadowing?) or broken (the default)"
    )
    listing.add_argument("--format", choices=("table", "json"), default="table", help="output format")
    show = actions.add_parser("show", help="print one preset (user first, then built-in)")
    show.add_argument("id", metavar="ID")
    show.add_argument("--format", choices=("json", "table"), default="json", help="output format")
    imp = actions.add_parser("import", help="copy a preset file or config.json in as a user preset")
    imp.add_argument("file", metavar="FILE")
    imp.add_argument("--id", help="preset id (default: the file's name; a config.json's folder name)")
    imp.add_argument("--force", action="store_true", help="replace a user preset with the same id")
    exp = actions.add_parser("export", help="write a preset to a file")
    exp.add_argument("id", metavar="ID")
    exp.add_argument("file", metavar="FILE")
    exp.add_argument("--force", action="store_true", help="replace FILE if it exists")
    delete = actions.add_parser("delete", help="delete a user preset's file")
    delete.add_argument("id", metavar="ID")


def run(args: argparse.Namespace) -> int:
    action: str = args.action or "list"
    if action == "list":
        return _list(getattr(args, "format", "table"))
    if action == "show":
        return _show(args.id, args.format)
    if action == "import":
        new_id = user_presets.import_file(typed_path(args.file), args.id, overwrite=args.force)
        print(f"imported {args.file} as user preset '{new_id}' ({user_presets.user_path(new_id)})")
        if new_id in presets.builtin_ids():  # a config.json named as the model is: 'gemma-2b.json'
            warnings.warn(
                f"{new_id}: a built-in preset has this id; commands and the window now read yours "
                f"(`paramtally presets delete {new_id}` brings the built-in back; --id imports "
                "under another id)",
                ParamTallyWarning,
                stacklevel=2,
            )
    elif action == "export":
        path = user_presets.export(args.id, typed_path(args.file), overwrite=args.force)
        print(f"wrote preset '{args.id}' to {path}")
    elif action == "delete":
        path = user_presets.delete(args.id)
        print(f"deleted user preset '{args.id}' ({path})")
    return 0


def _list(fmt: str) -> int:
    entries = user_presets.list_presets()
    if fmt == "json":
        emit_json(
            [
                {
                    "id": entry.id,
                    "origin": entry.origin,
                    "shadows_builtin": entry.shadows_builtin,
                    "broken": entry.broken,
                    "problem": entry.problem,
                    "name": entry.name,
                    "path": str(entry.path),
                }
                for entry in entries
            ],
            None,
        )
        return 0
    rows = [[entry.id, entry.label, entry.problem or entry.name] for entry in entries]
    emit(format_table(["id", "kind", "name / problem"], rows), None)
    print(f"user presets: {user_presets.presets_dir()}", file=sys.stderr)
    return 0


def _show(preset_id: str, fmt: str) -> int:
    arch = user_presets.load(preset_id)
    if fmt == "json":
        emit(presets.dump_preset(arch), None)
        return 0
    origin = "user" if user_presets.is_user(preset_id) else "built-in"
    report = count_parameters(arch)
    rows = [
        ["id", preset_id],
        ["kind", origin],
        ["name", arch.name],
        ["layers", str(arch.num_layers)],
        ["hidden size", str(arch.hidden_size)],
        ["parameters", f"{report.total:,} ({human(report.total)})"],
    ]
    emit(format_table(["field", "value"], rows), None)
    return 0
