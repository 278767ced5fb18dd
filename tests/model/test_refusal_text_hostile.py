"""The text helpers read text through `str`'s own methods: a lying `str` subclass forges nothing."""

from __future__ import annotations

import pytest

from adecore_tools import (
    ToolRefusal,
    field,
    parse_refusal_body,
    refusal_body,
)

# --- the text helpers read text through str's own methods --------------------------------------


class Lying(str):
    """A str whose own methods lie: printable, nothing to translate, no line to split."""

    __slots__ = ()

    def isprintable(self) -> bool:
        return True

    def translate(self, table: object) -> str:  # noqa: ARG002 - it lies
        return str(self)

    def split(self, *args: object, **kwargs: object) -> list[str]:  # noqa: ARG002 - it raises
        raise RuntimeError("split")

    def __str__(self) -> str:
        return self


def test_a_refusal_with_a_lying_str_row_still_reads_back_exactly():
    refusal = ToolRefusal("not-found", "no such note", [Lying("row\nrefused\tx\ty")])
    body = refusal_body(refusal)
    assert body.count("\n") == 1
    assert parse_refusal_body(body) == refusal


def test_field_of_a_value_whose_str_lies_has_no_line_break():
    class Shown:
        def __str__(self) -> str:
            return Lying("a\nb")

    assert field(Shown()) == "a b"
    assert type(field(Shown())) is str


def test_parse_refusal_body_of_a_str_whose_split_raises_reads_its_text():
    text = Lying("refused\tnot-found\tno such note")
    assert parse_refusal_body(text) == ToolRefusal("not-found", "no such note")


def test_a_lying_str_code_is_read_as_its_text():
    with pytest.raises(ValueError, match="lower kebab case"):
        ToolRefusal(Lying("Not Kebab"), "message")
