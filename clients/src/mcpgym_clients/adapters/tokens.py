"""Token ids and log-probabilities of a model turn, for on-policy training.

Servers built for RL (vLLM >= 0.10.2, SGLang) return, when asked with ``logprobs: true`` and
``return_token_ids: true``, the prompt's token ids (top-level ``prompt_token_ids``), the
generated token ids (``choices[0].token_ids``) and one log-probability per generated token
(``choices[0].logprobs.content[i].logprob``). `turn_tokens` reads them from a Chat
Completions response; the model loop stores the result on the assistant message under
``mcpgym_tokens`` (the transcript's messages are otherwise unchanged).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TOKEN_REQUEST_FIELDS: dict[str, Any] = {"logprobs": True, "return_token_ids": True}
"""What the ``openai-compatible`` adapter adds to a request when asked for tokens."""


def _ints(value: object) -> list[int] | None:
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return list(value)
    return None


def turn_tokens(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """The token record of one Chat Completions response, or ``None`` when it has none.

    Returns:
        ``{"prompt_token_ids": [int] | None, "generation_token_ids": [int] | None,
        "generation_log_probs": [float] | None}``: each ``None`` when the server did not
        return it (plain OpenAI returns log-probs but no token ids; llama.cpp neither).
    """
    choices = data.get("choices")
    choice: Mapping[str, Any] = (
        choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
    )
    prompt_ids = _ints(data.get("prompt_token_ids")) or _ints(choice.get("prompt_token_ids"))
    gen_ids = _ints(choice.get("token_ids")) or _ints(choice.get("response_token_ids"))
    log_probs: list[float] | None = None
    content = (choice.get("logprobs") or {}).get("content")
    if isinstance(content, list):
        values = [c.get("logprob") for c in content if isinstance(c, dict)]
        numbers = [float(v) for v in values if isinstance(v, int | float)]
        if values and len(numbers) == len(values):
            log_probs = numbers
    if prompt_ids is None and gen_ids is None and log_probs is None:
        return None
    return {
        "prompt_token_ids": prompt_ids,
        "generation_token_ids": gen_ids,
        "generation_log_probs": log_probs,
    }
