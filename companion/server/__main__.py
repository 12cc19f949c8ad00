"""``python -m companion.server``: start the table service (see companion/server/serve.py)."""

from .serve import main

raise SystemExit(main())
