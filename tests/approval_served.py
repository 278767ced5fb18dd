"""The approval tools behind the SDK's bearer tokens, served over streamable HTTP on 127.0.0.1.

Run as a script: it serves on a free port, printing its URL (`mcp_served.listening`). Two users,
`ann-token` and `bob-token`, are the same OAuth client with different subjects, so an approval's
state is bound to a caller other than the client. `ran_since` says what the tools ran with.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from approval_tools import Careful, note_delete, note_read, ran
from mcp.server import ServerRequestContext
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp_served import serve_http

from adecore_tools import ToolRefusal, create_tool_registry, define_toolkit, tool
from adecore_tools.mcp import mcp_server

SERVED_AT = "http://127.0.0.1/mcp"
USERS = {"ann-token": "ann", "bob-token": "bob"}
APPROVAL_KEY = b"the test server's approval key, 32 bytes or more"


class Tokens:
    """The SDK's `TokenVerifier`: one OAuth client, a subject per user."""

    async def verify_token(self, token: str) -> AccessToken | None:
        user = USERS.get(token)
        if user is None:
            return None
        return AccessToken(
            token=token, client_id="demo", scopes=[], subject=user, resource=SERVED_AT
        )


@tool("audit", read_only=True)
async def ran_since() -> str:
    """The titles the tools ran with since the last time this was asked, as a JSON array."""
    titles = json.dumps(ran)
    ran.clear()
    return titles


def make_call(_ctx: ServerRequestContext[Any, Any]) -> Careful:
    token = get_access_token()
    if token is None or token.subject is None:
        raise ToolRefusal("not-permitted", "Sign in first.")
    return Careful(token.subject)


registry = create_tool_registry(
    [define_toolkit("notes", [note_delete, note_read]), define_toolkit("audit", [ran_since])]
)

if __name__ == "__main__":
    server = mcp_server(registry, make_call, name="notes", approval_key=APPROVAL_KEY)
    serve_http(
        server.streamable_http_app(
            host="127.0.0.1",
            auth=AuthSettings(issuer_url="https://auth.example.com", resource_server_url=SERVED_AT),
            token_verifier=Tokens(),
        )
    )
