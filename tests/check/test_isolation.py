"""Isolation: a call shares nothing mutable with its input, a default or another call.

1. The input is never changed, accepted or refused, even when the function then changes what it
   received.
2. What the function receives shares no mutable object with the input or with a default (new at
   every depth, new at every call).
3. 1,000 concurrent `registry.run` calls over one registry, from asyncio tasks and from threads
   each running its own event loop, each get exactly their own arguments and call object.
4. A refusal raised in one call never carries data of another: each names only its own markers.
"""

import asyncio
import copy
import dataclasses
import re
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any

import annotated_types as at
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typing_extensions import NotRequired, TypedDict

from adecore_tools import (
    ToolCall,
    ToolRefusal,
    create_tool_registry,
    define_toolkit,
    parse_tool_input,
    refusal_body,
    required_field,
    tool,
    transform,
)

CALLS = 1000


class Shape(TypedDict):
    tags: list[str]
    nested: NotRequired[dict[str, list[int]]]


@dataclasses.dataclass
class Box:
    items: list[int]
    meta: dict[str, list[str]] = dataclasses.field(default_factory=dict)


DEFAULT_BOX = Box([1, 2], {"k": ["a"]})
DEFAULT_GRID = [[1, 2], [3]]
DEFAULT_LABELS = {"a": ["x"], "b": []}
DEFAULT_SHAPES: list[Shape] = [{"tags": ["t"], "nested": {"n": [1]}}]


@tool("iso")
async def keep(
    *,
    numbers: list[int] | None = None,
    grid: list[list[int]] = DEFAULT_GRID,
    labels: dict[str, list[str]] = DEFAULT_LABELS,
    shape: Shape | None = None,
    shapes: list[Shape] = DEFAULT_SHAPES,
    box: Box = DEFAULT_BOX,
    boxes: list[Box] | None = None,
    either: list[int] | dict[str, list[int]] | None = None,
    uniq: set[int] | None = None,
) -> Any:
    """Returns what it received, after changing all of it."""
    received = {
        "numbers": numbers,
        "grid": grid,
        "labels": labels,
        "shape": shape,
        "shapes": shapes,
        "box": box,
        "boxes": boxes,
        "either": either,
        "uniq": uniq,
    }
    _scribble(received)
    return received


def _scribble(value: object) -> None:
    """Change every mutable container reachable from `value`, in place."""
    for item in list(_reachable(value)):
        if type(item) is list:
            item.append(-1)
        elif type(item) is dict:
            item["scribbled"] = True
        elif type(item) is set:
            item.add(-1)
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            vars(item)["scribbled"] = True


def _reachable(value: object) -> Iterator[object]:
    """Every mutable object reachable from `value` (lists, dicts, sets, dataclass instances)."""
    seen: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        if isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            stack.append(vars(item))
        else:
            continue
        seen.add(id(item))
        if not isinstance(item, (tuple, frozenset)):
            yield item


def _mutable_ids(value: object) -> set[int]:
    return {id(item) for item in _reachable(value)}


def _identity_map(value: object) -> list[tuple[int, int]]:
    """The ids of the containers of `value`, in a fixed order: a replaced part shows."""
    return [(id(item), len(item) if hasattr(item, "__len__") else 0) for item in _reachable(value)]


DEFAULTS = (DEFAULT_BOX, DEFAULT_GRID, DEFAULT_LABELS, DEFAULT_SHAPES)
DEFAULTS_SNAPSHOT = copy.deepcopy(DEFAULTS)

# --- inputs for `keep` ------------------------------------------------------------------------

ints = st.integers(-5, 5)
words = st.text(max_size=3)
shapes_in = st.fixed_dictionaries(
    {"tags": st.lists(words, max_size=3)},
    optional={"nested": st.dictionaries(words, st.lists(ints, max_size=3), max_size=2)},
)
boxes_in = st.fixed_dictionaries(
    {"items": st.lists(ints, max_size=3)},
    optional={"meta": st.dictionaries(words, st.lists(words, max_size=2), max_size=2)},
)
good_input = st.fixed_dictionaries(
    {},
    optional={
        "numbers": st.lists(ints, max_size=4) | st.lists(ints, max_size=4).map(tuple),
        "grid": st.lists(st.lists(ints, max_size=3), max_size=3),
        "labels": st.dictionaries(words, st.lists(words, max_size=2), max_size=3),
        "shape": shapes_in,
        "shapes": st.lists(shapes_in, max_size=2),
        "box": boxes_in,
        "boxes": st.lists(boxes_in, max_size=2),
        "either": st.lists(ints, max_size=3) | st.dictionaries(words, st.lists(ints), max_size=2),
        "uniq": st.lists(ints, max_size=4),
    },
)
junk = st.recursive(
    st.none() | st.booleans() | ints | st.floats() | words,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(words, children, max_size=3),
    max_leaves=10,
)
any_input = good_input | st.dictionaries(
    st.sampled_from(["numbers", "grid", "labels", "shape", "box", "boxes", "either", "zz"]),
    junk,
    max_size=4,
)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(any_input)
def test_the_input_is_never_changed_accepted_or_refused(data):
    snapshot = copy.deepcopy(data)
    identities = _identity_map(data)
    code = None
    try:
        asyncio.run(keep.fn(**parse_tool_input(keep, data)))  # the function scribbles on it all
    except ToolRefusal as refusal:
        code = refusal.code
    assert code in (None, "bad-arguments")
    assert data == snapshot
    assert _identity_map(data) == identities
    assert copy.deepcopy(DEFAULTS) == DEFAULTS_SNAPSHOT


