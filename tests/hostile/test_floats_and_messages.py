"""Issue 30's smaller items: every derived float finite and an absurd number refused where it is
read; messages in the file's own words (its key, no pydantic phrasing, the file named); the MTP
override held to the layers' rules; a killed export's temporary file swept."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.cli import main
from paramtally.core.io.atomic import STALE_TEMP_SECONDS, TEMP_PATTERN, write_text_atomic
from paramtally.core.io.presets import dump_preset, load_builtin
from paramtally.core.text import json_text

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "tests" / "data"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refusal(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, _, err = run(capsys, *argv)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, (code, err)
    return lines[0]


# --- floats ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("extra", [[], ["--mode", "training", "--format", "json"]])
@pytest.mark.parametrize("mfu", ["1e-320", "5e-324", "0.009"])
def test_an_absurd_mfu_is_refused_where_it_is_read(
    capsys: pytest.CaptureFixture[str], extra: list[str], mfu: str
) -> None:
    assert (
        refusal(capsys, "memory", "llama-3-8b", "--mfu", mfu, *extra)
        == "paramtally memory: mfu: must be at least 0.01"
    )


def test_the_lowest_mfu_gives_finite_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "memory", "llama-3-8b", "--mfu", "0.01", "--mode", "training", "--format", "json"
    )
    assert code == 0, err
    seconds = json.loads(out)["flops"]["seconds"]
    assert math.isfinite(seconds) and "Infinity" not in out and "NaN" not in out


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("memory<=1e400GB", "--target memory: '1e400GB' is more than 10^30 bytes"),
        ("time=1e400s", "--target time: '1e400s' is more than 10^30 days"),
        ("total=1e31", "--target total: '1e31' is more than 10^30 params"),
        ("total=1e999999999", "--target total: '1e999999999' is more than 10^30 params"),
        ("total=-5", "--target total: '-5' is negative; a number of params is at least 0"),
        ("total=nan", "--target total: 'nan' is not a number of params"),
    ],
)
def test_an_absurd_target_is_refused_where_it_is_read(
    capsys: pytest.CaptureFixture[str], target: str, said: str
) -> None:
    line = refusal(
        capsys, "solve", "llama-3-8b", "--vary", "num_layers", "--target", target, "--mode", "training"
    )
    assert said in line


def test_json_never_holds_infinity_or_nan() -> None:
    for value in (math.inf, -math.inf, math.nan):
        with pytest.raises(ValueError, match="a figure is not a finite number"):
            json_text({"seconds": value})


def test_a_gpu_slower_than_a_gflops_is_skipped_with_a_warning(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "paramtally" / "gpus.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    slow = {"id": "slow", "name": "Slow", "memory_bytes": 10**9, "bf16_tflops": 1e-300, "bandwidth_gbs": 1.0}
    path.write_text(json.dumps([slow]))
    try:
        code, _, err = run(capsys, "memory", "gpt2", "--mode", "training", "--format", "json")
    finally:
        path.unlink()
    assert code == 0
    assert "gpus.0.bf16_tflops: must be at least 0.001; entry skipped" in err


# --- messages in the file's own words -------------------------------------------------------------


def _config(tmp_path: Path, seed: str, **changes: Any) -> str:
    data = json.loads((CONFIGS / seed).read_text())
    path = tmp_path / "config.json"
    path.write_text(json.dumps({**data, **changes}))
    return str(path)


@pytest.mark.parametrize(
    ("seed", "changes", "said"),
    [
        ("hf_configs_v2/whisper-small.json", {"d_model": 2**25}, "d_model: must be at most 16,777,216"),
        ("hf_configs_v2/whisper-small.json", {"num_mel_bins": 10**6}, "num_mel_bins: must be at most 65,536"),
        ("hf_configs_v2/whisper-small.json", {"decoder_ffn_dim": 2**25}, "decoder_ffn_dim: must be at most"),
        (
            "hf_configs/mixtral-8x7b.json",
            {"num_experts_per_tok": 99},
            "num_experts_per_tok: experts per token (99)",
        ),
        ("hf_configs/mixtral-8x7b.json", {"vocab_size": 2**25}, "vocab_size: must be at most 16,777,216"),
    ],
)
def test_a_hugging_face_configs_refusal_names_its_own_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: str, changes: dict[str, Any], said: str
) -> None:
    source = _config(tmp_path, seed, **changes)
    assert refusal(capsys, "count", source).startswith(f"paramtally count: {source}: {said}")


def test_advice_about_a_hugging_face_configs_field_names_its_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _config(tmp_path, "hf_configs_v2/whisper-small.json", d_model=770)
    code, _, err = run(capsys, "count", source)
    assert code == 0
    assert "paramtally: warning: d_model: The hidden size 770 is not a multiple of 64" in err
    assert "hidden_size:" not in err and "embeddings.vocab_size" not in err


@pytest.mark.parametrize(
    ("path", "value", "said"),
    [
        (
            ("blocks", "default", "mixer", "kind"),
            "transformer",
            "blocks.default.mixer.kind: must be one of 'attention', ",
        ),
        (("name",), 5, "name: must be text"),
        (
            ("blocks", "default", "mixer", "num_heads"),
            [12],
            "blocks.default.mixer.num_heads: must be a whole number",
        ),
    ],
)
def test_no_pydantic_phrasing_reaches_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], path: tuple[str, ...], value: Any, said: str
) -> None:
    data = json.loads(dump_preset(load_builtin("gpt2")))
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    source = tmp_path / "model.json"
    source.write_text(json.dumps(data))
    line = refusal(capsys, "count", str(source))
    assert said in line
    assert "Input should" not in line and "Input tag" not in line


def test_a_saved_scenario_with_an_unknown_gpu_is_skipped_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(dump_preset(load_builtin("gpt2"))) | {"scenario": {"gpus": 8, "gpu": "NoSuchGPU"}}
    source = tmp_path / "model.json"
    source.write_text(json.dumps(data))
    code, out, err = run(capsys, "memory", str(source))
    assert code == 0 and out.startswith("GPT-2: ")
    skipped = f"{source}: the saved scenario was skipped (scenario.gpu: unknown GPU 'NoSuchGPU'"
    assert f"paramtally: warning: {skipped}" in err


# --- the MTP override, held to the layers' rules --------------------------------------------------


def _with_mtp_override(tmp_path: Path, override: dict[str, Any]) -> str:
    data = json.loads(dump_preset(load_builtin("deepseek-v3")))
    data["mtp"]["override"] = override
    source = tmp_path / "model.json"
    source.write_text(json.dumps(data))
    return str(source)


@pytest.mark.parametrize(
    ("override", "said"),
    [
        (
            {"cross_attention": {"kind": "attention", "num_heads": 8}},
            "mtp.override.cross_attention: cross-attention needs an encoder to attend to",
        ),
        ({"ffn": {"num_experts": -1}}, "mtp.override.ffn.num_experts: is not a known setting"),
        (
            {"ffn": {"kind": "moe", "num_experts": 8, "top_k": 99, "expert_width": 64}},
            "mtp.override.ffn.top_k: experts per token (99) exceed the experts (8)",
        ),
    ],
)
def test_an_mtp_override_is_refused_at_its_own_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], override: dict[str, Any], said: str
) -> None:
    source = _with_mtp_override(tmp_path, override)
    assert refusal(capsys, "count", source) == f"paramtally count: {source}: {said}"


# --- a killed export's temporary file ---------------------------------------------------------------

KILLED_EXPORT = textwrap.dedent(
    """
    import os, sys, time
    from paramtally.core.cli import main
    def stop_inside_the_write(fd):
        print("fsync", flush=True)
        time.sleep(600)  # killed here: the temporary file is on disk, the target not yet replaced
    os.fsync = stop_inside_the_write
    main(["count", "gpt2", "--format", "csv", "-o", sys.argv[1]])
    """
)


def test_a_killed_exports_temporary_file_is_swept_by_the_next_write_of_that_file(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_EXPORT, str(target)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline() == "fsync\n"
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    child.stdout.close()
    leftovers = [path for path in tmp_path.iterdir() if TEMP_PATTERN.fullmatch(path.name)]
    assert len(leftovers) == 1 and not target.exists()
    young = tmp_path / ".out.csv.young123.tmp"  # another write of it may be running right now
    other = tmp_path / ".other.csv.abcdefgh.tmp"  # not this file's
    for path in (young, other):
        path.write_text("partial")
    hour_ago = time.time() - STALE_TEMP_SECONDS - 1
    for path in (leftovers[0], other):
        os.utime(path, (hour_ago, hour_ago))
    write_text_atomic(target, "figures\n")
    assert target.read_text() == "figures\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(["out.csv", young.name, other.name])
