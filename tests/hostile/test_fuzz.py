"""Mutated files of every kind ParamTally reads, through the real commands (hypothesis).

Seeds are real files (presets, Hugging Face configs, the GPU catalog, a sharded index, a
safetensors header, a GGUF header); each example mutates one (a node replaced by a hostile
value, a key repeated, an integer of hundreds of digits, 1e400, nesting 10,000 deep, bytes
flipped, cut or inserted) and runs the command a person would. Every outcome must be one of:
a result (exit 0, or 1 for a checkpoint that differs), or exit 2 with exactly one line naming
the file, never a traceback; no file opened outside the folder given; the input file unchanged;
an imported preset loads back; what is printed holds no control character, bidirectional
control or lone surrogate, and JSON output parses with finite numbers. Issue 30 added the
surfaces of schema 2: groups × runs × blocks and text lengths around the limits, surrogates, NUL
and U+202E in any text, floats at the edges in flags and files, each family's layer_types, and
path arguments of any length or bytes. Default runs are bounded (~100 examples per kind); ``pytest
-m slow`` runs thousands.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from paramtally.core.cli import main
from paramtally.core.io import presets, user_presets
from tests.hostile import hostile_files as hf
from tests.hostile.opened import outside, recording
from tests.hypothesis_budget import examples

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "tests" / "data" / "hf_configs"
EXAMPLES = examples(100)
SLOW_EXAMPLES = 2000
# Far above a run's Python calls (thousands to a few hundred thousand): only a runaway crosses it.
# Calls, not seconds: their count does not grow when the machine is busy.
CALLS_PER_RUN = 5_000_000

CONFIGS_V2 = ROOT / "tests" / "data" / "hf_configs_v2"
# Schema 2 presets (a pattern of layer groups, an encoder-decoder, MTP modules) and schema 1 files,
# which go through core.io.migrations first.
PRESET_SEEDS = [
    presets.dump_preset(presets.load_builtin(i)).encode()
    for i in ("gpt3-175b", "deepseek-v3", "jamba-v0.1", "whisper-small")
]
PRESET_SEEDS += [
    (ROOT / "tests" / "data" / "schema_v1" / f"{name}.json").read_bytes()
    for name in ("gemma-2-9b", "deepseek-v2-lite")
]
PRESET_SEEDS.append(json.dumps({"n_layers": 2, "hidden_size": 64, "vocab_size": 10, "n_heads": 4}).encode())
CONFIG_SEEDS = [
    (CONFIGS / f"{name}.json").read_bytes()
    for name in (
        "llama-3-8b", "qwen1.5-moe-a2.7b", "qwen3-30b-a3b", "deepseek-v3", "bert-base-uncased",
        "phi-3-mini-4k", "falcon-7b", "gpt2", "gemma-2-9b", "opt-350m", "gpt-neox-20b", "mixtral-8x7b",
    )
] + [
    (CONFIGS_V2 / f"{name}.json").read_bytes()
    for name in (
        "jamba-v0.1", "gemma-3-1b", "gpt-oss-20b", "t5-base", "whisper-small", "qwen3-next-80b-a3b-instruct",
        "synthetic-bamba-defaults-attn-9-18-27", "synthetic-llama4-scout-text-defaults",
    )
]  # fmt: skip
GPU_SEED = (ROOT / "resources" / "gpus.json").read_bytes()
INDEX_SEED = json.dumps({"metadata": {"total_size": 8}, "weight_map": {"model.norm.weight": "a.safetensors"}})
HEADER_SEED = json.dumps({"model.norm.weight": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})

HOSTILE_VALUES: list[Any] = [
    True, False, None, "4096", "no", "", "x" * 10_000, 0, -1, 1.5, 1e30, 1e300, 2**53, 2**63, 2**64 + 1,
    10**29, [], {}, [1, 2], {"a": 1}, [[[[[]]]]], "../../etc/passwd", "/dev/zero",
    # issue 30: text a name must refuse, floats at the edges, enumerations near the real names
    "x\ud800", "\udfff", "a\x00b", "gpt\u202e2", "two\nlines", "\x1b[31mred", "N" * 201, "N" * 200,
    5e-324, 1e-320, 2.2250738585072014e-308, 1.7976931348623157e308, -0.0, 0.01, 0.009999,
    "full_attn", "zz_attention", "sliding_attention", "linear_attention", "chunked_attention", "mamba",
    ["full_attn"], ["attention", "mamba"], ["q", "q"],
]  # fmt: skip
TEXT_INJECTIONS = [
    "9" * 305, "9" * 5000, "1e400", "-1e400", "NaN", "Infinity", "[" * 10_000 + "]" * 10_000,
    '"\\ud800"', '"x\\u0000y"', '"\\u202e"', '"\\udfff\\ud800"', '"\\ud83d\\ude00"',
]  # fmt: skip
# What a person may see or a program read: no character that rewrites a terminal, reorders text or
# stops an encoder (core.text).
UNSAFE_OUTPUT = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def _replace_node(data: Any, keys: list[int], value: Any) -> Any:
    if not keys or not isinstance(data, dict | list) or not data:
        return value
    if isinstance(data, dict):
        key = sorted(data)[keys[0] % len(data)]
        return {**data, key: _replace_node(data[key], keys[1:], value)}
    index = keys[0] % len(data)
    return [*data[:index], _replace_node(data[index], keys[1:], value), *data[index + 1 :]]


@st.composite
def mutated(draw: st.DrawFn, seeds: list[bytes]) -> bytes:
    """One seed, mutated once: a node, a key, a number's text, or raw bytes."""
    seed = draw(st.sampled_from(seeds))
    kind = draw(st.sampled_from(["node", "node", "inject", "repeat-key", "truncate", "flip", "insert"]))
    if kind in ("node", "inject", "repeat-key"):
        data = json.loads(seed)
        keys = draw(st.lists(st.integers(0, 60), min_size=1, max_size=5))
        if kind == "node":
            return json.dumps(_replace_node(data, keys, draw(st.sampled_from(HOSTILE_VALUES)))).encode()
        marker = "__MARK__"
        text = json.dumps(_replace_node(data, keys, marker))
        if kind == "inject":
            return text.replace(f'"{marker}"', draw(st.sampled_from(TEXT_INJECTIONS)), 1).encode()
        # a key given twice: the marked object gets a copy of its first key
        return text.replace(f'"{marker}"', '{"a": 1, "a": 2}', 1).encode()
    if kind == "truncate":
        return seed[: draw(st.integers(0, len(seed) - 1))]
    data = bytearray(seed)
    if kind == "flip":
        for _ in range(draw(st.integers(1, 8))):
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
        return bytes(data)
    at = draw(st.integers(0, len(data)))
    return bytes(data[:at]) + draw(st.binary(min_size=1, max_size=16)) + bytes(data[at:])


