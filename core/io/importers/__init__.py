"""Importers: published Hugging Face ``config.json`` files and checkpoint headers (safetensors, GGUF)."""
