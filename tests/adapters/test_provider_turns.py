"""One offline turn of a tool loop per provider, through the provider's own Python SDK.

The SDK's async client talks to a `ProviderServer` on 127.0.0.1, which records each request and
answers as a model would: a tool call, then, once the host has sent the result back, a text. The
host is the `answer` of each provider example (examples/openai_responses.py,
anthropic_messages.py, gemini_generate.py), run over this file's own toolkit, whose record field
makes each listing fall back as the provider needs (`"strict": false` for OpenAI, no `strict` for
Anthropic, `parametersJsonSchema` for Gemini).

Each test checks that the listing arrived as the registry gave it, that the tool's result (or a
refusal's `refusal_body`) went back with the call's id, and that the host returns the final text.
The clients retry nothing, and the OpenAI and Anthropic ones check each canned reply against the
SDK's models (`_strict_response_validation`), so a reply no real API would give fails the test.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
from collections.abc import Coroutine
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any

import pytest
from annotated_types import Ge
from needs import missing
from provider_server import (
    THOUGHT_SIGNATURE,
    ProviderServer,
    Request,
    anthropic_call,
    anthropic_text,
    gemini_call,
    gemini_text,
    openai_call,
    openai_text,
    unsteered,
)
from typing_extensions import TypedDict

from adecore_tools import ToolRefusal, create_tool_registry, define_toolkit, refusal_body, tool

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PROMPT = "Two teas, please."
TIMEOUT = 10  # seconds: a turn takes a few milliseconds; this only stops a broken one hanging


class Item(TypedDict):
    name: str
    count: Annotated[int, Ge(1)]


@tool("shop")
async def order(items: list[Item], note: str | None = None) -> list[str]:
    """Order items."""
    return [f"ordered\t{item['count']}\t{item['name']}" for item in items]


@tool("shop")
async def label(tags: dict[str, str]) -> list[str]:
    """Label the order."""
    return [f"label\t{key}\t{value}" for key, value in sorted(tags.items())]


@tool("shop")
async def status() -> str:
    """Where the order is."""
    return "on its way"


registry = create_tool_registry([define_toolkit("shop", [order, label, status])])


@pytest.fixture(autouse=True)
def _no_steering(monkeypatch):
    """The SDKs read their base URL, key and API version from the environment, and httpx its
    proxies: none of them may send these clients anywhere but the server."""
    for name in set(os.environ) - set(unsteered(os.environ)):
        monkeypatch.delenv(name)


def example(name: str) -> ModuleType:
    """examples/<name>.py, loaded by its path (its `answer` imports nothing from examples/)."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def refusal_of(run: Coroutine[Any, Any, object]) -> str:
    """The text a host sends back for the refusal `run` raises."""
    with pytest.raises(ToolRefusal) as info:
        asyncio.run(run)
    body = refusal_body(info.value)
    assert body.startswith("refused\tbad-arguments\t")
    return body


# --- OpenAI: Responses API -------------------------------------------------------------------


def openai_turn(name: str, arguments: str) -> tuple[str, list[Request]]:
    """The model calls `name` with `arguments` (JSON text), then says "Ordered."."""
    openai = pytest.importorskip("openai", reason=missing("openai"))
    host = example("openai_responses")

    async def turn(url: str) -> str:
        async with openai.AsyncOpenAI(
            api_key="sk-test",
            base_url=f"{url}/v1",
            max_retries=0,
            timeout=TIMEOUT,
            _strict_response_validation=True,
        ) as client:
            return await host.answer(client, "gpt-test", PROMPT, registry, None)

    with ProviderServer(openai_call(name, arguments), openai_text("Ordered.")) as server:
        text = asyncio.run(turn(server.url))
    first, second = server.requests
    assert [(r.method, r.path) for r in server.requests] == [("POST", "/v1/responses")] * 2
    assert first.headers["authorization"] == "Bearer sk-test"
    assert first.body["tools"] == registry.openai_tools()
    assert first.body["tools"][1]["strict"] is False  # the record: no strict schema states it
    assert first.body["input"] == PROMPT
    assert second.body["previous_response_id"] == "resp_call"
    assert second.body["tools"] == registry.openai_tools()
    return text, server.requests


# Lines, and a tool returning one text, which goes back whole (not a line per character).
RESULTS = {
    "order": ({"items": [{"name": "tea", "count": 2}], "note": None}, "ordered\t2\ttea"),
    "status": ({}, "on its way"),
}


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_openai_a_call_runs_from_its_json_text_and_its_result_goes_back(name):
    arguments, result = RESULTS[name]
    text, (_, second) = openai_turn(name, json.dumps(arguments))
    assert text == "Ordered."
    output = {"type": "function_call_output", "call_id": "call_1", "output": result}
    assert second.body["input"] == [output]


def test_openai_arguments_that_are_not_json_go_back_as_the_refusal_body():
    arguments = '{"items": [{"name": "tea", "count": 2}],}'
    body = refusal_of(registry.run_json("order", arguments))
    assert "a trailing comma" in body
    text, (_, second) = openai_turn("order", arguments)
    assert text == "Ordered."
    assert second.body["input"] == [
        {"type": "function_call_output", "call_id": "call_1", "output": body}
    ]


# --- Anthropic: Messages API -----------------------------------------------------------------


