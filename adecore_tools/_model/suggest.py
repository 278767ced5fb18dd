"""Did-you-mean: the declared name a model most likely meant, when it sent one close to it.

A name is close when it is within one edit per three characters (at most five): adding, removing
or replacing a character, or swapping two neighbours.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

__all__ = ["closest"]

_MOST_EDITS = 5
"""Past five edits a name is not a slip but another name; and a search allowing a third of a long
name's length would cost a second among thousands of long, alike names (the same words in
another order pass every cheap bound)."""


def closest(word: object, names: Sequence[str]) -> str | None:
    """The name closest to `word` when it is close enough to be the one meant, else None."""
    if type(word) is not str or len(word) > 2 * max((len(n) for n in names), default=0):
        return None
    sent = word.lower()
    letters = Counter(sent)
    best, best_distance = None, len(word) + 1  # more than any allowed
    for name in names:
        # one edit per three characters, at most `_MOST_EDITS`, and fewer than the best so far:
        # the first of the closest
        allowed = min(len(word) // 3, len(name) // 3, _MOST_EDITS, best_distance - 1)
        known = name.lower()
        # Three cheap bounds first: an edit changes the length by one at most, the letters
        # (counted, in any order) by one at most, and moves no letter far (`_misplaced`). Most
        # names fail one, and cost no table.
        if abs(len(sent) - len(known)) > allowed:
            continue
        shared = sum((letters & Counter(known)).values())
        if max(len(sent), len(known)) - shared > allowed:
            continue
        if _misplaced(sent, known, allowed) > allowed:  # the same letters, elsewhere
            continue
        distance = _distance(sent, known, allowed)
        if distance <= allowed:
            best, best_distance = name, distance
    return best


def _misplaced(a: str, b: str, limit: int) -> int:
    """How many of `a`'s characters are nowhere in `b` within `limit` places (counted to limit+1).

    Within `limit` edits every character of `a` is kept within `limit` places (moved by the
    insertions and deletions before it, or by a swap), unless an edit removes or replaces it:
    so each one counted here costs an edit.
    """
    count = 0
    for i, char in enumerate(a):
        if char not in b[max(0, i - limit) : i + limit + 1]:
            count += 1
            if count > limit:
                break
    return count


def _distance(a: str, b: str, limit: int) -> int:
    """The unrestricted Damerau-Levenshtein distance (Lowrance and Wagner's table).

    Adding, removing or replacing a character, or swapping two neighbours, is one edit each, and
    a swapped pair may be edited between.
    Only whether it is within `limit` matters: above it, any number above it is returned. So only
    cells within `limit` of the diagonal are worked out: a path leaving that band costs more, a
    swap across `d1` removed and `d2` added characters included (`d1 + d2 + 1` edits).
    """
    over = limit + 1
    width = len(b) + 1
    # `rows[i + 1][j + 1]` is the distance of a[:i] to b[:j]; row and column 0 stand outside
    rows = [[over] * (width + 1), [over, *(min(j, over) for j in range(width))]]
    last_row: dict[str, int] = {}  # the last row of `a` each character was met in
    for i, char in enumerate(a, 1):
        row = [over] * (width + 1)
        row[1] = min(i, over)
        last_column = 0  # the last column of `b`, in this row, where `b` had `char`
        for j in range(max(1, i - limit), min(len(b), i + limit) + 1):
            other = b[j - 1]
            swapped_row, swapped_column = last_row.get(other, 0), last_column
            if char == other:
                cost, last_column = 0, j
            else:
                cost = 1
            between = (i - swapped_row - 1) + 1 + (j - swapped_column - 1)
            row[j + 1] = min(
                rows[i][j] + cost,
                row[j] + 1,
                rows[i][j + 1] + 1,
                rows[swapped_row][swapped_column] + between,
                over,
            )
        rows.append(row)
        last_row[char] = i
    return rows[-1][-1]
