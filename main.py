"""ParamTally: with a command, the headless CLI (no Qt import); without one, the window."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    from paramtally.core.cli import COMMANDS

    if args and args[0] in COMMANDS:
        from paramtally.core.cli import main as cli_main

        return cli_main(args)
    from paramtally.gui.app import run_app  # imports no Qt until a window is really opened

    return run_app(args)


if __name__ == "__main__":
    sys.exit(main())
