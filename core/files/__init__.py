"""The disk as every layer meets it: the guarded reader of untrusted files (``input_files``) and the
installed package's own data folders and version (``package_data``).

Imports only ``errors`` and ``text``, so the GPU catalog (``memory``), the importers and presets
(``io``) and the command line all read files the same way.
"""
