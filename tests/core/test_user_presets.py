"""User presets in the config dir: save, list, shadow, rename, duplicate, delete, import, export."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from paramtally.core.cli import main
from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing.edits import with_value
from paramtally.core.errors import ParamTallyError
from paramtally.core.io import presets, recent, user_presets
from paramtally.core.io.model_sources import load_source, read_source
from paramtally.core.schema import SCHEMA_VERSION, Architecture

ROOT = Path(__file__).resolve().parents[2]


def _custom(name: str = "My 13-layer GPT") -> Architecture:
    arch = with_value(presets.load_builtin("gpt3-175b"), ("blocks", "default", "mixer", "num_heads"), 32)
    arch = with_value(arch, ("hidden_size",), 4096)
    arch = with_value(arch, ("decoder", "layers", 0, "count"), 13)
    return arch.model_copy(update={"name": name})


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {path.name: (path.read_bytes(), path.stat().st_mtime_ns) for path in folder.iterdir()}


def test_storage_follows_xdg_config_home(_private_config_dir: Path) -> None:
    path = user_presets.save("mine", _custom())
    assert path == _private_config_dir / "paramtally" / "presets" / "mine.json"
    assert json.loads(path.read_text(encoding="utf-8"))["schema_version"] == SCHEMA_VERSION == 2


def test_save_then_load_is_identical() -> None:
    arch = _custom()
    user_presets.save("mine", arch)
    assert user_presets.load("mine") == arch
    assert load_source("mine") == arch


def test_a_new_process_loads_the_same_architecture() -> None:
    arch = _custom("Saved for a restart")
    user_presets.save("restart-me", arch)
    result = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "presets", "show", "restart-me", "--format", "json"],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert Architecture.model_validate_json(result.stdout) == arch


def test_user_preset_shadows_builtin_until_deleted() -> None:
    builtin = presets.load_builtin("gpt3-175b")
    user_presets.save("gpt3-175b", _custom())
    assert user_presets.load("gpt3-175b") == _custom()
    entries = [entry for entry in user_presets.list_presets() if entry.id == "gpt3-175b"]
    assert [(entry.origin, entry.shadows_builtin) for entry in entries] == [
        ("user", True),
        ("builtin", False),
    ]
    assert entries[0].label == "user, shadows built-in"
    user_presets.delete("gpt3-175b")
    assert user_presets.load("gpt3-175b") == builtin


def test_builtin_cannot_be_deleted_or_renamed() -> None:
    with pytest.raises(ParamTallyError, match="built in"):
        user_presets.delete("gpt3-175b")
    with pytest.raises(ParamTallyError, match="only user presets"):
        user_presets.rename("gpt3-175b", "x")
    assert (presets.BUILTIN_DIR / "gpt3-175b.json").is_file()


def test_rename_and_duplicate() -> None:
    user_presets.save("a", _custom())
    user_presets.rename("a", "b")
    assert user_presets.user_ids() == ["b"]
    user_presets.duplicate("b", "c")
    user_presets.duplicate("gpt3-175b", "d")  # a built-in can be the source
    assert user_presets.user_ids() == ["b", "c", "d"]
    assert user_presets.load("c") == _custom()
    assert user_presets.load("d") == presets.load_builtin("gpt3-175b")
    with pytest.raises(ParamTallyError, match="already exists"):
        user_presets.rename("b", "c")
    assert user_presets.load("b") == _custom()  # nothing lost by a refused rename


@pytest.mark.parametrize("bad_id", ["../evil", "a/b", "", ".hidden", "x.json", "é"])
def test_unsafe_ids_are_refused(bad_id: str) -> None:
    with pytest.raises(ParamTallyError, match="not a usable preset id"):
        user_presets.save(bad_id, _custom())


def test_broken_files_are_listed_with_file_and_field_and_left_alone() -> None:
    folder = user_presets.presets_dir()
    folder.mkdir(parents=True)
    good = json.loads(presets.dump_preset(_custom()))
    (folder / "truncated.json").write_text(presets.dump_preset(_custom())[:200], encoding="utf-8")
    (folder / "not-json.json").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (folder / "invalid.json").write_text(json.dumps({**good, "hidden_size": -1}), encoding="utf-8")
    (folder / "future.json").write_text(json.dumps({**good, "schema_version": 99}), encoding="utf-8")
    (folder / "list.json").write_text("[1, 2]", encoding="utf-8")
    before = _snapshot(folder)
    entries = {entry.id: entry for entry in user_presets.list_presets() if entry.origin == "user"}
    assert all(entry.broken and entry.label == "user, broken" for entry in entries.values())
    assert entries["truncated"].problem.startswith("truncated.json: not valid JSON")
    assert entries["not-json"].problem.startswith("not-json.json: not UTF-8")
    assert entries["invalid"].problem.startswith("invalid.json: hidden_size:")
    assert "newer ParamTally (schema 99" in entries["future"].problem
    assert "must be a JSON object" in entries["list"].problem
    with pytest.raises(ParamTallyError, match=r"invalid\.json: hidden_size"):
        user_presets.load("invalid")
    assert _snapshot(folder) == before


def test_broken_file_can_be_deleted_on_request() -> None:
    folder = user_presets.presets_dir()
    folder.mkdir(parents=True)
    (folder / "junk.json").write_text("{", encoding="utf-8")
    user_presets.delete("junk")
    assert not (folder / "junk.json").exists()


def test_import_and_export_round_trip(tmp_path: Path) -> None:
    source = tmp_path / "team model.json"
    source.write_text(presets.dump_preset(_custom()), encoding="utf-8")
    before = source.read_bytes()
    assert user_presets.import_file(source) == "team-model"
    assert user_presets.load("team-model") == _custom()
    assert source.read_bytes() == before
    with pytest.raises(ParamTallyError, match="already exists"):
        user_presets.import_file(source)
    target = tmp_path / "out.json"
    user_presets.export("team-model", target)
    assert presets.load_preset_file(target) == _custom()
    with pytest.raises(ParamTallyError, match="already exists"):
        user_presets.export("gpt3-175b", target)
    assert presets.load_preset_file(target) == _custom()  # refused export changed nothing


def test_default_import_id_comes_from_the_file_or_its_folder(tmp_path: Path) -> None:
    assert user_presets.id_for_file(tmp_path / "team model.json") == "team-model"
    assert user_presets.id_for_file(tmp_path / "Llama 3" / "config.json") == "Llama-3"
    assert user_presets.id_for_file(tmp_path / "---.json") == "imported"


def test_export_to_an_unwritable_place_says_so(tmp_path: Path) -> None:
    a_file = tmp_path / "plain.txt"
    a_file.write_text("x", encoding="utf-8")
    for target in (tmp_path / "missing" / "out.json", a_file / "out.json"):
        with pytest.raises(ParamTallyError, match=f"cannot write {target}"):
            user_presets.export("gpt3-175b", target)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["plain.txt"]


def test_cli_list_marks_every_kind(capsys: pytest.CaptureFixture[str]) -> None:
    user_presets.save("gpt3-175b", _custom())
    user_presets.save("mine", _custom())
    (user_presets.presets_dir() / "broken.json").write_text('{"hidden_size": "big"}', encoding="utf-8")
    assert main(["presets", "list", "--format", "json"]) == 0
    listed = {(row["id"], row["origin"]): row for row in json.loads(capsys.readouterr().out)}
    assert listed["gpt3-175b", "builtin"]["broken"] is False
    assert listed["gpt3-175b", "user"]["shadows_builtin"] is True
    assert listed["mine", "user"]["name"] == "My 13-layer GPT"
    assert listed["broken", "user"]["problem"].startswith("broken.json: hidden_size:")
    assert main(["presets", "list"]) == 0
    table = capsys.readouterr().out
    assert "user, shadows built-in" in table
    assert "user, broken" in table
    assert "built-in" in table


def test_cli_presets_alone_lists_them(capsys: pytest.CaptureFixture[str]) -> None:
    """QA: 'paramtally presets' said 'the following arguments are required: ACTION' (status 2)."""
    assert main(["presets", "list"]) == 0
    listed = capsys.readouterr().out
    assert main(["presets"]) == 0
    assert capsys.readouterr().out == listed and "bert-base-uncased" in listed


def test_cli_import_export_delete(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exported = tmp_path / "gpt3.json"
    assert main(["presets", "export", "gpt3-175b", str(exported)]) == 0
    assert main(["presets", "import", str(exported), "--id", "copy"]) == 0
    assert user_presets.load("copy") == presets.load_builtin("gpt3-175b")
    assert main(["presets", "delete", "copy"]) == 0
    assert user_presets.user_ids() == []
    assert main(["presets", "delete", "copy"]) == 2
    assert "'copy' is not a user preset" in capsys.readouterr().err


SCENARIO = {"mode": "training", "context": 8192, "gpus": 8, "zero": 3}


def test_the_scenario_saved_with_a_preset_comes_back_and_travels_with_it(tmp_path: Path) -> None:
    arch = _custom()
    path = user_presets.save("with-scenario", arch, scenario=SCENARIO)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["scenario"] == SCENARIO and data["hidden_size"] == 4096  # next to the architecture
    assert user_presets.load_preset("with-scenario") == presets.Preset(arch, SCENARIO)
    assert user_presets.load("with-scenario") == arch  # the architecture alone, as before
    user_presets.duplicate("with-scenario", "copy")
    user_presets.rename("copy", "renamed")
    assert user_presets.load_preset("renamed").scenario == SCENARIO
    exported = user_presets.export("renamed", tmp_path / "out.json")
    assert user_presets.load_preset(user_presets.import_file(exported, "back")).scenario == SCENARIO
    assert read_source(str(exported)) == presets.Preset(arch, SCENARIO)


def test_a_preset_without_a_scenario_loads_as_before() -> None:
    path = user_presets.save("plain", _custom())
    assert "scenario" not in json.loads(path.read_text(encoding="utf-8"))
    assert user_presets.load_preset("plain").scenario is None
    assert user_presets.load_preset("gpt3-175b") == presets.Preset(presets.load_builtin("gpt3-175b"))


def test_a_scenario_that_is_not_an_object_is_a_broken_file() -> None:
    path = user_presets.save("odd", _custom())
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, "scenario": [1, 2]}), encoding="utf-8")
    with pytest.raises(ParamTallyError, match=r"^odd\.json: scenario: must be a group of settings"):
        user_presets.load("odd")


def test_recent_sources_newest_first_bounded_and_forgiving(tmp_path: Path) -> None:
    assert recent.recent_sources() == []
    config = tmp_path / "config.json"
    config.write_text("{}", encoding="utf-8")
    for source in ("gpt2", "llama-3-8b", str(config), "gpt2"):
        recent.remember_source(source)
    assert recent.recent_sources() == ["gpt2", str(config.resolve()), "llama-3-8b"]
    recent.forget_source("llama-3-8b")
    assert recent.recent_sources() == ["gpt2", str(config.resolve())]
    for number in range(2 * recent.MAX_RECENT):
        recent.remember_source(f"model-{number}")
    assert len(recent.recent_sources()) == recent.MAX_RECENT
    recent.recent_path().write_text("{ not json", encoding="utf-8")
    assert recent.recent_sources() == []  # a damaged history is no history


def test_the_command_line_says_when_a_user_preset_shadows_a_built_in(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bigger = with_value(presets.load_builtin("gpt2"), ("hidden_size",), 1536)
    user_presets.save("gpt2", bigger)
    assert main(["count", "gpt2", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["total"] == count_parameters(bigger).total
    assert f"paramtally: warning: gpt2: your user preset ({user_presets.user_path('gpt2')}) is read" in err
    assert main(["count", "gpt2-medium", "--format", "json"]) == 0
    assert "your user preset" not in capsys.readouterr().err


def test_importing_under_a_built_in_id_says_the_built_in_is_shadowed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A downloaded config saved as 'gemma-2b.json' takes the built-in's id: said at once, not only
    by the next command that reads it."""
    config = tmp_path / "gemma-2b.json"
    config.write_text((ROOT / "tests" / "data" / "hf_configs" / "gemma-2b.json").read_text())
    assert main(["presets", "import", str(config)]) == 0
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "paramtally: warning: gemma-2b: a built-in preset has this id; commands and the window now "
        "read yours (`paramtally presets delete gemma-2b` brings the built-in back; --id imports "
        "under another id)"
    ]
    assert main(["presets", "import", str(config), "--id", "my-gemma"]) == 0
    assert capsys.readouterr().err == ""
