"""adecore_tools.mcp, driven in-process by the official MCP Python SDK's own `Client`.

Every test runs on both protocol versions the SDK speaks: `mode="legacy"` is the `initialize`
handshake (2025-11-25) over the SDK's in-memory transport, `mode="auto"` lands on 2026-07-28,
where a call carries its own envelope and the server cannot send the client a request mid-call.
The client checks each `structuredContent` against the tool's `outputSchema`.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import subprocess
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from full_schema import node_schema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from needs import missing

pytest.importorskip("mcp", reason=missing("mcp"))

import mcp_served
from adapter_tools import Caller, whoami
from check.test_differential import (  # the generated types of the differential tests
    any_type,
    values,
)
from mcp import Client, types
from mcp.server import ServerRequestContext

from adecore_tools import (
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    parse_refusal_body,
    tool,
    tool_result,
)
from adecore_tools.mcp import LEVELS, TOOL_FAILED, log_level, logs_at, mcp_server

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer

MODES = ("legacy", "auto")
VERSIONS = {"legacy": "2025-11-25", "auto": "2026-07-28"}


@dataclass
class Seen:
    """What the client's callbacks received during a session."""

    logs: list[tuple[str, object]] = field(default_factory=list)
    progress: list[tuple[float, float | None, str | None]] = field(default_factory=list)
    sampled: list[str] = field(default_factory=list)
    elicited: list[str] = field(default_factory=list)


def _session(server: Any, mode: str, seen: Seen, **options: Any) -> Client:
    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        seen.logs.append((params.level, params.data))

    async def on_sampling(
        _ctx: Any, params: types.CreateMessageRequestParams
    ) -> types.CreateMessageResult:
        [message] = params.messages
        assert isinstance(message.content, types.TextContent)
        seen.sampled.append(message.content.text)
        answer = types.TextContent(text="forty-two")
        return types.CreateMessageResult(role="assistant", content=answer, model="test")

    async def on_elicitation(_ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        seen.elicited.append(params.message)
        return types.ElicitResult(action="accept", content={"name": "Ada"})

    return Client(
        server,
        mode=mode,
        logging_callback=on_log,
        sampling_callback=on_sampling,
        elicitation_callback=on_elicitation,
        **options,
    )


def talk(
    mode: str,
    script: Callable[[Client, Seen], Awaitable[Any]],
    server: Any = None,
    **options: Any,
) -> tuple[Any, Seen]:
    """Run `script(client, seen)` on a new connection to `server` (the served registry's)."""
    seen = Seen()

    async def go() -> Any:
        async with _session(server or mcp_served.create_server(), mode, seen, **options) as c:
            assert c.protocol_version == VERSIONS[mode]
            return await script(c, seen)

    return asyncio.run(go()), seen


def call(
    mode: str, name: str, arguments: dict[str, Any] | None = None, server: Any = None
) -> types.CallToolResult:
    result, _ = talk(mode, lambda c, _: c.call_tool(name, arguments), server)
    return result


def text_of(result: types.CallToolResult) -> str:
    [content] = result.content
    assert isinstance(content, types.TextContent)
    return content.text


def refusal_of(result: types.CallToolResult) -> ToolRefusal:
    assert result.is_error is True
    assert result.structured_content is None
    refusal = parse_refusal_body(text_of(result))
    assert refusal is not None, text_of(result)
    return refusal


async def set_level(client: Client, level: types.LoggingLevel) -> None:
    """`logging/setLevel`, sent as a plain request (the SDK's helper warns it is deprecated)."""
    params = types.SetLevelRequestParams(level=level)
    await client.session.send_request(types.SetLevelRequest(params=params), types.EmptyResult)


# --- the package stays free of it ---------------------------------------------------------------


def test_importing_the_package_imports_neither_the_adapter_nor_the_sdk():
    code = "import sys, adecore_tools; print(sorted(m for m in sys.modules if 'mcp' in m))"
    done = subprocess.run(  # noqa: S603 - our interpreter, our code
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (({"tools": []}, lambda _: None), "takes a ToolRegistry, got dict"),
        ((mcp_served.registry, "not callable"), "make_call is a function"),
    ],
)
def test_mcp_server_checks_what_it_is_given(arguments, message):
    with pytest.raises(TypeError, match=message):
        mcp_server(*arguments, name="x")
    with pytest.raises(TypeError, match="name is the server's name, a str; got None"):
        mcp_server(mcp_served.registry, mcp_served.make_call, name=None)  # type: ignore[arg-type]


