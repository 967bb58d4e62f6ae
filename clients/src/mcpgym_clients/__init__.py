"""mcpgym-clients: agents, vendor adapters, the episode driver, the campaign runner,
the run store and the ``mcpgym`` command line.

Run one episode::

    async with EpisodeDriver(env_url, grading_url, token, control_token=ctl) as driver:
        await driver.server_info()
        record = await driver.run_episode(ReferenceAgent(), "refund-damaged-item", "easy", 7)
        record.score, record.grade

Evaluate (servers, checks, campaign, baseline) with `evaluate` given `EvalOptions`, as
``mcpgym eval`` does; or run a campaign yourself: `select_variants` then `run_campaign`.

Bring your own loop: `FunctionAgent` (an async function) or an `Agent` subclass;
`load_agent` loads either from ``package.module:attr`` or ``path/to/file.py:attr``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Names are imported on first use (PEP 562), so that `mcpgym serve --stdio` and
# `mcpgym --help` do not pay for the campaign, the run store (sqlite_utils, numpy) and
# the vendor adapters: `from mcpgym_clients import RunStore` works as before.
_EXPORTS: dict[str, str] = {
    "ChatCompletionsClient": "mcpgym_clients.adapters",
    "parse_text_tool_calls": "mcpgym_clients.adapters",
    "load_agent": "mcpgym_clients.agent_spec",
    "ModelAgent": "mcpgym_clients.agents",
    "NullAgent": "mcpgym_clients.agents",
    "OpenAIAgent": "mcpgym_clients.agents",
    "RandomAgent": "mcpgym_clients.agents",
    "ReferenceAgent": "mcpgym_clients.agents",
    "CampaignResult": "mcpgym_clients.campaign",
    "CampaignStatus": "mcpgym_clients.campaign",
    "VariantKey": "mcpgym_clients.selection",
    "run_campaign": "mcpgym_clients.campaign",
    "select_variants": "mcpgym_clients.selection",
    "EpisodeDriver": "mcpgym_clients.driver",
    "EpisodeRecord": "mcpgym_clients.records",
    "ServerInfo": "mcpgym_clients.records",
    "TaskInfo": "mcpgym_clients.records",
    "ClientError": "mcpgym_clients.errors",
    "ConfigurationError": "mcpgym_clients.errors",
    "HarnessLoadError": "mcpgym_clients.errors",
    "InfraError": "mcpgym_clients.errors",
    "MissingExtraError": "mcpgym_clients.errors",
    "ModelAPIError": "mcpgym_clients.errors",
    "ServerRequestError": "mcpgym_clients.errors",
    "EvalOptions": "mcpgym_clients.evaluation",
    "evaluate": "mcpgym_clients.evaluation",
    "FunctionAgent": "mcpgym_clients.harness",
    "GuardedAgent": "mcpgym_clients.harness",
    "HarnessContext": "mcpgym_clients.harness",
    "LocalServers": "mcpgym_clients.local",
    "serve_locally": "mcpgym_clients.local",
    "Agent": "mcpgym_clients.protocol",
    "AgentResult": "mcpgym_clients.protocol",
    "EpisodeContext": "mcpgym_clients.protocol",
    "Termination": "mcpgym_clients.protocol",
    "ToolDef": "mcpgym_clients.protocol",
    "ToolOutcome": "mcpgym_clients.protocol",
    "RunStore": "mcpgym_clients.runstore",
    "Figures": "mcpgym_clients.summary",
    "SummaryRow": "mcpgym_clients.summary",
    "render_summary": "mcpgym_clients.summary",
    "summarize_records": "mcpgym_clients.summary",
}
"""Public name -> the module defining it."""

if TYPE_CHECKING:
    from mcpgym_clients.adapters import ChatCompletionsClient, parse_text_tool_calls
    from mcpgym_clients.agent_spec import load_agent
    from mcpgym_clients.agents import (
        ModelAgent,
        NullAgent,
        OpenAIAgent,
        RandomAgent,
        ReferenceAgent,
    )
    from mcpgym_clients.campaign import CampaignResult, CampaignStatus, run_campaign
    from mcpgym_clients.driver import EpisodeDriver
    from mcpgym_clients.errors import (
        ClientError,
        ConfigurationError,
        HarnessLoadError,
        InfraError,
        MissingExtraError,
        ModelAPIError,
        ServerRequestError,
    )
    from mcpgym_clients.evaluation import EvalOptions, evaluate
    from mcpgym_clients.harness import FunctionAgent, GuardedAgent, HarnessContext
    from mcpgym_clients.local import LocalServers, serve_locally
    from mcpgym_clients.protocol import (
        Agent,
        AgentResult,
        EpisodeContext,
        Termination,
        ToolDef,
        ToolOutcome,
    )
    from mcpgym_clients.records import EpisodeRecord, ServerInfo, TaskInfo
    from mcpgym_clients.runstore import RunStore
    from mcpgym_clients.selection import VariantKey, select_variants
    from mcpgym_clients.summary import Figures, SummaryRow, render_summary, summarize_records


def __getattr__(name: str) -> Any:
    """Import a public name from its module on first access (PEP 562).

    Raises:
        AttributeError: ``name`` is not one of `__all__`.
    """
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mcpgym_clients' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


__all__ = [
    "Agent",
    "AgentResult",
    "CampaignResult",
    "CampaignStatus",
    "ChatCompletionsClient",
    "ClientError",
    "ConfigurationError",
    "EpisodeContext",
    "EpisodeDriver",
    "EpisodeRecord",
    "EvalOptions",
    "Figures",
    "FunctionAgent",
    "GuardedAgent",
    "HarnessContext",
    "HarnessLoadError",
    "InfraError",
    "LocalServers",
    "MissingExtraError",
    "ModelAPIError",
    "ModelAgent",
    "NullAgent",
    "OpenAIAgent",
    "RandomAgent",
    "ReferenceAgent",
    "RunStore",
    "ServerInfo",
    "ServerRequestError",
    "SummaryRow",
    "TaskInfo",
    "Termination",
    "ToolDef",
    "ToolOutcome",
    "VariantKey",
    "evaluate",
    "load_agent",
    "parse_text_tool_calls",
    "render_summary",
    "run_campaign",
    "select_variants",
    "serve_locally",
    "summarize_records",
]
