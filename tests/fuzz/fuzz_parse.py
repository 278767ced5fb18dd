"""A fuzz target over `parse_tool_input`, for a tool with a field of every kind.

Each input (bytes) is read twice: as JSON text, and as a recipe for a structured Python value
(nested containers, field names, huge numbers, NaN, surrogates, deep nesting, subclasses of
dict/list/str/int/float, mappings that lie, objects whose methods raise). Either way the call
must return the arguments or raise `ToolRefusal("bad-arguments")` whose text keeps its promises
(`check`); any other exception is a crash.

By hand, with atheris (coverage-guided; `pip install atheris`)::

    python tests/fuzz/fuzz_parse.py -runs=1000000 -artifact_prefix=/tmp/

without it (random bytes from a seed, a few thousand inputs a second)::

    python tests/fuzz/fuzz_parse.py --iterations 1000000 [--seed 1]

`FUZZ_EXCLUDE` (comma-separated kinds of HOSTILE_KINDS) leaves out kinds of objects, to look for
new crashes while a known one is being fixed. `tests/check/test_fuzz.py` runs a fixed number in CI.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import json
import math
import os
import pathlib
import random
import struct
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Annotated, Any, Literal

import annotated_types as at
from typing_extensions import NotRequired, TypedDict

try:  # coverage guidance when atheris is there; plain random bytes otherwise
    import atheris
except ImportError:  # pragma: no cover - depends on the machine
    atheris = None

if atheris is not None and __name__ == "__main__" and "--iterations" not in sys.argv:
    with atheris.instrument_imports():
        import adecore_tools
else:
    import adecore_tools

from adecore_tools import (
    DryRun,
    Revision,
    ToolRefusal,
    field,
    parse_refusal_body,
    refusal_body,
    required_field,
    tool,
    transform,
)

# The hostile values are the tests' own, from the folder above: pytest puts it on the path, and
# a run of this file as a script gets it here.
_TESTS = str(pathlib.Path(__file__).resolve().parent.parent)
if _TESTS not in sys.path:
    sys.path.append(_TESTS)

from hostile_values import (  # noqa: E402 - needs the path above
    BrokenMapping,
    LyingDict,
    LyingFloat,
    LyingInt,
    LyingList,
    LyingStr,
    Spoofed,
    hostile_class,
)

BODY_LIMIT = 4096


class Kind(enum.Enum):
    A = "a"
    B = "b"


class Inner(TypedDict):
    label: Annotated[str, at.MaxLen(8)]
    size: NotRequired[Annotated[int, at.Ge(0)]]
    tags: NotRequired[list[str]]
    note: str | None


@dataclasses.dataclass(frozen=True)
class Point:
    x: float
    y: Annotated[float, at.Le(100)] = 0.0


@tool("fuzz")
async def every_kind(
    *,
    text: Annotated[str, required_field("text is needed")],
    short: Annotated[str, at.MinLen(1), at.MaxLen(8), at.Predicate(str.isascii)] | None = None,
    count: Annotated[int, at.Ge(0), at.Lt(1000), at.MultipleOf(3)] | None = None,
    ratio: Annotated[float, at.Gt(0), at.Le(1)] | None = None,
    step: Annotated[float, at.MultipleOf(0.25)] | None = None,
    flag: bool = False,
    mode: Literal["fast", "slow"] = "fast",
    level: Literal[1, 2.5] | None = None,
    on: Literal[True] | None = None,
    kind: Kind | None = None,
    tags: Annotated[list[Annotated[str, at.MaxLen(5)]], at.MaxLen(4)] | None = None,
    seq: Sequence[int] | None = None,
    tup: tuple[float, ...] | None = None,
    uniq: Annotated[set[int], at.MaxLen(3)] | None = None,
    frozen: frozenset[Kind] | None = None,
    scores: Annotated[dict[str, float], at.MaxLen(3)] | None = None,
    lookup: Mapping[str, list[int]] | None = None,
    inner: Inner | None = None,
    points: list[Point] | None = None,
    point_set: set[Point] | None = None,
    either: int | Annotated[str, at.MinLen(2)] | None = None,
    nested: list[dict[str, list[int | None]]] | None = None,
    upper: Annotated[str, transform(str.upper)] | None = None,
    dry_run: DryRun = None,
    revision: Revision = None,
) -> None:
    """Takes a field of every kind."""


FIELDS_LINE = "\t".join(("fields", *(f.name for f in every_kind.input.fields)))
NAMES = [f.name for f in every_kind.input.fields]
WORDS = [*NAMES, "label", "size", "note", "x", "y", "a", "b", "fast", "slow", "", "txet", "cuont"]


def check(data: object) -> bool:
    """Run one input; True when accepted. Raises on anything the contract does not allow."""
    try:
        out = adecore_tools.parse_tool_input(every_kind, data)
    except ToolRefusal as refusal:
        _check_refusal(refusal)
        return False
    if list(out) != NAMES:
        msg = f"accepted with the wrong keys: {list(out)}"
        raise AssertionError(msg)
    return True


def _check_refusal(refusal: ToolRefusal) -> None:
    body = refusal_body(refusal)
    problems = []
    if refusal.code != "bad-arguments":
        problems.append(f"code {refusal.code!r}")
    if refusal.lines != (FIELDS_LINE,):
        problems.append("advice rows")
    head, *rows = body.split("\n")
    if rows != [FIELDS_LINE] or len(body.splitlines()) != 2:
        problems.append("lines")
    if head.split("\t") != ["refused", "bad-arguments", refusal.message]:
        problems.append("tabs")
    if field(refusal.message) != refusal.message:
        problems.append("control characters")
    if parse_refusal_body(body) != refusal:
        problems.append("round trip")
    if len(body) > BODY_LIMIT:
        problems.append(f"{len(body)} characters")
    try:
        body.encode("utf-8")
    except UnicodeEncodeError:
        problems.append("not UTF-8")
    if problems:
        msg = f"refusal breaks its promises ({', '.join(problems)}): {body[:500]!r}"
        raise AssertionError(msg)


# --- reading a Python value from bytes --------------------------------------------------------


class Reader:
    """Draws numbers, strings and choices from the fuzz bytes (zeros once they run out)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def byte(self) -> int:
        if self.at >= len(self.data):
            return 0
        self.at += 1
        return self.data[self.at - 1]

    def take(self, count: int) -> bytes:
        chunk = self.data[self.at : self.at + count]
        self.at += len(chunk)
        return chunk.ljust(count, b"\0")

    def pick(self, options: Sequence[Any]) -> Any:
        return options[self.byte() % len(options)]

    def text(self) -> str:
        return self.take(self.byte() % 24).decode("utf-8", "surrogateescape")