def run(*argv: str) -> tuple[int, str, str, list[str], int]:
    """``paramtally ARGV`` in this process: exit status, stdout, stderr, files opened, Python calls."""
    out, err = io.StringIO(), io.StringIO()
    calls = [0]

    def count(frame: object, event: str, arg: object) -> None:
        calls[0] += event == "call"

    with recording() as opened, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        sys.setprofile(count)
        try:
            code = main(list(argv))  # an exception escaping here fails the example: a traceback
        except SystemExit as exit_:  # argparse refusing an argument: its status, its one line
            code = exit_.code if isinstance(exit_.code, int) else 2
        finally:
            sys.setprofile(None)
    return code, out.getvalue(), err.getvalue(), opened, calls[0]


def check(outcome: tuple[int, str, str, list[str], int], folder: Path, allowed: set[int]) -> int:
    code, out, err, opened, calls = outcome
    event(f"exit {code}")
    assert code in allowed | {2}, (code, err)
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("paramtally "), err
    assert "Traceback" not in err
    assert not UNSAFE_OUTPUT.search(out + err), (out + err)[:2000]
    if out.startswith("{"):  # --format json: JSON, every number finite
        json.loads(out, parse_constant=lambda token: pytest.fail(f"{token} in JSON output"))
    assert not outside(opened, folder, Path(os.environ["XDG_CONFIG_HOME"])), outside(opened, folder)
    assert calls < CALLS_PER_RUN, f"{calls:,} Python calls"
    return code


