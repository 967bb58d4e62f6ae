"""The environment server's control token: who may open, end and inspect episodes.

The harness holds the token and sends it as ``Authorization: Bearer <token>`` on the control
routes (`mcpgym_server._http`); an agent, which holds only its episode's ``mcp_url``, does
not, so it can neither learn its variant nor open a practice copy (docs/security.md).
"""

from __future__ import annotations

import secrets

from starlette.datastructures import Headers
from starlette.responses import JSONResponse

CONTROL_TOKEN_ENV = "MCPGYM_CONTROL_TOKEN"
"""Environment variable holding the control token (``mcpgym serve`` and ``mcpgym eval``)."""


def control_denied(headers: Headers, token: bytes | None) -> JSONResponse | None:
    """``None`` when ``headers`` carry the control token (or the server has none), else the
    401 (no bearer token) or 403 (a wrong one) to answer. The message names no episode."""
    if token is None:
        return None
    header = headers.get("authorization")
    scheme, _, value = (header or "").partition(" ")
    if header is None or scheme.lower() != "bearer" or not value.strip():
        return JSONResponse(
            {
                "error": "this route needs the environment server's control token: send "
                "`Authorization: Bearer <token>` with the token the server was started with "
                f"({CONTROL_TOKEN_ENV} or --control-token); agents are not given it"
            },
            status_code=401,
            headers={"WWW-Authenticate": "Bearer"},
        )
    if not secrets.compare_digest(value.strip().encode(), token):
        return JSONResponse(
            {"error": "the bearer token is not this environment server's control token"},
            status_code=403,
        )
    return None
