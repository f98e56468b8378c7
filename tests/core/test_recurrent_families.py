"""The recurrent and hybrid families of issue 33 and the mixer kinds they brought.

Numbers come from the real transformers 5.24 modules: the published configs' totals and tensor
names (``tests/golden/families_v3.json``, ``tests/data/param_names_v3.json``, by
``tools/measure_golden.py --v3``) and one small config per quirk
(``tests/golden/recurrent_quirks_v3.json``, by ``tools/measure_recurrent_quirks.py``). The published
and randomized configs' totals are checked for every type in test_families.py and test_hf_import.py.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.blocks import RGLRU, Context, Mamba, Mamba2, SharedTransformer, ShortConv
from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.io.importers.checkpoint import Checkpoint, compare
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.importers.safetensors_header import TensorInfo
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema import Architecture
from paramtally.core.schema.group_addresses import group_block
from tests.core.test_tensor_parts_v3 import GOLDEN, NAMES, _indexes, saved_tensors

ROOT = Path(__file__).resolve().parents[2]
V3 = ROOT / "tests" / "data" / "hf_configs_v3"
QUIRKS = json.loads((ROOT / "tests" / "golden" / "recurrent_quirks_v3.json").read_text(encoding="utf-8"))


def published(stem: str) -> Architecture:
    data = json.loads((V3 / f"{stem}.json").read_text(encoding="utf-8"))
    return import_hf_config({**data, "architectures": [GOLDEN[stem]["model_class"]]}, f"{stem}.json")


def quirk(name: str) -> tuple[Architecture, dict[str, Any]]:
    entry = QUIRKS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return import_hf_config(entry["config"], f"{name}.json"), entry


def assert_counts_as_measured(arch: Architecture, entry: dict[str, Any]) -> None:
    report = count_parameters(arch)
    assert (report.total, report.active, arch.head.tied) == (entry["total"], entry["active"], entry["tied"])


def mixer_kinds(arch: Architecture) -> set[str]:
    """The mixer kinds of the decoder's layers, a repeating group's runs included."""
    kinds = set()
    for i, group in enumerate(arch.decoder.layers):
        runs = range(len(group.pattern)) if group.pattern else [None]
        for j in runs:
            path = ("decoder", "layers", i) if j is None else ("decoder", "layers", i, "pattern", j)
            kinds.add(group_block(arch, path).mixer.kind)
    return kinds


def measured_shape(entry: dict[str, Any]) -> list[int]:
    (shape,) = entry["shape"].values()
    return list(shape)


# --- verify: the checkpoint's tensors land in the parts the prediction has -----------------------

VERIFIED = [
    "zamba-7b-v1",
    "zamba2-2.7b",
    "lfm2-1.2b",
    "lfm2-8b-a1b",
    "recurrentgemma-2b",
    "falcon-mamba-7b",
    "nvidia-nemotron-nano-9b-v2",
]


@pytest.mark.parametrize("stem", VERIFIED)
def test_the_checkpoints_tensors_verify_against_the_prediction(stem: str) -> None:
    tensors = tuple(
        TensorInfo(name, (n,), "F16", 2 * n, "model.safetensors", n)
        for name, n, _ in saved_tensors(NAMES[stem])
    )
    result = compare(Checkpoint(Path(stem), "safetensors", ("model.safetensors",), tensors), published(stem))
    assert result.matches, (result.unexplained[:3], result.layers[:3], result.parts)
    assert result.actual_total == GOLDEN[stem]["total"]
    assert all(row.difference == 0 for row in result.parts)


# --- the short conv (LFM2) -----------------------------------------------------------------------


def test_a_short_conv_layer_is_what_lfm2_saves() -> None:
    """in_proj 3h·h, the depthwise conv h·K, out_proj h·h: LFM2-1.2B's conv tensors."""
    conv = NAMES["lfm2-1.2b"]["layer_structures"][0]["params"]
    saved = sum(
        shape[0] * (shape[1] if len(shape) > 1 else 1) * (shape[2] if len(shape) > 2 else 1)
        for name, shape in conv.items()
        if name.startswith("conv.")
    )
    mixer = group_block(published("lfm2-1.2b"), ("decoder", "layers", 0)).mixer
    assert isinstance(mixer, ShortConv)
    assert sum(term.value for term in mixer.terms(Context(2048))) == saved == 3 * 2048**2 + 2048 * 3 + 2048**2


