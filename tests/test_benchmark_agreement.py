"""The benchmark measures the same work on every system: each validator it times decides every
benchmark input as `parse_tool_input` does. No timing is asserted here.

The benchmark modules live in `benchmarks/`, which is not a package: its directory is put on
`sys.path` to import them, as `python benchmarks/run.py` does.
"""

import asyncio
import sys
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from needs import missing

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import floor
import instructions
import workloads

from adecore_tools import ToolRefusal, parse_tool_input

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer

SCALE_INPUTS = {size: workloads.scale_input(size) for size in workloads.SCALE_SIZES}

EXPECTED_VALID = {
    "text": "Write the weekly report",
    "limit": 10,
    "exact": True,
    "tags": ["work", "weekly"],
    "mode": "fast",
}


def decide(validator: workloads.Validator, data: object) -> tuple[bool, Any, str]:
    """(accepted, output, message) of one validator on one input."""
    try:
        return True, validator.check(data), ""
    except validator.refusal as exc:
        return False, None, validator.message(exc)


def reference(tool: Any, data: object) -> tuple[bool, Any, str]:
    """(accepted, output, message) of `parse_tool_input` itself."""
    try:
        output = parse_tool_input(tool, data)
    except ToolRefusal as refusal:
        code, message = refusal.code, refusal.message
    else:
        return True, output, ""
    assert code == "bad-arguments"
    return False, None, message


def system(validators: dict[str, workloads.Validator | None], name: str) -> workloads.Validator:
    """One system's validator, which must be there."""
    validator = validators[name]
    assert validator is not None
    return validator


def paths(message: str) -> list[str]:
    """The path in front of each problem of a message (`tags[1]`, `limit`, ...)."""
    return [part.split(":", 1)[0] for part in message.split("; ")]


# --- the five-field tool: benchmark inputs -------------------------------------------------------


def test_benchmarked_path_is_parse_tool_input():
    ours = system(workloads.note_validators(), "adecore_tools")
    for data in (workloads.VALID, workloads.INVALID):
        assert decide(ours, data) == reference(workloads.ours_note_tool(), data)


def test_valid_input_gives_the_same_dict_from_ours_and_the_floor():
    validators = workloads.note_validators()
    ours, hand = system(validators, "adecore_tools"), system(validators, "floor")
    assert decide(ours, workloads.VALID) == (True, EXPECTED_VALID, "")
    assert decide(hand, workloads.VALID) == (True, EXPECTED_VALID, "")


def test_invalid_input_is_refused_by_ours_and_the_floor_for_the_same_fields():
    validators = workloads.note_validators()
    ours, hand = system(validators, "adecore_tools"), system(validators, "floor")
    accepted, _, message = decide(ours, workloads.INVALID)
    assert not accepted
    assert paths(message) == ["limit", "mode"]
    accepted, _, hand_message = decide(hand, workloads.INVALID)
    assert not accepted
    assert paths(hand_message) == ["limit", "mode"]


def test_inputs_are_not_mutated_by_any_validator():
    snapshot = {"valid": repr(workloads.VALID), "invalid": repr(workloads.INVALID)}
    for validator in workloads.note_validators().values():
        if validator is not None:
            decide(validator, workloads.VALID)
            decide(validator, workloads.INVALID)
    assert {"valid": repr(workloads.VALID), "invalid": repr(workloads.INVALID)} == snapshot


@pytest.mark.parametrize("peer", ["pydantic", "msgspec"])
def test_peers_decide_the_benchmark_inputs_alike(peer):
    pytest.importorskip(peer, reason=missing(peer))
    validator = system(workloads.note_validators(), peer)
    assert decide(validator, workloads.VALID)[0] is True
    accepted, _, message = decide(validator, workloads.INVALID)
    assert not accepted
    assert message  # the message the benchmark builds is not empty
    scale = system(workloads.scale_validators(), peer)
    for size, data in SCALE_INPUTS.items():
        assert decide(scale, data)[0] is True, size


