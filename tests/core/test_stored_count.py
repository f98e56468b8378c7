"""``paramtally count FOLDER`` of weights whose type ParamTally does not import: the stored count.

The checkpoints are real files: safetensors written by the ``safetensors`` package (one file and
sharded with its index), GGUF written byte by byte by ``tests/hostile/hostile_files``.
"""

from __future__ import annotations

import json
from math import prod
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType
from safetensors.numpy import save_file

from paramtally.core.cli import main
from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.io.importers.checkpoint import Checkpoint
from paramtally.core.io.importers.hf_config import SUPPORTED_MODEL_TYPES, import_hf_config
from paramtally.core.io.importers.safetensors_header import TensorInfo
from paramtally.core.io.importers.stored_count import split_checkpoint
from paramtally.core.io.model_sources import read_source
from paramtally.core.text import message_line
from tests.core.test_checkpoint import LLAMA, hf_shapes, write_folder
from tests.core.test_tensor_parts_v3 import GOLDEN, NAMES, VLMS, saved_tensors
from tests.csv_text import read_csv_text
from tests.hostile import hostile_files as hf

UNKNOWN_TYPE = "zz_private_arch"  # a type no release of ParamTally will import
UNKNOWN = {**LLAMA, "model_type": UNKNOWN_TYPE}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def count_json(capsys: pytest.CaptureFixture[str], source: Path) -> dict[str, Any]:
    code, out, err = run(capsys, "count", str(source), "--format", "json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def elements(shapes: dict[str, tuple[int, ...]]) -> int:
    return sum(prod(shape) for shape in shapes.values())


def test_the_type_is_unknown() -> None:
    assert UNKNOWN_TYPE not in SUPPORTED_MODEL_TYPES


# --- safetensors -----------------------------------------------------------------------------------


def test_unknown_type_with_one_safetensors_file_gives_the_header_total(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shapes = hf_shapes(UNKNOWN)
    folder = write_folder(tmp_path / "private-7b", UNKNOWN, shapes)
    data = count_json(capsys, folder)
    h, f, v, n = 64, 96, 120, 3
    assert data["total"] == data["stored_elements"] == elements(shapes) == 107_968
    assert data["editable"] is False
    assert data["not_editable_because"] == f"its model_type '{UNKNOWN_TYPE}' is not a type ParamTally imports"
    assert data["by_part"] == {
        "embeddings": v * h,
        "attention": n * (2 * h * h + 2 * 32 * h),
        "ffn": n * 3 * h * f,
        "norms": (2 * n + 1) * h,
        "lm_head": v * h,
    }
    assert sum(part["params"] for part in data["parts"]) == data["total"]
    assert data["name"] == "private-7b" and data["files"] == ["model.safetensors"]
    assert data["buffers"] == [] and data["tied_stored_twice"] is None
    # What a known type of the same shapes counts: the stored total is that exact figure.
    assert data["total"] == count_parameters(import_hf_config(LLAMA, "config.json")).total


def test_the_table_says_in_one_line_that_it_is_not_editable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = write_folder(tmp_path / "private-7b", UNKNOWN, hf_shapes(UNKNOWN))
    code, out, _ = run(capsys, "count", str(folder))
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "private-7b: 107,968 parameters stored (107.97K) — safetensors, 1 file, 30 tensors"
    assert lines[1] == (
        f"Not editable: its model_type '{UNKNOWN_TYPE}' is not a type ParamTally imports; these are the "
        "checkpoint's stored tensors, counted from their headers"
    )
    assert sum("Not editable" in line for line in lines) == 1
    assert any(line.startswith("Embeddings") and "7,680" in line for line in lines)
    assert any("Stored total: the elements of every tensor in the headers" in line for line in lines)
    f16 = next(line for line in lines if line.startswith("F16"))  # bytes on disk by dtype
    assert f16.split()[1:] == ["215,040", "210.00", "KiB"]  # 215,040 / 1,024; human() said "215.04KB"


def test_csv_has_the_breakdown_columns_and_sums_to_the_total(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = write_folder(tmp_path / "m", UNKNOWN, hf_shapes(UNKNOWN))
    code, out, _ = run(capsys, "count", str(folder), "--format", "csv")
    _, _, rows = read_csv_text(out)
    assert code == 0
    assert rows[0]["name"] == "m" and rows[0]["depth"] == "0" and int(rows[0]["params"]) == 107_968
    assert "Not editable" in rows[0]["formula"]
    parts = [row for row in rows if row["depth"] == "1"]
    assert {row["part"] for row in parts} == {"embeddings", "attention", "ffn", "norms", "lm_head"}
    assert sum(int(row["params"]) for row in parts) == 107_968


def test_a_sharded_index_gives_the_same_total(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shapes = hf_shapes(UNKNOWN)
    single = count_json(capsys, write_folder(tmp_path / "one", UNKNOWN, shapes))
    sharded = count_json(capsys, write_folder(tmp_path / "three", UNKNOWN, shapes, shards=3))
    assert sharded["files"] == [f"model-0000{k}-of-00003.safetensors" for k in (1, 2, 3)]
    assert sharded["total"] == single["total"] == elements(shapes)
    assert sharded["by_part"] == single["by_part"]


def test_no_config_json_is_a_reason_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write_folder(tmp_path / "bare", UNKNOWN, hf_shapes(UNKNOWN))
    (folder / "config.json").unlink()
    data = count_json(capsys, folder)
    assert data["not_editable_because"] == "no config.json beside the weights"
    assert data["total"] == 107_968


def test_a_safetensors_file_named_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write_folder(tmp_path / "m", LLAMA, hf_shapes(LLAMA))  # even of a known type
    data = count_json(capsys, folder / "model.safetensors")
    assert data["total"] == 107_968
    assert data["not_editable_because"] == "a safetensors file named alone, without its config.json"


@pytest.mark.parametrize("command", ["memory", "report", "solve", "compare"])
@pytest.mark.parametrize("name", ["model.safetensors", "model.gguf"])
def test_a_weights_file_given_where_an_architecture_is_needed_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, name: str
) -> None:
    """`count` reads a weights file alone; the commands that need an architecture said 'not UTF-8
    text (byte 0)', reading it as JSON. They say what it is and what counts it."""
    weights = tmp_path / name
    weights.write_bytes(hf.valid_safetensors())
    more = {"solve": ["--vary", "num_layers", "--target", "total=1e9"], "compare": ["gpt2"]}
    assert main([command, str(weights), *more.get(command, [])]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"paramtally {command}: {weights}: a weights file, not an architecture (a preset JSON or "
        "config.json): `paramtally count` counts its stored parameters, as File → Open Folder… "
        "does for its folder"
    ]


def test_buffers_and_quantization_scales_are_left_out_and_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shapes = hf_shapes(UNKNOWN) | {
        "model.layers.0.self_attn.rotary_emb.inv_freq": (16,),  # saved by transformers 4.3x
        "model.embed_tokens.position_ids": (1, 256),
        "model.layers.0.mlp.down_proj.weight_scale_inv": (1, 1),  # an FP8 checkpoint's block scale
    }
    folder = write_folder(tmp_path / "m", UNKNOWN, shapes)
    data = count_json(capsys, folder)
    assert data["total"] == 107_968
    assert data["stored_elements"] == 107_968 + 16 + 256 + 1
    assert sorted(b["name"] for b in data["buffers"]) == [
        "model.embed_tokens.position_ids",
        "model.layers.0.self_attn.rotary_emb.inv_freq",
    ]
    assert data["buffer_elements"] == 272
    assert (data["quantization_tensors"], data["quantization_elements"]) == (1, 1)
    _, out, _ = run(capsys, "count", str(folder))
    assert "Buffers, not counted: 2 tensor(s), 272 elements (model." in out
    assert "Quantization scales, not counted: 1 tensor(s), 1 elements." in out


def test_a_tied_head_stored_twice_is_counted_as_stored_and_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = {**UNKNOWN, "tie_word_embeddings": True}
    folder = write_folder(tmp_path / "m", config, hf_shapes(config))
    data = count_json(capsys, folder)
    assert data["total"] == 107_968  # both copies, as stored
    assert data["tied_stored_twice"] == {
        "head": "lm_head.weight",
        "embedding": "model.embed_tokens.weight",
        "elements": 120 * 64,
    }
    _, out, _ = run(capsys, "count", str(folder))
    assert "transformers counts them once, 7,680 fewer" in out


def test_a_tied_head_stored_once_is_simply_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = {**UNKNOWN, "tie_word_embeddings": True}
    shapes = hf_shapes(config)
    del shapes["lm_head.weight"]
    data = count_json(capsys, write_folder(tmp_path / "m", config, shapes))
    assert data["total"] == 107_968 - 7_680 and "lm_head" not in data["by_part"]
    assert data["tied_stored_twice"] is None


def test_layers_past_the_configs_count_are_multi_token_prediction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = {**UNKNOWN, "num_hidden_layers": 2}  # the third layer stored is past them
    data = count_json(capsys, write_folder(tmp_path / "m", config, hf_shapes(UNKNOWN)))
    one_layer = 2 * 64 * 64 + 2 * 32 * 64 + 3 * 64 * 96 + 2 * 64
    assert data["mtp"] == one_layer
    assert data["total"] == 107_968 - one_layer
    assert data["total_with_mtp"] == 107_968


# --- GGUF --------------------------------------------------------------------------------------------


def gguf_bytes(tensors: dict[str, tuple[tuple[int, ...], GGMLQuantizationType]], name: str) -> bytes:
    """A GGUF file of ``tensors`` (shapes in PyTorch order), each at an offset aligned to 32."""
    infos, offset = [], 0
    for tensor, (shape, kind) in tensors.items():
        block, size = GGML_QUANT_SIZES[kind]
        infos.append(hf.tensor_info(tensor, shape[::-1], offset, int(kind)))
        offset += -(-(prod(shape) // block * size) // 32) * 32
    kvs = [hf.text("general.architecture", "zzarch"), hf.text("general.name", name)]
    return hf.gguf(kvs, infos, bytes(offset))


GGUF_TENSORS = {
    "token_embd.weight": ((100, 64), GGMLQuantizationType.Q8_0),
    "blk.0.attn_q.weight": ((64, 64), GGMLQuantizationType.Q4_0),
    "blk.0.attn_norm.weight": ((64,), GGMLQuantizationType.F32),
    "blk.0.ffn_up.weight": ((128, 64), GGMLQuantizationType.F16),
    "output_norm.weight": ((64,), GGMLQuantizationType.F32),
    "output.weight": ((100, 64), GGMLQuantizationType.Q8_0),
    "rope_freqs.weight": ((16,), GGMLQuantizationType.F32),
}


def test_a_gguf_folder_without_config_gives_its_element_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "zz-gguf"
    folder.mkdir()
    (folder / "zz-Q8_0.gguf").write_bytes(gguf_bytes(GGUF_TENSORS, "ZZ Model 1B"))
    data = count_json(capsys, folder)
    assert data["format"] == "gguf" and data["name"] == "ZZ Model 1B"
    assert data["total"] == 100 * 64 + 64 * 64 + 64 + 128 * 64 + 64 + 100 * 64 == 25_216
    assert data["stored_elements"] == 25_216 + 16
    assert data["by_part"] == {
        "embeddings": 6_400,
        "attention": 4_096,
        "ffn": 8_192,
        "norms": 128,
        "lm_head": 6_400,
    }
    assert [b["name"] for b in data["buffers"]] == ["rope_freqs.weight"]
    assert data["not_editable_because"] == "no config.json beside the weights"


def test_a_gguf_file_named_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "zz.gguf"
    path.write_bytes(gguf_bytes(GGUF_TENSORS, "ZZ"))
    assert count_json(capsys, path)["total"] == 25_216


def test_two_ggufs_in_a_folder_ask_which(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for quant in ("Q4_K_M", "Q8_0"):
        (tmp_path / f"zz-{quant}.gguf").write_bytes(gguf_bytes(GGUF_TENSORS, "ZZ"))
    code, out, err = run(capsys, "count", str(tmp_path))
    assert code == 2 and out == ""
    assert err == (
        f"paramtally count: {tmp_path}: holds 2 .gguf files ('zz-Q4_K_M.gguf', 'zz-Q8_0.gguf'); "
        "name one of them\n"
    )


# --- when the config is read, and when its refusal stands -------------------------------------------


def test_a_known_type_beside_its_weights_is_counted_from_its_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = count_json(capsys, write_folder(tmp_path / "m", LLAMA, hf_shapes(LLAMA)))
    assert "editable" not in data and data["active"] == data["total"] == 107_968
    assert data["groups"]  # the calculator's own report


def test_a_folder_without_weights_keeps_the_configs_refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "config.json").write_text(json.dumps(UNKNOWN), encoding="utf-8")
    with pytest.raises(ParamTallyError) as refusal:
        read_source(str(tmp_path))
    code, out, err = run(capsys, "count", str(tmp_path))
    assert code == 2 and out == ""
    assert err == f"paramtally count: {message_line(str(refusal.value))}\n"


def test_a_known_type_refused_for_a_value_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = {**LLAMA, "num_attention_heads": 5}  # 64 is not a multiple of 5 heads
    folder = write_folder(tmp_path / "m", config, hf_shapes(LLAMA))
    data = count_json(capsys, folder)
    assert data["total"] == 107_968
    assert data["not_editable_because"].startswith("config.json is refused (")
    assert "num_attention_heads" in data["not_editable_because"]


def test_a_config_that_is_not_json_says_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write_folder(tmp_path / "m", UNKNOWN, hf_shapes(UNKNOWN))
    (folder / "config.json").write_text('{"model_type": "llama",', encoding="utf-8")  # cut short
    data = count_json(capsys, folder)
    assert data["total"] == 107_968
    assert data["not_editable_because"].startswith("config.json is refused (not valid JSON")


@pytest.mark.parametrize("flag", ["--no-bias", "--layers"])
def test_editing_options_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    folder = write_folder(tmp_path / "m", UNKNOWN, hf_shapes(UNKNOWN))
    code, out, err = run(capsys, "count", str(folder), flag)
    assert code == 2 and out == ""
    assert err == (
        f"paramtally count: m: {flag} needs an architecture, and this one is not editable "
        f"(its model_type '{UNKNOWN_TYPE}' is not a type ParamTally imports)\n"
    )


# --- the split, with the names real models store ------------------------------------------------------


@pytest.mark.parametrize("stem", VLMS)
def test_a_vision_language_checkpoint_splits_into_its_measured_parts(stem: str) -> None:
    """The vision tower and projector equal transformers' own modules' sums (the goldens' parts),
    the language model is the rest, and the persistent buffers stay out of the total."""
    tensors = tuple(
        TensorInfo(name, (n,), "BF16", 2 * n, "model.safetensors", n)
        for name, n, _ in saved_tensors(NAMES[stem])
    )
    checkpoint = Checkpoint(Path(stem), "safetensors", ("model.safetensors",), tensors)
    stored = split_checkpoint(checkpoint, stem, "its model_type is not a type ParamTally imports", {})
    golden = GOLDEN[stem]
    built = golden.get("built", golden)["total"]  # the names are the built module's
    assert stored.total == built
    assert stored.by_part["vision_tower"] == golden["parts"]["vision_tower"]
    assert stored.by_part.get("projector", 0) == golden["parts"].get("projector", 0)
    language = stored.total - stored.by_part["vision_tower"] - stored.by_part.get("projector", 0)
    # The golden's language model is the published checkpoint's (Mistral-3.1 and InternVL3 untied).
    assert language == golden["parts"]["language_model"] - (golden["total"] - built)


def test_a_header_of_many_tensors_is_split_once_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """50,000 tensors (a large MoE's count) in one hand-written header: every one counted once."""
    header = {
        f"model.layers.{i // 1000}.mlp.experts.{i % 1000}.w{1 + i % 3}.weight": {
            "dtype": "F32",
            "shape": [2],
            "data_offsets": [8 * i, 8 * i + 8],
        }
        for i in range(50_000)
    }
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "model.safetensors").write_bytes(hf.safetensors(header, bytes(8 * 50_000)))
    data = count_json(capsys, folder)
    assert data["by_part"] == {"moe_experts": 100_000}
    assert data["tensors"] == 50_000


def test_packed_integer_weights_are_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "m"
    folder.mkdir()
    save_file(
        {
            "model.layers.0.mlp.down_proj.qweight": np.zeros((8, 64), np.int32),  # GPTQ: 8 int4 in an int32
            "model.layers.0.mlp.down_proj.scales": np.zeros((1, 64), np.float16),
        },
        str(folder / "model.safetensors"),
    )
    code, out, _ = run(capsys, "count", str(folder))
    assert code == 0
    assert out.startswith("m: 512 parameters stored")
    assert "1 tensor(s) hold packed integers (GPTQ, AWQ, bitsandbytes, BitNet)" in out