# --- initialize and tools/list ------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_the_listing_is_the_registry_listing(mode):
    async def script(client: Client, _: Seen) -> list[dict[str, Any]]:
        listed = (await client.list_tools()).tools
        return [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed]

    listed, _ = talk(mode, script)
    assert listed == json.loads(json.dumps(mcp_served.registry.mcp_tools()))
    assert "outputSchema" in listed[1]  # task_get


def test_initialize_names_the_server_and_offers_tools_and_logging():
    async def script(client: Client, _: Seen) -> Any:
        return client.server_info, client.server_capabilities, client.instructions

    (info, capabilities, instructions), _ = talk("legacy", script)
    assert (info.name, info.version) == ("served", "1.0")
    assert instructions == "Tools for the tests."
    assert capabilities.tools is not None
    assert capabilities.logging is not None


def test_an_unversioned_server_says_an_empty_version():
    server = mcp_server(mcp_served.registry, mcp_served.make_call, name="plain")
    info, _ = talk("legacy", lambda c, _: asyncio.sleep(0, c.server_info), server)
    assert (info.name, info.version) == ("plain", "")


# --- what a call answers ------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_a_text_result_is_one_text_block(mode):
    result = call(mode, "echo", {"text": "Buy milk"})
    assert result.is_error is False
    assert result.content == [types.TextContent(text="Buy milk")]
    assert result.structured_content is None


@pytest.mark.parametrize("mode", MODES)
def test_an_output_model_gives_structured_content_and_its_json_text(mode):
    result = call(mode, "task_get", {"title": "Write", "done": True})
    assert result.is_error is False
    assert result.structured_content == {"title": "Write", "status": "done"}
    assert json.loads(text_of(result)) == result.structured_content


@pytest.mark.parametrize("mode", MODES)
def test_the_client_checks_structured_content_against_the_listed_output_schema(mode):
    """What makes the structured results above worth having passed: a listing that asks for
    more than the tool sends makes the same call fail in the client."""
    listing = mcp_served.registry.mcp_tools()
    [task] = [entry for entry in listing if entry["name"] == "task_get"]
    task["outputSchema"]["required"] = ["title", "owner"]
    lying = types.ListToolsResult(tools=[types.Tool.model_validate(e) for e in listing])

    async def lie(_ctx: Any, _params: Any) -> types.ListToolsResult:
        return lying

    async def script(client: Client, _: Seen) -> str:
        try:
            await client.call_tool("task_get", {"title": "Write"})
        except RuntimeError as error:
            return str(error)
        return "accepted"

    server = mcp_served.create_server()
    server.add_request_handler("tools/list", types.PaginatedRequestParams, lie)
    refused, _ = talk(mode, script, server)
    assert refused.startswith("Invalid structured content returned by tool task_get: 'owner' is")


@pytest.mark.parametrize("mode", MODES)
def test_a_value_that_is_no_object_is_wrapped(mode):
    result = call(mode, "count_words", {"text": "one two three"})
    assert result.structured_content == {"result": 3}
    assert text_of(result) == '{"result":3}'


@pytest.mark.parametrize("mode", MODES)
def test_each_content_block_becomes_its_mcp_block(mode):
    result = call(mode, "snapshot")
    assert result.is_error is False
    text, image, audio, document, blob = result.content
    assert text == types.TextContent(text="A snapshot:")
    assert isinstance(image, types.ImageContent)
    assert (base64.b64decode(image.data), image.mime_type) == (mcp_served.PNG, "image/png")
    assert isinstance(audio, types.AudioContent)
    assert (base64.b64decode(audio.data), audio.mime_type) == (mcp_served.WAV, "audio/wav")
    assert isinstance(document, types.EmbeddedResource)
    assert document.resource == types.TextResourceContents(
        uri="test://served/readme", mime_type="text/plain", text="Read me."
    )
    assert isinstance(blob, types.EmbeddedResource)
    assert isinstance(blob.resource, types.BlobResourceContents)
    assert base64.b64decode(blob.resource.blob) == mcp_served.BLOB
    assert result.structured_content is None


@pytest.mark.parametrize("mode", MODES)
def test_the_tool_own_refusal_is_an_error_result_with_its_body(mode):
    refusal = refusal_of(call(mode, "guarded", {"secret": 3}))
    assert refusal == ToolRefusal("wrong-secret", "That is not the secret.", ["hint\tit is odd"])


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"secret": 10}, "secret: expected at most 9, got 10"),
        ({"secret": "7"}, 'secret: expected an integer, got "7"'),
        ({"secert": 7}, "secret: missing, expected an integer; secert: unknown field"),
        (None, "secret: missing, expected an integer"),
    ],
)
def test_bad_arguments_are_one_refusal(mode, arguments, message):
    refusal = refusal_of(call(mode, "guarded", arguments))
    assert refusal.code == "bad-arguments"
    assert refusal.message.startswith(message)
    assert refusal.lines == ("fields\tsecret",)


