"""The notes tools in a LangChain agent, as the tools `adecore_tools.langchain` gives.

    python examples/langchain_agent.py    # prints the tools as a chat model is sent them; no model

`langchain_tools(registry, make_call=note_call)` gives every notes tool as a LangChain tool, with
its `openai-strict` schema where the tool allows it. The host runs the agent with a context of
its own, here a `Session` of `notes.py`: who is asking, and the document they work on. For each
call, `note_call` builds the `NoteCall` the tools see from LangGraph's tool runtime, deciding
there what this caller may do:

    agent = notes_agent(init_chat_model("openai:gpt-5.5"))
    messages = {"messages": [("user", "Write down: buy milk")]}
    await agent.ainvoke(messages, context=Session("ada", doc))

The model reads back the tool's lines, or a refusal's text (an error tool message), which says
what to fix. (This file is not called `langchain.py`: run as a script, that name would hide the
real package.)
"""

from __future__ import annotations

import json
from typing import Any

from langchain.agents import create_agent  # pyright: ignore[reportUnknownVariableType]
from langchain_core.language_models import BaseChatModel
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.prebuilt import ToolRuntime

# `examples/` is not a package: Python puts a script's own folder first on `sys.path`.
from notes import NoteCall, Session, registry, session_call

from adecore_tools.langchain import langchain_tools


def note_call(runtime: ToolRuntime[Session, Any]) -> NoteCall:
    """The call object of one call, from the run's context: its session decides what it may do."""
    return session_call(runtime.context)


def notes_agent(model: BaseChatModel) -> Any:
    """An agent that keeps notes, for runs whose context is a `Session`."""
    return create_agent(
        model,
        langchain_tools(registry, make_call=note_call),
        system_prompt="Keep the user's notes with the note tools. Read before you write.",
        context_schema=Session,
    )


def listed() -> list[dict[str, Any]]:
    """The tools as a chat model's `bind_tools(..., strict=True)` sends them, where strict fits."""
    return [
        convert_to_openai_tool(tool, strict=(tool.metadata or {}).get("strict"))
        for tool in langchain_tools(registry, make_call=note_call)
    ]


def main() -> None:
    """Print what LangChain will show a model for the notes tools."""
    for listing in listed():
        print(json.dumps(listing, indent=2))


if __name__ == "__main__":
    main()
