"""Rendering: the field model written as schemas, provider listings and results."""
