"""Reading model API failures: context overflows and their figures, and server errors
that are the request's fault rather than an outage.

- `is_context_overflow`: a 400/413 (422 for TGI) answer saying the prompt does not fit the
  model's context window, in the words of OpenAI, vLLM, llama-cpp-python
  (``context_length_exceeded``, "maximum context length is N tokens"), vLLM 0.10+ ("The
  decoder prompt (length N) is longer than the maximum model length of M"), the llama.cpp
  server and Jan, which runs it (``exceed_context_size_error``, "request (N tokens)
  exceeds the available context size (M tokens)", "input (N tokens) is larger than the
  max context size (M tokens)"), SGLang ("longer than the model's context length"), TGI
  and the services built on it ("`inputs` tokens + `max_new_tokens` must be <= M",
  "`inputs` must have less than M tokens"), TabbyAPI (``context_length_exceeded``,
  "Prompt length N exceeds the available context size of M tokens"; until 2026-06
  "Prompt length N is greater than max_seq_len M"), OpenRouter ("maximum context length
  is M tokens. However, you requested about T tokens (N of text input, C in the
  output)"), Ollama ("prompt too long"), LM Studio ("the model is loaded with context
  length of only M tokens"), MLX-LM ("Prompt length N exceeds the maximum context
  length M"), vLLM's scheduler text ("Input prompt (N tokens) is too long and exceeds
  limit of M"), Anthropic ("prompt is too long") and Gemini ("input token count ...
  exceeds"). A 413 counts like a 400. Two 5xx forms count too: llama-cpp-python's own
  ``ValueError`` ("Requested tokens (N) exceed context window of M", raised by
  ``Llama.create_completion``), which its server turns into the 400 above only when it
  can re-read the request as its own request type, and otherwise answers raw as a 500
  ``internal_server_error`` (as do servers embedding the library); and the llama.cpp
  server's generation-time "Context size has been exceeded." (a 500 ``server_error``:
  the context filled while the response was generated; LM Studio forwards it). Only
  those wordings count on a 5xx: any other 5xx is an outage or a request the server
  cannot process (`RepeatedServerErrors`), never an overflow. KoboldCpp has no overflow
  answer: it cuts the front of a prompt that does not fit and answers 200.
- `overflow_figures`: the token counts such an answer states (prompt, completion asked
  for, context window), where it states them.
- `RepeatedServerErrors`: a 5xx answer that every attempt of a request got alike, and
  that a fresh episode gets alike again while the server keeps answering other requests,
  is a request the server cannot process (``model_error``), not an outage
  (``infra_error``). "Alike" is `error_signature`: the status and the message with its
  per-request ids and timestamps left out (TabbyAPI's 503 names its request:
  ``Chat completion 52c1a4f4badd475c8067daab9971af49 aborted. Maybe the model was
  unloaded? Please check the server console.``).
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
    r"loaded with context length of only|context the overflows|"
    r"is greater than max_seq_len|is larger than the max context size|"
    r"is too long and exceeds limit of|context size has been exceeded",
    re.IGNORECASE,
)

# llama-cpp-python's raw ValueError (llama_cpp/llama.py), an overflow read on a 5xx
_RAW_LLAMA_CPP = re.compile(
    r"Requested tokens \((?P<prompt>\d+)\) exceed context window of (?P<ctx>\d+)"
)

# the llama.cpp server's generation-time overflow (a 500 ``server_error``, or an error event
# in a 200 stream; LM Studio's llama.cpp engine forwards it): the context filled while the
# response was generated; the other overflow read on a 5xx, with no figures
_GENERATION_FILLED = re.compile(r"context size has been exceeded", re.IGNORECASE)


def is_context_overflow(exc: ModelAPIError) -> bool:
    """Whether an answer says the prompt is over the model's context window (see the
    module docstring): a 400/413/422 in any known wording, or a 5xx carrying
    llama-cpp-python's raw ``ValueError``. It is the model's own outcome, ``max_tokens``,
    not a broken call, except on an episode's first request
    (`mcpgym_clients.agents.model`); it is never retried (`mcpgym_clients.adapters.retry`).
    """
    text = f"{exc} {exc.body or ''}"
    if exc.status is not None and 500 <= exc.status < 600:
        return bool(_RAW_LLAMA_CPP.search(text) or _GENERATION_FILLED.search(text))
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
        """``"4,745 prompt tokens vs a context window of 4,096 tokens"`` (what is known; the
        response cap only when it is what does not fit; ``"a prompt of unknown size (the
        server stated no figures)"`` when nothing is)."""
        parts = []
        if self.prompt_tokens is not None:
            parts.append(f"{self.prompt_tokens:,} prompt tokens")
        if self.cap_too_large:
            parts.append(f"{self.completion_tokens:,} asked for the response")
        text = " + ".join(parts) or "a prompt of unknown size"
        if self.context is not None:
            text += f" vs a context window of {self.context:,} tokens"
        elif not parts:
            text += " (the server stated no figures)"
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
    # OpenRouter: "This endpoint's maximum context length is 4096 tokens. However, you
    # requested about 6793 tokens (4745 of text input, 2048 in the output)" (a tool-input
    # part may come between: "(358454 of text input, 56529 of tool input, 10000 in the
    # output)"; the prompt is the inputs together)
    re.compile(
        r"maximum context length is (?P<ctx>\d+) tokens.*?requested about \d+ tokens "
        r"\((?P<text>\d+) of text input, (?:(?P<tool>\d+) of tool input, )?"
        r"(?P<completion>\d+) in the output\)",
        re.IGNORECASE | re.DOTALL,
    ),
    # TabbyAPI (2026-06 on, 400 ``context_length_exceeded``): "Prompt length 4745 exceeds
    # the available context size of 4096 tokens"; before: "Prompt length 4745 is greater
    # than max_seq_len 4096"
    re.compile(
        r"length (?P<prompt>\d+) (?:exceeds the available context size of|is greater than "
        r"max_seq_len) (?P<ctx>\d+)",
        re.IGNORECASE,
    ),
    # TabbyAPI (ExLlamaV3): "Initial job allocation requires 6793 cache tokens, which
    # exceeds the available context size of 4096 tokens" (prompt plus the response cap)
    re.compile(
        r"requires (?P<total>\d+) cache tokens, which exceeds the available context size of "
        r"(?P<ctx>\d+)",
        re.IGNORECASE,
    ),
    # the llama.cpp server's message (Jan, and proxies that pass on only the message):
    # "request (4745 tokens) exceeds the available context size (4096 tokens), try
    # increasing it"; "input (4745 tokens) is larger than the max context size (4096
    # tokens). skipping"
    re.compile(
        r"\((?P<prompt>\d+) tokens\) (?:exceeds the available|is larger than the max) "
        r"context size \((?P<ctx>\d+) tokens\)",
        re.IGNORECASE,
    ),
    # vLLM's scheduler (the text of its "ignored" request, raised as an error by servers
    # built on it): "Input prompt (4745 tokens) is too long and exceeds limit of 4096"
    re.compile(
        r"prompt \((?P<prompt>\d+) tokens\) is too long and exceeds limit of (?P<ctx>\d+)",
        re.IGNORECASE,
    ),
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
        if found.get("text"):  # OpenRouter: the prompt is its inputs together
            found["prompt"] = str(int(found["text"]) + int(found.get("tool") or 0))
        prompt = found.get("prompt") or found.get("total")
        completion = found.get("completion")
        return OverflowFigures(
            int(prompt) if prompt else None,
            int(completion) if completion and completion.isdigit() else None,
            int(found["ctx"]),
        )
    return OverflowFigures()


