"""ParamTally: with a command, the headless CLI (no Qt import); without one, the window."""

from __future__ import annotations

import sys


def main() -> int:
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