@pytest.mark.parametrize("mode", MODES)
def test_an_unknown_tool_is_refused_not_a_protocol_error(mode):
    refusal = refusal_of(call(mode, "ecoh", {"text": "x"}))
    assert refusal.code == "unknown-tool"
    assert "did you mean 'echo'?" in refusal.message
    assert refusal.lines == ("\t".join(("tools", *(t.name for t in mcp_served.registry))),)


@pytest.mark.parametrize("mode", MODES)
def test_any_other_exception_is_logged_and_answered_with_a_generic_text(mode, caplog):
    with caplog.at_level(logging.ERROR, logger="adecore_tools"):
        result = call(mode, "crash")
    assert result.is_error is True
    assert result.content == [types.TextContent(text=TOOL_FAILED)]
    assert parse_refusal_body(TOOL_FAILED) is None
    [record] = [r for r in caplog.records if r.name == "adecore_tools"]
    assert record.levelno == logging.ERROR
    assert "'crash'" in record.getMessage()
    assert record.exc_info is not None
    assert str(record.exc_info[1]) == mcp_served.FAILURE


# --- make_call ----------------------------------------------------------------------------------


@tool("who")
async def miscounted() -> int:
    """Return what its annotation refuses."""
    return "three"  # type: ignore[return-value]


WHO = create_tool_registry([define_toolkit("who", [whoami, miscounted])])


def _client_name(ctx: ServerRequestContext[Any, Any]) -> str:
    params = ctx.session.client_params
    return params.client_info.name if params is not None else "nobody"


@pytest.mark.parametrize("mode", MODES)
def test_make_call_may_be_async_and_sees_the_request(mode):
    async def make_call(ctx: ServerRequestContext[Any, Any]) -> Caller:
        await asyncio.sleep(0)
        return Caller(f"{_client_name(ctx)} via {ctx.method}")

    server = mcp_server(WHO, make_call, name="who")
    assert text_of(call(mode, "whoami", {}, server)) == "mcp via tools/call"


def test_a_refusal_from_make_call_is_answered_as_a_refusal():
    def make_call(_ctx: ServerRequestContext[Any, Any]) -> Caller:
        raise ToolRefusal("not-permitted", "Nobody may call tools here.")

    server = mcp_server(WHO, make_call, name="who")
    refusal = refusal_of(call("legacy", "whoami", {}, server))
    assert refusal == ToolRefusal("not-permitted", "Nobody may call tools here.")


@pytest.mark.parametrize(
    ("make_call", "name"),
    [
        (lambda _: 1 / 0, "whoami"),  # make_call fails
        (lambda _: None, "whoami"),  # no call object, where the tool needs one: TypeError
        (lambda _: Caller("x"), "miscounted"),  # the tool returns what it says it won't
    ],
)
def test_a_host_mistake_is_logged_and_answered_with_the_generic_text(make_call, name, caplog):
    server = mcp_server(WHO, make_call, name="who")
    with caplog.at_level(logging.ERROR, logger="adecore_tools"):
        result = call("legacy", name, {}, server)
    assert result.is_error is True
    assert result.content == [types.TextContent(text=TOOL_FAILED)]
    assert [r.exc_info is not None for r in caplog.records if r.name == "adecore_tools"] == [True]


# --- logging, progress, sampling, elicitation ---------------------------------------------------


def test_with_no_level_set_a_handshake_client_gets_every_level():
    result, seen = talk("legacy", lambda c, _: c.call_tool("chatty", {}))
    assert text_of(result) == "level None; sent debug info error"
    assert seen.logs == [("debug", "a debug"), ("info", "a info"), ("error", "a error")]


def test_the_level_a_client_sets_holds_for_its_later_calls():
    async def script(client: Client, _: Seen) -> list[str]:
        answers = [text_of(await client.call_tool("chatty", {}))]
        await set_level(client, "info")
        answers.append(text_of(await client.call_tool("chatty", {})))
        await set_level(client, "error")
        answers.append(text_of(await client.call_tool("chatty", {})))
        return answers

    answers, seen = talk("legacy", script)
    assert answers == [
        "level None; sent debug info error",
        "level info; sent info error",
        "level error; sent error",
    ]
    assert [level for level, _ in seen.logs] == ["debug", "info", "error", "info", "error", "error"]


