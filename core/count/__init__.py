"""Parameter counts: the report (the breakdown tree of ``core.terms.term.Term``s, the parts, the
per-layer table) and the rows of the layer tree.

Imports ``schema``, ``blocks`` and ``terms`` only: a count never needs a scenario, a GPU or a file.
"""
