"""The notes tools in a Google ADK agent, as the toolset `adecore_tools.google_adk` gives.

    python examples/google_adk_agent.py    # prints the declarations Gemini is sent; no model

`RegistryToolset(registry, make_call=note_call)` declares every notes tool from its `gemini`
schema. The host keeps each user's document itself (here in `DOCUMENTS`); `note_call` builds the
`NoteCall` the tools see from ADK's context, whose `user_id` says who is asking, deciding there
what this caller may do: ADK's `ReadonlyContext` to list the tools for a turn, and each call's
`ToolContext` (a `ReadonlyContext` too) to run it:

    agent = notes_agent("gemini-2.5-flash")
    runner = Runner(app_name="notes", agent=agent, session_service=InMemorySessionService())
    async for event in runner.run_async(user_id="ada", session_id=..., new_message=...): ...

The model reads back the tool's lines as `{"result": ...}`, or a refusal's text as ADK's error
result, `{"error": ...}`, which says what to fix.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, cast

from google.adk.agents import LlmAgent
from google.adk.agents.readonly_context import ReadonlyContext
from google.adk.models.llm_request import LlmRequest
from google.genai import types

# `examples/` is not a package: Python puts a script's own folder first on `sys.path`.
from notes import Document, NoteCall, Session, registry, session_call

from adecore_tools.google_adk import RegistryToolset

DOCUMENTS: dict[str, Document] = {"ada": Document(), "bob": Document()}
"""Each user's document, as the host keeps it."""


def note_call(ctx: ReadonlyContext) -> NoteCall:
    """The call object of one call: who is asking decides their document and what they may do."""
    return session_call(Session(ctx.user_id, DOCUMENTS[ctx.user_id]))


def notes_agent(model: str) -> LlmAgent:
    """An agent that keeps notes for the user its runner runs for."""
    return LlmAgent(
        name="notes",
        model=model,
        instruction="Keep the user's notes with the note tools. Read before you write.",
        tools=[RegistryToolset(registry, make_call=note_call)],
    )


async def listed() -> list[dict[str, Any]]:
    """The function declarations ADK puts in a request to Gemini for the notes tools."""
    request = LlmRequest()
    request.append_tools(await RegistryToolset(registry, make_call=note_call).get_tools())
    # google-genai's union of tool kinds holds one that pyright cannot read
    tools = cast("list[object]", request.config.tools or [])  # pyright: ignore[reportUnknownMemberType]
    return [
        declaration.model_dump(mode="json", by_alias=True, exclude_none=True)
        for tool in tools
        if isinstance(tool, types.Tool)
        for declaration in tool.function_declarations or []
    ]


def main() -> None:
    """Print what ADK will show Gemini for the notes tools."""
    for listing in asyncio.run(listed()):
        print(json.dumps(listing, indent=2))


if __name__ == "__main__":
    main()
