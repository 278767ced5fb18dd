"""The adapter modules: `import adecore_tools` loads none, and each says what it needs.

`adecore_tools.mcp`, `.openai_agents`, `.pydantic_ai`, `.langchain` and `.google_adk` import an
SDK or framework the package does not depend on: a host imports the one it uses, after installing
its extra.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import subprocess
import sys

import pytest
from needs import missing

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer

ADAPTERS = {
    # module: (the framework's package, its name in words, the extra that installs it)
    "adecore_tools.mcp": ("mcp", "the MCP Python SDK", "mcp"),
    "adecore_tools.openai_agents": ("agents", "the OpenAI Agents SDK", "openai-agents"),
    "adecore_tools.pydantic_ai": ("pydantic_ai", "Pydantic AI", "pydantic-ai"),
    "adecore_tools.langchain": ("langchain_core", "LangChain", "langchain"),
    "adecore_tools.google_adk": ("google.adk", "Google ADK", "google-adk"),
}
FRAMEWORKS = {
    *("agents", "openai", "pydantic_ai", "pydantic", "pydantic_core", "mcp"),
    *("langchain", "langchain_core", "langgraph", "google"),
}


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - our interpreter, our code
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )


def _last_line_says(done: subprocess.CompletedProcess[str], message: str) -> bool:
    """The error's line is `message`, or `message` and the hint Python 3.15 adds to it."""
    last = done.stderr.strip().splitlines()[-1]
    return re.fullmatch(rf"{re.escape(message)}(\. Did you mean: '\w+'\?)?", last) is not None


def test_importing_the_package_loads_no_adapter_and_no_framework():
    done = _python("import json, sys\nimport adecore_tools\nprint(json.dumps(sorted(sys.modules)))")
    assert done.returncode == 0, done.stderr
    modules = set(json.loads(done.stdout))
    assert "adecore_tools" in modules
    assert not modules & set(ADAPTERS)
    assert not {name.partition(".")[0] for name in modules} & FRAMEWORKS


@pytest.mark.parametrize("module", sorted(ADAPTERS))
def test_an_adapter_without_its_framework_says_which_extra_installs_it(module):
    framework, words, extra = ADAPTERS[module]
    if framework == "pydantic_ai" and sys.version_info < (3, 11):
        pytest.skip("on Python 3.10 the module says first that it needs Python 3.11")
    # `None` in `sys.modules` makes an import fail as if the package were not installed.
    done = _python(f"import sys\nsys.modules[{framework!r}] = None\nimport {module}")
    assert done.returncode == 1
    assert _last_line_says(
        done, f"ModuleNotFoundError: {module} needs {words}: pip install 'adecore_tools[{extra}]'"
    )


@pytest.mark.parametrize(
    ("module", "dependency"),
    [
        ("adecore_tools.mcp", "pydantic"),
        ("adecore_tools.openai_agents", "openai"),
        ("adecore_tools.pydantic_ai", "pydantic"),
        ("adecore_tools.langchain", "tenacity"),
        ("adecore_tools.google_adk", "pydantic"),
    ],
)
def test_a_framework_that_fails_to_import_says_so_itself(module, dependency):
    framework = ADAPTERS[module][0]
    if importlib.util.find_spec(framework.partition(".")[0]) is None:
        pytest.skip(missing(framework))
    pytest.importorskip(framework, reason=missing(framework))
    done = _python(f"import sys\nsys.modules[{dependency!r}] = None\nimport {module}")
    assert done.returncode == 1
    assert _last_line_says(
        done, f"ModuleNotFoundError: import of {dependency} halted; None in sys.modules"
    )


@pytest.mark.skipif(sys.version_info >= (3, 11), reason="only Python 3.10 has no Pydantic AI")
def test_on_python_3_10_the_pydantic_ai_adapter_says_it_needs_3_11():
    with pytest.raises(ImportError, match=r"needs Python 3\.11 or newer, as Pydantic AI does"):
        importlib.import_module("adecore_tools.pydantic_ai")
