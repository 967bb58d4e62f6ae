"""Vendor adapters: wire formats of model APIs, kept apart from the agent loops."""

from mcpgym_clients.adapters.chat_completions import (
    DEFAULT_BASE_URL,
    AssistantTurn,
    ChatCompletionsClient,
    FunctionCall,
    parse_response,
    tool_param,
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
    "ParsedToolCall",
    "TextParse",
    "parse_response",
    "parse_text_tool_calls",
    "tool_param",
]
