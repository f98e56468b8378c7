"""PNG and SVG: the window's charts, drawn as on screen by the window (``gui/views/export.py``);
core lists them so that every export menu reads one registry, and writes none of them."""

from __future__ import annotations

from paramtally.core.io.formats.content import CHARTS, ExportFormat

__all__ = ["FORMATS"]

FORMATS = (
    ExportFormat("png", "PNG", ".png", "PNG image", CHARTS),
    ExportFormat("svg", "SVG", ".svg", "SVG image", CHARTS),
)
