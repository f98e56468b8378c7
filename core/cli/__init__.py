"""The headless command line: ``paramtally SUBCOMMAND …``. Imports no Qt.

Each subcommand lives in its own module with ``add_arguments(parser)`` and ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from collections.abc import Sequence
from typing import Any, NoReturn

from pydantic import ValidationError

from paramtally.core.errors import ParamTallyError, ParamTallyWarning, one_line
from paramtally.core.files.package_data import version
from paramtally.core.text import message_line

__all__ = ["BUG_STATUS", "COMMANDS", "OneLineParser", "main"]

# Each command is the module ``paramtally.core.cli.<name>`` (dashes as underscores).
COMMANDS: dict[str, str] = {
    "count": "exact parameter count and breakdown",
    "memory": "memory per GPU, FLOPs and which GPU setups fit",
    "report": "a design report (HTML or Markdown): the derivation, memory, GPU setups and FLOPs",
    "compare": "architectures side by side: figures, parts, GPU setups, schema diff",
    "solve": "goal-seek: the value of one field that meets a target",
    "sweep": "one figure over a grid of two fields (the design space)",
    "verify": "compare a checkpoint's tensors (headers only) with the prediction",
    "presets": "list, show, import, export and delete presets",
    "desktop-entry": "add ParamTally to (or remove it from) the desktop's application menu",
}


class OneLineParser(argparse.ArgumentParser):
    """argparse's parser, but a usage error is one line naming the option: the full usage (some
    thirty lines with the scenario's flags) is one ``--help`` away. Sub-commands' parsers are of
    this class too (``add_subparsers`` makes its parent's)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras and not hasattr(parsed, _LEFT_OVER_BY):
            # The innermost command returns first: argparse copies this up to its parents.
            setattr(parsed, _LEFT_OVER_BY, self)
        return parsed, extras

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        """As argparse's, but a word no command takes is refused by the command it was given to
        (`paramtally presets export: unrecognized arguments: -o`, pointing at that command's
        --help), not by the top-level parser, whose --help does not list the command's options."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            getattr(parsed, _LEFT_OVER_BY, self).error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed


_LEFT_OVER_BY = "_left_over_by"  # the namespace's note of the innermost parser that left words over


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with ``only`` a command's own arguments alone.

    A command's module is imported only when its arguments are built: ``paramtally count`` then
    loads the counting code and not the sweep's numpy or verify's checkpoint readers, and the
    others are still listed by ``paramtally --help`` from their summaries.
    """
    parser = OneLineParser(
        prog="paramtally",
        description="Exact parameter counts, memory and FLOPs of transformer language models. "
        "Run without a command to open the window.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, summary in COMMANDS.items():
        if only is not None and name != only:
            subparsers.add_parser(name, help=summary, description=summary)
            continue
        module = importlib.import_module(f"{__name__}.{name.replace('-', '_')}")
        sub = subparsers.add_parser(
            name, help=summary, description=summary, epilog=getattr(module, "EPILOG", None)
        )
        module.add_arguments(sub)
        sub.set_defaults(_run=module.run)
    return parser


def _command_of(argv: Sequence[str]) -> str | None:
    """The command ``argv`` runs, read as argparse will: its first word, when that names one."""
    return argv[0] if argv and argv[0] in COMMANDS else None


# A bug's status (sysexits' EX_SOFTWARE): never 1, which ``verify`` gives a checkpoint that differs,
# nor 2, a refused input. Python's own status for an uncaught exception is 1.
BUG_STATUS = 70


def main(argv: Sequence[str] | None = None) -> int:
    _escape_unencodable()
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C: stopped as asked, without a traceback (128 + SIGINT, as shells say)
        return 130
    except Exception as exc:  # a bug: one line and the log's path, and a status no verdict has
        from paramtally.core.io.error_log import log_exception

        log = log_exception(type(exc), exc, exc.__traceback__, version())
        where = f"; the traceback is in {log}" if log else ""
        said = message_line(f"{type(exc).__name__}: {exc}")[:300]
        print(f"paramtally: internal error ({said}), a bug{where}", file=sys.stderr)
        return BUG_STATUS


def _escape_unencodable() -> None:
    """A character the terminal's encoding cannot write (a path's undecodable bytes, under a
    Latin-1 locale '×') shows as an escape rather than stopping the output with a traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):  # a stream already written to in another way
                pass


def _main(argv: Sequence[str] | None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(only=_command_of(words)).parse_args(words)
    with warnings.catch_warnings():
        warnings.simplefilter("always", ParamTallyWarning)
        default, shown = warnings.showwarning, set()

        def show(message: Warning | str, category: type[Warning], *where: Any, **more: Any) -> None:
            # A skipped file is named once per run, however many places read it.
            if not issubclass(category, ParamTallyWarning):
                default(message, category, *where, **more)
            elif str(message) not in shown:
                shown.add(str(message))
                print(f"paramtally: warning: {message_line(str(message))}", file=sys.stderr)

        warnings.showwarning = show
        return _run(args)


def _note_shadowed_presets(args: argparse.Namespace) -> None:
    """A preset id that is both the user's and built in reads the user's: say so, since the same
    command gave the built-in one's figures before that preset was saved."""
    from paramtally.core.cli.output import read_sources
    from paramtally.core.io import presets, user_presets
    from paramtally.core.io.model_sources import is_path

    for source in read_sources(args):
        if not is_path(source) and source in presets.builtin_ids() and user_presets.is_user(source):
            warnings.warn(
                f"{source}: your user preset ({user_presets.user_path(source)}) is read, not the "
                "built-in one of that id",
                ParamTallyWarning,
                stacklevel=2,
            )


def _run(args: argparse.Namespace) -> int:
    # Imported here, not at the top: the window's parser reads COMMANDS and OneLineParser only, and
    # this module's exporters (io.formats) are nothing its first paint shows.
    from paramtally.core.cli.output import check_output

    try:
        check_output(args)
        _note_shadowed_presets(args)
        return int(args._run(args))
    except ParamTallyError as exc:
        print(f"paramtally {args.command}: {message_line(str(exc))}", file=sys.stderr)
    except ValidationError as exc:
        print(f"paramtally {args.command}: {message_line(one_line(exc))}", file=sys.stderr)
    except BrokenPipeError:
        return 0
    return 2