def test_the_called_tool_of_the_define_workload_decides_like_the_validated_one():
    registry = workloads.ours_define(workloads.note_functions(1))
    called = registry.get(workloads.CALLED)
    assert called is not None
    for data in (workloads.VALID, workloads.INVALID):
        assert reference(called, data) == reference(workloads.ours_note_tool(), data)


# --- the scale tool: every size ------------------------------------------------------------------


@pytest.mark.parametrize("size", workloads.SCALE_SIZES)
def test_scale_input_gives_the_same_dict_from_ours_and_the_floor(size):
    data = SCALE_INPUTS[size]
    validators = workloads.scale_validators()
    ours, hand = system(validators, "adecore_tools"), system(validators, "floor")
    expected = reference(workloads.ours_scale_tool(), data)
    assert expected[0] is True
    assert len(expected[1]["items"]) == size
    assert decide(ours, data) == expected
    assert decide(hand, data) == expected


def test_scale_input_items_are_new_objects():
    data = SCALE_INPUTS[10]
    for check in (system(workloads.scale_validators(), "adecore_tools").check, floor.check_batch):
        out = check(data)
        assert out["items"] == data["items"]
        assert out["items"] is not data["items"]
        assert all(a is not b for a, b in zip(out["items"], data["items"], strict=True))


@pytest.mark.parametrize("name", workloads.scale_validators())
def test_the_counted_interpreter_checks_the_scale_input_with_the_timed_validator(name, monkeypatch):
    timed = workloads.scale_validators()[name]
    if timed is None:
        pytest.skip(missing(name))
    checked: list[int] = []

    def counted() -> dict[str, workloads.Validator | None]:
        def check(data: Any) -> Any:
            checked.append(len(data["items"]))
            return timed.check(data)

        return {name: workloads.Validator(name, check, timed.refusal, timed.message)}

    monkeypatch.setattr(workloads, "scale_validators", counted)
    instructions._child(name, 7, 3)
    assert checked == [10, 7, 7, 7]  # what is made on first use, then the counted checks


# --- the floor checks the library's rules, not easier ones (inputs not timed) ---------------------

NOTE_RULES = [
    pytest.param(None, id="none-is-no-fields"),
    pytest.param([], id="not-an-object"),
    pytest.param("text", id="a-string-input"),
    pytest.param({}, id="all-missing"),
    pytest.param({"text": "a", "tags": [], "mode": "slow"}, id="defaults-filled"),
    pytest.param(
        {"text": "a", "tags": (), "mode": "slow", "limit": None, "exact": None},
        id="none-is-left-out",
    ),
    pytest.param({"text": "", "tags": [], "mode": "fast"}, id="too-short"),
    pytest.param({"text": "x" * 201, "tags": [], "mode": "fast"}, id="too-long"),
    pytest.param({"text": "x" * 200, "tags": [], "mode": "fast"}, id="longest"),
    pytest.param({"text": 5, "tags": [], "mode": "fast"}, id="text-not-str"),
    pytest.param({"text": "a", "tags": [], "mode": "fast", "limit": -1}, id="negative"),
    pytest.param({"text": "a", "tags": [], "mode": "fast", "limit": 0}, id="zero"),
    pytest.param({"text": "a", "tags": [], "mode": "fast", "limit": True}, id="bool-not-int"),
    pytest.param({"text": "a", "tags": [], "mode": "fast", "limit": "3"}, id="str-not-int"),
    pytest.param({"text": "a", "tags": [], "mode": "fast", "exact": 1}, id="int-not-bool"),
    pytest.param({"text": "a", "tags": [1, None, "b"], "mode": "fast"}, id="items-not-str"),
    pytest.param({"text": "a", "tags": "ab", "mode": "fast"}, id="tags-not-list"),
    pytest.param({"text": "a", "tags": [], "mode": "medium"}, id="not-in-literal"),
    pytest.param({"text": "a", "tags": [], "mode": ["fast"]}, id="literal-unhashable"),
    pytest.param({"text": "a", "tags": [], "mode": "fast", "Text": 1}, id="unknown-key"),
    pytest.param({"text": "a", "tags": [], "mode": "fast", "x": None}, id="unknown-key-none"),
    pytest.param(
        {"text": "", "tags": list(range(12)), "mode": 1, "limit": -5, "zzz": 0},
        id="more-than-ten-problems",
    ),
]


