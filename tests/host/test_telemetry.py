"""What happened: each run an OpenTelemetry span (`trace=True`), or refusals logged at DEBUG."""

# ruff: noqa: PLC0415 - OpenTelemetry is imported by the tests that trace: the rest run without it

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
from collections.abc import Iterator
from typing import Annotated, Any

import pytest
from annotated_types import Ge
from helpers import run
from needs import missing

from adecore_tools import ToolRefusal, create_tool_registry, define_toolkit, tool
from adecore_tools._host import telemetry

SECRET = "s3cr3t-7f1c9b2e-value-that-must-never-leak"  # noqa: S105 - a value to look for


@tool("notes")
async def note_write(title: str, count: Annotated[int, Ge(0)] = 1) -> str:
    """Write a note."""
    return f"{title} {count} {SECRET}"


@tool("notes")
async def note_deny(title: str) -> str:
    """Refuse with the tool's own code."""
    raise ToolRefusal("not-permitted", f"No: {title}")


@tool("notes")
async def note_crash() -> str:
    """Fail with a bug."""
    raise KeyError("bug")


kit = define_toolkit("notes", [note_write, note_deny, note_crash])


@pytest.fixture
def spans(monkeypatch) -> Iterator[Any]:
    """The spans finished while the test runs, with a fresh global tracer provider."""
    pytest.importorskip("opentelemetry.sdk", reason=missing("opentelemetry.sdk"))
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.util._once import Once

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    saved = trace._TRACER_PROVIDER, trace._TRACER_PROVIDER_SET_ONCE
    trace._TRACER_PROVIDER, trace._TRACER_PROVIDER_SET_ONCE = None, Once()
    trace.set_tracer_provider(provider)
    monkeypatch.setattr(telemetry, "_tracer", None)  # got again, from this provider
    try:
        yield exporter
    finally:
        trace._TRACER_PROVIDER, trace._TRACER_PROVIDER_SET_ONCE = saved


traced = create_tool_registry([kit], trace=True)


def _outcome(coro: Any) -> object:
    try:
        return run(coro)
    except Exception as exc:  # noqa: BLE001 - what the run raised is the outcome
        return exc


def test_a_run_is_an_execute_tool_span_by_the_genai_conventions(spans):
    from opentelemetry.trace import SpanKind, StatusCode

    assert run(traced.run("note_write", {"title": "t"}, call_id="call-42")).startswith("t 1")
    [span] = spans.get_finished_spans()
    assert span.name == "execute_tool note_write"
    assert span.kind == SpanKind.INTERNAL
    assert dict(span.attributes) == {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "note_write",
        "gen_ai.tool.type": "function",
        "gen_ai.tool.call.id": "call-42",
    }
    assert span.status.status_code == StatusCode.UNSET


def test_a_refusal_sets_error_type_to_its_code_and_lists_the_wrong_paths(spans):
    from opentelemetry.trace import StatusCode

    _outcome(traced.run("note_write", {"title": 3, "count": -1, "extra": SECRET}))
    _outcome(traced.run("note_writ", {}))
    _outcome(traced.run("note_deny", {"title": SECRET}))
    bad, unknown, own = spans.get_finished_spans()
    assert bad.attributes["error.type"] == "bad-arguments"
    assert list(bad.attributes["adecore_tools.refusal.paths"]) == ["title", "count", '["*"]']
    assert bad.status.status_code == StatusCode.ERROR
    assert unknown.attributes["error.type"] == "unknown-tool"
    assert "adecore_tools.refusal.paths" not in unknown.attributes
    assert own.attributes["error.type"] == "not-permitted"
    assert "gen_ai.tool.call.id" not in own.attributes


def test_another_exception_sets_error_type_to_its_class_and_is_recorded(spans):
    assert isinstance(_outcome(traced.run("note_crash")), KeyError)
    [span] = spans.get_finished_spans()
    assert span.attributes["error.type"] == "KeyError"
    [event] = span.events
    assert event.name == "exception"
    assert event.attributes["exception.type"] == "KeyError"


