"""A module that fails on import, for the command's tests: its TARGET must be one line."""

1 / 0  # noqa: B018 - the failure