@pytest.mark.parametrize("data", NOTE_RULES)
def test_floor_note_rules_match_the_library(data):
    expected = reference(workloads.ours_note_tool(), data)
    accepted, output, message = decide(system(workloads.note_validators(), "floor"), data)
    assert (accepted, output) == expected[:2]
    if not accepted:
        assert paths(message) == paths(expected[2])


@pytest.mark.parametrize("data", [workloads.VALID, workloads.INVALID, *NOTE_RULES])
def test_the_floor_of_define_declares_a_validator_of_the_library_rules(data):
    validate, _ = floor.declare(workloads.note_function(0))
    hand = workloads.Validator("floor", validate, floor.Refused, lambda exc: exc.message)
    expected = reference(workloads.ours_note_tool(), data)
    accepted, output, message = decide(hand, data)
    assert (accepted, output) == expected[:2]
    if not accepted:
        assert paths(message) == paths(expected[2])


def test_the_floor_of_define_lists_what_the_library_lists():
    functions = workloads.note_functions(1)
    listing = workloads.ours_list(workloads.ours_define(functions))
    assert [floor.declare(fn)[1] for fn in functions] == listing


BATCH_RULES = [
    pytest.param(None, id="none-is-no-fields"),
    pytest.param({"items": []}, id="empty"),
    pytest.param({"items": ({"name": "a", "count": 1},)}, id="a-tuple"),
    pytest.param({"items": [None]}, id="none-item"),
    pytest.param({"items": [[]]}, id="array-item"),
    pytest.param({"items": [{"name": "a"}]}, id="missing-count"),
    pytest.param({"items": [{"name": "a", "count": None}]}, id="none-count-is-missing"),
    pytest.param({"items": [{"name": "a", "count": 1000}]}, id="count-too-big"),
    pytest.param({"items": [{"name": "a", "count": 999}]}, id="count-largest"),
    pytest.param({"items": [{"name": "a", "count": -1}]}, id="count-negative"),
    pytest.param({"items": [{"name": "a", "count": False}]}, id="bool-not-int"),
    pytest.param({"items": [{"name": 1, "count": 1}]}, id="name-not-str"),
    pytest.param({"items": [{"name": "a", "count": 1, "x": 2}]}, id="unknown-item-key"),
    pytest.param({"items": [{"name": "a", "count": 1}], "x": 2}, id="unknown-key"),
    pytest.param({"items": "abc"}, id="items-not-list"),
]


@pytest.mark.parametrize("data", BATCH_RULES)
def test_floor_batch_rules_match_the_library(data):
    expected = reference(workloads.ours_scale_tool(), data)
    accepted, output, message = decide(system(workloads.scale_validators(), "floor"), data)
    assert (accepted, output) == expected[:2]
    if not accepted:
        assert paths(message) == paths(expected[2])


# --- the define, list and call workloads do the same work on every system -----------------------


def test_every_system_declares_lists_and_calls_the_same_tools():
    functions = workloads.note_functions(1)
    names = [f"note_{i:03d}" for i in range(workloads.TOOL_COUNT)]
    registry = workloads.ours_define(functions)
    listing = workloads.ours_list(registry)
    assert [entry["name"] for entry in listing] == names
    assert listing[0]["inputSchema"] == {
        "type": "object",
        "properties": {
            "text": {"type": "string"},
            "limit": {"type": "integer"},
            "exact": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "mode": {"type": "string", "enum": ["fast", "slow"]},
        },
        "required": ["text", "tags", "mode"],
    }
    assert asyncio.run(workloads.ours_call(registry)) == "ok"


