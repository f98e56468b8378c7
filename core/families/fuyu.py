"""Fuyu (``FuyuForCausalLM``, adept/fuyu-8b): no vision tower — ``vision_embed_tokens``, one biased
linear layer from an image patch's C·p² values to the hidden size, puts each patch among the text's
tokens of a Persimmon language model (``FuyuModel.language_model``), read by its own family.

The published file is flat: ``FuyuConfig.__post_init__`` moves the text keys its class names (the
text config's ``init_kwargs`` and the RoPE keys) into ``text_config`` when the file has none; the
other keys of the text model keep ``PersimmonConfig``'s defaults. The head is tied only by the
top-level key (``FuyuConfig``: false); a ``text_config`` tie is not taken upwards.
"""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.persimmon import FAMILY as PERSIMMON
from paramtally.core.families.vision_parts import TextModel, text_model

__all__ = ["FAMILY"]

_TEXT = TextModel("persimmon")
# FuyuConfig.__post_init__: the top-level keys that become the text config of a flat file.
_MOVED = (
    "vocab_size",
    "max_position_embeddings",
    "hidden_size",
    "intermediate_size",
    "num_hidden_layers",
    "num_attention_heads",
    "hidden_act",
    "initializer_range",
    "layer_norm_eps",
    "use_cache",
    "qk_layernorm",
    "hidden_dropout",
    "attention_dropout",
    "eos_token_id",
    "rope_scaling",
    "rope_theta",
)


def _flat_moved(cfg: HFConfig) -> HFConfig:
    """A flat file read with its text keys as the ``text_config`` they become."""
    if cfg.raw("text_config", None) is not None:
        return cfg
    text = {key: cfg.data[key] for key in _MOVED if key in cfg.data}
    return HFConfig({**cfg.data, "text_config": text}, cfg.model_type, cfg.origin, cfg.defaults, cfg.prefix)


def fuyu(cfg: HFConfig) -> Spec:
    cfg = _flat_moved(cfg)
    _, lm = text_model(cfg, _TEXT)
    p = cfg.integer("patch_size")
    lm["embeddings"]["patch_inputs"] = cfg.integer("num_channels") * p * p
    return lm


FAMILY = Family(
    "Fuyu (whole model, no vision tower)",
    (
        ModelType(
            "fuyu",
            fuyu,
            {"tie_word_embeddings": False, "patch_size": 30, "num_channels": 3, "image_size": 300},
            activations=PERSIMMON.types[0].activations,
            tokenizer="sentencepiece",
            dropout=("attention_dropout", "hidden_dropout"),  # a flat file's, as Persimmon's
        ),
    ),
)