_VOLATILE = re.compile(
    # a UUID (request ids of many servers, Python's uuid4)
    r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"
    # an ISO 8601 or log timestamp: 2026-12-06T09:21:23.5Z, 2026-12-06 09:21:23
    r"|\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?"
    # a prefixed id with a digit in it: chatcmpl-c7fb9a0f..., req_011CSHoE..., cmpl-3f2a...
    r"|\b[a-z]+[-_](?=[a-z0-9]*\d)[a-z0-9]{8,}\b"
    # a bare hex id (TabbyAPI's request ids: 52c1a4f4badd475c8067daab9971af49)
    r"|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{16,}\b"
    # epoch seconds or milliseconds, long counters
    r"|\b\d{10,}\b",
    re.IGNORECASE,
)


def error_signature(status: int | None, reason: str) -> str:
    """What two failures share when they are alike: the status and the message, with the
    parts a server makes fresh for every request (request ids, UUIDs, hex ids, timestamps)
    replaced by ``<id>``, so that ``"500: failed (request id 9b1d...)"`` twice is alike.

    Args:
        status: the HTTP status (``None``: no answer). reason: the failure's message.

    Returns:
        ``"500 model API answered 500: failed (request id <id>)"``.
    """
    return f"{status} {_VOLATILE.sub('<id>', reason)}"


class RepeatedServerErrors:
    """Tells a request the server cannot process from an outage, across episodes.

    A 5xx answer qualifies when every attempt of the request got it with the same status
    and message (`ModelAPIError.identical`; both compared as `error_signature`, so a fresh
    request id in each does not make them differ). The first time a campaign sees it, it is an
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
        signature = error_signature(exc.status, exc.reason)
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
