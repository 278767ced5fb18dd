"""The README's promises: its two set-up commands, and its one example, run as a script.

The guide's pages are tests/test_docs.py's.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys

from doc_samples import ROOT, broken_links, printed, samples

README_PATH = ROOT / "README.md"
README = README_PATH.read_text(encoding="utf-8")
MAIN_EXAMPLE = "python -m pip install -e . && python examples/notes.py"
TEST_SUITE = "python -m pip install -e '.[test]' && python -m pytest"


def test_the_first_screen_gives_the_two_set_up_commands():
    first_screen = "\n".join(README.splitlines()[:25])
    commands = samples(first_screen, "bash")
    assert len(commands) == 1
    lines = [line for line in commands[0].splitlines() if line.strip()]
    assert len(lines) == 2
    assert MAIN_EXAMPLE in lines[0]
    assert TEST_SUITE in lines[1]


def test_the_readme_is_short():
    assert len(README.splitlines()) <= 300


def test_the_one_example_runs_as_a_script_and_prints_what_it_says(tmp_path):
    (example,) = samples(README)
    assert "asyncio.run(" in example
    ast.parse(example)  # a top-level `await` would be a SyntaxError here, as in a script
    script = tmp_path / "example.py"
    script.write_text(example, encoding="utf-8")
    done = subprocess.run(  # noqa: S603 - our own README, run with this interpreter
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    expected = printed(example)
    assert expected
    assert done.stdout.splitlines() == expected


def test_every_link_leads_to_a_file_of_the_repository():
    assert broken_links(README_PATH) == []
    assert re.findall(r"\]\((docs/[\w-]+\.md)", README)  # the guide is linked


def test_the_readme_names_no_document_outside_the_repository():
    assert not re.search(r"\b[S]PEC\b|\.\./shared", README)
