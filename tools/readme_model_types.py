#!/usr/bin/env python3
"""Write the README's list of the model types the importer reads, from the family registry
(core/families/): one line per family module, its aliases with the type they are
read as. The list sits between two markers in README.md; nothing else is touched.

    python tools/readme_model_types.py            # rewrite the section
    python tools/readme_model_types.py --check    # write nothing; exit 1 if the README differs
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from paramtally.core.families import families, supported_model_types  # noqa: E402
from paramtally.core.io.atomic import write_text_atomic  # noqa: E402

README = ROOT / "README.md"
BEGIN = "<!-- model types: written by tools/readme_model_types.py from core/families/ -->"
END = "<!-- end of model types -->"


def section() -> str:
    """The list, markers included."""
    lines = [
        BEGIN,
        f"Importers read published `config.json` files of {len(supported_model_types())} model types,",
        "one module per family in `core/families/`:",
        "",
    ]
    for family in sorted(families(), key=lambda family: family.title.casefold()):
        names = ", ".join(f"`{kind.name}`" for kind in family.types)
        aliases = [f"`{alias}` (read as `{kind.name}`)" for kind in family.types for alias in kind.aliases]
        also = f"; also {', '.join(aliases)}" if aliases else ""
        lines.append(f"- {family.title}: {names}{also}")
    return "\n".join([*lines, END])


def rewritten(text: str) -> str:
    """``text`` (the README) with its section replaced by the current one."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"{README.name}: the markers of the model-type list are missing")
    return text[:start] + section() + text[end + len(END) :]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the README differs")
    args = parser.parse_args(argv)
    text = README.read_text(encoding="utf-8")
    new = rewritten(text)
    if args.check:
        if new != text:
            print(
                f"{README.name}: the list of model types differs from the registry; "
                "run python tools/readme_model_types.py",
                file=sys.stderr,
            )
            return 1
        return 0
    if new != text:
        write_text_atomic(README, new)
    print(f"{README.name}: {len(supported_model_types())} model types in {len(families())} families")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