def _unchanged(path: Path) -> Callable[[], None]:
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    return lambda: (path.read_bytes(), path.stat().st_mtime_ns) == before or pytest.fail(f"{path} changed")


def _fuzz(count: int, fresh: bool = False) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``count`` examples: the profile's (CI's are the same every run), or ``fresh`` ones each run."""
    return settings(
        max_examples=count,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        **({"derandomize": False} if fresh else {}),
    )


# --- one oracle per kind of file ------------------------------------------------------------------------


def preset_or_config(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "model.json"
    path.write_bytes(content)
    unchanged = _unchanged(path)
    for argv in (["count", str(path)], ["memory", str(path)]):
        check(run(*argv), tmp_path, {0})
    imported = check(run("presets", "import", str(path), "--id", "fuzzed", "--force"), tmp_path, {0})
    if imported == 0:  # what was written must load back
        check(run("count", "fuzzed"), tmp_path, {0}) == 0 or pytest.fail("an imported preset does not load")
        user_presets.delete("fuzzed")
    unchanged()


def explore_source(tmp_path: Path, content: bytes) -> None:
    """compare, solve and sweep with a hostile SOURCE: the same loader, the same one line."""
    path = tmp_path / "model.json"
    path.write_bytes(content)
    unchanged = _unchanged(path)
    for argv in (
        ["compare", str(path), "gpt2"],
        ["compare", "gpt2", "--baseline", str(path)],
        ["solve", str(path), "--vary", "num_layers", "--target", "total=1B"],
        ["sweep", str(path), "--x", "num_layers=1:4", "--y", "hidden_size=256,512"],
    ):
        check(run(*argv), tmp_path, {0})
    unchanged()


def gpu_catalog(tmp_path: Path, content: bytes) -> None:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "paramtally" / "gpus.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    unchanged = _unchanged(path)
    code, _out, err, *_ = outcome = run("memory", "gpt2")
    check(outcome, tmp_path, {0})
    assert code == 0, err  # a broken catalog never stops memory
    assert len([line for line in err.splitlines() if "gpus.json" in line]) <= 1
    unchanged()


def sharded_index(tmp_path: Path, content: bytes) -> None:
    folder = tmp_path / "model"
    folder.mkdir(exist_ok=True)
    (folder / "model.safetensors.index.json").write_bytes(content)
    (folder / "a.safetensors").write_bytes(hf.valid_safetensors())
    (folder / "config.json").write_bytes(CONFIG_SEEDS[0])
    check(run("verify", str(folder), "--summary"), folder, {0, 1})


def safetensors_header(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "m.safetensors"
    path.write_bytes(hf.safetensors(None, bytes(64), raw_header=content))
    check(run("verify", str(path), "--preset", "gpt2", "--summary"), tmp_path, {0, 1})


def gguf_file(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "m.gguf"
    path.write_bytes(content)
    check(run("verify", str(path), "--summary"), tmp_path, {0, 1})


@st.composite
def gguf_bytes(draw: st.DrawFn) -> bytes:
    """A valid tiny GGUF with bytes flipped, cut, or a field overwritten with a huge number."""
    seed = bytearray(hf.llama_gguf(draw(st.sampled_from([1, 2, 10**9]))))
    kind = draw(st.sampled_from(["flip", "truncate", "u64"]))
    if kind == "truncate":
        return bytes(seed[: draw(st.integers(0, len(seed) - 1))])
    if kind == "flip":
        for _ in range(draw(st.integers(1, 6))):
            seed[draw(st.integers(0, len(seed) - 1))] = draw(st.integers(0, 255))
        return bytes(seed)
    at = draw(st.integers(4, len(seed) - 8))
    seed[at : at + 8] = draw(st.sampled_from([2**62, 2**63 - 1, 2**64 - 1, 10**18, 2**32])).to_bytes(
        8, "little"
    )
    return bytes(seed)


# --- issue 30's surfaces -------------------------------------------------------------------------

GPT2 = json.loads(presets.dump_preset(presets.load_builtin("gpt2")))


@st.composite
def totals(draw: st.DrawFn) -> bytes:
    """A preset around the limits on totals: groups × runs per pattern × repetitions, named blocks,
    name and description lengths (core.schema.limits)."""
    data = json.loads(json.dumps(GPT2))
    blocks = draw(st.sampled_from([1, 2, 255, 256, 257]))
    for index in range(1, blocks):
        data["blocks"][f"b{index}"] = dict(
            data["blocks"]["default"], ffn={**data["blocks"]["default"]["ffn"], "width": 8 * index}
        )
    pair = [{"count": 1}, {"count": 1, "block": "b1" if blocks > 1 else "default"}]
    runs = draw(st.sampled_from([1, 2, 2047, 2048, 2049, 4096]))
    groups = draw(st.sampled_from([1, 2, 3, 30, 1000, 1001]))
    inner = {"count": max(runs // 2, 1), "pattern": pair}
    repeats = draw(st.sampled_from([1, 5, 1 << 20]))
    data["decoder"]["layers"] = [{"count": repeats, "pattern": [inner]}] * groups
    data["name"] = "N" * draw(st.sampled_from([1, 200, 201, 300_000]))
    data["description"] = "d\n" * draw(st.sampled_from([0, 5_000, 5_001]))
    return json.dumps(data).encode()


def totals_oracle(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "model.json"
    path.write_bytes(content)
    for argv in (["count", str(path)], ["memory", str(path), "--format", "json"]):
        check(run(*argv), tmp_path, {0})


LAYER_TYPE_FAMILIES = [
    "qwen3_next", "gpt_oss", "gemma3_text", "cohere2", "granitemoehybrid", "qwen2", "gemma2", "llama4_text",
    "llama", "jamba",
]  # fmt: skip
LAYER_TYPE_NAMES = [
    "full_attention", "sliding_attention", "linear_attention", "chunked_attention", "attention", "mamba",
    "hybrid", "conv", "full_attn", "zz_attention", "", "FULL_ATTENTION",
]  # fmt: skip
MEASURED_LAYER_TYPES = json.loads((ROOT / "tests" / "golden" / "layer_types.json").read_text())["families"]


@st.composite
def layer_type_configs(draw: st.DrawFn) -> bytes:
    family = draw(st.sampled_from(LAYER_TYPE_FAMILIES))
    layers = draw(st.integers(1, 6))
    kinds = draw(st.lists(st.sampled_from(LAYER_TYPE_NAMES), min_size=layers, max_size=layers + 1))
    return json.dumps({"model_type": family, "num_hidden_layers": layers, "layer_types": kinds}).encode()


def layer_types_oracle(tmp_path: Path, content: bytes) -> None:
    """Taken only if transformers runs every type listed (tools/measure_layer_types.py), one per layer."""
    path = tmp_path / "config.json"
    path.write_bytes(content)
    code = check(run("count", str(path)), tmp_path, {0})
    config = json.loads(content)
    measured = MEASURED_LAYER_TYPES[config["model_type"]]
    runnable = len(config["layer_types"]) == config["num_hidden_layers"] and all(
        measured.get(kind) == "runs" for kind in config["layer_types"]
    )
    if code == 0:
        assert runnable, config


FLAG_FLOATS = [
    "5e-324",
    "1e-320",
    "0",
    "-0.0",
    "0.01",
    "0.5",
    "1",
    "1.0000001",
    "1e308",
    "inf",
    "nan",
    "1e400",
    "x",
]


@st.composite
def scenario_flags(draw: st.DrawFn) -> bytes:
    argv = [
        "--mfu",
        draw(st.sampled_from(FLAG_FLOATS)),
        "--utilization-cap",
        draw(st.sampled_from(FLAG_FLOATS)),
    ]
    argv += draw(st.sampled_from([[], ["--mode", "training"], ["--mode", "training", "--gpus", "8"]]))
    target = draw(st.sampled_from(["memory<=", "time=", "total="])) + draw(
        st.sampled_from([*FLAG_FLOATS, "1e999999999", "7B", "30d"])
    )
    return json.dumps({"flags": argv, "target": target}).encode()


def flags_oracle(tmp_path: Path, content: bytes) -> None:
    given = json.loads(content)
    check(run("memory", "llama-3-8b", "--format", "json", *given["flags"]), tmp_path, {0})
    solve = ["solve", "gpt2", "--vary", "num_layers", "--target", given["target"], "--format", "json"]
    check(run(*solve, *given["flags"]), tmp_path, {0})


@st.composite
def path_arguments(draw: st.DrawFn) -> bytes:
    raw = draw(st.binary(min_size=1, max_size=40).filter(lambda b: b"\x00" not in b))
    return draw(st.sampled_from([b"", b"/tmp/", b"~", b"~nobody-here/"])) + raw * draw(
        st.sampled_from([1, 300])
    )


def path_oracle(tmp_path: Path, content: bytes) -> None:
    """A path as the shell hands it over (os.fsdecode of its bytes), to every command that reads
    one: a result or one line, never a traceback (what it opens is what the person named)."""
    argument = os.fsdecode(content)
    output = str(tmp_path / "x" / argument.lstrip("/~"))  # an output inside the folder, never /tmp's
    for argv in (["count", argument], ["verify", argument], ["count", "gpt2", "-o", output]):
        code, out, err, _opened, _calls = run(*argv)
        event(f"exit {code}")
        assert code in (0, 1, 2), (code, err)
        assert code != 2 or len(err.strip().splitlines()) == 1, err
        assert "Traceback" not in err and not UNSAFE_OUTPUT.search(out + err), err


@st.composite
def hostile_tensor_names(draw: st.DrawFn) -> bytes:
    hostile = [
        "model.norm.weight",
        "evil\x1b[31m",
        "a\u202eb",
        "n\x00ul",
        "x\ud800",
        "two\nlines",
        "\x85next",
    ]
    names = draw(st.lists(st.sampled_from(hostile), min_size=1, max_size=4, unique=True))
    entry = {
        "dtype": draw(st.sampled_from(["F32", "F\u202e", "F\ud800"])),
        "shape": [2],
        "data_offsets": [0, 8],
    }
    return json.dumps(
        {name: dict(entry, data_offsets=[0, 8]) for name in names[:1]}
        | {name: {"dtype": "U8", "shape": [0], "data_offsets": [8, 8]} for name in names[1:]}
    ).encode()


def tensor_names_oracle(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "m.safetensors"
    path.write_bytes(hf.safetensors(None, bytes(8), raw_header=content))
    for output in ([], ["--format", "json"]):
        check(run("verify", str(path), "--preset", "gpt2", *output), tmp_path, {0, 1})


KINDS: dict[str, tuple[Callable[[Path, bytes], None], st.SearchStrategy[bytes]]] = {
    "totals": (totals_oracle, totals()),
    "layer_types": (layer_types_oracle, layer_type_configs()),
    "scenario flags": (flags_oracle, scenario_flags()),
    "path arguments": (path_oracle, path_arguments()),
    "tensor names": (tensor_names_oracle, hostile_tensor_names()),
    "preset": (preset_or_config, mutated(PRESET_SEEDS)),
    "config.json": (preset_or_config, mutated(CONFIG_SEEDS)),
    "explore SOURCE": (explore_source, mutated(PRESET_SEEDS + CONFIG_SEEDS)),
    "gpus.json": (gpu_catalog, mutated([GPU_SEED])),
    "index.json": (sharded_index, mutated([INDEX_SEED.encode()])),
    "safetensors header": (safetensors_header, mutated([HEADER_SEED.encode()])),
    "gguf": (gguf_file, gguf_bytes()),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
@_fuzz(EXAMPLES)
@given(data=st.data())
def test_mutated_files(tmp_path_factory: pytest.TempPathFactory, kind: str, data: st.DataObject) -> None:
    oracle, files = KINDS[kind]
    oracle(tmp_path_factory.mktemp("fuzz"), data.draw(files))


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(KINDS))
@_fuzz(SLOW_EXAMPLES, fresh=True)
@given(data=st.data())
def test_mutated_files_long(tmp_path_factory: pytest.TempPathFactory, kind: str, data: st.DataObject) -> None:
    oracle, files = KINDS[kind]
    oracle(tmp_path_factory.mktemp("fuzz"), data.draw(files))
