"""`ModelAgent`: one tool loop for every vendor, over a `ModelAdapter`.

One turn is one model request. Per turn:

- a reply cut off by the response token limit (stop ``max_tokens``) ends the episode as
  ``max_tokens``, and its tool calls are never executed (their arguments may be partial);
- a refusal ends it as ``completed`` without an answer: declining is the model's outcome and
  is graded like any other (the transcript notes ``mcpgym_stop: refusal``); so does output
  blocked by the vendor's content filter (OpenAI ``content_filter``, Gemini ``SAFETY``...;
  noted ``mcpgym_stop: content_filter``): what the model wrote is its answer;
- a prompt over the model's context window ends it as ``max_tokens`` (scored), whether the
  vendor says so with a stop reason (Anthropic ``model_context_window_exceeded``) or with a
  400 error (OpenAI ``context_length_exceeded``, Gemini "input token count exceeds"),
  except on the episode's first request: a system prompt, tools and task that do not fit
  are a misconfigured server (its context too small), so the campaign stops with
  `ConfigurationError` quoting the figures (prompt tokens vs context); the same holds for a
  first reply the server cut at the length limit with 0 completion tokens or far fewer
  than ``max_tokens`` (`context_filled`: the prompt fills the context). Later, both are a
  scored ``max_tokens`` flagged ``context_overflow`` (`CONTEXT_OVERFLOW`);
- every tool call of the turn is executed in order and all results go back in the vendor's
  shape in one step, each paired with its call's id; an id the model already used (in an
  earlier turn or twice in this one) is replaced by a fresh one in both places;
- tool errors go back marked as errors (``is_error`` for Anthropic, ``Error: ...`` text
  elsewhere); a successful ``submit`` ends the episode at once;
- a reply without tool calls ends the episode with its text as the answer, except a
  reply the vendor flags as a malformed call (Gemini ``MALFORMED_FUNCTION_CALL``): the
  model is told and the loop goes on; and a reply that still looks like a tool call
  (`looks_like_tool_call`) although no call could be read from it: the model is told
  once (when text tool calls are parsed), and if the episode ends on such a reply it is
  kept as the answer but flagged ``unparsed_tool_call`` (`UNPARSED_TOOL_CALL`: the final
  assistant message carries ``mcpgym_unparsed_tool_call: true`` and the result's
  ``error`` says so), so that reports tell it apart from a wrong answer. A reply from
  whose text some calls were read while another still looks like a call
  (`unread_beside`: a malformed one beside readable ones) runs none of them: the model is
  told (`PARTLY_READ_FEEDBACK`), as for a call that could not be read at all, so that a
  ``submit`` written after it does not end the episode on a call dropped unseen.

Limits: ``max_turns`` requests, ``token_budget`` total tokens (a hard cap: a reply that
takes usage over it ends the episode as ``max_tokens`` before its calls run; it cannot be
enforced when the API reports no usage, which is logged once), ``time_limit`` wall
seconds, not counting failed or hung requests and retry waits (`TimeBudget`).
A model API failure that persists after retries ends the episode as
``infra_error`` when it was the service's (transport, 429, 5xx, no answer within the
request timeout) and ``model_error`` otherwise (401/400/404: a call that is broken on our
side, or an unusable reply); neither is scored. A 5xx answer that repeats identically on
a fresh episode while the server answers other requests is the request's fault, not an
outage: ``model_error`` with the server's message (`RepeatedServerErrors`).

The transcript is Chat Completions-shaped for every vendor (``role`` system/user/
assistant/tool, ``tool_calls``, ``tool_call_id``) with ``mcpgym_*`` notes; the vendor's own
message is kept under ``mcpgym_raw``.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from mcpgym_clients.adapters.base import FunctionCall, ModelAdapter, ModelTurn, text_of
from mcpgym_clients.adapters.chat_completions import function_call_json
from mcpgym_clients.adapters.outcomes import (
    RepeatedServerErrors,
    context_filled,
    is_context_overflow,
    overflow_figures,
)
from mcpgym_clients.adapters.retry import TimeBudget, charged_to
from mcpgym_clients.adapters.text_tool_calls import (
    looks_like_tool_call,
    parse_text_tool_calls,
    unread_beside,
)
from mcpgym_clients.errors import (
    ConfigurationError,
    InfraError,
    ModelAPIError,
    StoppingEpisodeError,
)
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

PARTLY_READ_FEEDBACK = (
    "Your message holds tool calls, but not all of them could be read ({errors}), so none "
    "was run. Send all the calls again, each written as "
    '<tool_call>{{"name": "<tool>", "arguments": {{...}}}}</tool_call> with valid JSON.'
)

UNREAD_CALL_FEEDBACK = (
    "Your last message looks like a tool call, but no call could be read from it, so it "
    "would end the task as your final answer. To call a tool, write "
    '<tool_call>{{"name": "<tool>", "arguments": {{...}}}}</tool_call> with valid JSON and '
    "nothing else around the JSON; to answer, reply in plain words."
)

CONTEXT_OVERFLOW = "context_overflow"
"""The flag of an episode ended by the context window after its first request: a prompt
over it (a 400), or a response the server cut at the length limit well short of
``max_tokens`` (`context_filled`). Scored as ``max_tokens``, but told apart from a model
that rambled to its response cap."""

UNPARSED_TOOL_CALL = "unparsed_tool_call"
"""The flag of an episode that ended on a message that looked like a tool call no parser
could read (see the module docstring)."""

logger = logging.getLogger("mcpgym_clients.model")

BREAKER_EPISODES = 3
"""Episodes failing alike on their first request before the campaign stops (`ModelAgent`)."""


class ModelAgent(Agent):
    """A model's tool loop through any `ModelAdapter` (see the module docstring).

    Args:
        adapter: the vendor adapter (shared by concurrent episodes).
        max_turns: model requests per episode before ``max_turns``.
        token_budget: total tokens per episode before ``max_tokens`` (``None``: no budget).
        time_limit: wall seconds per episode before ``timeout``, excluding retry waits.
        parse_text_tool_calls: also execute calls written as text (Hermes blocks, fenced
            JSON); for local models (`mcpgym_clients.adapters.text_tool_calls`).
        system_prompt: replaces `DEFAULT_SYSTEM_PROMPT`; the MCP server's instructions are
            appended either way.
        name: the agent name recorded in runs (default: the adapter's vendor).
    """

    name = "model"

    def __init__(
        self,
        adapter: ModelAdapter,
        *,
        max_turns: int = 30,
        token_budget: int | None = None,
        time_limit: float | None = None,
        parse_text_tool_calls: bool = False,
        system_prompt: str | None = None,
        name: str | None = None,
    ) -> None:
        if name is not None or type(self) is ModelAgent:
            self.name = name or adapter.vendor  # type: ignore[misc]
        self.adapter = adapter
        self.model = adapter.settings.model
        self.max_turns = max_turns
        self.token_budget = token_budget
        self.time_limit = time_limit
        self.parse_text_tool_calls = parse_text_tool_calls
        self.system_prompt = system_prompt or DEFAULT_SYSTEM_PROMPT
        self._warned_budget = False
        self._breaker: list[str] | None = []  # None: off (a request has succeeded)
        self._overflowed: int | None = 0  # episodes the context ended; None: one was not
        self._server_errors = RepeatedServerErrors()

    def settings(self) -> dict[str, Any]:
        """Model settings recorded with the run (vendor, model, sampling, limits; no key)."""
        return {
            **self.adapter.recorded_settings(),
            "max_turns": self.max_turns,
            "token_budget": self.token_budget,
            "time_limit": self.time_limit,
            "parse_text_tool_calls": self.parse_text_tool_calls,
            "system_prompt": self.system_prompt,
        }

    def warn_unenforceable_budget(self) -> None:
        """Warn once (log) that ``token_budget`` cannot be enforced: no usage reported."""
        if self.token_budget is not None and not self._warned_budget:
            self._warned_budget = True
            logger.warning(
                "--max-tokens %s cannot be enforced: the model API at %s reports no token "
                "usage (counts are left out of the run, not recorded as 0)",
                self.token_budget,
                self.adapter.recorded_settings().get("base_url"),
            )

    async def aclose(self) -> None:
        """Close the adapter's HTTP client."""
        await self.adapter.aclose()

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        """Run the tool loop for one episode (see the module docstring)."""
        state = _Episode(self, ctx)
        budget = TimeBudget(self.time_limit)
        result: AgentResult | None = None
        with charged_to(budget):
            result = await state.loop()
        state.usage["retries"] = budget.retries
        state.usage["retry_wait_ms"] = round(budget.excluded * 1000)
        if result is None:
            return state.result(
                "timeout", error=f"the episode exceeded its time limit of {self.time_limit} s"
            )
        self._count_overflow(result)
        self._trip(state, result)
        return result

    def _count_overflow(self, result: AgentResult) -> None:
        """Warn once (log) when each of the first `BREAKER_EPISODES` episodes ended by the
        context window after its first request: the server's context is being measured."""
        if self._overflowed is None:
            return
        if not (result.error or "").startswith(("context window exceeded", CONTEXT_OVERFLOW)):
            self._overflowed = None
            return
        self._overflowed += 1
        if self._overflowed == BREAKER_EPISODES:
            logger.warning(
                "the first %d episodes all ended because the prompt outgrew the model "
                "server's context window (flagged context_overflow): the scores measure the "
                "server's context, not the model; start it with a larger context",
                BREAKER_EPISODES,
            )

    def _trip(self, state: _Episode, result: AgentResult) -> None:
        """The circuit breaker: stop the campaign when the first `BREAKER_EPISODES`
        episodes all failed on their first request with the same 4xx answer (a wrong
        endpoint or model id that the preflight could not see); a 408/409/429 is not one.

        Raises:
            StoppingEpisodeError: the breaker tripped (the message quotes the error;
                ``result``: this episode's, which the campaign stores as it ended).
        """
        if self._breaker is None:
            return
        exc = state.api_error
        transient_4xx = exc is not None and exc.transient and 400 <= (exc.status or 0) < 500
        if transient_4xx and not state.usage["requests"]:
            # A 429 (or 408/409) is the service refusing for a while, not a wrong endpoint
            # or model id: it neither counts nor proves the endpoint right. A model API
            # that keeps refusing stops the campaign through its breaker instead
            # (`mcpgym_clients.breaker`), every planned slot still stored.
            return
        if (
            state.usage["requests"]
            or exc is None
            or not 400 <= (exc.status or 0) < 500
            or is_context_overflow(exc)
        ):
            self._breaker = None  # the endpoint works: never trip in this campaign
            return
        self._breaker.append(f"{exc.status} {exc}")
        if len(self._breaker) >= BREAKER_EPISODES and len(set(self._breaker)) == 1:
            raise StoppingEpisodeError(
                f"stopping: the first {len(self._breaker)} episodes all failed on their first "
                f"model request with the same error: {exc}; check --model and --base-url",
                result=result,
            )


class _Episode:
    """The per-episode state of `ModelAgent.run` (nothing lives on the agent)."""

    def __init__(self, agent: ModelAgent, ctx: EpisodeContext) -> None:
        self.agent, self.ctx, self.adapter = agent, ctx, agent.adapter
        system = agent.system_prompt
        if ctx.server_instructions:
            system = f"{system}\n\n{ctx.server_instructions.strip()}"
        self.history: list[Any] = self.adapter.start(system, ctx.instruction)
        self.transcript: list[dict[str, Any]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": ctx.instruction},
        ]
        self.tools = self.adapter.declare_tools(ctx.tools)
        self.by_name = {t.name: t for t in ctx.tools}
        self.usage: dict[str, float] = {"requests": 0}  # token keys only once reported
        ctx.progress.transcript, ctx.progress.usage = self.transcript, self.usage
        self.seen_ids: set[str] = set()
        self.api_error: ModelAPIError | None = None
        self.told_unread = False  # the model was told its final message looked like a call
        self.unread: dict[str, Any] | None = None  # the last reply, if a call that did not read

    def result(self, termination: Any, **kw: Any) -> AgentResult:
        return AgentResult(termination, self.transcript, self.usage, **kw)

    async def loop(self) -> AgentResult | None:
        for turn_no in range(1, self.agent.max_turns + 1):
            try:
                turn = await self.adapter.complete(self.history, self.tools)
                self.adapter.check_size(turn)  # before anything of it is stored
            except ModelAPIError as exc:
                return self._failed(exc, turn_no)
            self.agent._server_errors.answered()
            self.usage["requests"] += 1
            for key, value in turn.usage.items():
                self.usage[key] = self.usage.get(key, 0) + value
            note: dict[str, Any] = {
                "mcpgym_turn": turn_no,
                "mcpgym_stop": turn.stop,
                "mcpgym_finish_reason": turn.raw_stop,
            }
            if "total_tokens" not in turn.usage:
                note["mcpgym_usage"] = "not reported"  # counts omitted, never recorded as 0
                self.agent.warn_unenforceable_budget()
            if turn.response_id:
                note["mcpgym_response_id"] = turn.response_id
            if turn.raw is not None:
                note["mcpgym_raw"] = turn.raw
            if turn.tokens is not None:
                note["mcpgym_tokens"] = turn.tokens
            if turn.feedback and not turn.calls:
                self._record_assistant(turn, note)
                self.history += self.adapter.user_entries(turn.feedback)
                self.transcript.append(
                    {"role": "user", "content": turn.feedback, "mcpgym_harness": True}
                )
                continue
            parse = self.agent.parse_text_tool_calls and turn.stop in ("end", "other")
            if not turn.calls and parse:
                parsed_from = turn.text
                parsed = parse_text_tool_calls(turn.text, set(self.by_name))
                partly = unread_beside(parsed, set(self.by_name))
                if partly is not None:  # some calls read, another not: none is run
                    note["mcpgym_unread_calls"] = partly
                    self._record_assistant(turn, note)
                    self.unread = self.transcript[-1]
                    self._tell(PARTLY_READ_FEEDBACK.format(errors=partly))
                    continue
                if parsed.calls:
                    turn.calls = [
                        FunctionCall(f"call_text_{turn_no}_{i}", c.name, json.dumps(c.arguments))
                        for i, c in enumerate(parsed.calls, start=1)
                    ]
                    turn.text, turn.stop = parsed.text or None, "tool_calls"
                    turn.native = None  # rebuilt from the parsed calls
                    note["mcpgym_parsed_tool_calls"] = [c.source for c in parsed.calls]
                    note["mcpgym_raw_content"] = parsed_from
                elif parsed.errors:
                    self._record_assistant(turn, note)
                    self.unread = self.transcript[-1]
                    feedback = TEXT_CALL_FEEDBACK.format(errors="; ".join(parsed.errors))
                    self.history += self.adapter.user_entries(feedback)
                    self.transcript.append(
                        {"role": "user", "content": feedback, "mcpgym_harness": True}
                    )
                    continue
            turn.calls = self._fresh_ids(turn.calls, turn_no)
            self.unread = None
            self._record_assistant(turn, note)
            if turn.stop == "max_tokens":
                return self._cut(turn, turn_no)
            if turn.stop == "content_filter":  # like a refusal: the model's outcome, scored
                answer = turn.text.strip() if turn.text else None
                return self.result("completed", answer=answer or None)
            if turn.stop == "refusal":
                return self.result("completed")
            if not turn.calls:
                answer = turn.text.strip() if turn.text else None
                if answer and looks_like_tool_call(answer, set(self.by_name)):
                    if not self.told_unread and self.agent.parse_text_tool_calls:
                        self.told_unread = True
                        self._tell(UNREAD_CALL_FEEDBACK)
                        continue
                    self.transcript[-1]["mcpgym_unparsed_tool_call"] = True
                    return self.result(
                        "completed",
                        answer=answer,
                        error=f"{UNPARSED_TOOL_CALL}: the final message looks like a tool "
                        "call that could not be read"
                        + (" (the model was told once)" if self.told_unread else "")
                        + "; scored as the answer",
                    )
                return self.result("completed", answer=answer or None)
            budget = self.agent.token_budget
            if budget is not None and self.usage.get("total_tokens", 0) > budget:
                # a hard cap: the reply that went over it does not get its calls run
                return self.result(
                    "max_tokens",
                    error=f"token budget {budget} exceeded; this turn's calls were not run",
                )
            done = await self._run_calls(turn.calls)
            if done is not None:
                return done
        if self.unread is not None:  # out of turns right after a call that did not read
            self.unread["mcpgym_unparsed_tool_call"] = True
            return self.result(
                "max_turns",
                error=f"{UNPARSED_TOOL_CALL}: the last message was a tool call that could "
                "not be read (the model was told)",
            )
        return self.result("max_turns")

    def _tell(self, text: str) -> None:
        """Send a harness message to the model (history and transcript)."""
        self.history += self.adapter.user_entries(text)
        self.transcript.append({"role": "user", "content": text, "mcpgym_harness": True})

    def _cut(self, turn: ModelTurn, turn_no: int) -> AgentResult:
        """The result of a response cut at the length limit (already recorded).

        Raises:
            ConfigurationError: it is the episode's first response and the context window,
                not ``max_tokens``, cut it (`context_filled`): the prompt fills the context.
        """
        raw = turn.raw if isinstance(turn.raw, dict) else {}
        empty = not (turn.text and turn.text.strip()) and not turn.calls
        empty = empty and not any(raw.get(k) for k in ("reasoning_content", "reasoning"))
        cap = self.adapter.recorded_settings().get("max_tokens")
        filled = context_filled(
            turn.usage,
            cap=cap if isinstance(cap, int) else None,
            raw_stop=turn.raw_stop,
            empty=empty,
        )
        if filled is None:
            return self.result(
                "max_tokens",
                error="the response was cut off at the token limit; its calls were not run",
            )
        if turn_no == 1:
            raise ConfigurationError(
                "stopping: the model server's context window is too small for this "
                f"environment: the first request ({len(self.ctx.tools)} tools, system prompt "
                f"and task) was answered with a response cut at the length limit after "
                f"{filled}: the prompt fills the server's context; start the server with a "
                "larger context (llama.cpp: --n_ctx / -c; vLLM: --max-model-len; Ollama: "
                "num_ctx)"
            )
        self.transcript[-1]["mcpgym_context_overflow"] = True
        return self.result(
            "max_tokens",
            error=f"{CONTEXT_OVERFLOW}: the context window filled: the response was cut after "
            f"{filled}; its calls were not run",
        )

    def _failed(self, exc: ModelAPIError, turn_no: int) -> AgentResult:
        """The result of a request that failed for good (see the module docstring).

        Raises:
            ConfigurationError: the episode's first prompt is over the context window.
        """
        self.api_error = exc
        if is_context_overflow(exc):
            if turn_no == 1:
                figures = overflow_figures(exc)
                raise ConfigurationError(
                    "stopping: the model server's context window is too small for this "
                    f"environment: the first request ({len(self.ctx.tools)} tools, system "
                    f"prompt and task) needs {figures.describe()}; start the server "
                    "with a larger context (llama.cpp: --n_ctx / -c; vLLM: --max-model-len; "
                    "Ollama: num_ctx)"
                    + (" or lower --max-output-tokens" if figures.cap_too_large else "")
                    + f". The server said: {exc}"
                )
            self.transcript[-1]["mcpgym_context_overflow"] = True
            return self.result(
                "max_tokens", error=f"context window exceeded ({CONTEXT_OVERFLOW}): {exc}"
            )
        if exc.transient and self.agent._server_errors.is_ours(exc):
            return self.result(
                "model_error",
                error=f"the model server answered {exc.status} to this request on every "
                f"attempt ({exc.attempts}) and to a fresh episode's alike, while answering "
                f"other requests: a request it cannot process, not an outage: {exc}",
            )
        return self.result("infra_error" if exc.transient else "model_error", error=str(exc))

    def _fresh_ids(self, calls: list[FunctionCall], turn_no: int) -> list[FunctionCall]:
        out = []
        for i, call in enumerate(calls, start=1):
            call_id = call.id
            if not call_id or call_id in self.seen_ids:
                call_id = f"{call_id or 'call'}_t{turn_no}_{i}"
            self.seen_ids.add(call_id)
            out.append(
                call if call_id == call.id else FunctionCall(call_id, call.name, call.arguments)
            )
        return out

    def _record_assistant(self, turn: ModelTurn, note: dict[str, Any]) -> None:
        self.history += self.adapter.assistant_entries(turn)
        message: dict[str, Any] = {"role": "assistant", "content": turn.text}
        if turn.calls:
            message["tool_calls"] = [function_call_json(c) for c in turn.calls]
        if turn.refusal is not None:
            message["refusal"] = turn.refusal
        self.transcript.append({**message, **note})

    async def _run_calls(self, calls: list[FunctionCall]) -> AgentResult | None:
        results: list[tuple[FunctionCall, ToolOutcome]] = []
        finished: AgentResult | None = None
        for call in calls:
            arguments, outcome = _decode_arguments(call)
            if outcome is None:
                arguments = self.adapter.prepare_arguments(self.by_name.get(call.name), arguments)
                try:
                    outcome = await self.ctx.call_tool(call.name, arguments)
                except InfraError as exc:
                    self._record_results(results)
                    return self.result("infra_error", error=str(exc))
            results.append((call, outcome))
            if call.name == self.ctx.submit_tool and not outcome.is_error:
                answer = arguments.get("answer")
                finished = self.result(
                    "completed", answer=answer if isinstance(answer, str) else None
                )
                break
        self.history += self.adapter.result_entries(results)
        self._record_results(results)
        return finished

    def _record_results(self, results: list[tuple[FunctionCall, ToolOutcome]]) -> None:
        for call, outcome in results:
            self.transcript.append(
                {
                    "role": "tool",
                    "tool_call_id": call.id,
                    "content": text_of(outcome),
                    "mcpgym_is_error": outcome.is_error,
                }
            )


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
