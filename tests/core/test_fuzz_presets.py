"""Robustness: mutated preset files never crash the loader nor get modified; a killed save is atomic
and its temporary file is swept by a later start."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paramtally.core.errors import ParamTallyError
from paramtally.core.io import presets, user_presets
from paramtally.core.io.atomic import TEMP_PATTERN
from tests.hypothesis_budget import examples

ROOT = Path(__file__).resolve().parents[2]
SEED = presets.dump_preset(presets.load_builtin("gpt3-175b")).encode("utf-8")
SEED_V0 = json.dumps(
    {"n_layers": 2, "hidden_size": 64, "vocab_size": 10, "n_heads": 4, "ffn_width": 8}
).encode()
SEED_MOE = json.dumps(
    {
        "schema_version": 1,
        "hidden_size": 64,
        "embeddings": {"vocab_size": 100},
        "attention": {"num_heads": 4, "num_kv_heads": 2},
        "ffn": {"width": 128},
        "layers": [{"count": 1}, {"count": 2, "moe": {"num_experts": 4, "top_k": 2, "expert_width": 32}}],
    }
).encode()

# Issue 30's values too: text a name refuses (a lone surrogate, NUL, U+202E, a line break), names
# around the length limit, floats at the edges of what a double holds, layer types near real ones.
HOSTILE_TEXT = ["x\ud800", "\udfff", "a\x00b", "gpt\u202e2", "two\nlines", "\x1b[31m", "N" * 201, "full_attn"]
EDGE_FLOATS = [5e-324, 1e-320, 2.2250738585072014e-308, 1.7976931348623157e308, -0.0]
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(HOSTILE_TEXT)
    | st.sampled_from(EDGE_FLOATS),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


def _set_random_path(data: Any, keys: list[int], value: Any) -> Any:
    """Replace one node chosen by ``keys`` (indexes into each level) with ``value``."""
    if not keys or not isinstance(data, dict | list) or not data:
        return value
    if isinstance(data, dict):
        key = sorted(data)[keys[0] % len(data)]
        return {**data, key: _set_random_path(data[key], keys[1:], value)}
    index = keys[0] % len(data)
    return [*data[:index], _set_random_path(data[index], keys[1:], value), *data[index + 1 :]]


@st.composite
def mutated_files(draw: st.DrawFn) -> bytes:
    seed = draw(st.sampled_from([SEED, SEED_V0, SEED_MOE]))
    kind = draw(st.sampled_from(["truncate", "flip", "insert", "delete", "value", "drop-key"]))
    if kind == "truncate":
        return seed[: draw(st.integers(0, len(seed) - 1))]
    if kind == "flip":
        data = bytearray(seed)
        for _ in range(draw(st.integers(1, 8))):
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
        return bytes(data)
    if kind == "insert":
        at = draw(st.integers(0, len(seed)))
        return seed[:at] + draw(st.binary(min_size=1, max_size=16)) + seed[at:]
    if kind == "delete":
        start = draw(st.integers(0, len(seed) - 1))
        return seed[:start] + seed[start + draw(st.integers(1, 40)) :]
    document = json.loads(seed)
    keys = draw(st.lists(st.integers(0, 50), min_size=1, max_size=4))
    if kind == "drop-key":
        return json.dumps(_set_random_path(document, keys[:-1], {})).encode()
    return json.dumps(_set_random_path(document, keys, draw(json_values))).encode()


@settings(
    max_examples=examples(1000), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(content=mutated_files())
def test_mutated_files_never_crash_and_are_never_modified(content: bytes) -> None:
    folder = user_presets.presets_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "fuzzed.json"
    path.write_bytes(content)
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    entries = [entry for entry in user_presets.list_presets() if entry.id == "fuzzed"]
    assert len(entries) == 1
    try:
        user_presets.load("fuzzed")
        assert not entries[0].broken
    except ParamTallyError as exc:
        assert entries[0].broken
        assert str(exc).startswith("fuzzed.json: ")
        assert entries[0].problem == str(exc)
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    assert sorted(p.name for p in folder.iterdir()) == ["fuzzed.json"]


ROUNDS = 20
SLOW_ROUNDS = 400  # the count
# The child announces each fsync (inside the atomic write, before os.replace or os.link) and each
# finished save, so the parent can kill it inside a write on odd rounds and between saves on even
# ones, without sleeping. It rewrites one preset, or (exclusive) creates a new one per save.
WRITER = textwrap.dedent(
    """
    import os, sys
    from paramtally.core.io import presets, user_presets
    real_fsync = os.fsync
    def announced_fsync(fd):
        print("fsync", flush=True)
        real_fsync(fd)
    os.fsync = announced_fsync
    exclusive = sys.argv[1] == "exclusive"
    base = presets.load_builtin("gpt3-175b")
    # ~0.2 MB, as large as the limits let a model be without many groups: 250 named blocks
    blocks = {**base.blocks, **{f"copy{b}": base.blocks["default"] for b in range(249)}}
    def version(n):
        return base.model_copy(update={"name": n, "description": n * 3_000, "blocks": blocks})
    versions = [version("old"), version("new")]
    i = 0
    while True:
        user_presets.save(f"big{i}" if exclusive else "big", versions[i % 2], overwrite=not exclusive)
        print("saved", i, flush=True)
        i += 1
    """
)


def _kill_during_saves(rounds: int, mode: str) -> None:
    """SIGKILL a process that keeps saving a ~0.2 MB preset; every preset left is a whole file."""
    interrupted = left_before = 0
    folder = user_presets.presets_dir()
    for round_ in range(rounds):
        child = subprocess.Popen(
            [sys.executable, "-c", WRITER, mode],
            cwd=ROOT,
            env=os.environ.copy(),
            stdout=subprocess.PIPE,
            text=True,
        )
        assert child.stdout is not None
        saves, wanted = 0, 1 + round_ % 3  # at least one whole save first, so there is an old file
        while True:
            line = child.stdout.readline()
            saves += line.startswith("saved")
            if saves >= wanted and (line.startswith("fsync") if round_ % 2 else line.startswith("saved")):
                break
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        child.stdout.close()
        for preset_id in user_presets.user_ids():
            arch = user_presets.load(preset_id)
            assert arch.name in {"old", "new"}
            assert arch.description == arch.name * 3_000 and len(arch.blocks) == 250
        assert not [entry for entry in user_presets.list_presets() if entry.broken]
        leftovers = [p for p in folder.iterdir() if p.name.startswith(".")]
        interrupted += len(leftovers) > left_before
        left_before = len(leftovers)
        assert all(TEMP_PATTERN.fullmatch(p.name) for p in leftovers), leftovers
        if mode == "exclusive":
            for path in folder.glob("big*.json"):
                path.unlink()
    assert interrupted, "no kill landed inside a write; the test proved nothing"
    print(f"kills that interrupted a write (temp file left): {interrupted}/{rounds}")
    old = time.time() - user_presets.STALE_TEMP_SECONDS - 1
    for leftover in folder.glob(".*"):  # as if found an hour later: the next start sweeps them
        os.utime(leftover, (old, old))
    listing = subprocess.run(
        [sys.executable, "-m", "paramtally", "presets", "list"], cwd=ROOT, capture_output=True
    )
    assert listing.returncode == 0
    assert not list(folder.glob(".*"))


@pytest.mark.parametrize("mode", ["replace", "exclusive"])
def test_killed_save_leaves_old_or_new_file(mode: str) -> None:
    _kill_during_saves(ROUNDS, mode)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["replace", "exclusive"])
def test_killed_save_leaves_old_or_new_file_many_times(mode: str) -> None:
    _kill_during_saves(SLOW_ROUNDS, mode)
