"""The architecture schema: the one description every view, preset, importer and CLI shares.

Version 2 builds a model from blocks: named base blocks (``core.schema.block``; the mixer and FFN
kinds live in ``core.blocks``), stacks of layer groups that start from a base block and change only
what differs (``core.schema.stack``), and the model-wide parts (``core.schema.model``).
"""

from paramtally.core.blocks import (
    ACTIVATIONS,
    FFN,
    MLA,
    Activation,
    Adapter,
    Attention,
    DenseFFN,
    LoRA,
    LoRATarget,
    Mixer,
    MoE,
    NoFFN,
)
from paramtally.core.schema.block import Block, BlockNorms, block_node
from paramtally.core.schema.frozen import FrozenDict, freeze, thaw
from paramtally.core.schema.model import MTP, SCHEMA_VERSION, Architecture, Dropout, Embeddings, Head
from paramtally.core.schema.stack import AudioFrontend, LayerGroup, PositionKind, Run, Stack, StackRole
from paramtally.core.schema.vision import PatchEmbedding, Projector, TileEmbedding, VisionStack

__all__ = [
    "ACTIVATIONS",
    "FFN",
    "MLA",
    "MTP",
    "SCHEMA_VERSION",
    "Activation",
    "Adapter",
    "Architecture",
    "Attention",
    "AudioFrontend",
    "Block",
    "BlockNorms",
    "DenseFFN",
    "Dropout",
    "Embeddings",
    "FrozenDict",
    "Head",
    "LayerGroup",
    "LoRA",
    "LoRATarget",
    "Mixer",
    "MoE",
    "NoFFN",
    "PatchEmbedding",
    "PositionKind",
    "Projector",
    "Run",
    "Stack",
    "StackRole",
    "TileEmbedding",
    "VisionStack",
    "block_node",
    "freeze",
    "thaw",
]
