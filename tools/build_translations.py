"""Regenerate the window's translations: the .ts sources from the code, the .qm from the .ts.

    python tools/build_translations.py            update resources/i18n/*.ts, then build each .qm
    python tools/build_translations.py --qm-only  build each .qm from its .ts (what translators run)

``pyside6-lupdate`` (shipped with PySide6-Essentials) reads every ``translate(context, text)`` /
``QT_TRANSLATE_NOOP`` call under gui/; it cannot see the schema's titles and field descriptions,
which core keeps as data, nor core's sentences (``say("…")`` calls, ``core.text``), so they are
written as ``QT_TRANSLATE_NOOP("Schema", …)`` and ``QT_TRANSLATE_NOOP("Core", …)`` calls into a
temporary file it reads too (``core.explore.shown_titles``; the templates found by reading core's
code). Translations already in a .ts are kept; a text no longer in the code
is dropped (-no-obsolete). Locations are left out so a moved line does not rewrite the file.
``pyside6-lrelease`` compiles each .ts; its output depends on the .ts alone, which
tests/gui/test_translations.py checks against the committed .qm.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "resources" / "i18n"
LANGUAGES = ("zh_CN",)


def tool(name: str) -> str:
    """A Qt tool that ships beside the running Python (the venv's bin)."""
    found = Path(sys.executable).parent / name
    return str(found) if found.exists() else name


def said_templates() -> list[str]:
    """The template of every ``say("…")`` call in core (``core.text``), read from the code: the
    sentences core says (refusals, advice, notes, undo steps), translated in the ``Core`` context."""
    found: set[str] = set()
    for path in sorted((ROOT / "core").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            template = node.args[0]
            if name == "say":
                if not (isinstance(template, ast.Constant) and isinstance(template.value, str)):
                    raise SystemExit(f"{path}:{node.lineno}: say() takes a literal template")
                found.add(template.value)
    return sorted(found)


def schema_calls() -> str:
    """What core gives a person to read, as calls lupdate reads: the schema's titles, row words and
    field descriptions (context ``Schema``), and core's sentences (context ``Core``)."""
    sys.path.insert(0, str(ROOT.parent))
    from paramtally.core.explore.shown_titles import ROW_WORDS, schema_descriptions, schema_titles
    from paramtally.core.text import CONTEXT

    texts = sorted({*schema_titles(), *ROW_WORDS, *schema_descriptions()})
    calls = [f"QT_TRANSLATE_NOOP({'Schema'!r}, {text!r})\n" for text in texts]
    calls += [f"QT_TRANSLATE_NOOP({CONTEXT!r}, {text!r})\n" for text in said_templates()]
    return "".join(calls)


def update_sources() -> None:
    sources = sorted(str(path) for path in (ROOT / "gui").rglob("*.py"))
    with tempfile.TemporaryDirectory() as folder:
        titles = Path(folder) / "schema_titles.py"
        titles.write_text(schema_calls(), encoding="utf-8")
        for language in LANGUAGES:
            ts = I18N / f"paramtally_{language}.ts"
            command = [tool("pyside6-lupdate"), "-no-obsolete", "-locations", "none", "-target-language"]
            command += [language, *sources, str(titles), "-ts", str(ts)]
            subprocess.run(command, check=True)


def build_qm(ts: Path, qm: Path) -> None:
    subprocess.run([tool("pyside6-lrelease"), "-silent", str(ts), "-qm", str(qm)], check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--qm-only", action="store_true", help="only compile the .ts files")
    args = parser.parse_args(argv)
    I18N.mkdir(parents=True, exist_ok=True)
    if not args.qm_only:
        update_sources()
    for language in LANGUAGES:
        build_qm(I18N / f"paramtally_{language}.ts", I18N / f"paramtally_{language}.qm")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
