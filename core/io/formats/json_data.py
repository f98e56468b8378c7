"""JSON: the subject's data object (``paramtally count|memory|compare|sweep --format json``, and the
window's everything), finite and escaped (``core.io.export.to_json``).

A per-layer table and the GPU setups have no JSON of their own: they are rows of the count's
(``layers``, with ``count --layers``) and of the memory's (``setups``).
"""

from __future__ import annotations

from paramtally.core.errors import ParamTallyError
from paramtally.core.io.export import to_json
from paramtally.core.io.formats.content import Exported, ExportFormat, Options
from paramtally.core.text import say

__all__ = ["FORMAT"]


def write_json(content: Exported, options: Options) -> str:
    if content.data is None:
        raise ParamTallyError(say("{title} has no JSON form", title=content.title))
    return to_json(content.data())


FORMAT = ExportFormat(
    "json",
    "JSON",
    ".json",
    "JSON",
    frozenset({"breakdown", "memory", "compare", "sweep", "everything"}),
    write_json,
)
