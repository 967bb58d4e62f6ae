"""``mcpgym eval`` flags: secrets in URLs never stored or shown, model specs, help texts."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from mcpgym_clients.cli import _redacted, app
from mcpgym_clients.errors import ModelAPIError

runner = CliRunner()


def flat(text: str) -> str:
    """Output without rich panel borders, whitespace collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"[│╭╮╰╯─]", " ", text)).strip()


def test_url_credentials_and_queries_are_redacted_from_argv() -> None:
    argv = ["mcpgym", "eval", "--base-url", "https://me:SECRET1@h.example/v1?key=SECRET2"]
    argv += ["--base-url=http://h.example/v1?api_key=SECRET3", "--api-key", "SECRET4"]
    out = " ".join(_redacted(argv))
    assert "SECRET" not in out
    assert "https://***@h.example/v1?***" in out and "--api-key ***" in out


def test_model_api_errors_never_carry_url_secrets() -> None:
    exc = ModelAPIError(
        "model API at https://u:SECRET1@h.example/v1/chat/completions?key=SECRET2 answered 500",
        status=500,
        body="see https://h.example/x?token=SECRET3",
    )
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
