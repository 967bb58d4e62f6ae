"""``mcpgym eval ENV --base-url URL``: one flag runs the local server's model.

Before, ``--base-url`` without ``--model`` silently ran the reference agent (rc 0, a
1.000 table): a measurement that lies.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio.from_thread
import pytest
import typer
from typer.testing import CliRunner

from mcpgym_clients.cli import app
from mcpgym_clients.commands import evaluate

from ..test_cli import flat
from .fake_llama import FakeLlamaServer

runner = CliRunner()


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "MCPGYM_ENV_URL"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The EvalOptions `run_eval` was given (nothing is run)."""
    seen: list[Any] = []
    monkeypatch.setattr(evaluate, "run_eval", seen.append)
    monkeypatch.setattr(evaluate, "available_environments", lambda: ["helpdesk"])
    return seen


def _serving(models: list[str]) -> Iterator[FakeLlamaServer]:
    """A fake llama server on loopback listing ``models``, in a thread's event loop."""
    with (
        anyio.from_thread.start_blocking_portal() as portal,
        portal.wrap_async_context_manager(FakeLlamaServer(models=models).running()) as server,
    ):
        yield server


@pytest.fixture
def one_model() -> Iterator[FakeLlamaServer]:
    yield from _serving(["qwen3:8b"])


@pytest.fixture
def two_models() -> Iterator[FakeLlamaServer]:
    yield from _serving(["qwen3:8b", "llama3.2:3b"])


def test_base_url_alone_runs_the_one_model_the_server_lists(
    one_model: FakeLlamaServer, ran: list[Any], tmp_path: Path
) -> None:
    result = runner.invoke(
        app,
        ["eval", "helpdesk", "--base-url", one_model.base_url, "--store", str(tmp_path / "r.db")],
    )
    assert result.exit_code == 0, result.output
    [opts] = ran
    assert opts.agent.name == "openai-compatible"
    assert opts.agent.model == "qwen3:8b"
    assert opts.agent.client.base_url == one_model.base_url


def test_base_url_with_several_models_names_them_and_the_flag(
    two_models: FakeLlamaServer, ran: list[Any]
) -> None:
    result = runner.invoke(app, ["eval", "helpdesk", "--base-url", two_models.base_url])
    assert result.exit_code == 2
    out = flat(result.output)
    assert "serves 2 models (qwen3:8b, llama3.2:3b)" in out
    assert "--model openai-compatible:NAME" in out
    assert ran == []


def test_base_url_pointing_at_nothing_says_it_cannot_reach_the_model_api(
    ran: list[Any],
) -> None:
    with socket.socket() as sock:  # a loopback port nothing listens on
        sock.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    result = runner.invoke(app, ["eval", "helpdesk", "--base-url", dead])
    assert result.exit_code == 1
    out = flat(result.output)
    assert f"cannot reach the model API at {dead}" in out
    assert "is the model server running, and is --base-url right?" in out
    assert ran == []


@pytest.mark.parametrize(
    "flags",
    [
        ["--api-key", "k"],
        ["--temperature", "0.5"],
        ["--agent", "reference", "--max-turns", "3"],
        ["--request-timeout", "30"],
        ["--agent", "null", "--base-url", "http://127.0.0.1:1/v1"],
    ],
)
def test_a_model_only_flag_without_a_model_agent_is_refused(
    flags: list[str], ran: list[Any]
) -> None:
    result = runner.invoke(app, ["eval", "helpdesk", *flags])
    assert result.exit_code == 2
    out = flat(result.output)
    flag = next(f for f in flags if f.startswith("--") and f != "--agent")
    assert f"{flag} is for model agents" in out
    assert "add --model VENDOR:MODEL" in out
    assert ran == []


def test_openai_compatible_without_base_url_asks_for_it(ran: list[Any]) -> None:
    result = runner.invoke(app, ["eval", "helpdesk", "--model", "openai-compatible:qwen"])
    assert result.exit_code == 2
    assert "openai-compatible needs --base-url (e.g. http://127.0.0.1:11434/v1)" in flat(
        result.output
    )
    assert ran == []


def test_no_flags_still_runs_the_reference_agent(ran: list[Any]) -> None:
    result = runner.invoke(app, ["eval", "helpdesk"])
    assert result.exit_code == 0, result.output
    assert ran[0].agent.name == "reference"


def _answering(status: int, body: dict[str, Any]) -> Any:
    import httpx

    return httpx.MockTransport(lambda request: httpx.Response(status, json=body))


def test_a_404_for_the_model_list_asks_whether_base_url_ends_in_v1() -> None:
    """``--base-url http://host:8080`` (no ``/v1``): the list is not there. Before, the
    error only said to pass --model, which then failed on the same missing ``/v1``."""
    from mcpgym_clients.commands._agent import served_model

    with pytest.raises(typer.BadParameter) as info:
        served_model("http://127.0.0.1:8080", transport=_answering(404, {"detail": "Not Found"}))
    message = str(info.value)
    assert "GET http://127.0.0.1:8080/models answered 404" in message
    assert "does --base-url end in /v1?" in message


def test_a_refused_key_for_the_model_list_says_the_key_was_refused() -> None:
    """A 401 on ``GET /models`` is a key the server refuses, not a server without a list."""
    from mcpgym_clients.commands._agent import served_model

    with pytest.raises(typer.BadParameter) as info:
        served_model(
            "http://127.0.0.1:8080/v1",
            api_key="sk-wrong",
            transport=_answering(401, {"error": {"message": "invalid api key"}}),
        )
    message = str(info.value)
    assert "rejected the API key (401: invalid api key)" in message
    assert "--api-key" in message
    assert "without a model list" not in message
