"""What each provider takes, in one place: how its schemas differ from MCP's, and its limits.

A profile (`PROFILES`) says how one place's schemas differ; `_schema` renders every profile from
the field model, and a tool a profile cannot state raises there, naming the field. The limits are
the providers' documented ones (the docs' provider page cites each). `broken_rules` reads them
against the listings as rendered, one pass over each schema: nothing here walks the field model.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterator
from typing import Any, TypeAlias

from .._model.frozen import Frozen

if typing.TYPE_CHECKING:
    from .listed import Listed

__all__ = ["PROFILES", "PROFILE_NAMES", "Profile", "broken_rules"]

OPENAI_TOOLS = 128
"""Function tools in one OpenAI request (the API refuses more: `array_above_max_length`)."""
OPENAI_DEPTH = 10
"""Levels of objects and arrays in one strict schema, the root object being the first."""
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
ANTHROPIC_UNIONS = 16
"""Parameters with `anyOf` or a list of types across all strict schemas of one request."""


class Profile(Frozen):
    """How one place's schemas differ from MCP's."""

    __slots__ = (
        "closed",
        "every_key",
        "nulls",
        "string_enums",
        "records",
        "empty",
        "upper",
        "unions",
        "first_keys",
        "depth",
    )
    closed: bool
    """Every object but a record says `additionalProperties: false`."""
    every_key: bool
    """Every property is listed in `required`, which is there even when empty."""
    nulls: str
    """How a value that may be null says so: not at all, `type: [T, "null"]`, or `nullable`."""
    string_enums: bool
    """Only strings are listed in `enum`; other choices are said in the description."""
    records: str | None
    """Why a record cannot be stated; None when it can."""
    empty: str | None
    """Why a nested object with no properties cannot be stated; None when it can."""
    upper: bool
    """Types are written in capitals, as the place's own protocol names them."""
    unions: bool
    """Every branch of a union is listed, with `anyOf` (else only the first)."""
    first_keys: str | None
    """Why objects in one `anyOf` may not share their first key; None when they may."""
    depth: tuple[int, str] | None
    """The levels of objects and arrays a schema may nest, and who says so; None for any."""

    def __init__(  # noqa: PLR0913 - one fact each
        self,
        *,
        closed: bool = False,
        every_key: bool = False,
        nulls: str = "",
        string_enums: bool = False,
        records: str | None = None,
        empty: str | None = None,
        upper: bool = False,
        unions: bool = False,
        first_keys: str | None = None,
        depth: tuple[int, str] | None = None,
    ) -> None:
        self._set(
            closed, every_key, nulls, string_enums, records, empty, upper, unions, first_keys, depth
        )


PROFILES: dict[str, Profile] = {
    "mcp": Profile(),
    "openai-strict": Profile(
        closed=True,
        every_key=True,
        nulls="type",
        records="OpenAI's strict mode closes every object to keys it does not list",
        unions=True,
        first_keys="OpenAI's strict mode refuses objects in anyOf that share their first key",
        depth=(OPENAI_DEPTH, "OpenAI's strict mode"),
    ),
    "gemini": Profile(
        nulls="nullable",
        string_enums=True,
        records="Gemini takes no object without its properties listed",
        empty="Gemini takes no object without properties listed",
        upper=True,
        unions=True,
    ),
    "anthropic": Profile(closed=True, unions=True),
    "anthropic-strict": Profile(
        closed=True,
        unions=True,
        records="Anthropic's strict tool use closes every object to keys it does not list",
    ),
}
"""Every profile by name: `mcp` is what an MCP client lists; `anthropic-strict` is the
`anthropic` schema of a tool strict tool use can take, and refuses any other."""

PROFILE_NAMES = ("mcp", "openai-strict", "gemini", "anthropic")
"""The profiles a host may ask for by name."""


# --- what a registry's listings break -----------------------------------------------------------

Row = dict[str, str | None]
Entries = list[dict[str, Any]]
Tools: TypeAlias = "tuple[Listed, ...]"
Check: TypeAlias = "Callable[[Tools, dict[str, Entries], list[list[str]]], Iterator[Row]]"


class Tally:
    """What one rendered schema holds, counted in one pass: what the limits are about."""

    __slots__ = ("properties", "values", "optional", "unions", "union_paths")

    def __init__(self, schema: dict[str, Any]) -> None:
        self.properties = self.values = self.optional = self.unions = 0
        self.union_paths: list[str] = []
        stack: list[tuple[dict[str, Any], str]] = [(schema, "")]
        while stack:
            part, path = stack.pop()
            inner: list[tuple[dict[str, Any], str]] = []
            self.values += len(part.get("enum") or ())
            if "anyOf" in part:
                self.unions += 1
                self.union_paths.append(path)
                inner += ((branch, path) for branch in part["anyOf"])
            elif isinstance(part.get("type"), list):
                self.unions += 1
            properties: dict[str, dict[str, Any]] = part.get("properties") or {}
            self.properties += len(properties)
            self.optional += len(properties) - len(part.get("required") or ())
            inner += (
                (value, f"{path}.{key}" if path else key) for key, value in properties.items()
            )
            if "items" in part:
                inner.append((part["items"], f"{path}[]"))
            stack += reversed(inner)  # popped in the schema's own order