@SETTINGS
@given(good_input)
def test_what_the_function_receives_shares_nothing_mutable(data):
    first = parse_tool_input(keep, data)
    second = parse_tool_input(keep, data)
    given_ids = _mutable_ids(data)
    default_ids = _mutable_ids(DEFAULTS)
    first_ids, second_ids = _mutable_ids(first), _mutable_ids(second)
    assert not first_ids & given_ids
    assert not first_ids & default_ids
    assert not first_ids & second_ids
    assert not second_ids & (given_ids | default_ids)


def test_defaults_are_new_at_every_depth_and_every_call():
    results = [asyncio.run(keep.fn(**parse_tool_input(keep, {}))) for _ in range(3)]
    for result in results:
        assert not _mutable_ids(result) & _mutable_ids(DEFAULTS)
        assert result["grid"] == [[1, 2, -1], [3, -1], -1]  # scribbled on its own copy
    assert not _mutable_ids(results[0]) & _mutable_ids(results[1])
    fresh = parse_tool_input(keep, {})
    assert fresh["grid"] == [[1, 2], [3]]
    assert fresh["labels"] == {"a": ["x"], "b": []}
    assert fresh["box"] == Box([1, 2], {"k": ["a"]})
    assert fresh["shapes"] == [{"tags": ["t"], "nested": {"n": [1]}}]
    assert DEFAULTS == DEFAULTS_SNAPSHOT


def test_a_dataclass_default_factory_runs_for_each_object():
    out = parse_tool_input(keep, {"boxes": [{"items": [1]}, {"items": [2]}], "box": {"items": []}})
    metas = [out["boxes"][0].meta, out["boxes"][1].meta, out["box"].meta]
    assert metas == [{}, {}, {}]
    assert len({id(meta) for meta in metas}) == 3


@dataclasses.dataclass(eq=False)  # hashable by identity, so `dataclasses` takes it as a default
class Pad:
    lines: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Page:
    title: str
    pad: Pad = Pad()  # noqa: RUF009 - the shared default under test
    marks: tuple[int, ...] = (1, 2)


@tool("iso")
async def write_page(page: Page) -> None:
    """Writes a page."""


def test_a_nested_dataclass_field_left_out_gets_its_own_copy_of_the_default():
    first = parse_tool_input(write_page, {"page": {"title": "a"}})["page"]
    first.pad.lines.append("scribbled by the first call")
    second = parse_tool_input(write_page, {"page": {"title": "b", "pad": None}})["page"]
    assert second.pad.lines == []
    assert first.pad is not second.pad
    assert Page.pad.lines == []  # type: ignore[attr-defined]  # the class default is untouched
    assert second.marks is Page.marks  # an immutable default is shared, as the class would


def test_a_default_changed_after_declaration_reaches_no_call():
    """A tool is immutable: its defaults are copied at declaration, so the field model's default
    (the function's own object) can be changed without changing what a call gets."""

    @tool("iso")
    async def hold(*, tags: list[str] = ["a"], page: Page | None = None) -> None:  # noqa: B006
        """Holds a mutable default."""

    tags_field = hold.input.fields[0]
    tags_field.default.append("changed through the field model")
    pad = Page.pad  # type: ignore[attr-defined]  # the class default
    pad.lines.append("changed on the class")
    try:
        out = parse_tool_input(hold, {"page": {"title": "t"}})
        assert out["tags"] == ["a"]
        assert out["page"].pad.lines == []
    finally:
        tags_field.default.pop()
        pad.lines.pop()


def test_first_calls_from_many_threads_at_once_agree_and_keep_one_validator():
    """A validator is compiled on its tool's first check. Threads making that first check at once
    may each compile one; every answer is right, and the tool then keeps a single validator."""

    @tool("iso")
    async def fresh(n: int, tags: list[str] = ["x"]) -> None:  # noqa: B006
        """A tool no one has called yet."""

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda i: parse_tool_input(fresh, {"n": i}), range(200)))
    assert results == [{"n": i, "tags": ["x"]} for i in range(200)]
    assert len({id(r["tags"]) for r in results}) == 200
    kept = fresh.input.validate
    parse_tool_input(fresh, {"n": 1})
    assert fresh.input.validate is kept


