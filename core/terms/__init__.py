"""Terms: the formula engine (``formula``) and the figures made with it: the count's ``Term``
(``node``: a parameter count and the breakdown tree) and the memory/FLOPs ``Term`` (``term``).

A term is a named figure with its formula (``4·h² = 4·12288² = 603,979,776``): a parameter count, a
memory term's bytes, a FLOPs term. The layers above (blocks, schema, count, memory, explore) make
terms; the views, the command line and the exports read them. This package imports nothing of
ParamTally's, so every layer may use it.
"""
