#!/usr/bin/env python3
"""How long hostile inputs take to be answered, and how much memory they cost (issue 10's cases).

Each case runs the real command in a child process through ``tests/hostile/probe.py``, which
reports the command's own seconds (imports excluded), the growth of peak RSS over the command
(VmHWM after, against VmRSS before) and every file opened (audit hook). With ``strace`` on the
PATH, the index naming ``../outside/x.safetensors`` is also traced (``strace -e openat``) to show
that no file outside the folder is opened.

    python bench/hostile_inputs.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = ROOT / "tests" / "hostile" / "probe.py"
LLAMA = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8}


def _probe(argv: list[str]) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "r.json"
        subprocess.run(
            [sys.executable, str(PROBE), str(report), "--", *argv], capture_output=True, check=False
        )
        return dict(json.loads(report.read_text()))


def _cases(folder: Path) -> dict[str, list[str]]:
    gguf = folder / "huge.gguf"  # 53 bytes: one uint32 array claiming 2^62 items
    gguf.write_bytes(
        b"GGUF"
        + struct.pack("<IQQ", 3, 0, 1)
        + struct.pack("<Q", 5)
        + b"vocab"
        + struct.pack("<IIQ", 9, 4, 1 << 62)
    )
    billion = folder / "billion.json"
    billion.write_text(json.dumps({**LLAMA, "num_hidden_layers": 10**9}))
    deepseek = folder / "deepseek.json"
    deepseek.write_text(json.dumps({"model_type": "deepseek_v3", "num_hidden_layers": 10**9}))
    model, outside = folder / "model", folder / "outside"
    model.mkdir()
    outside.mkdir()
    (outside / "x.safetensors").write_bytes(struct.pack("<Q", 2) + b"{}")
    (model / "config.json").write_text(json.dumps(LLAMA))
    index = {"weight_map": {"a": "../outside/x.safetensors"}}
    (model / "model.safetensors.index.json").write_text(json.dumps(index))
    return {
        f"verify {gguf.name} ({gguf.stat().st_size} bytes, 2^62-item array)": ["verify", str(gguf)],
        "memory, 10^9 layers (llama)": ["memory", str(billion)],
        "memory, 10^9 layers, training pp=1024": [
            "memory", str(billion), "--mode", "training", "--gpus", "1024", "--pp", "1024",
        ],
        "count, 10^9 layers (deepseek-v3)": ["count", str(deepseek)],
        "verify, index naming ../outside": ["verify", str(model)],
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        cases = _cases(folder)
        print(f"{'case':<44} {'exit':>4} {'median s':>9} {'max s':>7} {'max RSS growth':>15}  opened outside")
        for name, argv in cases.items():
            runs = [_probe(argv) for _ in range(args.repeat)]
            seconds = [float(str(run["seconds"])) for run in runs]
            growth = max(int(str(run["rss_growth_kb"])) for run in runs)
            opened = [str(path) for path in runs[0]["opened"] if str(folder / "outside") in str(path)]  # type: ignore[attr-defined]
            print(
                f"{name:<44} {runs[0]['code']!s:>4} {statistics.median(seconds):>9.4f} {max(seconds):>7.4f} "
                f"{growth:>12,} kB  {opened or 'none'}"
            )
        if shutil.which("strace"):
            log = folder / "strace.log"
            command = ["strace", "-f", "-e", "trace=open,openat", "-o", str(log), sys.executable, "-m"]
            done = subprocess.run(
                [*command, "paramtally", *cases["verify, index naming ../outside"]],
                capture_output=True,
                text=True,
            )
            lines = log.read_text().splitlines()
            into_folder = [line for line in lines if str(folder) in line]
            print(f"\nstrace -e openat, verify {folder / 'model'}: {len(lines)} opens, these under {folder}:")
            for line in into_folder:
                print("  " + line.split(" ", 1)[1])
            print(f"  stderr: {done.stderr.strip()}")


if __name__ == "__main__":
    main()
