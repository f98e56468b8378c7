#!/usr/bin/env python3
"""Measure the encoder and encoder-decoder cases that neither a published config nor the
randomized goldens reach: an untied or embed-width head, Marian's own untied decoder table,
DeBERTa's non-legacy head, Switch Transformers untied (tests/golden/encoder_cases.json, read by
tests/core/test_encoder_families.py).

Each case is built with the named transformers 5.24 class on the meta device through
``measure_golden.build`` (sum of ``p.numel()``, tied weights once). Needs torch and
transformers; the test suite only reads the file.

    python tools/measure_encoder_cases.py           # write tests/golden/encoder_cases.json
    python tools/measure_encoder_cases.py --check   # measure again, exit 1 where a total differs
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from measure_golden import build, numel, versions

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "encoder_cases.json"

_ELECTRA = {
    "model_type": "electra",
    "embedding_size": 32,
    "hidden_size": 64,
    "num_attention_heads": 4,
    "num_hidden_layers": 2,
    "intermediate_size": 100,
    "vocab_size": 300,
}
_DEBERTA = {
    "model_type": "deberta-v2",
    "hidden_size": 64,
    "num_attention_heads": 4,
    "num_hidden_layers": 2,
    "intermediate_size": 100,
    "vocab_size": 300,
    "relative_attention": True,
}
_SWITCH = {
    "model_type": "switch_transformers",
    "d_model": 64,
    "d_kv": 16,
    "num_heads": 4,
    "d_ff": 100,
    "num_layers": 2,
    "num_decoder_layers": 2,
    "num_sparse_encoder_layers": 1,
    "num_sparse_decoder_layers": 1,
    "num_experts": 4,
    "vocab_size": 300,
}

# name -> (config, class)
CASES: dict[str, tuple[dict[str, Any], str]] = {
    "electra-generator-embed-width": (_ELECTRA, "ElectraForMaskedLM"),
    "electra-generator-untied": ({**_ELECTRA, "tie_word_embeddings": False}, "ElectraForMaskedLM"),
    "roberta-mlm-untied": (
        {
            "model_type": "roberta",
            "hidden_size": 64,
            "num_attention_heads": 4,
            "num_hidden_layers": 2,
            "intermediate_size": 100,
            "vocab_size": 300,
            "tie_word_embeddings": False,
        },
        "RobertaForMaskedLM",
    ),
    "camembert-mlm-untied": (
        {
            "model_type": "camembert",
            "hidden_size": 64,
            "num_attention_heads": 4,
            "num_hidden_layers": 2,
            "intermediate_size": 100,
            "vocab_size": 300,
            "tie_word_embeddings": False,
        },
        "CamembertForMaskedLM",
    ),
    "ernie-mlm-task-types-untied": (
        {
            "model_type": "ernie",
            "hidden_size": 64,
            "num_attention_heads": 4,
            "num_hidden_layers": 2,
            "intermediate_size": 100,
            "vocab_size": 300,
            "use_task_id": True,
            "task_type_vocab_size": 7,
            "tie_word_embeddings": False,
        },
        "ErnieForMaskedLM",
    ),
    "marian-own-decoder-untied": (
        {
            "model_type": "marian",
            "d_model": 32,
            "encoder_layers": 1,
            "decoder_layers": 1,
            "encoder_ffn_dim": 64,
            "decoder_ffn_dim": 64,
            "encoder_attention_heads": 2,
            "decoder_attention_heads": 2,
            "vocab_size": 300,
            "decoder_vocab_size": 120,
            "share_encoder_decoder_embeddings": False,
            "tie_word_embeddings": False,
            "max_position_embeddings": 64,
            "pad_token_id": 119,
            "decoder_start_token_id": 119,
        },
        "MarianMTModel",
    ),
    "deberta-legacy-head-embed-width-untied": (
        {
            **_DEBERTA,
            "embedding_size": 32,
            "pos_att_type": "p2c|c2p",
            "position_buckets": 16,
            "norm_rel_ebd": "layer_norm",
            "tie_word_embeddings": False,
            "type_vocab_size": 2,
        },
        "DebertaV2ForMaskedLM",
    ),
    "deberta-head-not-legacy": (
        {**_DEBERTA, "pos_att_type": ["c2p"], "max_relative_positions": 40, "legacy": False},
        "DebertaV2ForMaskedLM",
    ),
    # Switch Transformers tied (its class default) and not: untied, shared, both embed_tokens and the
    # head are four tables.
    "switch-tied": (_SWITCH, "SwitchTransformersForConditionalGeneration"),
    "switch-untied": (
        {**_SWITCH, "tie_word_embeddings": False},
        "SwitchTransformersForConditionalGeneration",
    ),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 where a total differs")
    args = parser.parse_args(argv)
    measured = {
        name: {"config": config, "model_class": cls, "total": numel(build(config, cls))}
        for name, (config, cls) in CASES.items()
    }
    if args.check:
        stored = json.loads(OUT.read_text(encoding="utf-8"))
        wrong = [
            name for name, entry in measured.items() if stored.get(name, {}).get("total") != entry["total"]
        ]
        for name in wrong:
            print(f"{name}: measured {measured[name]['total']:,}, stored {stored.get(name)}", file=sys.stderr)
        return 1 if wrong else 0
    body = {"_generated_by": versions("python tools/measure_encoder_cases.py"), **measured}
    OUT.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {len(measured)} cases to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
