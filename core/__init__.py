"""ParamTally's core: the schema, the calculators, presets, importers, exporters and the CLI.

Pure Python: nothing here imports Qt (import-linter enforces it).
"""

import os

# ParamTally uses no pydantic plugins; skipping pydantic's scan of every installed package's entry
# points for them saves ~7 ms of each start (measured). A user's own setting wins.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "1")