def test_a_short_conv_keeps_its_last_k_minus_1_inputs_per_sequence() -> None:
    mixer = ShortConv(conv_kernel=3)
    assert mixer.cache(Context(2048), 1).per_sequence == 2048 * 2
    assert mixer.cache(Context(2048), 4).per_sequence == 512 * 2
    assert mixer.cache(Context(2048), 1).per_token == 0
    assert mixer.tp_problem(Context(2048), 3) is not None and mixer.tp_problem(Context(2048), 4) is None


def test_lfm2_keeps_kv_for_its_attention_layers_and_a_conv_state_for_the_rest() -> None:
    """LFM2-1.2B: 6 attention layers of 8 KV heads × 64, 10 short convs of 2,048 channels, K = 3."""
    arch = published("lfm2-1.2b")
    by_name = {term.name: term.value for term in estimate_memory(arch, Scenario(context=4096, batch=1)).terms}
    assert by_name["KV cache"] == 2 * 6 * 8 * 64 * 4096 * 2
    assert by_name["recurrent state"] == 10 * 2048 * 2 * 2


def test_lfm2_auto_adjusts_block_ff_dim_as_lfm2mlp_does() -> None:
    """block_ff_dim 12,288 → int(2·12,288/3) = 8,192, × 1.0, a multiple of 256: the saved w1."""
    arch = published("lfm2-1.2b")
    width = NAMES["lfm2-1.2b"]["layer_structures"][0]["params"]["feed_forward.w1.weight"][0]
    assert group_block(arch, ("decoder", "layers", 0)).ffn.width == width == 8192
    arch, entry = quirk("lfm2-auto-adjust-multiplier-and-multiple")
    assert_counts_as_measured(arch, entry)
    assert group_block(arch, ("decoder", "layers", 0)).ffn.width == measured_shape(entry)[0] == 384


def test_lfm2_reads_block_ff_dim_over_intermediate_size() -> None:
    arch, entry = quirk("lfm2-block-ff-dim-over-intermediate")
    assert_counts_as_measured(arch, entry)
    assert group_block(arch, ("decoder", "layers", 0)).ffn.width == measured_shape(entry)[0] == 384


def test_lfm2_reads_tie_embedding_over_tie_word_embeddings() -> None:
    arch, entry = quirk("lfm2-tie-embedding-over-tie-word-embeddings")
    assert_counts_as_measured(arch, entry)
    assert arch.head.tied is False


def test_lfm2_without_layer_types_or_full_attn_idxs_is_attention_everywhere() -> None:
    arch, entry = quirk("lfm2-no-layer-types-all-attention")
    assert_counts_as_measured(arch, entry)
    assert mixer_kinds(arch) == {"attention"}


def test_lfm2_conv_bias_biases_in_proj_the_conv_and_out_proj() -> None:
    arch, entry = quirk("lfm2-1.2b-conv-bias")
    assert_counts_as_measured(arch, entry)
    assert measured_shape(entry) == [3 * 2048]
    assert count_parameters(arch).total - GOLDEN["lfm2-1.2b"]["total"] == 10 * (3 * 2048 + 2048 + 2048)


def test_lfm2_refuses_a_null_ffn_multiplier_as_its_config_does() -> None:
    data = {**QUIRKS["lfm2-auto-adjust-multiplier-and-multiple"]["config"], "block_ffn_dim_multiplier": None}
    with pytest.raises(ParamTallyError, match="block_ffn_dim_multiplier"):
        import_hf_config(data, "lfm2.json")


# --- the RG-LRU (RecurrentGemma) -----------------------------------------------------------------


def _layer_params(stem: str, structure: int) -> dict[str, list[int]]:
    params: dict[str, list[int]] = NAMES[stem]["layer_structures"][structure]["params"]
    return params


