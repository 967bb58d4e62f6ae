"""How a call-only assistant message (tool calls, no text) is sent back to a Chat Completions
server, and when a refused request is worth sending again in another form.

No one form is accepted everywhere, as measured against real servers:

- ``content`` omitted: OpenAI, vLLM, Ollama and llama-cpp-python's GGUF (Jinja) chat
  templates accept it; llama-cpp-python's own ``--chat_format chatml-function-calling``
  answers HTTP 500 ``'dict object' has no attribute 'content'`` (its template is strict
  about undefined keys; ``adv/round19sys/REAL_MODEL.md``);
- ``"content": ""``: every llama-cpp-python chat format accepts it; some gateways in front
  of Anthropic refuse an empty text block;
- ``"content": null``: llama-cpp-python refuses it in its request validation (HTTP 500,
  "7 validation errors"), whatever the chat format.

`CALL_ONLY_FORMS` lists them in the order tried: the adapter sends the first, and when a
request whose history holds a call-only message is refused in a way a message form can
cause (`form_may_be_refused`), it sends the same request once in each other form; the
first that is answered is kept for the rest of the campaign. Until a request holding a
call-only message has been answered in the current form, the other forms are tried on
the first such refusal, before any retry (a refused form is refused on every retry:
streamed, llama-cpp-python's refusal took 6 attempts, 12 requests, ~27 s; adversarial
round 20, S20-R7); after, only once the retries are spent.
"""

from __future__ import annotations

from typing import Any, Literal

from mcpgym_clients.adapters.outcomes import is_context_overflow
from mcpgym_clients.errors import ModelAPIError

CallOnlyForm = Literal["omitted", "empty", "null"]

CALL_ONLY_FORMS: tuple[CallOnlyForm, ...] = ("omitted", "empty", "null")
"""The forms of a call-only message's ``content``, in the order tried (module docstring)."""

REFUSING_STATUSES = frozenset({400, 422, 500})
"""Statuses with which servers refuse a message form they cannot read: a validation error
(400, 422) or a chat template that raises (llama-cpp-python: 500). 502/503/504 are
gateways and outages, never a message form."""


def is_call_only(message: Any) -> bool:
    """Whether ``message`` is an assistant message with tool calls and no text."""
    return (
        isinstance(message, dict)
        and message.get("role") == "assistant"
        and bool(message.get("tool_calls"))
        and not message.get("content")
    )


def with_form(messages: list[Any], form: CallOnlyForm) -> list[Any]:
    """``messages`` with every call-only assistant message in ``form`` (a new list; the
    messages that change are copies, the others are the same objects)."""
    if form == "omitted":
        value: dict[str, Any] = {}
    else:
        value = {"content": "" if form == "empty" else None}
    out = []
    for m in messages:
        if is_call_only(m):
            m = {k: v for k, v in m.items() if k != "content"}
            m = {"role": m.pop("role"), **value, **m}
        out.append(m)
    return out


def form_may_be_refused(exc: ModelAPIError, messages: list[Any]) -> bool:
    """Whether ``exc`` may be the server refusing the call-only messages' form: the
    history holds one, and the answer is a `REFUSING_STATUSES` status that is not a
    context overflow."""
    return (
        exc.status in REFUSING_STATUSES
        and not is_context_overflow(exc)
        and any(is_call_only(m) for m in messages)
    )
