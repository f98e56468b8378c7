"""The evented, Qt-free document every editor changes: its history of undoable edits, the values
typed that do not fit yet (drafts), edits to a stack, the pattern language, templates for a new
model, and what a scenario keeps when another model is opened.
"""
