"""Refusals and the tab-separated text rows a model reads."""

import enum
import pickle
import unittest.mock
import weakref

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adecore_tools import (
    CodedError,
    ToolRefusal,
    field,
    length_of,
    or_note,
    parse_refusal_body,
    parse_tool_input,
    refusal_body,
    refusal_rows,
    tool,
)

# Every character `field()` must turn into one space: C0 controls (tab and newline among them),
# DEL and the C1 controls, and the Unicode line and paragraph separators.
UNSAFE = [chr(c) for c in (*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029)]

codes = st.from_regex(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", fullmatch=True)
safe_text = st.text(st.characters(exclude_characters="".join(UNSAFE)))


# --- CodedError and ToolRefusal ------------------------------------------------------------------


def test_coded_error_attributes():
    err = CodedError("not-permitted", "This caller may not write this document.")
    assert isinstance(err, Exception)
    assert err.code == "not-permitted"
    assert err.message == "This caller may not write this document."


def test_coded_error_can_be_raised_and_caught():
    with pytest.raises(CodedError) as info:
        raise CodedError("stale-revision", "Read the document again.")
    assert info.value.code == "stale-revision"
    assert info.value.message == "Read the document again."


def test_tool_refusal_attributes():
    r = ToolRefusal("bad-arguments", "text: missing, expected a string", ["fields\ttext"])
    assert r.code == "bad-arguments"
    assert r.message == "text: missing, expected a string"
    assert tuple(r.lines) == ("fields\ttext",)


def test_errors_show_their_code_and_message():
    """A host's log line for an error: its class (a host's own too), code, message and rows."""

    class StaleError(ToolRefusal):
        pass

    assert repr(CodedError("not-permitted", "No.")) == "CodedError('not-permitted', 'No.')"
    assert repr(ToolRefusal("bad-arguments", "x: missing", ["fields\tx"])) == (
        "ToolRefusal('bad-arguments', 'x: missing', ['fields\\tx'])"
    )
    assert repr(StaleError("stale", "Read again.")) == "StaleError('stale', 'Read again.', [])"


def test_equal_refusals_hash_equal_and_differ_by_code_message_or_rows():
    """A host may count refusals in a set or dict: equal ones are one key."""
    one = ToolRefusal("not-found", "No such note.", ["note\t2"])
    same = ToolRefusal("not-found", "No such note.", ("note\t2",))
    assert one == same
    assert hash(one) == hash(same)
    assert len({one, same}) == 1
    others = [
        ToolRefusal("not-permitted", "No such note.", ["note\t2"]),
        ToolRefusal("not-found", "No such notes.", ["note\t2"]),
        ToolRefusal("not-found", "No such note.", ["note\t3"]),
    ]
    assert all(one != other for other in others)
    assert len({one, *others}) == 4


def test_tool_refusal_lines_default_to_empty():
    r = ToolRefusal("not-permitted", "No.")
    assert tuple(r.lines) == ()


def test_tool_refusal_lines_accept_any_iterable():
    r = ToolRefusal("not-found", "No such note.", (f"note\t{i}" for i in range(2)))
    assert tuple(r.lines) == ("note\t0", "note\t1")


def test_tool_refusal_is_a_coded_error():
    r = ToolRefusal("not-permitted", "No.")
    assert isinstance(r, CodedError)
    assert issubclass(ToolRefusal, CodedError)
    with pytest.raises(CodedError):
        raise r


@pytest.mark.parametrize(
    "code", ["a", "x1", "not-permitted", "bad-arguments", "e2e-1-b", "a-1", "abc123-def"]
)
def test_kebab_codes_are_accepted(code):
    assert CodedError(code, "m").code == code
    assert ToolRefusal(code, "m").code == code


@pytest.mark.parametrize(
    "code",
    [
        "",
        "Bad",
        "notPermitted",
        "NOT-PERMITTED",
        "not_permitted",
        "not permitted",
        "-lead",
        "trail-",
        "two--dashes",
        "1starts-with-digit",
        "naïve",
        "not-permitted\n",
        " not-permitted",
        5,
        None,
    ],
)
def test_other_codes_are_refused_with_value_error(code):
    with pytest.raises(ValueError, match="kebab"):
        CodedError(code, "m")
    with pytest.raises(ValueError, match="kebab"):
        ToolRefusal(code, "m")


class Code(str, enum.Enum):
    """Codes kept in one place, a common way to spell them (works on Python 3.10 too)."""

    NOT_FOUND = "not-found"


def test_a_code_given_as_a_str_enum_member_is_kept_as_its_text():
    """A member would be written by its own `__format__` (`Code.NOT_FOUND`) and not read back."""
    refusal = ToolRefusal(Code.NOT_FOUND, "No note here.", ["title\tx"])
    assert type(refusal.code) is str
    assert refusal_body(refusal) == "refused\tnot-found\tNo note here.\ntitle\tx"
    assert parse_refusal_body(refusal_body(refusal)) == refusal
    assert type(CodedError(Code.NOT_FOUND, "No note here.").code) is str


def test_message_is_sanitised_at_construction():
    r = ToolRefusal("bad-arguments", "one\ttwo\nthree\r\nfour\u2028five")
    assert r.message == "one two three  four five"


def test_rows_are_sanitised_at_construction_but_keep_tabs():
    r = ToolRefusal("bad-arguments", "m", ["fields\ttext\nrevision", "a\x00b\u2029c\x85d"])
    assert tuple(r.lines) == ("fields\ttext revision", "a b c d")


@pytest.mark.parametrize("lines", ["fields\ttext", ["ok", 3], [None]])
def test_rows_are_an_iterable_of_strings(lines):
    """A lone string would otherwise become one row per character."""
    with pytest.raises(TypeError, match="row"):
        ToolRefusal("bad-arguments", "m", lines)


def test_pickling_a_tool_refusal_round_trips():
    r = ToolRefusal("bad-arguments", "text: missing", ["fields\ttext\trevision", "more"])
    back = pickle.loads(pickle.dumps(r))  # noqa: S301 - our own bytes
    assert type(back) is ToolRefusal
    assert back == r
    assert back.code == "bad-arguments"
    assert back.message == "text: missing"
    assert tuple(back.lines) == ("fields\ttext\trevision", "more")


def test_a_refusal_from_validation_is_one_the_constructor_would_make():
    """Validation builds its refusals without `__init__` (for speed): nothing may tell."""

    @tool("v")
    async def takes_int(n: int) -> None:
        """Takes an integer."""

    with pytest.raises(ToolRefusal) as info:
        parse_tool_input(takes_int, {"n": "ten"})
    made = info.value
    same = ToolRefusal(made.code, made.message, made.lines)
    assert made == same
    assert (made.args, str(made), repr(made)) == (same.args, str(same), repr(same))
    assert made.args == ('n: expected an integer, got "ten"',)
    assert (made.code, made.message, made.lines) == (same.code, same.message, same.lines)
    assert vars(made) == vars(same) == {}  # the fields are slots: nothing else was set
    assert pickle.loads(pickle.dumps(made)) == same  # noqa: S301 - our own bytes


def test_a_refusal_keeps_its_fields_in_slots_and_takes_any_other_attribute():
    """`ToolRefusal` keeps `code`, `message` and `lines` in slots (for speed); its dict still
    takes what a host or `add_note` sets.
    """
    refusal = ToolRefusal("not-permitted", "No.", ["why\tread only"])
    refusal.context = "kept"
    assert vars(refusal) == {"context": "kept"}
    assert (refusal.code, refusal.message, refusal.lines) == (
        "not-permitted",
        "No.",
        ("why\tread only",),
    )


def test_a_refusal_subclass_cannot_also_be_an_os_error():
    """The price of the slots (docs/decisions.md): `CodedError` is the base for such errors."""
    with pytest.raises(TypeError, match="lay-out conflict"):
        type("TimedOut", (ToolRefusal, TimeoutError), {})


def test_a_coded_error_combines_with_any_exception_class():
    """A host's error hierarchy may mix `CodedError` with an exception that has a layout of its
    own (the `OSError` family): `CodedError` has no slots to conflict with it.
    """

    class TimedOut(CodedError, TimeoutError):
        pass

    err = TimedOut("timed-out", "No answer in 5 s.")
    assert isinstance(err, TimeoutError)
    assert (err.code, err.message, err.args) == (
        "timed-out",
        "No answer in 5 s.",
        ("No answer in 5 s.",),
    )
    assert vars(err) == {"code": "timed-out", "message": "No answer in 5 s."}


def test_a_refusal_can_be_weakly_referenced_as_any_exception_class_of_a_host():
    """Slots must not take the weak reference an exception class without them has.

    A host or framework may keep refusals in a `WeakSet` or `weakref.finalize` them; giving the
    fields slots (for speed) dropped `__weakref__`, and `weakref.ref` raised `TypeError`.
    """

    @tool("v")
    async def takes_int(n: int) -> None:
        """Takes an integer."""

    with pytest.raises(ToolRefusal) as info:
        parse_tool_input(takes_int, {"n": "ten"})
    for refusal in (info.value, ToolRefusal("not-permitted", "No."), CodedError("no-way", "No.")):
        assert weakref.ref(refusal)() is refusal


def test_pickling_a_coded_error_round_trips():
    err = CodedError("not-permitted", "No.")
    back = pickle.loads(pickle.dumps(err))  # noqa: S301 - our own bytes
    assert type(back) is CodedError
    assert (back.code, back.message) == ("not-permitted", "No.")


def test_refusals_compare_by_value():
    a = ToolRefusal("not-found", "No such note.", ["note\t1"])
    assert a == ToolRefusal("not-found", "No such note.", ["note\t1"])
    assert a != ToolRefusal("not-found", "No such note.", ["note\t2"])
    assert a != ToolRefusal("not-found", "No such note!", ["note\t1"])
    assert a != ToolRefusal("gone", "No such note.", ["note\t1"])


# --- text forms -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("form", "text"),
    [
        (
            refusal_body,
            "refused\tbad-arguments\ttext: missing, expected a string\nfields\ttext\trevision",
        ),
        (refusal_rows, "bad-arguments\ttext: missing, expected a string\nfields\ttext\trevision"),
    ],
    ids=["body", "rows"],
)
def test_refusal_text_form_exact_text(form, text):
    r = ToolRefusal("bad-arguments", "text: missing, expected a string", ["fields\ttext\trevision"])
    assert form(r) == text


