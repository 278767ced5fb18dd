"""Split a docstring into the tool's description and its parameters' descriptions.

A tool's docstring serves twice: its parameter section describes the input fields, and the rest
describes the tool, where the parameter section would only repeat the schema. The same holds for
the attribute section of a TypedDict or dataclass docstring.

Google (`Args:`), NumPy (`Parameters` over a dashed line) and Sphinx (`:param x:`) sections are
recognised. The scan goes line by line with no backtracking, so any text, however odd or large,
is handled in linear time and never raises.
"""

from __future__ import annotations

_GOOGLE_HEADERS = frozenset(
    {
        "args:",
        "arguments:",
        "parameters:",
        "params:",
        "attributes:",
        "keyword args:",
        "keyword arguments:",
        "kwargs:",
        "other parameters:",
    }
)
"""Google headers of parameter sections, matched without regard to case (as Napoleon does)."""
_NUMPY_HEADERS = frozenset({"parameters", "other parameters", "attributes", "arguments"})
_SECTION_WORDS = frozenset(
    {
        "args",
        "arguments",
        "attention",
        "attributes",
        "caution",
        "danger",
        "error",
        "example",
        "examples",
        "hint",
        "important",
        "methods",
        "note",
        "notes",
        "parameters",
        "receive",
        "receives",
        "references",
        "return",
        "returns",
        "raise",
        "raises",
        "tip",
        "todo",
        "warn",
        "warning",
        "warnings",
        "warns",
        "yield",
        "yields",
    }
)
"""Napoleon's one-word section titles: each ends a NumPy parameter block (`Note: ...`)."""
_SPHINX_PARAM_FIELDS = frozenset(
    {"param", "parameter", "arg", "argument", "key", "keyword", "ivar", "var", "cvar"}
)
_SPHINX_TYPE_FIELDS = frozenset({"type", "vartype"})
_SPHINX_FIELDS = _SPHINX_PARAM_FIELDS | _SPHINX_TYPE_FIELDS


def split_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """Split a docstring into its description and its per-parameter descriptions.

    Args:
        doc: A raw `__doc__`, or `None`.

    Returns:
        The docstring, cleaned as `inspect.cleandoc` does, without its parameter sections, and a
        map from each documented parameter name to its description on one line.
    """
    if not doc:
        return "", {}
    lines = _clean_lines(doc)
    kept: list[str] = []
    params: dict[str, str] = {}
    i = 0
    while i < len(lines):
        end = _parameter_section_end(lines, i, params)
        if end is None:
            kept.append(lines[i].rstrip())
            i += 1
            continue
        i = end
        # Close the gap the section leaves: at most one blank line where it stood.
        while i < len(lines) and not lines[i].strip() and (not kept or not kept[-1]):
            i += 1
    return "\n".join(kept).strip("\n"), params


def cleaned(text: str) -> str:
    """A text cleaned as a docstring is: any line ending, the common indent, trailing spaces."""
    return "\n".join(line.rstrip() for line in _clean_lines(text)).strip("\n")


def _clean_lines(doc: str) -> list[str]:
    """The lines of `doc` as `inspect.cleandoc` made them up to Python 3.12, on every Python.

    Python 3.13's counts only spaces as a line's indent, so a line opening with a form feed or a
    no-break space would read differently there; and cleandoc drops leading blank lines one
    `list.pop(0)` at a time, which is quadratic. A carriage return ends a line here, as a newline
    does, once the text is as 3.13's compiler leaves it; no other character does.
    """
    if "\r" in doc:  # only a lone one can cut lines otherwise than 3.13's compiler did
        doc = _as_compiled(doc)
    text = doc.expandtabs().replace("\r\n", "\n").replace("\r", "\n")
    lines = [line if line.strip() else "" for line in text.split("\n")]
    margin = min((len(line) - len(line.lstrip()) for line in lines[1:] if line), default=0)
    lines = [lines[0].lstrip(), *(line[margin:] for line in lines[1:])]
    start = next((i for i, line in enumerate(lines) if line), len(lines))
    end = len(lines)
    while end > start and not lines[end - 1]:
        end -= 1
    return lines[start:end] or [""]


def _as_compiled(doc: str) -> str:
    """`doc` as Python 3.13 compiles a docstring: each newline's line loses the common spaces.

    Its `__doc__` is that text, so every Python starts from it. Lines are cut at newlines only:
    a line after a lone carriage return keeps the indent the margin would have taken.
    """
    first, newline, rest = doc.expandtabs().partition("\n")
    lines = rest.split("\n")
    margin = min((len(ln) - len(ln.lstrip(" ")) for ln in lines if ln.strip(" ")), default=0)
    kept = (ln[min(margin, len(ln) - len(ln.lstrip(" "))) :] for ln in lines)
    return first.lstrip(" ") + newline + "\n".join(kept) if newline else first.lstrip(" ")


def _parameter_section_end(lines: list[str], start: int, params: dict[str, str]) -> int | None:
    """Return where the parameter section starting at `start` ends, or `None` if none starts.

    Sections start at the docstring's own margin: a header inside an indented block (an example,
    a literal block) is text.
    """
    if _indent(lines[start]):
        return None
    for section_end in (_numpy_section_end, _google_section_end, _sphinx_field_end):
        end = section_end(lines, start, params)
        if end is not None:
            return end
    return None


