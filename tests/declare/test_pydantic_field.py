"""pydantic's `Field` in `Annotated`: its description and bounds read like the package's own.

What someone coming from FastAPI or fastmcp writes first. A bound written in a `Field` is enforced
exactly as the annotated-types one it stands for, at every depth; anything else a `Field` sets is
a `TypeError` at decoration naming the tool, the field and the setting. Real pydantic objects.
"""

import dataclasses
import subprocess
import sys
import warnings
from typing import Annotated, Any, TypedDict

import annotated_types as at
import pytest
from helpers import refused
from needs import missing
from typing_extensions import Doc

from adecore_tools import ToolRefusal, parse_tool_input, tool, tool_input_schema

pydantic = pytest.importorskip("pydantic", reason=missing("pydantic"))
Field = pydantic.Field


def declare(annotation: object, default: object = dataclasses.MISSING, name: str = "count"):
    """A tool `count` with one field `n` of this annotation."""

    async def fn(n) -> None:
        """Counts."""

    fn.__annotations__ = {"n": annotation, "return": None}
    if default is not dataclasses.MISSING:
        fn.__defaults__ = (default,)
    return tool("kit", name=name)(fn)


def test_a_field_s_bounds_and_description_are_read_where_they_were_dropped():
    limited = declare(Annotated[int, Field(ge=1, le=50, description="How many.")], 10)
    assert refused(limited, {"n": 0}) == "n: expected at least 1, got 0"
    assert refused(limited, {"n": 10000}) == "n: expected at most 50, got 10000"
    assert parse_tool_input(limited, {"n": 50}) == {"n": 50}
    assert parse_tool_input(limited, {}) == {"n": 10}
    assert tool_input_schema(limited)["properties"]["n"]["description"] == "How many."


BOUNDS = [
    ({"gt": 1}, at.Gt(1), int),
    ({"ge": 1}, at.Ge(1), int),
    ({"lt": 5.5}, at.Lt(5.5), float),
    ({"le": 5}, at.Le(5), float),
    ({"multiple_of": 3}, at.MultipleOf(3), int),
    ({"min_length": 2}, at.MinLen(2), str),
    ({"max_length": 2}, at.MaxLen(2), list[int]),
]


@pytest.mark.parametrize(("given", "own", "kind"), BOUNDS, ids=[str(b[0]) for b in BOUNDS])
def test_each_bound_of_a_field_is_the_annotated_types_bound_it_stands_for(given, own, kind):
    from_field = declare(Annotated[kind, Field(description="Said.", **given)])
    from_own = declare(Annotated[kind, Doc("Said."), own])
    assert from_field.input.fields == from_own.input.fields
    assert tool_input_schema(from_field) == tool_input_schema(from_own)
    for sent in (0, 1, 3, 6, 5.5, "a", "abc", [1], [1, 2, 3]):
        assert _outcome(from_field, sent) == _outcome(from_own, sent)


def _outcome(t: Any, sent: object) -> object:
    try:
        return parse_tool_input(t, {"n": sent})
    except ToolRefusal as exc:
        return exc.message


class Row(TypedDict):
    amount: Annotated[int, Field(ge=0, description="Cents.")]


@dataclasses.dataclass
class Order:
    rows: list[Row]
    note: Annotated[str, Field(max_length=3)] = "-"


def test_a_field_s_bounds_hold_at_every_depth():
    t = declare(list[Order])
    text = refused(t, {"n": [{"rows": [{"amount": 1}, {"amount": -1}], "note": "long"}]})
    assert "n[0].rows[1].amount: expected at least 0, got -1" in text
    assert "n[0].note: expected at most 3 characters, got 4" in text
    amount = tool_input_schema(t)["properties"]["n"]["items"]["properties"]["rows"]["items"]
    assert amount["properties"]["amount"]["description"] == "Cents."
    items = declare(list[Annotated[int, Field(lt=3)]])
    assert refused(items, {"n": [1, 3]}) == "n[1]: expected less than 3, got 3"


def test_a_field_s_description_comes_before_the_docstring_like_a_doc():
    async def fn(n: Annotated[int, Field(description="From the Field.")]) -> None:
        """Counts.

        Args:
            n: From the docstring.
        """

    assert tool("kit")(fn).input.fields[0].description == "From the Field."


