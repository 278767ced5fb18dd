"""Bounds: one table of every constraint a field may carry, and all that each one means.

A bound is read once from the host's metadata (annotated-types' `Gt`, `Ge`, `Lt`, `Le`,
`MultipleOf`, `MinLen`, `MaxLen`, `Predicate` and `Not`, grouped ones unpacked, and this
package's `required_field`) into a `Bound`: its rule and its limit. The rule is the one place
that says what the bound applies to, how its limit is checked when the tool is declared, how a
value is tested, how the generated fast path inlines that test, and the words a refusal and a
description use. Nothing else asks a bound what class it is: a new bound is one entry in `_RULES`.
"""

from __future__ import annotations

import itertools
import math
import operator
import sys
import types
import typing
from collections.abc import Callable, Sized
from typing import Any, ClassVar

import annotated_types as at

from .errors import Where, check_callable, is_class, type_name, written
from .metadata import RequiredField
from .nodes import Array, Bound, Choice, Node, Record, Scalar, core, given, made_by, numeric
from .problems import Problem
from .words import declared, one_line, said, show

__all__ = [
    "Rule",
    "Test",
    "check_meetable",
    "lengths",
    "longest",
    "read_bound",
]

Test = Callable[[Any], "str | Problem | None"]
"""A bound's test of a value of the right type: None when the value meets it, else the problem."""
Ref = Callable[[object], str]  # names a value for generated code, as a bound's limit is named

_LOW, _HIGH = -1, 1
_UNSAID = "a value passing its check"  # a predicate with no name: a description learns nothing


class Rule:
    """One kind of bound: what it applies to, how it is tested, inlined and said.

    `side` is `_LOW` for a least value, `_HIGH` for a most, 0 for neither; `strict` whether the
    limit itself is outside (`Gt`, `Lt`). A `relying` test may rely on the bounds before it (a
    predicate: `xs[0]` after `MinLen(1)`). The `required` rule is `required_field`'s.
    """

    __slots__ = ("side", "strict")
    applies_to: ClassVar[str] = "any value"
    relying: ClassVar[bool] = False
    required: ClassVar[bool] = False

    def __init__(self, side: int = 0, *, strict: bool = False) -> None:
        self.side = side
        self.strict = strict

    def limit(self, meta: Any) -> object:
        """The one value the metadata holds: 3 in `Gt(3)`, 5 in `MaxLen(5)`."""
        return getattr(meta, meta.__match_args__[0])

    def shown(self, meta: object) -> str:
        """The bound's name in a declaration error, as the host wrote it."""
        return type(meta).__name__

    def fits(self, base: Node) -> bool:  # noqa: ARG002 - some kinds fit every type
        """Whether it can apply to the type `base` (under `| None` and bounds)."""
        return True

    def misfit(self, meta: object, base: Node) -> str:
        """Why it cannot apply to `base`."""
        return f"{self.shown(meta)} bounds {self.applies_to}; it cannot apply to {_kind(base)}"

    def takes_made(self, made: type) -> bool:  # noqa: ARG002 - some kinds take anything
        """Whether it can apply to what a transform that is this class makes."""
        return True

    def check_limit(self, bound: Bound, node: Node, where: Where) -> None:
        """Refuse a limit no value could be tested against."""

    def test(self, limit: Any, base: Node) -> Test:
        """The test of a value of the type `base`."""
        raise NotImplementedError

    def inline(self, limit: Any, value: str, ref: Ref, kind: type | None) -> str | None:  # noqa: ARG002
        """An expression true when `value` (of exactly the scalar `kind`) meets it, or None."""
        return None

    def expected(self, limit: Any, base: Node) -> str:
        """What a value must be, after "expected": `at most 5 items`."""
        raise NotImplementedError

    def plain(self, limit: Any, base: Node) -> str | None:
        """The bound as a sentence for a description (`At most 5 items.`), or None."""
        words = self.expected(limit, base)
        return None if words == _UNSAID else f"{words[0].upper()}{words[1:]}."


class _Ordered(Rule):
    """A value, or its length, compared with the limit by `holds`, written `sign` in code."""

    __slots__ = ("holds", "sign", "words")

    def __init__(
        self, holds: Callable[[Any, Any], bool], sign: str, words: str, side: int = 0
    ) -> None:
        super().__init__(side, strict=sign in ("<", ">"))
        self.holds, self.sign, self.words = holds, sign, words


