"""``python -m paramtally``: the same entry point as the ``paramtally`` command."""

import sys

from paramtally.main import main

sys.exit(main())
