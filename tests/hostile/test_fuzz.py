"""Mutated files of every kind ParamTally reads, through the real commands (hypothesis).

Seeds are real files (presets, Hugging Face configs, the GPU catalog, a sharded index, a
safetensors header, a GGUF header); each example mutates one (a node replaced by a hostile
value, a key repeated, an integer of hundreds of digits, 1e400, nesting 10,000 deep, bytes
flipped, cut or inserted) and runs the command a person would. Every outcome must be one of:
a result (exit 0, or 1 for a checkpoint that differs), or exit 2 with exactly one line naming
the file, never a traceback; no file opened outside the folder given; the input file unchanged;
an imported preset loads back. Default runs are bounded (~100 examples per kind); ``pytest -m
slow`` runs thousands.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from paramtally.core import presets, user_presets
from paramtally.core.cli import main
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
# which go through core.migrations first.
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
]  # fmt: skip
TEXT_INJECTIONS = ["9" * 305, "9" * 5000, "1e400", "-1e400", "NaN", "Infinity", "[" * 10_000 + "]" * 10_000]


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
        finally:
            sys.setprofile(None)
    return code, out.getvalue(), err.getvalue(), opened, calls[0]


def check(outcome: tuple[int, str, str, list[str], int], folder: Path, allowed: set[int]) -> int:
    code, _out, err, opened, calls = outcome
    event(f"exit {code}")
    assert code in allowed | {2}, (code, err)
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("paramtally "), err
    assert "Traceback" not in err
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


KINDS: dict[str, tuple[Callable[[Path, bytes], None], st.SearchStrategy[bytes]]] = {
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
