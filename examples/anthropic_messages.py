"""One turn of a tool loop on Anthropic's Messages API (`anthropic` SDK), over the notes tools.

    ANTHROPIC_API_KEY=... python examples/anthropic_messages.py "Write down: buy milk"

It reads three environment variables:

- `ANTHROPIC_API_KEY`: the key to send (required);
- `ANTHROPIC_BASE_URL`: the API's address, without `/v1` (default: Anthropic's own), to use any
  server that speaks the Messages API;
- `ANTHROPIC_MODEL`: a model that uses tools (default `claude-sonnet-5-5`).

The request lists `registry.anthropic_tools()`, strict where a tool allows it. The model answers
with `tool_use` blocks, each an `id`, a tool name and the arguments as a dict (`input`), which
goes as it came to `registry.call`. The host sends the whole conversation again: the user's
message, the model's message as it came, then a user message of one `tool_result` block per call,
with the same `tool_use_id`, holding the tool's lines, or a refusal's `refusal_body` (which tells
the model what to fix) with `is_error: true`. The model then answers in text.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

from anthropic import AsyncAnthropic
from anthropic.types import MessageParam, ToolResultBlockParam, ToolUseBlock

from adecore_tools import ToolRegistry


async def answer(
    client: AsyncAnthropic, model: str, prompt: str, registry: ToolRegistry, call: object
) -> str:
    """Ask `prompt` with the registry's tools, run the calls the model makes, and say its answer.

    `call` is the call object every tool receives: the host decides what this turn may touch.
    """
    # Plain dicts of the SDK's shape, typed so that `create` takes them as they are.
    tools = registry.anthropic_tools()
    messages: list[MessageParam] = [{"role": "user", "content": prompt}]
    reply = await client.messages.create(
        model=model, max_tokens=1024, messages=messages, tools=tools
    )
    results = [
        await result_block(registry, block, call)
        for block in reply.content
        if isinstance(block, ToolUseBlock)
    ]
    if results:
        messages.append({"role": "assistant", "content": reply.content})
        messages.append({"role": "user", "content": results})
        reply = await client.messages.create(
            model=model, max_tokens=1024, messages=messages, tools=tools
        )
    return "".join(block.text for block in reply.content if block.type == "text")


async def result_block(
    registry: ToolRegistry, block: ToolUseBlock, call: object
) -> ToolResultBlockParam:
    """Run one call the model made, from its dict, and say what came of it."""
    print(f"> {block.name} {json.dumps(block.input)}")
    result = await registry.call(block.name, block.input, call)
    print(result.text)
    return {
        "type": "tool_result",
        "tool_use_id": block.id,
        "content": result.text,
        "is_error": result.is_error,
    }


async def main() -> None:
    """One turn over a new document, as the command line asks."""
    # `examples/` is not a package: Python puts a script's own folder first on `sys.path`.
    from notes import Document, NoteCall, registry  # noqa: PLC0415

    prompt = " ".join(sys.argv[1:]) or "Write down: buy milk"
    async with AsyncAnthropic(
        api_key=os.environ.get("ANTHROPIC_API_KEY"), base_url=os.environ.get("ANTHROPIC_BASE_URL")
    ) as client:
        model = os.environ.get("ANTHROPIC_MODEL", "claude-sonnet-5-5")
        call = NoteCall(Document(), may_write=True)
        print(await answer(client, model, prompt, registry, call))


if __name__ == "__main__":
    asyncio.run(main())
