"""The ParamTally window: views and editors of one Document; every figure comes from ``core``."""
