"""`python -m tools.loadtest` (what `make loadtest` runs)."""

from tools.loadtest.cli import main

raise SystemExit(main())
