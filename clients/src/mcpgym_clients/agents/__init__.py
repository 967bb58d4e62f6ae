"""Agents: `reference` (replays the reference solution), `null` (does nothing), `random`
(seeded schema-valid random calls, a control), and the model loop `ModelAgent` over any vendor
adapter (`OpenAIAgent`: its Chat Completions form over plain httpx). ``--model VENDOR:MODEL``
is resolved by `vendors`."""

from mcpgym_clients.agents.model import DEFAULT_SYSTEM_PROMPT, ModelAgent
from mcpgym_clients.agents.null import NullAgent
from mcpgym_clients.agents.openai_agent import OpenAIAgent
from mcpgym_clients.agents.random import RandomAgent
from mcpgym_clients.agents.reference import ReferenceAgent
from mcpgym_clients.agents.vendors import VENDORS, Vendor, build_adapter, parse_model_spec

AGENT_NAMES: tuple[str, ...] = ("reference", "null", "random", "openai")
"""Agent names accepted by ``mcpgym eval --agent`` (``openai`` = the model loop)."""

__all__ = [
    "AGENT_NAMES",
    "DEFAULT_SYSTEM_PROMPT",
    "VENDORS",
    "ModelAgent",
    "NullAgent",
    "OpenAIAgent",
    "RandomAgent",
    "ReferenceAgent",
    "Vendor",
    "build_adapter",
    "parse_model_spec",
]
