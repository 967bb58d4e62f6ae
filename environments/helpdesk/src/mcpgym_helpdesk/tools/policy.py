"""The written support policy: served by the `get_policy` tool and as resource helpdesk://policy."""

from __future__ import annotations

from importlib import resources
from typing import Any

from mcpgym_helpdesk.env import environment
from mcpgym_server import Resource, Sandbox

POLICY_TEXT = resources.files("mcpgym_helpdesk").joinpath("data/policy.md").read_text("utf-8")
"""The policy document (markdown)."""

environment.add_resource(
    Resource(
        uri="helpdesk://policy",
        name="policy",
        description="Ridgeline Outfitters customer-support policy (what agents may and must do).",
        mime_type="text/markdown",
        text=POLICY_TEXT,
    )
)


@environment.tool(kind="read")
def get_policy(sb: Sandbox) -> dict[str, Any]:
    """Read the customer-support policy: identity checks, returns, refunds and limits, exchanges,
    cancellations, escalation, resolution codes. Read it before acting on a ticket."""
    return {"policy": POLICY_TEXT}
