"""Regenerate the window's translations: the .ts sources from the code, the .qm from the .ts.

    python tools/build_translations.py            update resources/i18n/*.ts, then build each .qm
    python tools/build_translations.py --qm-only  build each .qm from its .ts (what translators run)

``pyside6-lupdate`` (shipped with PySide6-Essentials) reads every ``translate(context, text)`` /
``QT_TRANSLATE_NOOP`` call under gui/; it cannot see the schema's titles, which core keeps as data,
so they are written as ``QT_TRANSLATE_NOOP("Schema", …)`` calls into a temporary file it reads too
(``core.explore.shown_titles``). Translations already in a .ts are kept; a text no longer in the code
is dropped (-no-obsolete). Locations are left out so a moved line does not rewrite the file.
``pyside6-lrelease`` compiles each .ts; its output depends on the .ts alone, which
tests/gui/test_translations.py checks against the committed .qm.
"""

from __future__ import annotations

import argparse
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


def schema_calls() -> str:
    """The schema's titles as calls lupdate reads."""
    sys.path.insert(0, str(ROOT.parent))
    from paramtally.core.explore.shown_titles import ROW_WORDS, schema_titles

    texts = sorted({*schema_titles(), *ROW_WORDS})
    return "".join(f"QT_TRANSLATE_NOOP({'Schema'!r}, {text!r})\n" for text in texts)


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
