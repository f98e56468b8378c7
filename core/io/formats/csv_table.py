"""CSV: one table, after '#' lines recording what it was computed for (``core.io.export.to_csv``)."""

from __future__ import annotations

from paramtally.core.io.export import to_csv
from paramtally.core.io.formats.content import TABLES, Exported, ExportFormat, Options

__all__ = ["FORMAT"]


def write_csv(content: Exported, options: Options) -> str:
    table = content.table()  # first: a subject that cannot be computed says so before anything else
    return to_csv(table.rows, table.columns, content.facts, excel=options.excel)


FORMAT = ExportFormat("csv", "CSV", ".csv", "CSV", TABLES, write_csv, writes_facts=True)
