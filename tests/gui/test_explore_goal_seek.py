"""The Goal Seek dialog opened with Ctrl+G and answered with keys and clicks: the answer and its
neighbours are what `count_parameters` / `fit_setup` give on both sides of the boundary, and
Apply is one undoable edit of the document."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QWidget
from pytestqt.qtbot import QtBot

from paramtally.core.count.breakdown import human
from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing.edits import with_value
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.fit import fit_setup
from paramtally.core.memory.gpus import find_gpu
from paramtally.core.schema import Architecture
from paramtally.gui.explore.goal_seek import GoalSeekDialog
from paramtally.gui.main_window import MainWindow
from paramtally.gui.views.format import bytes_both
from tests.gui.modals import Modals, give_focus
from tests.gui.views_support import preset_window

H100 = "h100-sxm-80gb"


def choose(qtbot: QtBot, box: QComboBox, text: str) -> None:
    """Pick an entry of a closed combo box with the arrow keys, as a person would."""
    wanted = next(index for index in range(box.count()) if box.itemText(index).startswith(text))
    box.setFocus()
    key = Qt.Key.Key_Down if wanted > box.currentIndex() else Qt.Key.Key_Up
    while box.currentIndex() != wanted:
        qtbot.keyClick(box, key)


def rows(dialog: GoalSeekDialog) -> dict[str, list[str]]:
    table = dialog.table
    return {
        table.verticalHeaderItem(row).text(): [table.item(row, c).text() for c in range(table.columnCount())]
        for row in range(table.rowCount())
    }


def seek(qtbot: QtBot, modals: Modals, window: MainWindow, answer: Callable[[QWidget], None]) -> None:
    """Ctrl+G on the window; ``answer(dialog)`` drives the dialog it opens."""
    modals.expect(answer, "goal seek")
    give_focus(qtbot, window.form)
    qtbot.keyClick(window, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()


def layers(arch: Architecture, count: int) -> Architecture:
    """llama-3-8b with ``count`` layers, made without the goal seek's code."""
    return with_value(arch, ("decoder", "layers", 0, "count"), count)


