"""Vendor adapters: wire formats of model APIs, kept apart from the agent loop.

`ModelAdapter` is the interface the loop (`mcpgym_clients.agents.ModelAgent`) drives; one
module per vendor API implements it (``openai_chat``, ``openai_responses``, ``anthropic``,
``gemini``; ``chat_completions`` is the plain-httpx client of ``openai-compatible``).
`schemas` adapts MCP tool schemas per vendor; `retry` holds the retry policy and the
episode time budget.
"""

from mcpgym_clients.adapters.base import (
    FunctionCall,
    ModelAdapter,
    ModelSettings,
    ModelTurn,
    StopReason,
)
from mcpgym_clients.adapters.chat_completions import (
    DEFAULT_BASE_URL,
    AssistantTurn,
    ChatCompletionsClient,
    parse_response,
    tool_param,
)
from mcpgym_clients.adapters.retry import (
    RetryPolicy,
    TimeBudget,
    retry_after_seconds,
    with_retries,
)
from mcpgym_clients.adapters.schemas import (
    anthropic_input_schema,
    gemini_parameters,
    inline_refs,
    openai_parameters,
    strip_added_nulls,
)
from mcpgym_clients.adapters.text_tool_calls import (
    ParsedToolCall,
    TextParse,
    parse_text_tool_calls,
)

__all__ = [
    "DEFAULT_BASE_URL",
    "AssistantTurn",
    "ChatCompletionsClient",
    "FunctionCall",
    "ModelAdapter",
    "ModelSettings",
    "ModelTurn",
    "ParsedToolCall",
    "RetryPolicy",
    "StopReason",
    "TextParse",
    "TimeBudget",
    "anthropic_input_schema",
    "gemini_parameters",
    "inline_refs",
    "openai_parameters",
    "parse_response",
    "parse_text_tool_calls",
    "retry_after_seconds",
    "strip_added_nulls",
    "tool_param",
    "with_retries",
]
