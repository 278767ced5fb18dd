"""The table of docs/compared.md, shown against the real peers.

Every system gets the same function, `place`: a string, a nested object, an optional integer and
an integer with a default. Each test backs one row of the table: what this library does, and what
the peer does with the same input, as its users get it by default (the official MCP SDK's
`MCPServer` decorator, fastmcp's `FastMCP`, OpenAI Agents' `function_tool`, Pydantic AI's `Tool`).
A peer that is not installed is skipped. Where a peer behaves like us, the test says so too, so
the table stays honest when a peer improves.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from needs import missing
from typing_extensions import TypedDict

from adecore_tools import (
    ToolRefusal,
    parse_refusal_body,
    parse_tool_input,
    refusal_body,
    tool,
    tool_input_schema,
)

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer


class Point(TypedDict):
    x: int
    y: int


async def place(label: str, at: Point, limit: int | None = None, count: int = 3) -> str:
    """Place a label."""
    return f"placed {label} at {at['x']},{at['y']} (limit {limit}, count {count})"


OURS = tool("compare")(place)

THREE_PROBLEMS = {"label": 5, "at": {"x": "a"}}
NULL_FOR_A_DEFAULT = {"label": "a", "at": {"x": 1, "y": 2}, "count": None}
A_TYPO = {"label": "a", "at": {"x": 1, "y": 2}, "cuont": 4}


async def _await(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


# What each peer lists for `place`, and what a model reads back for a call: (is it an error, text).


def _mcp_sdk_schema() -> dict[str, Any]:
    from mcp.server.mcpserver import MCPServer  # noqa: PLC0415 - only when the peer is there

    server = MCPServer("peer")
    server.tool()(place)
    [listed] = asyncio.run(server.list_tools())
    return listed.input_schema


def _mcp_sdk_reply(arguments: dict[str, Any]) -> tuple[bool, str]:
    from mcp import Client, types  # noqa: PLC0415
    from mcp.server.mcpserver import MCPServer  # noqa: PLC0415

    server = MCPServer("peer")
    server.tool()(place)

    async def call() -> types.CallToolResult:
        async with Client(server) as client:
            return await client.call_tool("place", arguments)

    result = asyncio.run(call())
    [content] = result.content
    assert isinstance(content, types.TextContent)
    return result.is_error, content.text


def _mcp_sdk_name(name: str) -> str:
    from mcp.server.mcpserver import MCPServer  # noqa: PLC0415

    server = MCPServer("peer")
    server.tool(name=name)(place)
    [listed] = asyncio.run(server.list_tools())
    return listed.name


def _fastmcp_schema() -> dict[str, Any]:
    import fastmcp  # noqa: PLC0415

    server = fastmcp.FastMCP("peer")
    server.tool(place)
    [listed] = asyncio.run(server.list_tools())
    return listed.parameters


def _fastmcp_reply(arguments: dict[str, Any]) -> tuple[bool, str]:
    import fastmcp  # noqa: PLC0415

    server = fastmcp.FastMCP("peer")
    server.tool(place)

    async def call() -> Any:
        async with fastmcp.Client(server) as client:
            return await client.call_tool("place", arguments, raise_on_error=False)

    result = asyncio.run(call())
    [content] = result.content
    return result.is_error, content.text


def _fastmcp_name(name: str) -> str:
    import fastmcp  # noqa: PLC0415

    server = fastmcp.FastMCP("peer")
    server.tool(place, name=name)
    [listed] = asyncio.run(server.list_tools())
    return listed.name


def _agents_schema() -> dict[str, Any]:
    from agents import function_tool  # noqa: PLC0415

    return function_tool(place).params_json_schema


def _agents_reply(arguments: dict[str, Any]) -> tuple[bool, str]:
    from agents import function_tool  # noqa: PLC0415
    from agents.tool_context import ToolContext  # noqa: PLC0415

    ft = function_tool(place)
    text = json.dumps(arguments)
    ctx = ToolContext(context=None, tool_name=ft.name, tool_call_id="c1", tool_arguments=text)
    output = str(asyncio.run(_await(ft.on_invoke_tool(ctx, text))))
    return not output.startswith("placed"), output


def _agents_name(name: str) -> str:
    from agents import function_tool  # noqa: PLC0415

    return function_tool(place, name_override=name).name


def _pydantic_ai_schema() -> dict[str, Any]:
    from pydantic_ai import Tool  # noqa: PLC0415

    return Tool(place).tool_def.parameters_json_schema


def _pydantic_ai_reply(arguments: dict[str, Any]) -> tuple[bool, str]:
    from pydantic_ai import Agent, Tool  # noqa: PLC0415
    from pydantic_ai.messages import (  # noqa: PLC0415
        ModelMessage,
        ModelRequest,
        ModelResponse,
        RetryPromptPart,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
    )
    from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: PLC0415

    def model(messages: list[ModelMessage], _info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("place", arguments, tool_call_id="c1")])
        return ModelResponse(parts=[TextPart("done")])

    result = asyncio.run(Agent(FunctionModel(model), tools=[Tool(place)]).run("go"))
    [part] = [
        part
        for message in result.all_messages()
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart | RetryPromptPart)
    ]
    if isinstance(part, RetryPromptPart):
        return True, part.model_response()
    # Pydantic AI 2.x answers a failed validation with a tool return whose outcome is "retried".
    return part.outcome != "success", part.model_response_str()


def _pydantic_ai_name(name: str) -> str:
    from pydantic_ai import Tool  # noqa: PLC0415

    return Tool(place, name=name).tool_def.name


# What a model reads when the tool itself refuses, the way each peer's documentation says to.

STALE = "The document is at revision 1; read it again before writing."


def _mcp_sdk_own_error() -> str:
    from mcp import Client, types  # noqa: PLC0415
    from mcp.server.mcpserver import MCPServer  # noqa: PLC0415
    from mcp.server.mcpserver.exceptions import ToolError  # noqa: PLC0415

    async def write(text: str) -> str:
        """Write a note."""
        raise ToolError(STALE)

    server = MCPServer("peer")
    server.tool()(write)

    async def call() -> types.CallToolResult:
        async with Client(server) as client:
            return await client.call_tool("write", {"text": "x"})

    result = asyncio.run(call())
    assert result.is_error
    [content] = result.content
    assert isinstance(content, types.TextContent)
    return content.text


def _fastmcp_own_error() -> str:
    import fastmcp  # noqa: PLC0415
    from fastmcp.exceptions import ToolError  # noqa: PLC0415

    async def write(text: str) -> str:
        """Write a note."""
        raise ToolError(STALE)

    server = fastmcp.FastMCP("peer")
    server.tool(write)

    async def call() -> Any:
        async with fastmcp.Client(server) as client:
            return await client.call_tool("write", {"text": "x"}, raise_on_error=False)

    result = asyncio.run(call())
    assert result.is_error
    [content] = result.content
    return content.text


def _agents_own_error() -> str:
    from agents import function_tool  # noqa: PLC0415
    from agents.tool_context import ToolContext  # noqa: PLC0415

    async def write(text: str) -> str:
        """Write a note."""
        raise RuntimeError(STALE)

    ft = function_tool(write)
    text = json.dumps({"text": "x"})
    ctx = ToolContext(context=None, tool_name=ft.name, tool_call_id="c1", tool_arguments=text)
    return str(asyncio.run(_await(ft.on_invoke_tool(ctx, text))))


def _pydantic_ai_own_error() -> str:
    from pydantic_ai import Agent, ModelRetry, Tool  # noqa: PLC0415
    from pydantic_ai.messages import (  # noqa: PLC0415
        ModelMessage,
        ModelRequest,
        ModelResponse,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
    )
    from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: PLC0415

    async def write(text: str) -> str:
        """Write a note."""
        raise ModelRetry(STALE)

    def model(messages: list[ModelMessage], _info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("write", {"text": "x"}, tool_call_id="c1")])
        return ModelResponse(parts=[TextPart("done")])

    result = asyncio.run(Agent(FunctionModel(model), tools=[Tool(write)]).run("go"))
    [part] = [
        part
        for message in result.all_messages()
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]
    return part.model_response_str()


PEERS: dict[str, tuple[str, dict[str, Callable[..., Any]]]] = {
    "mcp-sdk": (
        "mcp",
        {
            "schema": _mcp_sdk_schema,
            "reply": _mcp_sdk_reply,
            "name": _mcp_sdk_name,
            "own_error": _mcp_sdk_own_error,
        },
    ),
    "fastmcp": (
        "fastmcp",
        {
            "schema": _fastmcp_schema,
            "reply": _fastmcp_reply,
            "name": _fastmcp_name,
            "own_error": _fastmcp_own_error,
        },
    ),
    "openai-agents": (
        "agents",
        {
            "schema": _agents_schema,
            "reply": _agents_reply,
            "name": _agents_name,
            "own_error": _agents_own_error,
        },
    ),
    "pydantic-ai": (
        "pydantic_ai",
        {
            "schema": _pydantic_ai_schema,
            "reply": _pydantic_ai_reply,
            "name": _pydantic_ai_name,
            "own_error": _pydantic_ai_own_error,
        },
    ),
}


@pytest.fixture(params=list(PEERS))
def peer(request: pytest.FixtureRequest) -> tuple[str, dict[str, Callable[..., Any]]]:
    module, calls = PEERS[request.param]
    pytest.importorskip(module, reason=missing(module))
    return request.param, calls


# Row: nested objects are written out in place (no `$ref`, no `$defs`).


def test_ours_writes_a_nested_object_in_place():
    assert tool_input_schema(OURS) == {
        "type": "object",
        "properties": {
            "label": {"type": "string"},
            "at": {
                "type": "object",
                "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
                "required": ["x", "y"],
            },
            "limit": {"type": "integer"},
            "count": {"type": "integer"},
        },
        "required": ["label", "at"],
    }


def test_peer_nested_object(peer):
    name, calls = peer
    schema = calls["schema"]()
    text = json.dumps(schema)
    if name == "fastmcp":
        # fastmcp inlines what pydantic puts under $defs: on this row it is as good as ours.
        assert "$ref" not in text
        assert schema["properties"]["at"]["type"] == "object"
    else:
        assert schema["properties"]["at"] == {"$ref": "#/$defs/Point"}
        assert "Point" in schema["$defs"]


# Row: an optional field is its plain type (no `anyOf` with a null branch).


def test_ours_writes_an_optional_field_as_its_plain_type():
    assert tool_input_schema(OURS)["properties"]["limit"] == {"type": "integer"}


def test_peer_optional_field_is_an_anyof_with_null(peer):
    name, calls = peer
    schema = calls["schema"]()
    assert {"type": "null"} in schema["properties"]["limit"]["anyOf"]
    if name == "openai-agents":
        # Strict mode, the default, also makes it required: the model must send a value or null.
        assert schema["required"] == ["label", "at", "limit", "count"]
    else:
        assert schema["required"] == ["label", "at"]


# Row: null means "left out": the default applies.


def test_ours_reads_null_as_left_out():
    assert parse_tool_input(OURS, NULL_FOR_A_DEFAULT)["count"] == 3


def test_peer_refuses_null_for_a_field_with_a_default(peer):
    _, calls = peer
    is_error, text = calls["reply"](NULL_FOR_A_DEFAULT)
    assert is_error, text
    assert not text.startswith("placed")


# Row: every problem, in one line a model can act on, with the fields line.


def test_ours_lists_every_problem_in_one_line():
    with pytest.raises(ToolRefusal) as caught:
        parse_tool_input(OURS, THREE_PROBLEMS)
    assert refusal_body(caught.value) == (
        "refused\tbad-arguments\tlabel: expected a string, got 5; "
        'at.x: expected an integer, got "a"; at.y: missing, expected an integer\n'
        "fields\tlabel\tat\tlimit\tcount"
    )


def test_peer_problem_report(peer):
    name, calls = peer
    is_error, text = calls["reply"](THREE_PROBLEMS)
    assert is_error, text
    if name == "openai-agents":
        # The model is told to try again, and not what was wrong.
        assert text == "An error occurred while running the tool. Please try again."
    elif name == "pydantic-ai":
        # Every problem, as a JSON array of pydantic's error objects; no list of the fields.
        errors = json.loads(text)["error"]
        assert [error["loc"] for error in errors] == [["label"], ["at", "x"], ["at", "y"]]
        assert "limit" not in text
    else:
        # pydantic's report: several lines per problem, Python reprs and links.
        assert "3 validation errors" in text
        assert text.count("\n") >= 6
        assert "https://errors.pydantic.dev" in text
        assert "input_type=" in text


# Row: an unknown field is refused, naming the closest real one; the refusal lists the fields.


def test_ours_refuses_an_unknown_field_with_a_suggestion():
    with pytest.raises(ToolRefusal) as caught:
        parse_tool_input(OURS, A_TYPO)
    assert caught.value == ToolRefusal(
        "bad-arguments",
        "cuont: unknown field (did you mean 'count'?)",
        ["fields\tlabel\tat\tlimit\tcount"],
    )


def test_peer_unknown_field(peer):
    name, calls = peer
    is_error, text = calls["reply"](A_TYPO)
    if name in {"mcp-sdk", "openai-agents"}:
        # Dropped without a word: the tool runs with `count` at its default.
        assert not is_error
        assert text.startswith("placed a at 1,2 (limit None, count 3)")
    else:
        # Refused, but with no suggestion and no list of the real fields.
        assert is_error, text
        assert "did you mean" not in text.lower()
        assert "limit" not in text


# Row: a tool's own refusal reaches the model as a code, a message and advice rows.


def test_ours_refusal_from_the_tool_keeps_its_code_and_rows():
    @tool("compare")
    async def write(text: str) -> list[str]:
        """Write a note."""
        raise ToolRefusal("stale-revision", STALE, ["revision\t1"])

    with pytest.raises(ToolRefusal) as caught:
        asyncio.run(write.fn(text="x"))
    body = refusal_body(caught.value)
    assert body == f"refused\tstale-revision\t{STALE}\nrevision\t1"
    assert parse_refusal_body(body) == caught.value


def test_peer_refusal_from_the_tool_is_free_text(peer):
    name, calls = peer
    text = calls["own_error"]()
    assert "stale-revision" not in text
    if name == "openai-agents":
        # A raised exception is hidden from the model: it is only told to try again.
        assert text == "An error occurred while running the tool. Please try again."
    elif name == "mcp-sdk":
        assert text == f"Error executing tool write: {STALE}"
    elif name == "fastmcp":
        assert text == STALE
    else:
        assert json.loads(text) == {"error": STALE}


# Row: tool names are lower snake case, at most 64 characters, enforced at decoration.


def test_ours_refuses_a_name_outside_the_rules():
    with pytest.raises(ValueError, match="lower snake case"):
        tool("compare", name="Place Label!")(place)


def test_peer_accepts_a_name_outside_the_rules(peer):
    _, calls = peer
    assert calls["name"]("Place Label!") == "Place Label!"


# Row: start-up. Importing the package loads two small pure-Python packages, no pydantic.
# (The times are in benchmarks/RESULTS.md; a test asserts no time.)

_IMPORTED = (
    "import json, sys\n"
    "before = set(sys.modules)\n"
    "import {module}\n"
    "new = {{name.split('.')[0] for name in set(sys.modules) - before}}\n"
    "print(json.dumps(sorted(new - set(sys.stdlib_module_names))))\n"
)


def _third_party_imported(module: str) -> set[str]:
    done = subprocess.run(  # noqa: S603 - our interpreter, our code
        [sys.executable, "-c", _IMPORTED.format(module=module)],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(done.stdout))


def test_ours_imports_only_its_two_dependencies():
    assert _third_party_imported("adecore_tools") == {
        "adecore_tools",
        "annotated_types",
        "typing_extensions",
    }


@pytest.mark.slow
@pytest.mark.parametrize(
    ("peer_module", "entry", "among"),
    [
        ("mcp", "mcp.server.lowlevel", {"starlette", "uvicorn"}),
        ("fastmcp", "fastmcp", {"rich"}),
        ("agents", "agents", {"openai", "mcp"}),
        ("pydantic_ai", "pydantic_ai", {"opentelemetry"}),
    ],
)
def test_peer_imports_pydantic_and_more(peer_module, entry, among):
    pytest.importorskip(peer_module, reason=missing(peer_module))
    imported = _third_party_imported(entry)
    assert {"pydantic", "pydantic_core", *among} <= imported
