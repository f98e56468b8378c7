"""ParamTally: with a command, the headless CLI (no Qt import); without one, the window."""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence
from typing import NoReturn


def run() -> NoReturn:
    """The ``paramtally`` program (its console script, ``python -m paramtally``, ``python main.py``):
    ``main`` on this process's arguments, in a process that runs nothing else.

    No garbage collection while it starts: its imports (pydantic's models, the schema, Qt's enums)
    made ~100 collections that found nothing to free, 15-25 ms of a window's start; ``main``
    collects again before a command runs, ``run_app`` once the window is made."""
    gc.disable()
    sys.exit(main(own_process=True))


def main(argv: Sequence[str] | None = None, *, own_process: bool = False) -> int:
    """Run a command, or open the window; the exit status. ``own_process``: see ``gui.app.run_app``."""
    args = list(sys.argv[1:] if argv is None else argv)
    from paramtally.core.cli import COMMANDS

    if args and args[0] in COMMANDS:
        from paramtally.core.cli import main as cli_main

        gc.enable()  # off while ``run`` started (a sweep's garbage needs collecting)

        return cli_main(args)
    mistyped = _mistyped_command(args[0]) if args else None
    if mistyped:
        from paramtally.core.text import message_line

        print(
            message_line(f"paramtally: '{args[0]}' is not a command (did you mean {mistyped}?)"),
            file=sys.stderr,
        )
        return 2
    from paramtally.gui.app import run_app  # imports no Qt until a window is really opened

    return run_app(args, own_process=own_process)


def _mistyped_command(word: str) -> str | None:
    """The command ``word`` is a typo of ('memroy' → 'memory'), unless it names something the
    window can open (a file, a folder, a built-in preset)."""
    import os

    from paramtally.core.cli import COMMANDS
    from paramtally.core.errors import close_names

    close = close_names(word, list(COMMANDS), n=1, cutoff=0.75)
    if not close or word.startswith("-") or os.path.lexists(word):
        return None
    from paramtally.core.io.presets import builtin_ids

    return None if word in builtin_ids() else close[0]


if __name__ == "__main__":
    run()
