"""ParamTally: exact parameter counts, memory and FLOPs of transformer language models.

The repository root is this package (installed as ``paramtally``): ``core`` holds every figure
and imports no Qt, ``gui`` is the window over it, ``main`` the entry point of both.
"""
