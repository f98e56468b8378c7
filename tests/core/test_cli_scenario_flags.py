"""The scenario flags are generated from the Scenario schema: every field has one, with its help,
choices and limits, and the flag names scripts rely on stay."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

import pytest

from paramtally.core.cli import build_parser, main
from paramtally.core.cli.scenario_flags import add_scenario_arguments, flag_name, scenario_from_args
from paramtally.core.editing.document import Document
from paramtally.core.errors import ParamTallyWarning
from paramtally.core.io import user_presets
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.scenario import Scenario


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="test")
    add_scenario_arguments(parser)
    return parser


def _scenario(*argv: str) -> Scenario:
    return scenario_from_args(_parser().parse_args(list(argv)))


def _options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {option: action for action in parser._actions for option in action.option_strings}


def test_every_scenario_field_has_a_flag_with_its_description() -> None:
    options = _options(_parser())
    for name, info in Scenario.model_fields.items():
        action = options[flag_name(name)]
        assert action.dest == name
        assert info.description is not None
        assert info.description.rstrip(".").replace("%", "%%") in (action.help or "")


def test_the_flags_scripts_rely_on_keep_their_names() -> None:
    options = _options(_parser())
    for flag in ("--kv-dtype", "--grad-dtype", "--flash-attention", "--no-flash-attention", "--lora-targets"):
        assert flag in options
    assert options["--kv-dtype"].choices == ["fp32", "bf16", "fp16", "fp8", "q8_0", "q4_0"]


def test_fields_that_had_no_flag_now_do() -> None:
    with pytest.warns(ParamTallyWarning, match="--sequence-parallel is for training only"):
        s = _scenario(
            "--cuda-context-bytes", "536870912", "--keep-embeddings-16bit", "--sequence-parallel",
            "--utilization-cap", "0.8", "--encoder-tokens", "1500",
        )  # fmt: skip
    assert (s.cuda_context_bytes, s.keep_embeddings_16bit, s.sequence_parallel) == (1 << 29, True, True)
    assert (s.utilization_cap, s.encoder_tokens) == (0.8, 1500)
    assert _scenario("--no-flash-attention").flash_attention is False


def test_unset_flags_keep_the_defaults_and_tp_alone_sets_the_gpus() -> None:
    assert _scenario() == Scenario()
    assert _scenario("--tp", "4").gpus == 4
    assert _scenario("--tp", "2", "--pp", "2").gpus == 4
    assert _scenario("--tp", "2", "--gpus", "8").gpus == 8


def test_lora_targets_are_a_comma_list() -> None:
    s = _scenario("--mode", "training", "--lora-rank", "8", "--lora-targets", "q, k,o")
    assert s.lora_targets == ("q", "k", "o")


def test_dtype_and_quant_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(["memory", "gpt2", "--dtype", "fp16", "--quant", "q4_0"])
    assert stop.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_help_states_limits_and_defaults() -> None:
    options = _options(_parser())
    assert "0–3" in (options["--zero"].help or "") and "training only" in (options["--zero"].help or "")
    assert "0.01–1" in (options["--mfu"].help or "")
    assert "default q,v" in (options["--lora-targets"].help or "")


@pytest.mark.parametrize("command", ["memory", "compare", "solve", "sweep"])
def test_every_command_with_a_scenario_has_the_same_flags(command: str) -> None:
    subparsers = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    options = _options(subparsers.choices[command])
    assert {flag_name(name) for name in Scenario.model_fields} <= set(options)


def test_a_value_out_of_range_names_the_field(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "gpt2", "--utilization-cap", "1.5"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "utilization_cap" in err


@pytest.mark.parametrize(
    ("flag", "value", "reason"),
    [
        ("--mfu", "nan", "mfu: must be a finite number"),  # not "at most 1.0": NaN compares false
        ("--utilization-cap", "inf", "utilization_cap: must be a finite number"),
        ("--context", "99999999999999999999", "context: must be at most 100,000,000"),  # as --help writes it
    ],
)
def test_a_refused_value_says_why_in_the_helps_words(
    capsys: pytest.CaptureFixture[str], flag: str, value: str, reason: str
) -> None:
    assert main(["memory", "gpt2", flag, value]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [f"paramtally memory: {reason}"]


@pytest.mark.parametrize(
    ("typed", "written"),
    [
        (["--context", "32k"], ["--context", "32768"]),  # a length in tokens: k is 1,024
        (["--context", "1M"], ["--context", "1048576"]),
        (["--context", "8Ki"], ["--context", "8192"]),
        (["--mode", "training", "--tokens", "2T"], ["--mode", "training", "--tokens", "2000000000000"]),
        (["--batch", "1e2", "--generated", "1,024"], ["--batch", "100", "--generated", "1024"]),
        (["--cuda-context-bytes", "512MiB"], ["--cuda-context-bytes", str(512 << 20)]),
        (["--cuda-context-bytes", "0.5GB"], ["--cuda-context-bytes", "500000000"]),
    ],
)
def test_numbers_are_written_as_the_windows_fields_read_them(
    capsys: pytest.CaptureFixture[str], typed: list[str], written: list[str]
) -> None:
    """Issue 31: `--context 32k`, `--tokens 2T` were refused as 'invalid int value'."""
    assert main(["memory", "llama-3-8b", *typed, "--format", "json"]) == 0
    with_suffix = json.loads(capsys.readouterr().out)
    assert main(["memory", "llama-3-8b", *written, "--format", "json"]) == 0
    assert with_suffix == json.loads(capsys.readouterr().out)
    assert _scenario(*typed) == _scenario(*written)


@pytest.mark.parametrize(
    ("flag", "typed", "reason"),
    [
        ("--context", "1.5k", None),  # 1,536: 1.5 × 1,024, a whole number
        ("--context", "1e-3", "'1e-3' is not a whole number (0.001)"),
        ("--batch", "2,5", "'2,5': a comma separates thousands (1,500); a fraction takes a point (1.5)"),
        ("--context", "32KB", "'32KB': unknown suffix 'KB' (it takes k = 1,024 and M = 1,048,576 tokens)"),
        ("--batch", "32KB", "'32KB': unknown suffix 'KB' (it takes k, M, B, T; Ki, Mi, Gi, Ti)"),
        (
            "--cuda-context-bytes",
            "1k",
            "'1k': unknown suffix 'k' (it takes KB, MB, GB, TB, KiB, MiB, GiB, TiB)",
        ),
    ],
)
def test_a_number_that_does_not_read_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], flag: str, typed: str, reason: str | None
) -> None:
    if reason is None:
        assert _scenario(flag, typed).context == 1536
        return
    with pytest.raises(SystemExit):
        main(["memory", "llama-3-8b", flag, typed])
    assert capsys.readouterr().err.splitlines() == [
        f"paramtally memory: argument {flag}: {reason} (see paramtally memory --help)"
    ]


def test_a_flag_of_the_other_mode_is_said_to_be_ignored(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "llama-3-8b", "--zero", "3", "--format", "json"]) == 0
    serving = capsys.readouterr()
    assert "paramtally: warning: --zero is for training only; ignored in inference" in serving.err
    assert main(["memory", "llama-3-8b", "--mode", "training", "--zero", "3", "--format", "json"]) == 0
    assert "--zero" not in capsys.readouterr().err
    assert main(["memory", "llama-3-8b", "--mode", "training", "--generated", "64", "--format", "json"]) == 0
    assert "--generated is for inference only; ignored in training" in capsys.readouterr().err


# --- --gpus while serving: laid out as the window lays out a GPU count typed (core.memory.fit.count_layout)


def _memory_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    return _memory_run(capsys, *argv)[0]


def _memory_run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[dict[str, Any], str]:
    """``paramtally memory ARGV --format json``: its JSON and what it said on stderr."""
    capsys.readouterr()
    assert main(["memory", *argv, "--format", "json"]) == 0
    said = capsys.readouterr()
    data: dict[str, Any] = json.loads(said.out)
    return data, said.err


def _layout(data: dict[str, Any]) -> tuple[int, int, int, int]:
    s = data["scenario"]
    return s["gpus"], s["tp"], s["pp"], s["ep"]


def test_gpus_alone_lay_one_copy_out_and_a_tp_given_is_kept(capsys: pytest.CaptureFixture[str]) -> None:
    alone = _memory_json(capsys, "llama-3-8b")
    spread = _memory_json(capsys, "llama-3-8b", "--gpus", "4")
    assert _layout(spread) == (4, 4, 1, 1) and spread["total_bytes"] < alone["total_bytes"] / 2
    copies = _memory_json(capsys, "llama-3-8b", "--tp", "1", "--gpus", "4")  # four whole copies
    assert _layout(copies) == (4, 1, 1, 1) and copies["total_bytes"] == alone["total_bytes"]
    assert _layout(_memory_json(capsys, "llama-3-8b", "--gpus", "16")) == (16, 8, 2, 1)
    # Training spreads GPUs as data parallel (with ZeRO), as the window does: no layout is chosen.
    assert _layout(_memory_json(capsys, "llama-3-8b", "--mode", "training", "--gpus", "8")) == (8, 1, 1, 1)


def test_an_expert_parallel_size_given_is_kept_on_the_gpus(capsys: pytest.CaptureFixture[str]) -> None:
    assert _layout(_memory_json(capsys, "mixtral-8x7b", "--ep", "2", "--gpus", "2")) == (2, 1, 1, 2)
    assert _layout(_memory_json(capsys, "mixtral-8x7b", "--ep", "2", "--gpus", "8")) == (8, 4, 1, 2)
    assert _layout(_memory_json(capsys, "mixtral-8x7b", "--ep", "2")) == (2, 1, 1, 2)  # GPUs = tp·pp·ep


def test_a_pipeline_given_alone_fills_a_node_with_tp_and_an_ep_given_splits_each_copy(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _layout(_memory_json(capsys, "llama-3-8b", "--pp", "2", "--gpus", "16")) == (16, 8, 2, 1)
    assert _layout(_memory_json(capsys, "llama-3-8b", "--pp", "1", "--gpus", "16")) == (
        16,
        8,
        1,
        1,
    )  # 2 copies
    # DeepSeek-V3's EP 8 over 64 GPUs: copies of 8 GPUs, each two stages of TP 4.
    assert _layout(_memory_json(capsys, "deepseek-v3", "--gpus", "64", "--ep", "8", "--pp", "2")) == (
        64,
        4,
        2,
        8,
    )
    assert _layout(_memory_json(capsys, "deepseek-v3", "--gpus", "16", "--ep", "8", "--pp", "2")) == (
        16,
        1,
        2,
        8,
    )
    # An EP the copies cannot take is lowered to the part of it they can, and said.
    data, err = _memory_run(capsys, "mixtral-8x7b", "--tp", "4", "--ep", "8", "--gpus", "16")
    assert _layout(data) == (16, 4, 1, 4)
    assert "EP 8 does not divide the 4 data-parallel GPUs: EP 4" in err


def test_a_saved_layout_is_not_kept_by_gpus_only_the_flags_given_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The flags are what the window's person typed; a preset saved serving at TP 4 × PP 2 on 8 GPUs
    is laid out afresh, as the window lays out a count typed after opening it."""
    saved = Scenario(gpus=8, tp=4, pp=2).model_dump(mode="json")
    user_presets.save("l8-saved", load_builtin("llama-3-8b"), scenario=saved)
    assert _layout(_memory_json(capsys, "l8-saved")) == (8, 4, 2, 1)  # no flag: as saved
    assert _layout(_memory_json(capsys, "l8-saved", "--tp", "4", "--gpus", "16")) == (16, 4, 1, 1)
    assert _layout(_memory_json(capsys, "l8-saved", "--gpus", "16")) == (16, 8, 2, 1)
    assert _layout(_memory_json(capsys, "l8-saved", "--tp", "2")) == (8, 2, 1, 1)  # TP on the saved 8 GPUs


