"""What a registry lists for each place a host sends its tools: built once, handed out copied.

The listings, portability and the modules that render them load when a listing is first asked
for: a host that only declares and runs tools never loads them.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any, Literal, TypeVar

if typing.TYPE_CHECKING:
    from .._render.listings import (
        AnthropicTool,
        GeminiFunction,
        OpenAIApi,
        OpenAIChatTool,
        OpenAITool,
    )
    from .._render.schema import Kept
    from .tool import Tool

__all__ = ["Listings"]

_Entry = TypeVar("_Entry")


class Listings:
    """The listings of a registry's tools: MCP, OpenAI, Anthropic, Gemini, and portability."""

    __slots__ = ()
    tools: tuple[Tool[..., Any], ...]
    bounds_in_words: bool
    _listings: dict[tuple[object, ...], Kept]

    def mcp_tools(self) -> list[dict[str, Any]]:
        """The MCP `tools/list` entries, in order: plain copies, the caller's own."""
        from .._render.listings import mcp_entry  # noqa: PLC0415 - on first use
        from .results import kept_output_schema  # noqa: PLC0415

        words = self.bounds_in_words
        return self._listed(("mcp",), lambda t: mcp_entry(t, kept_output_schema(t), in_words=words))

    @typing.overload
    def openai_tools(
        self, *, api: Literal["responses"] = ..., strict: bool = ...
    ) -> list[OpenAITool]: ...
    @typing.overload
    def openai_tools(self, *, api: Literal["chat"], strict: bool = ...) -> list[OpenAIChatTool]: ...
    def openai_tools(
        self, *, api: OpenAIApi = "responses", strict: bool = True
    ) -> list[OpenAITool] | list[OpenAIChatTool]:
        """OpenAI function tools for the Responses API (`api="responses"`) or Chat Completions.

        With `strict`, each tool the strict profile can state is strict; any other is listed
        with `"strict": false` and its MCP schema. Each entry's type is the one the SDK's own
        `create(tools=...)` takes.
        """
        if api not in ("responses", "chat"):
            msg = f"api is 'responses' or 'chat', got {api!r}"
            raise ValueError(msg)
        from .._render.listings import openai_chat_entry, openai_entry  # noqa: PLC0415

        words, on = self.bounds_in_words, bool(strict)
        if api == "chat":
            return self._listed(
                ("openai", api, on), lambda t: openai_chat_entry(t, strict=on, in_words=words)
            )
        return self._listed(
            ("openai", api, on), lambda t: openai_entry(t, strict=on, in_words=words)
        )

    def anthropic_tools(self, *, strict: bool = True) -> list[AnthropicTool]:
        """Anthropic tools; with `strict`, `"strict": true` on each tool strict use can take."""
        from .._render.listings import anthropic_entry  # noqa: PLC0415 - on first use

        words = self.bounds_in_words
        return self._listed(
            ("anthropic", bool(strict)),
            lambda t: anthropic_entry(t, strict=bool(strict), in_words=words),
        )

    def gemini_tools(self) -> list[GeminiFunction]:
        """Gemini function declarations: `name`, `description`, `parameters`."""
        from .._render.listings import gemini_entry  # noqa: PLC0415 - on first use

        words = self.bounds_in_words
        return self._listed(("gemini",), lambda t: gemini_entry(t, in_words=words))

    def portability(self) -> list[dict[str, str | None]]:
        """Each rule a provider states that this registry breaks: provider, tool and rule.

        Computed when asked; it never raises.
        """
        from .._render.listings import (  # noqa: PLC0415 - on first use
            anthropic_entry,
            gemini_entry,
            openai_entry,
        )
        from .._render.providers import broken_rules  # noqa: PLC0415

        words = self.bounds_in_words
        listings = {
            "openai": self._kept(
                ("openai", "responses", True),
                lambda t: openai_entry(t, strict=True, in_words=words),
            ).value,
            "gemini": self._kept(("gemini",), lambda t: gemini_entry(t, in_words=words)).value,
            "anthropic": self._kept(
                ("anthropic", True), lambda t: anthropic_entry(t, strict=True, in_words=words)
            ).value,
        }
        return broken_rules(self.tools, listings)

    def _listed(
        self, key: tuple[object, ...], entry: Callable[[Tool[..., Any]], _Entry]
    ) -> list[_Entry]:
        """A listing built once and handed out copied."""
        return typing.cast("list[_Entry]", self._kept(key, entry).copy())

    def _kept(self, key: tuple[object, ...], entry: Callable[[Tool[..., Any]], object]) -> Kept:
        """A listing built once (two threads may both build it, equal) and kept unchanged."""
        listing = self._listings.get(key)
        if listing is None:
            from .._render.schema import Kept  # noqa: PLC0415 - on first use

            listing = self._listings.setdefault(key, Kept([entry(t) for t in self.tools]))
        return listing
