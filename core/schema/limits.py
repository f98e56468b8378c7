"""How much one model may hold: the bounds that keep every command's cost bounded by the file.

Each bound is far above any published model (the largest built-in preset has 8 runs, 2 named
blocks, a 20-character name) and low enough that the worst model they allow is answered in well
under a second by every command: a run of layers costs the count its rows (a table prints about
eight lines per run), a named block costs the window a form section. The schema refuses a model
past one of them in one line naming the field and the bound.
"""

from __future__ import annotations

__all__ = [
    "MAX_BLOCKS",
    "MAX_DESCRIPTION_CHARS",
    "MAX_GPUS",
    "MAX_GROUPS",
    "MAX_LAYERS",
    "MAX_LAYER_GROUPS",
    "MAX_NAME_CHARS",
    "MAX_PATTERN_RUNS",
    "MAX_RUNS",
    "MAX_SHARDS",
    "MAX_TENSORS",
]

MAX_LAYERS = 1 << 30  # layers in one group (with a pattern: its repetitions)
# Real stacks need a few dozen groups; more would make every edit and view slow, not more exact.
MAX_LAYER_GROUPS = 1_000  # groups in a stack, and in one pattern
MAX_PATTERN_RUNS = 4096  # runs in one repetition of a pattern (nested patterns inlined)
# Runs of one block over the whole model, every pattern written out once (a pattern's repetitions
# are one run each, however many): without it 30 groups of a 4,094-run pattern, a 4 KB file,
# made 122,820 runs (count: 15 s and 1 GB), and 1,000 such groups exhausted the memory.
MAX_RUNS = 4096
# Layer groups in a stack, its patterns' groups included: a 4 MB file of 340 groups of 1,000-group
# patterns (340,000 groups, 340 runs) took 4 s and 360 MB to validate, 12 µs and 1 kB a group.
MAX_GROUPS = 4096
MAX_BLOCKS = 256  # named base blocks of a model
MAX_NAME_CHARS = 200  # a model's name, its family, a block's name: one line each
MAX_DESCRIPTION_CHARS = 10_000  # where the numbers come from, in a few sentences

MAX_GPUS = 256  # kinds in the GPU catalog, the user's file with them (the built-in one has ~20)

# A checkpoint: DeepSeek-V3 stores 91k tensors (with its FP8 scales) in 163 shards, Kimi-K2 about
# 140k. Python holds a tensor's name in ~300 bytes however short its JSON, so the tensors, not a
# file's bytes, bound what verify holds (an index naming 1.5 M tensors took 1.1 GB and 112 s).
MAX_TENSORS = 300_000  # tensors in a checkpoint: its index, its headers
MAX_SHARDS = 4_096  # files an index names
