"""Did-you-mean: the distance the docs define (unrestricted Damerau-Levenshtein, bounded)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

# --- did-you-mean: the distance the docs define ------------------------------------------------


def _damerau_levenshtein(a: str, b: str) -> int:
    """The unrestricted Damerau-Levenshtein distance, by its textbook table (Lowrance-Wagner)."""
    inf = len(a) + len(b)
    table = [[inf] * (len(b) + 2) for _ in range(len(a) + 2)]
    for i in range(len(a) + 1):
        table[i + 1][0], table[i + 1][1] = inf, i
    for j in range(len(b) + 1):
        table[0][j + 1], table[1][j + 1] = inf, j
    last: dict[str, int] = {}
    for i in range(1, len(a) + 1):
        column = 0
        for j in range(1, len(b) + 1):
            row, found = last.get(b[j - 1], 0), column
            cost = 0 if a[i - 1] == b[j - 1] else 1
            if cost == 0:
                column = j
            table[i + 1][j + 1] = min(
                table[i][j] + cost,
                table[i + 1][j] + 1,
                table[i][j + 1] + 1,
                table[row][found] + (i - row - 1) + 1 + (j - found - 1),
            )
        last[a[i - 1]] = i
    return table[len(a) + 1][len(b) + 1]


def test_a_swap_then_an_insertion_is_two_edits():
    """Before: `cazzzz` for `abczzzz` got no suggestion (optimal string alignment says 3)."""
    from adecore_tools._model import suggest as _suggest  # noqa: PLC0415

    assert _damerau_levenshtein("cazzzz", "abczzzz") == 2
    assert _suggest.closest("cazzzz", ["abczzzz"]) == "abczzzz"


@given(
    st.text(alphabet="abcz_", max_size=9),
    st.text(alphabet="abcz_", max_size=9),
    st.integers(min_value=0, max_value=5),
)
def test_the_bounded_distance_is_the_unrestricted_damerau_levenshtein_distance(a, b, limit):
    from adecore_tools._model import suggest as _suggest  # noqa: PLC0415

    exact = _damerau_levenshtein(a, b)
    bounded = _suggest._distance(a, b, limit)
    assert bounded == exact if exact <= limit else bounded > limit
