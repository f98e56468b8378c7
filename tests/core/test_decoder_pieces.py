"""What the dense decoders of issue 33 build beyond a plain Llama layer, as block terms: q/k norms
over one head, the whole projection or each head with weights of its own; an output projection
that reads h; xIELU's learned scalars; a norm over the FFN's width; norms without weights. Each
term equals the elements of the tensors transformers 5.24 builds for it
(``tests/data/param_names_v3.json``, measured by ``tools/measure_golden.py --v3``)."""

from __future__ import annotations

import json
import re
from math import prod
from pathlib import Path

import pytest

from paramtally.core.blocks import Attention, Context, DenseFFN
from paramtally.core.count.parameters import count_parameters
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema import Architecture
from paramtally.core.terms.term import Term

ROOT = Path(__file__).resolve().parents[2]
NAMES = json.loads((ROOT / "tests" / "data" / "param_names_v3.json").read_text(encoding="utf-8"))


def measured(stem: str, pattern: str) -> int:
    """Elements of the first layer's parameters whose names match ``pattern``."""
    params = NAMES[stem]["layer_structures"][0]["params"]
    found = [prod(shape) for name, shape in params.items() if re.search(pattern, name)]
    assert found, f"{stem} has no parameter matching {pattern}"
    return sum(found)


def term(nodes: list[Term], name: str) -> int:
    (node,) = [node for node in nodes if node.name.startswith(name)]
    params: int = node.value
    return params


@pytest.mark.parametrize(
    ("stem", "mixer", "ctx"),
    [
        # Qwen3-style: one RMSNorm over d_h each for q and k (EXAONE-4.0-32B: 40 heads of 128)
        (
            "exaone-4.0-32b",
            Attention(num_heads=40, num_kv_heads=8, head_dim=128, qk_norm=True),
            Context(5120),
        ),
        # Olmo2Attention: RMSNorm(a·d_h) and RMSNorm(g·d_h)
        (
            "olmo-2-1124-7b",
            Attention(num_heads=32, qk_norm=True, qk_norm_span="projection"),
            Context(4096),
        ),
        # CohereLayerNorm((a, d_h)): a weight per head, no bias, beside bias-free LayerNorms
        (
            "c4ai-command-r-plus",
            Attention(num_heads=96, num_kv_heads=8, qk_norm=True, qk_norm_span="heads"),
            Context(12288, "layernorm", False),
        ),
        # StableLmLayerNormPerHead: one bias-free LayerNorm(d_h) per head, beside LayerNorms with β
        (
            "stablelm-2-12b",
            Attention(num_heads=32, num_kv_heads=8, qk_norm=True, qk_norm_span="heads"),
            Context(5120, "layernorm", True),
        ),
    ],
)
def test_a_q_k_norm_counts_what_its_span_builds(stem: str, mixer: Attention, ctx: Context) -> None:
    norms = term(mixer.terms(ctx), "q/k norms")
    assert norms == measured(stem, r"self_attn\.[qk]_(layer)?norm")


def test_the_spans_differ_where_heads_share_a_norm_or_not() -> None:
    ctx = Context(64)
    spans = {
        span: term(Attention(num_heads=4, num_kv_heads=2, qk_norm=True, qk_norm_span=span).terms(ctx), "q/k")
        for span in ("head", "projection", "heads")
    }
    assert spans == {"head": 2 * 16, "projection": (4 + 2) * 16, "heads": (4 + 2) * 16}
    with_beta = Attention(num_heads=4, num_kv_heads=2, qk_norm=True, qk_norm_span="projection")
    assert term(with_beta.terms(Context(64, "layernorm", True)), "q/k") == 2 * (4 + 2) * 16


def test_an_output_projection_that_reads_h_is_h_by_h() -> None:
    """HeliumAttention builds o_proj = nn.Linear(h, h) whatever the heads' width (a random
    config of 4 heads of 128 on h = 96: o is 96 × 96, q is 96 × 512)."""
    ctx = Context(96)
    helium = Attention(num_heads=4, num_kv_heads=2, head_dim=128, o_reads_hidden=True)
    llama = helium.model_copy(update={"o_reads_hidden": False})
    assert term(helium.terms(ctx), "o") == 96 * 96 and term(llama.terms(ctx), "o") == 512 * 96
    assert term(helium.terms(ctx), "q") == term(llama.terms(ctx), "q") == 96 * 512
    assert ("o", 96, 96, 1) in helium.lora_matrices(ctx)


def test_xielu_learns_two_scalars_per_mlp() -> None:
    """Apertus's XIELUActivation: alpha_p and alpha_n are parameters, beta and eps buffers."""
    mlp = DenseFFN(width=21504, gated=False, activation="xielu")
    assert term(mlp.terms(Context(4096)), "xIELU") == measured("apertus-8b-2509", r"act_fn\.alpha_[pn]") == 2
    buffers = NAMES["apertus-8b-2509"]["layer_structures"][0]["buffers"]
    assert set(buffers) == {"mlp.act_fn.beta", "mlp.act_fn.eps"}
    assert not [
        node for node in DenseFFN(width=8, activation="silu").terms(Context(4)) if "xIELU" in node.name
    ]


def test_an_inner_norm_spans_the_ffn_width() -> None:
    """BitNetMLP.ffn_sub_norm: an RMSNorm over f before down_proj (BitNet b1.58 2B4T: 6,912)."""
    mlp = DenseFFN(width=6912, activation="relu2", inner_norm=True)
    assert (
        term(mlp.terms(Context(2560)), "inner norm")
        == measured("bitnet-b1.58-2b-4t", r"ffn_sub_norm")
        == 6912
    )


def test_norms_without_weights_hold_no_parameters_and_keep_their_activations() -> None:
    """``norms.affine`` false (OLMo-1's LayerNorms: F.layer_norm without weight or bias): the
    block norms and the final norm leave the count, γ and β of h each, but still normalize, so
    training keeps what they keep."""
    gpt = load_builtin("gpt3-175b")
    data = gpt.model_dump()
    data["blocks"]["default"]["norms"]["affine"] = False
    bare = Architecture.model_validate(data)
    weighted, unweighted = count_parameters(gpt), count_parameters(bare)
    assert weighted.total - unweighted.total == (2 * gpt.num_layers + 1) * 2 * gpt.hidden_size
    assert not [path for path, _, _ in unweighted.walk() if "norm" in path[-1]]
    assert Context(64, "layernorm", True, False).norm_per_width == 0
    training = Scenario(mode="training", context=256, batch=1, activations="hf-sdpa")
    assert (
        estimate_memory(gpt, training).activations_bytes == estimate_memory(bare, training).activations_bytes
    )
