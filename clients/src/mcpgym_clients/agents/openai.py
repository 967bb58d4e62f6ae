"""The `openai` agent: a Chat Completions tool loop over an episode's MCP tools.

Works with any OpenAI-compatible endpoint (`ChatCompletionsClient`). One turn is
one model request. For each assistant turn every tool call is executed in order
and answered by one ``role: tool`` message carrying its ``tool_call_id``; tool
errors are passed back as text. A turn without tool calls ends the episode (its
content is the answer, which the driver submits); a successful ``submit`` call
ends it at once.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from mcpgym_clients.adapters.chat_completions import (
    ChatCompletionsClient,
    FunctionCall,
    function_call_json,
    parse_response,
    tool_param,
)
from mcpgym_clients.adapters.text_tool_calls import parse_text_tool_calls
from mcpgym_clients.errors import InfraError, ModelAPIError
from mcpgym_clients.protocol import Agent, AgentResult, EpisodeContext, ToolOutcome

DEFAULT_SYSTEM_PROMPT = (
    "You are an agent working inside a software system through the tools provided. "
    "Complete the user's task by calling tools; look facts up with the tools instead of "
    "guessing. When the task is done, call the `submit` tool with a short final answer. "
    "Replying without any tool call also ends the task, with that reply as your answer."
)

TEXT_CALL_FEEDBACK = (
    "Your tool call could not be read: {errors}. Write each call as "
    '<tool_call>{{"name": "<tool>", "arguments": {{...}}}}</tool_call> with valid JSON.'
)

_USAGE_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens")


class OpenAIAgent(Agent):
    """Chat Completions agent.

    Args:
        client: the provider (base URL, key, HTTP); shared by concurrent episodes.
        model: model name sent as ``model``.
        max_turns: model requests per episode before stopping with ``max_turns``.
        temperature, seed, max_tokens: sent when not ``None`` (``max_tokens`` per response).
        token_budget: stop with ``max_tokens`` once the episode's total tokens exceed it.
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
        token_budget: int | None = None,
        parse_text_tool_calls: bool = False,
        system_prompt: str | None = None,
    ) -> None:
        self.client = client
        self.model = model
        self.max_turns = max_turns
        self.temperature = temperature
        self.seed = seed
        self.max_tokens = max_tokens
        self.token_budget = token_budget
        self.parse_text_tool_calls = parse_text_tool_calls
        self.system_prompt = system_prompt or DEFAULT_SYSTEM_PROMPT

    def settings(self) -> dict[str, Any]:
        """Model settings recorded with the run (no API key)."""
        return {
            "model": self.model,
            "base_url": self.client.base_url,
            "max_turns": self.max_turns,
            "temperature": self.temperature,
            "seed": self.seed,
            "max_tokens": self.max_tokens,
            "token_budget": self.token_budget,
            "parse_text_tool_calls": self.parse_text_tool_calls,
            "system_prompt": self.system_prompt,
        }

    async def aclose(self) -> None:
        """Close the provider's HTTP client."""
        await self.client.aclose()

    def _request(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": messages, "tools": tools}
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.seed is not None:
            body["seed"] = self.seed
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        return body

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        """Run the tool loop for one episode (see the module docstring)."""
        system = self.system_prompt
        if ctx.server_instructions:
            system = f"{system}\n\n{ctx.server_instructions.strip()}"
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": ctx.instruction},
        ]
        transcript = copy.deepcopy(messages)
        tools = [tool_param(t) for t in ctx.tools]
        names = {t.name for t in ctx.tools}
        usage = {"requests": 0, **dict.fromkeys(_USAGE_KEYS, 0)}

        def result(termination: Any, **kw: Any) -> AgentResult:
            return AgentResult(termination, transcript, usage, **kw)

        for turn in range(1, self.max_turns + 1):
            try:
                data = await self.client.create(self._request(messages, tools))
                reply = parse_response(data, turn=turn)
            except ModelAPIError as exc:
                return result("model_error", error=str(exc))
            usage["requests"] += 1
            for key in _USAGE_KEYS:
                value = reply.usage.get(key)
                usage[key] += value if isinstance(value, int) else 0
            message, calls = reply.message, reply.tool_calls
            note: dict[str, Any] = {
                "mcpgym_turn": turn,
                "mcpgym_finish_reason": reply.finish_reason,
            }
            if reply.response_id:
                note["mcpgym_response_id"] = reply.response_id
            if not calls and self.parse_text_tool_calls:
                parsed = parse_text_tool_calls(reply.content, names)
                if parsed.calls:
                    calls = [
                        FunctionCall(f"call_text_{turn}_{i}", c.name, json.dumps(c.arguments))
                        for i, c in enumerate(parsed.calls, start=1)
                    ]
                    message = {
                        "role": "assistant",
                        "content": parsed.text or None,
                        "tool_calls": [function_call_json(c) for c in calls],
                    }
                    note["mcpgym_parsed_tool_calls"] = [c.source for c in parsed.calls]
                    note["mcpgym_raw_content"] = reply.content
                elif parsed.errors:
                    feedback = {
                        "role": "user",
                        "content": TEXT_CALL_FEEDBACK.format(errors="; ".join(parsed.errors)),
                    }
                    messages += [message, feedback]
                    transcript += [{**message, **note}, {**feedback, "mcpgym_harness": True}]
                    continue
            messages.append(message)
            transcript.append({**copy.deepcopy(message), **note})
            if reply.finish_reason == "length":
                return result("max_tokens", error="the response was cut off at max_tokens")
            if reply.finish_reason == "content_filter":
                return result("model_error", error="the response was blocked by a content filter")
            if not calls:
                answer = reply.content.strip() if reply.content else None
                return result("completed", answer=answer or None)
            for call in calls:
                arguments, outcome = _decode_arguments(call)
                if outcome is None:
                    try:
                        outcome = await ctx.call_tool(call.name, arguments)
                    except InfraError as exc:
                        return result("infra_error", error=str(exc))
                content = outcome.text
                if outcome.is_error and not content.lower().startswith("error"):
                    content = f"Error: {content}"
                tool_msg = {"role": "tool", "tool_call_id": call.id, "content": content}
                messages.append(tool_msg)
                transcript.append({**tool_msg, "mcpgym_is_error": outcome.is_error})
                if call.name == ctx.submit_tool and not outcome.is_error:
                    answer = arguments.get("answer")
                    return result("completed", answer=answer if isinstance(answer, str) else None)
            if self.token_budget is not None and usage["total_tokens"] > self.token_budget:
                return result("max_tokens", error=f"token budget {self.token_budget} exceeded")
        return result("max_turns")


def _decode_arguments(call: FunctionCall) -> tuple[dict[str, Any], ToolOutcome | None]:
    """Decode a call's JSON arguments; on failure, the error outcome to pass back."""
    raw = call.arguments.strip() or "{}"
    try:
        args = json.loads(raw)
    except json.JSONDecodeError as exc:
        return {}, ToolOutcome(
            True, f"Error: arguments for `{call.name}` are not valid JSON ({exc.msg}): {raw[:200]}"
        )
    if not isinstance(args, dict):
        return {}, ToolOutcome(True, f"Error: arguments for `{call.name}` must be a JSON object")
    return args, None
