"""Relative questions over the one calculator: compare architectures side by side, goal-seek one
design variable to a target, and sweep a figure over two of them (the design space).

Everything here is pure and Qt-free, so a window view is a thin layer over ``compare``,
``solve`` and ``sweep``; the design variables they vary live in one registry (``variables``).
"""
