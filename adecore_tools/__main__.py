"""`python -m adecore_tools`: the `adecore-tools` command."""

from ._cli.main import main

raise SystemExit(main())