def test_the_level_is_each_connection_own():
    server = mcp_served.create_server()

    async def script(client: Client, _: Seen) -> str:
        await set_level(client, "error")
        async with _session(server, "legacy", Seen()) as other:
            unset = text_of(await other.call_tool("chatty", {}))
        return unset + " / " + text_of(await client.call_tool("chatty", {}))

    answer, _ = talk("legacy", script, server)
    assert answer == "level None; sent debug info error / level error; sent error"


@pytest.mark.parametrize(("level", "sent"), [(None, "nothing"), ("info", "info error")])
def test_on_2026_a_request_gets_logs_only_when_it_opts_in(level, sent):
    result, seen = talk("auto", lambda c, _: c.call_tool("chatty", {}), log_level=level)
    assert text_of(result) == f"level {level}; sent {sent}"
    assert [logged for logged, _ in seen.logs] == ([] if level is None else ["info", "error"])


def test_logs_at_names_the_levels_it_knows():
    assert LEVELS[0] == "debug"
    assert LEVELS[-1] == "emergency"
    with pytest.raises(ValueError, match="level is one of debug, info"):
        logs_at(None, "loud")  # type: ignore[arg-type]


def test_log_level_reads_none_where_the_connection_keeps_no_state():
    @dataclass
    class Bare:
        meta: dict[str, Any] | None = None
        session: object = None

    assert log_level(Bare()) is None  # type: ignore[arg-type]
    assert log_level(Bare({"io.modelcontextprotocol/logLevel": "notice"})) == "notice"  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", MODES)
def test_progress_reaches_the_caller(mode):
    async def script(client: Client, seen: Seen) -> types.CallToolResult:
        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            seen.progress.append((progress, total, message))

        return await client.call_tool("steps", {"count": 3}, progress_callback=on_progress)

    result, seen = talk(mode, script)
    assert text_of(result) == "3 steps"
    assert seen.progress == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")]


def test_a_tool_samples_and_elicits_on_a_handshake_connection():
    async def script(client: Client, _: Seen) -> list[str]:
        asked = await client.call_tool("ask_model", {"prompt": "The answer?"})
        named = await client.call_tool("ask_user", {"question": "Your name?"})
        return [text_of(asked), text_of(named)]

    answers, seen = talk("legacy", script)
    assert answers == ["the model said: forty-two", "accept: Ada"]
    assert (seen.sampled, seen.elicited) == (["The answer?"], ["Your name?"])


@pytest.mark.parametrize(
    ("name", "arguments"), [("ask_model", {"prompt": "?"}), ("ask_user", {"question": "?"})]
)
def test_on_2026_a_tool_that_must_ask_mid_call_refuses(name, arguments):
    result, seen = talk("auto", lambda c, _: c.call_tool(name, arguments))
    assert refusal_of(result).code == "no-back-channel"
    assert seen.sampled == seen.elicited == []


# --- every result of an output model reaches the client -----------------------------------------


@dataclass
class Pair:
    left: int
    right: int


def _returning(annotation: Any, results: list[Any]) -> Any:
    """A registry of one tool `give(i)` returning `results[i]`, annotated `annotation`."""

    async def give(i: int) -> Any:
        """Give one back."""
        return results[i]

    give.__annotations__ = {"i": int, "return": annotation}
    return create_tool_registry([define_toolkit("kit", [tool("kit")(give)])])


def _given_back(mode: str, annotation: Any, results: list[Any]) -> list[types.CallToolResult]:
    registry = _returning(annotation, results)

    async def script(client: Client, _: Seen) -> list[types.CallToolResult]:
        return [await client.call_tool("give", {"i": i}) for i in range(len(results))]

    server = mcp_server(registry, lambda _ctx: None, name="give")
    answers, _ = talk(mode, script, server)
    return answers


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("annotation", "value"),
    [(int | None, None), (int | str, "ada"), (list[int | None], [1, None]), (Pair | None, None)],
)
def test_the_client_accepts_nulls_and_every_union_branch(mode, annotation, value):
    [answer] = _given_back(mode, annotation, [value])
    assert answer.is_error is False
    assert answer.structured_content == {"result": value}


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_client_accepts_every_result_of_a_generated_output_model(data):
    annotation = data.draw(any_type(2))
    registry = _returning(annotation, [])
    [give] = list(registry)
    if give.output is None:
        return
    drawn = node_schema(give.output)
    results = []
    for _ in range(4):
        value = data.draw(values(drawn, with_non_finite=False))
        try:
            tool_result(give, value)
        except TypeError:
            continue
        results.append(value)
    for answer, value in zip(_given_back("legacy", annotation, results), results, strict=True):
        assert answer.is_error is False, text_of(answer)
        assert answer.structured_content == tool_result(give, value).structured
