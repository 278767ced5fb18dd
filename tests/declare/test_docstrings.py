import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adecore_tools._declare.docstrings import cleaned, split_docstring


@pytest.mark.parametrize("doc", [None, "", "   ", "\n\n  \n"])
def test_empty_docstring(doc):
    assert split_docstring(doc) == ("", {})


def test_no_parameter_section_keeps_everything():
    doc = """Write a note.

        The note is stored as given.

            indented example

        Returns:
            The new note's id.
        """
    assert split_docstring(doc) == (
        (
            "Write a note.\n\nThe note is stored as given.\n\n    indented example\n\n"
            "Returns:\n    The new note's id."
        ),
        {},
    )


def test_google_args():
    doc = """Write a note.

        Args:
            text: The note's text.
            limit (int): How many notes
                to keep, at most.
            tags (list[str], optional):
                Tags to attach.

        Returns:
            The new note's id.
        """
    assert split_docstring(doc) == (
        "Write a note.\n\nReturns:\n    The new note's id.",
        {
            "text": "The note's text.",
            "limit": "How many notes to keep, at most.",
            "tags": "Tags to attach.",
        },
    )


@pytest.mark.parametrize(
    "header",
    [
        "Args:",
        "Arguments:",
        "Parameters:",
        "Params:",
        "Attributes:",
        "Keyword Args:",
        "Keyword Arguments:",
        "Other Parameters:",
        "Args:   ",
        "args:",
        "ARGS:",
        "Kwargs:",
    ],
)
def test_google_headers(header):
    """Matched without regard to case, as Napoleon does."""
    doc = f"Summary.\n\n{header}\n    x: The x.\n"
    assert split_docstring(doc) == ("Summary.", {"x": "The x."})


@pytest.mark.parametrize("header", ["Args", "Args: x", "Returns:", "Example:"])
def test_other_google_like_headers_stay(header):
    doc = f"Summary.\n\n{header}\n    x: The x.\n"
    assert split_docstring(doc) == (f"Summary.\n\n{header}\n    x: The x.", {})


def test_google_nested_parentheses_and_starred_names():
    doc = """Summary.

        Args:
            fn (Callable[(int), str]): The callback.
            *args: Ignored.
            **kwargs: Ignored too.
            y: The y.
        """
    assert split_docstring(doc) == ("Summary.", {"fn": "The callback.", "y": "The y."})


def test_google_line_that_is_no_entry_continues_the_previous_one():
    doc = """Summary.

        Args:
            x: The x,
            which goes on here.
            y: The y.
        """
    assert split_docstring(doc) == (
        "Summary.",
        {"x": "The x, which goes on here.", "y": "The y."},
    )


def test_google_blank_line_inside_a_description():
    doc = "Summary.\n\nArgs:\n    x: First part.\n\n        Second part.\n    y: The y.\n"
    assert split_docstring(doc) == ("Summary.", {"x": "First part. Second part.", "y": "The y."})


def test_google_section_ends_at_text_indented_like_the_header():
    doc = "Summary.\n\nArgs:\n    x: The x.\nMore about the tool.\n"
    assert split_docstring(doc) == ("Summary.\n\nMore about the tool.", {"x": "The x."})


def test_google_section_without_a_blank_line_before_keeps_the_paragraph_break():
    doc = "Summary.\nArgs:\n    x: The x.\n\nMore about the tool.\n"
    assert split_docstring(doc) == ("Summary.\n\nMore about the tool.", {"x": "The x."})


def test_google_empty_section_header_is_removed():
    assert split_docstring("Summary.\n\nArgs:\n\nReturns:\n    Nothing.") == (
        "Summary.\n\nReturns:\n    Nothing.",
        {},
    )


def test_numpy_parameters():
    doc = """Write a note.

        Parameters
        ----------
        text : str
            The note's text.
        limit : int, optional
            How many notes
            to keep.
        flag

        Returns
        -------
        int
            The new note's id.
        """
    assert split_docstring(doc) == (
        "Write a note.\n\nReturns\n-------\nint\n    The new note's id.",
        {"text": "The note's text.", "limit": "How many notes to keep."},
    )


def test_numpy_multiple_names():
    doc = "Summary.\n\nParameters\n---\na, b : int\n    The bounds.\nc\n    The c.\n"
    assert split_docstring(doc) == (
        "Summary.",
        {"a": "The bounds.", "b": "The bounds.", "c": "The c."},
    )


@pytest.mark.parametrize("header", ["Parameters", "Other Parameters", "Attributes", "Arguments"])
def test_numpy_headers(header):
    doc = f"Summary.\n\n{header}\n{'-' * len(header)}\nx : int\n    The x.\n"
    assert split_docstring(doc) == ("Summary.", {"x": "The x."})


