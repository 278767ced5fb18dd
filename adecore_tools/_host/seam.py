"""What the adapter modules use, imported from here: the one seam between them and the rest."""

from .._model.content import Audio, Content, Image, Resource, Text, ToolResult
from .._model.refusals import refusal_body
from .._render.shown import shown
from .answer import answer
from .registry import ToolRegistry
from .tool import Tool

__all__ = [
    "Audio",
    "Content",
    "Image",
    "Resource",
    "Text",
    "Tool",
    "ToolRegistry",
    "ToolResult",
    "answer",
    "refusal_body",
    "shown",
]
