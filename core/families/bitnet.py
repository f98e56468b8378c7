"""BitNet b1.58 (``BitNetForCausalLM``): Llama's shapes with a gated relu² MLP and two more
RMSNorms a layer: ``self_attn.attn_sub_norm`` over h before ``o_proj`` (with the two block norms,
three of h) and ``mlp.ffn_sub_norm`` over f before ``down_proj`` (the FFN's inner norm). The
ternary weights are counted at their unpacked shapes, as the module builds them."""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped

__all__ = ["FAMILY"]

BITNET = LlamaShape(norms_per_block=3)


def bitnet(cfg: HFConfig) -> Spec:
    spec = llama_shaped(cfg, BITNET)
    spec["blocks"]["default"]["ffn"]["inner_norm"] = True
    return spec


# BitNetAttention's attn_sub_norm reads the reshaped copy of SDPA's output, which SDPA keeps beside
# it (measured: B·a·d_h a layer under hf-sdpa).
_QUIRKS = ActivationQuirks(sdpa_output_copied=True)

FAMILY = Family(
    "BitNet",
    (
        ModelType(
            "bitnet",
            bitnet,
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 128256,
                "hidden_size": 2560,
                "intermediate_size": 6912,
                "num_hidden_layers": 30,
                "num_attention_heads": 20,
                "num_key_value_heads": 5,
                "hidden_act": "relu2",
            },
            activations=_QUIRKS,
        ),
    ),
)