def test_what_gpus_changed_is_said_under_the_scenario_line(capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["memory", "llama-3-8b", "--tp", "8", "--gpus", "4"]) == 0
    head = capsys.readouterr().out.splitlines()[:3]
    assert "tp 4 · pp 1 · 4 GPUs" in head[1]
    assert head[2] == "  TP 8 does not fit 4 GPUs: laid out as TP 4, as the GPU table does"
    assert main(["memory", "llama-3-8b", "--tp", "4", "--gpus", "4"]) == 0
    assert "laid out" not in capsys.readouterr().out  # the flags' own layout: nothing to say


# --- a user preset's saved scenario: where every command with a scenario starts


SAVED = {"mode": "training", "zero": 3, "gpus": 8, "ep": 8}


@pytest.fixture
def saved_preset() -> str:
    """Mixtral saved as the user preset ``mx-user`` (in the test's own XDG_CONFIG_HOME) with the
    scenario the window's Save keeps: training, ZeRO-3, 8 GPUs, EP 8."""
    assert os.environ["XDG_CONFIG_HOME"] in str(user_presets.presets_dir())
    scenario = Scenario.model_validate(SAVED).model_dump(mode="json")
    user_presets.save("mx-user", load_builtin("mixtral-8x7b"), scenario=scenario)
    return "mx-user"


