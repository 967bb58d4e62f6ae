"""Train a model with TRL's GRPOTrainer on an mcpgym environment (a GPU, vLLM in server mode).

The reward is the grade ``mcpgym eval`` gives: each rollout is an mcpgym episode of one
training variant, its tool calls go to the episode's sandbox over MCP, and the grading
service scores what it left behind. Held-out variants never appear in training.

Needs the ``train`` extra (torch, transformers, trl) and vLLM on the GPU machine::

    uv pip install 'mcpgym-clients[train]' vllm
    # terminal 1, GPU 0: the generation server TRL talks to
    CUDA_VISIBLE_DEVICES=0 trl vllm-serve --model Qwen/Qwen2.5-1.5B-Instruct
    # terminal 2, GPU 1: training
    CUDA_VISIBLE_DEVICES=1 python examples/train_grpo_trl.py --env helpdesk --bands easy

The environment server and the grading service run inside this process by default
(on a background event loop); pass ``--servers ENV_URL GRADING_URL TOKEN CONTROL`` to use
running ones (``mcpgym serve`` and ``mcpgym grading serve``) instead, with the control
token the environment server was started with.
"""

from __future__ import annotations

import argparse


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    p.add_argument("--env", default="helpdesk")
    p.add_argument("--bands", nargs="+", default=["easy"])
    p.add_argument("--seeds", type=int, default=500, help="seeds 0..N-1 (train split only)")
    p.add_argument("--model", default="Qwen/Qwen2.5-1.5B-Instruct")
    p.add_argument("--vllm-url", default="http://127.0.0.1:8000")
    p.add_argument(
        "--servers", nargs="+", metavar="URL_OR_TOKEN",
        help="ENV_URL GRADING_URL GRADING_TOKEN [CONTROL_TOKEN] of running servers",
    )
    p.add_argument("--per-check", action="store_true", help="one reward per rubric check too")
    p.add_argument("--output-dir", default="runs/grpo")
    p.add_argument("--max-steps", type=int, default=200)
    args = p.parse_args()

    from mcpgym_clients.adapters.base import require
    from mcpgym_clients.errors import MissingExtraError
    from mcpgym_clients.train.trl import TRLSpec

    try:  # optional (the `train` extra): one line naming it, not a traceback, without it
        for module in ("torch", "transformers", "datasets", "trl"):
            require(module, "train")
    except MissingExtraError as exc:
        raise SystemExit(f"error: {exc}") from None
    from trl import GRPOConfig, GRPOTrainer  # pyright: ignore[reportMissingImports]

    spec = TRLSpec(
        args.env,
        bands=args.bands,
        seeds=range(args.seeds),
        per_check=args.per_check,
        servers=tuple(args.servers) if args.servers else None,
    )
    config = GRPOConfig(
        output_dir=args.output_dir,
        use_vllm=True,
        vllm_mode="server",
        vllm_server_base_url=args.vllm_url,
        num_generations=8,  # G rollouts of each variant, compared with each other
        per_device_train_batch_size=8,
        gradient_accumulation_steps=4,
        max_completion_length=2048,  # the whole multi-turn episode: calls, results, answer
        max_tool_calling_iterations=20,
        learning_rate=1e-6,
        bf16=True,
        max_steps=args.max_steps,
        logging_steps=1,
        save_steps=50,
    )
    trainer = GRPOTrainer(
        model=args.model,
        args=config,
        train_dataset=spec.train_dataset,
        eval_dataset=spec.eval_dataset,  # held-out variants
        environment_factory=spec.environment_factory,
        reward_funcs=spec.reward_funcs,
    )
    try:
        trainer.train()
    finally:
        spec.close()
        print(f"rollouts: {spec.stats}")  # unscored ones were dropped, never rewarded 0


if __name__ == "__main__":
    main()
