"""The command line: `adecore-tools inspect`, `call` and `serve`, each run as a user runs it.

Every command runs in a subprocess (`python -m adecore_tools`, what the console script runs),
from the repository root, and is judged by its exit status and what it prints.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import command_env
from needs import missing

NEEDS_MCP = pytest.mark.skipif(importlib.util.find_spec("mcp") is None, reason=missing("mcp"))
"""`serve` reads its TARGET only once the SDK is there: without it, it names the extra."""

pytestmark = pytest.mark.slow  # each test starts a Python process

ROOT = Path(__file__).resolve().parents[2]
NOTES = "examples/notes.py:registry"


def run(
    *arguments: str, cwd: Path = ROOT, python: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`adecore-tools ARGUMENTS`, with this work tree's package first on the path."""
    env = command_env(ROOT / "tests")
    command = [sys.executable, *(["-m", "adecore_tools"] if python is None else python), *arguments]
    return subprocess.run(  # noqa: S603 - our interpreter, our package
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False
    )


# --- the command itself ---------------------------------------------------------------------


def test_the_console_script_is_the_module_command():
    tomllib = pytest.importorskip("tomllib", reason="tomllib is Python 3.11's")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["scripts"] == {"adecore-tools": "adecore_tools._cli.main:main"}
    assert "serve" in project["optional-dependencies"]


def test_importing_the_package_loads_no_command():
    done = run(
        "-c",
        "import sys, adecore_tools; print(sorted(m for m in sys.modules if '_cli' in m))",
        python=[],
    )
    assert done.stdout.strip() == "[]"


def test_help_names_every_subcommand():
    done = run("--help")
    assert done.returncode == 0
    assert all(name in done.stdout for name in ("inspect", "call", "serve"))


# --- inspect ----------------------------------------------------------------------------------


def test_inspect_shows_each_tool_its_annotations_and_fields_with_bounds_in_words():
    done = run("inspect", NOTES)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:7] == [
        "note_read  (toolkit note)",
        "  Reads the notes of the active document, with the revision a write must name.",
        "  title: Read notes",
        "  annotations: read-only, idempotent, not open world",
        "  scopes: none",
        "  fields:",
        (
            "    limit: integer, optional. How many notes to return, first ones first. "
            "At least 1. At most 100. Default 20."
        ),
    ]
    assert (
        "    index: integer, required. The note's index, as note_read lists it. At least 0."
        in lines
    )
    assert "  annotations: destructive, not open world" in lines
    assert lines[-1] == "portability: no rules broken"


RECORDS = '''
from adecore_tools import create_tool_registry, define_toolkit, tool

@tool("tally")
async def tally(counts: dict[str, int], label: str | None = None) -> str:
    """Add the counts up."""
    return str(sum(counts.values()))

registry = create_tool_registry([define_toolkit("tally", [tally])])
'''


