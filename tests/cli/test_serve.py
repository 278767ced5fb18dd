"""`adecore-tools serve`: stdio, streamable HTTP, the names it answers, and workers under load.

The server is tests/mcp_served.py's, started by the command as a user starts it; the clients are
the SDK's own, and raw HTTP clients (benchmarks/load_clients.py) for thousands of calls. The load
test is no timing: it proves every call comes back right, with no error, within a bound.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from helpers import command_env
from needs import missing

pytest.importorskip("mcp", reason=missing("mcp"))
pytest.importorskip("uvicorn", reason=missing("uvicorn"))
httpx = pytest.importorskip("httpx", reason=missing("httpx"))

from mcp import Client, StdioServerParameters  # noqa: E402 - after the skips
from mcp.client.stdio import stdio_client  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import load_clients  # noqa: E402
import mcp_served  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.peers]

SERVED = "tests/mcp_served.py:create_server"
ENV = command_env(ROOT / "tests")


@contextmanager
def serving(*options: str, log: Path) -> Iterator[str]:
    """`adecore-tools serve SERVED --http OPTIONS` on a free port; its URL once it answers."""
    port = mcp_served.free_port()
    with log.open("w") as errors:
        process = subprocess.Popen(  # noqa: S603 - our interpreter, our package
            [
                sys.executable,
                "-m",
                "adecore_tools",
                "serve",
                SERVED,
                "--http",
                "--port",
                str(port),
                *options,
            ],
            cwd=ROOT,
            env=ENV,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )
        try:
            mcp_served.wait_for(process, f"http://127.0.0.1:{port}/mcp", log)
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            mcp_served.stop(process, grace=20)  # workers finish their calls first


async def echo_with_the_sdk(target: object, mode: str, text: str) -> tuple[str, str]:
    async with Client(target, mode=mode) as client:
        result = await client.call_tool("echo", {"text": text})
        return client.protocol_version, result.content[0].text  # type: ignore[union-attr]


@pytest.mark.parametrize(("mode", "version"), [("legacy", "2025-11-25"), ("auto", "2026-07-28")])
def test_serve_over_stdio_with_the_sdk_client(mode, version, tmp_path):
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "adecore_tools", "serve", SERVED],
        cwd=str(ROOT),
        env=ENV,
    )
    with (tmp_path / "stderr.log").open("w") as errlog:
        seen = asyncio.run(echo_with_the_sdk(stdio_client(params, errlog), mode, "over stdio"))
    assert seen == (version, "over stdio")
    assert (tmp_path / "stderr.log").read_text() == "adecore-tools: serving served over stdio\n"


def test_serve_http_answers_both_eras_and_says_its_stack(tmp_path):
    log = tmp_path / "stderr.log"
    with serving(log=log) as url:
        for mode, version in [("legacy", "2025-11-25"), ("auto", "2026-07-28")]:
            assert asyncio.run(echo_with_the_sdk(url, mode, "over HTTP")) == (version, "over HTTP")
    said = log.read_text().splitlines()[0]
    assert said.startswith(f"adecore-tools: serving served on {url} (")
    loop = "uvloop" if _installed("uvloop") else "asyncio"
    parser = "httptools" if _installed("httptools") else "h11"
    assert said.endswith(f"({loop}, {parser})")


def _installed(name: str) -> bool:
    import importlib.util  # noqa: PLC0415

    return importlib.util.find_spec(name) is not None


def _status(url: str, host: str, origin: str | None = None) -> int:
    headers = {
        "host": host,
        "accept": load_clients.ACCEPT,
        **({"origin": origin} if origin else {}),
    }
    return httpx.post(url, json=mcp_served.INITIALIZE, headers=headers, timeout=30).status_code


def test_dns_rebinding_protection_answers_only_the_names_allowed(tmp_path):
    options = ("--allow-host", "mcp.example", "--allow-origin", "https://app.example")
    with serving(*options, log=tmp_path / "stderr.log") as url:
        port = url.split(":")[2].split("/")[0]
        assert _status(url, f"127.0.0.1:{port}") == 200
        assert _status(url, f"mcp.example:{port}") == 200
        assert _status(url, "mcp.example") == 200
        assert _status(url, "mcp.example", "https://app.example") == 200
        assert _status(url, "evil.example") == 421
        assert _status(url, "mcp.example", "https://evil.example") == 403


CLIENTS = 40
CALLS = 25  # each, on each path: 1,000 calls a path, 2,000 in all


def test_two_workers_answer_thousands_of_concurrent_calls_none_lost(tmp_path):
    log = tmp_path / "stderr.log"

    async def go() -> dict[str, load_clients.Outcome]:
        outcomes = {}
        # A 2025-era client on a new connection, with a new handshake, for every call: any
        # worker may take any of its requests, as behind a load balancer.
        outcomes["2025, new connection per call"] = await load_clients.load(
            url, "stateless", CLIENTS, CALLS, fresh=True
        )
        outcomes["2026-07-28"] = await load_clients.load(url, "2026", CLIENTS, CALLS)
        for mode in ("legacy", "auto"):  # and the SDK's own client, in both eras
            seen = await asyncio.gather(
                *(echo_with_the_sdk(url, mode, f"sdk {n}") for n in range(10))
            )
            assert [text for _, text in seen] == [f"sdk {n}" for n in range(10)]
        return outcomes

    with serving("--workers", "2", log=log) as url:
        outcomes = asyncio.run(asyncio.wait_for(go(), timeout=400))
    for path, outcome in outcomes.items():
        assert (path, outcome.sent, outcome.answered, outcome.errors[:3]) == (
            path,
            CLIENTS * CALLS,
            CLIENTS * CALLS,
            [],
        )
    said = log.read_text()
    assert "2 workers, stateless" in said
    assert "Traceback" not in said
