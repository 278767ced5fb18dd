"""One turn of a tool loop on OpenAI's Responses API, with the `openai` SDK and the notes tools.

    OPENAI_API_KEY=... python examples/openai_responses.py "Write down: buy milk"

It reads three environment variables:

- `OPENAI_API_KEY`: the key to send (required);
- `OPENAI_BASE_URL`: the API's address, ending in `/v1` (default: OpenAI's own), to use any
  server that speaks the Responses API;
- `OPENAI_MODEL`: a model that calls tools (default `gpt-5.5`).

The request lists `registry.openai_tools()`, strict function tools. The model answers with
`function_call` items, each a `call_id`, a tool name and the arguments as JSON text, which go as
they came to `registry.call`, which reads JSON text. Each result (the tool's lines, or a refusal's
`refusal_body`, which tells the model what to fix) goes back as a `function_call_output` item with
the same `call_id`, in a request that continues the first (`previous_response_id`); the model then
answers in text. A host that keeps nothing on OpenAI's side (`store=False`) sends the first
response's output items again in `input` instead.
"""

from __future__ import annotations

import asyncio
import os
import sys

from openai import AsyncOpenAI
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseInputItemParam,
)
from openai.types.responses.response_input_item_param import FunctionCallOutput

from adecore_tools import ToolRegistry


async def answer(
    client: AsyncOpenAI, model: str, prompt: str, registry: ToolRegistry, call: object
) -> str:
    """Ask `prompt` with the registry's tools, run the calls the model makes, and say its answer.

    `call` is the call object every tool receives: the host decides what this turn may touch.
    """
    # Plain dicts of the SDK's shape, typed so that `create` takes them as they are.
    tools = registry.openai_tools()
    first = await client.responses.create(model=model, input=prompt, tools=tools)
    outputs: list[ResponseInputItemParam] = [
        await output(registry, item, call)
        for item in first.output
        if isinstance(item, ResponseFunctionToolCall)
    ]
    if not outputs:
        return first.output_text
    second = await client.responses.create(
        model=model, previous_response_id=first.id, input=outputs, tools=tools
    )
    return second.output_text


async def output(
    registry: ToolRegistry, item: ResponseFunctionToolCall, call: object
) -> FunctionCallOutput:
    """Run one call the model made, from its JSON text, and say what came of it."""
    print(f"> {item.name} {item.arguments}")
    result = await registry.call(item.name, item.arguments, call)
    print(result.text)
    return {"type": "function_call_output", "call_id": item.call_id, "output": result.text}


async def main() -> None:
    """One turn over a new document, as the command line asks."""
    # `examples/` is not a package: Python puts a script's own folder first on `sys.path`.
    from notes import Document, NoteCall, registry  # noqa: PLC0415

    prompt = " ".join(sys.argv[1:]) or "Write down: buy milk"
    async with AsyncOpenAI(
        api_key=os.environ.get("OPENAI_API_KEY"), base_url=os.environ.get("OPENAI_BASE_URL")
    ) as client:
        model = os.environ.get("OPENAI_MODEL", "gpt-5.5")
        call = NoteCall(Document(), may_write=True)
        print(await answer(client, model, prompt, registry, call))


if __name__ == "__main__":
    asyncio.run(main())
