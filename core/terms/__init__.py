"""Terms: the formula engine and the one term type every figure is made of.

A term is a named figure with its formula (``4·h² = 4·12288² = 603,979,776``): a parameter count, a
memory term's bytes, a FLOPs term. The layers above (blocks, schema, count, memory, explore) make
terms; the views, the command line and the exports read them. This package imports nothing of
ParamTally's.
"""
