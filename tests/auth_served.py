"""The bearer-token server of docs/callers.md, served over streamable HTTP on 127.0.0.1.

Run as a script: it runs the page's samples in order (so the tested server is the documented
one), then serves their `app` on a free port, printing its URL (`mcp_served.listening`).
"""

from __future__ import annotations

import contextlib
import io
import sys
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from doc_samples import DOCS, samples
from mcp_served import serve_http

if __name__ == "__main__":
    page = types.ModuleType("docs_callers")
    sys.modules[page.__name__] = page  # a dataclass reads its module
    with contextlib.redirect_stdout(io.StringIO()):  # stdout says the URL alone
        for sample in samples((DOCS / "callers.md").read_text(encoding="utf-8"))[:2]:
            exec(compile(sample, "callers.md", "exec"), vars(page))  # noqa: S102 - our own docs
    serve_http(page.app)