def test_numpy_other_sections_stay():
    doc = """Summary.

        Raises
        ------
        ValueError
            When it fails.

        Attributes
        ----------
        x : int
            The x.

        Examples
        --------
        >>> f(1)
        """
    assert split_docstring(doc) == (
        (
            "Summary.\n\nRaises\n------\nValueError\n    When it fails.\n\n"
            "Examples\n--------\n>>> f(1)"
        ),
        {"x": "The x."},
    )


def test_numpy_header_needs_three_dashes():
    doc = "Summary.\n\nParameters\n--\nx : int\n    The x.\n"
    assert split_docstring(doc) == ("Summary.\n\nParameters\n--\nx : int\n    The x.", {})


def test_sphinx_fields():
    doc = """Write a note.

        More text.

        :param text: The note's text.
        :type text: str
        :param int limit: How many notes
            to keep.
        :parameter a: The a.
        :arg b: The b.
        :argument c: The c.
        :key d: The d.
        :keyword e: The e.
        :ivar f: The f.
        :var g: The g.
        :vartype g: int
        :cvar h: The h.
        :returns: The new note's id.
        :rtype: int
        :raises ValueError: When it fails.
        """
    assert split_docstring(doc) == (
        (
            "Write a note.\n\nMore text.\n\n:returns: The new note's id.\n:rtype: int\n"
            ":raises ValueError: When it fails."
        ),
        {
            "text": "The note's text.",
            "limit": "How many notes to keep.",
            "a": "The a.",
            "b": "The b.",
            "c": "The c.",
            "d": "The d.",
            "e": "The e.",
            "f": "The f.",
            "g": "The g.",
            "h": "The h.",
        },
    )


def test_sphinx_type_lines_removed_without_description():
    doc = "Summary.\n\n:type x: int\n:vartype y: str\n:param z:\n    The z.\n"
    assert split_docstring(doc) == ("Summary.", {"z": "The z."})


def test_sphinx_literal_block_marker_and_unknown_fields_stay():
    doc = "Summary::\n\n    code\n\n:meta private:\n:param: no name\n::\n"
    assert split_docstring(doc) == (
        "Summary::\n\n    code\n\n:meta private:\n:param: no name\n::",
        {},
    )


def test_mixed_sections():
    doc = """Summary.

        Args:
            a: From Google.

        Parameters
        ----------
        b : int
            From NumPy.

        Returns
        -------
        None

        :param c: From Sphinx.
        :returns: Nothing.
        """
    assert split_docstring(doc) == (
        "Summary.\n\nReturns\n-------\nNone\n\n:returns: Nothing.",
        {"a": "From Google.", "b": "From NumPy.", "c": "From Sphinx."},
    )


def test_only_a_parameter_section():
    assert split_docstring("\n    Args:\n        x: The x.\n        y: The y.\n    ") == (
        "",
        {"x": "The x.", "y": "The y."},
    )
    assert split_docstring("\n    :param x: The x.\n    :type x: int\n    ") == (
        "",
        {"x": "The x."},
    )


def test_first_description_wins():
    doc = """Summary.

        Args:
            x: First.
            x: Second.

        :param x: Third.
        :param y:
        :param y: An empty description does not count.
        """
    assert split_docstring(doc) == (
        "Summary.",
        {"x": "First.", "y": "An empty description does not count."},
    )


def test_class_docstring_attributes():
    doc = """A note.

    Attributes:
        title: The title.
        body: The body.
    """
    assert split_docstring(doc) == ("A note.", {"title": "The title.", "body": "The body."})


def test_trailing_whitespace_is_stripped():
    doc = "\n\n  Summary.   \n\n  Details.\t\n\n  Args:\n      x: The x.  \n\n"
    assert split_docstring(doc) == ("Summary.\n\nDetails.", {"x": "The x."})


_FRAGMENTS = [
    "",
    " ",
    "Summary.",
    "Args:",
    "Parameters:",
    "  x: The x.",
    "    x (int): The x.",
    "  *args: more",
    "  y (list[(int)]:",
    "  y (: broken",
    "        continued",
    "Parameters",
    "Attributes",
    "----------",
    "---",
    "-",
    "x : int",
    "a, b",
    ":param x: The x.",
    ":type x: int",
    ":param:",
    "::",
    ":",
    "Returns",
    "Returns:",
    "  \t ",
    "\u00e9t\u00e9: summer",
]


@pytest.mark.slow
@settings(max_examples=300)
@given(
    st.one_of(
        st.none(),
        st.text(),
        st.lists(st.sampled_from(_FRAGMENTS) | st.text(max_size=8)).map("\n".join),
    )
)
def test_never_raises(doc):
    description, params = split_docstring(doc)
    assert isinstance(description, str)
    assert description == description.strip("\n")
    for line in description.split("\n"):
        assert line == line.rstrip()
        assert line.strip() not in {"Args:", "Parameters:", "Attributes:"}
    for name, text in params.items():
        assert name.isidentifier()
        assert text
        assert text == text.strip()


