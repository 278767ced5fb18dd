"""A host that hands each provider listing to the provider's own SDK, with no cast.

Never run: `tests/render/test_listing_types.py` type-checks it with `mypy --strict` and pyright
(strict), so each listing's type must be one the SDK's `create(tools=...)` takes.
"""

from __future__ import annotations

from anthropic import AsyncAnthropic
from google.genai import types
from openai import AsyncOpenAI

from adecore_tools import ToolRegistry


async def openai_responses(client: AsyncOpenAI, registry: ToolRegistry) -> str:
    response = await client.responses.create(
        model="m", input="hi", tools=registry.openai_tools(api="responses")
    )
    tools = registry.openai_tools()
    await client.responses.create(model="m", input="hi", tools=tools, previous_response_id="r")
    return response.output_text


async def openai_chat(client: AsyncOpenAI, registry: ToolRegistry) -> str | None:
    completion = await client.chat.completions.create(
        model="m",
        messages=[{"role": "user", "content": "hi"}],
        tools=registry.openai_tools(api="chat"),
    )
    return completion.choices[0].message.content


async def anthropic_messages(client: AsyncAnthropic, registry: ToolRegistry) -> str:
    message = await client.messages.create(
        model="m",
        max_tokens=16,
        messages=[{"role": "user", "content": "hi"}],
        tools=registry.anthropic_tools(),
    )
    await client.messages.create(
        model="m",
        max_tokens=16,
        messages=[{"role": "user", "content": "hi"}],
        tools=registry.anthropic_tools(strict=False),
    )
    return message.id


def gemini_config(registry: ToolRegistry) -> types.GenerateContentConfigDict:
    """The config `client.models.generate_content(..., config=...)` takes.

    The list is spread into one of the SDK's own element type (`list` is invariant).
    """
    return {"tools": [{"function_declarations": [*registry.gemini_tools()]}]}


def read_back(registry: ToolRegistry) -> list[object]:
    """What a host reads from the entries needs no cast either."""
    flat = registry.openai_tools()[0]
    nested = registry.openai_tools(api="chat")[0]
    claude = registry.anthropic_tools()[0]
    gemini = registry.gemini_tools()[0]
    return [
        flat["name"],
        flat["parameters"]["properties"],
        flat["strict"],
        nested["function"]["name"],
        claude["input_schema"]["properties"],
        claude.get("strict", False),
        gemini.get("parameters"),
    ]
