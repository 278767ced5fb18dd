"""What each place a host sends its tools to lists for one tool: MCP, OpenAI, Anthropic, Gemini.

An entry is put together from the tool's schemas, each rendered once per profile and kept
(`ToolInput.rendered`); the registry keeps each listing it was asked for and hands out copies.
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

from typing_extensions import NotRequired, TypedDict

from .listed import Listed

__all__ = [
    "AnthropicTool",
    "GeminiFunction",
    "OpenAIChatTool",
    "OpenAITool",
    "anthropic_entry",
    "gemini_entry",
    "mcp_entry",
    "openai_chat_entry",
    "openai_entry",
]

OpenAIApi = Literal["responses", "chat"]

Schema: TypeAlias = Any
"""A JSON Schema dict. Each SDK types it its own way (`Dict[str, object]`, `Optional`, a union);
`Any` is the one type every SDK's own takes, so a host passes a listing on without a cast."""


# Each entry type has every key of the SDK's own parameter type (named in its docstring; openai
# 3.63, anthropic 2.17, google-genai 3.6), required where the SDK requires it, since a type checker
# compares TypedDicts key by key; a key this package never writes is `NotRequired[Any]`, which
# matches whatever type the SDK gives it. The SDKs are not imported.

_Keyword = TypedDict("_Keyword", {"async": NotRequired[Any]})
"""The key of `FunctionToolParam` that is a Python keyword."""


class OpenAITool(_Keyword):
    """A Responses API function tool, as `openai.types.responses.FunctionToolParam`."""

    type: Literal["function"]
    name: str
    description: NotRequired[str | None]
    parameters: Schema
    strict: bool | None
    allowed_callers: NotRequired[Any]
    defer_loading: NotRequired[Any]
    output_schema: NotRequired[Any]


class OpenAIFunction(TypedDict):
    """A Chat Completions function, as `openai.types.shared_params.FunctionDefinition`."""

    name: str
    description: NotRequired[str]
    parameters: NotRequired[Schema]
    strict: NotRequired[bool | None]


class OpenAIChatTool(TypedDict):
    """A Chat Completions tool, as `openai.types.chat.ChatCompletionFunctionToolParam`."""

    type: Literal["function"]
    function: OpenAIFunction


class AnthropicTool(TypedDict):
    """An Anthropic tool, as `anthropic.types.ToolParam`."""

    name: str
    description: NotRequired[str]
    input_schema: Schema
    strict: NotRequired[bool]
    type: NotRequired[Any]
    allowed_callers: NotRequired[Any]
    cache_control: NotRequired[Any]
    defer_loading: NotRequired[Any]
    eager_input_streaming: NotRequired[Any]
    input_examples: NotRequired[Any]


class GeminiFunction(TypedDict, total=False):
    """A Gemini function declaration, as `google.genai.types.FunctionDeclarationDict`.

    This package writes `parametersJsonSchema`, the REST API's name, which the SDK reads too.
    """

    name: str | None
    description: str | None
    parameters: Schema
    parametersJsonSchema: Schema
    parameters_json_schema: Any
    response: Any
    response_json_schema: Any
    behavior: Any


def mcp_entry(t: Listed, returned: dict[str, Any] | None, *, in_words: bool) -> dict[str, Any]:
    """The MCP `tools/list` entry: name, title, description, schemas and annotations.

    `returned` is the tool's output schema, kept (`None` for a tool with no output model).
    """
    notes = t.annotations
    hints: dict[str, Any] = {"readOnlyHint": notes.read_only, "destructiveHint": notes.destructive}
    if notes.idempotent is not None:
        hints["idempotentHint"] = notes.idempotent
    if notes.open_world is not None:
        hints["openWorldHint"] = notes.open_world
    if notes.title is not None:
        hints["title"] = notes.title
    entry: dict[str, Any] = {"name": t.name}
    if notes.title is not None:
        entry["title"] = notes.title
    entry["description"] = t.description
    entry["inputSchema"] = t.input.rendered("mcp", in_words=in_words)
    if returned is not None:
        entry["outputSchema"] = returned
    entry["annotations"] = hints
    return entry


def openai_entry(t: Listed, *, strict: bool, in_words: bool) -> OpenAITool:
    """An OpenAI Responses function tool, strict where the strict profile can state the tool.

    A tool it cannot state (a record) is listed with `"strict": false` and its MCP schema: one
    record field does not stop a whole listing.
    """
    parameters = _stated(t, "openai-strict", in_words=in_words) if strict else None
    return {
        "type": "function",
        "name": t.name,
        "description": t.description,
        "parameters": parameters or t.input.rendered("mcp", in_words=in_words),
        "strict": parameters is not None,
    }


def openai_chat_entry(t: Listed, *, strict: bool, in_words: bool) -> OpenAIChatTool:
    """The same function tool, as Chat Completions nests it."""
    flat = openai_entry(t, strict=strict, in_words=in_words)
    function: OpenAIFunction = {
        "name": flat["name"],
        "description": t.description,
        "parameters": flat["parameters"],
        "strict": flat["strict"],
    }
    return {"type": "function", "function": function}


def anthropic_entry(t: Listed, *, strict: bool, in_words: bool) -> AnthropicTool:
    """An Anthropic tool; `"strict": true` where its strict tool use can take the tool.

    Strict tool use closes every object, so a tool with a record (an open object) is listed with
    its `anthropic` schema, not strict.
    """
    schema = _stated(t, "anthropic-strict", in_words=in_words) if strict else None
    entry: AnthropicTool = {
        "name": t.name,
        "description": t.description,
        "input_schema": schema or t.input.rendered("anthropic", in_words=in_words),
    }
    if schema is not None:
        entry["strict"] = True
    return entry


def gemini_entry(t: Listed, *, in_words: bool) -> GeminiFunction:
    """A Gemini function declaration: `parameters` in Gemini's subset of OpenAPI.

    A tool with no fields has no `parameters`, as Gemini asks. One the subset cannot state (a
    record, an object with no properties) gives its JSON Schema as `parametersJsonSchema`.
    """
    entry: GeminiFunction = {"name": t.name, "description": t.description}
    if not t.input.fields:
        return entry
    try:
        entry["parameters"] = t.input.rendered("gemini", in_words=in_words)
    except ValueError:
        entry["parametersJsonSchema"] = t.input.rendered("mcp", in_words=in_words)
    return entry


def _stated(t: Listed, profile: str, *, in_words: bool) -> dict[str, Any] | None:
    """The tool's schema in `profile`, or None where the profile cannot state it."""
    try:
        return t.input.rendered(profile, in_words=in_words)
    except ValueError:
        return None
