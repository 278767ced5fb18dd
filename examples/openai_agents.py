"""The notes tools in an OpenAI Agents SDK agent, given by `adecore_tools.openai_agents`.

    python examples/openai_agents.py    # prints the tools the agent is given; no model, no network

`agent_tools(registry, make_call=note_call)` is one `FunctionTool` per notes tool, in strict mode
where OpenAI's strict mode can state the tool. The host runs the agent with a context of its own,
here a `Session` of `notes.py`: who is asking, and the document they work on. For each call,
`note_call` builds the `NoteCall` the tools see from it, deciding there what this caller may do:

    agent = notes_agent()  # or notes_agent("gpt-5.5"); the SDK's default model without one
    await Runner.run(agent, "Write down: buy milk", context=Session("ada", doc))

The model reads back the tool's lines, or a refusal's text, which says what to fix.
"""

from __future__ import annotations

import json

from agents import Agent, FunctionTool, Model
from agents.tool_context import ToolContext

# `examples/` is not a package: Python puts a script's own folder first on `sys.path`.
from notes import NoteCall, Session, registry, session_call

from adecore_tools.openai_agents import agent_tools


def note_call(ctx: ToolContext[Session]) -> NoteCall:
    """The call object of one call, from the run's context: its session decides what it may do."""
    return session_call(ctx.context)


def notes_agent(model: str | Model | None = None) -> Agent[Session]:
    """An agent that keeps notes, for runs whose context is a `Session`."""
    return Agent[Session](
        name="notes",
        instructions="Keep the user's notes with the note tools. Read before you write.",
        model=model,
        tools=agent_tools(registry, make_call=note_call),
    )


def main() -> None:
    """Print what the Agents SDK will show a model for the notes tools."""
    for ft in notes_agent().tools:
        if isinstance(ft, FunctionTool):
            listing = {
                "name": ft.name,
                "description": ft.description,
                "parameters": ft.params_json_schema,
                "strict": ft.strict_json_schema,
            }
            print(json.dumps(listing, indent=2))


if __name__ == "__main__":
    main()