def _numel(shape: list[int]) -> int:
    n = 1
    for size in shape:
        n *= size
    return n


def _structure_of(stem: str, fragment: str) -> int:
    return next(
        i
        for i, s in enumerate(NAMES[stem]["layer_structures"])
        if any(fragment in name for name in s["params"])
    )


def test_an_rg_lru_block_is_what_recurrentgemma_saves() -> None:
    """linear_x, linear_y, linear_out with biases, conv_1d with bias, Λ, block-diagonal gates: the
    2B's temporal block tensors, 10 blocks of 256."""
    params = _layer_params("recurrentgemma-2b", _structure_of("recurrentgemma-2b", "rg_lru"))
    saved = sum(_numel(shape) for name, shape in params.items() if name.startswith("temporal_block."))
    assert params["temporal_block.rg_lru.input_gate_weight"] == [10, 256, 256]
    mixer = group_block(published("recurrentgemma-2b"), ("decoder", "layers", 0)).mixer
    assert isinstance(mixer, RGLRU)
    assert sum(term.value for term in mixer.terms(Context(2560))) == saved


def test_an_rg_lru_keeps_its_conv_window_and_its_state_per_sequence() -> None:
    mixer = RGLRU(num_heads=10, conv_kernel=4)
    assert mixer.cache(Context(2560), 1).per_sequence == 2560 * 3 + 2560
    assert mixer.cache(Context(2560), 2).per_sequence == 1280 * 3 + 1280
    assert mixer.cache(Context(2560), 1).per_token == 0
    assert mixer.tp_problem(Context(2560), 4) is not None and mixer.tp_problem(Context(2560), 5) is None
    assert RGLRU(num_heads=3).problems(Context(64))  # 3 blocks do not split 64 channels


def test_recurrentgemma_keeps_a_window_of_kv_for_its_local_attention_and_a_state_for_the_rest() -> None:
    """RecurrentGemma-2B: 8 local attention layers of one KV head × 256 over a 2,048-token window,
    18 RG-LRU blocks of 2,560 channels, K = 4."""
    arch = published("recurrentgemma-2b")
    report = estimate_memory(arch, Scenario(context=8192, batch=1))
    by_name = {term.name: term.value for term in report.terms}
    kv = next(value for name, value in by_name.items() if name.startswith("KV cache"))
    assert kv == 2 * 8 * 1 * 256 * 2048 * 2
    assert by_name["recurrent state"] == 18 * (2560 * 3 + 2560) * 2


