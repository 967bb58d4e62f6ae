"""``mcpgym export RUN --format rollouts``: JSON lines a trainer reads, round-tripped."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from mcpgym_clients import InfraError, NullAgent, ReferenceAgent, RunStore, train
from mcpgym_clients.cli import app
from mcpgym_clients.train import OpenAIPolicy, Rollouts, TrainingRow
from mcpgym_clients.train.export import ExportedRollout, read_rollouts, token_view
from mcpgym_server import Environment, compute_lock
from tests.toyenv import target_value

from .test_rollouts import vllm_answer

runner = CliRunner()


async def _failing(task: Any) -> str:
    raise InfraError("env", "the server went away")


@pytest.mark.anyio
async def test_export_writes_each_scored_rollout_and_reads_back(
    toy_env: Environment, toy_row: TrainingRow, tmp_path: Path
) -> None:
    value = target_value("easy", 0)
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "put", "arguments": json.dumps({"key": "target", "value": value})},
    }
    answers = [
        vllm_answer({"role": "assistant", "tool_calls": [call]}, [1, 2], [3, 4]),
        vllm_answer({"role": "assistant", "content": "done"}, [1, 2, 3, 4, 5, 6], [7]),
    ]
    policy = OpenAIPolicy(
        "http://vllm.test/v1",
        "tiny",
        parse_text_tool_calls=False,
        transport=httpx.MockTransport(lambda r: httpx.Response(200, json=answers.pop(0))),
    )
    async with Rollouts.in_process(toy_env) as ro:
        rollouts = [
            await ro.rollout(toy_row, policy, epoch=0),
            await ro.rollout(toy_row, ReferenceAgent(), epoch=1),
            await ro.rollout(toy_row, NullAgent(), epoch=2),
            await ro.rollout(toy_row, _failing, epoch=3),  # epochs: the store keeps one per epoch
        ]
    assert [r.scored for r in rollouts] == [True, True, True, False]
    store_path = tmp_path / "runs.db"
    lock = compute_lock(toy_env)
    with RunStore(store_path) as store:
        run_id = store.create_run(env="toy", env_version="0.1.0", lock=lock, agent="mixed")
        for r in rollouts:
            store.add_episode(run_id, r.record)
    out = tmp_path / "rollouts.jsonl"

    args = ["export", run_id[:8], "--out", str(out), "--store", str(store_path)]
    result = runner.invoke(app, args)

    assert result.exit_code == 0, result.output
    assert "wrote 3 rollouts" in result.output and "1 unscored dropped" in result.output
    lines = read_rollouts(out)
    assert [x.reward for x in lines] == [1.0, 1.0, 0.0]  # the infra error is not a 0
    assert train.read_rollouts(str(out)) == lines  # a str path too, from the package itself
    first = lines[0]
    assert first == rollouts[0].export(run_id)  # the library and the command agree
    assert first.lock == lock and first.variant_id == toy_row.variant_id
    assert first.checks == {"target-set": 1.0} and lines[2].checks == {"target-set": 0.0}
    # the model's tokens (mask 1) and the rest (mask 0), with the model's log-probs
    assert first.token_ids == [1, 2, 3, 4, 5, 6, 7]
    assert first.loss_mask == [0, 0, 1, 1, 0, 0, 1]
    assert first.log_probs == [None, None, -0.5, -0.5, None, None, -0.5]
    assert all(not k.startswith("mcpgym_") for m in first.messages for k in m)
    assert lines[1].token_ids is None  # the reference agent generates no tokens
    raw = json.loads(out.read_text().splitlines()[0])
    assert ExportedRollout.model_validate(raw).model_dump(mode="json") == raw


def test_export_includes_unscored_rollouts_with_no_reward_when_asked(
    tmp_path: Path,
) -> None:
    from mcpgym_clients.records import EpisodeRecord

    store_path = tmp_path / "runs.db"
    with RunStore(store_path) as store:
        run_id = store.create_run(env="toy", env_version="0.1.0", lock="abc", agent="x")
        store.add_episode(run_id, EpisodeRecord("x", "set-target", "easy", 3, error="down"))
    out = tmp_path / "all.jsonl"
    args = ["export", "latest", "--out", str(out), "--store", str(store_path)]
    assert runner.invoke(app, args).exit_code == 0
    assert out.read_text() == ""
    assert runner.invoke(app, [*args, "--include-unscored"]).exit_code == 0
    (line,) = read_rollouts(out)
    assert line.termination == "infra_error" and line.reward is None and not line.scored
    bad = runner.invoke(app, [*args, "--format", "parquet"])
    assert bad.exit_code == 1 and "known formats are rollouts" in bad.output


def test_exporting_an_unfinished_run_says_it_holds_only_what_ran(tmp_path: Path) -> None:
    """Round 17: ``mcpgym export`` of a run still being written (or stopped) wrote its rows
    without a word, where ``show`` says the run is unfinished: a trainer got part of a
    campaign as if it were all of it."""
    from mcpgym_clients.records import EpisodeRecord

    store_path = tmp_path / "runs.db"
    selection = {"variants": [f"set-target@easy#{s}" for s in range(4)], "epochs": 1}
    with RunStore(store_path) as store:
        run_id = store.create_run(
            env="toy", env_version="0.1.0", lock="abc", agent="x", selection=selection
        )
        rec = EpisodeRecord("x", "set-target", "easy", 0, termination="completed")
        store.add_episode(run_id, rec)
    args = ["export", "latest", "--out", str(tmp_path / "o.jsonl"), "--store", str(store_path)]
    result = runner.invoke(app, args, env={"COLUMNS": "300"})
    assert result.exit_code == 0
    said = " ".join(result.output.split())
    assert (
        f"note: run {run_id} is unfinished (1 of 4 planned episodes stored): this export " in said
    )
    assert "holds only what ran" in said
    with RunStore(store_path) as store:
        store.finish_run(run_id)
    done = runner.invoke(app, args, env={"COLUMNS": "300"})
    assert "note:" not in done.output, done.output


def test_a_turn_whose_prompt_rewrites_the_past_gives_no_token_view() -> None:
    turns = [
        {"prompt_token_ids": [1, 2], "generation_token_ids": [3], "generation_log_probs": [-1.0]},
        {"prompt_token_ids": [1, 9, 3], "generation_token_ids": [5], "generation_log_probs": None},
    ]
    assert token_view(turns) == (None, None, None)
    turns[1]["prompt_token_ids"] = [1, 2, 3, 4]  # extends the sequence: a token view
    assert token_view(turns) == ([1, 2, 3, 4, 5], [0, 0, 1, 0, 1], [None, None, -1.0, None, None])


@pytest.mark.parametrize("served", ["unsalted", "salted", "unknown"])
def test_exported_rows_that_never_reached_a_server_name_the_variant_planned(
    tmp_path: Path, served: str
) -> None:
    """Trial (stop 25): ``--include-unscored`` wrote the rows of slots a stopped campaign
    did not play with ``variant_id`` null. They name the variant planned where that is the
    id the server serves (no seed salt); under a salt they stay null (the served id is the
    salted seed's, which the client cannot know) rather than name another variant."""
    from mcpgym_clients.breaker import store_not_run
    from mcpgym_clients.records import EpisodeRecord
    from mcpgym_clients.selection import VariantKey

    salt = {"unsalted": None, "salted": "fp:1234"}.get(served)
    conditions = None if served == "unknown" else {"server": {"seed_salt": salt}}
    store_path = tmp_path / "runs.db"
    with RunStore(store_path) as store:
        run_id = store.create_run(
            env="toy", env_version="0.1.0", lock="abc", agent="null", conditions=conditions
        )
        played = EpisodeRecord("null", "set-target", "easy", 0, termination="completed")
        played.episode_id = "ep_" + "a" * 32
        played.variant_id = "toy/set-target@easy#" + ("0" if served != "salted" else "777")
        store.add_episode(run_id, played)
        store_not_run(
            store,
            [(NullAgent(), run_id, VariantKey("set-target", "easy", s), 0) for s in (0, 1, 2)],
            "stopped: a signal",
        )
    out = tmp_path / "all.jsonl"
    args = ["export", "latest", "--out", str(out), "--store", str(store_path)]
    assert runner.invoke(app, [*args, "--include-unscored"]).exit_code == 0
    lines = sorted(read_rollouts(out), key=lambda r: r.seed)
    assert [r.seed for r in lines] == [0, 1, 2]
    assert lines[0].variant_id == played.variant_id
    placeholders = [(r.variant_id, r.episode_id, r.scored) for r in lines[1:]]
    if served == "salted":
        assert placeholders == [(None, None, False)] * 2
    else:
        assert placeholders == [
            ("toy/set-target@easy#1", None, False),
            ("toy/set-target@easy#2", None, False),
        ]


_KILLED_EXPORT = """
import os, signal, sys
from pathlib import Path

from mcpgym_clients.train.export import ExportedRollout, write_rollouts

line = ExportedRollout.model_validate_json(Path(sys.argv[2]).read_text().splitlines()[0])


def lines():
    yield line
    yield line
    os.kill(os.getpid(), signal.SIGKILL)  # killed mid-export (Ctrl-C, kill -9, a full disk)
    yield line


write_rollouts(lines(), Path(sys.argv[1]))
"""


def test_an_export_killed_half_way_leaves_the_previous_file_whole(tmp_path: Path) -> None:
    """Round 17: ``write_rollouts`` opened ``--out`` with ``"w"`` and wrote line by line; an
    export killed half-way left the file cut short (a previous complete export already
    truncated), and a trainer read part of the run as the whole of it."""
    import subprocess
    import sys

    from mcpgym_clients.records import EpisodeRecord
    from mcpgym_clients.train.export import write_rollouts

    out, sample = tmp_path / "rollouts.jsonl", tmp_path / "sample.jsonl"
    store_path = tmp_path / "runs.db"
    with RunStore(store_path) as store:
        run_id = store.create_run(env="toy", env_version="0.1.0", lock="abc", agent="x")
        for seed in range(5):
            store.add_episode(run_id, EpisodeRecord("x", "set-target", "easy", seed, error="e"))
    args = ["export", "latest", "--out", str(sample), "--store", str(store_path)]
    assert runner.invoke(app, [*args, "--include-unscored"]).exit_code == 0
    previous = sample.read_text()
    out.write_text(previous)  # a complete export of 5 rows, from before

    child = subprocess.run(
        [sys.executable, "-c", _KILLED_EXPORT, str(out), str(sample)], check=False, timeout=120
    )

    assert child.returncode == -9
    assert out.read_text() == previous, "the killed export cut the file short"
    left = [p.name for p in tmp_path.iterdir() if p.name.startswith(".rollouts.jsonl.partial-")]
    assert len(left) == 1  # beside it, never at it
    assert write_rollouts(read_rollouts(sample), out) == 5  # a whole export replaces it
    assert len(read_rollouts(out)) == 5


def test_the_partial_file_of_a_killed_export_is_swept_by_the_next(tmp_path: Path) -> None:
    """Round 18 (R17-8 left): a ``kill -9`` mid-export left ``.<name>.partial-<pid>`` beside
    ``--out`` for good. The next export to the same path removes it (its writer's lock is
    free), and keeps a live export's partial file and other files."""
    import os
    import subprocess
    import sys

    from mcpgym_clients.records import EpisodeRecord
    from mcpgym_clients.train.export import write_rollouts

    out, sample = tmp_path / "rollouts.jsonl", tmp_path / "sample.jsonl"
    store_path = tmp_path / "runs.db"
    with RunStore(store_path) as store:
        run_id = store.create_run(env="toy", env_version="0.1.0", lock="abc", agent="x")
        for seed in range(3):
            store.add_episode(run_id, EpisodeRecord("x", "set-target", "easy", seed, error="e"))
    args = ["export", "latest", "--out", str(sample), "--store", str(store_path)]
    assert runner.invoke(app, [*args, "--include-unscored"]).exit_code == 0
    child = subprocess.run(
        [sys.executable, "-c", _KILLED_EXPORT, str(out), str(sample)], check=False, timeout=120
    )
    assert child.returncode == -9
    (killed,) = [p for p in tmp_path.iterdir() if p.name.startswith(".rollouts.jsonl.partial-")]
    dead_old = tmp_path / ".rollouts.jsonl.partial-99999999"  # an older export's, pid gone
    dead_old.write_text("{}\n")
    mine_old = tmp_path / f".rollouts.jsonl.partial-{os.getpid()}"  # its writer alive
    mine_old.write_text("{}\n")
    other = tmp_path / ".other.jsonl.partial-1"
    other.write_text("{}\n")

    assert write_rollouts(read_rollouts(sample), out) == 3
    assert not killed.exists(), "the killed export's partial file was left beside --out"
    assert not dead_old.exists()
    assert mine_old.exists() and other.exists()

    from mcpgym_clients.train._partial import open_partial

    live, held = open_partial(out)  # another export to the same path, still writing
    try:
        assert write_rollouts(read_rollouts(sample), out) == 3
        assert live.exists()
    finally:
        held.close()
    assert len(read_rollouts(out)) == 3
