"""Translations: Qt Linguist sources (.ts) of the window and of the design report, and the .qm the
window loads (built from its .ts by tools/build_translations.py)."""