def test_memory_starts_from_the_scenario_saved_with_a_preset_as_the_window_does(
    saved_preset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    preset = user_presets.load_preset(saved_preset)
    window = Document(preset.architecture, saved_preset, saved_preset, scenario=preset.scenario)
    data, err = _memory_run(capsys, saved_preset)
    assert Scenario.model_validate(data["scenario"]) == window.scenario
    assert {name: data["scenario"][name] for name in SAVED} == SAVED
    assert data["total_bytes"] == estimate_memory(preset.architecture, window.scenario).total_bytes
    assert "paramtally: warning: scenario as saved with mx-user" in err  # JSON has no header for it
    assert main(["memory", saved_preset]) == 0
    head = capsys.readouterr().out.splitlines()[:3]
    assert "training" in head[1] and "8 GPUs · ZeRO-3 · ep 8" in head[1]
    assert head[2] == "  scenario as saved with mx-user"


def test_flags_override_the_saved_scenario_field_by_field(
    saved_preset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _memory_json(capsys, saved_preset, "--gpus", "16", "--context", "2048")
    assert {name: data["scenario"][name] for name in SAVED} == SAVED | {"gpus": 16}
    assert data["scenario"]["context"] == 2048
    assert main(["memory", saved_preset, "--gpus", "16", "--format", "csv"]) == 0
    csv = capsys.readouterr().out
    assert "# note,scenario as saved with mx-user; set on the command line: --gpus\n" in csv
    # Serving it on 16 GPUs lays the saved EP 8 out as a GPU count typed in the window does.
    serving = _memory_json(capsys, saved_preset, "--mode", "inference", "--gpus", "16")
    assert _layout(serving) == (16, 8, 2, 1)


def test_compare_solve_and_sweep_start_from_the_saved_scenario_too(
    saved_preset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    memory = _memory_json(capsys, saved_preset)
    assert main(["compare", saved_preset, "llama-3-8b", "--format", "json"]) == 0
    compared = json.loads(capsys.readouterr().out)
    assert compared["scenario"] == memory["scenario"]  # the first column's, as the window's open model
    assert compared["columns"][0]["memory_bytes"] == memory["total_bytes"]
    assert main(["compare", saved_preset, "llama-3-8b"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "  scenario as saved with mx-user"
    assert (
        main(["solve", saved_preset, "--vary", "batch", "--target", "memory>=1GB", "--format", "json"]) == 0
    )
    solved = json.loads(capsys.readouterr().out)
    assert (solved["value"], solved["memory"]) == (1, memory["total_bytes"])
    assert main(["sweep", saved_preset, "--x", "batch=1,2", "--y", "context=4096", "--figure", "memory"]) == 0
    swept = capsys.readouterr().out.splitlines()
    assert "# note,scenario as saved with mx-user" in swept  # as the memory command's CSV says it
    assert swept[swept.index("") + 2] == f"1,4096,{memory['total_bytes']}"  # after the header


def test_a_saved_scenario_this_version_cannot_read_is_skipped_with_a_warning(
    capsys: pytest.CaptureFixture[str],
) -> None:
    user_presets.save("odd", load_builtin("gpt2"), scenario={"gpus": "8"})  # a string: refused (strict)
    data, err = _memory_run(capsys, "odd")
    assert data["scenario"]["gpus"] == 1
    assert "odd: the saved scenario was skipped (scenario.gpus:" in err  # the window's words


def test_encoder_tokens_for_a_model_without_an_encoder_are_said_to_be_ignored(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """QA: '--encoder-tokens 512' on Llama was taken without a word, and changed nothing."""
    assert main(["memory", "llama-3-8b", "--encoder-tokens", "512", "--format", "json"]) == 0
    plain = capsys.readouterr()
    message = (
        "paramtally: warning: --encoder-tokens is for models with an encoder and a decoder; "
        "ignored for Llama-3-8B"
    )
    assert message in plain.err
    assert main(["memory", "llama-3-8b", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["total_bytes"] == json.loads(plain.out)["total_bytes"]
    assert main(["memory", "t5-base", "--encoder-tokens", "512", "--format", "json"]) == 0
    assert "--encoder-tokens" not in capsys.readouterr().err  # T5 reads them
    options = _options(_parser())
    assert "models with an encoder and a decoder only" in (options["--encoder-tokens"].help or "")
    assert main(["compare", "llama-3-8b", "t5-base", "--encoder-tokens", "512"]) == 0
    assert "--encoder-tokens" not in capsys.readouterr().err  # a column reads them
    assert main(["compare", "llama-3-8b", "gpt2", "--encoder-tokens", "512"]) == 0
    assert "--encoder-tokens is for models with an encoder and a decoder; ignored for models without one" in (
        capsys.readouterr().err
    )
