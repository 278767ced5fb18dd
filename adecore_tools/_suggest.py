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
    """Edit distance where swapping two neighbouring characters counts as one edit.

    Only whether it is within `limit` matters: above it, any number above it is returned. So
    only cells within `limit` of the diagonal are worked out (a path leaving that band costs
    more), and the work stops once two rows in a row are over it.
    """
    over = limit + 1
    before: list[int] = []
    row = [min(j, over) for j in range(len(b) + 1)]
    for i, ca in enumerate(a, 1):
        earlier, before, row = before, row, [over] * (len(b) + 1)
        row[0] = min(i, over)
        for j in range(max(1, i - limit), min(len(b), i + limit) + 1):
            cb = b[j - 1]
            cost = min(before[j] + 1, row[j - 1] + 1, before[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, earlier[j - 2] + 1)
            row[j] = min(cost, over)
        if min(row) == over and min(before) == over:
            return over
    return row[-1]
