"""The ParamTally window: views and editors of one Document; every figure comes from ``core``."""

# pydantic builds its models on first use through lazy imports; PySide6's import hook (shiboken's
# "feature" support) inspects every module imported after it and trips over those half-loaded
# modules ("cannot import name 'import_string'"). Loading the schema before any Qt module keeps
# every gui module importable on its own.
import paramtally.core.schema  # noqa: F401
