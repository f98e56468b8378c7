"""Vision-language models imported whole from their published config.json: each part — vision
tower, projector, language model, text-only active — and the tie exactly as transformers 5.24
builds them (tests/golden/families_v3.json, tools/measure_golden.py --v3), and each family's quirk
where its importer follows it (tests/data/hf_configs_v3/QUIRKS.md)."""

from __future__ import annotations

import json
import warnings
from math import prod
from pathlib import Path
from typing import Any

import pytest

from paramtally.core import families
from paramtally.core.cli import main
from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError, ParamTallyWarning
from paramtally.core.io.importers.checkpoint import Checkpoint, compare
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.importers.safetensors_header import TensorInfo

# Mistral-3 and InternVL files without a top-level tie say how they are read (tested below).
pytestmark = pytest.mark.filterwarnings("ignore::paramtally.core.errors.ParamTallyWarning")

ROOT = Path(__file__).resolve().parents[2]
V3 = ROOT / "tests" / "data" / "hf_configs_v3"
GOLDEN = json.loads((ROOT / "tests" / "golden" / "families_v3.json").read_text(encoding="utf-8"))
RANDOM = json.loads((ROOT / "tests" / "golden" / "random_configs_v3.json").read_text(encoding="utf-8"))
WHOLE = sorted(
    stem
    for stem, entry in GOLDEN.items()
    if not stem.startswith("_")
    and "vision_tower" in entry.get("parts", {})
    and families.find(entry["model_type"]) is not None
)


