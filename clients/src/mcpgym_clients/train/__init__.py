"""Train on mcpgym environments: rollouts as a library, TRL and NeMo Gym integrations.

- `training_rows` / `TrainingRow`: the variants of a split (``train`` or ``held_out``).
- `Rollouts`: `Rollouts.direct` (no HTTP, no MCP: fastest), `Rollouts.in_process` (no
  sockets) or `Rollouts.over_http`; `rollout` and
  `rollout_group` return `Rollout` / `RolloutGroup` with messages, tool calls, the grade,
  the reward and per-turn token ids and log-probs; over HTTP an ``infra_error`` rollout is
  retried and a server that stays down raises `ServerDownError`.
- Policies: `OpenAIPolicy` (a Chat Completions endpoint), `ChatPolicy` (your function),
  or any `mcpgym_clients.Agent`.
- `read_rollouts` / `ExportedRollout`: read back a ``mcpgym export RUN --format rollouts``
  file (`mcpgym_clients.train.export`).
- `mcpgym_clients.train.trl`: ``train_dataset``, ``environment_factory`` and
  ``reward_funcs`` for TRL's ``GRPOTrainer`` (needs the ``train`` extra).
- `mcpgym_clients.train.nemo_gym`: a NeMo Gym resources server (``/seed_session``,
  ``/verify``).

See docs/training.md.
"""

from mcpgym_clients.train.export import ExportedRollout, read_rollouts
from mcpgym_clients.train.policies import ChatPolicy, OpenAIPolicy, as_agent
from mcpgym_clients.train.results import Rollout, RolloutGroup, ToolCallRecord, TurnTokens
from mcpgym_clients.train.rollout import Rollouts, ServerDownError
from mcpgym_clients.train.rows import HELD_OUT_FRACTION, TrainingRow, split_of, training_rows

__all__ = [
    "HELD_OUT_FRACTION",
    "ChatPolicy",
    "ExportedRollout",
    "OpenAIPolicy",
    "Rollout",
    "RolloutGroup",
    "Rollouts",
    "ServerDownError",
    "ToolCallRecord",
    "TrainingRow",
    "TurnTokens",
    "as_agent",
    "read_rollouts",
    "split_of",
    "training_rows",
]
