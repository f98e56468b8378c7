#!/usr/bin/env python3
"""Measure the image tokens of a square image as transformers 5.24's image processors make them
(tests/golden/image_tokens.json, read by tests/core/test_image_resize.py).

The processors' own modules cannot be imported without torchvision (the ``TorchvisionBackend``
classes) or PIL (the ``*Pil`` classes), and neither is installed beside torch here, so this reads
their source and runs the pure parts:

- Qwen2-VL and Qwen2.5-VL (``Qwen2VLImageProcessor``): transformers' own ``smart_resize``, taken
  from ``qwen2_vl/image_processing_qwen2_vl.py`` and run as it is, at factor patch_size·merge_size
  with the released checkpoints' preprocessor_config.json bounds (min_pixels 3,136, max_pixels
  12,845,056); patches as ``get_number_of_image_patches`` counts them, (h/p)·(w/p), tokens those
  over merge_size².
- Gemma-3 (``Gemma3ImageProcessor``), PaliGemma (``SiglipImageProcessor``) and LLaVA-1.5
  (``CLIPImageProcessor``): the class's resize is checked to be to a fixed size ({height, width},
  or a shortest-edge resize and a centre crop), whatever the input; the size is the checkpoint's
  (the tower's image_size), tokens its patches over the projector's pooling.

    /tmp/tv/bin/python tools/measure_image_tokens.py           # write tests/golden/image_tokens.json
    /tmp/tv/bin/python tools/measure_image_tokens.py --check   # exit 1 where a figure differs
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import sys
from pathlib import Path
from typing import Any

import transformers

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "image_tokens.json"
MODELS = Path(transformers.__file__).parent / "models"
SIZES = (56, 200, 224, 336, 448, 672, 896, 1000, 1024, 2000, 4000)

# preset → (patch_size, merge_size) of Qwen2VLImageProcessor, as the checkpoints' configs set them.
QWEN = {"qwen2-vl-7b": (14, 2), "qwen2.5-vl-7b": (14, 2)}
QWEN_PIXELS = {"min_pixels": 3136, "max_pixels": 12845056}
# preset → (processor module, class, the checkpoint's size, patch_size, patches pooled into a token)
FIXED = {
    "gemma-3-4b": ("gemma3/image_processing_gemma3.py", "Gemma3ImageProcessor", 896, 14, 16),
    "paligemma-3b": ("siglip/image_processing_siglip.py", "SiglipImageProcessor", 224, 14, 1),
    "llava-1.5-7b": ("clip/image_processing_clip.py", "CLIPImageProcessor", 336, 14, 1),
}


def _source_function(path: Path, name: str) -> Any:
    """A module-level function of transformers' source, run without importing its module."""
    tree = ast.parse(path.read_text())
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    namespace: dict[str, Any] = {"math": math}
    exec(compile(ast.Module([node], []), str(path), "exec"), namespace)
    return namespace[name]


def _class_attributes(path: Path, name: str) -> dict[str, Any]:
    """The literal class attributes of a processor class in transformers' source."""
    tree = ast.parse(path.read_text())
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    found: dict[str, Any] = {}
    for item in node.body:
        if isinstance(item, ast.Assign) and isinstance(item.targets[0], ast.Name):
            try:
                found[item.targets[0].id] = ast.literal_eval(item.value)
            except ValueError:
                continue
    return found


def _fixed_resize(attrs: dict[str, Any]) -> str:
    """How the class resizes: to {height, width}, or shortest edge then a centre crop."""
    size = attrs["size"]
    if set(size) == {"height", "width"}:
        return "size {height, width}"
    if set(size) == {"shortest_edge"} and attrs.get("do_center_crop") and "crop_size" in attrs:
        return "shortest_edge, then crop_size {height, width}"
    raise SystemExit(f"not a fixed-size resize: {attrs}")


def measure() -> dict[str, Any]:
    smart_resize = _source_function(MODELS / "qwen2_vl" / "image_processing_qwen2_vl.py", "smart_resize")
    cases: list[dict[str, Any]] = []
    for preset, (patch, merge) in QWEN.items():
        for size in SIZES:
            h, w = smart_resize(size, size, factor=patch * merge, **QWEN_PIXELS)
            patches = (h // patch) * (w // patch)
            cases.append(
                {
                    "preset": preset,
                    "image_size": size,
                    "seen": [h, w],
                    "patches": patches,
                    "tokens": patches // merge**2,
                    "by": "Qwen2VLImageProcessor smart_resize",
                }
            )
    for preset, (module, cls, side, patch, pooled) in FIXED.items():
        how = _fixed_resize(_class_attributes(MODELS / module, cls))
        for size in SIZES:
            patches = (side // patch) ** 2
            cases.append(
                {
                    "preset": preset,
                    "image_size": size,
                    "seen": [side, side],
                    "patches": patches,
                    "tokens": patches // pooled,
                    "by": f"{cls} ({how})",
                }
            )
    return {"transformers": transformers.__version__, "cases": cases}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the stored file")
    args = parser.parse_args()
    measured = measure()
    if args.check:
        stored = json.loads(OUT.read_text())
        if stored["cases"] != measured["cases"]:
            print("image tokens differ from tests/golden/image_tokens.json")
            return 1
        print(f"{len(measured['cases'])} cases agree")
        return 0
    OUT.write_text(json.dumps(measured, indent=1) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(measured['cases'])} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
