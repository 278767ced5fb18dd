"""What a command's TARGET names: `module:attribute` or `path/to/file.py:attribute`.

Anything wrong with it is a `Usage` error: one line saying what, and exit status 2.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

__all__ = ["Usage", "load", "one_line"]


class Usage(Exception):  # noqa: N818 - what the command line says, not an error of the package
    """A mistake in how the command was called: its one line goes to stderr, then exit 2."""


def one_line(text: object) -> str:
    """Any message made one line, as the command prints it."""
    return " ".join(str(text).split())


def load(target: str) -> object:
    """The object TARGET names, importing its module (a file's folder goes first on the path)."""
    where, colon, attribute = target.rpartition(":")
    if not colon or not where or not attribute:
        msg = f"TARGET is module:attribute or path/to/file.py:attribute, got {target!r}"
        raise Usage(msg)
    try:
        module = _module(where)
    except Usage:
        raise
    except BaseException as error:
        if isinstance(error, KeyboardInterrupt):
            raise
        msg = f"cannot import {where}: {type(error).__name__}: {one_line(error)}"
        raise Usage(msg) from None
    found: object = module
    for name in attribute.split("."):
        if not hasattr(found, name):
            msg = f"{where} has no {attribute!r}"
            raise Usage(msg)
        found = getattr(found, name)
    return found


def _module(where: str) -> object:
    if where.endswith(".py") or "/" in where or "\\" in where:
        path = Path(where).resolve()
        if not path.is_file():
            msg = f"no file {where}"
            raise Usage(msg)
        loaded = sys.modules.get(path.stem)
        if loaded is not None and getattr(loaded, "__file__", None) == str(path):
            return loaded  # named twice (a registry, and its call factory): one module
        # As `python path/to/file.py` runs it: its folder first, so its own imports resolve.
        sys.path.insert(0, str(path.parent))
        spec = importlib.util.spec_from_file_location(path.stem, path)
        if spec is None or spec.loader is None:
            msg = f"{where} is not a Python module"
            raise Usage(msg)
        module = importlib.util.module_from_spec(spec)
        sys.modules.setdefault(path.stem, module)
        spec.loader.exec_module(module)
        return module
    # As `python -m` finds modules: from the current folder too.
    if "" not in sys.path:
        sys.path.insert(0, "")
    return importlib.import_module(where)
