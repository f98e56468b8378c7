#!/usr/bin/env python3
"""How long hostile inputs take to be answered, and how much memory they cost (issues 10 and 30).

Issue 10's cases run the real command in a child process through ``tests/hostile/probe.py``,
which reports the command's own seconds (imports excluded), the growth of peak RSS over the
command (VmHWM after, against VmRSS before) and every file opened (audit hook). With ``strace`` on
the PATH, the index naming ``../outside/x.safetensors`` is also traced (``strace -e openat``) to
show that no file outside the folder is opened.

Issue 30's cases (``--issue 30``) run ``python -m paramtally`` whole, as a person does, and report
its wall seconds and peak RSS (GNU time's maximum resident set size, as ``/usr/bin/time -v``
says it), the promise being 2 s and 300 MB; then count and memory over files of 4 kB to 4 MB of five
shapes, to show the cost growing at most linearly with the bytes.

With ``--window``, the window's cases instead: ``paramtally FILE --screenshot out.png`` in a fresh
process (a fresh config folder each), its wall-clock seconds and peak RSS as ``/usr/bin/time -v``
reports them (``wait4``'s rusage), on the presets of tests/hostile/big_presets.py: thousands of
named blocks, a name of up to the 4 MB a preset may hold, text that reorders or hides. Then the
same over file sizes from 64 KB to 4 MB, with the cost of each byte past the smallest file.

    python bench/hostile_inputs.py [--repeat 5] [--issue 10|30]
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
    from paramtally.core.io.presets import MAX_PRESET_BYTES
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


TIME = shutil.which("time") or "/usr/bin/time"


def _whole(argv: list[str]) -> tuple[int, float, int, str]:
    """``python -m paramtally ARGV`` as a person runs it: (exit status, wall s, peak RSS kB, last
    line). The RSS is GNU time's maximum resident set size: a child forked from this process
    would count this process's pages (its cases: 450 MB) until it execs."""
    started = time.perf_counter()
    done = subprocess.run(
        [TIME, "-f", "%M", sys.executable, "-m", "paramtally", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        check=False,
    )
    seconds = time.perf_counter() - started
    *said, rss = done.stderr.decode("utf-8", "replace").strip().splitlines()
    lines = [line for line in said if not line.startswith(("paramtally: warning", "Command exited"))]
    return done.returncode, seconds, int(rss), (lines or [""])[-1]


def _copy(data: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(json.dumps(data))
    return result


def _issue30_cases(folder: Path) -> dict[str, list[str]]:
    """Every input of issue 30 that the command line answers."""
    gpt2: dict[str, Any] = json.loads((ROOT / "presets" / "gpt2.json").read_text())
    two = _copy(gpt2)
    two["blocks"]["b"] = _copy(two["blocks"]["default"]) | {
        "ffn": {**two["blocks"]["default"]["ffn"], "width": 1024}
    }
    cases: dict[str, list[str]] = {}

    def write(name: str, data: Any) -> str:
        path = folder / name
        path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
        return str(path)

    pair = [{"count": 1}, {"count": 1, "block": "b"}]
    for groups in (30, 100, 1000):
        data = _copy(two) | {
            "decoder": {
                **two["decoder"],
                "layers": [{"count": 1, "pattern": [{"count": 2047, "pattern": pair}]}] * groups,
            }
        }
        path = write(f"groups{groups}.json", data)
        cases[f"count, {groups} groups × 4,094 runs"] = ["count", path]
        cases[f"memory, {groups} groups × 4,094 runs"] = ["memory", path]
    path = str(folder / "groups1000.json")
    cases["compare, 1,000 groups"] = ["compare", path, "gpt2"]
    cases["solve, 1,000 groups"] = ["solve", path, "--vary", "hidden_size", "--target", "total=1B"]
    cases["sweep, 1,000 groups"] = [
        "sweep",
        path,
        "--x",
        "hidden_size=256,512",
        "--y",
        "vocab_size=1000,2000",
    ]
    model = folder / "groups-model"
    model.mkdir()
    (model / "config.json").write_text(Path(path).read_text())
    header = json.dumps(
        {"model.norm.weight": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}
    ).encode()
    (model / "model.safetensors").write_bytes(struct.pack("<Q", len(header)) + header + bytes(8))
    cases["verify, 1,000 groups"] = ["verify", str(model)]
    most = _copy(two) | {
        "decoder": {**two["decoder"], "layers": [{"count": 1, "pattern": [{"count": 2048, "pattern": pair}]}]}
    }
    path = write("most-runs.json", most)
    for argv in (
        ["count"],
        ["count", "--format", "json"],
        ["memory", "--mode", "training"],
        ["compare", "gpt2"],
    ):
        cases[f"{' '.join(argv)}, the most runs allowed (4,096)"] = [argv[0], path, *argv[1:]]
    blocks = _copy(gpt2)
    blocks["blocks"] |= {f"block{i}": gpt2["blocks"]["default"] for i in range(5000)}
    cases["count, 5,000 named blocks"] = ["count", write("blocks.json", blocks)]
    cases["count, a 4 MB name"] = ["count", write("name.json", _copy(gpt2) | {"name": "N" * (4_000_000)})]
    surrogate = write("surrogate.json", json.dumps(_copy(gpt2) | {"name": "x\ud800"}))
    cases["count -o, a lone surrogate in the name"] = ["count", surrogate, "-o", str(folder / "out.txt")]
    cases["presets import, a lone surrogate"] = [
        "presets",
        "import",
        surrogate,
        "--id",
        "surrogate-bench",
        "--force",
    ]
    nul = folder / "nul-shard"
    nul.mkdir()
    (nul / "config.json").write_text(json.dumps({"model_type": "gpt2"}))
    (nul / "model.safetensors.index.json").write_text(
        json.dumps({"weight_map": {"a": "x\u0000.safetensors"}})
    )
    cases["verify, a NUL in a shard's name"] = ["verify", str(nul)]
    cases["count, a 5,000-character path"] = ["count", "/tmp/" + "a" * 5000 + ".json"]
    cases["memory --mfu 1e-320"] = ["memory", "llama-3-8b", "--mfu", "1e-320"]
    cases["memory --mfu 1e-320 --mode training --format json"] = [
        "memory", "llama-3-8b", "--mfu", "1e-320", "--mode", "training", "--format", "json",
    ]  # fmt: skip
    cases["solve --target memory<=1e400GB"] = [
        "solve",
        "llama-3-8b",
        "--vary",
        "num_layers",
        "--target",
        "memory<=1e400GB",
    ]
    cases["solve --target time=1e400s"] = [
        "solve",
        "llama-3-8b",
        "--vary",
        "num_layers",
        "--target",
        "time=1e400s",
    ]
    typo = {"model_type": "gpt_oss", "layer_types": ["sliding_attention", "zz_attention"] * 12}
    cases["memory, gpt-oss layer_types 'zz_attention'"] = ["memory", write("gpt-oss.json", typo)]
    for names in (400_000, 1_500_000):
        index = folder / f"index{names}"
        index.mkdir()
        (index / "config.json").write_text(json.dumps({"model_type": "gpt2"}))
        weight_map = {f"t{i}": f"shard-{i:07d}.safetensors" for i in range(names)}
        (index / "model.safetensors.index.json").write_text(json.dumps({"weight_map": weight_map}))
        cases[f"verify, an index of {names:,} missing shards"] = ["verify", str(index)]
    deep = _copy(gpt2) | {"decoder": {**gpt2["decoder"], "layers": [{"count": 20_000}]}}
    cases["count --format json, 20,000 layers"] = ["count", write("deep.json", deep), "--format", "json"]
    return cases


def _shapes() -> dict[str, Callable[[int], dict[str, Any]]]:
    """Files that grow with n: groups, one pattern's runs, named blocks, a list, unknown data."""
    gpt2: dict[str, Any] = json.loads((ROOT / "presets" / "gpt2.json").read_text())
    two = _copy(gpt2)
    two["blocks"]["b"] = _copy(two["blocks"]["default"]) | {
        "ffn": {**two["blocks"]["default"]["ffn"], "width": 1024}
    }

    def groups(n: int) -> dict[str, Any]:
        layers = [
            {
                "count": 1 + i % 3,
                "block": "b" if i % 2 else "default",
                "override": {"ffn": {"width": 1000 + i}},
            }
            for i in range(n)
        ]
        return two | {"decoder": {**two["decoder"], "layers": layers}}

    def pattern(n: int) -> dict[str, Any]:
        return two | {
            "decoder": {
                **two["decoder"],
                "layers": [{"count": 3, "pattern": [{"count": 1}, {"count": 1, "block": "b"}] * n}],
            }
        }

    def blocks(n: int) -> dict[str, Any]:
        return gpt2 | {"blocks": gpt2["blocks"] | {f"block{i}": gpt2["blocks"]["default"] for i in range(n)}}

    def lora(n: int) -> dict[str, Any]:
        block = gpt2["blocks"]["default"] | {"lora": {"rank": 8, "targets": ["q"] * n}}
        return gpt2 | {"blocks": {"default": block}}

    def unknown(n: int) -> dict[str, Any]:
        return gpt2 | {"pad": [0] * n}

    return {
        "groups": groups,
        "pattern runs": pattern,
        "named blocks": blocks,
        "lora list": lora,
        "unknown key": unknown,
    }


def _fill(make: Callable[[int], dict[str, Any]], size: int) -> str:
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


def _issue30(repeat: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        head = f"{'issue 30 case (python -m paramtally, whole)':<58} {'exit':>4} {'max s':>6} {'max RSS':>8}"
        print(head + "  answer")
        for name, argv in _issue30_cases(folder).items():
            runs = [_whole(argv) for _ in range(repeat)]
            seconds, rss = max(run[1] for run in runs), max(run[2] for run in runs)
            print(f"{name:<58} {runs[0][0]:>4} {seconds:>6.2f} {rss / 1024:>5.0f} MB  {runs[0][3][:110]}")
        print(f"\n{'cost over file size':<34} {'bytes':>10} {'exit':>4} {'max s':>6} {'max RSS':>8}")
        for shape, make in _shapes().items():
            for size in (4 << 10, 64 << 10, 1 << 20, (4 << 20) - 64):
                path = folder / "sized.json"
                path.write_text(_fill(make, size), encoding="utf-8")
                for command in ("count", "memory"):
                    runs = [_whole([command, str(path)]) for _ in range(repeat)]
                    seconds, rss = max(run[1] for run in runs), max(run[2] for run in runs)
                    label = f"{command}, {shape}"
                    size_said = f"{path.stat().st_size:>10,} {runs[0][0]:>4}"
                    print(f"{label:<34} {size_said} {seconds:>6.2f} {rss / 1024:>5.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=None, help="runs of each case (5; 1 with --window)")
    parser.add_argument("--window", action="store_true", help="the window's cases, not the commands'")
    parser.add_argument("--timeout", type=float, default=120, help="seconds before a window is killed")
    parser.add_argument("--issue", type=int, choices=(10, 30), help="only that issue's cases")
    args = parser.parse_args()
    if args.window:
        window_main(args.repeat or 1, args.timeout)
        return
    args.repeat = args.repeat or 5
    if args.issue != 10:
        _issue30(args.repeat)
        if args.issue == 30:
            return
        print()
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
