"""Models that generate nothing: an encoder alone (BERT, RoBERTa, ModernBERT: ``Architecture.generates``
false) reads its input once, and a vision tower alone (Pixtral's encoder) reads one image. Neither has a
decode step, a KV cache or generated tokens, so no scenario line, FLOPs table, serving figure or fit
table says one; a tower alone has no context either. A decoder keeps them all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paramtally.core.cli import main as cli
from paramtally.core.io.export import scenario_text
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.model_sources import load_source
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.fit import fit_setups
from paramtally.core.memory.flops import estimate_flops
from paramtally.core.memory.scenario import Scenario
from paramtally.core.memory.serving import estimate_serving
from paramtally.core.schema import Architecture

ROOT = Path(__file__).resolve().parents[2]
BERT = ROOT / "tests" / "data" / "hf_configs" / "bert-base-uncased.json"
TOWER = ROOT / "tests" / "data" / "hf_configs_v3" / "pixtral-12b-vision-encoder.json"
DECODE_ROWS = ("attention of one decode step at context s", "decode step per token at context s")


def _imported(path: Path) -> Architecture:
    return import_hf_config(json.loads(path.read_text(encoding="utf-8")), path.name)


def test_what_generates() -> None:
    assert load_source("gpt2").generates and load_source("t5-base").generates
    assert not _imported(BERT).generates and not load_source("roberta-base").generates
    assert not _imported(TOWER).generates


def test_the_scenario_line_says_only_what_the_model_reads() -> None:
    s = Scenario(generated=128)
    assert (
        scenario_text(s, load_source("gpt2"))
        == scenario_text(s)
        == ("inference, weights bf16, context 4,096 + 128 generated, batch 1, tp 1 · pp 1 · 1 GPU, KV bf16")
    )
    assert (
        scenario_text(s, _imported(BERT))
        == "inference, weights bf16, context 4,096, batch 1, tp 1 · pp 1 · 1 GPU"
    )
    assert scenario_text(s, _imported(TOWER)) == "inference, weights bf16, batch 1, tp 1 · pp 1 · 1 GPU"
    training = Scenario(mode="training")
    assert "context" not in scenario_text(training, _imported(TOWER))
    assert "context 4,096" in scenario_text(training, _imported(BERT))


@pytest.mark.parametrize("path", [BERT, TOWER])
def test_the_flops_table_has_no_decode_step(path: Path) -> None:
    flops = estimate_flops(_imported(path), Scenario())
    assert flops.decode_per_token is None  # the JSON's and the window's decode figure: none
    names = [term.name for term in flops.terms]
    assert "forward per token (prefill)" in names and "prefill per request" in names
    assert not [name for name in names if name in DECODE_ROWS]
    decoder = [term.name for term in estimate_flops(load_source("gpt2"), Scenario()).terms]
    assert all(name in decoder for name in DECODE_ROWS)


def test_an_encoder_s_prefill_runs_its_head_on_every_token_and_a_headless_one_none() -> None:
    """BertForMaskedLM scores every token (s·F, F with its 2·e·V); a decoder's prefill keeps the head
    for the last token alone. XLM-R as XLMRobertaModel has no head: F has no e·V at all."""
    bert = _imported(BERT)
    s = Scenario(context=512)
    flops = estimate_flops(bert, s)
    prefill = next(term for term in flops.terms if term.name == "prefill per request")
    assert prefill.expr == "s·F" and flops.prefill_per_request == 512 * flops.forward_per_token
    forward = next(term for term in flops.terms if term.name == "forward per token (prefill)")
    assert (forward.values["e"], forward.values["V"]) == (768, 30522)  # the MLM head in each token's F
    assert prefill.values["F"] == forward.value == flops.forward_per_token
    gpt2 = estimate_flops(load_source("gpt2"), s)
    e_v = 2 * 768 * 50257
    assert gpt2.prefill_per_request == 512 * (gpt2.forward_per_token - e_v) + e_v
    data = json.loads((ROOT / "tests" / "data" / "hf_configs_v3" / "xlm-roberta-base.json").read_text())
    headless = import_hf_config({**data, "architectures": ["XLMRobertaModel"]}, "xlm-roberta-base.json")
    assert not headless.head.present
    plain = estimate_flops(headless, s)
    forward = next(term for term in plain.terms if term.name == "forward per token (prefill)")
    assert forward.values["V"] == 0 and plain.prefill_per_request == 512 * plain.forward_per_token


def test_an_encoder_s_head_holds_every_token_s_logits() -> None:
    bert, s = _imported(BERT), Scenario(context=512, batch=2)
    terms = {term.name: term.value for term in estimate_memory(bert, s).terms}
    assert terms["logits (every token)"] == 2 * 512 * 30522 * 2  # b·s·V at bf16
    assert "logits (fp32, last token)" not in terms
    gpt2 = {term.name: term.value for term in estimate_memory(load_source("gpt2"), s).terms}
    assert gpt2["logits (fp32, last token)"] == 2 * 50257 * 4


def test_an_encoder_serves_its_prefill_alone() -> None:
    bert, s = _imported(BERT), Scenario(context=512, generated=64)
    serving = estimate_serving(bert, s)
    assert serving is not None
    assert [term.name for term in serving.terms] == ["prefill time (s)", "$ per million prompt tokens"]
    assert serving.decode_tokens_per_second is None and serving.decode_bound is None
    assert serving.usd_per_million_output_tokens is None and serving.tokens_per_sequence == 512
    assert serving.prefill_seconds > 0 and serving.max_batch > 0
    gpt2 = estimate_serving(load_source("gpt2"), s)
    assert gpt2 is not None and gpt2.decode_tokens_per_second and gpt2.tokens_per_sequence == 512 + 64
    rows = fit_setups(bert, s)
    fitting = [row for row in rows if row.fits]
    assert fitting and all(row.decode_tokens_per_second is None for row in rows)
    assert all(row.prefill_seconds and row.max_context for row in fitting)


def test_the_command_line_and_report_leave_decoding_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert cli(["memory", str(BERT), "--context", "512"]) == 0
    out = capsys.readouterr().out
    assert "  inference, weights bf16, context 512, batch 1, tp 1 · pp 1 · 1 GPU\n" in out
    assert "largest batch that fits" in out and "generates no tokens" in out
    assert "decode" not in out.lower()
    assert "prefill per request: s·F = 512·" in out
    for path in (BERT, TOWER):
        report = tmp_path / f"{path.stem}.md"
        assert cli(["report", str(path), "--output", str(report)]) == 0
        text = report.read_text(encoding="utf-8")
        assert "decode step" not in text and "decode tokens/s" not in text and "KV bf16" not in text
    tower = (tmp_path / f"{TOWER.stem}.md").read_text(encoding="utf-8")
    assert "Scenario: inference, weights bf16, batch 1, tp 1 · pp 1 · 1 GPU." in tower
    assert "max context" not in tower


def test_the_decoder_s_flags_are_said_to_be_ignored_for_an_encoder_in_one_line_each(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """BERT keeps no KV cache and generates nothing: '--kv-dtype fp8' changed nothing without a word,
    as '--encoder-tokens' did on Llama. One line a flag: --use-cache while serving is said to be
    training's only, not also a decoder's."""
    assert cli(["memory", str(BERT), "--format", "json"]) == 0
    plain = capsys.readouterr()
    flags = ["--kv-dtype", "fp8", "--generated", "100", "--use-cache"]
    assert cli(["memory", str(BERT), *flags, "--format", "json"]) == 0
    flagged = capsys.readouterr()
    figures, flagged_figures = json.loads(plain.out), json.loads(flagged.out)
    assert flagged_figures.pop("scenario")["kv_dtype"] == "fp8"  # kept as given: it changed nothing else
    figures.pop("scenario")
    assert flagged_figures == figures
    said = [line for line in flagged.err.splitlines() if line not in plain.err.splitlines()]
    ignored = "is for models with a decoder; ignored for bert-base-uncased, which has none"
    assert said == [
        "paramtally: warning: --use-cache is for training only; ignored in inference "
        "(--mode training uses it)",
        f"paramtally: warning: --generated {ignored}",
        f"paramtally: warning: --kv-dtype {ignored}",
    ]
    assert cli(["memory", "gpt2", "--kv-dtype", "fp8"]) == 0
    assert "--kv-dtype" not in capsys.readouterr().err  # a decoder reads it
    assert cli(["memory", str(TOWER), "--context", "512"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "paramtally: warning: --context is for models with a language model; ignored for "
        "pixtral-12b-vision-encoder, which has none"
    ]


def _assumptions(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    return text[text.rindex("\n## ") :]  # the last section, in any language


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_report_s_assumptions_name_no_decode_nor_kv_cache_for_an_encoder(
    tmp_path: Path, language: str
) -> None:
    report = tmp_path / "bert.md"
    assert cli(["report", str(BERT), "--output", str(report), "--lang", language, "--format", "md"]) == 0
    assumed = _assumptions(report)
    for word in ("decode", "Decode", "kv_dtype", "KV", "generated", "use_cache", "解码"):
        assert word not in assumed.replace(r"\_", "_").split("| --- |")[0], word  # not before the table
    table = assumed.replace(r"\_", "_")
    assert "| kv_dtype |" not in table and "| generated |" not in table and "| context | 512 |" in table
    if language == "en":
        assert "A prefill's weight read at 68.5% of the GPU's peak HBM bandwidth" in assumed
        assert "Fields this model has no use for are left out: kv_dtype, generated, encoder_tokens" in table
    else:
        assert "预填充读取权重时按 GPU 峰值 HBM 带宽的 68.5% 计算" in assumed
        assert "此模型用不到的字段未列出：kv_dtype, generated, encoder_tokens" in table
    gpt2 = tmp_path / "gpt2.md"
    assert cli(["report", "gpt2", "--output", str(gpt2), "--format", "md"]) == 0
    assert "Decode and a prefill's weight read at 68.5%" in _assumptions(gpt2)  # a decoder decodes


def test_the_report_of_a_tower_alone_has_no_bandwidth_nor_context(tmp_path: Path) -> None:
    report = tmp_path / "tower.md"
    assert cli(["report", str(TOWER), "--output", str(report), "--format", "md"]) == 0
    assumed = _assumptions(report).replace(r"\_", "_")
    assert "bandwidth" not in assumed.split("Fields this model")[0].lower()
    assert "| context |" not in assumed and "| images | 1 |" in assumed
    assert "left out: keep_embeddings_16bit, kv_dtype, context, generated" in assumed
