"""``mcpgym eval`` flags: secrets in URLs never stored or shown, model specs, help texts."""

from __future__ import annotations

import re

import anyio
import pytest
from typer.testing import CliRunner

from mcpgym_clients.adapters.base import ModelSettings, sdk_error
from mcpgym_clients.adapters.chat_completions import ChatCompletionsClient
from mcpgym_clients.adapters.openai_chat import ChatCompletionsAdapter
from mcpgym_clients.agents.model import ModelAgent
from mcpgym_clients.agents.vendors import parse_model_spec
from mcpgym_clients.cli import app
from mcpgym_clients.errors import ConfigurationError, ModelAPIError
from mcpgym_clients.preflight import preflight
from mcpgym_clients.redaction import redacted

runner = CliRunner()


def flat(text: str) -> str:
    """Output without rich panel borders, whitespace collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"[│╭╮╰╯─]", " ", text)).strip()


def test_url_credentials_and_queries_are_redacted_from_argv() -> None:
    argv = ["mcpgym", "eval", "--base-url", "https://me:SECRET1@h.example/v1?key=SECRET2"]
    argv += ["--base-url=http://h.example/v1?api_key=SECRET3", "--api-key", "SECRET4"]
    out = " ".join(redacted(argv))
    assert "SECRET" not in out
    assert "https://***@h.example/v1?***" in out and "--api-key ***" in out


def test_model_api_errors_never_carry_url_secrets() -> None:
    exc = ModelAPIError(
        "model API at https://u:SECRET1@h.example/v1/chat/completions?key=SECRET2 answered 500",
        status=500,
        body="see https://h.example/x?token=SECRET3",
    )
    echoed = ModelAPIError("answered 404: no such path /v1/?key=SECRET4chat/completions")
    assert "SECRET" not in str(echoed) and "/v1/?key=***" in str(echoed)
    assert "SECRET" not in str(exc) and "SECRET" not in str(exc.body)
    assert "https://***@h.example/v1/chat/completions?*** answered 500" in str(exc)


def test_an_unreachable_base_url_error_hides_its_secrets() -> None:
    result = runner.invoke(
        app,
        ["eval", "helpdesk", "--model", "openai-compatible:m", "--no-baseline"]
        + ["--base-url", "http://me:SECRET1@127.0.0.1:9/v1?key=SECRET2"],
        env={"COLUMNS": "300"},
    )
    assert result.exit_code != 0
    assert "SECRET" not in result.output
    assert "127.0.0.1:9" in result.output


@pytest.mark.parametrize(
    "flag, url",
    [
        ("--env-url", "http://me:SECRET1@127.0.0.1:9"),
        ("--grading-url", "http://127.0.0.1:9/?token=SECRET2"),
        ("--env-url", "http://127.0.0.1:9/#SECRET3"),
    ],
)
def test_server_urls_with_credentials_are_refused_without_echoing_them(flag: str, url: str) -> None:
    """Round 17: ``--env-url http://u:PASS@host`` was sent as Basic auth in place of the
    control token, and the refusal printed the URL, password and all."""
    urls = {"--env-url": "http://127.0.0.1:9", "--grading-url": "http://127.0.0.1:8", flag: url}
    args = ["eval", "helpdesk", "--agent", "reference", "--no-baseline", "--grading-token", "t"]
    result = runner.invoke(app, [*args, *(x for kv in urls.items() for x in kv)])
    assert result.exit_code == 2, result.output
    out = flat(result.output)
    assert "SECRET" not in out, out
    assert "http://127.0.0.1:9 carries" in out, out


@pytest.mark.parametrize(
    ("spec", "guess"),
    [
        ("antropic:claude-x", "anthropic"),
        ("openai-compat:m", "openai-compatible"),
        ("gemni:gemini-2.5-flash", "gemini"),
    ],
)
def test_a_vendor_typo_is_an_error_with_a_suggestion(spec: str, guess: str) -> None:
    with pytest.raises(ConfigurationError, match=f"unknown vendor .*; did you mean {guess}\\?"):
        parse_model_spec(spec)
    result = runner.invoke(app, ["eval", "helpdesk", "--model", spec, "--api-key", "k"])
    assert result.exit_code == 2 and "did you mean" in flat(result.output)


@pytest.mark.parametrize("spec", ["qwen3:8b", "gemma:2b", "mistral:latest", "deepseek-r1:7b"])
def test_ollama_style_names_stay_model_names(spec: str) -> None:
    assert parse_model_spec(spec) == (None, spec)


class APIConnectionError(Exception):
    """Named like the SDKs' connection error (what `sdk_error` recognises)."""


def test_an_unreachable_hosted_vendor_shows_the_cause_and_no_base_url_hint() -> None:
    try:
        try:
            raise OSError("[Errno -3] Temporary failure in name resolution")
        except OSError as inner:
            raise APIConnectionError("Connection error.") from inner
    except APIConnectionError as exc:
        err = sdk_error(exc, where="model API at https://api.openai.com/v1")

    class Unreachable(ChatCompletionsAdapter):
        async def check(self) -> None:
            raise err

    client = ChatCompletionsClient(base_url="https://api.openai.com/v1")
    agent = ModelAgent(Unreachable(client, ModelSettings("gpt-x")))
    with pytest.raises(ConfigurationError) as info:
        anyio.run(preflight, agent, "--api-key")
    text = str(info.value)
    assert "cause: OSError: [Errno -3] Temporary failure in name resolution" in text
    assert "--base-url" not in text and "network connection" in text


def test_eval_help_fits_80_columns_with_readable_help() -> None:
    result = runner.invoke(app, ["eval", "--help"], env={"COLUMNS": "80"}, terminal_width=80)
    assert result.exit_code == 0
    # the help column is wide enough for three words a line (it was two, with a column
    # for --no-parse-text-tool-calls and long range metavars)
    assert "Model requests per" in result.output
    assert "(default 30)" in flat(result.output)