def test_inspect_ends_with_every_portability_row(tmp_path):
    (tmp_path / "tally.py").write_text(RECORDS, encoding="utf-8")
    done = run("inspect", "tally.py:registry", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    namespace: dict[str, object] = {}
    exec(RECORDS, namespace)  # noqa: S102 - the sample above
    rows = namespace["registry"].portability()  # type: ignore[union-attr]
    assert rows
    printed = done.stdout.splitlines()
    assert printed[-len(rows) - 1] == f"portability: {len(rows)} rules broken"
    assert printed[-len(rows) :] == [f"  {r['provider']}\t{r['tool']}\t{r['rule']}" for r in rows]
    assert "    counts: object, required" in printed
    assert "    label: string, optional" in printed


@pytest.mark.parametrize(
    ("profile", "listing"),
    [
        ("mcp", lambda r: r.mcp_tools()),
        ("openai-strict", lambda r: r.openai_tools()),
        ("anthropic", lambda r: r.anthropic_tools()),
        ("gemini", lambda r: r.gemini_tools()),
    ],
)
def test_inspect_json_prints_the_profile_listing(profile, listing):
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import notes  # noqa: PLC0415 - the example, as the command reads it
    finally:
        sys.path.remove(str(ROOT / "examples"))
    done = run("inspect", NOTES, "--json", "--profile", profile)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == listing(notes.registry)


# --- call -------------------------------------------------------------------------------------

FACTORY = """
from notes import Document, NoteCall

def writer():
    return NoteCall(Document(), may_write=True)

def reader():
    return NoteCall(Document(), may_write=False)
"""


@pytest.fixture
def factory(tmp_path):
    (tmp_path / "calls.py").write_text(FACTORY, encoding="utf-8")
    return f"{tmp_path / 'calls.py'}"


def test_call_prints_the_result_text_and_exits_0(factory):
    done = run("call", NOTES, "note_write", '{"text": "Buy milk"}', "--call", f"{factory}:writer")
    assert (done.returncode, done.stdout, done.stderr) == (0, "note\twritten\nrevision\t1\n", "")


@pytest.mark.parametrize(
    ("name", "arguments", "who", "first_line"),
    [
        ("note_write", '{"text": "Buy milk"}', "reader", "refused\tnot-permitted\t"),
        (
            "note_read",
            '{"limit": 0}',
            "reader",
            "refused\tbad-arguments\tlimit: expected at least 1, got 0",
        ),
        ("note_read", '{"limit": ', "reader", "refused\tbad-arguments\t"),
        ("note_raed", "{}", "reader", "refused\tunknown-tool\tthere is no tool named"),
    ],
)
def test_call_prints_the_refusal_body_and_exits_1(factory, name, arguments, who, first_line):
    done = run("call", NOTES, name, arguments, "--call", f"{factory}:{who}")
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith(first_line)


def test_call_without_arguments_sends_none(tmp_path):
    (tmp_path / "hello.py").write_text(HELLO, encoding="utf-8")
    done = run("call", "hello:registry", "hello", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "hello\n"), done.stderr


HELLO = '''
from adecore_tools import create_tool_registry, define_toolkit, tool

@tool("hi")
async def hello() -> str:
    """Say hello."""
    return "hello"

registry = create_tool_registry([define_toolkit("hi", [hello])])
'''


def test_a_tool_taking_a_call_object_needs_a_factory():
    done = run("call", NOTES, "note_read")
    assert done.returncode == 2
    assert done.stderr == (
        "adecore-tools call: note_read takes a call object of type NoteCall: "
        "name a function making one with --call MODULE:FACTORY\n"
    )


# --- a TARGET that is wrong -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (
            ["inspect", "examples/notes.py"],
            "TARGET is module:attribute or path/to/file.py:attribute",
        ),
        (
            ["inspect", "no_such_module:registry"],
            "cannot import no_such_module: ModuleNotFoundError",
        ),
        (["inspect", "examples/none.py:registry"], "no file examples/none.py"),
        (["inspect", "examples/notes.py:registr"], "examples/notes.py has no 'registr'"),
        (["inspect", "examples/notes.py:Document"], "is the class Document, not a ToolRegistry"),
        (["call", "examples/notes.py:EDITORS", "x"], "is a frozenset, not a ToolRegistry"),
        (["call", NOTES, "note_read", "--call", "examples/notes.py:EDITORS"], "not a function"),
        pytest.param(
            ["serve", NOTES],
            "is no server made by mcp_server, nor a function returning one",
            marks=NEEDS_MCP,
        ),
        (
            ["inspect", "tests/cli/broken.py:registry"],
            "cannot import tests/cli/broken.py: ZeroDivisionError",
        ),
    ],
)
def test_a_wrong_target_is_one_line_and_exit_2(arguments, said, tmp_path):
    broken = ROOT / "tests" / "cli" / "broken.py"
    assert broken.read_text(encoding="utf-8").startswith('"""')  # a module that fails on import
    done = run(*arguments)
    assert done.returncode == 2
    assert said in done.stderr
    assert done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_without_the_sdk_serve_names_the_extra():
    code = (
        "import sys; sys.modules['mcp'] = None; "  # as if the SDK were not installed
        "from adecore_tools._cli.main import main; sys.exit(main(sys.argv[1:]))"
    )
    done = run("-c", code, "serve", "tests/mcp_served.py:create_server", python=[])
    assert (done.returncode, done.stderr) == (
        2,
        "adecore-tools serve: serve needs mcp: pip install 'adecore_tools[mcp]'\n",
    )


@NEEDS_MCP
def test_binding_beyond_loopback_needs_the_names_clients_use():
    done = run("serve", "tests/mcp_served.py:create_server", "--http", "--host", "0.0.0.0")  # noqa: S104 - refused
    assert done.returncode == 2
    assert done.stderr.startswith("adecore-tools serve: serving on 0.0.0.0 needs --allow-host NAME")
    assert "DNS-rebinding protection stays on" in done.stderr