UNHONOURED = [
    ({"pattern": "^[a-z]+$"}, "pattern='^[a-z]+$'", "Predicate(re.compile(PATTERN).fullmatch)"),
    ({"alias": "N"}, "alias='N'", "rename the parameter"),
    ({"validation_alias": "N"}, "validation_alias='N'", "rename the parameter"),
    ({"serialization_alias": "N"}, "serialization_alias='N'", "rename the parameter"),
    ({"strict": True}, "strict=True", "own type rules"),
    ({"strict": False}, "strict=False", "own type rules"),
    ({"default": 3}, "default=3", "the parameter's or dataclass field's own default"),
    ({"default_factory": list}, "default_factory=<class 'list'>", "field(default_factory=...)"),
    ({"title": "N"}, "title='N'", "no titles"),
    ({"examples": [1]}, "examples=[1]", "no examples"),
    ({"json_schema_extra": {"a": 1}}, "json_schema_extra={'a': 1}", "writes every schema"),
    ({"allow_inf_nan": True}, "allow_inf_nan=True", "finite numbers only"),
    ({"frozen": True}, "frozen=True", "builds none"),
    ({"exclude": True}, "exclude=True", "builds none"),
    ({"discriminator": "kind"}, "discriminator='kind'", "tried in order"),
    ({"coerce_numbers_to_str": True}, "coerce_numbers_to_str=True", "own type rules"),
    ({"max_digits": 3}, "max_digits=3", "Decimal"),
]


@pytest.mark.parametrize(("given", "setting", "advice"), UNHONOURED, ids=[u[1] for u in UNHONOURED])
def test_what_a_field_sets_that_cannot_be_honoured_is_a_type_error_naming_it(
    given, setting, advice
):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pydantic's own about some settings out of a model
        meta = Field(ge=0, **given)
    with pytest.raises(TypeError) as caught:
        declare(Annotated[int, meta])
    text = str(caught.value)
    assert text.startswith("field 'n' of tool 'count': pydantic's Field sets ")
    assert setting in text
    assert advice in text


@pytest.mark.parametrize(
    "meta",
    [
        pytest.param(pydantic.Strict, id="Strict"),
        pytest.param(lambda: pydantic.AfterValidator(str.strip), id="AfterValidator"),
        pytest.param(lambda: pydantic.StringConstraints(pattern="^a"), id="StringConstraints"),
    ],
)
def test_pydantic_s_other_metadata_is_refused_not_ignored(meta):
    with pytest.raises(TypeError, match=r"field 'n' of tool 'count': pydantic's .* cannot honour"):
        declare(Annotated[str, meta()])


def test_a_field_inside_an_object_is_refused_with_the_path_of_its_key():
    class Bad(TypedDict):
        code: Annotated[str, Field(pattern="^[A-Z]+$")]

    with pytest.raises(TypeError, match=r"field 'n\[\]\.code' of tool 'count': .* pattern="):
        declare(list[Bad])


def test_a_field_of_pydantic_v1_is_refused():
    from pydantic.v1 import Field as OldField  # noqa: PLC0415 - only this test reads it

    with pytest.raises(TypeError, match=r"pydantic\.v1"):
        declare(Annotated[int, OldField(ge=1)])


def test_a_field_with_nothing_set_and_field_ellipsis_are_read():
    assert declare(Annotated[int, Field()]).input.fields[0].required
    assert declare(Annotated[int, Field(..., gt=0)]).input.fields[0].required


def test_reading_a_field_never_imports_pydantic():
    code = (
        "import sys, annotated_types, adecore_tools\n"
        "from typing import Annotated\n"
        "@adecore_tools.tool('kit')\n"
        "async def f(n: Annotated[int, annotated_types.Ge(1)]) -> None:\n"
        "    '''F.'''\n"
        "assert not [m for m in sys.modules if m.split('.')[0] in ('pydantic', 'pydantic_core')]\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)  # noqa: S603 - our own code


def test_a_subclass_of_field_info_from_another_package_is_read_and_checked_the_same():
    class Column(pydantic.fields.FieldInfo):  # as sqlmodel's FieldInfo is, with its own settings
        __slots__ = "primary_key"  # noqa: PLC0205 - a string: one slot, as Python reads it

        def __init__(self, *, primary_key: bool | None = None, **given: Any) -> None:
            super().__init__(**given)
            self.primary_key = primary_key

    counted = declare(Annotated[int, Column(ge=1)])
    assert refused(counted, {"n": 0}) == "n: expected at least 1, got 0"
    with pytest.raises(TypeError, match="pattern="):
        declare(Annotated[str, Column(pattern="a")])
    with pytest.raises(TypeError, match=r"sets primary_key=True, .* this package does not read it"):
        declare(Annotated[int, Column(primary_key=True)])


def test_a_field_written_as_the_default_is_a_type_error_saying_to_annotate():
    with pytest.raises(TypeError) as caught:
        declare(int, Field(10, ge=1))
    assert str(caught.value) == (
        "field 'n' of tool 'count': pydantic's Field as the default is not read; write it in "
        "the annotation, and the default after it (n: Annotated[int, Field(ge=1)] = 10)"
    )

    @dataclasses.dataclass
    class Page:
        size: int = Field(ge=1)

    with pytest.raises(TypeError, match=r"field 'n\.size' of tool 'count': pydantic's Field as"):
        declare(Page)
