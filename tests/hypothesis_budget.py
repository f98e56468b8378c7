"""How many examples a property draws: all of them in the ``thorough`` profile, a quarter in ``ci``.

The profiles are registered in tests/conftest.py. ``ci`` (the default, what `.ci/run` runs) is
derandomized: the same examples on every run, so a landing is never decided by chance, and fewer
of them, so the suite stays within CI's time. ``HYPOTHESIS_PROFILE=thorough`` draws fresh examples
each run, as many as each property names.
"""

from __future__ import annotations

import os

__all__ = ["PROFILE", "examples"]

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
_CI_SHARE = 4


def examples(thorough: int) -> int:
    """``thorough`` examples in the thorough profile; a quarter of them (at least 10) in CI."""
    return thorough if PROFILE == "thorough" else max(10, thorough // _CI_SHARE)