@pytest.mark.parametrize(
    "doc",
    [
        "Args:\n" + "    x (" * 40_000,
        "Args:\n    x " + "(" * 100_000 + ")" * 100_000 + ":",
        "Args:\n" + "    x: d\n        more\n" * 10_000,
        ":param " + " " * 200_000 + "x:",
        ":" * 200_000,
        "Parameters\n" * 20_000,
        "Parameters\n---\n" + "a, " * 60_000 + "b : int\n",
        "Parameters\n---\n" + "x\n----\n" * 20_000,
        "Args:\n" * 30_000,
        "\n" * 100_000 + "Args:\n" + "\n" * 100_000,
        "\n" * 200_000 + "x",
        "\n" + "    \n" * 50_000 + "        x",
        "\n" + "\x0c\n" * 100_000 + "  x",
        " " * 200_000,
        "x" * 200_000 + "(",
        "**" * 100_000,
    ],
    ids=lambda doc: repr(doc[:12]),
)
def test_large_pathological_input_completes(doc):
    assert len(doc) >= 100_000
    description, params = split_docstring(doc)
    assert isinstance(description, str)
    assert isinstance(params, dict)


def test_numpy_parameters_end_where_text_no_parameter_starts():
    """A paragraph or another header after the block is the tool's description, not a name."""
    doc = """Searches the notes.

        Parameters
        ----------
        query : str
            The phrase to look for.
        limit, offset : int

        Returns:
            list[str]: The matching lines.

        Never call this tool before note_read: it needs the revision.
        """
    description = (
        "Searches the notes.\n\nReturns:\n    list[str]: The matching lines.\n\n"
        "Never call this tool before note_read: it needs the revision."
    )
    assert split_docstring(doc) == (description, {"query": "The phrase to look for."})


def test_numpy_parameters_then_a_plain_paragraph():
    doc = "Summary.\n\nParameters\n----------\nx : int\n    The x.\n\nMore about the tool.\n"
    assert split_docstring(doc) == ("Summary.\n\nMore about the tool.", {"x": "The x."})


def test_google_entry_with_several_names_describes_each():
    doc = """Moves a marker.

        Args:
            name: The marker's name.
            x, y (float): The new coordinates.
        """
    assert split_docstring(doc) == (
        "Moves a marker.",
        {"name": "The marker's name.", "x": "The new coordinates.", "y": "The new coordinates."},
    )


def test_a_header_inside_an_indented_block_is_text():
    doc = """Shows how to document a tool.

        Example:
            A docstring for a tool looks like::

                Args:
                    foo: bar
        """
    description, params = split_docstring(doc)
    assert params == {}
    assert description.endswith("        Args:\n            foo: bar")


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_windows_and_old_mac_line_endings(newline):
    """Python 3.13's `cleandoc` splits on newlines only: the endings are made one first."""
    doc = newline.join(
        ["Reads notes.", "", "    More.  ", "", "    Args:", "        x: The x.", ""]
    )
    assert split_docstring(doc) == ("Reads notes.\n\nMore.", {"x": "The x."})


def test_a_lone_carriage_return_in_a_docstring_reads_the_same_on_every_python():
    """Python 3.13 strips a docstring's margin as it compiles it, by newlines only.

    A line after a lone carriage return keeps its whole indent there; older Pythons keep the raw
    text, and the description is cut as 3.13 cuts it on every Python.
    """
    raw = "Moves a thing.\n    Fast\r        and far.\n\n    Args:\n        x: How far.\n    "
    source = f"async def moves(x: int) -> None:\n    {raw!r}\n"  # escapes the compiler reads
    namespace: dict[str, object] = {}
    exec(source, namespace)  # noqa: S102 - our own source: the compiler must see the docstring
    doc = namespace["moves"].__doc__  # type: ignore[attr-defined]
    expected = ("Moves a thing.\nFast\n        and far.", {"x": "How far."})
    assert split_docstring(doc) == expected
    assert split_docstring(raw) == expected


