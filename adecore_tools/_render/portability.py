"""Portability: each rule a provider states that a registry's tools break.

One row per problem: the provider, the tool (`None` for a rule about the whole listing) and the
rule, in words a host can act on. The limits are the providers' documented ones (the docs'
provider page cites each); the names this package allows already keep every provider's name
rules but Gemini's oldest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .._host.tool import Tool
from .._model.nodes import Field, Object, core
from .listings import anthropic_entry

__all__ = ["broken_rules"]

Row = dict[str, str | None]

OPENAI_TOOLS = 128
"""Function tools in one OpenAI request (the API refuses more: `array_above_max_length`)."""
OPENAI_DEPTH = 10
"""Levels of nesting in one strict schema."""
OPENAI_ENUM_VALUES = 1000
"""Enum values across one strict schema."""
OPENAI_PROPERTIES = 5000
"""Object properties across one strict schema."""
GEMINI_TOOLS = 128
"""Function declarations in one Gemini request (Vertex AI's documented limit)."""
GEMINI_NAME = 63
"""The longest function name Gemini's API reference allows (its newer SDK says 128)."""
ANTHROPIC_STRICT_TOOLS = 20
"""Strict tools in one Anthropic request."""
ANTHROPIC_OPTIONAL = 24
"""Optional parameters across all strict schemas of one Anthropic request."""


def broken_rules(tools: tuple[Tool[..., Any], ...]) -> list[Row]:
    """Every row, provider by provider; it never raises."""
    return [row for check in _CHECKS for row in check(tools)]


def _row(provider: str, tool: str | None, rule: str) -> Row:
    return {"provider": provider, "tool": tool, "rule": rule}


def _openai(tools: tuple[Tool[..., Any], ...]) -> Iterator[Row]:
    if len(tools) > OPENAI_TOOLS:
        yield _row("openai", None, _too_many(len(tools), OPENAI_TOOLS, "function tools"))
    for t in tools:
        try:
            schema = t.input.rendered("openai-strict")
        except ValueError as exc:
            yield _row("openai", t.name, f"strict mode cannot state it ({exc}); listed non-strict")
            continue
        depth, properties, values = _measure(schema)
        if depth > OPENAI_DEPTH:
            yield _row("openai", t.name, f"nests {depth} levels; strict mode takes {OPENAI_DEPTH}")
        if properties > OPENAI_PROPERTIES:
            yield _row(
                "openai",
                t.name,
                f"has {properties} properties; strict mode takes {OPENAI_PROPERTIES} a schema",
            )
        if values > OPENAI_ENUM_VALUES:
            yield _row(
                "openai",
                t.name,
                f"lists {values} enum values; strict mode takes {OPENAI_ENUM_VALUES} a schema",
            )


def _gemini(tools: tuple[Tool[..., Any], ...]) -> Iterator[Row]:
    if len(tools) > GEMINI_TOOLS:
        yield _row("gemini", None, _too_many(len(tools), GEMINI_TOOLS, "function declarations"))
    for t in tools:
        if len(t.name) > GEMINI_NAME:
            yield _row(
                "gemini",
                t.name,
                f"its name has {len(t.name)} characters; Gemini's API reference allows "
                f"{GEMINI_NAME}",
            )
        if not t.input.fields:
            continue
        try:
            t.input.rendered("gemini")
        except ValueError as exc:
            yield _row(
                "gemini",
                t.name,
                f"its parameters cannot be stated ({exc}); declared by parametersJsonSchema",
            )


def _anthropic(tools: tuple[Tool[..., Any], ...]) -> Iterator[Row]:
    strict = [t for t in tools if _strict_for_anthropic(t)]
    if len(strict) > ANTHROPIC_STRICT_TOOLS:
        yield _row(
            "anthropic",
            None,
            _too_many(len(strict), ANTHROPIC_STRICT_TOOLS, "strict tools")
            + ", or list them with anthropic_tools(strict=False)",
        )
    optional = sum(_optional(t.input.fields) for t in strict)
    if optional > ANTHROPIC_OPTIONAL:
        yield _row(
            "anthropic",
            None,
            f"the strict tools have {optional} optional parameters; a request takes "
            f"{ANTHROPIC_OPTIONAL} (list fewer tools strict, or make fields required)",
        )
    for t in tools:
        if t not in strict:
            yield _row(
                "anthropic",
                t.name,
                "strict tool use closes every object, and a record is open; listed non-strict",
            )


def _strict_for_anthropic(t: Tool[..., Any]) -> bool:
    return "strict" in anthropic_entry(t, strict=True, in_words=False)


def _optional(fields: tuple[Field, ...]) -> int:
    """Properties not listed as required, at every depth of objects."""
    count = 0
    for f in fields:
        count += not f.required
        node = core(f.type)
        if isinstance(node, Object):
            count += _optional(node.fields)
    return count


def _measure(schema: dict[str, Any], depth: int = 1) -> tuple[int, int, int]:
    """Levels of objects, properties and enum values in a schema."""
    deepest, properties, values = depth, 0, len(schema.get("enum") or ())
    inner = [schema["items"]] if "items" in schema else []
    props: dict[str, Any] = schema.get("properties") or {}
    properties += len(props)
    inner += props.values()
    for part in inner:
        nested = depth + 1 if "properties" in part else depth
        d, p, v = _measure(part, nested)
        deepest, properties, values = max(deepest, d), properties + p, values + v
    return deepest, properties, values


def _too_many(count: int, most: int, what: str) -> str:
    return f"{count} {what} in one listing; a request takes {most}: select() fewer toolkits"


_CHECKS: tuple[Callable[[tuple[Tool[..., Any], ...]], Iterator[Row]], ...] = (
    _openai,
    _gemini,
    _anthropic,
)
