"""Cost bounded by what a file holds (issue 30): limits on totals, each refused in one line naming
the file, the field and the limit, and a cost that grows at most linearly with the file's bytes.

Before: 30 groups of a 4,094-run pattern (4 KB) took count 15 s and 1 GB, 100 groups 45 s and
3.4 GB, 1,000 groups 24 GB until the kernel killed it; a 4 MB preset of 340,000 groups took 4 s.
The limits live in ``core.schema.limits``; every command goes through the same schema.
"""

from __future__ import annotations

import gc
import json
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.io.model_sources import read_source
from paramtally.core.io.presets import MAX_PRESET_BYTES, dump_preset, load_builtin
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema.limits import (
    MAX_BLOCKS,
    MAX_DESCRIPTION_CHARS,
    MAX_GROUPS,
    MAX_NAME_CHARS,
    MAX_RUNS,
)
from tests.hostile.hostile_files import valid_safetensors
from tests.hostile.support import probe

GPT2: dict[str, Any] = json.loads(dump_preset(load_builtin("gpt2")))


def _copy(data: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(json.dumps(data))
    return result


def _two_blocks() -> dict[str, Any]:
    data = _copy(GPT2)
    data["blocks"]["b"] = _copy(data["blocks"]["default"])
    data["blocks"]["b"]["ffn"]["width"] = 1024
    return data


def alternating_groups(groups: int, runs: int = 4094) -> dict[str, Any]:
    """The issue's file: ``groups`` groups, each one repetition of ``runs`` runs of two blocks."""
    data = _two_blocks()
    pair = [{"count": 1}, {"count": 1, "block": "b"}]
    data["decoder"]["layers"] = [{"count": 1, "pattern": [{"count": runs // 2, "pattern": pair}]}] * groups
    return data


def _write(folder: Path, data: dict[str, Any], name: str = "model.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


RUNS_LIMIT = f"with this group the model has more than {MAX_RUNS:,} runs of layers (4,094 before it)"
EXPLORE = {
    "count": [],
    "memory": ["--mode", "training"],
    "compare": ["gpt2"],
    "solve": ["--vary", "hidden_size", "--target", "total=1B"],
    "sweep": ["--x", "hidden_size=256,512", "--y", "vocab_size=1000,2000"],
}


@pytest.mark.parametrize("groups", [30, 100, 1000])
@pytest.mark.parametrize("command", sorted(EXPLORE))
def test_the_issues_runs_times_groups_are_refused_in_one_line(
    tmp_path: Path, groups: int, command: str
) -> None:
    source = _write(tmp_path, alternating_groups(groups))
    outcome = probe(command, str(source), *EXPLORE[command])
    outcome.assert_refused(tmp_path, words=f"{source}: decoder.layers.1.pattern.0: {RUNS_LIMIT}")


def test_verify_of_a_folder_whose_config_has_too_many_runs_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "model.safetensors").write_bytes(valid_safetensors())
    _write(tmp_path, alternating_groups(1000), "config.json")
    outcome = probe("verify", str(tmp_path))
    outcome.assert_refused(tmp_path, words=f"config.json: decoder.layers.1.pattern.0: {RUNS_LIMIT}")


@pytest.mark.parametrize(
    "command",
    [
        ["count"],
        ["count", "--format", "json"],
        ["count", "--format", "csv"],
        *([c, *a] for c, a in EXPLORE.items()),
    ],
    ids=lambda argv: " ".join(argv),
)
def test_the_most_runs_a_model_may_have_are_answered_within_bounds(
    tmp_path: Path, command: list[str]
) -> None:
    source = _write(tmp_path, alternating_groups(1, runs=MAX_RUNS))
    outcome = probe(command[0], str(source), *command[1:])
    assert outcome.code == 0, outcome.stderr
    assert not outcome.escaped
    outcome.assert_bounded()  # the cost only: sweep imports numpy's modules lazily from the stdlib


def test_patterns_of_one_block_cost_one_run_however_often_they_repeat(tmp_path: Path) -> None:
    """Found by the slow fuzz run: 1,000 groups, each 1,048,576 repetitions of 2,048 × [a, a]
    (100 KB), wrote out 4,096 runs a group before merging them into one: 21 M Python calls and
    2.6 s of CPU for count. Each group is one run of one block, so it costs one run."""
    data = _copy(GPT2)
    pair = [{"count": 1}, {"count": 1, "block": "default"}]
    data["decoder"]["layers"] = [{"count": 1 << 20, "pattern": [{"count": 2048, "pattern": pair}]}] * 1000
    outcome = probe("count", str(_write(tmp_path, data)))
    assert outcome.code == 0, outcome.stderr
    outcome.assert_cheap()


def test_two_stacks_share_the_runs_limit() -> None:
    data = json.loads(dump_preset(load_builtin("flan-t5-base")))
    data["blocks"]["b"] = _copy(data["blocks"]["encoder"])
    data["blocks"]["b"]["ffn"]["width"] = 1024
    pair = [{"count": 1}, {"count": 1, "block": "b"}]
    data["encoder"]["layers"] = [{"count": 1, "pattern": [{"count": 1000, "pattern": pair}]}]  # 2,000 runs
    other = [{"count": 1}, {"count": 1, "block": "encoder"}]
    data["decoder"]["layers"] = [{"count": 1, "pattern": [{"count": 1050, "pattern": other}]}]  # 2,100 runs
    from paramtally.core.schema import Architecture

    with pytest.raises(ValidationError, match=f"more than {MAX_RUNS:,} runs of layers \\(2,000 before it\\)"):
        Architecture.model_validate(data)


def _refusal(tmp_path: Path, data: dict[str, Any]) -> str:
    outcome = probe("count", str(_write(tmp_path, data)))
    outcome.assert_refused(tmp_path)
    return outcome.stderr.strip()


def test_groups_over_a_stack_are_counted_before_they_are_built(tmp_path: Path) -> None:
    data = _copy(GPT2)
    data["decoder"]["layers"] = [{"count": 1, "pattern": [{"count": 1}] * 1000}] * 290  # 4 MB, 290 runs
    line = _refusal(tmp_path, data)
    assert line.endswith(
        f"model.json: decoder.layers: holds more than {MAX_GROUPS:,} layer groups, those of its patterns "
        f"included (at most {MAX_GROUPS:,} in a stack)"
    )


def test_named_blocks_names_and_descriptions_are_bounded(tmp_path: Path) -> None:
    data = _copy(GPT2)
    data["blocks"] |= {f"b{index}": data["blocks"]["default"] for index in range(MAX_BLOCKS)}
    assert _refusal(tmp_path, data).endswith(f"blocks: takes at most {MAX_BLOCKS} entries")
    long_name = {**_copy(GPT2), "name": "N" * (MAX_NAME_CHARS + 1)}
    assert _refusal(tmp_path, long_name).endswith(f"name: takes at most {MAX_NAME_CHARS} characters")
    long_text = {**_copy(GPT2), "description": "d" * (MAX_DESCRIPTION_CHARS + 1)}
    assert _refusal(tmp_path, long_text).endswith(
        f"description: takes at most {MAX_DESCRIPTION_CHARS:,} characters"
    )
    block_name = _copy(GPT2)
    block_name["blocks"]["b" * (MAX_NAME_CHARS + 1)] = block_name["blocks"]["default"]
    assert "blocks: the name 'bbbbbb" in _refusal(tmp_path, block_name)


def test_the_limits_leave_room_for_every_built_in_preset() -> None:
    from paramtally.core.io.presets import builtin_ids

    for preset_id in builtin_ids():
        arch = load_builtin(preset_id)
        assert len(arch.runs) <= MAX_RUNS // 64 and len(arch.blocks) <= MAX_BLOCKS // 64
        assert len(arch.name) <= MAX_NAME_CHARS // 4 and len(arch.description) <= MAX_DESCRIPTION_CHARS // 10


def test_a_gpu_catalog_of_too_many_kinds_is_ignored_with_one_warning(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import os

    from paramtally.core.cli import main
    from paramtally.core.schema.limits import MAX_GPUS

    path = Path(os.environ["XDG_CONFIG_HOME"]) / "paramtally" / "gpus.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    entry = {"memory_bytes": 80 * 10**9, "bf16_tflops": 100.0, "bandwidth_gbs": 1000.0}
    path.write_text(json.dumps([{"id": f"g{i}", "name": f"G {i}", **entry} for i in range(MAX_GPUS + 1)]))
    try:
        assert main(["memory", "gpt2"]) == 0
    finally:
        path.unlink()
    warned = [line for line in capsys.readouterr().err.splitlines() if "gpus.json" in line]
    assert len(warned) == 1 and f"lists {MAX_GPUS + 1:,} GPUs, more than the {MAX_GPUS:,}" in warned[0]


# --- cost over file sizes: linear in the bytes up to the 4 MB a file may have ---------------------


def _fill(make: Callable[[int], dict[str, Any]], size: int) -> str:
    """The largest text ``make(n)`` gives within ``size`` bytes."""
    low, high = 1, 1
    while len(json.dumps(make(high))) < size:
        high *= 2
    while low < high:
        middle = (low + high + 1) // 2
        if len(json.dumps(make(middle))) <= size:
            low = middle
        else:
            high = middle - 1
    return json.dumps(make(low))


def _groups(n: int) -> dict[str, Any]:
    data = _two_blocks()
    data["decoder"]["layers"] = [
        {"count": 1 + i % 3, "block": "b" if i % 2 else "default", "override": {"ffn": {"width": 1000 + i}}}
        for i in range(n)
    ]
    return data


def _patterns(n: int) -> dict[str, Any]:
    data = _two_blocks()
    data["decoder"]["layers"] = [{"count": 3, "pattern": [{"count": 1}, {"count": 1, "block": "b"}] * n}]
    return data


def _blocks(n: int) -> dict[str, Any]:
    data = _copy(GPT2)
    data["blocks"] |= {f"block{i}": data["blocks"]["default"] for i in range(n)}
    return data


def _lora(n: int) -> dict[str, Any]:
    data = _copy(GPT2)
    data["blocks"]["default"]["lora"] = {"rank": 8, "targets": ["q"] * n}
    return data


def _padded(n: int) -> dict[str, Any]:
    return {
        **_copy(GPT2),
        "description": "",
        "scenario": {"context": 1024, "mode": "inference"},
        "pad": [0] * n,
    }


SHAPES = {"groups": _groups, "patterns": _patterns, "blocks": _blocks, "lora": _lora, "unknown key": _padded}
SIZES = [16 << 10, 256 << 10, 1 << 20, MAX_PRESET_BYTES - 64]
BYTES_PER_BYTE = 24  # measured: at most 15 (groups: JSON objects of a few bytes each)
FLOOR = 8 << 20  # the 4 MB read buffer, the imports' first caches


def _peak_bytes(path: Path) -> int:
    """Peak bytes Python allocated (tracemalloc: the same on every run) to count and size it."""
    gc.collect()
    tracemalloc.start()
    try:
        preset = read_source(str(path))
        count_parameters(preset.architecture)
        estimate_memory(preset.architecture, Scenario())
    except (ParamTallyError, ValidationError):
        pass  # a refusal costs too: it is measured the same
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_memory_grows_at_most_linearly_with_the_files_bytes(tmp_path: Path, shape: str) -> None:
    peaks = []
    for size in SIZES:
        text = _fill(SHAPES[shape], size)
        path = tmp_path / f"{size}.json"
        path.write_text(text, encoding="utf-8")
        peaks.append((len(text), _peak_bytes(path)))
    for size, peak in peaks:
        assert peak <= BYTES_PER_BYTE * size + FLOOR, (shape, size, peak)
    (small, small_peak), (large, large_peak) = peaks[-2], peaks[-1]
    assert large_peak - FLOOR <= (large / small) * max(small_peak, FLOOR) * 1.25, peaks
