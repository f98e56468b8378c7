"""The built-in presets: one JSON file per architecture, read through ``importlib.resources``."""
