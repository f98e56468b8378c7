"""ParamTally: with a command, the headless CLI (no Qt import); without one, the window."""

from __future__ import annotations

import os
import sys


def main() -> int:
    # ParamTally uses no pydantic plugins; not scanning every installed package's entry points
    # for them saves ~7 ms of each start (measured). A user's own setting wins.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "1")
    from core.cli import COMMANDS

    argv = sys.argv[1:]
    if argv and (argv[0] in COMMANDS or argv[0] in {"-h", "--help"}):
        from core.cli import main as cli_main

        return cli_main(argv)
    try:
        from gui.app import run_app
    except ImportError as exc:  # the window needs PySide6; the CLI never does
        print(f"paramtally: cannot open the window ({exc}); try `paramtally --help`", file=sys.stderr)
        return 2
    return run_app(argv)


if __name__ == "__main__":
    sys.exit(main())
