"""The architecture schema: the one description every view, preset, importer and CLI shares.

Sizes are plain integers so that a count is exact. Cross-field rules (heads that must divide,
top-k within the experts) are checked on the whole architecture so that an error names the
full field path, e.g. ``attention.num_kv_heads``.
"""

from __future__ import annotations

import typing
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from paramtally.core.errors import field_error

__all__ = [
    "ACTIVATIONS",
    "FFN",
    "SCHEMA_VERSION",
    "Activation",
    "Adapter",
    "Architecture",
    "Attention",
    "Embeddings",
    "Head",
    "LayerGroup",
    "LoRA",
    "LoRATarget",
    "MoE",
    "Norms",
    "visible_when",
]

SCHEMA_VERSION: Final = 1

PositiveInt = Annotated[int, Field(gt=0)]
NonNegativeInt = Annotated[int, Field(ge=0)]
PositionKind = Literal["learned", "rope", "alibi", "sinusoidal", "relative_bias", "none"]
NormKind = Literal["layernorm", "rmsnorm"]
LoRATarget = Literal["q", "k", "v", "o", "gate", "up", "down"]
# Every name transformers' ACT2FN knows (transformers/activations.py), which is what the
# importers copy from a config.json, plus the gated names papers use for a gated FFN.
Activation = Literal[
    "gelu",
    "gelu_10",
    "gelu_accurate",
    "gelu_fast",
    "gelu_new",
    "gelu_python",
    "gelu_python_tanh",
    "gelu_pytorch_tanh",
    "hardswish",
    "laplace",
    "leaky_relu",
    "linear",
    "mish",
    "prelu",
    "quick_gelu",
    "relu",
    "relu2",
    "relu6",
    "sigmoid",
    "silu",
    "sqrtsoftplus",
    "swish",
    "tanh",
    "xielu",
    "swiglu",
    "geglu",
]
ACTIVATIONS: Final = typing.get_args(Activation)


def visible_when(**values: Any) -> dict[str, Any]:
    """Field metadata: the field applies only while its sibling fields hold these values.

    The form hides it otherwise (LayerNorm's β under RMSNorm, MLA's ranks under standard
    attention); the value stays in the file and counts nothing while it does not apply.
    """
    return {"visible_when": values}


_MLA_ONLY = visible_when(kind="mla")


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Embeddings(_Spec):
    vocab_size: PositiveInt = Field(description="Rows of the token embedding table (V).")
    embed_dim: PositiveInt | None = Field(
        None,
        description="Token embedding width when it differs from the hidden size; "
        "adds bias-free projections in and out (OPT-350m: 512 ↔ 1024).",
    )
    position: PositionKind = Field(
        "rope",
        description="Position encoding; only 'learned' and 'relative_bias' have weights.",
    )
    max_positions: NonNegativeInt = Field(0, description="Maximum context; rows of a learned position table.")
    position_offset: NonNegativeInt = Field(
        0, description="Extra rows in a learned position table (OPT keeps 2)."
    )
    relative_buckets: NonNegativeInt = Field(
        0,
        description="Buckets of a relative position bias (one table of buckets × heads).",
    )
    token_types: NonNegativeInt = Field(0, description="Token-type (segment) embedding rows, as BERT's 2.")
    norm: bool = Field(False, description="A norm right after the embeddings (BLOOM, BERT).")