_SPECIAL_NUMBERS = [
    0,
    -0.0,
    1.0,
    2.5,
    3,
    999,
    1000,
    -1,
    0.25,
    0.1,
    math.nan,
    math.inf,
    -math.inf,
    1e308,
    2**53 + 1,
    2**63,
    2**64,
    2**1023,
    2**1024,
    -(2**1100),
    10**5000,
]


class _ItemsMapping(BrokenMapping):
    """Answers only through items(), which may lie, raise midway or return non-pairs."""

    def __init__(self, pairs: list[Any], how: int) -> None:
        self.pairs, self.how = pairs, how

    def items(self) -> Any:  # type: ignore[override]
        if self.how == 0:
            return list(self.pairs)
        if self.how == 1:
            return self._midway()
        return [*self.pairs, 5] if self.how == 2 else 5

    def _midway(self) -> Iterator[Any]:
        yield from self.pairs[:1]
        raise RuntimeError("midway")


HOSTILE_KINDS: dict[str, Callable[[Reader], object]] = {
    "dunders": lambda r: hostile_class(
        *r.pick(
            [
                ("__eq__", "__hash__"),
                ("__len__", "__iter__"),
                ("__repr__", "__str__", "__format__"),
                ("__bool__", "__index__", "__float__"),
            ]
        )
    )(),
    "class": lambda r: (
        hostile_class("__class__")()
        if r.byte() % 2
        else Spoofed(r.pick([str, int, float, dict, list, bool]))
    ),
    "strsub": lambda r: LyingStr(r.pick(WORDS)),
    "intsub": lambda r: LyingInt(r.pick([0, 3, 7, -1, 2**70])),
    "floatsub": lambda r: LyingFloat(r.pick([0.5, 2.5, 7.25, math.nan])),
    "objects": lambda r: r.pick(
        [object(), b"bytes", {1, 2}, frozenset("ab"), 1j, Kind.A, Point(1.0), sys]
    ),
}
_EXCLUDED = {kind for kind in os.environ.get("FUZZ_EXCLUDE", "").split(",") if kind}
_KINDS = [make for name, make in HOSTILE_KINDS.items() if name not in _EXCLUDED]


