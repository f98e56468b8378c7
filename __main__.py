"""``python -m paramtally``: the same entry point as the ``paramtally`` command."""

from paramtally.main import run

run()
