"""Agents: `reference` (replays the reference solution), `null` (does nothing), `random`
(seeded schema-valid random calls, a control), `openai`."""

from mcpgym_clients.agents.null import NullAgent
from mcpgym_clients.agents.openai import DEFAULT_SYSTEM_PROMPT, OpenAIAgent
from mcpgym_clients.agents.random import RandomAgent
from mcpgym_clients.agents.reference import ReferenceAgent

AGENT_NAMES: tuple[str, ...] = ("reference", "null", "random", "openai")
"""Agent names accepted by ``mcpgym eval --agent``."""

__all__ = [
    "AGENT_NAMES",
    "DEFAULT_SYSTEM_PROMPT",
    "NullAgent",
    "OpenAIAgent",
    "RandomAgent",
    "ReferenceAgent",
]
