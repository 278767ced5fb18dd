"""docs/deployment.md: every command on the page runs, as written, and serves what it says.

Each command is run from the repository root, `adecore-tools` as `python -m adecore_tools` (this
work tree's) and `uvicorn` as `python -m uvicorn`, on a free port where the page says 8000. A
server is called with the SDK's client in both protocol eras, then stopped.
"""

from __future__ import annotations

import asyncio
import shlex
import subprocess
import sys
from collections.abc import Callable

import pytest
from doc_samples import DOCS, ROOT, samples
from helpers import command_env
from needs import missing

pytest.importorskip("mcp", reason=missing("mcp"))
pytest.importorskip("uvicorn", reason=missing("uvicorn"))
httpx = pytest.importorskip("httpx", reason=missing("httpx"))

import mcp_served  # noqa: E402 - after the skips
from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.peers]

PAGE = (DOCS / "deployment.md").read_text(encoding="utf-8")
COMMANDS = [line for sample in samples(PAGE, "bash") for line in sample.splitlines() if line]
PROGRAMS = {"adecore-tools": ["-m", "adecore_tools"], "uvicorn": ["-m", "uvicorn"]}


def test_the_page_has_the_commands_it_promises():
    assert [shlex.split(command)[0] for command in COMMANDS] == [
        "adecore-tools",
        "adecore-tools",
        "adecore-tools",
        "adecore-tools",
        "adecore-tools",
        "adecore-tools",
        "adecore-tools",
        "uvicorn",
    ]


def _argv(command: str, port: int) -> list[str]:
    program, *arguments = shlex.split(command.replace("--port 8000", f"--port {port}"))
    return [sys.executable, *PROGRAMS[program], *arguments]


@pytest.fixture
def env(tmp_path):
    """This work tree first, examples/ and the page's factory module (`notes_app.py`) importable."""
    (tmp_path / "notes_app.py").write_text(samples(PAGE)[0], encoding="utf-8")
    return command_env(ROOT / "tests", ROOT / "examples", tmp_path)


async def _read_notes(target: Callable[[], object]) -> list[tuple[str, bool, str]]:
    seen = []
    for mode in ("legacy", "auto"):
        async with Client(target(), mode=mode) as client:
            result = await client.call_tool("note_read", {})
            seen.append((client.protocol_version, result.is_error, result.content[0].text))  # type: ignore[union-attr]
    return seen


READ = [
    ("2025-11-25", False, "revision\t0\nnotes\tnone"),
    ("2026-07-28", False, "revision\t0\nnotes\tnone"),
]


@pytest.mark.parametrize(
    "command", [c for c in COMMANDS if " serve " not in c and "uvicorn" not in c]
)
def test_each_inspect_and_call_command_runs(command, env):
    done = subprocess.run(  # noqa: S603 - our interpreter, the page's command
        _argv(command, 0),
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout


def test_the_stdio_command_serves_over_stdio(env, tmp_path):
    [command] = [c for c in COMMANDS if " serve " in c and "--http" not in c]
    program, *arguments = _argv(command, 0)
    params = StdioServerParameters(command=program, args=arguments, cwd=str(ROOT), env=env)
    with (tmp_path / "stderr.log").open("w") as errlog:
        assert asyncio.run(_read_notes(lambda: stdio_client(params, errlog))) == READ


@pytest.mark.parametrize("command", [c for c in COMMANDS if "--http" in c or "uvicorn" in c])
def test_each_http_command_serves_both_eras(command, env, tmp_path):
    port = mcp_served.free_port()
    log = tmp_path / "stderr.log"
    with log.open("w") as errors:
        process = subprocess.Popen(  # noqa: S603 - our interpreter, the page's command
            _argv(command, port), cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=errors
        )
        try:
            url = f"http://127.0.0.1:{port}/mcp"
            mcp_served.wait_for(process, url, log)
            assert asyncio.run(_read_notes(lambda: url)) == READ
            if "--allow-host" in command:
                headers = {"accept": "application/json, text/event-stream"}
                for host, status in [("mcp.example.com", 200), ("evil.example", 421)]:
                    answered = httpx.post(
                        url, json=mcp_served.INITIALIZE, headers={**headers, "host": host}
                    )
                    assert answered.status_code == status, host
        finally:
            mcp_served.stop(process, grace=20)
