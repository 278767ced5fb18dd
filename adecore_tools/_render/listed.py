"""What rendering reads of a tool: its name, words and input, as a protocol the tool meets.

Rendering never imports the host's `Tool`: a listing, a portability row or a result is made
from what this protocol names, so the arrows run one way, from the host to rendering.
"""

from __future__ import annotations

from typing import Any, Protocol

from .._model.nodes import Field
from .._model.tool_annotations import ToolAnnotations

__all__ = ["Listed", "ListedInput"]


class ListedInput(Protocol):
    """A tool's input as rendering reads it: its fields, and each profile's schema, kept."""

    @property
    def fields(self) -> tuple[Field, ...]:
        """The fields, in signature order."""
        ...

    def rendered(self, profile: str = "mcp", *, in_words: bool = False) -> dict[str, Any]:
        """The schema of a profile as rendered and kept: not to be handed out, but copied."""
        ...


class Listed(Protocol):
    """A tool as rendering reads it."""

    @property
    def name(self) -> str:
        """The tool's name."""
        ...

    @property
    def description(self) -> str:
        """What the tool does, for a model."""
        ...

    @property
    def annotations(self) -> ToolAnnotations:
        """What a client may expect before it runs the tool."""
        ...

    @property
    def input(self) -> ListedInput:
        """The tool's input."""
        ...
