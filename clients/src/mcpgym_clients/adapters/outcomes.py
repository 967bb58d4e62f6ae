"""Reading model API failures: context overflows and their figures, and server errors
that are the request's fault rather than an outage.

- `is_context_overflow`: a 400/413 (422 for TGI) answer saying the prompt does not fit the
  model's context window, in the words of OpenAI, vLLM, llama-cpp-python
  (``context_length_exceeded``, "maximum context length is N tokens"), vLLM 0.10+ ("The
  decoder prompt (length N) is longer than the maximum model length of M"), the llama.cpp
  server (``exceed_context_size_error``, "exceeds the available context size"), SGLang
  ("longer than the model's context length"), TGI and the services built on it
  ("`inputs` tokens + `max_new_tokens` must be <= M", "`inputs` must have less than M
  tokens"), Ollama ("prompt too long"), LM Studio ("the model is loaded with context
  length of only M tokens"), MLX-LM ("Prompt length N exceeds the maximum context
  length M"), Anthropic ("prompt is too long") and Gemini ("input token count ... exceeds").
  One 5xx form counts too: llama-cpp-python's own ``ValueError`` ("Requested tokens (N)
  exceed context window of M", raised by ``Llama.create_completion``), which its server
  turns into the 400 above only when it can re-read the request as its own request type,
  and otherwise answers raw as a 500 ``internal_server_error`` (as do servers embedding
  the library). Only that exact wording counts on a 5xx: any other 5xx is an outage or a
  request the server cannot process (`RepeatedServerErrors`), never an overflow.
- `overflow_figures`: the token counts such an answer states (prompt, completion asked
  for, context window), where it states them.
- `RepeatedServerErrors`: a 5xx answer that every attempt of a request got alike, and
  that a fresh episode gets alike again while the server keeps answering other requests,
  is a request the server cannot process (``model_error``), not an outage
  (``infra_error``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

from mcpgym_clients.errors import ModelAPIError

_OVERFLOW = re.compile(
    r"context_length_exceeded|context window|maximum context length|prompt is too long|"
    r"input token count .*exceeds|too many (input )?tokens|exceed_context_size_error|"
    r"exceeds the available context size|longer than the model's context length|"
    r"longer than the maximum model length|prompt too long|"
    r"`?inputs`? tokens \+ `?max_new_tokens`? must be <=|`?inputs`? must have less than|"
    r"loaded with context length of only|context the overflows",
    re.IGNORECASE,
)

# llama-cpp-python's raw ValueError (llama_cpp/llama.py), the one overflow read on a 5xx
_RAW_LLAMA_CPP = re.compile(
    r"Requested tokens \((?P<prompt>\d+)\) exceed context window of (?P<ctx>\d+)"
)


def is_context_overflow(exc: ModelAPIError) -> bool:
    """Whether an answer says the prompt is over the model's context window (see the
    module docstring): a 400/413/422 in any known wording, or a 5xx carrying
    llama-cpp-python's raw ``ValueError``. It is the model's own outcome, ``max_tokens``,
    not a broken call, except on an episode's first request
    (`mcpgym_clients.agents.model`); it is never retried (`mcpgym_clients.adapters.retry`).
    """
    text = f"{exc} {exc.body or ''}"
    if exc.status is not None and 500 <= exc.status < 600:
        return bool(_RAW_LLAMA_CPP.search(text))
    if exc.status not in (400, 413, 422):
        return False
    return bool(_OVERFLOW.search(text))


@dataclass(frozen=True)
class OverflowFigures:
    """Token counts stated by a context-overflow answer (``None``: not stated).

    Attributes:
        prompt_tokens: tokens of the prompt (the messages and tool declarations).
        completion_tokens: tokens asked for the response (``max_tokens``), if stated.
        context: the model's context window, in tokens.
    """

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    context: int | None = None

    @property
    def cap_too_large(self) -> bool:
        """The prompt fits; prompt plus the response cap asked for does not."""
        return bool(
            self.completion_tokens
            and self.prompt_tokens is not None
            and self.context is not None
            and self.prompt_tokens < self.context
        )

    def describe(self) -> str:
        """``"4,745 prompt tokens vs a context window of 4,096"`` (what is known; the
        response cap only when it is what does not fit)."""
        parts = []
        if self.prompt_tokens is not None:
            parts.append(f"{self.prompt_tokens:,} prompt tokens")
        if self.cap_too_large:
            parts.append(f"{self.completion_tokens:,} asked for the response")
        text = " + ".join(parts) or "a prompt of unknown size"
        if self.context is not None:
            text += f" vs a context window of {self.context:,}"
        return text


_FIGURES = (
    # OpenAI, vLLM, llama-cpp-python: "maximum context length is 4096 tokens. However, you
    # requested 4745 tokens (4745 in the messages, None in the completion)"
    re.compile(
        r"maximum context length is (?P<ctx>\d+) tokens.*?requested (?P<total>\d+) tokens"
        r"(?: \((?P<prompt>\d+) in the messages, (?P<completion>\d+|None) in the completion)?",
        re.IGNORECASE | re.DOTALL,
    ),
    # vLLM (newer), when the response cap is what does not fit: "'max_tokens' or
    # 'max_completion_tokens' is too large: 2048. This model's maximum context length is
    # 4096 tokens and your request has 3000 input tokens (2048 > 4096 - 3000)"
    re.compile(
        r"too large: (?P<completion>\d+)\. This model's maximum context length is "
        r"(?P<ctx>\d+) tokens and your request has (?P<prompt>\d+) input tokens",
        re.IGNORECASE,
    ),
    # vLLM (newer): "... your request has 4745 input tokens"; OpenAI: "However, your
    # messages resulted in 131000 tokens"
    re.compile(
        r"maximum context length is (?P<ctx>\d+) tokens.*?"
        r"(?:has (?P<prompt>\d+) input tokens|resulted in (?P<total>\d+) tokens)",
        re.IGNORECASE | re.DOTALL,
    ),
    # SGLang: "The input (4745 tokens) is longer than the model's context length (4096 tokens)"
    re.compile(
        r"input \((?P<prompt>\d+) tokens\) is longer than the model's context length "
        r"\((?P<ctx>\d+) tokens\)",
        re.IGNORECASE,
    ),
    # vLLM 0.10+: "The decoder prompt (length 4745) is longer than the maximum model length
    # of 4096"
    re.compile(
        r"prompt \(length (?P<prompt>\d+)\) is longer than the maximum model length of "
        r"(?P<ctx>\d+)",
        re.IGNORECASE,
    ),
    # TGI: "`inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4745 `inputs` tokens
    # and 512 `max_new_tokens`" (the "Given" part is absent on some services built on it)
    re.compile(
        r"max_new_tokens`? must be <= (?P<ctx>\d+)\.?(?: Given: (?P<prompt>\d+) `?inputs`? "
        r"tokens and (?P<completion>\d+) `?max_new_tokens)?",
        re.IGNORECASE,
    ),
    # TGI: "`inputs` must have less than 4096 tokens. Given: 4745"
    re.compile(
        r"inputs`? must have less than (?P<ctx>\d+) tokens\.?(?: Given: (?P<prompt>\d+))?",
        re.IGNORECASE,
    ),
    # LM Studio: "Trying to keep the first 4745 tokens when context the overflows. However,
    # the model is loaded with context length of only 4096 tokens"
    re.compile(
        r"keep the first (?P<prompt>\d+) tokens.*?loaded with context length of only "
        r"(?P<ctx>\d+)",
        re.IGNORECASE | re.DOTALL,
    ),
    # MLX-LM: "Prompt length 4745 exceeds the maximum context length 4096"
    re.compile(
        r"prompt length (?P<prompt>\d+) exceeds the maximum context length (?P<ctx>\d+)",
        re.IGNORECASE,
    ),
    # Mistral API: "Prompt contains 4745 tokens and 512 draft tokens, too large for model
    # with 4096 maximum context length"
    re.compile(
        r"prompt contains (?P<prompt>\d+) tokens and (?P<completion>\d+) draft tokens, too "
        r"large for model with (?P<ctx>\d+) maximum context length",
        re.IGNORECASE,
    ),
    # llama-cpp-python's raw ValueError (a 500): "Requested tokens (4745) exceed context
    # window of 4096" (the prompt alone; the library checks it before the response cap)
    _RAW_LLAMA_CPP,
    # Anthropic: "prompt is too long: 212345 tokens > 200000 maximum"
    re.compile(r"prompt is too long: (?P<prompt>\d+) tokens > (?P<ctx>\d+)", re.IGNORECASE),
    # Gemini: "The input token count (1200000) exceeds the maximum number of tokens allowed
    # (1048576)"
    re.compile(
        r"input token count \((?P<prompt>\d+)\) exceeds the maximum number of tokens "
        r"allowed \((?P<ctx>\d+)\)",
        re.IGNORECASE,
    ),
)


def overflow_figures(exc: ModelAPIError) -> OverflowFigures:
    """The figures a context-overflow answer states (all ``None`` when it states none).

    The llama.cpp server puts them in the error object (``n_prompt_tokens``, ``n_ctx``);
    the others in the message text (see `_FIGURES`).
    """
    if exc.body:
        try:
            data = json.loads(exc.body)
        except ValueError:
            data = None
        err = data.get("error") if isinstance(data, dict) else None
        if isinstance(err, dict) and isinstance(err.get("n_ctx"), int):
            prompt = err.get("n_prompt_tokens")
            return OverflowFigures(prompt if isinstance(prompt, int) else None, None, err["n_ctx"])
    text = f"{exc} {exc.body or ''}"
    for pattern in _FIGURES:
        m = pattern.search(text)
        if m is None:
            continue
        found = m.groupdict()
        prompt = found.get("prompt") or found.get("total")
        completion = found.get("completion")
        return OverflowFigures(
            int(prompt) if prompt else None,
            int(completion) if completion and completion.isdigit() else None,
            int(found["ctx"]),
        )
    return OverflowFigures()


class RepeatedServerErrors:
    """Tells a request the server cannot process from an outage, across episodes.

    A 5xx answer qualifies when every attempt of the request got it with the same status
    and message (`ModelAPIError.identical`). The first time a campaign sees it, it is an
    outage as far as anyone can tell (``infra_error``: the episode is retried fresh). When
    a later episode gets the same answer again *and* the server answered some request in
    between (so it is up), the request is at fault: ``model_error`` with the server's
    message. An outage gives no success in between, so it stays ``infra_error``.

    One object serves a campaign's concurrent episodes (no awaits inside).
    """

    def __init__(self) -> None:
        self.successes = 0
        self._first_seen: dict[str, int] = {}

    def answered(self) -> None:
        """Count a request the server answered."""
        self.successes += 1

    def is_ours(self, exc: ModelAPIError) -> bool:
        """Whether ``exc`` (a request's final failure) is the request's fault (see above);
        records it otherwise."""
        if exc.status is None or not 500 <= exc.status < 600 or not exc.identical:
            return False
        signature = f"{exc.status} {exc.reason}"
        first = self._first_seen.setdefault(signature, self.successes)
        return self.successes > first


FILLED_SHARE = 0.9
"""A response cut at ``length`` with fewer completion tokens than this share of the
``max_tokens`` sent was cut by the context window, not by the cap (`context_filled`)."""


def context_filled(
    usage: Mapping[str, float], *, cap: int | None, raw_stop: str | None, empty: bool
) -> str | None:
    """Whether a response the server cut at the length limit (stop ``max_tokens``) was cut
    by the context window rather than by the response cap: what llama.cpp, Ollama and
    vLLM's ignored prompts send when the prompt (nearly) fills the context: a 200 with
    ``finish_reason: length`` and 0 completion tokens, or far fewer than ``max_tokens``.

    Args:
        usage: the turn's usage (``prompt_tokens``, ``completion_tokens``; either may be
            absent: not reported).
        cap: the ``max_tokens`` sent (``None``: unknown, then only the next two count).
        raw_stop: the vendor's stop value (Anthropic's ``model_context_window_exceeded``
            says so outright).
        empty: the response holds no text, no call and no reasoning.

    Returns:
        The figures in words (``"0 completion tokens of the 2,048 allowed after a prompt
        of 4,745 tokens"``), or ``None`` when the cap (the model's own length) cut it.
    """
    completion = usage.get("completion_tokens")
    prompt = usage.get("prompt_tokens")
    filled = (
        raw_stop == "model_context_window_exceeded"
        or completion == 0
        or (completion is None and empty)
        or (cap is not None and completion is not None and completion < FILLED_SHARE * cap)
    )
    if not filled:
        return None
    done = "an unknown number of" if completion is None else f"{int(completion):,}"
    text = f"{done} completion tokens"
    if cap is not None:
        text += f" of the {cap:,} allowed (max_tokens)"
    if prompt is not None:
        text += f" after a prompt of {int(prompt):,} tokens"
        if completion is not None:
            text += f" (a context of about {int(prompt + completion):,} tokens)"
    return text
