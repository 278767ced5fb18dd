"""What the adapter modules use, imported from here: the one seam between them and the rest."""

from .._model.content import Audio, Content, Image, Resource, Text, ToolResult
from .._model.metadata import NEEDS_APPROVAL
from .._model.refusals import ToolRefusal, refusal_body
from .._render.listings import GeminiFunction, OpenAITool
from .._render.shown import shown
from .answer import answer, asks, made_call, offered, visible
from .registry import ToolRegistry
from .tool import Tool

__all__ = [
    "NEEDS_APPROVAL",
    "Audio",
    "Content",
    "GeminiFunction",
    "Image",
    "OpenAITool",
    "Resource",
    "Text",
    "Tool",
    "ToolRefusal",
    "ToolRegistry",
    "ToolResult",
    "answer",
    "asks",
    "made_call",
    "offered",
    "refusal_body",
    "shown",
    "visible",
]
