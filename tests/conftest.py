"""Shared fixtures. Keep this file small; put feature fixtures next to their tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from tests.hypothesis_budget import PROFILE, examples

# Loaded before any test module: the settings a property names inherit the profile's.
settings.register_profile("ci", derandomize=True, deadline=None, max_examples=examples(150))
settings.register_profile("thorough", deadline=None, max_examples=examples(150))
settings.load_profile(PROFILE)


@pytest.fixture(autouse=True)
def _private_config_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point XDG_CONFIG_HOME (and XDG_STATE_HOME, where the error log goes) at fresh folders so no
    test reads or writes the real ones."""
    config = tmp_path_factory.mktemp("xdg-config")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("xdg-state")))
    return config


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line naming how many real-input tests (tests/real_display) passed, and failed or were
    skipped. Here, not beside them: with test workers only this process reports."""
    count = dict.fromkeys(("passed", "failed", "skipped"), 0)
    for outcome in count:
        for report in terminalreporter.stats.get(outcome, []):
            if "real_display" in getattr(report, "keywords", {}) and (
                report.when == "call" or outcome != "passed"
            ):
                count[outcome] += 1
    if not any(count.values()):
        return
    line = f"real-display tests: {count['passed']} passed"
    if count["failed"] or count["skipped"]:
        line += f", {count['failed']} failed, {count['skipped']} skipped"
    terminalreporter.write_line(line, bold=True)