def _v3(stem: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((V3 / f"{stem}.json").read_text(encoding="utf-8"))
    return data


def _parts(data: dict[str, Any], origin: str = "config.json") -> tuple[int, ...]:
    arch = import_hf_config(data, origin)
    report = count_parameters(arch)
    return (
        report.total,
        report.active,
        report.vision,
        report.projector,
        report.language_model,
        report.language_model_active,
        int(arch.head.tied),
    )


def _golden_parts(entry: dict[str, Any]) -> tuple[int, ...]:
    parts = entry["parts"]
    return (
        entry["total"],
        entry["active"],
        parts["vision_tower"],
        parts["projector"],
        parts["language_model"],
        entry["text_only"]["active"],
        int(entry["tied"]),
    )


def _per_layer(arch: Any, of: Any) -> list[Any]:
    """``of(block)`` for each decoder layer in order."""
    found: dict[int, Any] = {}
    for run in arch.runs:
        for start in run.starts():
            found.update({start + i: of(run.block) for i in range(run.count)})
    return [found[i] for i in sorted(found)]


def _random(model_type: str) -> list[dict[str, Any]]:
    return [entry for entry in RANDOM if entry["config"]["model_type"] == model_type]


@pytest.mark.parametrize("stem", WHOLE)
def test_each_part_of_a_published_vlm_counts_as_measured(stem: str) -> None:
    assert _parts(_v3(stem), f"{stem}.json") == _golden_parts(GOLDEN[stem])


def test_the_whole_models_read_cover_the_common_families() -> None:
    read = {GOLDEN[stem]["model_type"] for stem in WHOLE}
    assert {"llava", "llava_next", "qwen2_vl", "qwen2_5_vl", "gemma3", "mistral3", "paligemma"} <= read


def test_random_vlm_configs_count_each_part_as_measured() -> None:
    """The randomized configs' parts too (test_hf_import checks their totals and actives)."""
    checked = 0
    for entry in RANDOM:
        if "vision_tower" in entry.get("parts", {}) and families.find(entry["config"]["model_type"]):
            assert _parts(entry["config"], entry["name"]) == _golden_parts(entry), entry["name"]
            checked += 1
    assert checked >= 60


# --- quirks ------------------------------------------------------------------------------------------


def test_qwen2_vl_flat_file_moves_its_text_keys_into_the_text_config() -> None:
    """Qwen2VLConfig.__post_init__: the published file keeps the text keys at the top level."""
    flat = _v3("qwen2-vl-7b-instruct")
    assert "text_config" not in flat
    text = {key: value for key, value in flat.items() if key not in ("vision_config", "model_type")}
    nested = {"model_type": "qwen2_vl", "vision_config": flat["vision_config"], "text_config": text}
    assert _parts(flat) == _parts(nested) == _golden_parts(GOLDEN["qwen2-vl-7b-instruct"])


def test_qwen2_vl_tower_width_is_embed_dim_and_qwen2_5_vl_hidden_size() -> None:
    """Qwen2-VL: embed_dim 1280 is the tower, hidden_size 3584 the LM; Qwen2.5-VL the reverse
    naming (hidden_size 1280 the tower, out_hidden_size 3584 the LM)."""
    two = import_hf_config(_v3("qwen2-vl-7b-instruct"), "c")
    two_five = import_hf_config(_v3("qwen2.5-vl-7b-instruct"), "c")
    assert two.vision is not None and two_five.vision is not None
    assert (
        (two.vision.width, two.hidden_size) == (two_five.vision.width, two_five.hidden_size) == (1280, 3584)
    )


def test_qwen2_vl_text_attention_ignores_head_dim() -> None:
    """Qwen2VLAttention takes hidden_size // num_heads whatever head_dim says (random qwen2_vl-00)."""
    entry = next(e for e in _random("qwen2_vl") if e["config"]["text_config"].get("head_dim"))
    text = entry["config"]["text_config"]
    assert text["head_dim"] * text["num_attention_heads"] != text["hidden_size"]
    assert _parts(entry["config"])[0] == entry["total"]


def test_qwen3_vl_deepstack_mergers_are_projector_branches() -> None:
    arch = import_hf_config(_v3("qwen3-vl-8b-instruct"), "c")
    assert arch.projector is not None
    (branch,) = arch.projector.branches
    assert branch.count == len(_v3("qwen3-vl-8b-instruct")["vision_config"]["deepstack_visual_indexes"]) == 3


@pytest.mark.parametrize(
    ("stem", "built"),
    [("mistral-small-3.1-24b-instruct-2503", 23_340_272_640), ("internvl3-1b-hf", 802_293_120)],
)
def test_a_wrapper_without_a_tie_key_is_read_untied_as_published(stem: str, built: int) -> None:
    """Mistral3Config and InternVLConfig default the tie to True, so 5.24 builds these files tied;
    their checkpoints keep lm_head, and the goldens hold the untied count beside ``built``."""
    data = _v3(stem)
    assert "tie_word_embeddings" not in data
    assert GOLDEN[stem]["built"]["total"] == built
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert _parts(data, "config.json")[0] == GOLDEN[stem]["total"] and not GOLDEN[stem]["tied"]
    notes = [str(w.message) for w in caught if issubclass(w.category, ParamTallyWarning)]
    assert notes == [
        "config.json: no top-level tie_word_embeddings: read untied, as its text model is and the "
        "published checkpoints keep lm_head (transformers 5.24 builds "
        f"{data['model_type']} files without the key tied)"
    ]
    assert _parts({**data, "tie_word_embeddings": True})[0] == built


def test_llava_builds_every_tower_layer_whichever_feature_layer_it_reads() -> None:
    data = _v3("llava-1.5-7b-hf")
    assert data["vision_feature_layer"] == -2
    arch = import_hf_config(data, "c")
    assert arch.vision is not None and sum(run.layers for run in arch.vision_runs) == 24
    assert _parts({**data, "vision_feature_layer": -1}) == _parts(data)


def test_llava_takes_a_text_config_tie_upwards_and_llava_next_does_not() -> None:
    """LlavaConfig.__post_init__ forwards text_config.tie_word_embeddings: true (pre-v5 files)."""
    llava = next(e for e in _random("llava") if "tie_word_embeddings" not in e["config"])
    data = {**llava["config"], "text_config": {**llava["config"]["text_config"], "tie_word_embeddings": True}}
    assert import_hf_config(data, "c").head.tied
    nxt = next(e for e in _random("llava_next") if "tie_word_embeddings" not in e["config"])
    data = {**nxt["config"], "text_config": {**nxt["config"]["text_config"], "tie_word_embeddings": True}}
    assert not import_hf_config(data, "c").head.tied


def test_siglips_pooling_head_is_counted_where_the_tower_keeps_it() -> None:
    """SiglipVisionConfig builds the attention-pooling head by default; published Gemma-3 and
    PaliGemma turn it off. A random gemma3 file leaves it on: 4e² + 4e attention, the MLP, a
    LayerNorm and the probe."""
    entry = _random("gemma3")[0]
    vision = entry["config"]["vision_config"]
    assert "vision_use_head" not in vision
    e, f = vision["hidden_size"], vision["intermediate_size"]
    without = _parts({**entry["config"], "vision_config": {**vision, "vision_use_head": False}})
    head = 4 * e * e + 4 * e + (2 * e * f + f + e) + 2 * e + e
    assert entry["parts"]["vision_tower"] - without[2] == head
    assert _parts(entry["config"])[2] == entry["parts"]["vision_tower"]


def test_gemma3_pools_to_mm_tokens_per_image_and_refuses_a_count_that_does_not_tile() -> None:
    data = _v3("gemma-3-4b-it")
    arch = import_hf_config(data, "c")
    assert arch.projector is not None and arch.projector.merged == 16  # 64² patches → 16² tokens
    with pytest.raises(ParamTallyError, match=r"^c: mm_tokens_per_image \(255\) must be a square"):
        import_hf_config({**data, "mm_tokens_per_image": 255}, "c")


def test_a_nested_key_is_named_with_its_config_in_an_error() -> None:
    data = _v3("llava-1.5-7b-hf")
    bad = {**data, "text_config": {**data["text_config"], "num_attention_heads": -4}}
    with pytest.raises(
        ParamTallyError, match=r"^c: text_config\.num_attention_heads must be a positive integer"
    ):
        import_hf_config(bad, "c")
    bad = {**data, "vision_config": {**data["vision_config"], "patch_size": "14"}}
    with pytest.raises(ParamTallyError, match=r"^c: vision_config\.patch_size must be a positive integer"):
        import_hf_config(bad, "c")


def test_glm4v_tower_mlp_is_out_hidden_size_wide_and_the_merger_mlp_intermediate_size() -> None:
    data = _v3("glm-4.1v-9b-thinking")
    vision = data["vision_config"]
    assert (vision["out_hidden_size"], vision["intermediate_size"]) == (4096, 13696)
    arch = import_hf_config(data, "c")
    assert arch.vision is not None and arch.projector is not None
    assert arch.blocks["vision"].ffn.width == 4096  # type: ignore[union-attr]
    assert arch.projector.steps[-1].width == 13696  # type: ignore[union-attr]
    assert arch.vision.embedding_norm  # post_conv_layernorm


def test_internvit_keeps_two_layer_scales_a_block_even_at_zero_init() -> None:
    data = _v3("internvl3-1b-hf")
    zero = {**data, "vision_config": {**data["vision_config"], "layer_scale_init_value": 0.0}}
    assert _parts(zero) == _parts(data)
    assert import_hf_config(data, "c").blocks["vision"].norms.scales == 2


def test_internvits_post_norm_is_a_layernorm_whatever_norm_type_says() -> None:
    """InternVLVisionModel.layernorm is nn.LayerNorm without use_mean_pooling (random internvl-02)."""
    entry = next(e for e in RANDOM if e["name"] == "internvl-02")
    vision = entry["config"]["vision_config"]
    assert vision["norm_type"] == "rms_norm" and vision["use_mean_pooling"] is False
    assert _parts(entry["config"])[2] == entry["parts"]["vision_tower"]


def test_llama4s_empty_no_rope_layers_means_the_default_interval() -> None:
    """Llama4TextConfig: ``no_rope_layers if no_rope_layers else default`` — the published files'
    [] is NoPE every no_rope_layer_interval-th layer (4), not a list of the wrong length."""
    data = _v3("llama-4-scout-17b-16e-instruct")
    assert data["text_config"]["no_rope_layers"] == []
    rope = _per_layer(import_hf_config(data, "c"), lambda block: block.mixer.rope)
    assert rope == [(i + 1) % 4 != 0 for i in range(48)]
    text = {**data["text_config"], "no_rope_layers": [], "no_rope_layer_interval": 3}
    rope = _per_layer(import_hf_config({**data, "text_config": text}, "c"), lambda block: block.mixer.rope)
    assert rope == [(i + 1) % 3 != 0 for i in range(48)]


def test_llama4_text_alone_with_an_empty_no_rope_list_counts_as_the_text_model() -> None:
    data = _v3("llama-4-scout-17b-16e-instruct")["text_config"]
    report = count_parameters(import_hf_config(data, "c"))
    golden = GOLDEN["llama-4-scout-17b-16e-instruct"]
    assert (report.total, report.active) == (golden["parts"]["language_model"], golden["text_only"]["active"])


def test_llama4_ties_as_its_text_config_says_not_the_top_level() -> None:
    """Llama4ForConditionalGeneration declares no tie; its Llama4ForCausalLM ties by text_config."""
    entry = next(e for e in _random("llama4") if e["config"].get("tie_word_embeddings"))
    assert not entry["tied"]
    assert not import_hf_config(entry["config"], "c").head.tied
    assert _parts(entry["config"])[0] == entry["total"]


def test_llama4s_adapter_is_counted_at_the_widths_its_keys_name() -> None:
    """fc1 reads the vision intermediate_size and linear_1 vision_output_dim, as built, even where
    the pixel-shuffled width differs (a file that builds but cannot run; random llama4-00)."""
    entry = next(e for e in RANDOM if e["name"] == "llama4-00")
    vision = entry["config"]["vision_config"]
    assert vision["intermediate_size"] != 4 * vision["hidden_size"]
    arch = import_hf_config(entry["config"], "c")
    assert arch.projector is not None and arch.projector.steps[1].in_width == vision["intermediate_size"]  # type: ignore[union-attr]
    assert _parts(entry["config"])[3] == entry["parts"]["projector"]


def test_mllama_cross_attention_layers_embedding_rows_and_gates() -> None:
    data = _v3("llama-3.2-11b-vision-instruct")
    arch = import_hf_config(data, "c")
    crossing = _per_layer(arch, lambda block: block.cross_attention is not None)
    assert [i for i, on in enumerate(crossing) if on] == data["text_config"]["cross_attention_layers"]
    assert arch.embeddings.extra_rows == 8
    report = count_parameters(arch)
    assert report.total % 2 == 1  # 35 scalar gates: 3 tile/position, 2 × 8 global layers, 2 × 8 text


NAMES = json.loads((ROOT / "tests" / "data" / "param_names_v3.json").read_text(encoding="utf-8"))


def _named_tensors(stem: str) -> list[TensorInfo]:
    """The built model's parameters and persistent buffers as a checkpoint names them
    (param_names_v3.json; a non-persistent buffer is never saved)."""
    entry = NAMES[stem]

    def saved(shape: Any) -> bool:
        return not (isinstance(shape, dict) and shape.get("buffer") == "non-persistent")

    def info(name: str, shape: Any) -> TensorInfo:
        dims = tuple(shape["shape"] if isinstance(shape, dict) else shape)
        return TensorInfo(name, dims, "F32", 4 * prod(dims), "x", prod(dims))

    tensors = [info(name, shape) for name, shape in entry["outside_layers"].items() if saved(shape)]
    for structure in entry["layer_structures"]:
        for span in structure["layers"].split(","):
            first, _, last = span.partition("-")
            for i in range(int(first), int(last or first) + 1):
                prefix = f"{structure['prefix']}{i}."
                tensors += [
                    info(prefix + sub, shape) for sub, shape in structure["params"].items() if saved(shape)
                ]
    return tensors


@pytest.mark.parametrize("stem", WHOLE)
def test_verify_finds_each_vlm_checkpoint_tensor_in_its_predicted_part(stem: str) -> None:
    """paramtally verify: the tower's and projector's tensors land in those parts (not in the
    language model's layers), Mllama's cross-attention norms and gates where the count puts them."""
    data = _v3(stem)
    if GOLDEN[stem].get("built"):  # built tied (no lm_head among the names): compared as built
        data = {**data, "tie_word_embeddings": True}
    result = compare(Checkpoint(Path(stem), "safetensors", ("x",), tuple(_named_tensors(stem))),
                     import_hf_config(data, f"{stem}.json"))  # fmt: skip
    assert result.matches, [row for row in (*result.parts, *result.layers) if row.difference] or [
        t.name for t in result.unexplained
    ]
    assert {row.part for row in result.parts} >= {"vision", "projector"}


@pytest.mark.parametrize("stem", WHOLE)
def test_count_format_json_of_a_published_vlm_config_gives_the_measured_parts(
    stem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["count", str(V3 / f"{stem}.json"), "--format", "json"]) == 0
    said = json.loads(capsys.readouterr().out)
    golden = GOLDEN[stem]
    assert (said["total"], said["active"], said["text_only_active"]) == (
        golden["total"],
        golden["active"],
        golden["text_only"]["active"],
    )
    assert (said["vision_tower"], said["projector"], said["language_model"]) == (
        golden["parts"]["vision_tower"],
        golden["parts"]["projector"],
        golden["parts"]["language_model"],
    )


def test_idefics3_reads_its_older_vision_model_type() -> None:
    """Idefics3-8B's vision_config says model_type 'idefics3' (Idefics3VisionConfig's is
    idefics3_vision): both read as the SigLIP-like tower without a pooling head."""
    data = _v3("idefics3-8b-llama3")
    assert data["vision_config"]["model_type"] == "idefics3"
    renamed = {**data, "vision_config": {**data["vision_config"], "model_type": "idefics3_vision"}}
    assert _parts(renamed) == _parts(data) == _golden_parts(GOLDEN["idefics3-8b-llama3"])


def test_paligemma_projects_to_projection_dim_which_must_be_the_text_width() -> None:
    data = _v3("paligemma-3b-pt-224")
    with pytest.raises(
        ParamTallyError, match=r"^c: projection_dim \(1024\) must be the text model's hidden_size"
    ):
        import_hf_config({**data, "projection_dim": 1024}, "c")


def test_a_wrapper_refuses_a_text_model_it_does_not_hold() -> None:
    data = _v3("llava-1.5-7b-hf")
    wrong = {**data, "text_config": {**data["text_config"], "model_type": "mamba"}}
    with pytest.raises(ParamTallyError, match=r"^c: text_config\.model_type is 'mamba'; a llava reads llama"):
        import_hf_config(wrong, "c")


def test_llava_onevision_takes_the_text_config_tie_upwards_as_published() -> None:
    """LlavaOnevisionConfig.__post_init__ forwards text_config.tie_word_embeddings: true: the 0.5B
    file has no top-level key, its Qwen2-0.5B ties, and transformers builds it tied."""
    data = _v3("llava-onevision-qwen2-0.5b-ov-hf")
    assert "tie_word_embeddings" not in data and data["text_config"]["tie_word_embeddings"]
    assert GOLDEN["llava-onevision-qwen2-0.5b-ov-hf"]["tied"] and import_hf_config(data, "c").head.tied
    untied = {**data, "text_config": {**data["text_config"], "tie_word_embeddings": False}}
    assert not import_hf_config(untied, "c").head.tied


def test_llava_onevision_keeps_the_image_newline_and_a_26_layer_siglip_without_a_vision_config() -> None:
    data = _v3("llava-onevision-qwen2-7b-ov-hf")
    arch = import_hf_config(data, "c")
    assert arch.projector is not None and arch.projector.steps[-1].kind == "vector"
    # LlavaOnevisionConfig's vision default is the published tower: a file without one counts the same.
    bare = {key: value for key, value in data.items() if key != "vision_config"}
    assert _parts(bare) == _parts(data) == _golden_parts(GOLDEN["llava-onevision-qwen2-7b-ov-hf"])


def test_aya_visions_swiglu_projector_reads_half_of_its_alignment_width() -> None:
    """AyaVisionMultiModalProjector: LayerNorm(e·s²), linear_1 to A, SwiGLU halves it, linear_2
    from A/2: [4608] · 2 + (4608·28672 + 28672) + (14336·4096 + 4096) in Aya-Vision-8B."""
    data = _v3("aya-vision-8b")
    e, s, a, h = 1152, 2, 28672, 4096
    assert (data["alignment_intermediate_size"], data["downsample_factor"]) == (a, s)
    projector = 2 * e * s * s + (e * s * s * a + a) + (a // 2 * h + h)
    assert _parts(data)[3] == projector == GOLDEN["aya-vision-8b"]["parts"]["projector"]


def test_aya_vision_without_an_alignment_width_uses_the_text_width() -> None:
    """The key is no AyaVisionConfig field: the module reads getattr(config, key, text hidden_size)."""
    entry = next(e for e in _random("aya_vision") if "alignment_intermediate_size" not in e["config"])
    assert _parts(entry["config"]) == _golden_parts(entry)
    data = _v3("aya-vision-8b")
    bare = {key: value for key, value in data.items() if key != "alignment_intermediate_size"}
    h, wide = 4096, 4608
    wide_mlp = wide * 28672 + 28672 + 14336 * h
    narrow_mlp = wide * h + h + h // 2 * h
    assert _parts(data)[3] - _parts(bare)[3] == wide_mlp - narrow_mlp


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"vision_config": None}, r"vision_config\.num_attention_heads \(14\) must divide hidden_size"),
        ({"vision_feature_layer": [-2, -1]}, r"vision_feature_layer lists several layers"),
    ],
)
def test_aya_vision_refuses_what_it_cannot_build_or_run(change: dict[str, Any], message: str) -> None:
    """AyaVisionConfig's own vision default (14 heads at 1,152) is refused by SiglipAttention; a
    list of feature layers builds a projector e·s² wide that several concatenated layers cannot feed."""
    data = {**_v3("aya-vision-8b"), **change}
    data = {key: value for key, value in data.items() if value is not None}
    with pytest.raises(ParamTallyError, match=message):
        import_hf_config(data, "c")
