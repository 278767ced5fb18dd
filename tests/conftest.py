"""Loaded by pytest before the test modules: it rewrites the asserts of the shared helpers.

The helpers are plain modules beside the tests (`helpers.py`, `hostile_values.py`), imported by
name; rewritten, a failing assert in one of them reports its values as one in a test does.
"""

import pytest

pytest.register_assert_rewrite("helpers", "hostile_values")
