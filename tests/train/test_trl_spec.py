"""`TRLSpec` without a trainer: what TRL's GRPOTrainer would call, called by hand."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from mcpgym_clients import InfraError
from mcpgym_clients.train.trl import TRLSpec
from mcpgym_server import Environment
from tests.toyenv import target_value


@pytest.fixture
def spec(toy_env: Environment) -> Iterator[TRLSpec]:
    s = TRLSpec(toy_env, bands=["easy"], seeds=range(8), per_check=True)
    try:
        yield s
    finally:
        s.close()


def test_rollouts_are_episodes_and_rewards_are_grades(spec: TRLSpec) -> None:
    rows = spec.dataset_rows()
    assert rows[0]["prompt"][0]["role"] == "system" and "A key-value store." in spec.system_prompt
    assert rows[0]["prompt"][1] == {"role": "user", "content": rows[0]["instruction"]}
    right, wrong = spec.environment_factory(), spec.environment_factory()
    assert right.reset(**rows[0]) is None and wrong.reset(**rows[1]) is None
    value = target_value("easy", rows[0]["seed"])
    put = json.loads(right.put(key="target", value=value))
    assert (put["key"], put["value"]) == ("target", value)
    assert right.put(key="target", value="reject").startswith("Error")  # the MCP error text
    assert right.get().startswith("Error")  # a missing argument: the server's validation
    assert json.loads(right.submit(answer="done"))["status"] == "ended"
    assert "has ended" in right.get(key="target")  # after submit, as over MCP
    wrong.put(key="target", value="nope")
    score, check = spec.reward_funcs
    assert score.__name__ == "mcpgym_reward" and check.__name__ == "check_target_set"
    assert score(environments=[right, wrong]) == [1.0, 0.0]
    assert check(environments=[right, wrong]) == [1.0, 0.0]
    assert right.rollout is not None and right.rollout.episode_termination == "submitted"
    assert spec.stats == {"rollouts": 2, "scored": 2, "dropped": 0}
    right.reset(**rows[2])  # reused, as TRL's pool does: a fresh episode
    assert right.get(key="target").startswith("Error")  # a new sandbox, nothing set yet
    assert score(environments=[right]) == [0.0]


def test_an_unscored_rollout_gets_no_reward_from_any_function(spec: TRLSpec) -> None:
    env = spec.environment_factory()
    env.reset(**spec.dataset_rows()[0])
    assert env._episode is not None and env._episode.context is not None

    async def broken(name: str, arguments: object) -> object:
        raise InfraError("mcp", "stream reset")

    object.__setattr__(env._episode.context, "call_tool", broken)
    assert env.put(key="target", value="1").startswith("Error")
    logged: list[tuple[str, float]] = []
    score, check = spec.reward_funcs
    assert score(environments=[env], log_metric=lambda k, v: logged.append((k, v))) == [None]
    assert check(environments=[env]) == [None]
    assert logged == [("mcpgym/dropped", 1.0)]
    assert spec.stats == {"rollouts": 1, "scored": 0, "dropped": 1}


def test_closing_with_an_episode_still_open_ends_it(toy_env: Environment) -> None:
    import threading

    spec = TRLSpec(toy_env, bands=["easy"], seeds=range(8))
    env = spec.environment_factory()
    env.reset(**spec.dataset_rows()[0])  # a rollout TRL never scored (training stopped)
    closer = threading.Thread(target=spec.close)
    closer.start()
    closer.join(timeout=30)
    assert not closer.is_alive(), "close() hung on the open episode"
    assert env._episode is not None and env._episode.rollout is not None  # ended and graded


def test_a_script_that_fails_after_making_a_spec_exits() -> None:
    # The README's snippet without the `train` extra: `spec.train_dataset` raises
    # MissingExtraError, and close() is never called. The process must still exit (it hung:
    # the event-loop thread's portal was stopped at interpreter teardown, when it no longer ran).
    import subprocess
    import sys

    script = (
        "from mcpgym_clients.train.trl import TRLSpec\n"
        "spec = TRLSpec('helpdesk', bands=['easy'], seeds=range(5))\n"
        "raise RuntimeError('the trainer failed')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1 and "RuntimeError: the trainer failed" in done.stderr


def test_the_train_extra_hint_does_not_send_a_clone_to_uv_sync() -> None:
    from mcpgym_clients.errors import MissingExtraError

    hint = str(MissingExtraError("train", "datasets"))
    assert "uv pip install 'mcpgym-clients[train]'" in hint
    assert "`uv sync` does not install it" in hint and "CPU torch wheel" in hint
    assert "every vendor SDK" not in hint
    assert "every vendor SDK" in str(MissingExtraError("gemini", "google-genai"))


def test_an_extra_that_is_no_vendor_is_not_called_an_adapter() -> None:
    # `train` and `ray` are not model adapters: the hint said "the train adapter needs ...".
    from mcpgym_clients.errors import MissingExtraError

    assert str(MissingExtraError("train", "datasets")).startswith(
        "the `train` extra's `datasets` package is not installed: run uv pip install"
    )
    assert str(MissingExtraError("ray", "ray")).startswith("the `ray` extra's `ray` package")
    assert str(MissingExtraError("anthropic", "anthropic")).startswith(
        "the anthropic adapter needs the `anthropic` package"
    )


def test_the_grpo_example_without_the_train_extra_names_it_in_one_line() -> None:
    # A new user runs examples/train_grpo_trl.py in a clone without the extra: it printed a
    # ModuleNotFoundError traceback for `trl` (the README points at this example).
    import importlib.util
    import subprocess
    import sys
    from pathlib import Path

    if importlib.util.find_spec("trl") is not None:
        pytest.skip("the train extra is installed here (trl importable)")
    example = Path(__file__).resolve().parents[2] / "examples" / "train_grpo_trl.py"
    done = subprocess.run(
        [sys.executable, str(example)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("error: ") and "uv pip install 'mcpgym-clients[train]'" in line
