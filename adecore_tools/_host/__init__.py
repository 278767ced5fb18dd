"""The host's side: tools, toolkits and the registry, putting the phases together.

What the adapter modules use is imported from here, the one seam between them and the rest.
"""

from .._model.content import Audio, Content, Image, Resource, Text, ToolResult
from .._model.refusals import refusal_body
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
]