class _Number(_Ordered):
    """`Gt`, `Ge`, `Lt`, `Le`: a number compared with the limit."""

    __slots__ = ()
    applies_to = "a number"

    def fits(self, base: Node) -> bool:
        return numeric(base)

    def misfit(self, meta: object, base: Node) -> str:
        advice = "; list only the values it allows" if isinstance(base, Choice) else ""
        return super().misfit(meta, base) + advice

    def takes_made(self, made: type) -> bool:
        return issubclass(made, (int, float))

    def check_limit(self, bound: Bound, node: Node, where: Where) -> None:  # noqa: ARG002
        limit = bound.limit
        if type(limit) not in (int, float) or limit != limit:  # noqa: PLR0124 - NaN
            shown = self.shown(bound.written)
            raise where.error(TypeError, f"{shown} needs an int or float bound, got {limit!r}")

    def test(self, limit: Any, base: Node) -> Test:
        holds, wanted = self.holds, f"expected {self.expected(limit, base)}"

        def test(value: Any) -> str | None:
            return None if holds(value, limit) else f"{wanted}, got {show(value)}"

        return test

    def inline(self, limit: Any, value: str, ref: Ref, kind: type | None) -> str | None:  # noqa: ARG002
        return f"{value} {self.sign} {ref(limit)}"

    def expected(self, limit: Any, base: Node) -> str:  # noqa: ARG002
        return f"{self.words} {_number(limit)}"


class _Multiple(_Number):
    """`MultipleOf`: `value % step == 0`, exactly for an int beyond a float's precision."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(_is_multiple, "%", "a multiple of")

    def check_limit(self, bound: Bound, node: Node, where: Where) -> None:
        super().check_limit(bound, node, where)
        if not 0 < bound.limit < math.inf:
            text = f"MultipleOf needs a positive finite step, got {written(bound.limit)}"
            raise where.error(ValueError, text)

    def inline(self, limit: Any, value: str, ref: Ref, kind: type | None) -> str | None:
        # an int value with a float step (or the reverse) may overflow: the test handles it
        return f"{value} % {ref(limit)} == 0" if type(limit) is kind else None


class _Length(_Ordered):
    """`MinLen`, `MaxLen`: characters of a string, items of an array, keys of a record."""

    __slots__ = ()
    applies_to = "a length"

    def fits(self, base: Node) -> bool:
        return isinstance(base, (Array, Record)) or (isinstance(base, Scalar) and base.kind is str)

    def takes_made(self, made: type) -> bool:
        return hasattr(made, "__len__")

    def check_limit(self, bound: Bound, node: Node, where: Where) -> None:  # noqa: ARG002
        length = bound.limit
        if type(length) is not int or not 0 <= length <= sys.maxsize:  # as long as Python holds
            shown = "a very large integer" if type(length) is int and length > 0 else repr(length)
            text = f"{self.shown(bound.written)} needs a length from 0 to sys.maxsize, got {shown}"
            raise where.error(ValueError, text)

    def test(self, limit: Any, base: Node) -> Test:
        holds, wanted = self.holds, f"expected {self.expected(limit, base)}"

        def test(value: Sized) -> str | None:
            size = len(value)
            return None if holds(size, limit) else f"{wanted}, got {size}"

        return test

    def inline(self, limit: Any, value: str, ref: Ref, kind: type | None) -> str | None:  # noqa: ARG002
        return f"len({value}) {self.sign} {ref(limit)}"

    def expected(self, limit: Any, base: Node) -> str:
        """`at most 5 items`; a set counts its items once duplicates merge, and says so."""
        unit = _UNITS.get(type(base), "character")
        if isinstance(base, Array) and base.kind in (set, frozenset):
            unit = f"distinct {unit}"
        return f"{self.words} {limit} {unit if limit == 1 else f'{unit}s'}"


_UNITS: dict[type, str] = {Array: "item", Record: "key"}  # a string's: characters


class _Predicate(Rule):
    """`Predicate(fn)`, `Not(fn)`: the host's own test; a `ValueError` from it refuses too."""

    __slots__ = ()
    relying = True

    def limit(self, meta: Any) -> object:
        return meta if isinstance(meta, at.Not) else meta.func

    def check_limit(self, bound: Bound, node: Node, where: Where) -> None:
        fn = bound.limit
        while isinstance(fn, at.Not):
            fn = fn.func
        check_callable(fn, where)
        _fits_predicate(fn, node, where)

    def test(self, limit: Any, base: Node) -> Test:
        wanted = f"expected {self.expected(limit, base)}"

        def test(value: Any) -> str | Problem | None:
            try:
                holds = limit(value)
            except ValueError as exc:
                return Problem((), said(exc, f"{wanted}, got {show(value)}"), authored=True)
            return None if holds else f"{wanted}, got {show(value)}"

        return test

    def expected(self, limit: Any, base: Node) -> str:
        if isinstance(limit, at.Not):
            return f"not {self.expected(limit.func, base)}"
        words = _PREDICATE_WORDS.get(limit)
        if words is not None:
            return words
        name = getattr(limit, "__name__", None)
        if not isinstance(name, str) or not name.strip() or name == "<lambda>":
            return _UNSAID
        return f"a value passing {one_line(name)}"  # a name may be anything, a verbose regex too


