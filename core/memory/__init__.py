"""Memory, FLOPs and speed under a scenario: weights per dtype and quantization, KV cache and
recurrent state, activations per profile, model states, pipeline stages and their plans, which GPU
setups fit, serving estimates, and the GPU catalog.

Imports ``count``, ``schema`` and ``blocks``; nothing here reads a file but the GPU catalog.
"""
