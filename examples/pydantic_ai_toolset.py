"""The notes tools in a Pydantic AI agent, as the toolset `adecore_tools.pydantic_ai` gives.

    python examples/pydantic_ai_toolset.py    # prints the tools the agent lists; no model

`RegistryToolset(registry, make_call=note_call)` lists every notes tool, with strict mode where
the tool allows it. The host runs the agent with dependencies of its own, here a `Session` of
`notes.py`: who is asking, and the document they work on. For each call, `note_call` builds the
`NoteCall` the tools see from them, deciding there what this caller may do:

    agent = notes_agent("openai:gpt-5.5")
    await agent.run("Write down: buy milk", deps=Session("ada", doc))

The model reads back the tool's lines, or a refusal's text, which says what to fix. (This file is
not called `pydantic_ai.py`: run as a script, that name would hide the real package.)
"""

from __future__ import annotations

import asyncio
import json
import sys

# `examples/` is not a package: Python puts a script's own folder first on `sys.path`.
from notes import Document, NoteCall, Session, registry, session_call

if sys.version_info < (3, 11):  # as for Pydantic AI; the type checkers read this file as 3.10 too
    msg = "adecore_tools.pydantic_ai, like Pydantic AI, needs Python 3.11 or newer"
    raise RuntimeError(msg)

from pydantic_ai import Agent, RunContext
from pydantic_ai.models import Model
from pydantic_ai.models.test import TestModel

from adecore_tools.pydantic_ai import RegistryToolset


def note_call(ctx: RunContext[Session]) -> NoteCall:
    """The call object of one call, from the run's deps: their session decides what it may do."""
    return session_call(ctx.deps)


def notes_agent(model: str | Model) -> Agent[Session, str]:
    """An agent that keeps notes, for runs whose dependencies are a `Session`."""
    return Agent(
        model,
        deps_type=Session,
        instructions="Keep the user's notes with the note tools. Read before you write.",
        toolsets=[RegistryToolset(registry, make_call=note_call)],
    )


async def listed() -> list[dict[str, object]]:
    """The tool definitions the agent lists for a model, as Pydantic AI sends them on."""
    model = TestModel(call_tools=[])  # stands in for a model: it only records the request
    await notes_agent(model).run("List the tools", deps=Session("ada", Document()))
    parameters = model.last_model_request_parameters
    return [
        {
            "name": definition.name,
            "description": definition.description,
            "parameters": definition.parameters_json_schema,
            "strict": definition.strict,
        }
        for definition in (parameters.function_tools if parameters else [])
    ]


def main() -> None:
    """Print what Pydantic AI will show a model for the notes tools."""
    for listing in asyncio.run(listed()):
        print(json.dumps(listing, indent=2))


if __name__ == "__main__":
    main()
