"""`inspect` and `call`: a registry as people read it, and one call as a client reads it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

from .._host.answer import answer
from .._host.registry import ToolRegistry
from .._host.tool import Tool, resolved
from .target import Usage, load

__all__ = ["LISTINGS", "call", "inspect"]

LISTINGS: dict[str, Callable[[ToolRegistry], Sequence[object]]] = {
    "mcp": lambda registry: registry.mcp_tools(),
    "openai-strict": lambda registry: registry.openai_tools(),
    "anthropic": lambda registry: registry.anthropic_tools(),
    "gemini": lambda registry: registry.gemini_tools(),
}
"""What `inspect --json` prints for each profile: the registry's listing for that place."""

_HINTS = (
    ("read_only", "read-only"),
    ("destructive", "destructive"),
    ("idempotent", "idempotent"),
    ("open_world", "open world"),
)


def inspect(target: str, profile: str, *, as_json: bool) -> str:
    """Each tool, its annotations, scopes and fields, then every portability row; or a listing."""
    registry = _registry(target)
    if as_json:
        return json.dumps(LISTINGS[profile](registry), indent=2)
    lines: list[str] = []
    for t in registry:
        lines += _tool(t)
    rows = registry.portability()
    lines.append(f"portability: {len(rows) or 'no'} rule{'' if len(rows) == 1 else 's'} broken")
    lines += (f"  {r['provider']}\t{r['tool'] or '(all)'}\t{r['rule']}" for r in rows)
    return "\n".join(lines)


def _tool(t: Tool[..., Any]) -> list[str]:
    notes = t.annotations
    said = [word for slot, word in _HINTS if getattr(notes, slot)]
    said += [f"not {word}" for slot, word in _HINTS[2:] if getattr(notes, slot) is False]
    lines = [f"{t.name}  (toolkit {t.toolkit})", f"  {t.description}"]
    if notes.title:
        lines.append(f"  title: {notes.title}")
    lines.append(f"  annotations: {', '.join(said) or 'none'}")
    scopes: object = getattr(t, "scopes", None)  # where the tool has scopes
    if scopes is not None:
        named = sorted(map(str, cast("Iterable[object]", scopes)))
        lines.append(f"  scopes: {', '.join(named) or 'none'}")
    schema = t.input.rendered("mcp", in_words=True)["properties"]
    lines.append("  fields:" if t.input.fields else "  fields: none")
    for f in t.input.fields:
        listed: dict[str, Any] = schema.get(f.name, {})
        need = "required" if f.required else "optional"
        words = listed.get("description")
        lines.append(f"    {f.name}: {_type(listed)}, {need}{f'. {words}' if words else ''}")
    return lines


def _type(schema: dict[str, Any]) -> str:
    """A listed schema's type in a few words: `integer`, `array of string`, `one of "a", "b"`."""
    if "enum" in schema:
        values: list[Any] = schema["enum"]
        return "one of " + ", ".join(json.dumps(value) for value in values)
    if "anyOf" in schema:
        branches: list[dict[str, Any]] = schema["anyOf"]
        return " or ".join(_type(branch) for branch in branches)
    kind: object = schema.get("type", "any value")
    if isinstance(kind, list):
        return " or ".join(map(str, cast("list[object]", kind)))
    if kind == "array" and "items" in schema:
        return f"array of {_type(schema['items'])}"
    return str(kind)


async def call(
    target: str, name: str, arguments: str | None, factory: str | None
) -> tuple[str, bool]:
    """The text a client reads of one call, and whether it was refused."""
    registry = _registry(target)
    t = registry.get(name)
    kind = None if t is None else resolved(t).call_type
    if kind is not None and factory is None:
        msg = (
            f"{name} takes a call object of type {kind.__name__}: "
            "name a function making one with --call MODULE:FACTORY"
        )
        raise Usage(msg)
    make_call = load(factory) if factory is not None else None
    if make_call is not None and not callable(make_call):
        msg = f"--call {factory} is {_kind(make_call)}, not a function returning the call object"
        raise Usage(msg)
    result = await answer(registry, name, arguments, make_call or (lambda: None))
    return result.text, result.is_error


def _registry(target: str) -> ToolRegistry:
    found = load(target)
    if not isinstance(found, ToolRegistry):
        msg = f"{target} is {_kind(found)}, not a ToolRegistry"
        raise Usage(msg)
    return found


def _kind(found: object) -> str:
    return (
        f"a {type(found).__name__}"
        if not isinstance(found, type)
        else f"the class {found.__name__}"
    )
