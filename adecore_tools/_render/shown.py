"""What an agent framework shows the model of a result: its own blocks, or a line for the rest.

Every framework adapter makes the same decision: a result of text alone goes as its text (what
each framework takes first), and a result with an image, audio or a resource goes block by block,
each as the framework's own content where the framework has a block for its kind. A kind it has
no block for is not dropped in silence: the model reads one line saying what the tool returned
and that it cannot be shown, so that it can tell the user instead of guessing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from .._model.content import Audio, Content, Image, Resource, Text, ToolResult

__all__ = ["shown", "unshown"]

T = TypeVar("T")


def shown(result: ToolResult, makers: Mapping[type[Any], Callable[[Any], T]]) -> str | list[T]:
    """`result.text` for a result of text alone (a refusal too), else each block as its maker's.

    `makers` maps each kind of block the framework can show to what makes its own block of it;
    it holds `Text`, which also carries the line for a block of any kind it does not hold.
    """
    if all(type(block) is Text for block in result.content):
        return result.text
    text = makers[Text]
    return [
        makers[type(block)](block) if type(block) in makers else text(Text(unshown(block)))
        for block in result.content
    ]


def unshown(block: Content) -> str:
    """The line the model reads for a block its framework cannot show: what it was, and why."""
    if isinstance(block, (Image, Audio)):
        kind = "an image" if isinstance(block, Image) else "audio"
        what = f"{kind} ({block.mime_type}, {len(block.data)} bytes)"
    elif isinstance(block, Resource):
        what = f"the resource {block.uri}"
    else:
        what = "text"
    return f"[The tool returned {what}, which cannot be shown here.]"