def test_refusal_text_without_rows_has_one_line_and_no_trailing_newline():
    r = ToolRefusal("not-permitted", "This caller may not write this document.")
    assert refusal_body(r) == "refused\tnot-permitted\tThis caller may not write this document."
    assert refusal_rows(r) == "not-permitted\tThis caller may not write this document."


def test_refusal_text_with_several_rows():
    r = ToolRefusal("stale-revision", "Read again.", ["revision\t4", "hint\tnote_read"])
    assert refusal_body(r) == "refused\tstale-revision\tRead again.\nrevision\t4\nhint\tnote_read"
    assert refusal_rows(r) == "stale-revision\tRead again.\nrevision\t4\nhint\tnote_read"


@pytest.mark.parametrize(
    "text",
    [
        "refused\tbad-arguments\ttext: missing\nfields\ttext\trevision",
        "bad-arguments\ttext: missing\nfields\ttext\trevision",
    ],
    ids=["body form", "rows form"],
)
def test_parse_refusal_body_reads_either_form(text):
    assert parse_refusal_body(text) == ToolRefusal(
        "bad-arguments", "text: missing", ["fields\ttext\trevision"]
    )


def test_parse_refusal_body_returns_a_tool_refusal():
    r = parse_refusal_body("refused\tnot-permitted\tNo.")
    assert type(r) is ToolRefusal
    assert (r.code, r.message, tuple(r.lines)) == ("not-permitted", "No.", ())


