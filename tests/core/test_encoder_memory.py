"""What an encoder costs beyond its count: an encoder alone (BERT, RoBERTa, XLM-R, CamemBERT,
ModernBERT, DeBERTa-v2, ELECTRA, DistilBERT, MPNet, ERNIE, ESM, XLM-R-XL, Megatron-BERT) reads its
input once and generates nothing, so it keeps no KV cache; its attention is bidirectional, every
token over all s."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.families import activation_quirks
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.flops import estimate_flops
from paramtally.core.memory.scenario import Scenario, unused_fields
from paramtally.core.schema import Architecture

ROOT = Path(__file__).resolve().parents[2]
ENCODER_PRESETS = (
    "roberta-base",
    "modernbert-base",
    "deberta-v3-base",
    "electra-base-discriminator",
    "distilbert-base-uncased",
)
ENCODER_CONFIGS = (
    "hf_configs/bert-base-uncased.json",
    "hf_configs_v3/xlm-roberta-base.json",
    "hf_configs_v3/camembert-base.json",
    "hf_configs_v3/mpnet-base.json",
    "hf_configs_v3/ernie-3.0-base-zh.json",
    "hf_configs_v3/esm2_t6_8M_UR50D.json",
    "hf_configs_v3/xlm-roberta-xl.json",
    "hf_configs_v3/megatron-bert-cased-345m.json",
)


def _encoders() -> list[tuple[str, Architecture]]:
    found = [(name, load_builtin(name)) for name in ENCODER_PRESETS]
    for stem in ENCODER_CONFIGS:
        data: dict[str, Any] = json.loads((ROOT / "tests" / "data" / stem).read_text(encoding="utf-8"))
        found.append((stem, import_hf_config(data, stem)))
    return found


ENCODERS = _encoders()
IDS = [name for name, _ in ENCODERS]


def _as_decoder(arch: Architecture) -> Architecture:
    """The same layers read as a causal decoder (as these families were imported before)."""
    return arch.model_copy(update={"decoder": arch.encoder, "encoder": None})


@pytest.mark.parametrize(("name", "arch"), ENCODERS, ids=IDS)
def test_an_encoder_alone_sits_in_the_encoder_stack_and_keeps_no_kv_cache(
    name: str, arch: Architecture
) -> None:
    assert arch.encoder is not None and arch.decoder is None
    s = Scenario(context=512, batch=4)
    memory = estimate_memory(arch, s)
    assert memory.kv_cache_bytes == 0
    assert not [term for term in memory.terms if term.part == "kv_cache"]
    # The same layers as a decoder would cache K and V of every layer: 2·L·h·s·b at 2 bytes (no GQA
    # in these encoders; ModernBERT's local layers keep their 128-token window). That is what the
    # encoder stack leaves out; and an encoder's head scores every token, where a decoder keeps the
    # fp32 logits of the last token alone.
    causal = estimate_memory(_as_decoder(arch), s)
    layers, h = arch.num_layers, arch.hidden_size
    assert 0 < causal.kv_cache_bytes <= 2 * layers * h * 512 * 4 * 2
    if name == "roberta-base":
        assert causal.kv_cache_bytes == 2 * 12 * 768 * 512 * 4 * 2
    logits = {term.name: term.value for term in memory.terms if term.name.startswith("logits")}
    sampled = {term.name: term.value for term in causal.terms if term.name.startswith("logits")}
    if arch.head.present:
        assert logits == {"logits (every token)": 4 * 512 * arch.embeddings.vocab_size * 2}
        assert sampled == {"logits (fp32, last token)": 4 * arch.embeddings.vocab_size * 4}
    else:
        assert logits == sampled == {}
    head = sum(logits.values()) - sum(sampled.values())
    assert causal.total_bytes - memory.total_bytes == causal.kv_cache_bytes - head


@pytest.mark.parametrize(("name", "arch"), ENCODERS, ids=IDS)
def test_an_encoder_trains_as_it_did_in_the_decoder_stack(name: str, arch: Architecture) -> None:
    """Training keeps no cache: moving the layers to the encoder stack changes no training byte."""
    # MPNet has no SDPA path (MPNetForMaskedLM refuses it): its Hugging Face profile is eager.
    hf = "hf-eager" if activation_quirks(arch.family).sdpa_refused_by else "hf-sdpa"
    for activations in ("megatron", hf):
        s = Scenario(mode="training", context=512, batch=2, activations=activations)
        assert estimate_memory(arch, s).total_bytes == estimate_memory(_as_decoder(arch), s).total_bytes


def test_an_encoder_attends_every_token_both_ways() -> None:
    arch = load_builtin("roberta-base")
    flops = estimate_flops(arch, Scenario(context=512))
    attention = next(term for term in flops.terms if term.name == "attention per token (prefill, forward)")
    assert attention.value == 4 * 12 * 512 * 768  # 4·L·s·d: no causal half to average
    causal = estimate_flops(_as_decoder(arch), Scenario(context=512))
    assert flops.forward_per_token - causal.forward_per_token == 2 * 12 * 512 * 768
    # Training counts the same either convention (nothing is masked), and no masked half in hardware.
    assert (
        flops.training_per_token_causal == flops.training_per_token_full == flops.hardware_training_per_token
    )


def test_encoder_tokens_are_for_an_encoder_decoder_only() -> None:
    assert "encoder_tokens" in unused_fields(load_builtin("roberta-base"))
    assert "encoder_tokens" not in unused_fields(load_builtin("t5-base"))