class Attention(_Spec):
    kind: Literal["standard", "mla"] = Field(
        "standard", description="'mla' is DeepSeek's multi-head latent attention."
    )
    num_heads: PositiveInt = Field(description="Query heads (a).")
    num_kv_heads: PositiveInt | None = Field(
        None,
        description="Key/value heads (g): equal to a for MHA, 1 for MQA. Empty means a.",
    )
    head_dim: PositiveInt | None = Field(
        None, description="Width of one head (d_h); empty means hidden size / heads."
    )
    q_bias: bool = Field(False, description="Bias on the query projection (MLA: on q_a).")
    k_bias: bool = Field(False, description="Bias on the key projection (MLA: on kv_a).")
    v_bias: bool = Field(False, description="Bias on the value projection (unused by MLA).")
    o_bias: bool = Field(False, description="Bias on the output projection.")
    qk_norm: bool = Field(False, description="A norm over d_h on queries and keys (Qwen3).")
    q_lora_rank: PositiveInt | None = Field(
        None,
        description="MLA: rank of the query down-projection; empty means direct q.",
        json_schema_extra=_MLA_ONLY,
    )
    kv_lora_rank: NonNegativeInt = Field(
        0, description="MLA: rank of the compressed KV latent.", json_schema_extra=_MLA_ONLY
    )
    qk_rope_head_dim: NonNegativeInt = Field(
        0, description="MLA: rotary part of a q/k head.", json_schema_extra=_MLA_ONLY
    )
    qk_nope_head_dim: NonNegativeInt = Field(
        0, description="MLA: non-rotary part of a q/k head.", json_schema_extra=_MLA_ONLY
    )
    v_head_dim: NonNegativeInt = Field(
        0, description="MLA: width of a value head.", json_schema_extra=_MLA_ONLY
    )
    sliding_window: PositiveInt | None = Field(
        None,
        description="Tokens a sliding-window layer attends to; empty means full attention.",
    )
    global_every: NonNegativeInt = Field(
        0,
        description="With a sliding window: every n-th layer attends globally "
        "(Gemma-2: 2); 0 means every layer uses the window.",
    )
    rotary_fraction: Annotated[float, Field(gt=0, le=1)] = Field(
        1.0,
        description="Share of a head that is rotated (Phi-2: 0.4); costs no parameters.",
    )


class FFN(_Spec):
    width: PositiveInt = Field(description="Intermediate width (f).")
    gated: bool = Field(True, description="Three matrices (SwiGLU/GeGLU) instead of two.")
    bias: bool = Field(False, description="Biases on the FFN matrices.")
    activation: Activation = Field(
        "silu", description="Activation (transformers' name, as in config.json); costs no parameters."
    )


class Norms(_Spec):
    kind: NormKind = Field("rmsnorm", description="LayerNorm has γ and β; RMSNorm only γ.")
    bias: bool = Field(
        True,
        description="LayerNorm's β (RMSNorm has none).",
        json_schema_extra=visible_when(kind="layernorm"),
    )
    per_block: NonNegativeInt = Field(2, description="Norms in one block (Gemma-2: 4; Falcon-7B: 1).")
    final: bool = Field(True, description="A norm after the last block.")


class Head(_Spec):
    present: bool = Field(True, description="A language-model head (off for a bare encoder).")
    tied: bool = Field(False, description="The head shares the token embedding's weights.")
    bias: bool = Field(False, description="A bias of V on the head (Phi-2).")
    decoder_bias: bool = Field(
        False,
        description="A second bias of V on an untied decoder (BERT's MLM head with "
        "tie_word_embeddings false: transformers then unties decoder.bias too).",
    )
    transform: bool = Field(
        False,
        description="A dense h→h layer and norm before the head (BERT's MLM head).",
    )
    pooler: bool = Field(False, description="A dense h→h pooler on the first token (BERT).")


class MoE(_Spec):
    num_experts: PositiveInt = Field(description="Routed experts (E).")
    top_k: PositiveInt = Field(description="Routed experts per token (k).")
    expert_width: PositiveInt = Field(description="Intermediate width of one expert (f_e).")
    shared_experts: NonNegativeInt = Field(
        0, description="Shared experts, always active; together they form one MLP."
    )
    shared_expert_width: PositiveInt | None = Field(
        None,
        description="Width of one shared expert; empty means the expert width (DeepSeek).",
    )
    shared_expert_gate: bool = Field(False, description="A sigmoid gate h→1 on the shared expert (Qwen-MoE).")
    router_bias: bool = Field(False, description="A bias Parameter on the router.")
    expert_bias: bool = Field(False, description="Biases on the expert matrices.")
    shared_expert_bias: bool = Field(
        False,
        description="Biases on the shared expert only (DeepSeek-V2 mlp_bias); expert_bias implies them.",
    )


