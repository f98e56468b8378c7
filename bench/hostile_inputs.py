#!/usr/bin/env python3
"""How long hostile inputs take to be answered, and how much memory they cost (issues 10 and 30).

Each command's case runs the real command in a child process through ``tests/hostile/probe.py``,
which reports the command's own seconds (imports excluded), the growth of peak RSS over the
command (VmHWM after, against VmRSS before) and every file opened (audit hook). With ``strace`` on
the PATH, the index naming ``../outside/x.safetensors`` is also traced (``strace -e openat``) to
show that no file outside the folder is opened.

With ``--window``, the window's cases instead: ``paramtally FILE --screenshot out.png`` in a fresh
process (a fresh config folder each), its wall-clock seconds and peak RSS as ``/usr/bin/time -v``
reports them (``wait4``'s rusage), on the presets of tests/hostile/big_presets.py: thousands of
named blocks, a name of up to the 4 MB a preset may hold, text that reorders or hides. Then the
same over file sizes from 64 KB to 4 MB, with the cost of each byte past the smallest file.

    python bench/hostile_inputs.py [--repeat 5]
    python bench/hostile_inputs.py --window [--repeat 1]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.hostile.big_presets
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


def _window(path: Path, scratch: Path, timeout: float) -> tuple[int | str, float, int]:
    """(exit status, seconds, peak RSS in kB) of ``paramtally PATH --screenshot``, a fresh process
    with fresh settings (no remembered window size), as ``/usr/bin/time -v`` measures it; killed
    after ``timeout`` seconds (status 'killed')."""
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": tempfile.mkdtemp(dir=scratch),
        "XDG_STATE_HOME": tempfile.mkdtemp(dir=scratch),
    }
    argv = [sys.executable, "-m", "paramtally", str(path), "--screenshot", str(scratch / "shot.png")]
    started = time.perf_counter()
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    killed = False
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() - started > timeout:
            child.kill()
            killed = True
        time.sleep(0.05)
    seconds = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    return "killed" if killed else child.returncode, seconds, usage.ru_maxrss


def _window_cases(folder: Path) -> dict[str, Path]:
    from tests.hostile.big_presets import hostile_texts, long_name, many_blocks, write

    cases = {f"{count:,} named blocks": many_blocks(count) for count in (200, 1_000, 5_000)}
    cases["name of 300,000 characters"] = long_name(300_000 + 200)
    cases["name filling 4 MB"] = long_name()
    cases["NUL, surrogate, U+202E in texts"] = hostile_texts()
    return {name: write(folder / f"case{i}.json", preset) for i, (name, preset) in enumerate(cases.items())}


def _sized(folder: Path) -> dict[str, list[Path]]:
    """Files of 64 KB, 256 KB, 1 MB and 4 MB of each kind: a long name, many named blocks."""
    from paramtally.core.presets import MAX_PRESET_BYTES
    from tests.hostile.big_presets import long_name, many_blocks, write

    def blocks(size: int) -> dict[str, object]:
        count = size // 100
        while len(json.dumps(preset := many_blocks(count))) > size:  # ~135 bytes a block
            count = count * 97 // 100
        return preset

    sizes = (64 * 1024, 256 * 1024, 1024 * 1024, MAX_PRESET_BYTES)
    return {
        "long name": [write(folder / f"name{size}.json", long_name(size)) for size in sizes],
        "named blocks": [write(folder / f"blocks{size}.json", blocks(size)) for size in sizes],
    }


def window_main(repeat: int, timeout: float) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        header = f"{'paramtally FILE --screenshot, case':<36} {'bytes':>9} {'exit':>4} {'max s':>7}"
        print(f"{header} {'max RSS':>10}")
        for name, path in _window_cases(folder).items():
            runs = [_window(path, folder, timeout) for _ in range(repeat)]
            seconds, rss = max(run[1] for run in runs), max(run[2] for run in runs)
            size = path.stat().st_size
            print(f"{name:<36} {size:>9,} {runs[0][0]:>4} {seconds:>7.2f} {rss / 1024:>7,.0f} MB")
        print("\nover file sizes (the cost of each byte past the 64 KB file's):")
        for kind, paths in _sized(folder).items():
            measured = []
            for path in paths:
                runs = [_window(path, folder, timeout) for _ in range(repeat)]
                measured.append(
                    (path.stat().st_size, min(r[1] for r in runs), min(r[2] for r in runs), runs[0][0])
                )
            size0, seconds0, rss0, _ = measured[0]
            for size, seconds, rss, code in measured:
                extra = max(size - size0, 1) / 1024 / 1024
                per_mb = (
                    f"{(seconds - seconds0) / extra:+7.2f} s/MB {(rss - rss0) / 1024 / extra:+8.1f} MB/MB"
                )
                print(
                    f"  {kind:<13} {size:>9,} bytes: exit {code}, {seconds:6.2f} s, {rss / 1024:7,.0f} MB"
                    + (f"   {per_mb}" if size > size0 else "")
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=None, help="runs of each case (5; 1 with --window)")
    parser.add_argument("--window", action="store_true", help="the window's cases, not the commands'")
    parser.add_argument("--timeout", type=float, default=120, help="seconds before a window is killed")
    args = parser.parse_args()
    if args.window:
        window_main(args.repeat or 1, args.timeout)
        return
    args.repeat = args.repeat or 5
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
