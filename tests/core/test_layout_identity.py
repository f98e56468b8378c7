"""The figures a layout keys by block identity come with the layout: equal architectures read from
two files are distinct objects, and the caches behind a layout (``model_layout``, ``_run_sizes``)
keep whichever came first and drop entries on their own schedules."""

from __future__ import annotations

from paramtally.core.io.presets import load_builtin
from paramtally.core.memory import stages
from paramtally.core.memory.decode_weight_reads import stage_reads
from paramtally.core.schema import Architecture
from paramtally.core.schema import model as schema_model
from paramtally.core.schema import stack as schema_stack


def test_decode_reads_of_an_equal_architecture_after_one_cache_dropped_its_entry() -> None:
    """`compare` over many models once raised KeyError: the layout cached for one copy of a model
    held that copy's blocks, while the sizes were made again from the other copy's."""
    first = load_builtin("mixtral-8x7b")
    stages.model_layout(first, 2)  # cached with the first copy's blocks
    # As when the caches' entries had turned over: the resolved runs and blocks (which hand equal
    # stacks the same block objects) and the run sizes; the layout's cache kept its entry.
    schema_model._runs_of.cache_clear()
    schema_stack.resolve_block.cache_clear()
    stages._run_sizes.cache_clear()
    stage_reads.cache_clear()
    second = Architecture.model_validate(first.model_dump())
    assert second == first and second.runs[0].block is not first.runs[0].block
    reads = stage_reads(second, 2, 1)
    assert reads == stage_reads.__wrapped__(first, 2, 1)
    assert len(reads) == 2 and all(stage.streamed > 0 for stage in reads)