class LoRA(_Spec):
    rank: PositiveInt = Field(description="LoRA rank (r): adds r·(d_in + d_out) per matrix.")
    targets: tuple[LoRATarget, ...] = Field(("q", "v"), description="Matrices that get a low-rank update.")


class Adapter(_Spec):
    width: PositiveInt = Field(description="Bottleneck width (b).")
    placement: Literal["attention", "ffn", "both"] = Field(
        "both", description="After attention, after the FFN, or both (Houlsby)."
    )
    bias: bool = Field(True, description="Biases on the down and up projections.")


class LayerGroup(_Spec):
    count: PositiveInt = Field(description="Consecutive layers with this block.")
    moe: MoE | None = Field(None, description="Replace the dense FFN with a mixture of experts.")
    lora: LoRA | None = Field(None, description="LoRA on these layers.")
    adapter: Adapter | None = Field(None, description="Bottleneck adapters in these layers.")


class Architecture(_Spec):
    schema_version: Literal[1] = SCHEMA_VERSION
    name: str = Field("Untitled", description="Display name.")
    description: str = Field("", description="Where the numbers come from.")
    family: str = Field("", description="Model family (Hugging Face model_type) if known.")
    hidden_size: PositiveInt = Field(description="Model width (h, d_model).")
    embeddings: Embeddings
    attention: Attention
    ffn: FFN
    norms: Norms = Norms()
    head: Head = Head()
    layers: tuple[LayerGroup, ...] = Field(min_length=1, description="The stack, in order.")
    added_vocab: NonNegativeInt = Field(
        0,
        description="New tokens added to the vocabulary (counted as added parameters).",
    )

    @property
    def num_layers(self) -> int:
        return sum(group.count for group in self.layers)

    @property
    def num_kv_heads(self) -> int:
        return self.attention.num_kv_heads or self.attention.num_heads

    @property
    def head_dim(self) -> int:
        return self.attention.head_dim or self.hidden_size // self.attention.num_heads

    @property
    def embed_dim(self) -> int:
        return self.embeddings.embed_dim or self.hidden_size

    @model_validator(mode="after")
    def _check_consistency(self) -> Architecture:
        for loc, message, value in _consistency_problems(self):
            raise field_error(self.__class__.__name__, loc, message, value)
        return self


def _consistency_problems(
    arch: Architecture,
) -> list[tuple[tuple[str | int, ...], str, Any]]:
    att = arch.attention
    problems: list[tuple[tuple[str | int, ...], str, Any]] = []
    if att.kind == "standard":
        if att.num_heads % arch.num_kv_heads:
            problems.append(
                (
                    ("attention", "num_kv_heads"),
                    f"KV heads ({arch.num_kv_heads}) must divide the query heads ({att.num_heads})",
                    arch.num_kv_heads,
                )
            )
        if att.head_dim is None and arch.hidden_size % att.num_heads:
            problems.append(
                (
                    ("attention", "num_heads"),
                    f"the hidden size ({arch.hidden_size:,}) is not a multiple of the {att.num_heads} heads: "
                    "change either, or set the head width",
                    att.num_heads,
                )
            )
    else:
        for name in ("kv_lora_rank", "qk_rope_head_dim", "v_head_dim"):
            if getattr(att, name) <= 0:
                problems.append((("attention", name), "multi-head latent attention needs a value above 0", 0))
    if arch.embeddings.position == "learned" and arch.embeddings.max_positions <= 0:
        problems.append(
            (
                ("embeddings", "max_positions"),
                "learned positions need a table: set the maximum positions above 0",
                0,
            )
        )
    for index, group in enumerate(arch.layers):
        if group.moe and group.moe.top_k > group.moe.num_experts:
            problems.append(
                (
                    ("layers", index, "moe", "top_k"),
                    f"experts per token ({group.moe.top_k}) exceed the experts ({group.moe.num_experts})",
                    group.moe.top_k,
                )
            )
    return problems
