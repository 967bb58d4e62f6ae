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

from mcpgym_clients.adapters import ChatCompletionsClient, parse_text_tool_calls
from mcpgym_clients.agent_spec import load_agent
from mcpgym_clients.agents import ModelAgent, NullAgent, OpenAIAgent, RandomAgent, ReferenceAgent
from mcpgym_clients.campaign import (
    CampaignResult,
    CampaignStatus,
    VariantKey,
    run_campaign,
    select_variants,
)
from mcpgym_clients.driver import EpisodeDriver, EpisodeRecord, ServerInfo, TaskInfo
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
from mcpgym_clients.runstore import RunStore
from mcpgym_clients.summary import Figures, SummaryRow, render_summary, summarize_records

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