def broken_rules(tools: Tools, listings: dict[str, Entries]) -> list[Row]:
    """Every row, provider by provider; it never raises.

    `listings` holds the registry's kept `openai` (Responses, strict), `gemini` and `anthropic`
    (strict) listings, entry by entry in the order of `tools`.
    """
    # every branch of every union, as the one profile that lists them for every tool writes it
    unions = [Tally(t.input.rendered("anthropic")).union_paths for t in tools]
    return [row for check in _CHECKS for row in check(tools, listings, unions)]


def _row(provider: str, tool: str | None, rule: str) -> Row:
    return {"provider": provider, "tool": tool, "rule": rule}


def _why(t: Listed, profile: str) -> str:
    """The renderer's own words for why `profile` cannot state the tool."""
    try:
        t.input.rendered(profile)
    except ValueError as exc:
        return str(exc)
    return "it cannot be stated"  # pragma: no cover - only asked of a tool that was refused


def _first_only(provider: str, t: Listed, paths: list[str], listed: str) -> Iterator[Row]:
    for path in paths:
        yield _row(
            provider,
            t.name,
            f"the union at {path!r} is listed by its first branch alone ({listed}); a model "
            "cannot send the others",
        )


def _openai(tools: Tools, listings: dict[str, Entries], unions: list[list[str]]) -> Iterator[Row]:
    if len(tools) > OPENAI_TOOLS:
        yield _row("openai", None, _too_many(len(tools), OPENAI_TOOLS, "function tools"))
    for t, entry, paths in zip(tools, listings["openai"], unions, strict=True):
        if not entry["strict"]:
            why = _why(t, "openai-strict")
            yield _row("openai", t.name, f"strict mode cannot state it ({why}); listed non-strict")
            yield from _first_only("openai", t, paths, "the MCP schema, listed non-strict")
            continue
        tally = Tally(entry["parameters"])
        for counted, most, what in (
            (tally.properties, OPENAI_PROPERTIES, "has {} properties"),
            (tally.values, OPENAI_ENUM_VALUES, "lists {} enum values"),
        ):
            if counted > most:
                yield _row(
                    "openai", t.name, f"{what.format(counted)}; strict mode takes {most} a schema"
                )


def _gemini(tools: Tools, listings: dict[str, Entries], unions: list[list[str]]) -> Iterator[Row]:
    if len(tools) > GEMINI_TOOLS:
        yield _row("gemini", None, _too_many(len(tools), GEMINI_TOOLS, "function declarations"))
    for t, entry, paths in zip(tools, listings["gemini"], unions, strict=True):
        if len(t.name) > GEMINI_NAME:
            yield _row(
                "gemini",
                t.name,
                f"its name has {len(t.name)} characters; Gemini's API reference allows "
                f"{GEMINI_NAME}",
            )
        if "parametersJsonSchema" in entry:
            why = _why(t, "gemini")
            yield _row(
                "gemini",
                t.name,
                f"its parameters cannot be stated ({why}); declared by parametersJsonSchema",
            )
            yield from _first_only("gemini", t, paths, "the MCP schema, in parametersJsonSchema")


def _anthropic(
    tools: Tools, listings: dict[str, Entries], unions: list[list[str]]
) -> Iterator[Row]:
    del unions  # Anthropic lists every branch, strict or not
    entries = listings["anthropic"]
    strict = [Tally(e["input_schema"]) for e in entries if e.get("strict")]
    if len(strict) > ANTHROPIC_STRICT_TOOLS:
        yield _row(
            "anthropic",
            None,
            _too_many(len(strict), ANTHROPIC_STRICT_TOOLS, "strict tools")
            + ", or list them with anthropic_tools(strict=False)",
        )
    for counted, most, what, fix in (
        (
            sum(s.optional for s in strict),
            ANTHROPIC_OPTIONAL,
            "optional parameters",
            ", or make fields required",
        ),
        (sum(s.unions for s in strict), ANTHROPIC_UNIONS, "parameters with anyOf", ""),
    ):
        if counted > most:
            yield _row(
                "anthropic",
                None,
                f"the strict tools have {counted} {what}; a request takes {most} (list fewer "
                f"tools strict{fix})",
            )
    for t, entry in zip(tools, entries, strict=True):
        if not entry.get("strict"):
            why = _why(t, "anthropic-strict")
            rule = f"strict tool use cannot take it ({why}); listed non-strict"
            yield _row("anthropic", t.name, rule)


def _mcp(tools: Tools, listings: dict[str, Entries], unions: list[list[str]]) -> Iterator[Row]:
    del listings  # the MCP schema lists a union's first branch, always
    for t, paths in zip(tools, unions, strict=True):
        yield from _first_only("mcp", t, paths, "as MCP schemas list unions")


def _too_many(count: int, most: int, what: str) -> str:
    return f"{count} {what} in one listing; a request takes {most}: select() fewer toolkits"


_CHECKS: tuple[Check, ...] = (_openai, _gemini, _anthropic, _mcp)