class _Required(Rule):
    """`required_field(message)`: a string neither missing nor blank; both say `message`."""

    __slots__ = ()
    applies_to = "a str"
    required = True

    def limit(self, meta: Any) -> object:
        return meta.message

    def shown(self, meta: object) -> str:  # noqa: ARG002 - one name, whatever the class
        return "required_field"

    def fits(self, base: Node) -> bool:
        return isinstance(base, Scalar) and base.kind is str

    def misfit(self, meta: object, base: Node) -> str:  # noqa: ARG002
        return (
            f"required_field is for a str field, not {_kind(base)}; remove it (a field with no "
            "default that does not admit None is required, and MinLen(1) refuses an empty list)"
        )

    def takes_made(self, made: type) -> bool:
        return issubclass(made, str)

    def test(self, limit: Any, base: Node) -> Test:  # noqa: ARG002
        blank = Problem((), limit, authored=True)

        def required(value: str) -> Problem | None:
            return blank if not value or value.isspace() else None

        return required

    def inline(self, limit: Any, value: str, ref: Ref, kind: type | None) -> str | None:  # noqa: ARG002
        return f"{value} and not {value}.isspace()"

    def expected(self, limit: Any, base: Node) -> str:  # noqa: ARG002
        return "non-blank text"


def read_bound(meta: object, node: Node, where: Where) -> Bound | None:
    """The bound `meta` writes on `node`, checked to fit it; None for metadata of no bound."""
    rule = next((_RULES[k] for k in type(meta).__mro__ if k in _RULES), None)
    if rule is None:
        return None
    bound = Bound(rule, rule.limit(meta), meta)
    last = made_by(node)
    if is_class(last) and not rule.takes_made(last):
        shown = rule.shown(meta)
        raise where.error(
            TypeError,
            f"{shown} stands around a type whose Annotated transforms its value into a "
            f"{type_name(last)}, which it cannot apply to; write {shown} inside that Annotated, "
            "before the transform",
        )
    base = core(node)
    if not rule.fits(base):
        raise where.error(TypeError, rule.misfit(meta, base))
    rule.check_limit(bound, node, where)
    return bound


def check_meetable(bounds: list[Bound], node: Node, where: Where) -> None:
    """Refuse bounds no value meets, such as `MinLen(5)` with `MaxLen(2)`, or `Gt(math.inf)`.

    On an `int`, only whole numbers count: `Gt(2.5)` with `Lt(3)` leaves none.
    """
    lows = [b for b in bounds if b.rule.side == _LOW]
    highs = [b for b in bounds if b.rule.side == _HIGH]
    for side, end in ((lows, math.inf), (highs, -math.inf)):
        for bound in side:
            if bound.limit == end:  # numbers from the input are finite
                text = f"no finite number meets {written(bound.written)}; bound it by a number"
                raise where.error(ValueError, text)
    base = core(node)
    whole = isinstance(base, Scalar) and base.kind is int
    for low, high in itertools.product(lows, highs):
        alike = low.rule.applies_to == high.rule.applies_to  # lengths, or numbers
        if alike and not _meet(low, high, whole=whole):
            raise where.error(
                ValueError,
                f"no value meets both {written(low.written)} and {written(high.written)}; "
                "loosen one of them",
            )


def _meet(low: Bound, high: Bound, *, whole: bool) -> bool:
    least, most = low.limit, high.limit
    if whole and not (_infinite(least) or _infinite(most)):
        least = math.floor(least) + 1 if low.rule.strict else math.ceil(least)
        most = math.ceil(most) - 1 if high.rule.strict else math.floor(most)
        return bool(least <= most)
    if low.rule.strict or high.rule.strict:
        return bool(least < most)
    return bool(least <= most)


