"""Data files the program reads (GPU catalog, icons), found through ``importlib.resources``."""
