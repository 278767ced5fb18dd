"""What the adapter modules use, imported from here: the one seam between them and the rest."""

from .._model.content import Audio, Content, Image, Resource, Text, ToolResult
from .._model.metadata import NEEDS_APPROVAL, NOT_APPROVED, not_approved
from .._model.refusals import ToolRefusal, refusal_body
from .._render.listings import GeminiFunction, OpenAITool
from .._render.shown import shown
from .answer import answer, asks, made_call, offered, visible, waits_for_approval
from .registry import ToolRegistry
from .tool import Tool

__all__ = [
    "NEEDS_APPROVAL",
    "NOT_APPROVED",
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
    "not_approved",
    "offered",
    "refusal_body",
    "shown",
    "visible",
    "waits_for_approval",
]
