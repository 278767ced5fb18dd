"""One turn of a tool loop on Gemini's generateContent (`google-genai` SDK), over the notes tools.

    GEMINI_API_KEY=... python examples/gemini_generate.py "Write down: buy milk"

It reads three environment variables:

- `GEMINI_API_KEY`: the key to send (required);
- `GEMINI_BASE_URL`: the API's address, without a version (default: Google's own), to use any
  server that speaks the Gemini API;
- `GEMINI_MODEL`: a model that calls functions (default `gemini-3.8-flash`).

The request declares `registry.gemini_tools()`, read into the SDK's `FunctionDeclaration`. The
model answers with `functionCall` parts, each an `id`, a function name and the arguments as a dict
(`args`), which goes as it came to `registry.call`. The host sends the whole conversation again:
the user's message, the model's message as it came (it may carry thought signatures the model
needs back), then a user message of one `functionResponse` part per call, with the same `id` and
name, whose response is `{"output": <the tool's lines>}`, or `{"error": <refusal_body>}` for a
refusal (which tells the model what to fix). The model then answers in text.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

from google import genai
from google.genai import types
from google.genai.client import AsyncClient

from adecore_tools import ToolRegistry

# google-genai's `contents` types name Pillow's `Image`, which a checker cannot know unless Pillow
# is installed: only that one unknown, in the SDK's own signature, is let through here.
# pyright: reportUnknownMemberType=false


async def answer(
    client: AsyncClient, model: str, prompt: str, registry: ToolRegistry, call: object
) -> str:
    """Ask `prompt` with the registry's tools, run the calls the model makes, and say its answer.

    `call` is the call object every tool receives: the host decides what this turn may touch.
    """
    declarations = [types.FunctionDeclaration.model_validate(d) for d in registry.gemini_tools()]
    config = types.GenerateContentConfig(tools=[types.Tool(function_declarations=declarations)])
    contents = [types.Content(role="user", parts=[types.Part(text=prompt)])]
    reply = await client.models.generate_content(model=model, contents=contents, config=config)
    parts = [await function_response(registry, fc, call) for fc in reply.function_calls or []]
    if parts and reply.candidates and reply.candidates[0].content:
        contents += [reply.candidates[0].content, types.Content(role="user", parts=parts)]
        reply = await client.models.generate_content(model=model, contents=contents, config=config)
    return reply.text or ""


async def function_response(
    registry: ToolRegistry, fc: types.FunctionCall, call: object
) -> types.Part:
    """Run one call the model made, from its dict, and say what came of it."""
    print(f"> {fc.name} {json.dumps(fc.args)}")
    result = await registry.call(fc.name or "", fc.args, call)
    print(result.text)
    key = "error" if result.is_error else "output"
    reply = types.FunctionResponse(id=fc.id, name=fc.name, response={key: result.text})
    return types.Part(function_response=reply)


async def main() -> None:
    """One turn over a new document, as the command line asks."""
    # `examples/` is not a package: Python puts a script's own folder first on `sys.path`.
    from notes import Document, NoteCall, registry  # noqa: PLC0415

    prompt = " ".join(sys.argv[1:]) or "Write down: buy milk"
    with genai.Client(
        api_key=os.environ.get("GEMINI_API_KEY"),
        http_options=types.HttpOptions(base_url=os.environ.get("GEMINI_BASE_URL")),
    ) as client:
        async with client.aio as aio:
            model = os.environ.get("GEMINI_MODEL", "gemini-3.8-flash")
            call = NoteCall(Document(), may_write=True)
            print(await answer(aio, model, prompt, registry, call))


if __name__ == "__main__":
    asyncio.run(main())
