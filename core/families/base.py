"""What a family module declares: the model types it reads, and what each one's transformers code
does beyond the shapes (``ActivationQuirks``).

A ``ModelType`` is one Hugging Face ``model_type``: the keys its config class defaults (a published
file leaves out every key equal to its default), the builder that turns a file into a schema-2
architecture, and the facts other parts of core ask of the family (how PyTorch keeps its
activations, its tokenizer, its dropout keys). A family module groups the model types one
transformers family shares code for (``mistral`` and ``mixtral``), as ``FAMILY``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.image_resize import AS_GIVEN, ImageResize

__all__ = ["ActivationQuirks", "Family", "ModelType", "Spec", "Tokenizer"]

Spec = dict[str, Any]  # a schema-2 architecture as data, before validation
Tokenizer = Literal["bpe", "sentencepiece", "sentencepiece_at_32k"]


@dataclass(frozen=True, slots=True)
class ActivationQuirks:
    """How a family's transformers 5.24 modules keep activations for backward, where they differ
    from the rule ``memory.activations_hf`` states (measured by tools/measure_activations.py).

    Each field is False (or None) for a family that keeps what the rule says; a family module
    sets the ones its modeling file shows, citing the class.
    """

    # Eager attention takes the softmax in the activation dtype (no fp32 upcast).
    softmax_in_activation_dtype: bool = False
    # RMSNorm multiplies its (1 + weight) in fp32: it keeps an fp32 normalized value, 4 bytes.
    fp32_norm: bool = False
    # RMSNorm multiplies its input in the activation dtype by the fp32 1/rms, keeping that input.
    norm_keeps_input: bool = False
    # LayerNorm normalizes an fp32 copy of its input, which it keeps: 4·h, not B·h.
    fp32_layer_norm: bool = False
    # The q/k norms normalize views of one fused q/k/v projection's output, which they keep whole.
    qk_norm_reads_fused_qkv: bool = False
    # q, k and v are made contiguous heads-first before SDPA, so the reshape after it copies and
    # SDPA keeps its output beside the copy (B·a·d_h more per attention).
    sdpa_output_copied: bool = False
    # q, k and v are views of one fused projection's output, which SDPA with the KV cache keeps
    # whole ("always"; "alibi": only while ALiBi leaves q unrotated).
    fused_qkv_views: Literal["never", "always", "alibi"] = "never"
    # Eager attention soft-caps the logits with tanh before the softmax (tanh keeps its output).
    logit_softcap: bool = False
    # Eager attention clamps the masked scores at the dtype's minimum with torch.max before the
    # softmax, which keeps them (the activation dtype's bytes per score).
    clamped_scores: bool = False
    # Dense FFNs drop out the activation before their output matrix, at the hidden dropout rate.
    ffn_inner_dropout: bool = False
    # The router computes its logits from an fp32 copy of the layer's input (4h per token).
    fp32_router_input: bool = False
    # The router scales the chosen experts' weights without dividing them by their sum.
    unnormalized_top_k: bool = False
    # The router takes the softmax over the k chosen logits alone, in the activation dtype.
    top_k_softmax_router: bool = False
    # Tensors of the expert width a gated expert keeps where the GLU is written out in Python
    # (None: the activation's saved tensors + 3, as a fused GLU keeps).
    expert_glu_saves: int | None = None
    # The class that refuses attn_implementation="sdpa" (``_supports_sdpa`` False), if any.
    sdpa_refused_by: str | None = None
    # The loss is taken on the logits as they are (B·V), not on an fp32 upcast.
    loss_in_activation_dtype: bool = False
    # The embeddings' output is dropped out at the hidden dropout rate.
    embedding_dropout: bool = False
    # Each stack's final norm output is dropped out at the hidden dropout rate.
    final_norm_dropout: bool = False


NO_QUIRKS = ActivationQuirks()


@dataclass(frozen=True, slots=True)
class ModelType:
    """One Hugging Face ``model_type`` the importer reads."""

    name: str
    # The file (through its reader, which falls back on ``defaults``) → a schema-2 architecture
    # without its name, description, family and dropout (the importer adds those).
    build: Callable[[HFConfig], Spec]
    # The config class's defaults for the keys ``build`` reads (transformers 5.24, ``<Model>Config()``);
    # None where the class derives the value (KV heads = query heads).
    defaults: Mapping[str, Any]
    activations: ActivationQuirks = NO_QUIRKS
    # The vocabulary's kind, for a GGUF file's metadata estimate ("sentencepiece_at_32k": only at
    # the 32k vocabulary of Llama-2 and Mistral v0.1; Llama 3's 128,256 tokens are BPE).
    tokenizer: Tokenizer = "bpe"
    # The keys of the dropout on attention probabilities and on the sublayers' outputs (None: none).
    dropout: tuple[str | None, str | None] = ("attention_dropout", None)
    # Keys the config class derives (a read-only property): transformers refuses a file setting them.
    derived_layer_types: tuple[str, ...] = ()
    # Other spellings of a key this family's files use (older key → the key ``build`` reads).
    renamed_keys: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    # Other model_types that name this architecture (remote-code copies): they import as this one
    # and say so.
    aliases: tuple[str, ...] = ()
    # model_types that wrap this one as their language model (a vision-language model the importer
    # does not read yet): an architecture with that family shares this one's activation quirks and
    # tokenizer.
    wrapped_by: tuple[str, ...] = ()
    # What its image processor does to an image before the vision tower sees it (its memory's
    # image tokens follow): as given, resized to the tower's size, or Qwen's smart_resize.
    image_resize: ImageResize = AS_GIVEN


@dataclass(frozen=True, slots=True)
class Family:
    """One family module's model types, under the title the README lists them by."""

    title: str
    types: tuple[ModelType, ...]