def test_an_unchanged_union_branch_still_passes_a_copy():
    data = {"either": {"k": [1, 2]}}
    out = parse_tool_input(keep, data)
    assert out["either"] == data["either"]
    assert out["either"] is not data["either"]
    assert out["either"]["k"] is not data["either"]["k"]


# --- many calls at once -----------------------------------------------------------------------


class EchoCall(ToolCall):
    def __init__(self, number: int) -> None:
        self.number = number


def _yield_the_gil(value: str) -> str:
    time.sleep(0)  # let another thread in while this call is half checked
    return value


@tool("iso")
async def echo(
    call: EchoCall,
    *,
    n: int,
    marker: Annotated[str, at.MaxLen(12), transform(_yield_the_gil)],
    title: Annotated[str, required_field("echo needs a title")],
    tags: list[str],
    shape: Shape,
    count: Annotated[int, at.Ge(0)] = 0,
) -> Any:
    """Returns its arguments and its call object's id, after letting other tasks run."""
    for _ in range(3):
        await asyncio.sleep(0)
    tags.append(marker)  # its own list: no other call may see this
    await asyncio.sleep(0)
    return {
        "n": n,
        "marker": marker,
        "title": title,
        "tags": tags,
        "shape": shape,
        "count": count,
        "call": id(call),
        "call_number": call.number,
    }


REGISTRY = create_tool_registry([define_toolkit("iso", [keep, echo])])


def _good(number: int) -> dict[str, Any]:
    marker = f"M{number:04d}"
    return {
        "n": number,
        "marker": marker,
        "title": f"title {marker}",
        "tags": [marker, str(number)],
        "shape": {"tags": [marker], "nested": {marker: [number]}},
        "count": number % 7,
    }


def _expected(number: int, call: EchoCall) -> dict[str, Any]:
    sent = _good(number)
    return {
        **sent,
        "tags": [*sent["tags"], sent["marker"]],
        "call": id(call),
        "call_number": number,
    }


def _bad(number: int) -> dict[str, Any]:
    """Wrong in three places, each carrying the call's own marker."""
    marker = f"M{number:04d}"
    return {
        "n": marker,
        "marker": marker * 4,
        "title": " " * (number % 4),
        "tags": [marker, number],
        "shape": {"tags": [], f"Z{number:04d}": 1},
        "count": -number - 1,
        f"Q{number:04d}": True,
    }


MARKER = re.compile(r"[MZQ]\d{4}")


def _check_own_refusal(refusal: ToolRefusal, number: int) -> None:
    assert refusal.code == "bad-arguments"
    body = refusal_body(refusal)
    found = set(MARKER.findall(body))
    assert found == {f"M{number:04d}", f"Z{number:04d}", f"Q{number:04d}"}, body
    assert f"got -{number + 1}" in refusal.message
    assert "echo needs a title" in refusal.message
    assert refusal.__cause__ is None


async def _one(number: int) -> object:
    call = EchoCall(number)
    if number % 3 == 2:
        try:
            await REGISTRY.run("echo", _bad(number), call)
        except ToolRefusal as refusal:
            return refusal
        pytest.fail(f"call {number} was accepted")
    sent = _good(number)
    result = await REGISTRY.run("echo", sent, call)
    assert sent == _good(number)  # the input stayed as it was
    assert result == _expected(number, call)
    return result


def _check_results(results: list[object]) -> None:
    assert len(results) == CALLS
    for number, result in enumerate(results):
        if isinstance(result, ToolRefusal):
            assert number % 3 == 2
            _check_own_refusal(result, number)
        else:
            assert isinstance(result, dict)
            assert result["n"] == number
            assert result["call_number"] == number


