"""A report ParamTally wrote with the architecture in it opens as that model (issue 31, bug 9)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paramtally.core.cli import main
from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.io.export import export_json, to_json
from paramtally.core.io.model_sources import load_source, read_source
from paramtally.core.memory.scenario import Scenario


def test_memory_json_of_the_command_line_opens_as_its_model(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["memory", "mixtral-8x7b", "--gpus", "2", "--format", "json"]) == 0
    report = tmp_path / "memory.json"
    report.write_text(capsys.readouterr().out, encoding="utf-8")
    preset = read_source(str(report))
    assert preset.architecture == load_source("mixtral-8x7b")
    assert preset.scenario is not None and Scenario.model_validate(preset.scenario).gpus == 2
    assert main(["count", str(report), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == count_parameters(load_source("mixtral-8x7b")).total


def test_everything_as_json_without_a_scenario_and_a_broken_architecture_named(tmp_path: Path) -> None:
    arch = load_source("gpt2")
    report = tmp_path / "all.json"
    report.write_text(to_json(export_json(count_parameters(arch), architecture=arch)), encoding="utf-8")
    assert read_source(str(report)).architecture == arch and read_source(str(report)).scenario is None
    data = json.loads(report.read_text(encoding="utf-8"))
    del data["architecture"]["hidden_size"]
    report.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ParamTallyError, match=r"all\.json \(its architecture\): hidden_size"):
        read_source(str(report))
