"""The encoders and encoder-decoders of issue 33 (RoBERTa, XLM-R, CamemBERT, ELECTRA, DistilBERT,
ModernBERT, DeBERTa-v2, MPNet, ERNIE, ESM, XLM-RoBERTa-XL, Megatron-BERT, Longformer; M2M-100/NLLB,
Marian, mBART, Pegasus, LED): each counted as the real transformers 5.24 class, for every head its
golden measured (``by_class``) and for the randomized configs, tied or not; and each quirk of
theirs, with a test of its own (Longformer's and LED's in test_longformer_led).

The numbers are those of ``python tools/measure_golden.py --v3`` (tests/golden/families_v3.json,
random_configs_v3.json); the tensor shapes behind each quirk are in tests/data/param_names_v3.json.
"""

from __future__ import annotations

import json
import re
import warnings
from math import prod
from pathlib import Path
from typing import Any

import pytest

from paramtally.core import families
from paramtally.core.blocks import Attention, Context, DisentangledAttention
from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.io.importers.checkpoint import Checkpoint, compare
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.importers.safetensors_header import TensorInfo
from paramtally.core.io.importers.tensor_parts import BUFFER, part_of
from paramtally.core.schema import Architecture
from paramtally.core.terms.term import Term

ROOT = Path(__file__).resolve().parents[2]
V3 = ROOT / "tests" / "data" / "hf_configs_v3"
GOLDEN = json.loads((ROOT / "tests" / "golden" / "families_v3.json").read_text(encoding="utf-8"))
RANDOM = json.loads((ROOT / "tests" / "golden" / "random_configs_v3.json").read_text(encoding="utf-8"))
NAMES = json.loads((ROOT / "tests" / "data" / "param_names_v3.json").read_text(encoding="utf-8"))
# Heads and tables no published or randomized config reaches (python tools/measure_encoder_cases.py).
CASES = json.loads((ROOT / "tests" / "golden" / "encoder_cases.json").read_text(encoding="utf-8"))

TYPES = (
    "roberta",
    "xlm-roberta",
    "camembert",
    "electra",
    "distilbert",
    "modernbert",
    "deberta-v2",
    "mpnet",
    "ernie",
    "esm",
    "xlm-roberta-xl",
    "megatron-bert",
    "longformer",
    "m2m_100",
    "marian",
    "mbart",
    "pegasus",
    "led",
)
READ = [name for name in TYPES if families.find(name) is not None]


