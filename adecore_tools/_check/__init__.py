"""Checking: the field model compiled into validators, and the refusals they give."""
