"""What comes in and goes out: the guarded reader of untrusted files, presets (built-in and the
user's, with their migrations), the importers of Hugging Face configs and checkpoints, the export
formats, atomic writes, the recent-files list, the error log and the desktop entry.
"""