@pytest.mark.parametrize(
    "args",
    [
        ("bad-arguments", "a\nb\tc", ["x\ty\nz", "\r"]),
        ("x", "", ["", "a\tb"]),
        ("refused", "m"),
    ],
    ids=["sanitised text", "empty message and empty row", "the code is refused"],
)
def test_refusal_text_reads_back(args):
    r = ToolRefusal(*args)
    assert parse_refusal_body(refusal_body(r)) == r
    assert parse_refusal_body(refusal_rows(r)) == r


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello",
        "hello world",
        "refused",
        "refused\n",
        "\tmessage",
        "refused\t\tmessage",
        "Bad-Code\tmessage",
        "refused\tBad-Code\tmessage",
        "refused\tnot_kebab\tmessage",
        "not permitted\tmessage",
        "code\tmessage\r",
        "code\tmessage\x00",
        "refused\tcode\tmessage\u2028more",
        "code\tmessage\nrow\x01",
        "code\tmessage\nrow\u2029",
        "Traceback (most recent call last):\n  File ...",
        "error\tnot-found\tNo such note",
    ],
)
def test_parse_refusal_body_returns_none_for_other_text(text):
    assert parse_refusal_body(text) is None


@pytest.mark.parametrize("value", [None, 1, b"refused\tcode\tmessage"])
def test_parse_refusal_body_returns_none_for_what_is_no_text(value):
    assert parse_refusal_body(value) is None


