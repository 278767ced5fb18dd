"""The official MCP conformance suite against adecore_tools.mcp, over streamable HTTP.

`@modelcontextprotocol/conformance` (pinned in tests/conformance) runs each server scenario
below against `tests/conformance_server.py`, served on 127.0.0.1, and must report every one of
its checks passed, with no failure and no warning. It needs Node.js and
`npm ci --prefix tests/conformance`; without them these tests skip, saying so.

Left out by design: `json-schema-2020-12` asks for a tool whose input schema keeps `$schema`,
`$defs` and `$ref`, which this package's schemas never write (they are plain, with no `$ref`);
and the resources, prompts and completion scenarios, for what a tools-only server does not offer.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator

import pytest
from needs import TESTS, missing, missing_node

pytest.importorskip("mcp", reason=missing("mcp"))

import mcp_served

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer

SCENARIOS = {
    "server-initialize": 1,
    "ping": 1,
    "tools-list": 1,
    "tools-call-simple-text": 1,
    "tools-call-image": 1,
    "tools-call-audio": 1,
    "tools-call-embedded-resource": 1,
    "tools-call-mixed-content": 1,
    "tools-call-with-logging": 1,
    "tools-call-error": 1,
    "tools-call-with-progress": 1,
    "tools-call-sampling": 1,
    "tools-call-elicitation": 1,
    "dns-rebinding-protection": 2,
}
"""Each scenario run, and how many checks the suite makes in it."""

COUNTS = re.compile(r"^Passed: (\d+)/(\d+), (\d+) failed, (\d+) warnings$", re.MULTILINE)


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    reason = missing_node("conformance", "@modelcontextprotocol/conformance")
    if reason is not None:
        pytest.skip(reason)
    log = tmp_path_factory.mktemp("conformance") / "stderr.log"
    with mcp_served.listening(TESTS / "conformance_server.py", log=log) as address:
        yield address
    assert "Traceback" not in log.read_text()


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_conformance_scenario_passes_every_check(url, scenario):
    npx = shutil.which("npx")
    assert npx is not None
    done = subprocess.run(  # noqa: S603 - the pinned suite, our arguments
        [npx, "--no-install", "conformance", "server", "--url", url, "--scenario", scenario],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=TESTS / "conformance",
        # no proxy: the suite talks to 127.0.0.1
        env={k: v for k, v in os.environ.items() if "proxy" not in k.lower()} | {"NO_COLOR": "1"},
    )
    report = done.stdout + done.stderr
    counts = COUNTS.search(re.sub(r"\x1b\[[0-9;]*m", "", report))
    assert counts is not None, report
    passed, total, failed, warnings = map(int, counts.groups())
    assert (passed, total, failed, warnings) == (SCENARIOS[scenario],) * 2 + (0, 0), report
    assert done.returncode == 0, report
