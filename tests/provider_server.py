"""A stand-in for a model provider's HTTP API on 127.0.0.1: it records requests, answers canned.

The providers' own SDK clients talk to it as to OpenAI, Anthropic or Gemini, so a test sees what
a host really sends (the tool listing, the tool results) and drives the host with the replies a
model would give, all offline:

    with ProviderServer(openai_call("note_read", "{}"), openai_text("Done.")) as server:
        client = AsyncOpenAI(api_key="sk-test", base_url=server.url + "/v1", max_retries=0)
        ...
    first, second = server.requests

Each request is answered with the next reply queued, in order. One that finds no reply left gets
a 500 that tells the SDKs not to retry (`x-should-retry: false`), so a host that asks once too
often fails at once, with that request recorded.

The reply builders below write the least each SDK's strict response validation accepts, for the
versions the test extra installs.
"""

from __future__ import annotations

import json
import os
import threading
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from typing_extensions import Self

# Variables that would send a client elsewhere than asked: the SDKs read their own (a base URL,
# a key, an organisation), and httpx sends even 127.0.0.1 through a proxy the environment names.
STEERING = ("OPENAI_", "ANTHROPIC_", "GEMINI_", "GOOGLE_")


def unsteered(environ: dict[str, str] | os._Environ[str]) -> dict[str, str]:
    """`environ` without the variables that steer a provider client or its HTTP requests."""
    return {
        name: value
        for name, value in environ.items()
        if not name.upper().startswith(STEERING) and not name.lower().endswith("_proxy")
    }


@dataclass(frozen=True)
class Request:
    """One request as it arrived: header names in lower case, the body read as JSON."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


class ProviderServer:
    """A recording HTTP server on 127.0.0.1 that answers each request with the next reply."""

    def __init__(self, *replies: object) -> None:
        self.requests: list[Request] = []
        self._replies: deque[object] = deque(replies)
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def url(self) -> str:
        """`http://127.0.0.1:<port>`, with no path."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def reply(self, *bodies: object) -> None:
        """Queue more replies, after those already queued."""
        with self._lock:
            self._replies.extend(bodies)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()

    def _serve(self) -> None:
        # `shutdown` waits for the loop to look at its flag: a short poll keeps each test fast.
        self._httpd.serve_forever(poll_interval=0.01)

    def _answer(self, request: Request) -> tuple[int, dict[str, str], object]:
        with self._lock:
            self.requests.append(request)
            if self._replies:
                return 200, {}, self._replies.popleft()
        error = {"error": {"type": "server_error", "message": "no reply queued for this request"}}
        return 500, {"x-should-retry": "false"}, error

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as the real APIs answer

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                headers = {name.lower(): value for name, value in self.headers.items()}
                body = json.loads(raw) if raw else None
                status, extra, reply = server._answer(
                    Request(self.command, self.path, headers, body)
                )
                data = json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for name, value in extra.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                """Keep the test's output clean."""

        return Handler


# --- OpenAI, Responses API (`POST /v1/responses`) ---------------------------------------------


def _response(response_id: str, output: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": response_id,
        "object": "response",
        "created_at": 1_700_000_000,
        "status": "completed",
        "model": "gpt-test",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "metadata": {},
    }


def openai_call(name: str, arguments: str, call_id: str = "call_1") -> dict[str, Any]:
    """A response whose one output item calls `name` with `arguments`, JSON text as sent."""
    item = {
        "type": "function_call",
        "id": f"fc_{call_id}",
        "call_id": call_id,
        "name": name,
        "arguments": arguments,
        "status": "completed",
    }
    return _response("resp_call", [item])


def openai_text(text: str) -> dict[str, Any]:
    """A response whose one output item is an assistant message saying `text`."""
    content = [{"type": "output_text", "text": text, "annotations": []}]
    message = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": content,
    }
    return _response("resp_text", [message])


# --- Anthropic, Messages API (`POST /v1/messages`) --------------------------------------------


def _message(stop_reason: str, content: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": f"msg_{stop_reason}",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }


def anthropic_call(name: str, arguments: dict[str, Any], use_id: str = "toolu_1") -> dict[str, Any]:
    """A message that says a word, then uses the tool `name` with `arguments` (a dict)."""
    use = {"type": "tool_use", "id": use_id, "name": name, "input": arguments}
    return _message("tool_use", [{"type": "text", "text": "One moment."}, use])


def anthropic_text(text: str) -> dict[str, Any]:
    """A message that ends the turn saying `text`."""
    return _message("end_turn", [{"type": "text", "text": text}])


# --- Gemini, generateContent (`POST /v1beta/models/<model>:generateContent`) ------------------

THOUGHT_SIGNATURE = "c2lnbmVkIHRob3VnaHQ="
"""What a Gemini 3 model attaches to a call, for the host to hand back as it came."""


def _candidate(part: dict[str, Any]) -> dict[str, Any]:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": "gemini-test",
        "responseId": "resp_1",
    }


def gemini_call(name: str, arguments: dict[str, Any], call_id: str = "fc_1") -> dict[str, Any]:
    """A candidate whose one part calls `name` with `arguments` (a dict), thought signed."""
    call = {"id": call_id, "name": name, "args": arguments}
    return _candidate({"functionCall": call, "thoughtSignature": THOUGHT_SIGNATURE})


def gemini_text(text: str) -> dict[str, Any]:
    """A candidate whose one part says `text`."""
    return _candidate({"text": text})
