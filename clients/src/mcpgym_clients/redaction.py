"""Keeping secrets out of the ``argv`` stored with a run."""

from __future__ import annotations

from mcpgym_clients.errors import redact_urls

SECRET_FLAGS = ("--api-key", "--grading-token", "--bundle-key", "--control-token", "--seed-salt")
"""Flags whose values never reach the run store's ``argv``."""


def redacted(argv: list[str]) -> list[str]:
    """``argv`` with the values of `SECRET_FLAGS` replaced by ``***``.

    The user info and query of URLs (``--base-url https://u:KEY@host/v1?key=KEY``) are
    replaced too.
    """
    out: list[str] = []
    hide = False
    for arg in argv:
        if hide:
            out.append("***")
            hide = False
        elif arg in SECRET_FLAGS:
            out.append(arg)
            hide = True
        elif arg.split("=", 1)[0] in SECRET_FLAGS and "=" in arg:
            out.append(arg.split("=", 1)[0] + "=***")
        else:
            out.append(redact_urls(arg))
    return out