def test_json_text_and_call_are_traced_too(spans):
    run(traced.run_json("note_write", '{"title": "t"}', call_id="c1"))
    result = run(traced.call("note_write", f'{{"title": 1, "count": "{SECRET}"}}', call_id="c2"))
    assert result.is_error
    first, second = spans.get_finished_spans()
    assert first.attributes["gen_ai.tool.call.id"] == "c1"
    assert second.attributes["gen_ai.tool.call.id"] == "c2"
    assert list(second.attributes["adecore_tools.refusal.paths"]) == ["title", "count"]


def test_a_span_is_a_child_of_the_current_span(spans):
    from opentelemetry import trace

    async def go() -> None:
        with trace.get_tracer("host").start_as_current_span("request"):
            await traced.run("note_write", {"title": "t"})

    run(go())
    child, parent = spans.get_finished_spans()
    assert child.parent is not None
    assert child.parent.span_id == parent.context.span_id


def test_no_input_value_or_result_appears_in_any_span(spans):
    runs = [
        traced.run("note_write", {"title": SECRET}),
        traced.run("note_write", {"title": SECRET, "count": SECRET}),
        traced.run("note_write", {SECRET: 1}),
        traced.run_json("note_write", f'{{"title": "{SECRET}", "count": -1}}'),
        traced.run_json("note_write", f'{{"title": "{SECRET}",'),
        traced.run("note_deny", {"title": SECRET}),
        traced.call("note_write", {"title": SECRET}),
    ]
    for coro in runs:
        _outcome(coro)
    finished = spans.get_finished_spans()
    assert len(finished) == len(runs)
    for span in finished:
        assert SECRET[:12] not in span.to_json()


def test_a_registry_that_traces_keeps_tracing_when_it_selects_or_hides():
    assert traced.select("notes").trace
    assert create_tool_registry([kit]).trace is False
    with pytest.raises(TypeError, match="trace is True or False"):
        create_tool_registry([kit], trace=1)  # type: ignore[arg-type]


# --- logs -----------------------------------------------------------------------------------------

plain = create_tool_registry([kit])


def test_each_refusal_is_logged_at_debug_with_tool_code_and_paths(caplog):
    caplog.set_level(logging.DEBUG, logger="adecore_tools")
    _outcome(plain.run("note_write", {"title": SECRET, "count": -1}))
    _outcome(plain.run("nothing", {"title": SECRET}))
    _outcome(plain.run("note_deny", {"title": SECRET}))
    messages = [r.getMessage() for r in caplog.records if r.name == "adecore_tools"]
    assert messages == [
        "tool note_write refused: bad-arguments (wrong: count)",
        "tool nothing refused: unknown-tool",
        "tool note_deny refused: not-permitted",
    ]
    assert all(r.levelno == logging.DEBUG for r in caplog.records)
    assert SECRET not in caplog.text


def test_nothing_is_formatted_when_debug_is_off(caplog, monkeypatch):
    caplog.set_level(logging.INFO, logger="adecore_tools")
    asked: list[object] = []
    monkeypatch.setattr(telemetry, "wrong_paths", lambda *a: asked.append(a) or [])
    _outcome(plain.run("note_write", {"title": 3}))
    assert asked == []
    assert not caplog.records


def test_importing_the_package_imports_no_opentelemetry_module():
    code = (
        "import sys, adecore_tools\n"
        "print(sorted(m for m in sys.modules if m.startswith('opentelemetry')))"
    )
    out = subprocess.run(  # noqa: S603 - our interpreter, our code
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out.replace("'", '"')) == []


def test_a_traced_run_costs_no_new_event_loop():
    """`trace=True` with no provider configured still runs: the API's no-op tracer."""
    pytest.importorskip("opentelemetry")
    assert asyncio.run(traced.run("note_write", {"title": "t"})).startswith("t 1")
