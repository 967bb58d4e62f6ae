"""``--model VENDOR:MODEL`` on the command line: keys, extras, limits, preflight."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from mcpgym_clients import evaluation, redaction
from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.chat_completions import ChatCompletionsClient
from mcpgym_clients.agents.model import ModelAgent
from mcpgym_clients.agents.vendors import VENDORS, build_adapter, parse_model_spec
from mcpgym_clients.cli import app
from mcpgym_clients.commands import _agent, evaluate
from mcpgym_clients.errors import ConfigurationError, MissingExtraError
from mcpgym_server import Environment

from ..test_cli import flat

runner = CliRunner()
KEY_VARS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in (*KEY_VARS, "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(var, raising=False)


def build(model: str, **kw: object) -> object:
    args: dict[str, object] = {
        "model": model,
        "base_url": None,
        "api_key": None,
        "api_key_env": None,
        "parse_text_tool_calls": None,
        "max_turns": 7,
        "temperature": None,
        "model_seed": None,
        "max_output_tokens": None,
    }
    args.update(kw)
    return _agent.build_agent("openai", **args)  # type: ignore[arg-type]


def test_vendor_prefixes_split_and_other_colons_stay_in_the_model_name() -> None:
    assert parse_model_spec("anthropic:claude-sonnet-5-5")[0].name == "anthropic"  # type: ignore[union-attr]
    assert parse_model_spec("qwen3:8b") == (None, "qwen3:8b")  # an Ollama tag, not a vendor
    with pytest.raises(ConfigurationError, match="give a model after the colon"):
        parse_model_spec("gemini:")


@pytest.mark.parametrize(
    ("model", "var"),
    [
        ("openai:gpt-4.1", "OPENAI_API_KEY"),
        ("openai-responses:gpt-4.1", "OPENAI_API_KEY"),
        ("anthropic:claude-sonnet-5-5", "ANTHROPIC_API_KEY"),
        ("gemini:gemini-2.5-flash", "GEMINI_API_KEY or GOOGLE_API_KEY"),
    ],
)
def test_each_vendor_names_its_key_variable_when_the_key_is_missing(model: str, var: str) -> None:
    result = runner.invoke(app, ["eval", "helpdesk", "--model", model])
    assert result.exit_code == 2
    vendor = model.split(":")[0]
    assert f"no API key for {vendor}: set {var} or pass --api-key" in flat(result.output)


def test_keys_come_from_the_vendor_variables_and_limits_reach_the_agent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GOOGLE_API_KEY", "g-test")
    agent = build("gemini:gemini-2.5-flash", token_budget=5000, time_limit=30.0, model_seed=4)
    assert isinstance(agent, ModelAgent)
    settings = agent.settings()
    assert settings["vendor"] == "gemini" and settings["model"] == "gemini-2.5-flash"
    assert (settings["token_budget"], settings["time_limit"], settings["seed"]) == (5000, 30.0, 4)
    assert settings["max_turns"] == 7
    assert "g-test" not in repr(settings)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "a-test")
    assert build("anthropic:claude-sonnet-5-5").name == "anthropic"  # type: ignore[attr-defined]


def test_bare_names_and_openai_compatible_use_chat_completions_over_httpx() -> None:
    bare = build("qwen3:8b", base_url="http://127.0.0.1:11434/v1")
    assert bare.name == "openai" and bare.model == "qwen3:8b"  # type: ignore[attr-defined]
    assert bare.parse_text_tool_calls is False  # type: ignore[attr-defined]
    local = build("openai-compatible:qwen3:8b", base_url="http://127.0.0.1:11434/v1")
    assert local.name == "openai-compatible" and local.model == "qwen3:8b"  # type: ignore[attr-defined]
    assert local.parse_text_tool_calls is True  # type: ignore[attr-defined]
    off = build("openai-compatible:m", base_url="http://h/v1", parse_text_tool_calls=False)
    assert off.parse_text_tool_calls is False  # type: ignore[attr-defined]


def test_a_missing_extra_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "anthropic", None)  # import anthropic -> ImportError
    with pytest.raises(MissingExtraError) as info:
        build_adapter(VENDORS["anthropic"], ModelSettings("m"), api_key="k", base_url=None)
    assert info.value.extra == "anthropic"
    assert "uv pip install 'mcpgym-clients[anthropic]'" in str(info.value)
    result = runner.invoke(
        app, ["eval", "helpdesk", "--model", "anthropic:claude-sonnet-5-5", "--api-key", "k"]
    )
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "error: the anthropic adapter needs the `anthropic` package: run uv pip install "
        "'mcpgym-clients[anthropic]' (in a clone of mcpgym, `uv sync` installs every vendor SDK)"
    ]


def test_the_gemini_hint_names_the_google_genai_distribution(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "google.genai", None)
    with pytest.raises(MissingExtraError) as info:
        build_adapter(VENDORS["gemini"], ModelSettings("m"), api_key="k", base_url=None)
    assert "needs the `google-genai` package" in str(info.value)
    assert "uv sync --extra" not in str(info.value)


def test_a_temperature_the_installed_anthropic_sdk_lacks_is_refused() -> None:
    result = runner.invoke(
        app,
        ["eval", "helpdesk", "--model", "anthropic:claude-sonnet-5-5", "--api-key", "k"]
        + ["--temperature", "0.2"],
    )
    assert result.exit_code == 1
    assert "takes no temperature" in result.output


def test_a_wrong_path_is_caught_before_any_episode(
    monkeypatch: pytest.MonkeyPatch, toy_env: Environment, tmp_path: Path
) -> None:
    paths: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        paths.append(f"{request.method} {request.url.path}")
        return httpx.Response(404, text="404 page not found")

    monkeypatch.setattr(evaluation, "load_environment", lambda name: toy_env)
    monkeypatch.setattr(evaluate, "available_environments", lambda: ["toy"])
    monkeypatch.setattr(
        _agent,
        "ChatCompletionsClient",
        functools.partial(ChatCompletionsClient, transport=httpx.MockTransport(handler)),
    )
    result = runner.invoke(
        app,
        ["eval", "toy", "--model", "openai-compatible:m", "--base-url", "http://model.test"]
        + ["--store", str(tmp_path / "runs.db")],
    )
    assert result.exit_code == 1
    assert paths == ["GET /models", "POST /chat/completions"]
    assert flat(result.output) == (
        "error: no Chat Completions endpoint at http://model.test: GET /models and "
        "POST /chat/completions both answered 404 (does --base-url end in /v1?)"
    )


def test_keys_never_reach_the_run_store() -> None:
    argv = ["mcpgym", "eval", "helpdesk", "--api-key", "sk-secret", "--grading-token=tok"]
    assert redaction.redacted(argv) == [
        "mcpgym", "eval", "helpdesk", "--api-key", "***", "--grading-token=***",
    ]  # fmt: skip
    agent = build("openai-compatible:m", base_url="http://user:pw@10.0.0.5:8000/v1?key=k")
    assert agent.settings()["base_url"] == "http://10.0.0.5:8000/v1"  # type: ignore[attr-defined]