def _google_section_end(lines: list[str], start: int, params: dict[str, str]) -> int | None:
    header = lines[start]
    if header.strip().lower() not in _GOOGLE_HEADERS:
        return None
    first_entry = next((line for line in lines[1:] if line.strip()), "") if start == 0 else ""
    if first_entry and not _indent(first_entry):
        # `"""Args:` on the quotes' line: cleandoc took the entries' indent as the margin, so
        # the section is the lines up to the first blank one
        end = next((i for i in range(1, len(lines)) if not lines[i].strip()), len(lines))
    else:
        end = _indented_block_end(lines, start + 1, _indent(header))
    entry_indent: int | None = None
    names: list[str] = []
    pieces: list[str] = []
    for line in lines[start + 1 : end]:
        if not line.strip():
            continue
        indent = _indent(line)
        if entry_indent is None:
            entry_indent = indent
        entry = _google_entry(line.strip()) if indent <= entry_indent else None
        if entry is None:
            pieces.append(line)
        else:
            _record(params, names, pieces)
            names, pieces = entry[0].split(","), [entry[1]]
    _record(params, names, pieces)
    return end


def _google_entry(text: str) -> tuple[str, str] | None:
    """Parse `name: desc` or `name (type): desc` into the names and the first description line."""
    cut = min((i for i in (text.find("("), text.find(":")) if i > 0), default=-1)
    names, rest = text[:cut], text[cut:]
    if cut == -1 or not _are_names(names):
        return None
    if rest.startswith("("):
        close = _closing_paren(rest)
        if close is None:
            return None
        rest = rest[close + 1 :].lstrip()
    if not rest.startswith(":") or rest.startswith("://"):  # `https://...` is a link, no name
        return None
    return names, rest[1:]


def _closing_paren(text: str) -> int | None:
    """Return the index of the parenthesis closing the one `text` starts with."""
    depth = 0
    for index, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index
    return None


def _numpy_section_end(lines: list[str], start: int, params: dict[str, str]) -> int | None:
    if not _is_numpy_header(lines, start) or lines[start].strip().lower() not in _NUMPY_HEADERS:
        return None
    base = _indent(lines[start])
    end = start + 2  # just past the last non-blank line of the section
    names: list[str] = []
    pieces: list[str] = []
    for index in range(start + 2, len(lines)):
        line = lines[index]
        if not line.strip():
            continue
        indent = _indent(line)
        if indent < base or _is_numpy_header(lines, index):
            break
        if indent == base and not _is_numpy_entry(line):
            break  # text after the parameters (a paragraph, another style's header) stays
        if indent == base:
            _record(params, names, pieces)
            names, pieces = line.partition(":")[0].split(","), []
        else:
            pieces.append(line)
        end = index + 1
    _record(params, names, pieces)
    return end


def _is_numpy_entry(line: str) -> bool:
    """`name`, `name : type` or `x, y : type`; no header (`Returns`, `Returns:`) nor prose.

    A parameter named like a section is written in lower case: `note : str`.
    """
    name, colon, rest = line.strip().partition(":")
    name = name.strip()
    header = bool(colon) and not rest.strip()
    if name.lower() in _SECTION_WORDS and (header or not name.islower()):
        return False
    return _are_names(name)


def _are_names(text: str) -> bool:
    """One parameter name or several, comma-separated (`x`, `*args`, `x, y`)."""
    return all(name.strip().lstrip("*").isidentifier() for name in text.split(","))


def _is_numpy_header(lines: list[str], index: int) -> bool:
    """Tell whether `lines[index]` is a NumPy section title, underlined by the next line."""
    return (
        index + 1 < len(lines)
        and bool(lines[index].strip())
        and not _is_dashes(lines[index])
        and _is_dashes(lines[index + 1])
    )


def _is_dashes(line: str) -> bool:
    text = line.strip()
    return len(text) >= 3 and not text.strip("-")


def _sphinx_field_end(lines: list[str], start: int, params: dict[str, str]) -> int | None:
    text = lines[start].strip()
    close = text.find(":", 1)
    if not text.startswith(":") or close == -1:
        return None
    words = text[1:close].split()
    if len(words) < 2 or words[0] not in _SPHINX_FIELDS:
        return None
    end = _indented_block_end(lines, start + 1, _indent(lines[start]))
    if words[0] in _SPHINX_PARAM_FIELDS:
        _record(params, [words[-1]], [text[close + 1 :], *lines[start + 1 : end]])
    return end


def _indented_block_end(lines: list[str], start: int, indent: int) -> int:
    """Return the index just past the last non-blank line indented deeper than `indent`.

    The block runs from `start` to the first non-blank line indented `indent` or less; blank
    lines inside it belong to it, blank lines after it do not.
    """
    end = start
    for index in range(start, len(lines)):
        line = lines[index]
        if line.strip():
            if _indent(line) <= indent:
                break
            end = index + 1
    return end


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _record(params: dict[str, str], names: list[str], pieces: list[str]) -> None:
    """Join `pieces` into one description for each of `names`; the first description wins."""
    description = " ".join(piece.strip() for piece in pieces if piece.strip())
    if not description:
        return
    for raw_name in names:
        name = raw_name.strip()
        if name.isidentifier():
            params.setdefault(name, description)