def anthropic_turn(name: str, arguments: dict[str, Any]) -> tuple[str, list[Request]]:
    """The model uses `name` with `arguments` (a dict), then says "Ordered."."""
    anthropic = pytest.importorskip("anthropic", reason=missing("anthropic"))
    host = example("anthropic_messages")

    async def turn(url: str) -> str:
        async with anthropic.AsyncAnthropic(
            api_key="sk-ant-test",
            base_url=url,
            max_retries=0,
            timeout=TIMEOUT,
            _strict_response_validation=True,
        ) as client:
            return await host.answer(client, "claude-test", PROMPT, registry, None)

    reply = anthropic_call(name, arguments)
    with ProviderServer(reply, anthropic_text("Ordered.")) as server:
        text = asyncio.run(turn(server.url))
    first, second = server.requests
    assert [(r.method, r.path) for r in server.requests] == [("POST", "/v1/messages")] * 2
    assert first.headers["authorization"] == "Bearer sk-ant-test"
    assert first.body["tools"] == registry.anthropic_tools()
    assert "strict" not in first.body["tools"][1]  # the record: strict tool use cannot take it
    assert first.body["messages"] == [{"role": "user", "content": PROMPT}]
    assert second.body["tools"] == registry.anthropic_tools()
    assert second.body["messages"][:2] == [
        {"role": "user", "content": PROMPT},
        {"role": "assistant", "content": reply["content"]},  # as the model sent it
    ]
    return text, server.requests


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_anthropic_a_tool_use_runs_from_its_dict_and_its_result_goes_back(name):
    arguments, content = RESULTS[name]
    text, (_, second) = anthropic_turn(name, arguments)
    assert text == "Ordered."
    result = {
        "type": "tool_result",
        "tool_use_id": "toolu_1",
        "content": content,
        "is_error": False,
    }
    assert second.body["messages"][2:] == [{"role": "user", "content": [result]}]


def test_anthropic_bad_arguments_go_back_as_the_refusal_body_marked_as_an_error():
    arguments = {"items": [{"name": "tea", "count": 0}], "nte": "green"}
    body = refusal_of(registry.run("order", arguments))
    assert "did you mean 'note'?" in body
    text, (_, second) = anthropic_turn("order", arguments)
    assert text == "Ordered."
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": body, "is_error": True}
    assert second.body["messages"][2:] == [{"role": "user", "content": [result]}]


# --- Gemini: generateContent -----------------------------------------------------------------


def gemini_turn(name: str, arguments: dict[str, Any]) -> tuple[str, list[Request]]:
    """The model calls `name` with `arguments` (a dict), then says "Ordered."."""
    genai = pytest.importorskip("google.genai", reason=missing("google.genai"))
    types = genai.types
    host = example("gemini_generate")

    async def turn(url: str) -> str:
        options = types.HttpOptions(
            base_url=url,
            timeout=TIMEOUT * 1000,  # milliseconds
            retry_options=types.HttpRetryOptions(attempts=1),
        )
        with genai.Client(api_key="test-key", http_options=options) as client:
            async with client.aio as aio:
                return await host.answer(aio, "gemini-test", PROMPT, registry, None)

    reply = gemini_call(name, arguments)
    with ProviderServer(reply, gemini_text("Ordered.")) as server:
        text = asyncio.run(turn(server.url))
    first, second = server.requests
    # the SDK's default API version: v1 from google-genai 3 (Python 3.11+), v1beta before
    version = "v1" if first.path.startswith("/v1/") else "v1beta"
    path = f"/{version}/models/gemini-test:generateContent"
    assert [(r.method, r.path) for r in server.requests] == [("POST", path)] * 2
    assert first.headers["x-goog-api-key"] == "test-key"
    listing = registry.gemini_tools()
    for request in (first, second):
        (tool_entry,) = request.body["tools"]
        sent = tool_entry["functionDeclarations"]
        # The SDK writes the keys inside a declaration by their Python names
        # (`parameters_json_schema`): the same declarations, as the SDK reads both.
        read = types.FunctionDeclaration.model_validate
        assert [read(d) for d in sent] == [read(d) for d in listing]
        spellings = ("parameters_json_schema", "parametersJsonSchema")
        (schema,) = (value for key, value in sent[1].items() if key in spellings)
        assert schema == listing[1]["parametersJsonSchema"]  # the JSON Schema itself, verbatim
    user = {"role": "user", "parts": [{"text": PROMPT}]}
    assert first.body["contents"] == [user]
    model_turn = reply["candidates"][0]["content"]
    assert model_turn["parts"][0]["thoughtSignature"] == THOUGHT_SIGNATURE
    assert second.body["contents"][:2] == [user, model_turn]  # as the model sent it
    return text, server.requests


def gemini_response(name: str, response: dict[str, str]) -> dict[str, Any]:
    reply = {"id": "fc_1", "name": name, "response": response}
    return {"role": "user", "parts": [{"functionResponse": reply}]}


@pytest.mark.parametrize(
    ("name", "arguments", "output"),
    [
        ("label", {"tags": {"colour": "green"}}, "label\tcolour\tgreen"),
        ("status", {}, "on its way"),
    ],
)
def test_gemini_a_function_call_runs_from_its_dict_and_its_result_goes_back_as_output(
    name, arguments, output
):
    text, (_, second) = gemini_turn(name, arguments)
    assert text == "Ordered."
    assert second.body["contents"][2:] == [gemini_response(name, {"output": output})]


def test_gemini_bad_arguments_go_back_as_the_refusal_body_under_error():
    arguments = {"items": json.dumps([{"name": "tea", "count": 2}])}
    body = refusal_of(registry.run("order", arguments))
    text, (_, second) = gemini_turn("order", arguments)
    assert text == "Ordered."
    assert second.body["contents"][2:] == [gemini_response("order", {"error": body})]