def test_the_second_define_case_is_the_same_tool_in_each_order_of_its_fields():
    """Each of its 120 tools takes what the first case's take, as its own shape of input."""
    functions = workloads.ordered_note_functions(1)
    registry = workloads.ours_define(functions)
    first = workloads.ours_list(workloads.ours_define(workloads.note_functions(1)))[0]
    orders = set()
    for entry, declared in zip(workloads.ours_list(registry), registry.tools, strict=True):
        properties = entry["inputSchema"]["properties"]
        orders.add(tuple(properties))
        assert properties == first["inputSchema"]["properties"]  # equal whatever the order
        assert sorted(entry["inputSchema"]["required"]) == ["mode", "tags", "text"]
        assert reference(declared, workloads.VALID) == (True, EXPECTED_VALID, "")
        accepted, _, message = reference(declared, workloads.INVALID)
        assert not accepted
        assert sorted(paths(message)) == ["limit", "mode"]
    assert len(orders) == len(functions) == len(set(workloads.NOTE_ORDERS)) == 120
    assert floor.declare(functions[-1])[1] == workloads.ours_list(registry)[-1]


def test_the_mcp_sdk_declares_lists_and_calls_the_same_tools():
    pytest.importorskip("mcp", reason=missing("mcp"))
    server = workloads.mcp_define(workloads.mcp_server(), workloads.note_functions(1))

    async def scenario() -> tuple[list[Any], Any]:
        return await workloads.mcp_list(server), await workloads.mcp_call(server)

    listing, result = asyncio.run(scenario())
    assert [t.name for t in listing] == [f"note_{i:03d}" for i in range(workloads.TOOL_COUNT)]
    assert sorted(listing[0].input_schema["required"]) == ["mode", "tags", "text"]
    assert not result.is_error
    assert result.content[0].text == "ok"


def test_fastmcp_declares_lists_and_calls_the_same_tools():
    pytest.importorskip("fastmcp", reason=missing("fastmcp"))
    server = workloads.fastmcp_define(workloads.fastmcp_server(), workloads.note_functions(1))

    async def scenario() -> tuple[list[Any], Any]:
        return await workloads.fastmcp_list(server), await workloads.fastmcp_call(server)

    listing, result = asyncio.run(scenario())
    assert sorted(t.name for t in listing) == [f"note_{i:03d}" for i in range(workloads.TOOL_COUNT)]
    assert sorted(listing[0].input_schema["required"]) == ["mode", "tags", "text"]
    assert result.content[0].text == "ok"


@pytest.mark.parametrize("mode", ["legacy", "auto"])
@pytest.mark.parametrize("system", ["adecore_tools", "mcp", "fastmcp"])
def test_each_round_trip_calls_the_same_tool_and_gets_its_text(system, mode):
    """The round-trip case: the SDK's client reaches each server, and the tool answers 'ok'
    (`workloads.round_trip` checks the first call)."""
    pytest.importorskip("mcp", reason=missing("mcp"))
    if system == "fastmcp":
        pytest.importorskip("fastmcp", reason=missing("fastmcp"))
    functions = [workloads.note_function(0)]

    async def go() -> object:
        async with AsyncExitStack() as stack:
            if system == "adecore_tools":
                target = workloads.ours_mcp_server(workloads.ours_define(functions))
            elif system == "mcp":
                target = workloads.mcp_define(workloads.mcp_server(), functions)
            else:
                server = workloads.fastmcp_define(workloads.fastmcp_server(), functions)
                target = await workloads.fastmcp_lowlevel(server, stack)
            call = await workloads.round_trip(target, mode, stack)
            return await call()

    result = asyncio.run(go())
    assert result.content[0].text == "ok"