def longest(bounds: tuple[Bound, ...]) -> Bound | None:
    """The tightest bound on the most items or characters, or None."""
    most = [b for b in bounds if b.rule.side == _HIGH and isinstance(b.rule, _Length)]
    return min(most, key=lambda b: typing.cast("int", b.limit), default=None)


def lengths(bounds: tuple[Bound, ...]) -> tuple[Bound, ...]:
    """The bounds on a length."""
    return tuple(b for b in bounds if isinstance(b.rule, _Length))


def _infinite(bound: float) -> bool:
    return isinstance(bound, float) and math.isinf(bound)  # an int bound may be beyond a float


def _kind(node: Node) -> str:
    return node.kind.__name__ if isinstance(node, Scalar) else type(node).__name__.lower()


def _number(bound: object) -> str:
    """A bound as a model reads it: `0`, not `0.0` (Ge(0) and Ge(0.0) are one bound)."""
    if isinstance(bound, float) and bound.is_integer() and abs(bound) < 2**53:
        return str(int(bound))
    return declared(bound)


def _is_multiple(value: Any, step: Any) -> bool:
    if type(value) is int and type(step) is float and not -_EXACT <= value <= _EXACT:
        # `%` would round the int to a float first (`(2**53 + 1) % 2.0 == 0`), and typing hands
        # `MultipleOf(2)` the `MultipleOf(2.0)` some module wrote before: count exactly
        return _exact_multiple(value, step)
    try:
        return value % step == 0  # type: ignore[no-any-return]
    except OverflowError:  # an int beyond a float's range, with a float step: count exactly
        return _exact_multiple(value, step)


_EXACT = 2**53
"""Every int from `-_EXACT` to `_EXACT` is a float exactly; `%` rounds one beyond to a float."""


def _exact_multiple(value: int, step: float) -> bool:
    from fractions import Fraction  # noqa: PLC0415 - rare, and costly to import

    return Fraction(value) % Fraction(step) == 0


_PREDICATE_WORDS: dict[object, str] = {
    str.islower: "lowercase text",
    str.isupper: "uppercase text",
    str.isdigit: "digits only",
    str.isascii: "ASCII text",
    str.isalpha: "letters only",
    str.isalnum: "letters and digits only",
    str.isidentifier: "an identifier",
    math.isfinite: "a finite number",
    math.isnan: "NaN",
    math.isinf: "an infinite number",
}


def _fits_predicate(fn: object, node: Node, where: Where) -> None:
    """Refuse a builtin predicate of another type: `str.islower` on an int field.

    It would raise Python's `TypeError` on every call, where no model can do anything about it.
    """
    if isinstance(fn, (types.MethodDescriptorType, types.WrapperDescriptorType)):
        owner: tuple[type[object], ...] = (fn.__objclass__,)  # `str` of `str.islower`
        shown = fn.__qualname__
    elif isinstance(fn, types.BuiltinFunctionType) and fn.__module__ == "math":
        if fn.__name__ in ("fsum", "prod"):  # of an iterable, such as a list field
            return
        owner, shown = (int, float), f"math.{fn.__name__}"
    else:
        return
    kinds = given(node)
    wrong = [] if None in kinds else [k for k in kinds if k and not issubclass(k, owner)]
    if wrong:
        takes = " or ".join(map(type_name, owner))
        raise where.error(
            TypeError,
            f"Predicate({shown}) takes {takes}, but the field gives it {type_name(wrong[0])}; "
            "use a predicate for that type, or put this one on a field of its type",
        )


_RULES: dict[type, Rule] = {
    at.Gt: _Number(operator.gt, ">", "more than", _LOW),
    at.Ge: _Number(operator.ge, ">=", "at least", _LOW),
    at.Lt: _Number(operator.lt, "<", "less than", _HIGH),
    at.Le: _Number(operator.le, "<=", "at most", _HIGH),
    at.MultipleOf: _Multiple(),
    at.MinLen: _Length(operator.ge, ">=", "at least", _LOW),
    at.MaxLen: _Length(operator.le, "<=", "at most", _HIGH),
    at.Predicate: _Predicate(),
    at.Not: _Predicate(),
    RequiredField: _Required(),
}
"""Every bound this package enforces, by the class of the metadata that writes it."""