def test_layers_for_ten_billion_applied_as_one_undo_step(
    qtbot: QtBot, llama_window: MainWindow, modals: Modals
) -> None:
    document = llama_window.document
    arch = document.architecture
    seen: dict[str, list[str]] = {}

    def answer(dialog: QWidget) -> None:
        assert isinstance(dialog, GoalSeekDialog)
        choose(qtbot, dialog.field_box, "Layers")
        choose(qtbot, dialog.figure_box, "Total parameters")
        dialog.value_edit.setFocus()
        qtbot.keyClicks(dialog.value_edit, "10B")
        qtbot.keyClick(dialog.value_edit, Qt.Key.Key_Return)  # solves; applies nothing yet
        assert dialog.isVisible() and document.architecture == arch
        seen.update(rows(dialog))
        seen["said"] = [dialog.answer.text()]
        modals.click_button(dialog, f"Apply {int(seen['answer'][0]):,}")

    steps = document.undo_stack.count()
    seek(qtbot, modals, llama_window, answer)
    value = int(seen["answer"][0])
    # The smallest layer count whose total reaches 10B: one fewer does not.
    fewer, enough = (count_parameters(layers(arch, count)).total for count in (value - 1, value))
    assert fewer < 10**10 <= enough
    for role, count in (("below", value - 1), ("answer", value), ("above", value + 1)):
        total = count_parameters(layers(arch, count)).total
        assert seen[role][:2] == [f"{count:,}", f"{total:,} ({human(total)})"]
        assert seen[role][-1] == ("no" if role == "below" else "yes")
    assert f"Layers = {value:,}</b> — Total parameters ≥ 10,000,000,000 (10.00B)" in seen["said"][0]
    # Applied as one undo step; Ctrl+Z takes it back.
    assert document.architecture == layers(arch, value)
    assert document.undo_stack.count() == steps + 1
    assert llama_window.statusBar().currentMessage() == f"Goal seek: Layers = {value:,}"
    give_focus(qtbot, llama_window.form)
    qtbot.keyClick(llama_window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert document.architecture == arch


def test_longest_context_on_one_h100_sets_the_scenario(
    qtbot: QtBot, llama_window: MainWindow, modals: Modals
) -> None:
    document = llama_window.document
    arch, scenario = document.architecture, document.scenario
    seen: dict[str, list[str]] = {}

    def answer(dialog: QWidget) -> None:
        assert isinstance(dialog, GoalSeekDialog)
        choose(qtbot, dialog.field_box, "Context")
        choose(qtbot, dialog.figure_box, "Fits on a GPU setup")
        assert dialog.gpu_box.isVisible() and not dialog.value_edit.isVisible()
        assert dialog.count_spin.isVisible()
        choose(qtbot, dialog.field_box, "GPUs")  # QA: the count box stayed, "× 1", though it varies
        assert not dialog.count_spin.isVisible() and "fewest GPUs" in dialog.hint.text()
        choose(qtbot, dialog.field_box, "Context")
        assert dialog.count_spin.isVisible()
        choose(qtbot, dialog.gpu_box, find_gpu(H100).name)
        # Solved once the keys have settled (the dialog waits 150 ms after the last change).
        qtbot.waitUntil(lambda: not dialog._timer.isActive() and dialog.table.rowCount() == 3)
        seen.update(rows(dialog))
        seen["titles"] = [
            dialog.table.horizontalHeaderItem(c).text() for c in range(dialog.table.columnCount())
        ]
        modals.click_button(dialog, f"Apply {int(seen['answer'][0].replace(',', '')):,}")

    seek(qtbot, modals, llama_window, answer)
    value = int(seen["answer"][0].replace(",", ""))
    gpu = find_gpu(H100)
    fits = fit_setup(arch, scenario.model_copy(update={"context": value}), gpu, 1)
    beyond = fit_setup(arch, scenario.model_copy(update={"context": value + 1}), gpu, 1)
    assert fits.fits and not beyond.fits  # the largest context that fits
    # The same GPU in every row: its usable bytes said once, in the title. The rows either side of
    # them read the same in GB (72.0), so the column and the title show their exact bytes too.
    assert seen["titles"][2] == f"Per GPU\nof {fits.capacity_bytes:,} B ({bytes_both(fits.capacity_bytes)})"
    assert (seen["answer"][2], seen["above"][2]) == (
        f"{fits.per_gpu_bytes:,} B ({bytes_both(fits.per_gpu_bytes)})",
        f"{beyond.per_gpu_bytes:,} B ({bytes_both(beyond.per_gpu_bytes)})",
    )
    assert document.scenario.context == value and document.architecture == arch
    document.undo_stack.undo()
    assert document.scenario.context == scenario.context


def test_the_fewest_gpus_applied_put_the_scenario_on_that_setup(
    qtbot: QtBot, llama_window: MainWindow, modals: Modals
) -> None:
    """QA: 'fits 6 × NVIDIA RTX 3090 (TP=2 × PP=3)', applied, left the scenario on one H100 with the
    GPU count alone changed: the memory tab then said 'does not fit'."""
    document = llama_window.document
    seen: dict[str, list[str]] = {}

    def answer(dialog: QWidget) -> None:
        assert isinstance(dialog, GoalSeekDialog)
        choose(qtbot, dialog.field_box, "GPUs")
        choose(qtbot, dialog.figure_box, "Fits on a GPU setup")
        choose(qtbot, dialog.gpu_box, find_gpu("rtx-3090").name)
        qtbot.waitUntil(lambda: not dialog._timer.isActive() and dialog.table.rowCount() >= 2)
        seen.update(rows(dialog))
        seen["titles"] = [
            dialog.table.horizontalHeaderItem(c).text() for c in range(dialog.table.columnCount())
        ]
        modals.click_button(dialog, f"Apply {int(seen['answer'][0].replace(',', '')):,}")

    seek(qtbot, modals, llama_window, answer)
    count = int(seen["answer"][0].replace(",", ""))
    scenario = document.scenario
    fit = fit_setup(document.architecture, scenario, find_gpu("rtx-3090"), count)
    # Bytes read as everywhere else (QA: raw bytes here, GiB · GB in the other targets' tables);
    # 17.8 and 9.5 GB read apart, so no exact bytes.
    assert seen["titles"][2] == f"Per GPU\nof {bytes_both(fit.capacity_bytes)}"
    assert seen["answer"][2] == bytes_both(fit.per_gpu_bytes)
    assert (scenario.gpu, scenario.gpus) == ("rtx-3090", count) and fit.fits
    assert (scenario.tp, scenario.pp) == (fit.tp, fit.pp)
    assert document.memory is not None and document.memory.total_bytes == fit.per_gpu_bytes
    document.undo_stack.undo()
    assert (document.scenario.gpu, document.scenario.gpus) == (H100, 1)


def test_rows_either_side_of_a_memory_budget_read_apart(
    qtbot: QtBot, llama_window: MainWindow, modals: Modals
) -> None:
    """QA: the longest context within 24 GB showed '22.4 GiB · 24.0 GB' on all three rows, the last
    one 'no'; the answer line said 'memory per gpu'. Now the rows and the budget read exactly."""
    document = llama_window.document
    arch, scenario = document.architecture, document.scenario
    seen: dict[str, list[str]] = {}

    def answer(dialog: QWidget) -> None:
        assert isinstance(dialog, GoalSeekDialog)
        choose(qtbot, dialog.field_box, "Context")
        choose(qtbot, dialog.figure_box, "Memory per GPU")
        assert dialog.op_box.currentText() == "at most"  # a budget
        dialog.value_edit.setFocus()
        qtbot.keyClicks(dialog.value_edit, "24GB")
        qtbot.keyClick(dialog.value_edit, Qt.Key.Key_Return)
        seen.update(rows(dialog))
        seen["said"] = [dialog.answer.text()]
        modals.click_button(dialog, "Close")

    seek(qtbot, modals, llama_window, answer)
    value = int(seen["answer"][0].replace(",", ""))
    memory = {
        count: estimate_memory(arch, scenario.model_copy(update={"context": count})).total_bytes
        for count in (value - 1, value, value + 1)
    }
    assert memory[value] <= 24 * 10**9 < memory[value + 1]  # the longest context within 24 GB
    assert bytes_both(memory[value]) == bytes_both(memory[value + 1])  # what the rows read alike
    for role, count in (("below", value - 1), ("answer", value), ("above", value + 1)):
        assert seen[role][2] == f"{memory[count]:,} B ({bytes_both(memory[count])})"
    assert [seen[role][-1] for role in ("below", "answer", "above")] == ["yes", "yes", "no"]
    budget = f"Memory per GPU ≤ 24,000,000,000 B ({bytes_both(24 * 10**9)})"  # the figure's own title
    assert f"Context = {value:,}</b> — {budget}" in seen["said"][0]


def test_a_target_core_cannot_read_is_said_and_nothing_applies(
    qtbot: QtBot, llama_window: MainWindow, modals: Modals
) -> None:
    document = llama_window.document
    said: list[str] = []

    def answer(dialog: QWidget) -> None:
        assert isinstance(dialog, GoalSeekDialog)
        choose(qtbot, dialog.field_box, "Layers")
        choose(qtbot, dialog.figure_box, "Total parameters")
        dialog.value_edit.setFocus()
        qtbot.keyClicks(dialog.value_edit, "10B")  # an answer first, a row of it chosen
        qtbot.keyClick(dialog.value_edit, Qt.Key.Key_Return)
        assert dialog.table.columnCount() > 0 and dialog.apply_button.text().startswith("&Apply ")
        qtbot.keyClick(dialog.value_edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClicks(dialog.value_edit, "lots")
        qtbot.keyClick(dialog.value_edit, Qt.Key.Key_Return)
        said.append(dialog.answer.text())
        assert not dialog.apply_button.isEnabled() and dialog.table.rowCount() == 0
        # Nothing of the earlier answer is left to read as this one's.
        assert dialog.table.columnCount() == 0 and dialog.apply_button.text() == "&Apply"
        modals.click_button(dialog, "Close")

    steps = document.undo_stack.count()
    seek(qtbot, modals, llama_window, answer)
    assert "'lots' is not a number of params" in said[0]
    assert document.undo_stack.count() == steps


def test_every_column_of_a_mixture_of_experts_on_a_gpu_is_shown_whole(qtbot: QtBot, modals: Modals) -> None:
    """QA: Mixtral's layers to fit one H100 showed six columns in 860 pixels, the last one cut to
    "the t"; the dialog now widens to show them all."""
    window = preset_window(qtbot, "mixtral-8x7b", (1024, 700))
    titles: list[str] = []
    cut: list[str] = []

    def cut_columns(dialog: GoalSeekDialog) -> list[str]:
        """The columns that end past the table's edge or are narrower than their text."""
        table, header = dialog.table, dialog.table.horizontalHeader()
        found = []
        for column in range(table.columnCount()):
            end = header.sectionViewportPosition(column) + header.sectionSize(column)
            needed = max(table.sizeHintForColumn(column), header.sectionSizeHint(column))
            if end > table.viewport().width() or header.sectionSize(column) < needed:
                found.append(table.horizontalHeaderItem(column).text())
        return found

    def answer(dialog: QWidget) -> None:
        assert isinstance(dialog, GoalSeekDialog)
        choose(qtbot, dialog.field_box, "Layers")
        choose(qtbot, dialog.figure_box, "Fits on a GPU setup")
        qtbot.waitUntil(lambda: not dialog._timer.isActive() and dialog.table.rowCount() == 3)
        titles.extend(dialog.table.horizontalHeaderItem(c).text() for c in range(dialog.table.columnCount()))
        try:
            qtbot.waitUntil(lambda: not cut_columns(dialog), timeout=2000)  # the layout follows the resize
        except qtbot.TimeoutError:
            cut.extend(cut_columns(dialog))
        modals.click_button(dialog, "Close")

    seek(qtbot, modals, window, answer)
    assert "Active parameters" in titles and "Meets the target" in titles
    assert not cut, cut  # each column inside the table and as wide as its text


# --- issue 31: the window's words, a remembered choice, the FFN width following the hidden size ----


def test_a_target_that_is_no_number_is_said_in_the_windows_words(
    qtbot: QtBot, llama_window: MainWindow, modals: Modals
) -> None:
    """Bug 8: '⚠ --target total: 'abc' is not a number of params' spoke the command line."""
    said: list[str] = []

    def answer(dialog: QWidget) -> None:
        assert isinstance(dialog, GoalSeekDialog)
        choose(qtbot, dialog.figure_box, "Memory per GPU")
        dialog.value_edit.setFocus()
        qtbot.keyClicks(dialog.value_edit, "abc")
        qtbot.keyClick(dialog.value_edit, Qt.Key.Key_Return)
        said.append(dialog.answer.text())
        choose(qtbot, dialog.field_box, "KV heads")
        multiple = dialog.multiple_spin
        multiple.setFocus()
        multiple.selectAll()
        qtbot.keyClicks(multiple, "3")  # no divisor of Llama's 32 heads is a multiple of 3
        dialog.value_edit.setFocus()
        dialog.value_edit.selectAll()
        qtbot.keyClicks(dialog.value_edit, "80GB")
        qtbot.keyClick(dialog.value_edit, Qt.Key.Key_Return)
        said.append(dialog.answer.text())
        modals.click_button(dialog, "Close")

    seek(qtbot, modals, llama_window, answer)
    assert "Memory per GPU: 'abc' is not a number of bytes" in said[0]
    assert "KV heads (num_kv_heads): no value that is a multiple of 3 is allowed" in said[1]
    assert not any("--" in text for text in said), said


def test_vary_opens_at_the_last_choice(qtbot: QtBot, llama_window: MainWindow, modals: Modals) -> None:
    """Bug 8: Vary went back to 'Layers' each time the dialog opened."""
    shown: list[tuple[str, bool]] = []

    def pick_hidden(dialog: QWidget) -> None:
        assert isinstance(dialog, GoalSeekDialog)
        shown.append((dialog.field_box.currentText(), dialog.scale_ffn.isChecked()))
        choose(qtbot, dialog.field_box, "Hidden size")
        dialog.scale_ffn.setFocus()
        qtbot.keyClick(dialog.scale_ffn, Qt.Key.Key_Space)
        modals.click_button(dialog, "Close")

    def look(dialog: QWidget) -> None:
        assert isinstance(dialog, GoalSeekDialog)
        shown.append((dialog.field_box.currentText(), dialog.scale_ffn.isChecked()))
        choose(qtbot, dialog.field_box, "Context")
        assert not dialog.scale_ffn.isEnabled()  # only the hidden size has an FFN to scale
        modals.click_button(dialog, "Close")

    seek(qtbot, modals, llama_window, pick_hidden)
    seek(qtbot, modals, llama_window, look)
    seek(qtbot, modals, llama_window, look)
    assert [text.split(" (now")[0] for text, _ in shown] == ["Layers", "Hidden size", "Context"]
    assert [ticked for _, ticked in shown] == [False, True, True]


def test_the_ffn_width_follows_the_hidden_size_when_ticked(
    qtbot: QtBot, llama_window: MainWindow, modals: Modals
) -> None:
    document = llama_window.document
    arch = document.architecture
    seen: dict[str, list[str]] = {}

    def answer(dialog: QWidget) -> None:
        assert isinstance(dialog, GoalSeekDialog)
        choose(qtbot, dialog.field_box, "Hidden size")
        dialog.scale_ffn.setFocus()
        qtbot.keyClick(dialog.scale_ffn, Qt.Key.Key_Space)
        multiple = dialog.multiple_spin
        multiple.setFocus()
        multiple.selectAll()
        qtbot.keyClicks(multiple, "128")
        dialog.value_edit.setFocus()
        qtbot.keyClicks(dialog.value_edit, "70B")
        qtbot.keyClick(dialog.value_edit, Qt.Key.Key_Return)
        seen.update(rows(dialog))
        seen["said"] = [dialog.answer.text()]
        modals.click_button(dialog, f"Apply {int(seen['answer'][0].replace(',', '')):,}")

    steps = document.undo_stack.count()
    seek(qtbot, modals, llama_window, answer)
    hidden = int(seen["answer"][0].replace(",", ""))
    width = -(-14_336 * hidden // 4096)  # 3.5 × the hidden size, as 14,336 is of 4,096

    def total(h: int) -> int:
        scaled = with_value(
            with_value(arch, ("hidden_size",), h),
            ("blocks", "default", "ffn", "width"),
            -(-14_336 * h // 4096),
        )
        return count_parameters(scaled).total

    assert total(hidden - 128) < 70 * 10**9 <= total(hidden)
    assert seen["answer"][1] == f"{total(hidden):,} ({human(total(hidden))})"
    assert f"FFN width 14,336 → {width:,}" in seen["said"][0]
    assert document.architecture.hidden_size == hidden
    assert document.architecture.blocks["default"].ffn.width == width
    assert document.undo_stack.count() == steps + 1  # the two fields in one undo step
    document.undo_stack.undo()
    assert document.architecture == arch


def test_nothing_is_refused_before_the_person_types_or_asks(
    qtbot: QtBot, llama_window: MainWindow, modals: Modals
) -> None:
    """A new user's session: Goal Seek opened on '⚠ Type the target value.' before any input. An
    empty target is the starting state; a bad value typed, or Enter on an empty one, is said."""
    said: dict[str, str] = {}

    def settled(dialog: GoalSeekDialog) -> str:
        qtbot.waitUntil(lambda: not dialog._timer.isActive())  # the typed question was taken
        return dialog.answer.text()

    def answer(dialog: QWidget) -> None:
        assert isinstance(dialog, GoalSeekDialog)
        said["opened"] = settled(dialog)
        assert not dialog.apply_button.isEnabled() and dialog.table.rowCount() == 0
        choose(qtbot, dialog.field_box, "Layers")
        choose(qtbot, dialog.figure_box, "Total parameters")
        said["other figure"] = settled(dialog)
        dialog.value_edit.setFocus()
        qtbot.keyClicks(dialog.value_edit, "lots")
        said["bad"] = settled(dialog)
        dialog.value_edit.selectAll()
        qtbot.keyClick(dialog.value_edit, Qt.Key.Key_Backspace)
        said["cleared"] = settled(dialog)
        qtbot.keyClick(dialog.value_edit, Qt.Key.Key_Return)
        said["asked empty"] = settled(dialog)
        qtbot.keyClicks(dialog.value_edit, "10B")
        said["good"] = settled(dialog)
        said["rows"] = ",".join(rows(dialog))
        assert dialog.apply_button.isEnabled()
        modals.click_button(dialog, "Close")

    seek(qtbot, modals, llama_window, answer)
    assert said["opened"] == said["other figure"] == said["cleared"] == "", said
    assert "⚠" in said["bad"] and "'lots' is not a number of params" in said["bad"]
    assert "⚠ Type the target value." in said["asked empty"]
    assert said["good"].startswith("<b>Layers") and "⚠" not in said["good"], said["good"]
    assert said["rows"] == "below,answer,above"
