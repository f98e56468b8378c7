"""Falcon Mamba (``FalconMambaForCausalLM``, transformers' ``modeling_falcon_mamba.py``): Mamba-1
layers as ``MambaForCausalLM`` builds them, one RMSNorm each, no FFN and no positions.

Its mixer also RMS-normalises Δ, B and C (``FalconMambaMixer``: ``dt_layernorm``, ``b_layernorm``,
``c_layernorm``), but with ``FalconMambaWeightlessRMSNorm``: their weights are non-persistent
buffers of ones, no parameters, so the Mamba kind counts the layer as it is, without Jamba's inner
norms. As in ``FalconMambaConfig.__post_init__``, the width is expand × hidden unless the file sets
``intermediate_size`` (measured: the file's key wins), and ``time_step_rank`` "auto" is ⌈h/16⌉.
The class ties by default; Falcon-Mamba-7B's file unties.
"""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType
from paramtally.core.families.mamba import MAMBA_DEFAULTS, mamba

__all__ = ["FAMILY"]

FAMILY = Family(
    "Falcon Mamba",
    (
        ModelType(
            "falcon_mamba",
            mamba,
            {**MAMBA_DEFAULTS, "mixer_rms_eps": 1e-6},
            activations=ActivationQuirks(sdpa_refused_by="FalconMambaForCausalLM"),
            dropout=(None, None),
            derived_layer_types=("layer_types",),
        ),
    ),
)
