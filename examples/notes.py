"""Notes: a small in-memory document and the `note` toolkit that reads and writes it.

Run it to see what an MCP client lists and how a model's calls are answered:

    python examples/notes.py

The document checks a write's expected revision in the same step as the write (under one lock),
so two agents that read revision 3 cannot both write on top of it: the second is refused and told
to read again. The host decides who may write; the tools only see the call object it builds.
"""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import dataclass
from typing import Annotated, Any

from annotated_types import Ge, Le, MaxLen
from typing_extensions import Doc

from adecore_tools import (
    DryRun,
    Revision,
    ToolCall,
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    field,
    or_note,
    refusal_body,
    required_field,
    tool,
)


class StaleRevisionError(Exception):
    """A write expected a revision the document has moved past."""

    def __init__(self, current: int) -> None:
        """Keep the revision the document is at."""
        super().__init__(f"the document is at revision {current}")
        self.current = current


class MissingNoteError(IndexError):
    """A delete named a note the document does not have."""

    def __init__(self, index: int, count: int) -> None:
        """Keep how many notes the document has."""
        super().__init__(index)
        self.count = count


class Document:
    """An in-memory list of notes; every change moves its revision on by one."""

    def __init__(self) -> None:
        """Start empty, at revision 0."""
        self._notes: list[str] = []
        self._revision = 0
        self._lock = threading.Lock()

    def read(self) -> tuple[int, list[str]]:
        """The revision and a copy of the notes, read together."""
        with self._lock:
            return self._revision, list(self._notes)

    def write(self, text: str, *, expected_revision: int | None = None) -> int:
        """Append a note if the document is still at `expected_revision`; the new revision."""
        with self._lock:
            self._check(expected_revision)
            self._notes.append(text)
            self._revision += 1
            return self._revision

    def delete(self, index: int, *, expected_revision: int | None = None) -> int:
        """Remove one note if the document is still at `expected_revision`; the new revision."""
        with self._lock:
            self._check(expected_revision)
            if index >= len(self._notes):
                raise MissingNoteError(index, len(self._notes))
            del self._notes[index]
            self._revision += 1
            return self._revision

    def _check(self, expected_revision: int | None) -> None:
        if expected_revision is not None and expected_revision != self._revision:
            raise StaleRevisionError(self._revision)


@dataclass
class NoteCall(ToolCall):
    """What one call of a note tool may touch: the document, and whether it may change it."""

    doc: Document
    may_write: bool


EDITORS = frozenset({"ada"})
"""Who may change a document in a `Session`; anyone else may read it."""


@dataclass
class Session:
    """What a host knows about one run of an agent: who is asking, and their document.

    The agent examples (`openai_agents.py`, `pydantic_ai_toolset.py`) run with one, and build
    each call's `NoteCall` from it with `session_call`.
    """

    user: str
    doc: Document


def session_call(session: Session) -> NoteCall:
    """The call object of a call in `session`: its document, which only an editor may change."""
    return NoteCall(session.doc, may_write=session.user in EDITORS)


def editor_call() -> NoteCall:
    """An editor's call object on a new document: for `adecore-tools call ... --call`."""
    return session_call(Session("ada", Document()))


def _stale(error: StaleRevisionError) -> ToolRefusal:
    return ToolRefusal(
        "stale-revision",
        f"The document is at revision {error.current}; read it again before writing.",
        [f"revision\t{error.current}"],
    )


def _missing(index: int, count: int) -> ToolRefusal:
    msg = f"There is no note {index}; the document has {count}."
    return ToolRefusal("no-such-note", msg, [f"notes\t{count}"])


def _check_writer(call: NoteCall) -> None:
    if not call.may_write:
        raise ToolRefusal("not-permitted", "This caller may read this document but not change it.")


@tool("note", read_only=True, idempotent=True, open_world=False, title="Read notes")
async def note_read(
    call: NoteCall,
    limit: Annotated[int, Ge(1), Le(100), Doc("How many notes to return, first ones first")] = 20,
) -> list[str]:
    """Reads the notes of the active document, with the revision a write must name."""
    revision, notes = call.doc.read()
    rows = [f"note\t{index}\t{field(text)}" for index, text in enumerate(notes[:limit])]
    return [f"revision\t{revision}", *or_note(rows, "notes\tnone")]


@tool("note", open_world=False, title="Write a note")
async def note_write(
    call: NoteCall,
    text: Annotated[
        str, required_field("note_write needs text"), MaxLen(2000), Doc("The note text")
    ],
    revision: Revision = None,
    dry_run: DryRun = None,
) -> list[str]:
    """Writes a note to the active document."""
    _check_writer(call)
    if dry_run is True:
        return ["preview\tvalidated"]
    try:
        new_revision = call.doc.write(text, expected_revision=revision)
    except StaleRevisionError as error:
        raise _stale(error) from None
    return ["note\twritten", f"revision\t{new_revision}"]


@tool("note", destructive=True, open_world=False, title="Delete a note")
async def note_delete(
    call: NoteCall,
    index: Annotated[int, Ge(0), Doc("The note's index, as note_read lists it")],
    revision: Revision = None,
    dry_run: DryRun = None,
) -> list[str]:
    """Deletes one note from the active document. It cannot be brought back."""
    _check_writer(call)
    _, notes = call.doc.read()
    if index >= len(notes):
        raise _missing(index, len(notes))
    if dry_run is True:
        return ["preview\tvalidated"]
    try:
        new_revision = call.doc.delete(index, expected_revision=revision)
    except StaleRevisionError as error:
        raise _stale(error) from None
    except MissingNoteError as error:  # another caller deleted it since the read above
        raise _missing(index, error.count) from None
    return ["note\tdeleted", f"revision\t{new_revision}"]


registry = create_tool_registry([define_toolkit("note", [note_read, note_write, note_delete])])


async def main() -> None:
    """Print the tool listing, then answer a few calls as a model might send them."""
    print(json.dumps(registry.mcp_tools(), indent=2))
    doc = Document()
    writer, reader = NoteCall(doc, may_write=True), NoteCall(doc, may_write=False)
    calls: list[tuple[str, str, dict[str, Any], NoteCall]] = [
        ("a write", "note_write", {"text": "Buy milk", "revision": 0}, writer),
        ("a dry run", "note_write", {"text": "Buy bread", "dry_run": True}, writer),
        ("a stale revision", "note_write", {"text": "Buy eggs", "revision": 0}, writer),
        ("an unauthorized caller", "note_delete", {"index": 0}, reader),
        ("bad arguments", "note_write", {"text": "", "revision": -1, "dryrun": True}, writer),
        ("a read", "note_read", {"limit": None}, reader),
    ]
    for label, name, arguments, call in calls:
        print(f"\n# {label}: {name} {json.dumps(arguments)}")
        try:
            lines = await registry.run(name, arguments, call)
        except ToolRefusal as refusal:
            print(refusal_body(refusal))
        else:
            print("\n".join(lines))


if __name__ == "__main__":
    asyncio.run(main())