LAYOUTS = {
    "a blank line after the header": (
        "Do it.\n\nArgs:\n\n    x: The x.\n",
        ("Do it.", {"x": "The x."}),
    ),
    "a continuation holding a colon": (
        "Do it.\n\nArgs:\n    x: The x, see\n        note: below.\n",
        ("Do it.", {"x": "The x, see note: below."}),
    ),
    "a continuation that names no parameter": (
        "Do it.\n\nArgs:\n    x: The x.\n    Default is: 3.\n",
        ("Do it.", {"x": "The x. Default is: 3."}),
    ),
    "a space before the colon": (
        "Do it.\n\nArgs:\n    x (int) : The x.\n",
        ("Do it.", {"x": "The x."}),
    ),
    "no space after the colon": ("Do it.\n\nArgs:\n    x:The x.\n", ("Do it.", {"x": "The x."})),
    "a link continuing an entry at its indent": (
        "Do it.\n\nArgs:\n    x: The x, as in\n    https://example.com/x.\n",
        ("Do it.", {"x": "The x, as in https://example.com/x."}),
    ),
    "an empty NumPy section": (
        "Do it.\n\nParameters\n----------\n\nMore text.\n",
        ("Do it.\n\nMore text.", {}),
    ),
    "a blank line between NumPy entries": (
        "Do it.\n\nParameters\n----------\nx : int\n    The x.\n\ny : int\n    The y.\n",
        ("Do it.", {"x": "The x.", "y": "The y."}),
    ),
    "dashes inside a NumPy entry": (
        "Do it.\n\nParameters\n----------\nx : int\n    The x.\n\n    ---\n    ---\n",
        ("Do it.", {"x": "The x. --- ---"}),
    ),
    "a bullet that is no Sphinx field": (
        "Do it.\n\n- key name: the name to look up.\n",
        ("Do it.\n\n- key name: the name to look up.", {}),
    ),
}


LAYOUTS |= {  # `"""Args:` on the quotes' line: cleandoc takes the entries' indent as the margin
    "a Google section on the first line": (
        "Args:\n            x: Column to move to.\n            y: Row to move to.\n        ",
        ("", {"x": "Column to move to.", "y": "Row to move to."}),
    ),
    "a Google section on the first line, then text": (
        "Args:\n            x: Column to move to.\n\n        Moves the cursor.\n        ",
        ("Moves the cursor.", {"x": "Column to move to."}),
    ),
    "a Google section on the first line, its entries up to a blank line": (
        (
            "Args:\n            x: The first.\n            y: The second.\n\n"
            "            Returns:\n            The sum.\n        "
        ),
        ("Returns:\nThe sum.", {"x": "The first.", "y": "The second."}),
    ),
}


@pytest.mark.parametrize(("doc", "expected"), LAYOUTS.values(), ids=list(LAYOUTS))
def test_layouts_at_the_edges_of_each_style(doc, expected):
    assert split_docstring(doc) == expected


@pytest.mark.parametrize(
    "space", ["\x0c", "\u00a0", "\u3000"], ids=["form feed", "nbsp", "ideographic"]
)
def test_a_line_opening_with_other_whitespace_is_indented_by_it_on_every_python(space):
    """3.13's `inspect.cleandoc` counts only spaces as indent; older ones, any whitespace."""
    doc = f"{space}Moves a thing.\n\n{space}   Args:\n        x: How far.\n    "
    assert split_docstring(doc) == ("Moves a thing.", {"x": "How far."})
    assert cleaned(f"Moves a thing.\n{space}Fast.\n    Carefully.") == (
        "Moves a thing.\nFast.\n   Carefully."
    )


@pytest.mark.parametrize("blank", ["\x0c", "\u00a0", " \t "], ids=["form feed", "nbsp", "spaces"])
def test_a_line_of_whitespace_alone_is_blank_on_every_python(blank):
    """3.13's `inspect.cleandoc` counts only spaces as blank; older ones, any whitespace."""
    doc = f"Writes a note.\n{blank}\n    Args:\n        x: The x.\n    "
    assert split_docstring(doc) == ("Writes a note.", {"x": "The x."})


@pytest.mark.parametrize(
    "after",
    [
        "Warning: this cannot be undone.",
        "NOTE: call note_read first.",
        "Important: the document must be open.",
        "Warns:\n    UserWarning: when the note is long.",
        "Raises:\n    ValueError: when it fails.",
        "Returns\n    The lines.",  # a header left without its underline
        "Example\n    note_delete(0)",
    ],
)
def test_numpy_parameters_then_prose_opening_with_a_section_word(after):
    """`Note: ...` after the block is the tool's text, not a parameter named `Note`."""
    doc = f"Deletes a note.\n\nParameters\n----------\nx : int\n    The x.\n\n{after}\n"
    assert split_docstring(doc) == (f"Deletes a note.\n\n{after}", {"x": "The x."})


def test_numpy_parameters_then_a_google_section_of_parameters():
    doc = "Moves.\n\nParameters\n----------\nx : int\n    The x.\nArgs:\n    y: The y.\n"
    assert split_docstring(doc) == ("Moves.", {"x": "The x.", "y": "The y."})


def test_numpy_parameters_may_be_named_like_a_section_in_lower_case():
    doc = "Writes.\n\nParameters\n----------\nnote : str\n    The note.\nexample: str\n    One.\n"
    assert split_docstring(doc) == ("Writes.", {"note": "The note.", "example": "One."})