def test_recurrentgemma_mlp_is_half_of_intermediate_size_per_branch_with_biases() -> None:
    params = _layer_params("recurrentgemma-2b", 0)
    assert params["mlp_block.gate_proj.weight"] == [15360 // 2, 2560]
    assert params["mlp_block.down_proj.bias"] == [2560]
    ffn = group_block(published("recurrentgemma-2b"), ("decoder", "layers", 0)).ffn
    assert (ffn.width, ffn.gated, ffn.bias) == (7680, True, True)


def test_recurrentgemma_o_proj_has_a_bias_whatever_attention_bias_says() -> None:
    params = _layer_params("recurrentgemma-2b", _structure_of("recurrentgemma-2b", "q_proj"))
    assert "temporal_block.o_proj.bias" in params and "temporal_block.q_proj.bias" not in params
    arch, entry = quirk("recurrentgemma-2b-attention-bias")
    assert_counts_as_measured(arch, entry)
    assert measured_shape(entry) == [2560]


def test_recurrentgemma_builds_attention_at_a_files_head_dim() -> None:
    arch, entry = quirk("recurrentgemma-2b-head-dim-128")
    assert_counts_as_measured(arch, entry)
    assert measured_shape(entry) == [10 * 128, 2560]


def test_recurrentgemma_lru_width_apart_from_the_hidden_size_and_null() -> None:
    arch, entry = quirk("recurrentgemma-2b-lru-1280")
    assert_counts_as_measured(arch, entry)
    assert measured_shape(entry) == [10, 128, 128]
    arch, entry = quirk("recurrentgemma-2b-lru-null")
    assert_counts_as_measured(arch, entry)
    assert entry["total"] == GOLDEN["recurrentgemma-2b"]["total"]


def test_recurrentgemma_takes_any_block_type_but_recurrent_for_attention() -> None:
    arch, entry = quirk("recurrentgemma-2b-other-block-type")
    assert_counts_as_measured(arch, entry)
    assert mixer_kinds(arch) == {"rg_lru", "attention"}


def test_recurrentgemma_refuses_the_layer_types_its_config_derives() -> None:
    data = json.loads((V3 / "recurrentgemma-2b.json").read_text(encoding="utf-8"))
    for key in ("layer_types", "layers_block_type"):
        with pytest.raises(ParamTallyError, match=key):
            import_hf_config({**data, key: ["linear_attention"] * 26}, "rg.json")


# --- Falcon Mamba ----------------------------------------------------------------------------------


def test_falcon_mambas_inner_rms_norms_have_no_parameters() -> None:
    """dt_layernorm, b_layernorm and c_layernorm are weightless: non-persistent buffers, so the Mamba
    layer is counted without Jamba's inner norms."""
    structure = NAMES["falcon-mamba-7b"]["layer_structures"][0]
    assert {name: b["buffer"] for name, b in structure["buffers"].items()} == {
        "mixer.dt_layernorm.weight": "non-persistent",
        "mixer.b_layernorm.weight": "non-persistent",
        "mixer.c_layernorm.weight": "non-persistent",
    }
    assert not any("layernorm" in name for name in structure["params"])
    mixer = group_block(published("falcon-mamba-7b"), ("decoder", "layers", 0)).mixer
    assert isinstance(mixer, Mamba) and not mixer.inner_norms


def test_falcon_mamba_reads_a_files_intermediate_size_over_expand() -> None:
    arch, entry = quirk("falcon-mamba-7b-intermediate-size")
    assert_counts_as_measured(arch, entry)
    assert measured_shape(entry) == [2 * 4096, 4096]


def test_falcon_mamba_ties_by_the_class_default_and_the_7b_unties() -> None:
    assert published("falcon-mamba-7b").head.tied is False
    arch, entry = quirk("falcon-mamba-7b-tie-by-default")
    assert_counts_as_measured(arch, entry)
    assert arch.head.tied is True


# --- Nemotron-H --------------------------------------------------------------------------------------


def test_nemotron_h_reads_the_pattern_one_letter_a_layer() -> None:
    """Nemotron-Nano-9B-v2: 27 Mamba-2, 25 MLP and 4 attention layers, one norm each."""
    arch = published("nvidia-nemotron-nano-9b-v2")
    report = count_parameters(arch)
    structures = NAMES["nvidia-nemotron-nano-9b-v2"]["layer_structures"]
    sizes = {
        kind: sum(len(_indexes(s["layers"])) for s in structures if any(kind in n for n in s["params"]))
        for kind in ("mixer.in_proj", "mixer.up_proj", "mixer.q_proj")
    }
    assert sizes == {"mixer.in_proj": 27, "mixer.up_proj": 25, "mixer.q_proj": 4}
    assert mixer_kinds(arch) == {"mamba2", "no_mixer", "attention"}
    assert report.total == GOLDEN["nvidia-nemotron-nano-9b-v2"]["total"]


def test_nemotron_h_mamba_width_is_heads_times_head_dim_not_expand() -> None:
    """128 heads × 80 = 10,240 (expand × hidden would be 8,960): in_proj [2·I + 2·G·N + H, h]."""
    mamba = _layer_params(
        "nvidia-nemotron-nano-9b-v2", _structure_of("nvidia-nemotron-nano-9b-v2", "in_proj")
    )
    assert mamba["mixer.in_proj.weight"] == [2 * 10240 + 2 * 8 * 128 + 128, 4480]
    mixer = group_block(published("nvidia-nemotron-nano-9b-v2"), ("decoder", "layers", 0)).mixer
    assert isinstance(mixer, Mamba2) and mixer.inner == 10240


def test_nemotron_h_ignores_num_hidden_layers_attention_bias_and_the_tie() -> None:
    arch, entry = quirk("nemotron-nano-9b-v2-ignored-keys")
    assert_counts_as_measured(arch, entry)
    assert entry["total"] == GOLDEN["nvidia-nemotron-nano-9b-v2"]["total"] and arch.head.tied is False


def test_nemotron_h_moe_layers_have_plain_experts_and_a_biased_shared_expert() -> None:
    arch, entry = quirk("nemotron-h-moe-layers")
    assert_counts_as_measured(arch, entry)
    assert measured_shape(entry) == [6, 32, 64]  # up_proj [E, f_e, h]: no gate


def test_nemotron_h_without_a_pattern_has_the_default_four_layers() -> None:
    arch, entry = quirk("nemotron-h-default-layer-types")
    assert_counts_as_measured(arch, entry)
    assert arch.decoder.num_layers == 4


def test_nemotron_h_reads_the_older_mamba_keys_over_the_fields() -> None:
    arch, entry = quirk("nemotron-h-older-mamba-keys")
    assert_counts_as_measured(arch, entry)
    assert measured_shape(entry) == [4 * 16 + 2 * 4 * 8, 1, 2]  # I + 2·G·N channels, K = 2


def test_nemotron_h_refuses_a_latent_projection_it_does_not_read() -> None:
    data = {**QUIRKS["nemotron-h-moe-layers"]["config"], "moe_latent_size": 16}
    with pytest.raises(ParamTallyError, match="moe_latent_size"):
        import_hf_config(data, "nemotron_h.json")


# --- LFM2-MoE ------------------------------------------------------------------------------------


def test_lfm2_moe_is_dense_for_its_first_layers_and_routes_after_them() -> None:
    """LFM2-8B-A1B: layers 0–1 a dense MLP of 7,168, then 32 experts of 1,792, 4 a token; the
    routing bias a persistent buffer (saved, never counted)."""
    structures = NAMES["lfm2-8b-a1b"]["layer_structures"]
    assert structures[0]["layers"] == "0-1" and structures[0]["params"]["feed_forward.w1.weight"] == [
        7168,
        2048,
    ]
    assert structures[1]["buffers"]["feed_forward.expert_bias"] == {"buffer": "persistent", "shape": [32]}
    arch = published("lfm2-8b-a1b")
    assert group_block(arch, ("decoder", "layers", 0)).ffn.kind == "dense"
    assert {
        group_block(arch, ("decoder", "layers", i)).ffn.kind for i in range(1, len(arch.decoder.layers))
    } == {"moe"}
    assert_counts_as_measured(arch, GOLDEN["lfm2-8b-a1b"])


def test_lfm2_moe_neither_reads_block_ff_dim_nor_auto_adjusts_and_reads_tie_embedding() -> None:
    arch, entry = quirk("lfm2-8b-a1b-no-auto-adjust")
    assert_counts_as_measured(arch, entry)
    assert measured_shape(entry) == [7168, 2048] and arch.head.tied is False


def test_lfm2_moe_without_layer_types_is_refused_as_its_model_cannot_be_built() -> None:
    data = json.loads((V3 / "lfm2-8b-a1b.json").read_text(encoding="utf-8"))
    with pytest.raises(ParamTallyError, match="layer_types"):
        import_hf_config({key: value for key, value in data.items() if key != "layer_types"}, "lfm2_moe.json")


# --- Zamba, Zamba2 -----------------------------------------------------------------------------------


def _shared_params(stem: str, layer: str) -> int:
    structure = next(s for s in NAMES[stem]["layer_structures"] if s["layers"] == layer)
    return sum(
        _numel(shape) for name, shape in structure["params"].items() if name.startswith("shared_trans")
    )


def test_zambas_shared_transformer_is_counted_once_where_it_is_stored() -> None:
    """Zamba-7B: 358,263,680 in the shared block, stored at layer 2 and tied to the 12 other hybrid
    layers, which add their own 3,712 × 3,712 linear."""
    arch = published("zamba-7b-v1")
    owner = group_block(arch, ("decoder", "layers", 1)).parallel_mixer
    assert isinstance(owner, SharedTransformer) and owner.owner
    stored = sum(t.value for t in owner.terms(Context(3712)) if t.name.startswith("shared"))
    assert stored == _shared_params("zamba-7b-v1", "2") == 358_263_680
    assert "model.layers.7.shared_transf.self_attn.q_proj.weight" in NAMES["zamba-7b-v1"]["tied_aliases"]
    uses = [
        block.parallel_mixer
        for i in range(len(arch.decoder.layers))
        if (block := group_block(arch, ("decoder", "layers", i))).parallel_mixer is not None
    ]
    assert sum(1 for use in uses if isinstance(use, SharedTransformer) and use.owner) == 1


def test_zambas_attention_reads_twice_the_hidden_width() -> None:
    params = next(s for s in NAMES["zamba-7b-v1"]["layer_structures"] if s["layers"] == "2")["params"]
    assert params["shared_transf.self_attn.q_proj.weight"] == [7424, 7424]
    assert params["shared_transf.self_attn.o_proj.weight"] == [3712, 7424]
    assert params["shared_transf.input_layernorm.weight"] == [7424]
    arch, entry = quirk("zamba-7b-attention-widths")
    assert_counts_as_measured(arch, entry)
    assert measured_shape(entry) == [16 * 128, 3712]


def test_zamba_with_one_hybrid_layer_is_refused_as_transformers_cannot_tie_it() -> None:
    data = json.loads((V3 / "zamba-7b-v1.json").read_text(encoding="utf-8"))
    one = ["mamba"] * 75 + ["hybrid"]
    with pytest.raises(ParamTallyError, match="one hybrid layer"):
        import_hf_config({**data, "layers_block_type": one}, "zamba.json")


def test_zamba2_uses_its_shared_blocks_in_turn_and_stores_every_uses_adapters_with_them() -> None:
    """Zamba2-2.7B: blocks A (layer 6) and B (layer 12) used in turn by 9 hybrid layers; A keeps the
    adapters of uses 0, 2, 4, 6, 8 and B of 1, 3, 5, 7: 2,949,120 each (h·r + r·2f, r = 128)."""
    arch = published("zamba2-2.7b")
    owners = [
        mixer
        for i in range(len(arch.decoder.layers))
        if isinstance(mixer := group_block(arch, ("decoder", "layers", i)).parallel_mixer, SharedTransformer)
        and mixer.owner
    ]
    assert [owner.adapters for owner in owners] == [5, 4]
    per_use = 2560 * 128 + 128 * 2 * 10240
    assert per_use == 2_949_120
    a_params = next(s for s in NAMES["zamba2-2.7b"]["layer_structures"] if s["layers"] == "6")["params"]
    assert sum(1 for name in a_params if "adapter_list" in name) == 2 * 5


@pytest.mark.parametrize(
    "name",
    [
        "zamba2-2.7b-attention-adapters",
        "zamba2-2.7b-one-memory-block",
        "zamba2-2.7b-more-blocks-than-uses",
        "zamba2-2.7b-stale-hybrid-layer-ids",
        "zamba2-2.7b-mamba-headdim",
        "zamba2-2.7b-attention-widths",
    ],
)
def test_zamba2_quirks_count_as_measured(name: str) -> None:
    arch, entry = quirk(name)
    assert_counts_as_measured(arch, entry)


def test_zamba2_attention_adapters_read_and_write_the_attention_width() -> None:
    _, entry = quirk("zamba2-2.7b-attention-adapters")
    assert measured_shape(entry) == [128, 2 * 2560]
    _, entry = quirk("zamba2-2.7b-attention-widths")
    assert measured_shape(entry) == [32 * 40, 1000]


def test_a_shared_transformer_caches_k_and_v_at_every_use() -> None:
    """Zamba2-2.7B: 9 uses of 32 KV heads × 160 cache their own K and V."""
    report = estimate_memory(published("zamba2-2.7b"), Scenario(context=4096, batch=1))
    by_name = {term.name: term.value for term in report.terms}
    assert by_name["KV cache"] == 2 * 9 * 32 * 160 * 4096 * 2
