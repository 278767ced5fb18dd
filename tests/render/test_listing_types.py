"""Each provider listing is typed so that the provider's own SDK takes it without a cast.

`tests/provider_listings_host.py` passes every listing to `client.responses.create`,
`client.chat.completions.create`, `client.messages.create` and google-genai's config; both type
checkers, strict, must pass it.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adecore_tools import create_tool_registry, define_toolkit, tool

ROOT = Path(__file__).resolve().parents[2]
HOST = "tests/provider_listings_host.py"


def _checked(*command: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(  # noqa: S603 - our own checker, on our own file
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False
    )


@pytest.mark.parametrize("sdk", ["openai", "anthropic", "google.genai"])
def test_the_provider_sdks_are_installed(sdk):
    pytest.importorskip(sdk, reason="the provider SDKs are in the test extra")


def test_mypy_strict_passes_the_listings_to_each_sdk():
    pytest.importorskip("mypy", reason="mypy is in the dev extra")
    done = _checked(sys.executable, "-m", "mypy", "--strict", "--no-incremental", HOST)
    assert done.returncode == 0, done.stdout + done.stderr


def test_pyright_strict_passes_the_listings_to_each_sdk():
    pyright = shutil.which("pyright", path=str(Path(sys.executable).parent))
    if pyright is None:
        pytest.skip("pyright is in the dev extra")
    done = _checked(pyright, "--pythonpath", sys.executable, HOST)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_gemini_config_the_host_builds_is_one_the_sdk_reads():
    genai = pytest.importorskip("google.genai.types", reason="google-genai is in the test extra")
    from provider_listings_host import gemini_config  # noqa: PLC0415 - imports the SDKs

    @tool("kit")
    async def tag(labels: dict[str, int], who: int | str) -> None:
        """Tag."""

    @tool("kit")
    async def ping(n: int) -> None:
        """Ping."""

    registry = create_tool_registry([define_toolkit("kit", [tag, ping])])
    config = genai.GenerateContentConfig.model_validate(gemini_config(registry))
    (declared,) = [t.function_declarations for t in config.tools or []]
    assert [d.name for d in declared or []] == ["tag", "ping"]
    assert declared is not None
    assert declared[0].parameters_json_schema is not None
    assert declared[1].parameters is not None
