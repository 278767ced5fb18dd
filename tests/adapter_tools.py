"""The tools the adapters' tests run through the framework adapters.

Beyond the notes of examples/notes.py: a tool with a record, which strict mode cannot state; a
tool for each kind of result a model reads back as text; and tools that fail as only a host's bug
can (a result its annotation refuses, an exception that is no refusal).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast

from adecore_tools import (
    Audio,
    Content,
    Image,
    ToolCall,
    create_tool_registry,
    define_toolkit,
    tool,
)

# The descriptions of the notes tools' `revision` and `dry_run` fields, as a model is shown them.
REVISION = (
    "The revision this write expects, as last read. The write is refused unless what it changes "
    "is still at this revision; leave it out to write whatever the revision is."
)
DRY_RUN = (
    "Set to true to check everything and write nothing. A dry run is never needed for safety: a "
    "real call checks the same things before it writes."
)


@dataclass
class Task:
    title: str
    status: Literal["open", "done"] = "open"
    owner: str | None = None


@tool("demo")
async def label(labels: dict[str, str], mode: Literal["add", "set"] = "add") -> list[str]:
    """Labels the active document."""
    return [*(f"{key}\t{value}" for key, value in labels.items()), f"mode\t{mode}"]


@tool("demo")
async def task_get(title: str, owner: str | None = None) -> Task:
    """Gets a task."""
    return Task(title, owner=owner)


@tool("demo")
async def task_count() -> int:
    """Counts the tasks."""
    return 3


@tool("demo")
async def screenshot() -> list[Content | str]:
    """Takes a screenshot."""
    return ["The screen:", Image(b"\x89PNG...", "image/png"), "Nothing else."]


@tool("demo")
async def record() -> Audio:
    """Records a second of sound."""
    return Audio(b"RIFF....WAVE", "audio/wav")


@dataclass
class Caller(ToolCall):
    """A call object that says who is calling, for the tests of `make_call`."""

    name: str


@tool("who")
async def whoami(call: Caller) -> str:
    """Say who is calling."""
    return call.name


@tool("demo")
async def greet(name: str) -> str:
    """Greets someone."""
    return f"Hello, {name}"


@tool("demo")
async def forget() -> None:
    """Forgets everything."""


@tool("demo")
async def miscount() -> int:
    """Counts, wrongly: returns what its annotation refuses."""
    return cast("int", "three")


@tool("demo")
async def crash() -> str:
    """Fails as no tool should: with an exception that is no refusal."""
    msg = "the disk is full"
    raise RuntimeError(msg)


DEMO = create_tool_registry(
    [
        define_toolkit(
            "demo",
            [label, task_get, task_count, screenshot, record, greet, forget, miscount, crash],
        )
    ]
)

STRICT = {t.name: t is not label for t in DEMO.tools}
"""Whether each tool goes to the model in strict mode: all but the one with a record."""

RESULTS = [
    # (tool, arguments as a strict model sends them, what the model reads back)
    ("label", {"labels": {"color": "red"}}, "color\tred\nmode\tadd"),
    ("label", {"labels": {}, "mode": "set"}, "mode\tset"),
    (
        "task_get",
        {"title": "Write the report", "owner": None},
        '{"title":"Write the report","status":"open"}',
    ),
    ("task_count", {}, '{"result":3}'),
    ("greet", {"name": "Ada"}, "Hello, Ada"),
    ("forget", {}, ""),
]
"""A call of each kind of result, and its text: lines, a structured value's compact JSON (a
value that is no object wrapped as `{"result": ...}`), text, none. An image or audio goes as the
framework's own content, or a line saying it cannot be shown: each adapter's tests check it."""

UNSHOWN_AUDIO = "[The tool returned audio (audio/wav, 12 bytes), which cannot be shown here.]"
"""What a model reads for the audio of `record` where its framework has no block for audio."""
