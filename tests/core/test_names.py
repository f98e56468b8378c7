"""Names a person types: display names in any case, and the closest ids for a typo."""

from __future__ import annotations

import pytest

from paramtally.core.cli import COMMANDS, main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_typo_in_a_preset_id_suggests_the_closest(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "count", "lama-3-8b")
    assert code == 2
    assert "unknown preset 'lama-3-8b' (did you mean llama-3-8b" in err
    assert len(err.strip().splitlines()) == 1


def test_the_start_of_a_preset_id_suggests_the_presets_it_begins(capsys: pytest.CaptureFixture[str]) -> None:
    """QA: 'bert-base' suggested bart-base, roberta-base and t5-base, not bert-base-uncased."""
    code, _, err = run(capsys, "count", "bert-base")
    assert code == 2
    assert "unknown preset 'bert-base' (did you mean bert-base-uncased, " in err
    code, _, err = run(capsys, "memory", "mixtral")
    assert code == 2 and "(did you mean mixtral-8x7b" in err
    assert len(err.strip().splitlines()) == 1


def test_display_name_in_any_case_is_the_preset(capsys: pytest.CaptureFixture[str]) -> None:
    _, by_id, _ = run(capsys, "count", "llama-3-8b", "--format", "json")
    code, by_name, _ = run(capsys, "count", "LLAMA-3-8B", "--format", "json")
    assert code == 0 and by_name == by_id


def test_nothing_close_says_where_to_look(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "count", "zzzzzz")
    assert code == 2 and "try `paramtally presets list`" in err


def test_gpu_typo_suggests_the_catalog_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "memory", "llama-3-8b", "--gpu", "h100-sxm")
    assert code == 2 and "did you mean h100-sxm-80gb?" in err


def test_gpu_display_name_is_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    from paramtally.core.memory.gpus import find_gpu

    gpu = find_gpu("h100-sxm-80gb")
    assert find_gpu(gpu.name.upper()) == gpu


def test_memory_help_shows_the_real_default_gpu(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["memory", "--help"])
    out = capsys.readouterr().out
    assert "(default h100-sxm-80gb)" in " ".join(out.split())


@pytest.mark.parametrize("command", list(COMMANDS))
def test_help_says_nothing_on_stderr(capsys: pytest.CaptureFixture[str], command: str) -> None:
    """Issue 31, bug 13: `memory --help` was reported to print a vocabulary-padding warning."""
    with pytest.raises(SystemExit) as stopped:
        main([command, "--help"])
    assert stopped.value.code == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"usage: paramtally {command}") and err == ""
