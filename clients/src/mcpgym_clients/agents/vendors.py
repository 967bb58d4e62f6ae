"""``--model VENDOR:MODEL``: which adapter serves which vendor, and building the agent.

| vendor | API | SDK (extra) | key variables (read by the CLI) |
|---|---|---|---|
| ``openai`` | Chat Completions | ``openai`` (``[openai]``) | ``OPENAI_API_KEY`` |
| ``openai-responses`` | Responses | ``openai`` (``[openai]``) | ``OPENAI_API_KEY`` |
| ``anthropic`` | Messages | ``anthropic`` (``[anthropic]``) | ``ANTHROPIC_API_KEY`` |
| ``gemini`` | Gemini | ``google-genai`` (``[gemini]``) | ``GEMINI_API_KEY``, ``GOOGLE_API_KEY`` |
| ``openai-compatible`` | Chat Completions at ``--base-url`` | none (httpx) | ``OPENAI_API_KEY`` |

A model name without a known vendor prefix (``gpt-4.1``, ``qwen3:8b``) is served by
the ``openai-compatible`` adapter at ``--base-url`` (default OpenAI's), as before
vendors existed; its agent keeps the name ``openai``.

A typo in the vendor is an error, not a model name: ``X:MODEL`` where ``X`` is no vendor
but close to one (edit distance at most 2, or a difflib similarity of 0.75, e.g.
``antropic``, ``openai-compat``) fails with "unknown vendor 'X'; did you mean ...?",
unless ``MODEL`` is an Ollama-style tag (it starts with a digit, or is ``latest``:
``gemma:2b``, ``qwen3:8b``, ``mistral:latest``), which stays a bare model name.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from mcpgym_clients.adapters.base import ModelAdapter, ModelSettings
from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.agents.model import ModelAgent
from mcpgym_clients.errors import ConfigurationError


@dataclass(frozen=True)
class Vendor:
    """One ``VENDOR`` of ``--model VENDOR:MODEL``.

    Attributes:
        name: the prefix. extra: the ``mcpgym-clients`` extra holding its SDK (``None``:
            no SDK). key_vars: environment variables holding its key, in order.
        base_url_var: environment variable with a base URL override, if any.
        default_base_url: the vendor's API root.
    """

    name: str
    extra: str | None
    key_vars: tuple[str, ...]
    base_url_var: str | None
    default_base_url: str


VENDORS: dict[str, Vendor] = {
    v.name: v
    for v in (
        Vendor(
            "openai", "openai", ("OPENAI_API_KEY",), "OPENAI_BASE_URL", "https://api.openai.com/v1"
        ),
        Vendor(
            "openai-responses",
            "openai",
            ("OPENAI_API_KEY",),
            "OPENAI_BASE_URL",
            "https://api.openai.com/v1",
        ),
        Vendor(
            "anthropic",
            "anthropic",
            ("ANTHROPIC_API_KEY",),
            "ANTHROPIC_BASE_URL",
            "https://api.anthropic.com",
        ),
        Vendor(
            "gemini",
            "gemini",
            ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
            None,
            "https://generativelanguage.googleapis.com",
        ),
        Vendor(
            "openai-compatible",
            None,
            ("OPENAI_API_KEY",),
            "OPENAI_BASE_URL",
            "https://api.openai.com/v1",
        ),
    )
}
"""The vendors, by prefix."""


def _distance(a: str, b: str) -> int:
    """Levenshtein edit distance (insertions, deletions, substitutions)."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


_OLLAMA_TAG = re.compile(r"^(latest|\d.*)$")


def close_vendor(prefix: str) -> str | None:
    """The vendor ``prefix`` is probably a typo of, if any (see the module docstring)."""
    lowered = prefix.lower()
    best = min(VENDORS, key=lambda v: _distance(lowered, v))
    if _distance(lowered, best) <= 2:
        return best
    close = difflib.get_close_matches(lowered, list(VENDORS), n=1, cutoff=0.75)
    return close[0] if close else None


def parse_model_spec(spec: str) -> tuple[Vendor | None, str]:
    """Split ``VENDOR:MODEL``; ``(None, spec)`` when the prefix is not a vendor.

    Raises:
        ConfigurationError: a vendor prefix with an empty model name, or an unknown
            prefix close to a vendor's name (a typo; see the module docstring).
    """
    prefix, sep, model = spec.partition(":")
    if sep and prefix in VENDORS:
        if not model:
            raise ConfigurationError(f"--model {spec}: give a model after the colon")
        return VENDORS[prefix], model
    if sep and not _OLLAMA_TAG.match(model):
        guess = close_vendor(prefix)
        if guess is not None:
            raise ConfigurationError(
                f"--model {spec}: unknown vendor {prefix!r}; did you mean {guess}? "
                f"(vendors: {', '.join(VENDORS)})"
            )
    return None, spec


def build_adapter(
    vendor: Vendor,
    settings: ModelSettings,
    *,
    api_key: str | None,
    base_url: str | None,
    transport: Any = None,
    retry: RetryPolicy | None = None,
    timeout: float = 120.0,
) -> ModelAdapter:
    """The adapter for an SDK vendor (``openai``, ``openai-responses``, ``anthropic``, ``gemini``).

    Args:
        transport: an ``httpx2`` transport for the SDK's HTTP client (tests).

    Raises:
        MissingExtraError: the vendor's SDK is not installed.
        ConfigurationError: ``openai-compatible`` (build a `ChatCompletionsClient` instead).
    """
    kw = {"api_key": api_key, "base_url": base_url, "transport": transport, "timeout": timeout}
    if vendor.name in ("openai", "openai-responses"):
        from mcpgym_clients.adapters.openai_chat import OpenAIChatAdapter, openai_sdk_client

        sdk = openai_sdk_client(**kw)
        if vendor.name == "openai":
            return OpenAIChatAdapter(sdk, settings, retry=retry)
        from mcpgym_clients.adapters.openai_responses import OpenAIResponsesAdapter

        return OpenAIResponsesAdapter(sdk, settings, retry=retry)
    if vendor.name == "anthropic":
        from mcpgym_clients.adapters.anthropic import AnthropicAdapter, anthropic_sdk_client

        return AnthropicAdapter(anthropic_sdk_client(**kw), settings, retry=retry)
    if vendor.name == "gemini":
        from mcpgym_clients.adapters.gemini import GeminiAdapter, gemini_sdk_client

        return GeminiAdapter(
            gemini_sdk_client(**kw),
            settings,
            retry=retry,
            base_url=base_url or vendor.default_base_url,
        )
    raise ConfigurationError(f"vendor {vendor.name} has no SDK adapter")


def build_model_agent(adapter: ModelAdapter, **loop: Any) -> ModelAgent:
    """A `ModelAgent` named after the adapter's vendor (``loop``: `ModelAgent` options)."""
    return ModelAgent(adapter, **loop)
