"""Checkpoint verification on small real files written by the safetensors and gguf libraries."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gguf import GGMLQuantizationType, GGUFWriter, quants
from safetensors.numpy import save_file

from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.io.importers.checkpoint import Checkpoint, compare, open_checkpoint, predicted_from
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.importers.safetensors_header import TensorInfo

ROOT = Path(__file__).resolve().parents[2]
LLAMA = {
    "model_type": "llama",
    "hidden_size": 64,
    "intermediate_size": 96,
    "num_hidden_layers": 3,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "vocab_size": 120,
    "max_position_embeddings": 256,
}
MIXTRAL = {**LLAMA, "model_type": "mixtral", "num_local_experts": 4, "num_experts_per_tok": 2}


def hf_shapes(cfg: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """Tensor names and shapes as transformers 5 saves a Llama/Mixtral checkpoint."""
    h, f, v = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    kv = cfg["num_key_value_heads"] * h // cfg["num_attention_heads"]
    shapes: dict[str, tuple[int, ...]] = {
        "model.embed_tokens.weight": (v, h),
        "model.norm.weight": (h,),
        "lm_head.weight": (v, h),
    }
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}."
        shapes |= {
            p + "self_attn.q_proj.weight": (h, h),
            p + "self_attn.k_proj.weight": (kv, h),
            p + "self_attn.v_proj.weight": (kv, h),
            p + "self_attn.o_proj.weight": (h, h),
            p + "input_layernorm.weight": (h,),
            p + "post_attention_layernorm.weight": (h,),
        }
        if "num_local_experts" in cfg:
            e = cfg["num_local_experts"]
            shapes |= {
                p + "mlp.gate.weight": (e, h),
                p + "mlp.experts.gate_up_proj": (e, 2 * f, h),
                p + "mlp.experts.down_proj": (e, h, f),
            }
        else:
            shapes |= {p + "mlp.gate_proj.weight": (f, h), p + "mlp.up_proj.weight": (f, h)}
            shapes |= {p + "mlp.down_proj.weight": (h, f)}
    return shapes


def write_folder(
    folder: Path, cfg: dict[str, Any], shapes: dict[str, tuple[int, ...]], shards: int = 1
) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(cfg), encoding="utf-8")
    names = sorted(shapes)
    weight_map = {}
    for k in range(shards):
        file = f"model-{k + 1:05d}-of-{shards:05d}.safetensors" if shards > 1 else "model.safetensors"
        part = names[k::shards]
        # norms in fp32, matrices in fp16: two dtypes on disk
        save_file(
            {n: np.zeros(shapes[n], np.float32 if len(shapes[n]) == 1 else np.float16) for n in part},
            str(folder / file),
        )
        weight_map |= dict.fromkeys(part, file)
    if shards > 1:
        index = {"metadata": {}, "weight_map": weight_map}
        (folder / "model.safetensors.index.json").write_text(json.dumps(index), encoding="utf-8")
    return folder


def verify_cli(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(ROOT / "main.py"), "verify", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)


# --- safetensors -----------------------------------------------------------------------------------


@pytest.mark.parametrize("cfg", [LLAMA, MIXTRAL], ids=["llama", "mixtral"])
def test_sharded_folder_matches_its_config(tmp_path: Path, cfg: dict[str, Any]) -> None:
    shapes = hf_shapes(cfg)
    folder = write_folder(tmp_path / "model", cfg, shapes, shards=3)
    checkpoint = open_checkpoint(folder)
    assert len(checkpoint.files) == 3
    assert len(checkpoint.tensors) == len(shapes)
    result = compare(checkpoint, import_hf_config(cfg, "config.json"))
    expected = count_parameters(import_hf_config(cfg, "config.json")).total
    assert result.matches
    assert result.actual_total == result.predicted_total == expected
    assert sum(int(np.prod(s)) for s in shapes.values()) == expected
    assert all(row.difference == 0 for row in result.parts)
    norms = sum(int(np.prod(s)) for s in shapes.values() if len(s) == 1)
    assert checkpoint.bytes_by_dtype == {"F16": 2 * (expected - norms), "F32": 4 * norms}


def test_mixtral_parts_are_router_and_experts(tmp_path: Path) -> None:
    result = compare(
        open_checkpoint(write_folder(tmp_path, MIXTRAL, hf_shapes(MIXTRAL))), import_hf_config(MIXTRAL, "c")
    )
    parts = {row.part: row.actual for row in result.parts}
    assert parts["router"] == 3 * 4 * 64
    assert parts["moe_experts"] == 3 * 4 * 3 * 64 * 96


def test_cli_reports_a_match_as_json(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "m", LLAMA, hf_shapes(LLAMA), shards=2)
    result = verify_cli(str(folder), "--format", "json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["matches"] and report["difference"] == 0
    assert len(report["tensors"]) == len(hf_shapes(LLAMA))
    assert {t["name"] for t in report["tensors"]} == set(hf_shapes(LLAMA))


def test_missing_tensor_is_reported_with_its_layer(tmp_path: Path) -> None:
    shapes = hf_shapes(LLAMA)
    del shapes["model.layers.1.self_attn.k_proj.weight"]
    folder = write_folder(tmp_path / "m", LLAMA, shapes)
    result = compare(open_checkpoint(folder), import_hf_config(LLAMA, "c"))
    assert not result.matches
    assert result.actual_total - result.predicted_total == -32 * 64
    assert {row.part: row.difference for row in result.parts}["attention"] == -32 * 64
    assert [(row.part, row.difference) for row in result.layers] == [("layer 1", -32 * 64)]
    cli = verify_cli(str(folder), "--summary")
    assert cli.returncode == 1
    assert "DIFFERS" in cli.stdout and "-2,048" in cli.stdout
    assert "1 when it differs" in verify_cli("--help").stdout.replace("\n", " ")  # as --help says


def test_extra_tensors_are_unexplained_and_buffers_listed_apart(tmp_path: Path) -> None:
    shapes = hf_shapes(LLAMA) | {
        "model.layers.3.self_attn.q_proj.weight": (64, 64),  # a layer beyond the stack
        "model.vision_tower.patch.weight": (8, 8),  # a part nobody predicted
        "model.layers.0.self_attn.rotary_emb.inv_freq": (8,),  # a buffer, not a parameter
    }
    result = compare(open_checkpoint(write_folder(tmp_path, LLAMA, shapes)), import_hf_config(LLAMA, "c"))
    assert {t.name for t in result.unexplained} == {
        "model.layers.3.self_attn.q_proj.weight",
        "model.vision_tower.patch.weight",
    }
    assert [t.name for t in result.buffers] == ["model.layers.0.self_attn.rotary_emb.inv_freq"]
    assert result.actual_total - result.predicted_total == 64 * 64 + 8 * 8
    assert not result.matches


def test_single_file_needs_a_prediction(tmp_path: Path) -> None:
    file = tmp_path / "weights.safetensors"
    save_file({n: np.zeros(s, np.float16) for n, s in hf_shapes(LLAMA).items()}, str(file))
    missing = verify_cli(str(file))
    assert missing.returncode == 2 and "--config" in missing.stderr
    (tmp_path / "llama.json").write_text(json.dumps(LLAMA), encoding="utf-8")
    assert verify_cli(str(file), "--config", str(tmp_path / "llama.json"), "--summary").returncode == 0


# --- GGUF ------------------------------------------------------------------------------------------


def gguf_shapes(cfg: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    h, f, v = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    kv = cfg["num_key_value_heads"] * h // cfg["num_attention_heads"]
    shapes: dict[str, tuple[int, ...]] = {
        "token_embd.weight": (v, h),
        "output_norm.weight": (h,),
        "output.weight": (v, h),
    }
    for i in range(cfg["num_hidden_layers"]):
        p = f"blk.{i}."
        shapes |= {p + "attn_q.weight": (h, h), p + "attn_k.weight": (kv, h), p + "attn_v.weight": (kv, h)}
        shapes |= {
            p + "attn_output.weight": (h, h),
            p + "attn_norm.weight": (h,),
            p + "ffn_norm.weight": (h,),
        }
        shapes |= {p + "ffn_gate.weight": (f, h), p + "ffn_up.weight": (f, h), p + "ffn_down.weight": (h, f)}
    return shapes


def write_gguf(path: Path, cfg: dict[str, Any], shapes: dict[str, tuple[int, ...]]) -> Path:
    writer = GGUFWriter(str(path), "llama")
    writer.add_name("tiny-llama")
    writer.add_block_count(cfg["num_hidden_layers"])
    writer.add_embedding_length(cfg["hidden_size"])
    writer.add_feed_forward_length(cfg["intermediate_size"])
    writer.add_head_count(cfg["num_attention_heads"])
    writer.add_head_count_kv(cfg["num_key_value_heads"])
    writer.add_context_length(cfg["max_position_embeddings"])
    writer.add_vocab_size(cfg["vocab_size"])
    for name, shape in shapes.items():
        if name.endswith("attn_q.weight"):  # one quantized kind, as llama.cpp files mix them
            data = quants.quantize(np.zeros(shape, np.float32), GGMLQuantizationType.Q8_0)
            writer.add_tensor(name, data, raw_dtype=GGMLQuantizationType.Q8_0)
        else:
            writer.add_tensor(name, np.zeros(shape, np.float32 if len(shape) == 1 else np.float16))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def test_gguf_predicts_itself_from_metadata(tmp_path: Path) -> None:
    shapes = gguf_shapes(LLAMA) | {"rope_freqs.weight": (8,)}
    checkpoint = open_checkpoint(write_gguf(tmp_path / "tiny.gguf", LLAMA, shapes))
    arch = predicted_from(checkpoint)
    assert arch is not None and arch.name == "tiny-llama"
    result = compare(checkpoint, arch)
    assert result.matches, result
    assert result.actual_total == count_parameters(import_hf_config(LLAMA, "c")).total
    assert [t.name for t in result.buffers] == ["rope_freqs.weight"]
    q_numel = 3 * 64 * 64
    assert checkpoint.bytes_by_dtype["Q8_0"] == q_numel // 32 * 34  # 8.5 bits per weight
    assert next(t for t in checkpoint.tensors if t.name == "blk.0.attn_k.weight").shape == (32, 64)


def test_gguf_missing_tensor_differs(tmp_path: Path) -> None:
    shapes = gguf_shapes(LLAMA)
    del shapes["blk.2.ffn_down.weight"]
    result = verify_cli(str(write_gguf(tmp_path / "tiny.gguf", LLAMA, shapes)), "--format", "json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["difference"] == -64 * 96
    [layer] = report["layers_differing"]
    assert (layer["part"], layer["difference"]) == ("layer 2", -64 * 96)


# --- bad input -------------------------------------------------------------------------------------


def _lying_header(path: Path) -> None:
    header = json.dumps({"w": {"dtype": "F16", "shape": [2, 2], "data_offsets": [0, 8]}}).encode()
    path.write_bytes(struct.pack("<Q", len(header) + 1000) + header + bytes(8))


def _truncated_data(path: Path) -> None:
    save_file({"w": np.zeros((16, 16), np.float16)}, str(path))
    path.write_bytes(path.read_bytes()[:-100])


def _not_json(path: Path) -> None:
    path.write_bytes(struct.pack("<Q", 4) + b"\xff\xfe{x" + bytes(8))


@pytest.mark.parametrize(
    ("name", "make", "message"),
    [
        ("lying.safetensors", _lying_header, "header claims 1,"),
        ("cut.safetensors", _truncated_data, "truncated?"),
        ("garbage.safetensors", _not_json, "header is not valid JSON"),
        ("tiny.safetensors", lambda p: p.write_bytes(b"\x01\x02"), "too short"),
        ("magic.gguf", lambda p: p.write_bytes(b"GGML" + bytes(64)), "not a GGUF file (magic b'GGML'"),
    ],
)
def test_bad_checkpoint_gives_one_line_and_writes_nothing(
    tmp_path: Path, name: str, make: Any, message: str
) -> None:
    path = tmp_path / name
    make(path)
    (tmp_path / "config.json").write_text(json.dumps(LLAMA), encoding="utf-8")
    out = tmp_path / "report.json"
    result = verify_cli(str(path), "--format", "json", "--output", str(out))
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert not out.exists()
    with pytest.raises(ParamTallyError, match=name.replace(".", r"\.")):
        open_checkpoint(path)


def test_truncated_gguf_is_refused(tmp_path: Path) -> None:
    path = write_gguf(tmp_path / "tiny.gguf", LLAMA, gguf_shapes(LLAMA))
    path.write_bytes(path.read_bytes()[:-500])
    with pytest.raises(ParamTallyError, match=r"tiny\.gguf: (truncated|tensor)"):
        open_checkpoint(path)


def test_index_naming_a_missing_shard_is_refused(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "m", LLAMA, hf_shapes(LLAMA), shards=2)
    (folder / "model-00002-of-00002.safetensors").unlink()
    with pytest.raises(ParamTallyError, match=r"model-00002-of-00002\.safetensors"):
        open_checkpoint(folder)


# --- the name table against every real model's parameter names ------------------------------------

PARAM_NAMES = json.loads((ROOT / "tests" / "data" / "param_names.json").read_text(encoding="utf-8"))


def _indexes(ranges: str) -> list[int]:
    out: list[int] = []
    for span in ranges.split(","):
        first, _, last = span.partition("-")
        out += range(int(first), int(last or first) + 1)
    return out


@pytest.mark.parametrize("stem", sorted(k for k in PARAM_NAMES if not k.startswith("_")))
def test_real_parameter_names_map_to_the_predicted_parts(stem: str) -> None:
    """Every parameter of the real transformers model, named as in its checkpoint, lands in its part."""
    entry = PARAM_NAMES[stem]
    tensors = [TensorInfo(name, (n,), "F32", 4 * n, "x", n) for name, n in entry["outside_layers"].items()]
    for structure in entry["layer_structures"]:
        for i in _indexes(structure["layers"]):
            prefix = f"{structure['prefix']}{i}."
            tensors += [
                TensorInfo(prefix + sub, (n,), "F32", 4 * n, "x", n) for sub, n in structure["params"].items()
            ]
    config = json.loads((ROOT / "tests" / "data" / "hf_configs" / f"{stem}.json").read_text(encoding="utf-8"))
    checkpoint = Checkpoint(Path(stem), "safetensors", ("x",), tuple(tensors))
    # The names are the built model's: no multi-token-prediction module (tested with v2's names).
    arch = import_hf_config({**config, "num_nextn_predict_layers": 0}, f"{stem}.json")
    result = compare(checkpoint, arch)
    assert result.matches, [row for row in (*result.parts, *result.layers) if row.difference]
    assert all(row.difference == 0 for row in result.parts)


PARAM_NAMES_V2 = json.loads((ROOT / "tests" / "data" / "param_names_v2.json").read_text(encoding="utf-8"))
V2_CONFIGS = ROOT / "tests" / "data" / "hf_configs_v2"


@pytest.mark.parametrize("stem", sorted(k for k in PARAM_NAMES_V2 if not k.startswith("_")))
def test_real_parameter_names_of_schema_2_families_map_to_their_parts(stem: str) -> None:
    """Hybrid, state-space and encoder-decoder checkpoints (and DeepSeek-V3 with its MTP layer),
    named as stored, land in the predicted parts and layers."""
    entry = PARAM_NAMES_V2[stem]
    checkpoint_only = entry.get("checkpoint_only") or {}
    if "outside_layers" not in entry:  # deepseek-v3-mtp: the built model's names plus the MTP layer's
        entry = PARAM_NAMES["deepseek-v3"]
    named = {**entry["outside_layers"], **checkpoint_only}
    tensors = [TensorInfo(name, (n,), "F32", 4 * n, "x", n) for name, n in named.items()]
    for structure in entry["layer_structures"]:
        for i in _indexes(structure["layers"]):
            prefix = f"{structure['prefix']}{i}."
            tensors += [
                TensorInfo(prefix + sub, (n,), "F32", 4 * n, "x", n) for sub, n in structure["params"].items()
            ]
    path = V2_CONFIGS / f"{stem}.json"
    if not path.is_file():  # deepseek-v3-mtp: the published config of the v1 tests
        path = ROOT / "tests" / "data" / "hf_configs" / "deepseek-v3.json"
    arch = import_hf_config(json.loads(path.read_text(encoding="utf-8")), path.name)
    result = compare(Checkpoint(Path(stem), "safetensors", ("x",), tuple(tensors)), arch)
    assert result.matches, [
        row for row in (*result.parts, *result.layers) if row.difference
    ] or result.unexplained


def test_gguf_of_an_unmapped_architecture_needs_a_prediction(tmp_path: Path) -> None:
    writer = GGUFWriter(str(tmp_path / "m.gguf"), "mamba")
    writer.add_tensor("token_embd.weight", np.zeros((120, 64), np.float16))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    result = verify_cli(str(tmp_path / "m.gguf"))
    assert result.returncode == 2
    assert "pass --config FILE or --preset ID" in result.stderr


def test_table_lists_every_tensor_and_bytes_per_dtype(tmp_path: Path) -> None:
    shapes = hf_shapes(LLAMA)
    result = verify_cli(str(write_folder(tmp_path / "m", LLAMA, shapes)))
    assert result.returncode == 0
    assert "MATCHES" in result.stdout
    assert all(name in result.stdout for name in shapes)
    assert "F16" in result.stdout and "F32" in result.stdout
