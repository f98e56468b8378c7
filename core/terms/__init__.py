"""Terms: the formula engine (``formula``) and the one type of figure made with it, ``Term``
(``term``), which parameters, memory and FLOPs all use.

A term is a named figure with its formula (``4·h² = 4·12288² = 603,979,776``): a parameter count
(the breakdown is a tree of terms), a memory term's bytes, a FLOPs term, a serving quantity. The
layers above (blocks, schema, count, memory, explore) make terms; the views, the command line and
the exports read them. This package imports nothing of ParamTally's, so every layer may use it.
"""
