"""The server the official MCP conformance suite tests: tools declared with `@tool`, served with
`adecore_tools.mcp` over streamable HTTP on 127.0.0.1.

    python tests/conformance_server.py     # prints its URL, then serves until killed

Each tool is the one a server scenario of `@modelcontextprotocol/conformance` calls, by its name,
returning what the scenario checks; tests/adapters/test_conformance.py runs the scenarios against
it. Nothing here is written for the suite but the tools themselves: the listing, the results, the
refusal, `logging/setLevel` and DNS-rebinding protection are the adapter's and the SDK's.
"""

from __future__ import annotations

import asyncio
import struct
import zlib
from dataclasses import dataclass
from typing import Any

from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp_served import sample, serve_http

from adecore_tools import (
    Audio,
    Content,
    Image,
    Resource,
    ToolCall,
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    tool,
)
from adecore_tools.mcp import logs_at, mcp_server


def _png() -> bytes:
    """A 1x1 red pixel."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)  # 1x1, 8-bit RGB
    pixels = zlib.compress(b"\x00\xff\x00\x00")  # one row: no filter, red
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def _wav() -> bytes:
    """One millisecond of 8 kHz, 8-bit mono silence."""
    samples = b"\x80" * 8
    fmt = struct.pack("<HHIIHH", 1, 1, 8000, 8000, 1, 8)
    chunks = b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", 8) + samples
    return b"RIFF" + struct.pack("<I", 4 + len(chunks)) + b"WAVE" + chunks


PNG, WAV = _png(), _wav()
PAUSE = 0.05
"""Between two log messages, and two progress reports: the suite waits for all three."""


@dataclass
class ConformanceCall(ToolCall):
    """The SDK's request context, for the tools that log, report progress, sample or elicit."""

    ctx: ServerRequestContext[Any, Any]


@tool("conformance")
async def test_simple_text() -> str:
    """Returns a simple text."""
    return "This is a simple text response for testing."


@tool("conformance")
async def test_image_content() -> Image:
    """Returns a 1x1 PNG image."""
    return Image(PNG, "image/png")


@tool("conformance")
async def test_audio_content() -> Audio:
    """Returns a tiny WAV recording."""
    return Audio(WAV, "audio/wav")


@tool("conformance")
async def test_embedded_resource() -> Resource:
    """Returns an embedded text resource."""
    text = "This is an embedded resource content."
    return Resource("test://embedded-resource", text=text, mime_type="text/plain")


@tool("conformance")
async def test_multiple_content_types() -> list[Content | str]:
    """Returns text, an image and an embedded resource."""
    data = '{"test":"data","value":123}'
    return [
        "Multiple content types test:",
        Image(PNG, "image/png"),
        Resource("test://mixed-content-resource", text=data, mime_type="application/json"),
    ]


@tool("conformance")
async def test_tool_with_logging(call: ConformanceCall) -> str:
    """Logs three messages at info, where the client wants that level."""
    ctx = call.ctx
    for number, data in enumerate(
        ("Tool execution started", "Tool processing data", "Tool execution completed")
    ):
        if number:
            await asyncio.sleep(PAUSE)
        if logs_at(ctx, "info"):
            params = types.LoggingMessageNotificationParams(level="info", data=data)
            notification = types.LoggingMessageNotification(params=params)
            await ctx.session.send_notification(notification, related_request_id=ctx.request_id)
    return "Logging tool completed"


@tool("conformance")
async def test_error_handling() -> str:
    """Always refuses."""
    raise ToolRefusal("intentional-error", "This tool intentionally returns an error for testing")


@tool("conformance")
async def test_tool_with_progress(call: ConformanceCall) -> str:
    """Reports progress 0, 50 and 100 of 100."""
    for number, progress in enumerate((0, 50, 100)):
        if number:
            await asyncio.sleep(PAUSE)
        await call.ctx.session.report_progress(progress, 100)
    return "Progress tool completed"


def _client_can(call: ConformanceCall, capability: types.ClientCapabilities, what: str) -> None:
    if not call.ctx.session.can_send_request or not call.ctx.session.check_client_capability(
        capability
    ):
        raise ToolRefusal("client-cannot", f"This client does not support {what}.")


@tool("conformance")
async def test_sampling(call: ConformanceCall, prompt: str) -> str:
    """Asks the client's model to answer the prompt."""
    _client_can(call, types.ClientCapabilities(sampling=types.SamplingCapability()), "sampling")
    return f"LLM response: {await sample(call.ctx, prompt, max_tokens=100)}"


@tool("conformance")
async def test_elicitation(call: ConformanceCall, message: str) -> str:
    """Asks the user for a username and an email address."""
    capability = types.ClientCapabilities(elicitation=types.ElicitationCapability())
    _client_can(call, capability, "elicitation")
    schema = {
        "type": "object",
        "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"},
        },
        "required": ["username", "email"],
    }
    ctx = call.ctx
    answer = await ctx.session.elicit_form(message, schema, related_request_id=ctx.request_id)
    return f"User response: action={answer.action}, content={answer.content}"


registry = create_tool_registry(
    [
        define_toolkit(
            "conformance",
            [
                test_simple_text,
                test_image_content,
                test_audio_content,
                test_embedded_resource,
                test_multiple_content_types,
                test_tool_with_logging,
                test_error_handling,
                test_tool_with_progress,
                test_sampling,
                test_elicitation,
            ],
        )
    ]
)


def create_server() -> Server[Any]:
    """The conformance target."""
    return mcp_server(registry, ConformanceCall, name="adecore-conformance", version="1.0")


if __name__ == "__main__":
    serve_http(create_server().streamable_http_app(host="127.0.0.1"))
