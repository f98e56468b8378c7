#!/usr/bin/env python3
"""How long `verify` takes on a sharded checkpoint, against reading the files once.

Writes a Llama-3-8B-shaped safetensors checkpoint (real tensor names, shapes and BF16 sizes,
split into shards with model.safetensors.index.json) as sparse files: each shard holds a real
header and then a hole up to its full size, so the folder costs almost no disk. Then times the
header-only read plus comparison against reading every byte once (the least a weight-loading
check would do). Sparse holes read faster than a real disk, so the ratio is a lower bound.

    python bench/checkpoint_headers.py [--shards 8] [--sizes llama-3.2-1b llama-3-8b] [--full-read llama-3-8b]
"""

from __future__ import annotations

import argparse
import json
import statistics
import struct
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from paramtally.core.io.importers.checkpoint import compare, open_checkpoint, predicted_from  # noqa: E402

CHUNK = 16 * 1024 * 1024


def llama_shapes(cfg: dict[str, int]) -> dict[str, tuple[int, ...]]:
    h, f, v = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    head = cfg.get("head_dim") or h // cfg["num_attention_heads"]
    q, kv = cfg["num_attention_heads"] * head, cfg["num_key_value_heads"] * head
    shapes: dict[str, tuple[int, ...]] = {"model.embed_tokens.weight": (v, h), "model.norm.weight": (h,)}
    if not cfg.get("tie_word_embeddings"):
        shapes["lm_head.weight"] = (v, h)
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}."
        shapes |= {
            p + "self_attn.q_proj.weight": (q, h),
            p + "self_attn.k_proj.weight": (kv, h),
            p + "self_attn.v_proj.weight": (kv, h),
            p + "self_attn.o_proj.weight": (h, q),
            p + "mlp.gate_proj.weight": (f, h),
            p + "mlp.up_proj.weight": (f, h),
            p + "mlp.down_proj.weight": (h, f),
            p + "input_layernorm.weight": (h,),
            p + "post_attention_layernorm.weight": (h,),
        }
    return shapes


def write_sparse_shards(folder: Path, shapes: dict[str, tuple[int, ...]], shards: int) -> int:
    """Shards of about equal size in tensor order; returns the total bytes of the files."""
    sizes = {name: 2 * _numel(shape) for name, shape in shapes.items()}  # BF16
    target = sum(sizes.values()) / shards
    groups: list[list[str]] = [[]]
    filled = 0
    for name in shapes:
        if filled >= target * len(groups) and len(groups) < shards:
            groups.append([])
        groups[-1].append(name)
        filled += sizes[name]
    weight_map, total = {}, 0
    for k, names in enumerate(groups):
        file = f"model-{k + 1:05d}-of-{len(groups):05d}.safetensors"
        header, offset = {}, 0
        for name in names:
            header[name] = {
                "dtype": "BF16",
                "shape": list(shapes[name]),
                "data_offsets": [offset, offset + sizes[name]],
            }
            offset += sizes[name]
        raw = json.dumps(header, separators=(",", ":")).encode()
        raw += b" " * (-len(raw) % 8)
        with (folder / file).open("wb") as stream:
            stream.write(struct.pack("<Q", len(raw)) + raw)
            stream.truncate(8 + len(raw) + offset)  # a hole: no disk blocks for the data
        total += 8 + len(raw) + offset
        weight_map |= dict.fromkeys(names, file)
    index = {"metadata": {"total_size": total}, "weight_map": weight_map}
    (folder / "model.safetensors.index.json").write_text(json.dumps(index), encoding="utf-8")
    return total


def time_headers(folder: Path, repeats: int) -> tuple[float, bool, int]:
    times, matches, tensors = [], False, 0
    for _ in range(repeats):
        start = time.perf_counter()
        checkpoint = open_checkpoint(folder)
        arch = predicted_from(checkpoint)
        assert arch is not None
        result = compare(checkpoint, arch)
        times.append(time.perf_counter() - start)
        matches, tensors = result.matches, len(checkpoint.tensors)
    return statistics.median(times), matches, tensors


def time_full_read(folder: Path) -> float:
    start = time.perf_counter()
    for path in sorted(folder.glob("*.safetensors")):
        with path.open("rb", buffering=0) as stream:
            while stream.read(CHUNK):
                pass
    return time.perf_counter() - start


def _numel(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def bench_one(config: Path, shards: int, repeats: int, full_read: bool) -> bool:
    cfg = json.loads(config.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="paramtally-bench-") as temp:
        folder = Path(temp)
        (folder / "config.json").write_text(json.dumps(cfg), encoding="utf-8")
        total = write_sparse_shards(folder, llama_shapes(cfg), shards)
        headers, matches, tensors = time_headers(folder, repeats)
        full = time_full_read(folder) if full_read else 0.0
    print(
        f"{config.stem:14s} {shards} shards, {tensors:4d} tensors, {total / 1e9:7.2f} GB: "
        f"verify {headers * 1e3:6.1f} ms (median of {repeats}), matches prediction: {matches}"
    )
    if full_read:
        print(f"  reading every byte once: {full:.2f} s ({total / full / 1e9:.2f} GB/s, sparse holes)")
        print(f"  header-only verify is {full / headers:,.0f}x faster (lower bound: disks are slower)")
    return matches


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--shards", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--sizes", nargs="*", default=["llama-3.2-1b", "llama-3-8b", "llama-3-70b"])
    parser.add_argument("--full-read", default="llama-3-8b", help="the one size also read in full")
    args = parser.parse_args(argv)
    configs = ROOT / "tests" / "data" / "hf_configs"
    ok = [
        bench_one(configs / f"{name}.json", args.shards, args.repeats, name == args.full_read)
        for name in args.sizes
    ]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    raise SystemExit(main())
