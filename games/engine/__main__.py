"""``python -m games.engine ...``: see :mod:`games.engine.cli`."""

import sys

from .cli import main

sys.exit(main())
