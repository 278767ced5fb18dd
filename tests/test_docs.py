"""The guide in docs/: every code sample runs, and says truly what it prints.

A page's Python samples build on each other, so they run in order in one module, as a reader
would type them into one file, with examples/ importable (the integration samples use its notes
registry). No sample awaits at top level: each must run as a script does. A sample that imports
a package pip gave this Python no wheel of is skipped, saying which; the rest of its page runs.
"""

from __future__ import annotations

import ast
import json
import re
import sys
import types
from pathlib import Path

import annotated_types
import pytest
from doc_samples import DOCS, ROOT, broken_links, missing_modules, printed, samples
from needs import missing

from adecore_tools import ToolRefusal, parse_tool_input, tool

pytestmark = pytest.mark.peers  # the subject is another package: an SDK, a framework, a peer

PAGES = sorted(DOCS.glob("*.md"))


def _text(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_sample_of_a_page_runs_in_order_and_prints_what_it_says(
    page: Path, monkeypatch, capsys
):
    monkeypatch.syspath_prepend(str(ROOT / "examples"))
    module = types.ModuleType(f"docs_{page.stem}")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    skipped = []
    for number, sample in enumerate(samples(page.read_text(encoding="utf-8")), 1):
        name = f"{page.name} sample {number}"
        absent = missing_modules(sample)
        if absent:
            skipped.append(f"{name} {'; '.join(map(missing, absent))}")
            continue
        code = compile(sample, name, "exec", dont_inherit=True)  # not this file's __future__
        exec(code, module.__dict__)  # noqa: S102 - our own docs
        assert capsys.readouterr().out.splitlines() == printed(sample), name
    if skipped:
        pytest.skip("; ".join(skipped))


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_json_sample_parses(page: Path):
    for sample in samples(page.read_text(encoding="utf-8"), "json"):
        json.loads(sample)


def test_the_integration_samples_exist():
    assert len(samples(_text("integrations.md"))) == 9


def test_every_page_is_in_the_site_and_every_link_leads_somewhere():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\s+- (?:[^:\n]+: )?([\w-]+\.md)$", config, re.MULTILINE))
    assert listed == {page.name for page in PAGES}
    for page in PAGES:
        assert broken_links(page) == [], page.name


def test_the_guide_on_the_home_page_links_every_other_page():
    linked = set(re.findall(r"\]\(([\w-]+\.md)\)", _text("index.md")))
    assert linked == {page.name for page in PAGES} - {"index.md"}


def test_the_import_times_compared_are_those_on_the_speed_page():
    def figures(page: str, row: str) -> set[str]:
        (line,) = [line for line in _text(page).splitlines() if line.startswith(row)]
        return set(re.findall(r"\d+(?:\.\d+)? m?s\b", line))

    compared = figures("compared.md", "| import time")
    assert compared
    assert compared <= figures("speed.md", "| `import`")


def test_the_docs_name_no_document_outside_the_repository():
    for page in [*PAGES, ROOT / "CHANGELOG.md", ROOT / "mkdocs.yml"]:
        assert not re.search(r"\b[S]PEC\b|\.\./shared", page.read_text(encoding="utf-8")), page


def test_the_api_page_lists_every_public_name_and_no_other():
    import adecore_tools  # noqa: PLC0415 - only for its __all__

    api = _text("api.md")
    listed = re.findall(r"^::: adecore_tools\.(\w+)$", api, re.MULTILINE)
    assert sorted(listed) == sorted(adecore_tools.__all__)


def test_the_reference_names_every_public_name_and_no_other():
    import adecore_tools  # noqa: PLC0415 - only for its __all__

    section = _text("reference.md").split("## Public names", 1)[1].split("\n## ", 1)[0]
    rows = [line.split(" | ")[0] for line in section.splitlines() if line.startswith("| `")]
    named = re.findall(r"`(\w+)`", " ".join(rows))
    assert sorted(named) == sorted(adecore_tools.__all__)


def test_the_api_page_lists_every_public_name_of_the_adapter_modules_and_no_other():
    """Read from the source: the frameworks the modules import may not be installed."""
    api = _text("api.md")
    for module in ("mcp", "openai_agents", "pydantic_ai"):
        listed = re.findall(rf"^::: adecore_tools\.{module}\.(\w+)$", api, re.MULTILINE)
        source = ast.parse((ROOT / "adecore_tools" / f"{module}.py").read_text(encoding="utf-8"))
        [names] = [
            ast.literal_eval(node.value)
            for node in source.body
            if isinstance(node, ast.Assign)
            and [getattr(target, "id", None) for target in node.targets] == ["__all__"]
        ]
        assert sorted(listed) == sorted(names), module


def test_the_item_bound_advised_for_a_set_of_ints_refuses_every_crafted_hash():
    """Guarantees: the integers k * (2**61 - 1) share one hash, and so do their negatives, so a
    set of them is quadratic to build. The item bound the guide advises must refuse both: with
    `Lt(2**61)` alone, 16,000 negatives took six seconds."""
    advised = re.search(r"`(set\[Annotated\[int, [^`]*\]\])`", _text("guarantees.md"))
    assert advised is not None
    namespace: dict[str, object] = {**vars(annotated_types)}
    exec("from typing import Annotated\nA = " + advised.group(1), namespace)  # noqa: S102 - docs
    source = 'async def takes_ids(*, ids: A) -> None:\n    """Takes ids."""\n'
    exec(source, namespace)  # noqa: S102 - our own source text
    takes_ids = tool("docs")(namespace["takes_ids"])
    step = 2**61 - 1
    for sign in (1, -1):
        crafted = [sign * k * step for k in range(2, 12)]
        assert {hash(n) for n in crafted} == {0}
        with pytest.raises(ToolRefusal):
            parse_tool_input(takes_ids, {"ids": crafted})
