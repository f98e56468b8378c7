"""Parameter counts: the breakdown tree of terms, the formula engine that evaluates and shows each
term, and the rows of the layer tree.

Imports ``schema`` and ``blocks`` only: a count never needs a scenario, a GPU or a file.
"""
