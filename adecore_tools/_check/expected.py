"""What a node takes, in the words a model reads after "expected": `a string`, `one of 1, 2`.

A refusal says it of a value of the wrong type, and of a missing field.
"""

from __future__ import annotations

from .._model.nodes import Array, Choice, Constrained, Node, Scalar, Union, branches
from .._model.words import declared

__all__ = ["PHRASES", "expected", "one_of"]


def expected(node: Node) -> str:
    """What a node takes, as a model would read it: `a string`, `one of "a", "b"`, ..."""
    # never a `Nullable`: the field model lifts it out of unions and bounds, so only a whole type
    # is one, and a missing field's is asked bare
    if isinstance(node, Scalar):
        return PHRASES[node.kind]
    if isinstance(node, Choice):
        return one_of([declared(value) for value in node.values])
    if isinstance(node, Constrained):
        return expected(node.inner)
    if isinstance(node, Array):
        return "an array"
    if isinstance(node, Union):
        return _either(node)
    return "an object"


_NAMED = 20
"""The most choices a refusal names; past that it counts them (the schema lists them all)."""


def one_of(shown: list[str]) -> str:
    """`one of "a", "b"`, or the one choice; twenty named at most, then how many there are."""
    shown = list(dict.fromkeys(shown))
    if len(shown) == 1:
        return shown[0]
    more = f", … ({len(shown)} choices)" if len(shown) > _NAMED else ""
    return f"one of {', '.join(shown[:_NAMED])}{more}"


def _either(node: Union) -> str:
    """`one of "a", "b" or an integer`: each thing named once, every branch's choices in one list.

    So a union of many large enums is named within the same twenty choices as one enum.
    """
    phrases: dict[str, None] = {}
    choices: list[str] = []
    for branch in branches(node):
        if isinstance(branch, Choice):
            phrases.setdefault("", None)  # where the choices are named
            choices += (declared(value) for value in branch.values)
        else:
            phrases.setdefault(expected(branch), None)
    if PHRASES[float] in phrases:  # "an integer or a number": a number already says it
        phrases.pop(PHRASES[int], None)
    return " or ".join(phrase or one_of(choices) for phrase in phrases)


PHRASES = {str: "a string", int: "an integer", float: "a number", bool: "a boolean"}