def _config(stem: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((V3 / f"{stem}.json").read_text(encoding="utf-8"))
    return data


def _imported(data: dict[str, Any], model_class: str, origin: str = "config.json") -> Architecture:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # none of these types is an alias: nothing to say
        return import_hf_config({**data, "architectures": [model_class]}, origin)


def _tied(arch: Architecture) -> bool | None:
    """As the golden says it: whether the LM head's weight is the input embedding; None without one."""
    return arch.head.tied if arch.head.present else None


def _find(node: Term, name: str) -> Term:
    found = [child for child in _walk(node) if child.name.startswith(name)]
    assert found, f"no term {name!r}"
    return found[0]


def _walk(node: Term) -> list[Term]:
    out = [node]
    for child in node.children:
        out += _walk(child)
    return out


PUBLISHED = [
    (stem, model_class, measured if isinstance(measured, int) else measured["total"])
    for stem, entry in GOLDEN.items()
    if not stem.startswith("_") and entry["model_type"] in READ
    for model_class, measured in (entry.get("by_class") or {entry["model_class"]: entry["total"]}).items()
]


@pytest.mark.parametrize(("stem", "model_class", "total"), PUBLISHED)
def test_published_config_counts_as_measured_with_each_head(stem: str, model_class: str, total: int) -> None:
    arch = _imported(_config(stem), model_class)
    report = count_parameters(arch)
    assert report.total == report.active == total
    if model_class == GOLDEN[stem]["model_class"]:
        assert _tied(arch) == GOLDEN[stem]["tied"]


RANDOMIZED = [entry for entry in RANDOM if entry.get("model_type") in READ]


@pytest.mark.parametrize("entry", RANDOMIZED, ids=[entry["name"] for entry in RANDOMIZED])
def test_random_config_counts_as_measured_tied_or_not(entry: dict[str, Any]) -> None:
    arch = _imported(entry["config"], entry["model_class"], entry["name"])
    report = count_parameters(arch)
    assert report.total == report.active == entry["total"]
    # Marian without shared embeddings ties its head to the decoder's own table, which the
    # measurement counts as tied (measure_v3.tied).
    assert _tied(arch) == entry["tied"]


def test_every_type_of_this_file_has_published_and_random_goldens() -> None:
    published = {GOLDEN[stem]["model_type"] for stem, _, _ in PUBLISHED}
    randomized = {entry["model_type"] for entry in RANDOMIZED}
    assert published == randomized == set(READ)
    assert {"roberta", "xlm-roberta", "electra", "distilbert"} <= set(READ)


# --- the encoders' quirks ------------------------------------------------------------------------


def test_roberta_positions_start_past_the_padding_token() -> None:
    """RobertaEmbeddings numbers positions from padding_idx + 1: 514 rows, 512 positions."""
    arch = _imported(_config("roberta-base"), "RobertaForMaskedLM")
    stack = arch.main_stack
    assert (stack.max_positions, stack.position_offset) == (512, 2)
    positions = _find(count_parameters(arch).tree, "positions")
    table = _shape_size("roberta-base", "roberta.embeddings.position_embeddings.weight")
    assert positions.value == 514 * 768 == table
    # Another padding token moves the offset with it; the rows stay as the file says.
    other = _imported({**_config("roberta-base"), "pad_token_id": 0}, "RobertaForMaskedLM")
    assert (other.main_stack.max_positions, other.main_stack.position_offset) == (513, 1)
    assert count_parameters(other).total == count_parameters(arch).total


def test_roberta_bare_model_has_the_pooler_and_the_mlm_head_one_bias() -> None:
    mlm = count_parameters(_imported(_config("roberta-base"), "RobertaForMaskedLM"))
    bare = count_parameters(_imported(_config("roberta-base"), "RobertaModel"))
    h, vocab = 768, 50265
    head = (h * h + h) + 2 * h + vocab  # dense, LayerNorm, the bias; the decoder tied
    assert mlm.total - bare.total == head - (h * h + h)


def test_electra_looks_up_and_normalizes_at_the_embedding_width_then_projects_with_a_bias() -> None:
    arch = _imported(_config("electra-small-discriminator"), "ElectraForPreTraining")
    tree = count_parameters(arch).tree
    e, h = 128, 256
    assert _find(tree, "token embedding").value == 30522 * e
    assert _find(tree, "positions").value == 512 * e
    assert _find(tree, "token types").value == 2 * e
    assert _find(tree, "embedding norm").value == 2 * e
    projection = _find(tree, "projection in")
    assert (
        projection.value
        == e * h + h
        == _shape_size(
            "electra-small-discriminator",
            "electra.embeddings_project.weight",
            "electra.embeddings_project.bias",
        )
    )


def test_electra_discriminator_head_is_a_dense_and_one_output_per_token() -> None:
    arch = _imported(_config("electra-base-discriminator"), "ElectraForPreTraining")
    assert not arch.head.present and arch.head.token_classifier == 1
    h = 768
    assert _find(count_parameters(arch).tree, "token classifier").value == (h * h + h) + (h + 1)


def test_electra_generator_head_maps_to_the_embedding_width() -> None:
    """ElectraGeneratorPredictions: dense h → e and LayerNorm(e), then the tied decoder's bias."""
    case = CASES["electra-generator-embed-width"]
    arch = _imported(case["config"], case["model_class"])
    tree = count_parameters(arch).tree
    assert _find(tree, "transform dense").value == 64 * 32 + 32
    assert _find(tree, "transform norm").value == 2 * 32
    assert count_parameters(arch).total == case["total"]
    untied = CASES["electra-generator-untied"]
    assert untied["total"] - case["total"] == 300 * 32  # the decoder's own e·V
    assert count_parameters(_imported(untied["config"], untied["model_class"])).total == untied["total"]


def test_distilbert_has_no_token_types_and_counts_its_sinusoidal_table() -> None:
    """DistilBERT's Embeddings has no token_type_embeddings; sinusoidal_pos_embds only fills the
    nn.Embedding of positions, which stays a parameter."""
    data = _config("distilbert-base-uncased")
    arch = _imported(data, "DistilBertForMaskedLM")
    assert arch.embeddings.token_types == 0
    outside = NAMES["distilbert-base-uncased"]["outside_layers"]
    assert not any(name.endswith("token_type_embeddings.weight") for name in outside)
    sines = _imported({**data, "sinusoidal_pos_embds": True}, "DistilBertForMaskedLM")
    assert count_parameters(sines).total == count_parameters(arch).total == 66_985_530
    assert _find(count_parameters(sines).tree, "positions").value == 512 * 768


def test_mpnet_counts_one_relative_bias_table_for_the_encoder_and_positions_past_index_1() -> None:
    """MPNetEncoder.relative_attention_bias: buckets × heads once, however many layers; the
    position table of 514 rows offset by 2 (MPNetEmbeddings.padding_idx is 1 whatever
    pad_token_id says); no token types."""
    data = _config("mpnet-base")
    arch = _imported(data, "MPNetForMaskedLM")
    stack = arch.main_stack
    assert (stack.relative_buckets, stack.max_positions, stack.position_offset) == (32, 512, 2)
    assert arch.embeddings.token_types == 0
    tree = count_parameters(arch).tree
    table = _shape_size("mpnet-base", "mpnet.encoder.relative_attention_bias.weight")
    assert _find(tree, "relative position bias").value == 32 * 12 == table
    positions = _shape_size("mpnet-base", "mpnet.embeddings.position_embeddings.weight")
    assert _find(tree, "positions").value == 514 * 768 == positions
    outside = NAMES["mpnet-base"]["outside_layers"]
    assert not any("token_type" in name for name in outside)
    layer = NAMES["mpnet-base"]["layer_structures"][0]["params"]
    assert not any("relative" in name for name in layer)  # in no layer: the encoder's own
    deeper = count_parameters(_imported({**data, "num_hidden_layers": 13}, "MPNetForMaskedLM")).total
    one_layer = GOLDEN["mpnet-base"]["parts"]["encoder_layers"] // 12
    assert deeper - count_parameters(arch).total == one_layer
    other_pad = _imported({**data, "pad_token_id": 0}, "MPNetForMaskedLM")
    assert (other_pad.main_stack.max_positions, other_pad.main_stack.position_offset) == (512, 2)


def test_camembert_is_roberta_under_its_own_classes() -> None:
    """CamembertModel(RobertaModel) (modular_camembert): camembert-base read as a RoBERTa file
    counts the same, head and bare."""
    data = _config("camembert-base")
    as_roberta = {**data, "model_type": "roberta"}
    for head in ("ForMaskedLM", "Model"):
        total = GOLDEN["camembert-base"]["by_class"][f"Camembert{head}"]
        assert count_parameters(_imported(data, f"Camembert{head}")).total == total
        assert count_parameters(_imported(as_roberta, f"Roberta{head}")).total == total
    with pytest.raises(ParamTallyError, match="CamembertForMaskedLM"):
        _imported(data, "RobertaForMaskedLM")  # a CamemBERT file names CamemBERT's classes


def test_ernie_adds_a_task_type_table_only_with_use_task_id() -> None:
    """ErnieEmbeddings.task_type_embeddings: task_type_vocab_size × h, built only with use_task_id."""
    data = _config("ernie-3.0-base-zh")
    arch = _imported(data, "ErnieForMaskedLM")
    assert (arch.embeddings.token_types, arch.embeddings.task_types) == (4, 3)
    table = _shape_size("ernie-3.0-base-zh", "ernie.embeddings.task_type_embeddings.weight")
    assert _find(count_parameters(arch).tree, "task types").value == 3 * 768 == table
    without = _imported({**data, "use_task_id": False}, "ErnieForMaskedLM")
    assert without.embeddings.task_types == 0
    assert count_parameters(arch).total - count_parameters(without).total == 3 * 768
    unlisted = {key: value for key, value in data.items() if key != "use_task_id"}
    assert _imported(unlisted, "ErnieForMaskedLM").embeddings.task_types == 0  # ErnieConfig: False
    measured = [e for e in RANDOM if e["model_type"] == "ernie"]
    assert {e["config"].get("use_task_id", False) for e in measured} == {True, False}
    case = CASES["ernie-mlm-task-types-untied"]  # the untied decoder: its weight and its own bias
    untied = _imported(case["config"], case["model_class"])
    tied = _imported({**case["config"], "tie_word_embeddings": True}, case["model_class"])
    assert untied.embeddings.task_types == 7 and untied.head.decoder_bias
    assert count_parameters(untied).total == case["total"]
    assert count_parameters(untied).total - count_parameters(tied).total == 300 * 64 + 300


def test_esm_contact_head_holds_a_weight_per_attention_map_and_a_bias() -> None:
    """EsmModel always builds EsmContactPredictionHead: regression = Linear(L·a, 1) with a bias,
    beside the MLM head (EsmForMaskedLM) or the pooler (the bare EsmModel)."""
    stem = "esm2_t33_650M_UR50D"
    data = _config(stem)
    arch = _imported(data, "EsmForMaskedLM")
    regression = _shape_size(stem, "esm.contact_head.regression.weight", "esm.contact_head.regression.bias")
    tree = count_parameters(arch).tree
    assert _find(tree, "attention-map regression").value == 33 * 20 + 1 == regression
    bare = _imported(data, "EsmModel")
    assert bare.head.attention_map_regression and bare.head.pooler and not bare.head.present
    # One more layer adds one layer's tensors and a regression weight per head of it.
    deeper = count_parameters(_imported({**data, "num_hidden_layers": 34}, "EsmForMaskedLM")).total
    one_layer = GOLDEN[stem]["parts"]["encoder_layers"] // 33
    assert deeper - count_parameters(arch).total == one_layer + 20


def test_attention_map_regression_reads_each_layer_s_own_heads() -> None:
    """An edited model whose layers differ in heads keeps a weight per map it makes: Σ layers·a + 1."""
    arch = _imported(_config("esm2_t6_8M_UR50D"), "EsmForMaskedLM")
    data = arch.model_dump()
    data["encoder"]["layers"] = [{"count": 3}, {"count": 3, "override": {"mixer": {"num_heads": 10}}}]
    term = _find(count_parameters(Architecture.model_validate(data)).tree, "attention-map regression")
    assert (term.value, term.formula) == (3 * 20 + 3 * 10 + 1, "maps + 1 = 90 + 1 = 91")
    data = arch.model_dump()
    data["head"]["attention_map_regression"] = False
    without = Architecture.model_validate(data)
    assert count_parameters(arch).total - count_parameters(without).total == 6 * 20 + 1


def test_esm2_rotates_its_positions_and_normalizes_after_the_last_layer_only() -> None:
    """ESM-2: position_embedding_type rotary (no position table: EsmRotaryEmbedding's inv_freq is a
    buffer), emb_layer_norm_before false, EsmEncoder.emb_layer_norm_after; no token types."""
    stem = "esm2_t6_8M_UR50D"
    arch = _imported(_config(stem), "EsmForMaskedLM")
    stack = arch.main_stack
    assert (stack.positions, stack.embedding_norm, stack.final_norm) == ("rope", False, True)
    outside = NAMES[stem]["outside_layers"]
    assert not any("position_embeddings" in name or "token_type" in name for name in outside)
    # A persistent buffer: a checkpoint saves it, and verify tells it from the parameters.
    assert outside["esm.rotary_embeddings.inv_freq"]["buffer"] == "persistent"
    assert part_of("esm.rotary_embeddings.inv_freq") == BUFFER
    final = _shape_size(
        stem, "esm.encoder.emb_layer_norm_after.weight", "esm.encoder.emb_layer_norm_after.bias"
    )
    assert _find(count_parameters(arch).tree, "final norm").value == 2 * 320 == final


def test_esm_absolute_positions_start_past_the_padding_token_with_the_embedding_norm() -> None:
    """ESM-1b's kind: a learned table of max_position_embeddings rows, numbered from
    padding_idx + 1 as RoBERTa's, and emb_layer_norm_before (measured in the random goldens)."""
    absolute = [e for e in RANDOMIZED if e["config"].get("position_embedding_type") == "absolute"]
    normed = [e for e in absolute if e["config"].get("emb_layer_norm_before")]
    assert normed, "no measured ESM config with absolute positions and the embedding norm"
    for entry in normed:
        arch = _imported(entry["config"], entry["model_class"], entry["name"])
        rows, h = entry["config"]["max_position_embeddings"], entry["config"]["hidden_size"]
        assert (arch.main_stack.max_positions, arch.main_stack.position_offset) == (rows - 2, 2)
        tree = count_parameters(arch).tree
        assert _find(tree, "positions").value == rows * h
        assert _find(tree, "embedding norm").value == 2 * h
        assert count_parameters(arch).total == entry["total"]
    with pytest.raises(ParamTallyError, match=r"position_embedding_type is 'relative_key'; ESM's positions"):
        _imported(
            {**_config("esm2_t6_8M_UR50D"), "position_embedding_type": "relative_key"}, "EsmForMaskedLM"
        )


def test_esm_untied_decoder_keeps_one_bias() -> None:
    """EsmLMHead's decoder has no bias of its own: untied, it adds e·V and no second V (unlike
    BERT's, whose untied decoder unties its bias too); measured in the random goldens."""
    untied = [e for e in RANDOMIZED if e["model_type"] == "esm" and e["tied"] is False]
    assert untied
    for entry in untied:
        arch = _imported(entry["config"], entry["model_class"], entry["name"])
        assert not arch.head.tied and arch.head.bias and not arch.head.decoder_bias
        tied = _imported({**entry["config"], "tie_word_embeddings": True}, entry["model_class"])
        h, vocab = entry["config"]["hidden_size"], entry["config"]["vocab_size"]
        assert count_parameters(arch).total - count_parameters(tied).total == h * vocab


@pytest.mark.parametrize(
    ("stem", "final", "layer_norms"),
    [
        ("xlm-roberta-xl", "roberta.encoder.LayerNorm", r"self_attn_layer_norm|^LayerNorm"),
        ("megatron-bert-cased-345m", "bert.encoder.ln", r"^attention\.ln|^ln"),
    ],
)
def test_pre_norm_berts_normalize_after_the_last_layer_and_not_the_embeddings(
    stem: str, final: str, layer_norms: str
) -> None:
    """XLMRobertaXLEmbeddings and MegatronBertEmbeddings hold no LayerNorm; each layer normalizes
    before its attention and its FFN, and the encoder once more after the last layer."""
    arch = _imported(_config(stem), GOLDEN[stem]["model_class"])
    stack, h = arch.main_stack, arch.hidden_size
    assert (stack.embedding_norm, stack.final_norm) == (False, True)
    outside = NAMES[stem]["outside_layers"]
    assert not any(
        name.startswith(("roberta.embeddings.LayerNorm", "bert.embeddings.LayerNorm")) for name in outside
    )
    tree = count_parameters(arch).tree
    assert _find(tree, "final norm").value == 2 * h == _shape_size(stem, f"{final}.weight", f"{final}.bias")
    layer = NAMES[stem]["layer_structures"][0]["params"]
    norms = sum(prod(shape) for name, shape in layer.items() if re.search(layer_norms, name))
    assert _find(tree, "block norms").value == stack.num_layers * norms == stack.num_layers * 4 * h


def test_xlm_roberta_xl_positions_start_past_the_padding_token() -> None:
    """XLMRobertaXLEmbeddings numbers positions as RoBERTa's: 514 rows, 512 positions."""
    arch = _imported(_config("xlm-roberta-xl"), "XLMRobertaXLForMaskedLM")
    assert (arch.main_stack.max_positions, arch.main_stack.position_offset) == (512, 2)
    table = _shape_size("xlm-roberta-xl", "roberta.embeddings.position_embeddings.weight")
    assert _find(count_parameters(arch).tree, "positions").value == 514 * 2560 == table


def _shape_size(stem: str, *names: str) -> int:
    outside = NAMES[stem]["outside_layers"]
    total = 0
    for name in names:
        shape = outside[name]
        shape = shape["shape"] if isinstance(shape, dict) else shape
        size = 1
        for dim in shape:
            size *= dim
        total += size
    return total


def test_modernbert_layer_0_has_no_attention_norm() -> None:
    """ModernBertEncoderLayer(layer_idx=0).attn_norm is an nn.Identity: one LayerNorm, γ only."""
    arch = _imported(_config("modernbert-base"), "ModernBertForMaskedLM")
    norms = [(run.start, run.count, run.block.norms.count) for run in arch.runs if run.start == 0]
    assert norms == [(0, 1, 1)]
    assert {run.block.norms.count for run in arch.runs if run.start > 0} == {2}
    structures = NAMES["modernbert-base"]["layer_structures"]
    first = next(one for one in structures if one["layers"] == "0")
    assert not any(name.startswith("attn_norm") for name in first["params"])
    assert "mlp_norm.weight" in first["params"] and "mlp_norm.bias" not in first["params"]


def test_modernbert_alternates_global_and_local_attention_every_third_layer() -> None:
    arch = _imported(_config("modernbert-base"), "ModernBertForMaskedLM")
    windows = {}
    for run in arch.runs:
        for start in run.starts():
            for layer in range(start, start + run.count):
                windows[layer] = run.block.mixer.sliding_window
    assert [windows[i] for i in range(22)] == [None if i % 3 == 0 else 128 for i in range(22)]
    listed = {**_config("modernbert-base"), "layer_types": ["full_attention"] * 22}
    assert all(run.block.mixer.sliding_window is None for run in _imported(listed, "ModernBertModel").runs)


def test_modernbert_has_no_biases_and_a_biasless_head_transform() -> None:
    """norm_bias, attention_bias, mlp_bias and classifier_bias false; decoder_bias true: the head is
    dense h·h, LayerNorm γ, and the decoder's bias of V (its weight tied)."""
    arch = _imported(_config("modernbert-base"), "ModernBertForMaskedLM")
    report = count_parameters(arch)
    h, f, vocab = 768, 1152, 50368
    assert _find(report.tree, "transform dense").value == h * h
    assert _find(report.tree, "transform norm").value == h
    assert _find(report.tree, "bias").value == vocab
    layer = 4 * h * h + 3 * h * f + 2 * h  # Wqkv and Wo, Wi (2f) and Wo, two LayerNorm γ
    assert GOLDEN["modernbert-base"]["parts"]["decoder_layers"] == 22 * layer - h
    biased = {**_config("modernbert-base"), "norm_bias": True, "attention_bias": True, "mlp_bias": True}
    more = count_parameters(_imported(biased, "ModernBertModel")).total
    base = count_parameters(_imported(_config("modernbert-base"), "ModernBertModel")).total
    assert more - base == 22 * (4 * h + 2 * f + h + 2 * h) - h + 2 * h  # final and embedding norms' β


def test_deberta_v3_reads_one_relative_table_and_shares_the_attention_keys() -> None:
    """DeBERTa-v3-base: rel_embeddings [2 × 256, 768] with its LayerNorm, once for the encoder;
    share_att_key, so no pos_key_proj or pos_query_proj; no absolute positions, no token types."""
    arch = _imported(_config("deberta-v3-base"), "DebertaV2Model")
    # The file names no class (nor does the published one): read as the bare encoder it measures.
    unnamed = import_hf_config(_config("deberta-v3-base"), "config.json")
    assert not unnamed.head.present and count_parameters(unnamed).total == GOLDEN["deberta-v3-base"]["total"]
    stack = arch.main_stack
    assert (stack.relative_embeddings, stack.relative_norm, stack.positions) == (512, True, "none")
    assert arch.embeddings.token_types == 0
    tree = count_parameters(arch).tree
    assert (
        _find(tree, "relative position embeddings").value
        == 512 * 768
        == _shape_size("deberta-v3-base", "encoder.rel_embeddings.weight")
    )
    assert _find(tree, "relative position norm").value == 2 * 768
    mixer = arch.runs[0].block.mixer
    assert mixer.kind == "disentangled_attention"
    assert not mixer.position_key and not mixer.position_query  # type: ignore[union-attr]
    layer = NAMES["deberta-v3-base"]["layer_structures"][0]["params"]
    assert not any(name.startswith("attention.self.pos_") for name in layer)


@pytest.mark.parametrize(
    ("kinds", "key", "query"),
    [("p2c|c2p", True, True), (["c2p"], True, False), ("p2c", False, True), (None, False, False)],
)
def test_deberta_projects_positions_itself_without_share_att_key(kinds: Any, key: bool, query: bool) -> None:
    """pos_key_proj for c2p and pos_query_proj for p2c, h·a·d_h + a·d_h each, in every layer."""
    data = {**_config("deberta-v3-base"), "share_att_key": False, "pos_att_type": kinds}
    shared = count_parameters(_imported(_config("deberta-v3-base"), "DebertaV2Model")).total
    arch = _imported(data, "DebertaV2Model")
    mixer = arch.runs[0].block.mixer
    assert (mixer.position_key, mixer.position_query) == (key, query)  # type: ignore[union-attr]
    assert count_parameters(arch).total - shared == 12 * (key + query) * (768 * 768 + 768)


def test_deberta_embeddings_project_without_a_bias_and_normalize_at_the_hidden_size() -> None:
    """DebertaV2Embeddings with embedding_size 32 of 64 and absolute positions: words, positions
    and token types at 32, embed_proj 32 → 64 without a bias, LayerNorm at 64 (random deberta-v2-00
    and -02 are such; this case with the legacy MLM head untied)."""
    case = CASES["deberta-legacy-head-embed-width-untied"]
    data = case["config"]
    arch = _imported(data, "DebertaV2ForMaskedLM")
    tree = count_parameters(arch).tree
    assert _find(tree, "positions").value == 512 * 32 and _find(tree, "token types").value == 2 * 32
    assert _find(tree, "projection in").value == 32 * 64
    assert _find(tree, "embedding norm").value == 2 * 64
    assert _find(tree, "transform dense").value == 64 * 32 + 32  # LegacyDebertaV2PredictionHeadTransform
    assert count_parameters(arch).total == case["total"]


def test_deberta_without_relative_attention_has_no_table() -> None:
    entry = next(entry for entry in RANDOM if entry.get("name") == "deberta-v2-01")
    arch = _imported(entry["config"], "DebertaV2ForMaskedLM")
    assert arch.main_stack.relative_embeddings == 0 and arch.main_stack.positions == "learned"
    assert count_parameters(arch).total == entry["total"]


def test_a_relative_position_table_counts_once_for_its_stack() -> None:
    """Stack.relative_embeddings: rows of h every layer reads (DeBERTa's rel_embeddings), and its
    norm; however many layers, one table."""
    spec = {
        "hidden_size": 64,
        "embeddings": {"vocab_size": 100},
        "blocks": {
            "default": {"mixer": {"num_heads": 4}, "ffn": {"width": 128}, "norms": {"kind": "layernorm"}}
        },
        "decoder": {
            "layers": [{"count": 3}],
            "positions": "none",
            "relative_embeddings": 32,
            "relative_norm": True,
        },
        "head": {"present": False},
    }
    with_table = count_parameters(Architecture.model_validate(spec))
    without = count_parameters(
        Architecture.model_validate({**spec, "decoder": {"layers": [{"count": 3}], "positions": "none"}})
    )
    assert with_table.total - without.total == 32 * 64 + 2 * 64
    assert _find(with_table.tree, "relative position embeddings").expr == "rows·h"


# --- the encoder-decoders' quirks ------------------------------------------------------------------


def _stack_terms(arch: Architecture, role: str) -> dict[str, int]:
    """A stack's terms outside its layers (its input and its final norm), by name."""
    stack = next(child for child in count_parameters(arch).tree.children if child.name == role)
    terms: dict[str, int] = {}
    for child in stack.children:
        if child.name == "input":
            terms |= {node.name: node.value for node in child.children}
        elif not child.name.startswith("layer"):
            terms[child.name] = child.value
    return terms


def test_sinusoidal_positions_are_parameters_in_marian_and_buffers_in_m2m_100() -> None:
    marian = _imported(_config("opus-mt-en-de"), "MarianMTModel")
    for role in ("encoder", "decoder"):
        # Frozen (tests/core/test_frozen_params.py), and no norm outside the layers.
        assert _stack_terms(marian, role) == {"positions (frozen)": 512 * 512}
    assert _shape_size("opus-mt-en-de", "model.encoder.embed_positions.weight") == 512 * 512
    nllb = _imported(_config("nllb-200-distilled-600m"), "M2M100ForConditionalGeneration")
    assert nllb.encoder is not None and nllb.encoder.positions == "sinusoidal"
    buffer = NAMES["nllb-200-distilled-600m"]["outside_layers"]["model.encoder.embed_positions.weights"]
    assert buffer == {"buffer": "non-persistent", "shape": [1026, 1024]}
    for role in ("encoder", "decoder"):
        assert _stack_terms(nllb, role) == {"final norm (LayerNorm)": 2 * 1024}


def test_pegasus_keeps_its_sines_as_parameters_and_ends_each_stack_in_a_norm() -> None:
    arch = _imported(_config("pegasus-large"), "PegasusForConditionalGeneration")
    for role in ("encoder", "decoder"):
        expected = {"positions (frozen)": 1024 * 1024, "final norm (LayerNorm)": 2 * 1024}
        assert _stack_terms(arch, role) == expected


def test_mbart_has_an_embedding_norm_a_final_norm_and_positions_offset_by_two() -> None:
    arch = _imported(_config("mbart-large-50"), "MBartForConditionalGeneration")
    for role in ("encoder", "decoder"):
        assert _stack_terms(arch, role) == {
            "positions": 1026 * 1024,
            "embedding norm (LayerNorm)": 2 * 1024,
            "final norm (LayerNorm)": 2 * 1024,
        }
    assert arch.main_stack.max_positions == 1024


@pytest.mark.parametrize(
    ("stem", "model_class"),
    [
        ("mbart-large-50", "MBartForConditionalGeneration"),
        ("pegasus-large", "PegasusForConditionalGeneration"),
        ("opus-mt-en-de", "MarianMTModel"),
    ],
)
def test_final_logits_bias_is_a_buffer_and_scale_embedding_costs_nothing(stem: str, model_class: str) -> None:
    data = _config(stem)
    bias = NAMES[stem]["outside_layers"]["final_logits_bias"]
    assert bias["buffer"] == "persistent"  # in the checkpoint, not among the parameters
    arch = _imported(data, model_class)
    assert count_parameters(arch).total == GOLDEN[stem]["total"]
    assert not arch.head.bias and arch.head.tied
    unscaled = _imported({**data, "scale_embedding": not data.get("scale_embedding", False)}, model_class)
    assert count_parameters(unscaled).total == GOLDEN[stem]["total"]


def test_the_head_and_both_stacks_share_one_table_and_untying_it_is_refused() -> None:
    """tie_word_embeddings false makes transformers 5.24 untie shared, both embed_tokens and the
    head (NLLB-600M: 615,073,792 → 1,402,138,624, four tables): no published model is so."""
    data = _config("nllb-200-distilled-600m")
    report = count_parameters(_imported(data, "M2M100ForConditionalGeneration"))
    assert report.by_part["embeddings"] == 256206 * 1024
    with pytest.raises(ParamTallyError, match="tie_word_embeddings is false"):
        _imported({**data, "tie_word_embeddings": False}, "M2M100ForConditionalGeneration")


def test_marian_without_shared_embeddings_gives_the_decoder_its_own_table_and_head() -> None:
    """MarianMTModel with share_encoder_decoder_embeddings false: the encoder's table of V, the
    decoder's of decoder_vocab_size, the head tied to the decoder's (random marian-01, measured)."""
    entry = next(entry for entry in RANDOM if entry.get("name") == "marian-01")
    arch = _imported(entry["config"], "MarianMTModel")
    tree = count_parameters(arch).tree
    assert _find(tree, "decoder token embedding").value == 127 * 64
    assert _find(tree, "weights (tied").value == 0
    case = CASES["marian-own-decoder-untied"]  # and the head untied from that table
    arch = _imported(case["config"], case["model_class"])
    assert not arch.head.tied and arch.embeddings.decoder_vocab_size == 120
    assert count_parameters(arch).total == case["total"]


# --- the command line and the checkpoint names ---------------------------------------------------------

STEMS = sorted({stem for stem, _, _ in PUBLISHED})


@pytest.mark.parametrize("stem", STEMS)
def test_count_json_and_memory_of_the_published_file(
    stem: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from paramtally.core.cli import main

    config = tmp_path / "config.json"
    config.write_text(json.dumps({**_config(stem), "architectures": [GOLDEN[stem]["model_class"]]}), "utf-8")
    assert main(["count", str(config), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == GOLDEN[stem]["total"]
    assert main(["memory", str(config), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)


def _saved(stem: str) -> list[TensorInfo]:
    """The tensors a checkpoint of ``stem`` saves, named and shaped as the built module's
    (persistent buffers too: final_logits_bias)."""
    entry = NAMES[stem]
    tensors: list[TensorInfo] = []

    def add(name: str, value: Any) -> None:
        if isinstance(value, dict):
            if value["buffer"] != "persistent":
                return
            value = value["shape"]
        size = prod(value)
        tensors.append(TensorInfo(name, tuple(value), "F32", 4 * size, "x", size))

    for name, value in entry["outside_layers"].items():
        add(name, value)
    for structure in entry["layer_structures"]:
        first, _, last = structure["layers"].partition("-")
        for index in range(int(first), int(last or first) + 1):
            for name, value in {**structure["params"], **structure.get("buffers", {})}.items():
                add(f"{structure['prefix']}{index}.{name}", value)
    return tensors


@pytest.mark.parametrize("stem", STEMS)
def test_verify_finds_every_tensor_in_its_predicted_part(stem: str) -> None:
    arch = _imported(_config(stem), GOLDEN[stem]["model_class"])
    result = compare(Checkpoint(Path(stem), "safetensors", ("x",), tuple(_saved(stem))), arch)
    assert result.matches and not result.unexplained
    differing = {row.part for row in result.parts if row.difference}
    # XLM-R's and CamemBERT's measured names list the tied table under lm_head.decoder.weight (the
    # module order: CamembertForMaskedLM registers its roberta after lm_head): the same tensor,
    # counted once, named by its other owner.
    named_by_head = "lm_head.decoder.weight" in NAMES[stem]["outside_layers"]
    assert named_by_head == (stem in ("xlm-roberta-base", "camembert-base"))
    assert differing == ({"embeddings", "lm_head"} if named_by_head else set())


# Measured to show what the importer refuses (four tables; tests/core/test_t5_variants.py).
REFUSED_CASES = frozenset({"switch-untied"})


@pytest.mark.parametrize(
    "name", sorted(name for name in CASES if not name.startswith("_") and name not in REFUSED_CASES)
)
def test_each_measured_case_counts_as_its_class(name: str) -> None:
    case = CASES[name]
    assert count_parameters(_imported(case["config"], case["model_class"])).total == case["total"]


@pytest.mark.parametrize("example", DisentangledAttention.EXAMPLES)
def test_disentangled_attention_is_attention_plus_its_own_position_projections(
    example: dict[str, Any],
) -> None:
    ctx = Context(96, "layernorm", True)
    mixer = DisentangledAttention.model_validate(example)
    own = ("position_key", "position_query", "relative_span", "c2p", "p2c")  # the kind's own fields
    plain = Attention.model_validate({k: v for k, v in example.items() if k not in own})
    a, _, d_h = mixer.heads(ctx)
    extra = (mixer.position_key + mixer.position_query) * (96 * a * d_h + a * d_h)
    assert (
        sum(node.value for node in mixer.terms(ctx)) == sum(node.value for node in plain.terms(ctx)) + extra
    )
    assert mixer.cache(ctx, 1) == plain.cache(ctx, 1)  # K and V as attention's: the table is the stack's
