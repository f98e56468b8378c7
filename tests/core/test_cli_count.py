"""``paramtally count`` as a person runs it."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from paramtally.core.cli import main
from paramtally.main import main as paramtally_main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_has_total_active_and_parts_that_sum(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", "gpt3-175b", "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert data["total"] == 175_221_817_344
    assert data["active"] == data["total"]
    assert sum(part["params"] for part in data["parts"]) == data["total"]
    assert all({"name", "params", "formula"} <= part.keys() for part in data["parts"])
    assert data["mtp"] == 0 and data["mtp_parts"] == []


def test_json_has_the_mtp_modules_parts_apart(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", "deepseek-v3", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["total"] == sum(part["params"] for part in data["parts"])
    assert data["mtp"] == sum(part["params"] for part in data["mtp_parts"]) == 13_463_426_048
    assert data["total_with_mtp"] == data["total"] + data["mtp"]
    assert {part["part"] for part in data["mtp_parts"]} >= {"moe_experts", "attention"}


def test_no_bias_option(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "count", "gpt3-175b", "--no-bias", "--format", "json")
    assert json.loads(out)["total"] == 175_211_200_512


def test_table_is_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "count", "gpt3-175b")
    assert "175,221,817,344" in out and "175.22B" in out
    assert "1,812,099,072" in out  # one block, with biases
    assert "%" in out


def test_csv_leaf_rows_sum_to_total(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "count", "gpt3-175b", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert sum(int(row["params"]) for row in rows if row["is_leaf"] == "true") == 175_221_817_344


def test_preset_file_path(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", str(ROOT / "presets" / "gpt3-175b.json"), "--format", "json")
    assert code == 0 and json.loads(out)["total"] == 175_221_817_344


@pytest.mark.parametrize(
    ("where", "value", "field"),
    [
        (("blocks", "default", "mixer", "num_kv_heads"), 5, "blocks.default.mixer.num_kv_heads"),
        (("hidden_size",), -1, "hidden_size"),
        (("hidden_size",), 0, "hidden_size"),
        (("decoder", "layers"), [{"count": 0}], "decoder.layers.0.count"),
        (
            ("decoder", "layers"),
            [{"count": 1, "override": {"ffn": {"width": 0}}}],
            "decoder.layers.0.override.ffn.width",
        ),
        (("decoder", "layers"), [{"count": 1, "block": "nope"}], "decoder.layers.0.block"),
        # An override is a mapping of the block's fields (found by the fuzz tests: true crashed).
        (("decoder", "layers"), [{"count": 1, "override": True}], "decoder.layers.0.override"),
        (("mtp",), {"count": 1, "block": "default", "override": True}, "mtp.override"),
    ],
)
def test_bad_files_name_the_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, where: tuple[str, ...], value: object, field: str
) -> None:
    data = json.loads((ROOT / "presets" / "gpt3-175b.json").read_text())
    node = data
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    code, out, err = run(capsys, "count", str(path))
    assert code == 2 and out == ""
    assert field in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_unknown_preset_and_broken_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "count", "no-such-model")
    assert code == 2 and "unknown preset" in err
    broken = tmp_path / "broken.json"
    broken.write_text('{"hidden_size": 12')
    code, _, err = run(capsys, "count", str(broken))
    assert code == 2 and "not valid JSON" in err


def test_cli_imports_no_qt() -> None:
    probe = "import sys; sys.argv=['paramtally','count','gpt3-175b']; "
    probe += "from paramtally.main import main; main(); "
    probe += "bad=[m for m in sys.modules if m.split('.')[0] in ('PySide6','pyqtgraph','superqt') "
    probe += "or m.startswith('paramtally.gui')]; "
    probe += "assert not bad, bad"
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "175,221,817,344" in result.stdout


def test_ctrl_c_stops_a_command_with_status_130_and_no_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Writing to a FIFO nobody reads waits for a reader: the command is surely running when
    # SIGINT, what Ctrl-C sends, arrives.
    # A process started in the background (as CI may run the tests) ignores SIGINT: take it as a
    # terminal's foreground process does.
    fifo = tmp_path / "unread"
    os.mkfifo(fifo)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        code = main(["count", "gpt2", "--format", "csv", "-o", str(fifo)])
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    out, err = capsys.readouterr()
    assert code == 130 and out == "" and "Traceback" not in err


def test_a_usage_error_is_one_line_naming_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["memory", "gpt2", "--context", "4x"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.splitlines() == [
        "paramtally memory: argument --context: '4x': unknown suffix 'x' "
        "(it takes k = 1,024 and M = 1,048,576 tokens) (see paramtally memory --help)"
    ]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["count", "gpt2", "--bogus"], "paramtally count: unrecognized arguments: --bogus"),
        (
            ["presets", "export", "gpt2", "-o", "gpt2.json"],
            "paramtally presets export: unrecognized arguments: -o",
        ),
    ],
)
def test_an_option_a_command_does_not_take_is_refused_by_that_command(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    # The top-level --help lists no command's options: the line points at the command's own.
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    command = said.split(":")[0]
    assert capsys.readouterr().err.splitlines() == [f"{said} (see {command} --help)"]


@pytest.mark.parametrize(
    ("typed", "meant"), [("memroy", "memory"), ("compre", "compare"), ("sweeps", "sweep")]
)
def test_a_mistyped_command_is_named_not_opened_in_the_window(
    capsys: pytest.CaptureFixture[str], typed: str, meant: str
) -> None:
    assert paramtally_main([typed, "gpt2"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"paramtally: '{typed}' is not a command (did you mean {meant}?)"
    ]


def test_a_config_json_without_model_type_is_named_as_such(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "config.json"
    config.write_text(
        json.dumps({"architectures": ["LlamaForCausalLM"], "hidden_size": 4096, "num_hidden_layers": 32})
    )
    assert main(["count", str(config)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"paramtally count: {config}: reads as a Hugging Face config.json without its model_type; "
        'add it (e.g. "model_type": "llama") so the importer knows the model family'
    ]


def test_a_bad_file_is_named_as_typed_so_two_folders_are_told_apart(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`compare a b` of two checkpoint folders said "config.json: …" of whichever was wrong."""
    config = {"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4, "num_hidden_layers": 2,
              "intermediate_size": 128, "vocab_size": 128}  # fmt: skip
    for folder, heads in (("a", 4), ("b", 0)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "config.json").write_text(json.dumps({**config, "num_attention_heads": heads}))
    monkeypatch.chdir(tmp_path)
    assert main(["compare", "a", "b"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "paramtally compare: b/config.json: num_attention_heads must be a positive integer (got 0)"
    ]
    assert main(["count", "a", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["name"] == "llama (config.json)"  # named as before


def test_a_small_share_keeps_two_significant_digits(capsys: pytest.CaptureFixture[str]) -> None:
    """QA: Llama-3-70B's norms, 1,318,912 of 70,553,706,496, read '0.00%' in the count and the
    report, as if they held nothing; the window said 0.0019 %."""
    code, out, _ = run(capsys, "count", "llama-3-70b")
    assert code == 0
    norms = next(line for line in out.splitlines() if line.strip().startswith("Norms"))
    assert norms.split() == ["Norms", "1,318,912", "1.32M", "0.0019%"]
    assert " 79.90%" in out and "0.00%" not in out
    code, out, _ = run(capsys, "report", "llama-3-70b", "--format", "md")
    assert code == 0 and "| Norms | 1,318,912 | 0.0019% |" in out


def test_a_misspelt_config_key_is_said_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """QA: a config.json with 'num_hidden_layer' (for num_hidden_layers: 22 layers) counted
    Llama's default 32 layers and said nothing. transformers too keeps the default, so the count
    stands; a line on stderr names the key and the key it was likely meant for."""
    data = json.loads((Path(__file__).parents[1] / "data" / "hf_configs" / "llama-2-7b.json").read_text())
    data["num_hidden_layers"] = 32  # LlamaConfig's default, spelt right: no warning
    (tmp_path / "config.json").write_text(json.dumps(data), "utf-8")
    code, right, err = run(capsys, "count", str(tmp_path / "config.json"), "--format", "json")
    assert code == 0 and err == ""
    data["num_hidden_layer"] = 22
    del data["num_hidden_layers"]
    (tmp_path / "config.json").write_text(json.dumps(data), "utf-8")
    code, out, err = run(capsys, "count", str(tmp_path / "config.json"), "--format", "json")
    assert code == 0 and json.loads(out)["total"] == json.loads(right)["total"]  # the default's count
    assert err.splitlines() == [
        f"paramtally: warning: {tmp_path / 'config.json'}: 'num_hidden_layer' is no key llama reads; "
        "counted with the default of num_hidden_layers (misspelt?)"
    ]


def test_the_layer_table_names_each_layer_s_mixer_and_its_stack(capsys: pytest.CaptureFixture[str]) -> None:
    """A hybrid's table says which layers are Mamba and which attention (it gave the FFN's kind
    alone), and an encoder-decoder's which stack a layer is in (both count from 0)."""
    code, out, _ = run(capsys, "count", "jamba-v0.1", "--layers")
    lines = out.splitlines()
    header = lines.index(next(line for line in lines if line.startswith("layer")))
    assert code == 0 and lines[header].split() == ["layer", "mixer", "ffn", "params", "active"]
    layers = [line.split()[:3] for line in lines[header + 2 :]]
    assert layers[:5] == [
        ["0", "mamba", "dense"],
        ["1", "mamba", "moe"],
        ["2", "mamba", "dense"],
        ["3", "mamba", "moe"],
        ["4", "attention", "dense"],
    ]
    assert sum(mixer == "attention" for _, mixer, _ in layers) == 4  # one in every 8 of 32

    code, out, _ = run(capsys, "count", "t5-base", "--layers")
    rows = [line.split() for line in out.splitlines() if line.startswith(("encoder ", "decoder "))]
    assert code == 0 and len(rows) == 24
    assert rows[0][:4] == ["encoder", "0", "attention", "dense"]
    assert rows[12][:2] == ["decoder", "0"] and rows[12][4] == "9,439,488"  # its cross-attention too
