"""The dense decoders of issue 33, each quirk against what transformers 5.24 builds: a term of the
imported layer equals the elements of the tensors the real module holds for it
(``tests/data/param_names_v3.json``), and a config that switches a quirk on counts as measured
(``tests/golden/dense_quirks_v3.json``, from ``tools/measure_dense_quirks.py``). The published and
randomized configs of every type are checked whole by test_families and test_hf_import."""

from __future__ import annotations

import json
import re
from math import prod
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.io.importers.checkpoint import Checkpoint, compare
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.schema import Architecture, block_node

ROOT = Path(__file__).resolve().parents[2]
V3 = ROOT / "tests" / "data" / "hf_configs_v3"
NAMES = json.loads((ROOT / "tests" / "data" / "param_names_v3.json").read_text(encoding="utf-8"))
FAMILIES = json.loads((ROOT / "tests" / "golden" / "families_v3.json").read_text(encoding="utf-8"))
QUIRKS = json.loads((ROOT / "tests" / "golden" / "dense_quirks_v3.json").read_text(encoding="utf-8"))
RANDOM = json.loads((ROOT / "tests" / "golden" / "random_configs_v3.json").read_text(encoding="utf-8"))


def published(stem: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((V3 / f"{stem}.json").read_text(encoding="utf-8"))
    return data


def imported(stem: str, **changed: Any) -> Architecture:
    return import_hf_config({**published(stem), **changed}, f"{stem}.json")


def layer_terms(arch: Architecture, run: int = 0) -> dict[str, int]:
    """One layer's leaf terms by name ("attention/q", "block norms (RMSNorm)")."""
    node = block_node(arch.runs[run].block, arch.hidden_size)
    return {"/".join(path[1:]): leaf.value for path, leaf in node.leaves()}


def per_layer(arch: Architecture, field: str) -> list[Any]:
    """The mixer's ``field`` of each layer, in order."""
    layers: dict[int, Any] = {}
    for run in arch.runs:
        for start in run.starts():
            layers.update(dict.fromkeys(range(start, start + run.count), getattr(run.block.mixer, field)))
    return [layers[index] for index in range(arch.num_layers)]


def measured(stem: str, pattern: str, where: str = "layer") -> int:
    """Elements of the first layer's (or the outside's) parameters whose names match ``pattern``."""
    entry = NAMES[stem]
    params = entry["layer_structures"][0]["params"] if where == "layer" else entry["outside_layers"]
    found = [
        prod(shape) for name, shape in params.items() if isinstance(shape, list) and re.search(pattern, name)
    ]
    assert found, f"{stem} has no parameter matching {pattern}"
    return sum(found)


@pytest.mark.parametrize(
    ("stem", "terms", "pattern"),
    [
        # Glm4DecoderLayer: four RMSNorms (input, post_self_attn, post_attention, post_mlp)
        ("glm-4-9b-0414", ["block norms (RMSNorm)"], r"layernorm"),
        # GLM-4's attention_bias biases q, k and v; o has none
        ("glm-4-9b-0414", ["attention/biases"], r"self_attn\.\w+\.bias"),
        # Glm4MLP's fused gate_up_proj [2f, h] and down_proj: 3·h·f all the same
        ("glm-4-9b-0414", ["ffn/matrices"], r"mlp\."),
        # Olmo2Attention: q_norm [a·d_h], k_norm [g·d_h]
        ("olmo-2-1124-7b", ["attention/q/k norms (RMSNorm)"], r"self_attn\.[qk]_norm"),
        # OLMo-2: post-norms only, two a layer
        ("olmo-2-1124-7b", ["block norms (RMSNorm)"], r"post_\w+_layernorm"),
        ("olmo-3-1025-7b", ["attention/q/k norms (RMSNorm)"], r"self_attn\.[qk]_norm"),
        # StableLmLayerNormPerHead: 32 + 8 bias-free LayerNorm(160) modules
        ("stablelm-2-12b", ["attention/q/k norms (per head)"], r"self_attn\.[qk]_layernorm"),
        # use_parallel_residual: input_layernorm alone, with β
        ("stablelm-2-12b", ["block norms (LayerNorm)"], r"layernorm\.(weight|bias)"),
        ("stablelm-2-1_6b", ["attention/biases"], r"self_attn\.\w+\.bias"),
        # GPT-J: ln_1 alone with β; fc_in/fc_out with biases, q/k/v/out without
        ("gpt-j-6b", ["block norms (LayerNorm)"], r"ln_1"),
        ("gpt-j-6b", ["ffn/matrices", "ffn/biases"], r"mlp\."),
        ("gpt-j-6b", ["attention/q, k, v, o"], r"attn\."),
        # StarCoder2: use_bias on q/k/v/o and c_fc/c_proj; LayerNorms with β
        ("starcoder2-3b", ["attention/q", "attention/k, v", "attention/o", "attention/biases"], r"self_attn"),
        ("starcoder2-3b", ["ffn/matrices", "ffn/biases"], r"mlp\.c_"),
        ("starcoder2-3b", ["block norms (LayerNorm)"], r"layernorm"),
        # GPTBigCode: multi-query c_attn [h + 2·d_h, h] with bias, c_proj with bias
        ("starcoder", ["attention/q", "attention/k, v", "attention/o", "attention/biases"], r"attn\."),
        # NemotronLayerNorm1P: weight and bias; relu² MLP of two matrices
        ("nemotron-mini-4b-instruct", ["block norms (LayerNorm)"], r"layernorm"),
        ("nemotron-mini-4b-instruct", ["ffn/matrices"], r"mlp\."),
        # EXAONE-4: post-norms and per-head q/k RMSNorm [d_h]
        ("exaone-4.0-32b", ["block norms (RMSNorm)"], r"post_\w+_layernorm"),
        ("exaone-4.0-32b", ["attention/q/k norms (RMSNorm)"], r"self_attn\.[qk]_norm"),
        # ERNIE-4.5-0.3B: 16 heads of 128 on h = 1024
        ("ernie-4.5-0.3b-pt", ["attention/q", "attention/o"], r"self_attn\.[qo]_proj"),
        # Seed-OSS: 80 × 128 on 5120; attention_bias on q/k/v only
        ("seed-oss-36b-instruct", ["attention/biases"], r"self_attn\.\w+\.bias"),
        ("seed-oss-36b-instruct", ["attention/q"], r"self_attn\.q_proj\.weight"),
        # Apertus: XIELUActivation's alpha_p and alpha_n; q/k RMSNorm [d_h]; plain MLP
        ("apertus-8b-2509", ["ffn/xIELU α_p, α_n"], r"act_fn\.alpha"),
        ("apertus-8b-2509", ["ffn/matrices"], r"mlp\.\w+_proj"),
        ("apertus-8b-2509", ["attention/q/k norms (RMSNorm)"], r"self_attn\.[qk]_norm"),
        ("apertus-8b-2509", ["block norms (RMSNorm)"], r"(attention|feedforward)_layernorm"),
        # Arcee: relu² MLP of up and down only
        ("afm-4.5b", ["ffn/matrices"], r"mlp\."),
        # Command R+: one bias-free LayerNorm a layer, q/k norms [a, d_h] and [g, d_h]
        ("c4ai-command-r-plus", ["block norms (LayerNorm)"], r"layernorm"),
        ("c4ai-command-r-plus", ["attention/q/k norms (per head)"], r"self_attn\.[qk]_norm"),
        # HunYuan: query_layernorm / key_layernorm [d_h]
        ("hunyuan-7b-instruct", ["attention/q/k norms (RMSNorm)"], r"(query|key)_layernorm"),
        # GLM-4-9B (GlmDecoderLayer): two RMSNorms, q/k/v biases, fused gate_up_proj
        ("glm-4-9b-chat-hf", ["block norms (RMSNorm)"], r"layernorm"),
        ("glm-4-9b-chat-hf", ["attention/biases"], r"self_attn\.\w+\.bias"),
        ("glm-4-9b-chat-hf", ["ffn/matrices"], r"mlp\."),
        # OLMo: q/k/v/o and a gated MLP, no biases
        ("olmo-7b-hf", ["attention/q, k, v, o"], r"self_attn\."),
        ("olmo-7b-hf", ["ffn/matrices"], r"mlp\."),
        # MPT: LayerNorms whose bias transformers drops (norm_1, norm_2: weight only)
        ("mpt-7b", ["block norms (LayerNorm)"], r"norm_[12]\."),
        ("mpt-7b", ["attention/q, k, v, o"], r"attn\.(Wqkv|out_proj)"),
        ("mpt-7b", ["ffn/matrices"], r"ffn\."),
        # Persimmon: fused query_key_value and dense with biases; q/k LayerNorm(d_h) with β
        ("persimmon-8b-base", ["attention/q, k, v, o", "attention/biases"], r"query_key_value|dense\."),
        ("persimmon-8b-base", ["attention/q/k norms (LayerNorm)"], r"[qk]_layernorm"),
        ("persimmon-8b-base", ["ffn/matrices", "ffn/biases"], r"mlp\."),
        ("persimmon-8b-base", ["block norms (LayerNorm)"], r"(input|post_attention)_layernorm"),
        # BitNet: attn_sub_norm [h] beside the two block norms; ffn_sub_norm [f]
        ("bitnet-b1.58-2b-4t", ["block norms (RMSNorm)"], r"layernorm|attn_sub_norm"),
        ("bitnet-b1.58-2b-4t", ["ffn/inner norm (RMSNorm)"], r"ffn_sub_norm"),
        # GPT-Neo: q/k/v without biases, out_proj with one; c_fc/c_proj biased; ln_1 and ln_2
        ("gpt-neo-125m", ["attention/q, k, v, o", "attention/biases"], r"attn\.attention\."),
        ("gpt-neo-125m", ["ffn/matrices", "ffn/biases"], r"mlp\."),
        ("gpt-neo-125m", ["block norms (LayerNorm)"], r"ln_[12]\."),
        # GPT-1: fused c_attn [h, 3h] and c_proj with biases; c_fc/c_proj of 4·h; ln_1 and ln_2
        ("openai-gpt", ["attention/q, k, v, o", "attention/biases"], r"attn\.c_"),
        ("openai-gpt", ["ffn/matrices", "ffn/biases"], r"mlp\."),
        ("openai-gpt", ["block norms (LayerNorm)"], r"ln_[12]\."),
        # CodeGen: one fused qkv_proj [3h, h] and out_proj, no biases; ln_1 alone
        ("codegen-350m-mono", ["attention/q, k, v, o"], r"attn\."),
        ("codegen-350m-mono", ["ffn/matrices", "ffn/biases"], r"mlp\."),
        ("codegen-350m-mono", ["block norms (LayerNorm)"], r"ln_1\."),
        # XGLM and BioGPT: fairseq's layer, biases on q/k/v/out and fc1/fc2, two LayerNorms
        ("xglm-564m", ["attention/q, k, v, o", "attention/biases"], r"self_attn\."),
        ("xglm-564m", ["ffn/matrices", "ffn/biases"], r"^fc[12]\."),
        ("xglm-564m", ["block norms (LayerNorm)"], r"layer_norm"),
        ("biogpt", ["attention/q, k, v, o", "attention/biases"], r"self_attn\."),
        ("biogpt", ["ffn/matrices", "ffn/biases"], r"^fc[12]\."),
        ("biogpt", ["block norms (LayerNorm)"], r"layer_norm"),
    ],
)
def test_a_layer_term_is_what_the_module_builds(stem: str, terms: list[str], pattern: str) -> None:
    layer = layer_terms(imported(stem))
    assert sum(layer[name] for name in terms) == measured(stem, pattern)


def test_olmo_2_has_no_norm_before_its_sublayers() -> None:
    params = NAMES["olmo-2-1124-7b"]["layer_structures"][0]["params"]
    assert not [name for name in params if name.startswith("input_layernorm")]
    assert imported("olmo-2-1124-7b").runs[0].block.norms.count == 2


def test_olmo_3_slides_on_three_layers_of_four_and_its_layers_are_alike() -> None:
    arch = imported("olmo-3-1025-7b")
    windows = per_layer(arch, "sliding_window")
    types = published("olmo-3-1025-7b")["layer_types"]
    assert windows == [4096 if kind == "sliding_attention" else None for kind in types]
    assert len(NAMES["olmo-3-1025-7b"]["layer_structures"]) == 1  # the window shapes no parameter


def test_olmo_s_layernorms_hold_no_parameters() -> None:
    """OlmoLayerNorm is F.layer_norm without weight or bias, before each sublayer and at the end."""
    names = NAMES["olmo-7b-hf"]
    tensors = [*names["layer_structures"][0]["params"], *names["outside_layers"]]
    assert not [name for name in tensors if "norm" in name]
    arch = imported("olmo-7b-hf")
    norms = arch.runs[0].block.norms
    assert (norms.kind, norms.count, norms.affine) == ("layernorm", 2, False)
    report = count_parameters(arch)
    assert not [path for path, _, _ in report.walk() if "norm" in path[-1]]
    assert report.total == FAMILIES["olmo-7b-hf"]["total"] == 6_888_095_744


def test_glm_4_9b_has_two_norms_a_layer_and_the_0414_models_four() -> None:
    assert imported("glm-4-9b-chat-hf").runs[0].block.norms.count == 2
    assert imported("glm-4-9b-0414").runs[0].block.norms.count == 4
    assert FAMILIES["glm-4-9b-chat-hf"]["total"] == 9_399_951_360


def test_persimmon_s_heads_are_h_over_a_whatever_the_file_says() -> None:
    """PersimmonAttention reads neither num_key_value_heads nor head_dim."""
    arch = imported("persimmon-8b-base", num_key_value_heads=7, head_dim=128)  # 7 does not divide 64
    assert count_parameters(arch).total == FAMILIES["persimmon-8b-base"]["total"]


def _embedding_terms(arch: Architecture) -> dict[str, int]:
    report = count_parameters(arch)
    embeddings = next(node for node in report.tree.children if node.name == "embeddings")
    return {leaf.name: leaf.value for _, leaf in embeddings.leaves()}


def test_fuyu_s_patch_linear_is_measured_and_its_language_model_is_persimmon_s() -> None:
    """FuyuModel.vision_embed_tokens: nn.Linear(C·p², h) with a bias, no vision tower; the rest is
    PersimmonForCausalLM's (the flat file's text keys moved into its text_config)."""
    arch = imported("fuyu-8b")
    assert arch.embeddings.patch_inputs == 3 * 30 * 30
    linear = measured("fuyu-8b", r"^model\.vision_embed_tokens\.", where="outside")
    assert _embedding_terms(arch)["patch embedding (linear)"] == linear == 2700 * 4096 + 4096
    assert FAMILIES["fuyu-8b"]["total"] - linear == FAMILIES["persimmon-8b-base"]["total"]
    assert count_parameters(imported("fuyu-8b", patch_size=16, num_channels=1)).total == (
        FAMILIES["persimmon-8b-base"]["total"] + 256 * 4096 + 4096
    )


def test_verify_finds_fuyus_patch_linear_in_the_embeddings_where_the_count_puts_it() -> None:
    """paramtally verify of Fuyu-8B's tensors (the module's names and shapes): every part agrees."""
    from tests.core.test_vlm_import import _named_tensors

    checkpoint = Checkpoint(Path("fuyu-8b"), "safetensors", ("x",), tuple(_named_tensors("fuyu-8b")))
    result = compare(checkpoint, imported("fuyu-8b"))
    assert result.matches and not result.unexplained
    assert any(t.name == "model.vision_embed_tokens.weight" for t in checkpoint.tensors)


def test_fuyu_reads_a_text_config_over_the_top_level_keys_and_its_tie_from_the_top() -> None:
    """FuyuConfig moves the top-level text keys only when the file has no text_config; the head
    is tied by the top-level key alone (measured: tests/golden/random_configs_v3.json)."""
    nested = [
        entry for entry in RANDOM if entry["name"].startswith("fuyu-") and "text_config" in entry["config"]
    ]
    stray = [
        e for e in nested if e["config"].get("hidden_size", 0) > e["config"]["text_config"]["hidden_size"]
    ]
    untied = [
        e
        for e in nested
        if e["config"]["text_config"].get("tie_word_embeddings")
        and not e["config"].get("tie_word_embeddings")
    ]
    assert stray and untied
    for entry in stray + untied:
        arch = import_hf_config(entry["config"], entry["name"])
        assert (count_parameters(arch).total, arch.head.tied) == (entry["total"], entry["tied"]), entry[
            "name"
        ]
    assert not any(entry["tied"] for entry in untied)


def test_mpt_s_final_norm_has_a_weight_and_no_bias() -> None:
    report = count_parameters(imported("mpt-7b"))
    (final,) = [node for path, _, node in report.walk() if path[-1].startswith("final norm")]
    assert final.value == measured("mpt-7b", r"norm_f", where="outside") == 4096
    assert imported("mpt-7b").head.tied is FAMILIES["mpt-7b"]["tied"] is True


@pytest.mark.parametrize(
    ("changed", "key"),
    [
        ({"expansion_ratio": 8}, "expansion_ratio"),
        ({"no_bias": False}, "no_bias"),
        ({"attn_config": {"alibi": False}}, "attn_config"),
        ({"attn_config": {"qk_ln": True}}, "attn_config"),
    ],
)
def test_mpt_refuses_shapes_transformers_builds_otherwise(changed: dict[str, Any], key: str) -> None:
    """MptMLP is 4·h, the MPT linears have no bias, ALiBi is always on and q and k are never
    normalized, whatever the file says: such a file describes a checkpoint the module does not
    build (QUIRKS.md)."""
    with pytest.raises(ParamTallyError) as raised:
        imported("mpt-7b", **changed)
    assert key in str(raised.value) and "\n" not in str(raised.value)


def test_gpt_j_s_head_has_a_bias() -> None:
    report = count_parameters(imported("gpt-j-6b"))
    head = next(node for path, _, node in report.walk() if path[-1:] == ("lm head",))
    assert head.value == measured("gpt-j-6b", r"^lm_head\.", where="outside") == 50400 * 4096 + 50400


def test_starcoder_learns_its_positions() -> None:
    """GPTBigCodeModel.wpe [n_positions, h]: counted with the embeddings."""
    report = count_parameters(imported("starcoder"))
    embeddings = next(node for path, _, node in report.walk() if path[-1:] == ("embeddings",))
    assert embeddings.value == measured("starcoder", r"\.w[tp]e\.", where="outside")


@pytest.mark.parametrize("stem", ["starcoder", "starcoder2-3b", "c4ai-command-r-v01", "c4ai-command-r-plus"])
def test_starcoder_and_command_r_are_tied_by_their_class_default(stem: str) -> None:
    assert "tie_word_embeddings" not in published(stem)
    assert imported(stem).head.tied is FAMILIES[stem]["tied"] is True


def test_exaone_4_s_global_layers_skip_rope() -> None:
    """Exaone4Attention rotates only where the model has no window or the layer slides."""
    arch = imported("exaone-4.0-32b")
    kinds = {(run.block.mixer.sliding_window, run.block.mixer.rope) for run in arch.runs}  # type: ignore[union-attr]
    assert kinds == {(4096, True), (None, False)}
    unwindowed = imported("exaone-4.0-1.2b")
    assert {(run.block.mixer.sliding_window, run.block.mixer.rope) for run in unwindowed.runs} == {
        (None, True)
    }  # type: ignore[union-attr]


def test_smollm3_skips_rope_where_no_rope_layers_says_0() -> None:
    arch = imported("smollm3-3b")
    rope = [int(flag) for flag in per_layer(arch, "rope")]
    assert rope == published("smollm3-3b")["no_rope_layers"]
    by_rule = imported("smollm3-3b", no_rope_layers=None, no_rope_layer_interval=3)
    assert [int(flag) for flag in per_layer(by_rule, "rope")] == [int((i + 1) % 3 != 0) for i in range(36)]


MEASURED = [name for name, entry in QUIRKS.items() if not name.startswith("_") and "total" in entry]
REFUSED = [name for name, entry in QUIRKS.items() if not name.startswith("_") and "error" in entry]


@pytest.mark.parametrize("name", MEASURED)
def test_a_quirk_switched_on_counts_as_measured(name: str) -> None:
    entry = QUIRKS[name]
    arch = imported(entry["config"], **entry["changed"])
    report = count_parameters(arch)
    assert (report.total, report.active, arch.head.tied) == (entry["total"], entry["active"], entry["tied"])
    assert report.total != FAMILIES[entry["config"]]["total"] or not entry["changed"].keys() - {
        "sliding_window",
        "sliding_window_pattern",
        "layer_types",
        "attention_types",
    }, "a quirk that changes no count belongs to the layer tests"


@pytest.mark.parametrize("name", REFUSED)
def test_a_config_transformers_cannot_build_is_refused_in_one_line(name: str) -> None:
    entry = QUIRKS[name]
    with pytest.raises(ParamTallyError) as raised:
        imported(entry["config"], **entry["changed"])
    (key,) = [key for key in entry["changed"] if key in str(raised.value)][:1]
    assert "\n" not in str(raised.value) and key in str(raised.value)


def test_helium_s_output_projection_reads_h_whatever_the_heads() -> None:
    entry = QUIRKS["helium-narrow-heads"]
    layer = layer_terms(imported(entry["config"], **entry["changed"]))
    assert layer["attention/o"] == 2560 * 2560 and layer["attention/q"] == 2560 * 20 * 64


def test_seed_oss_biases_o_on_its_own_key() -> None:
    both, o_only = (QUIRKS[name] for name in ("seed-oss-o-bias", "seed-oss-no-qkv-bias"))
    assert both["total"] - FAMILIES["seed-oss-36b-instruct"]["total"] == 64 * 5120  # o's bias, h a layer
    assert both["total"] - o_only["total"] == 64 * (80 + 2 * 8) * 128  # q, k, v biases
    o_only_layer = layer_terms(imported("seed-oss-36b-instruct", **o_only["changed"]))
    assert o_only_layer["attention/biases"] == 5120


def outside_terms(stem: str) -> dict[str, int]:
    """The count's parts outside the layers by name ("embeddings", "lm head")."""
    report = count_parameters(imported(stem))
    return {path[-1]: node.value for path, _, node in report.walk() if len(path) == 2}  # (model, part)


def test_codegen_s_head_has_a_bias_that_stays_when_it_is_tied() -> None:
    """CodeGenForCausalLM.lm_head = nn.Linear(n_embd, vocab_size): tying shares the weight only."""
    assert outside_terms("codegen-350m-mono")["lm head"] == measured(
        "codegen-350m-mono", r"^lm_head\.", where="outside"
    )
    tied = QUIRKS["codegen-350m-tied"]
    assert FAMILIES["codegen-350m-mono"]["total"] - tied["total"] == 51200 * 1024  # the weight alone


def test_xglm_s_sinusoidal_positions_are_a_buffer_not_parameters() -> None:
    """XGLMSinusoidalPositionalEmbedding.weights: max_position_embeddings + 2 rows, not persistent."""
    buffer = NAMES["xglm-564m"]["outside_layers"]["model.embed_positions.weights"]
    assert buffer == {"buffer": "non-persistent", "shape": [2048 + 2, 1024]}
    arch = imported("xglm-564m")
    assert arch.decoder.positions == "sinusoidal"
    assert outside_terms("xglm-564m")["embeddings"] == measured("xglm-564m", r"embed_tokens", where="outside")


def test_biogpt_learns_two_more_positions_than_it_reads() -> None:
    """BioGptLearnedPositionalEmbedding: max_position_embeddings + 2 rows (its offset)."""
    embeddings = outside_terms("biogpt")["embeddings"]
    assert embeddings == measured("biogpt", r"embed_(tokens|positions)", where="outside")
    assert NAMES["biogpt"]["outside_layers"]["biogpt.embed_positions.weight"] == [1024 + 2, 1024]


def test_gpt_neo_s_local_layers_hold_what_its_global_layers_hold() -> None:
    """GPTNeoSelfAttention builds the same projections for both kinds (the window is a mask buffer)."""
    assert len(NAMES["gpt-neo-125m"]["layer_structures"]) == 1
    all_global = imported("gpt-neo-125m", attention_layers=["global"] * 12)
    assert count_parameters(all_global).total == FAMILIES["gpt-neo-125m"]["total"]
    assert per_layer(all_global, "sliding_window") == per_layer(imported("gpt-neo-125m"), "sliding_window")


def test_gpt_neo_without_attention_layers_is_checked_by_its_attention_types() -> None:
    """GPTNeoConfig.validate_architecture: attention_types written out must make num_layers layers
    (a file with attention_layers is checked by them: dense_quirks_v3.json)."""
    data = {key: value for key, value in published("gpt-neo-125m").items() if key != "attention_layers"}
    assert count_parameters(import_hf_config(data, "neo.json")).total == FAMILIES["gpt-neo-125m"]["total"]
    with pytest.raises(ParamTallyError, match=r"attention_types makes 10 layers, num_layers says 12"):
        import_hf_config({**data, "attention_types": [[["global", "local"], 5]]}, "neo.json")
    unknown = r"attention_types\[0\] is 'sparse'; a gpt_neo layer is global or local"
    with pytest.raises(ParamTallyError, match=unknown):
        import_hf_config({**data, "attention_types": [[["global", "sparse"], 6]]}, "neo.json")


@pytest.mark.parametrize(
    ("stem", "common"),
    [
        ("gpt-neo-125m", {"num_heads": "num_attention_heads", "num_layers": "num_hidden_layers"}),
        (
            "openai-gpt",
            {
                "n_embd": "hidden_size",
                "n_head": "num_attention_heads",
                "n_layer": "num_hidden_layers",
                "n_positions": "max_position_embeddings",
            },
        ),
        (
            "xglm-564m",
            {
                "d_model": "hidden_size",
                "attention_heads": "num_attention_heads",
                "num_layers": "num_hidden_layers",
            },
        ),
    ],
)
def test_the_common_key_names_stand_for_a_config_s_own(stem: str, common: dict[str, str]) -> None:
    """GPTNeoConfig's, OpenAIGPTConfig's and XGLMConfig's attribute_map (the random goldens build
    both spellings of GPT-Neo's and XGLM's)."""
    own = published(stem)
    renamed = {common.get(key, key): value for key, value in own.items()}
    assert import_hf_config(renamed, "c.json") == import_hf_config(own, "c.json")


def test_gpt1_learns_its_positions_and_ends_without_a_final_norm() -> None:
    """OpenAIGPTModel: tokens_embed and positions_embed [n_positions, h], no ln_f; the head tied
    without a bias; OpenAIGPTModel alone has no head (its random goldens measure it)."""
    arch = imported("openai-gpt")
    outside = NAMES["openai-gpt"]["outside_layers"]
    assert not any("ln" in name for name in outside) and not arch.main_stack.final_norm
    assert (arch.main_stack.positions, arch.main_stack.max_positions) == ("learned", 512)
    positions = prod(outside["transformer.positions_embed.weight"])
    report = count_parameters(arch)
    assert report.total == FAMILIES["openai-gpt"]["total"] == 116_534_784
    assert arch.head.tied and not arch.head.bias and positions == 512 * 768
    # modeling_openai.ACT_FNS: "gelu" is NewGELUActivation, the tanh approximation
    assert arch.runs[0].block.ffn.activation == "gelu_new"
    bare = import_hf_config({**published("openai-gpt"), "architectures": ["OpenAIGPTModel"]}, "c.json")
    assert not bare.head.present and count_parameters(bare).total == report.total


@pytest.mark.parametrize(
    ("changed", "refusal"),
    [
        (
            {"architectures": ["OpenAIGPTDoubleHeadsModel"]},
            r"architectures names .*OpenAIGPTDoubleHeadsModel",
        ),
        ({"afn": "tanh"}, r"afn is 'tanh'; GPT-1's activations: gelu, relu, silu, swish"),
    ],
)
def test_gpt1_refuses_a_class_or_an_activation_it_does_not_build(
    changed: dict[str, Any], refusal: str
) -> None:
    """The double-heads model's summary head is not read; ACT_FNS has no other activation (a
    KeyError in transformers)."""
    with pytest.raises(ParamTallyError, match=refusal):
        imported("openai-gpt", **changed)
