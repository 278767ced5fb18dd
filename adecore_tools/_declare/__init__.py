"""Declaration: Python signatures, hints and docstrings read into the field model."""