@pytest.fixture
def busy_switching() -> Iterator[None]:
    """Switch threads as often as the interpreter allows, to make races likely."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def test_a_thousand_concurrent_tasks_each_get_their_own_arguments():
    async def main() -> list[object]:
        return list(await asyncio.gather(*(_one(number) for number in range(CALLS))))

    _check_results(asyncio.run(main()))


@pytest.mark.usefixtures("busy_switching")
def test_a_thousand_calls_from_threads_each_get_their_own_arguments():
    def job(number: int) -> object:
        return asyncio.run(_one(number))

    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(job, range(CALLS)))
    _check_results(results)


@pytest.mark.usefixtures("busy_switching")
def test_threads_sharing_one_event_loop_each_get_their_own_arguments():
    """Threads handing calls to one loop (run_coroutine_threadsafe), as a threaded server would."""
    loop = asyncio.new_event_loop()
    with ThreadPoolExecutor(max_workers=1) as runner:
        runner.submit(loop.run_forever)
        try:

            def job(number: int) -> object:
                return asyncio.run_coroutine_threadsafe(_one(number), loop).result(timeout=60)

            with ThreadPoolExecutor(max_workers=16) as pool:
                results = list(pool.map(job, range(CALLS)))
        finally:
            loop.call_soon_threadsafe(loop.stop)
    loop.close()
    _check_results(results)


@pytest.mark.usefixtures("busy_switching")
def test_parse_from_threads_with_blank_and_bad_values_never_mixes_messages():
    """`parse_tool_input` from many threads at once: each refusal lists only its own values."""

    def job(number: int) -> None:
        for _ in range(5):
            try:
                parse_tool_input(echo, _bad(number))
            except ToolRefusal as refusal:
                _check_own_refusal(refusal, number)
            else:
                pytest.fail("accepted")
            assert parse_tool_input(echo, _good(number))["marker"] == f"M{number:04d}"

    with ThreadPoolExecutor(max_workers=16) as pool:
        list(pool.map(job, range(200)))


def test_a_registry_built_and_used_from_many_threads_at_once():
    """Tools declared in one thread, toolkits and registries built and run in many."""

    @tool("fresh")
    async def fresh_echo(*, value: Annotated[list[int], at.MaxLen(3)]) -> list[int]:
        """Returns its list."""
        await asyncio.sleep(0)
        return value

    def job(number: int) -> tuple[object, object]:
        registry = create_tool_registry([define_toolkit("fresh", [fresh_echo])])
        listed = registry.mcp_tools()
        got = asyncio.run(registry.run("fresh_echo", {"value": [number, number]}))
        return listed, got

    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(job, range(200)))
    assert all(listed == results[0][0] for listed, _ in results)
    assert [got for _, got in results] == [[n, n] for n in range(200)]


def test_input_changed_while_it_is_checked_is_read_as_it_was():
    """A record is read once, then checked: code that runs while it is checked (the host's own, as
    this transform, or the input's, as a mapping's `items()`) changes nothing of what is read.
    """
    sent: dict[str, object] = {"a": 1, "b": 2}

    def meddle(value: int) -> int:
        sent["c"] = 3  # what another thread could do between two keys
        return value

    @tool("race")
    async def read_record(record: dict[str, Annotated[int, transform(meddle)]]) -> None:
        """Reads a record."""

    assert parse_tool_input(read_record, {"record": sent}) == {"record": {"a": 1, "b": 2}}
    assert sent == {"a": 1, "b": 2, "c": 3}


def test_a_tool_assembled_in_two_threads_at_once_is_read_once():
    """A tool naming a class further down is read when it joins a toolkit. Two threads assembling
    it at once (plugins loaded in parallel) both read it; the first to finish sets its input, and
    the other must take that one rather than replace it: an input handed out stays the tool's for
    good, and so the schema and listing entry copied from it (a schema is computed once per
    tool)."""
    import threading  # noqa: PLC0415 - only this test starts threads by hand
    import types  # noqa: PLC0415

    readers: list[int] = []
    second_done = threading.Event()

    def gate() -> str:
        """Called while the hint is read: holds the first reader until the second is done."""
        readers.append(threading.get_ident())
        if len(readers) == 1:
            second_done.wait(timeout=60)
        return "metadata the package ignores"

    module = types.ModuleType("assembled_twice")
    module.__dict__.update(tool=tool, gate=gate)
    source = (
        "from __future__ import annotations\n"
        "from typing import Annotated\n"
        "from typing_extensions import TypedDict\n"
        "@tool('plugin')\n"
        "async def late(row: Annotated[Later, gate()]) -> None:\n"
        "    '''Reads a row.'''\n"
        "class Later(TypedDict):\n"
        "    k: int\n"
    )
    sys.modules[module.__name__] = module
    try:
        exec(source, module.__dict__)  # noqa: S102 - our own test source
        late = module.late
        seen: dict[str, tuple[object, object, object]] = {}

        def assemble(who: str) -> None:
            registry = create_tool_registry([define_toolkit("plugin", [late])])
            seen[who] = (late.input, late.input.schema, registry.mcp_tools()[0])
            if who == "second":
                second_done.set()

        first = threading.Thread(target=assemble, args=("first",))
        first.start()
        while not readers and first.is_alive():  # wait until the first thread is inside the hint
            time.sleep(0.001)
        assemble("second")
        first.join()
    finally:
        del sys.modules[module.__name__]
    assert len(readers) == 2  # both read it: neither waited for the other
    listed = create_tool_registry([define_toolkit("plugin", [late])]).mcp_tools()[0]
    final = (late.input, late.input.schema, listed)
    for who in ("first", "second"):
        assert seen[who][0] is final[0], who
        assert seen[who][1:] == final[1:], who
