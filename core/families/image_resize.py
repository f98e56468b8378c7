"""What a family's image processor does to an image before its vision tower sees it.

The memory scenario's image size is the side of the image given to the processor (a square); the
tokens follow the size the processor resizes it to, as transformers 5.24's processors do:

- ``AsGiven``: the tower sees the image as given (the rule of families whose processor is not
  modelled here: tiling and any-resolution processors — Idefics3/SmolVLM, InternVL, Mllama,
  LLaVA-NeXT/OneVision, Llama-4, Pixtral, GLM-4V, Qwen3-VL).
- ``FixedSize``: any image is resized to the tower's own size: ``Gemma3ImageProcessor`` and
  PaliGemma's ``SiglipImageProcessor`` resize to ``size`` {height, width}, LLaVA-1.5's
  ``CLIPImageProcessor`` resizes the shortest edge and centre-crops to ``crop_size``; the released
  checkpoints' preprocessor configs set those to the tower's ``image_size`` (896, 224, 336).
- ``SmartResize``: Qwen2-VL's and Qwen2.5-VL's ``Qwen2VLImageProcessor``: ``smart_resize`` rounds
  each side to a multiple of patch_size·merge_size and scales the image into [min_pixels,
  max_pixels]; ``get_number_of_image_patches`` counts (h/p)·(w/p) patches.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["AS_GIVEN", "FIXED_SIZE", "AsGiven", "FixedSize", "ImageResize", "SmartResize", "smart_resize"]


@dataclass(frozen=True, slots=True)
class AsGiven:
    """The tower sees the image at the size given."""

    def resized(self, size: int, made_for: int, factor: int) -> tuple[int, int]:
        return size, size


@dataclass(frozen=True, slots=True)
class FixedSize:
    """The processor resizes any image to the tower's own size (``made_for``)."""

    def resized(self, size: int, made_for: int, factor: int) -> tuple[int, int]:
        return made_for, made_for


def smart_resize(height: int, width: int, factor: int, min_pixels: int, max_pixels: int) -> tuple[int, int]:
    """transformers' ``qwen2_vl.image_processing_qwen2_vl.smart_resize``: sides rounded to multiples
    of ``factor``, then scaled down (floor) past ``max_pixels`` or up (ceil) below ``min_pixels``,
    the aspect ratio kept as near as the rounding allows."""
    h_bar = round(height / factor) * factor
    w_bar = round(width / factor) * factor
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt((height * width) / max_pixels)
        h_bar = max(factor, math.floor(height / beta / factor) * factor)
        w_bar = max(factor, math.floor(width / beta / factor) * factor)
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return h_bar, w_bar


@dataclass(frozen=True, slots=True)
class SmartResize:
    """Qwen2-VL's dynamic resolution: ``smart_resize`` at factor patch_size·merge_size (28)."""

    min_pixels: int
    max_pixels: int

    def resized(self, size: int, made_for: int, factor: int) -> tuple[int, int]:
        return smart_resize(size, size, factor, self.min_pixels, self.max_pixels)


ImageResize = AsGiven | FixedSize | SmartResize
AS_GIVEN = AsGiven()
FIXED_SIZE = FixedSize()
