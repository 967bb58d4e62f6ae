"""Chat Completions message shapes besides a string ``content`` and ``tool_calls``.

Servers that copy the OpenAI API do not all answer in its current shape (adversarial
round 14, S8-15/S8-16):

- ``content`` as a list of typed parts: Mistral's API for its reasoning models answers
  ``[{"type": "thinking", "thinking": [{"type": "text", "text": ...}]}, {"type": "text",
  "text": ...}]``, streamed or not, and some proxies pass parts through. Read as a string
  only, a streamed answer was dropped (an empty final answer, graded as the model's) and
  an unstreamed one was ``model_error``. `content_parts` reads the text parts as the
  content and the thinking parts as reasoning; a part of any other type is an error
  (`ModelAPIError`), never silently left out of the answer.
- the legacy ``function_call`` (``{"name", "arguments"}``, finish reason
  ``function_call``) of servers that answer ``tools`` in the older ``functions`` shape:
  ignored, the model's call was lost and its empty message graded as the final answer.
  `legacy_call` reads it as one tool call (it has no id: one is made for it).
"""

from __future__ import annotations

from typing import Any

from mcpgym_clients.errors import ModelAPIError

TEXT_PARTS = frozenset({"text", "output_text"})
"""Part types whose ``text`` is the content."""

THINKING_PARTS = frozenset({"thinking", "reasoning"})
"""Part types that hold the model's reasoning (``thinking``/``reasoning`` or ``text``: a
string or a list of text parts), kept apart from the answer."""


def content_parts(value: Any) -> tuple[str | None, str | None]:
    """Split a message's (or a stream delta's) ``content`` into text and reasoning.

    Args:
        value: ``content`` as sent: ``None``, a string, or a list of typed parts.

    Returns:
        ``(text, reasoning)``: a string content is the text as it is; for a list, the
        ``text`` parts joined in order and the thinking parts' text joined in order
        (each ``None`` when there is none).

    Raises:
        ModelAPIError: content of another type, or a part that is not an object, has a
            type other than text or thinking (an image, audio...), or carries no text
            where it must (not retried: the same answer would come again).
    """
    if value is None or isinstance(value, str):
        return value, None
    if not isinstance(value, list):
        raise ModelAPIError(
            f"model message content is neither text nor a list of parts: {value!r}"[:300]
        )
    text: list[str] = []
    reasoning: list[str] = []
    for part in value:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind in TEXT_PARTS and isinstance(part.get("text"), str):
            text.append(part["text"])
        elif kind in THINKING_PARTS:
            reasoning.append(_thinking_text(part))
        else:
            raise ModelAPIError(
                f"model message content has a part the harness cannot read as text: {part!r}"[:300]
            )
    return ("".join(text) if text else None), ("".join(reasoning) if reasoning else None)


def _thinking_text(part: dict[str, Any]) -> str:
    for key in ("thinking", "reasoning", "text"):
        inner = part.get(key)
        if isinstance(inner, str):
            return inner
        if isinstance(inner, list):
            return "".join(
                p["text"] for p in inner if isinstance(p, dict) and isinstance(p.get("text"), str)
            )
    return ""


def legacy_call(message: dict[str, Any]) -> dict[str, Any] | None:
    """The legacy ``function_call`` of a message or delta as a ``tool_calls`` entry
    (``{"type": "function", "function": {"name", "arguments"}}``, no id, index 0), or
    ``None`` when it has none (or also has ``tool_calls``, which win)."""
    fc = message.get("function_call")
    if not isinstance(fc, dict) or message.get("tool_calls"):
        return None
    return {"index": 0, "type": "function", "function": fc}