def value(r: Reader, depth: int = 0) -> Any:  # noqa: C901, PLR0911, PLR0912 - one branch per recipe
    """A Python value drawn from the reader: JSON-like mostly, hostile sometimes."""
    op = r.byte() % (8 if depth > 5 else 26)
    if op == 0:
        return None
    if op == 1:
        return r.byte() % 2 == 0
    if op == 2:
        return int.from_bytes(r.take(1), "big", signed=True)
    if op == 3:
        return r.pick(_SPECIAL_NUMBERS)
    if op == 4:
        return struct.unpack("<d", r.take(8))[0]
    if op == 5:
        return r.text()
    if op in (6, 7):
        return r.pick(WORDS)
    if op in (8, 9, 10):
        return [value(r, depth + 1) for _ in range(r.byte() % 5)]
    if op in (11, 12, 13):
        return _mapping(r, depth)
    if op == 14:
        return tuple(value(r, depth + 1) for _ in range(r.byte() % 4))
    if op == 15:
        return int.from_bytes(r.take(r.byte() % 160), "big") * r.pick([1, -1])
    if op == 16:
        return r.pick(["x", "\ud800", "\n", "é", " "]) * (10 ** (r.byte() % 6))
    if op == 17:
        return [r.pick([*WORDS[:8], 1, 2.5])] * (10 ** (r.byte() % 4))
    if op == 18:
        return _deep(r)
    if op == 19:
        return LyingDict(_mapping(r, depth))
    if op == 20:
        return LyingList([value(r, depth + 1) for _ in range(r.byte() % 4)])
    if op == 21:
        return _ItemsMapping(list(_mapping(r, depth).items()), r.byte() % 4)
    if op == 22 and _KINDS:
        return r.pick(_KINDS)(r)
    if op == 23:
        return {r.pick([1, None, (1, 2), True, math.nan, 10**5000, Kind.A]): value(r, depth + 1)}
    if op == 24:
        return r.pick([Kind.A, Point(0.5), {"x": 1.5, "y": r.pick(_SPECIAL_NUMBERS)}])
    return r.pick(["fast", "slow", "a", "b", 1, 2.5, True, "ab"])


def _mapping(r: Reader, depth: int) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    for _ in range(r.byte() % 6):
        key = r.pick(WORDS) if r.byte() % 4 else r.text()
        out[key] = value(r, depth + 1)
    return out


def _deep(r: Reader) -> object:
    depth = 10 ** (r.byte() % 4)
    nested: object = r.pick([None, 1, "x"])
    as_dict = r.byte() % 2
    for _ in range(depth):
        nested = {"a": nested} if as_dict else [nested]
    return nested


def structured(data: bytes) -> object:
    """The structured reading of the fuzz bytes: usually an input object of field names."""
    r = Reader(data)
    if r.byte() % 8 == 0:
        return value(r)
    return {"text": "t", **_mapping(r, 0)} if r.byte() % 3 else _mapping(r, 0)


def from_json(data: bytes) -> object:
    """The JSON reading of the fuzz bytes, or a marker when they are no JSON."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return _NO_JSON


_NO_JSON = object()


def one_input(data: bytes) -> None:
    """The fuzz target: both readings of the bytes through `parse_tool_input`."""
    parsed = from_json(data)
    if parsed is not _NO_JSON:
        check(parsed)
    check(structured(data))


SEEDS = [
    b'{"text": "hi", "count": 3, "tags": ["a"], "inner": {"label": "x", "note": null}}',
    b'{"text": " ", "count": 1.0e3, "ratio": NaN, "level": 1.0, "on": 1, "kind": "a"}',
    b'{"text": "x", "points": [{"x": 1e400}], "point_set": [{"x": 1}, {"x": 1}]}',
    b'{"text": "x", "nested": [{"k": [1, null, 2.5]}], "either": "a", "upper": "\\ud800"}',
    b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
    b"\x0b\x01" + bytes(range(256)),
]


def mutate(rng: random.Random, seed: bytes) -> bytes:
    """A seed with a few random changes, or fresh random bytes."""
    if rng.random() < 0.3:
        return rng.randbytes(rng.randrange(1, 200))
    data = bytearray(seed)
    for _ in range(rng.randrange(1, 8)):
        where = rng.randrange(len(data) + 1)
        how = rng.randrange(3)
        if how == 0 and data:
            data[min(where, len(data) - 1)] = rng.randrange(256)
        elif how == 1:
            data[where:where] = rng.randbytes(rng.randrange(1, 6))
        elif data:
            del data[where : where + rng.randrange(1, 6)]
    return bytes(data)


def run(iterations: int, seed: int = 0) -> tuple[int, int]:
    """Run `iterations` inputs without atheris; returns (inputs run, structured inputs accepted)."""
    rng = random.Random(seed)  # noqa: S311 - fuzz input, not a secret
    accepted = 0
    for count in range(iterations):
        data = SEEDS[count] if count < len(SEEDS) else mutate(rng, rng.choice(SEEDS))
        parsed = from_json(data)
        if parsed is not _NO_JSON:
            check(parsed)
        accepted += check(structured(data))
    return iterations, accepted


def main(argv: list[str]) -> None:
    """Fuzz with atheris when it is installed and no --iterations is given, else by a seed."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--iterations", type=int)
    parser.add_argument("--seed", type=int, default=0)
    known, rest = parser.parse_known_args(argv[1:])
    if atheris is None or known.iterations is not None:
        ran, accepted = run(known.iterations or 100_000, known.seed)
        print(f"{ran} inputs ran clean ({accepted} structured inputs accepted)")  # noqa: T201
        return
    atheris.Setup([argv[0], *rest], one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