def test_a_refusal_leaves_comparison_with_other_objects_to_them():
    assert ToolRefusal("not-found", "no such note") == unittest.mock.ANY
    assert ToolRefusal("not-found", "no such note") != "not-found"


@pytest.mark.slow
@given(code=codes, message=st.text(), rows=st.lists(st.text(), max_size=5))
def test_body_round_trip_for_every_refusal(code, message, rows):
    r = ToolRefusal(code, message, rows)
    assert parse_refusal_body(refusal_body(r)) == r


@pytest.mark.slow
@given(code=codes, message=st.text(), rows=st.lists(st.text(), max_size=5))
def test_rows_round_trip_for_every_refusal(code, message, rows):
    r = ToolRefusal(code, message, rows)
    assert parse_refusal_body(refusal_rows(r)) == r


@pytest.mark.slow
@given(code=codes, message=st.text(), rows=st.lists(st.text(), max_size=5))
def test_text_forms_agree(code, message, rows):
    r = ToolRefusal(code, message, rows)
    assert refusal_body(r) == "refused\t" + refusal_rows(r)
    assert refusal_body(r).split("\n") == [f"refused\t{r.code}\t{r.message}", *r.lines]


# --- field() --------------------------------------------------------------------------------------


@pytest.mark.parametrize("char", UNSAFE, ids=lambda c: f"U+{ord(c):04X}")
def test_field_turns_each_unsafe_character_into_one_space(char):
    assert field(f"a{char}b") == "a b"
    assert field(char * 3) == "   "


@pytest.mark.parametrize(
    ("value", "expected"),
    [("a\r\nb", "a  b"), (None, ""), ("", "")],
    ids=["crlf becomes two spaces", "None becomes empty", "empty string stays empty"],
)
def test_field_of_crlf_none_and_empty(value, expected):
    assert field(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (5, "5"),
        (1.5, "1.5"),
        (True, "True"),
        (False, "False"),
        (0, "0"),
        (["a", 1], "['a', 1]"),
        (["a\tb"], "['a\\tb']"),
    ],
)
def test_field_other_values_go_through_str(value, expected):
    assert field(value) == expected


def test_field_sanitises_what_str_returns():
    class Shouty:
        def __str__(self):
            return "line one\nline two\ttabbed"

    assert field(Shouty()) == "line one line two tabbed"


def test_field_keeps_ordinary_unicode():
    text = "café \u2013 naïve 日本語 \U0001f600 \u00a0nbsp"
    assert field(text) == text


@given(st.text())
def test_field_keeps_the_length_and_leaves_no_unsafe_character(text):
    out = field(text)
    assert len(out) == len(text)
    assert not any(c in UNSAFE for c in out)
    assert out.splitlines() in ([out], [])


@given(safe_text)
def test_field_leaves_safe_text_unchanged(text):
    assert field(text) == text


# --- length_of and or_note ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("", 0),
        ("héllo", 5),
        ("日本", 2),
        ([1, 2, 3], 3),
        ((1,), 1),
        ({"a": 1, "b": 2}, 2),
        ({1, 2}, 2),
        (frozenset(), 0),
    ],
)
def test_length_of(value, expected):
    assert length_of(value) == expected


def test_or_note_gives_the_lines_when_there_are_some():
    assert or_note(["a\t1", "b\t2"], "none") == ["a\t1", "b\t2"]


def test_or_note_gives_the_note_when_there_are_none():
    assert or_note([], "no notes yet") == ["no notes yet"]
    assert or_note((), "no notes yet") == ["no notes yet"]


def test_or_note_accepts_an_iterator():
    assert or_note(iter(()), "none") == ["none"]
    assert or_note((f"n\t{i}" for i in range(2)), "none") == ["n\t0", "n\t1"]


def test_or_note_refuses_a_lone_string_as_a_refusal_does():
    """A lone string would otherwise become one line per character."""
    with pytest.raises(TypeError) as info:
        or_note("notes\t3", "none")
    assert str(info.value) == (
        "lines are rows, an iterable of strings, not one string; pass ['notes\\t3']"
    )


def test_or_note_returns_a_list():
    assert type(or_note(("a",), "none")) is list
    assert type(or_note((), "none")) is list
