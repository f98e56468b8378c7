"""The scenario flags are generated from the Scenario schema: every field has one, with its help,
choices and limits, and the flag names scripts rely on stay."""

from __future__ import annotations

import argparse

import pytest

from paramtally.core.cli import build_parser, main
from paramtally.core.cli.scenario_flags import add_scenario_arguments, flag_name, scenario_from_args
from paramtally.core.errors import ParamTallyWarning
from paramtally.core.scenario import Scenario


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
    assert "> 0 and ≤ 1" in (options["--mfu"].help or "")
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


def test_a_flag_of_the_other_mode_is_said_to_be_ignored(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "llama-3-8b", "--zero", "3", "--format", "json"]) == 0
    serving = capsys.readouterr()
    assert "paramtally: warning: --zero is for training only; ignored in inference" in serving.err
    assert main(["memory", "llama-3-8b", "--mode", "training", "--zero", "3", "--format", "json"]) == 0
    assert "--zero" not in capsys.readouterr().err
    assert main(["memory", "llama-3-8b", "--mode", "training", "--generated", "64", "--format", "json"]) == 0
    assert "--generated is for inference only; ignored in training" in capsys.readouterr().err
