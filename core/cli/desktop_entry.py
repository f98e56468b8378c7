"""``paramtally desktop-entry install|uninstall``: the application-menu entry and its icon."""

from __future__ import annotations

import argparse

from paramtally.core.io import desktop_entry

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "action",
        choices=("install", "uninstall"),
        help="install writes paramtally.desktop and its icon to the user's XDG data dir; "
        "uninstall removes them",
    )


def run(args: argparse.Namespace) -> int:
    if args.action == "install":
        for path in desktop_entry.install():
            print(f"wrote {path}")
        return 0
    removed = desktop_entry.uninstall()
    for path in removed:
        print(f"removed {path}")
    if not removed:
        print("no desktop entry was installed")
    return 0
