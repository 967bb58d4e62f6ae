"""Agents: `reference` (replays the reference solution), `null` (does nothing), `openai`."""

from mcpgym_clients.agents.null import NullAgent
from mcpgym_clients.agents.openai import DEFAULT_SYSTEM_PROMPT, OpenAIAgent
from mcpgym_clients.agents.reference import ReferenceAgent

AGENT_NAMES: tuple[str, ...] = ("reference", "null", "openai")
"""Agent names accepted by ``mcpgym eval --agent``."""

__all__ = ["AGENT_NAMES", "DEFAULT_SYSTEM_PROMPT", "NullAgent", "OpenAIAgent", "ReferenceAgent"]
