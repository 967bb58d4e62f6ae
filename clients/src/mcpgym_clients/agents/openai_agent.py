"""The `openai` agent: the Chat Completions tool loop over plain httpx (no SDK needed).

`ModelAgent` over `ChatCompletionsAdapter`: works with OpenAI and with any compatible
server (vLLM, SGLang, Ollama, llama.cpp, LiteLLM). This is what ``mcpgym eval --model M``
runs when ``M`` names no vendor, and what ``--model openai-compatible:M`` runs.
"""

from __future__ import annotations

from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.chat_completions import ChatCompletionsClient
from mcpgym_clients.adapters.openai_chat import ChatCompletionsAdapter
from mcpgym_clients.agents.model import DEFAULT_SYSTEM_PROMPT, TEXT_CALL_FEEDBACK, ModelAgent

__all__ = ["DEFAULT_SYSTEM_PROMPT", "TEXT_CALL_FEEDBACK", "OpenAIAgent"]


class OpenAIAgent(ModelAgent):
    """Chat Completions agent over `ChatCompletionsClient`.

    Args:
        client: the provider (base URL, key, HTTP, retries); shared by concurrent episodes.
        model: model name sent as ``model``.
        max_turns: model requests per episode before stopping with ``max_turns``.
        temperature, seed, max_tokens: sent when not ``None`` (``max_tokens`` per response).
        tool_choice: ``tool_choice`` sent with the tools (``auto``, ``required``, ``none``)
            when not ``None``.
        token_budget: stop with ``max_tokens`` once the episode's total tokens exceed it.
        time_limit: wall seconds per episode (excluding retry waits) before ``timeout``.
        parse_text_tool_calls: also execute calls written as text (Hermes blocks, fenced
            JSON); see `mcpgym_clients.adapters.text_tool_calls`.
        system_prompt: replaces `DEFAULT_SYSTEM_PROMPT`; the MCP server's
            instructions are appended to it either way.
    """

    name = "openai"

    def __init__(
        self,
        *,
        client: ChatCompletionsClient,
        model: str,
        max_turns: int = 30,
        temperature: float | None = None,
        seed: int | None = None,
        max_tokens: int | None = None,
        tool_choice: str | None = None,
        token_budget: int | None = None,
        time_limit: float | None = None,
        parse_text_tool_calls: bool = False,
        system_prompt: str | None = None,
    ) -> None:
        settings = ModelSettings(model, temperature, seed, max_tokens, tool_choice)
        super().__init__(
            ChatCompletionsAdapter(client, settings),
            max_turns=max_turns,
            token_budget=token_budget,
            time_limit=time_limit,
            parse_text_tool_calls=parse_text_tool_calls,
            system_prompt=system_prompt,
        )
        self.client = client
