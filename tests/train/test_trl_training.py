"""A real GRPO run: TRL's ``GRPOTrainer`` trains a tiny local model on an mcpgym environment.

Slow (~1 min on 2 cores: importing torch and trl is most of it); needs the ``train`` extra.
``.ci/run`` installs it and sets ``MCPGYM_TRAIN_REQUIRED=1``, so there a missing extra
fails the test instead of skipping it.
"""

from __future__ import annotations

import inspect
import os
from pathlib import Path

import pytest

from mcpgym_clients.train import Rollout
from mcpgym_server import Environment

if os.environ.get("MCPGYM_TRAIN_REQUIRED") != "1":
    pytest.importorskip("trl", reason="the `train` extra is not installed")

pytestmark = [
    pytest.mark.slow,
    # transformers, trl and torch warn about their own deprecations and defaults
    pytest.mark.filterwarnings("ignore::FutureWarning"),
    pytest.mark.filterwarnings("ignore::UserWarning"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]


def test_grpo_trainer_trains_on_an_mcpgym_environment(toy_env: Environment, tmp_path: Path) -> None:
    os.environ["TRL_EXPERIMENTAL_SILENCE"] = "1"
    import datasets
    import torch
    from trl import GRPOConfig, GRPOTrainer

    from mcpgym_clients.train.trl import TRLSpec

    from .tiny_policy import make_model, make_tokenizer, render_prompt, tool_call_text, warm_up

    graded: list[Rollout | None] = []
    spec = TRLSpec(
        toy_env,
        bands=["easy"],
        seeds=range(8),
        system_prompt="Use the tools.",
        on_rollout=graded.append,
    )
    try:
        row = spec.dataset_rows()[0]
        probe = spec.environment_factory()
        tools = [
            getattr(probe, name)
            for name, _ in inspect.getmembers(type(probe), inspect.isfunction)
            if not name.startswith("_") and name not in ("reset", "get_reward")
        ]
        assert sorted(t.__name__ for t in tools) == ["dump", "get", "put", "submit"]
        value = row["instruction"].removeprefix("Set key `target` to ").rstrip(".")
        right = tool_call_text("put", {"key": "target", "value": value})
        wrong = tool_call_text("put", {"key": "target", "value": "7"})
        tokenizer = make_tokenizer(
            [render_prompt(make_tokenizer(["x"]), row["prompt"], tools)] * 3 + [right, wrong] * 3
        )
        model = make_model(len(tokenizer), tokenizer.eos_token_id, tokenizer.pad_token_id)
        args = GRPOConfig(
            output_dir=str(tmp_path / "out"),
            per_device_train_batch_size=4,
            num_generations=4,
            max_steps=2,
            max_completion_length=96,
            max_tool_calling_iterations=1,
            learning_rate=1e-4,
            temperature=1.0,
            logging_steps=1,
            report_to="none",
            save_strategy="no",
            use_cpu=True,
            seed=0,
        )
        trainer = GRPOTrainer(
            model=model,
            args=args,
            processing_class=tokenizer,
            train_dataset=datasets.Dataset.from_list([row] * 4),
            environment_factory=spec.environment_factory,
            reward_funcs=spec.reward_funcs,
        )
        prompt = render_prompt(tokenizer, row["prompt"], tools, trainer.chat_template)
        warm_up(model, tokenizer, prompt, [right, wrong])
        before = {n: p.detach().clone() for n, p in model.named_parameters()}

        trainer.train()

        changed = [n for n, p in model.named_parameters() if not torch.equal(before[n], p)]
        assert changed, "the GRPO steps left every parameter as it was"
        assert len(graded) == 8 and all(r is not None for r in graded)
        rollouts = [r for r in graded if r is not None]
        assert spec.stats == {"rollouts": 8, "scored": 8, "dropped": 0}
        for r in rollouts:  # every rollout called the environment's tool, graded by mcpgym
            assert [c.name for c in r.tool_calls][:1] == ["put"]
            assert r.grade is not None and r.grade["status"] == "graded"
            assert r.reward() == r.grade["score"] == (1.0 if r.passed else 0.0)
        logged = [h["reward"] for h in trainer.state.log_history if "reward" in h]
        scores = [r.reward() for r in rollouts]
        assert logged == pytest.approx([sum(scores[:4]) / 4, sum(scores[4:]) / 4])
        assert 0 < sum(scores) < 8, "no reward variance: GRPO had nothing to learn from"
    finally:
        spec.close()
