"""The MoE headline never wraps a share's '%' away from its number: under zh_CN at 1024×700
DeepSeek-V3's '激活 5.6 %）' broke after '5.6', the next line starting with '%）'."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QTextDocument
from pytestqt.qtbot import QtBot

from paramtally.gui.i18n import install_language
from paramtally.gui.views.headline import Headline
from tests.gui.settle import settle
from tests.gui.views_support import preset_window


@pytest.fixture(params=["en", "zh_CN"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    assert install_language(request.param)
    yield request.param
    install_language("en")


def _lines(label: Headline) -> list[str]:
    """The headline's lines as its label lays them out (a QLabel's rich text is a QTextDocument)."""
    document = QTextDocument()
    document.setDefaultFont(label.font())
    document.setDocumentMargin(0)
    document.setHtml(label.text())
    document.setTextWidth(label.contentsRect().width())
    document.size()  # lays the blocks out
    lines = []
    block = document.begin()
    while block.isValid():
        layout = block.layout()
        for index in range(layout.lineCount()):
            line = layout.lineAt(index)
            lines.append(block.text()[line.textStart() : line.textStart() + line.textLength()])
        block = block.next()
    return lines


@pytest.mark.parametrize("width", [1024, 1100, 1180, 1300])
def test_a_share_keeps_its_percent_sign(qtbot: QtBot, language: str, width: int) -> None:
    window = preset_window(qtbot, "deepseek-v3", (width, 700))
    settle()
    lines = _lines(window.headline)
    assert len(lines) >= 2
    assert not [line for line in lines if line.lstrip().startswith("%")], lines
