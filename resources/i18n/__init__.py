"""Translations: Qt Linguist sources (.ts) of the window and of the design report."""
