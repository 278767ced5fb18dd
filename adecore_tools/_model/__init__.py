"""The field model: nodes, bounds, value classes, memos, and the words of values."""
