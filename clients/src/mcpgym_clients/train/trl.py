"""TRL: train with ``GRPOTrainer(environment_factory=...)`` on an mcpgym environment.

::

    from mcpgym_clients.train.trl import TRLSpec
    spec = TRLSpec("helpdesk", bands=["easy"], seeds=range(500))
    trainer = GRPOTrainer(
        model=..., args=GRPOConfig(...),
        train_dataset=spec.train_dataset,
        environment_factory=spec.environment_factory,
        reward_funcs=spec.reward_funcs,
    )

How it maps onto TRL 1.16 (``trl/trainer/grpo_trainer.py``):

- ``train_dataset``: one row per training variant (`training_rows`): ``prompt`` (the
  system prompt of ``mcpgym eval``'s model loop and the variant's instruction) plus
  ``variant_id``, ``task``, ``band``, ``seed``.
- ``environment_factory``: TRL makes one instance per concurrent rollout, reuses it, and
  calls ``reset(**row)`` before each rollout: that opens an mcpgym episode of the row's
  variant. The instance's public methods are the episode's MCP tools, generated from the
  environment's own tool schemas (`mcpgym_clients.train.tool_methods`); a call returns
  the text the model would see over MCP (errors included, as ``Error: ...`` text).
- ``reward_funcs``: ``mcpgym_reward`` ends each rollout's episode and grades it with
  mcpgym's grading service, returning the grade's score; with ``per_check=True`` one more
  function per rubric check (1.0 passed, 0.0 failed, ``None`` where it does not apply).
  An unscored rollout (``infra_error``, a grade error) gets ``None`` from every function:
  TRL then leaves it out of the group baseline and gives it no advantage (never a 0
  reward); `TRLSpec.stats` and the ``mcpgym/dropped`` metric count them.

Needs the ``train`` extra (``datasets`` comes with ``trl``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from mcpgym_clients.adapters.base import require, text_of
from mcpgym_clients.agents.model import DEFAULT_SYSTEM_PROMPT
from mcpgym_clients.train._steered import SteeredEpisode
from mcpgym_clients.train._sync import SyncRollouts
from mcpgym_clients.train.results import Rollout
from mcpgym_clients.train.rows import HELD_OUT_FRACTION, Split, TrainingRow, training_rows
from mcpgym_clients.train.tool_methods import tool_method
from mcpgym_server import Environment, load_environment

ROW_FIELDS = ("variant_id", "env", "task", "band", "seed", "instruction", "split")


class MCPGymEnvironment:
    """Base of the generated TRL environment classes: one instance, one rollout at a time.

    Subclasses (made by `TRLSpec`) add one method per MCP tool. ``reset(**row)`` opens the
    row's episode (ending the previous one first); the reward functions end and grade it.
    """

    _spec: TRLSpec

    def __init__(self) -> None:
        self._episode: SteeredEpisode | None = None
        self._rollout: Rollout | None = None
        self._finished = True

    def reset(self, **row: Any) -> str | None:
        """Open an episode of the row's variant (``task``, ``band``, ``seed``); returns None."""
        if not self._finished:
            self._spec._finish([self])
        self._episode = self._spec._backend.open(_row(row))
        self._rollout = None
        self._finished = False
        return None

    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        if self._episode is None:
            return "Error: no episode is open; reset() was not called"
        return text_of(self._spec._backend.call(self._episode, name, arguments))

    @property
    def rollout(self) -> Rollout | None:
        """The graded rollout, once a reward function has ended the episode."""
        return self._rollout


def _row(row: dict[str, Any]) -> TrainingRow:
    missing = [k for k in ("task", "band", "seed") if k not in row]
    if missing:
        raise ValueError(
            f"reset() needs the row's {missing}: use TRLSpec.train_dataset, or rows with "
            "task, band and seed columns"
        )
    values: dict[str, Any] = {k: row.get(k) for k in ROW_FIELDS}
    values["seed"] = int(row["seed"])
    values["variant_id"] = values["variant_id"] or f"?/{row['task']}@{row['band']}#{row['seed']}"
    values["env"] = values["env"] or ""
    values["instruction"] = values["instruction"] or ""
    values["split"] = values["split"] or "train"
    return TrainingRow(**values)


class TRLSpec:
    """Dataset, environment factory and reward functions for TRL's ``GRPOTrainer``.

    Args:
        env: the environment or its installed name.
        tasks, bands, seeds, held_out: which variants (see `training_rows`).
        split: the split of `train_dataset` (`eval_dataset` is the other one).
        per_check: add one reward function per rubric check.
        servers: ``(env_url, grading_url, grading_token[, control_token])`` of running
            servers; default: the servers run in this process, on a background event-loop
            thread.
        system_prompt: replaces the system prompt of ``mcpgym eval``'s model loop.
        episode_timeout: seconds an episode may stay open.
        on_rollout: called with each graded `Rollout` (or ``None`` when the episode never
            opened), from the training thread (to log or keep rollouts).

    Raises:
        ConfigurationError: an unknown task or band, or a tool whose name cannot be a method.
    """

    def __init__(
        self,
        env: Environment | str,
        *,
        tasks: Sequence[str] | None = None,
        bands: Sequence[str] | None = None,
        seeds: Iterable[int] = range(100),
        held_out: float = HELD_OUT_FRACTION,
        split: Split = "train",
        per_check: bool = False,
        servers: tuple[str, ...] | None = None,
        system_prompt: str | None = None,
        episode_timeout: float | None = 600.0,
        on_rollout: Callable[[Rollout | None], None] | None = None,
    ) -> None:
        self.on_rollout = on_rollout
        self.environment = load_environment(env) if isinstance(env, str) else env
        self._select = {"tasks": tasks, "bands": bands, "seeds": list(seeds), "held_out": held_out}
        self.split: Split = split
        self.rows = training_rows(self.environment, split=split, **self._select)  # type: ignore[arg-type]
        if not self.rows:
            raise ValueError("no variants in this selection and split; give more seeds")
        self.per_check = per_check
        self._lock = threading.Lock()
        self.stats: dict[str, int] = {"rollouts": 0, "scored": 0, "dropped": 0}
        self._backend = SyncRollouts(
            self.environment, servers=servers, episode_timeout=episode_timeout
        )
        try:
            probe = self._backend.open(self.rows[0])
            tools, instructions = probe.tools, probe.server_instructions
            self._backend.finish([probe])
            if not tools:
                raise RuntimeError(f"could not open an episode of {self.rows[0].variant_id}")
            methods: dict[str, Any] = {
                t.name: tool_method(t, MCPGymEnvironment._call) for t in tools
            }
        except BaseException:
            self._backend.close()
            raise
        system = system_prompt or DEFAULT_SYSTEM_PROMPT
        self.system_prompt = f"{system}\n\n{instructions.strip()}" if instructions else system
        name = "".join(p.capitalize() for p in self.environment.name.replace("-", "_").split("_"))
        self.environment_class: type[MCPGymEnvironment] = type(
            f"{name}Environment", (MCPGymEnvironment,), {**methods, "_spec": self}
        )
        self.tool_names = [t.name for t in tools]

    # -- what GRPOTrainer takes -----------------------------------------------------------

    def dataset_rows(self, split: Split | None = None) -> list[dict[str, Any]]:
        """The records of a split: ``prompt`` plus the row's fields."""
        rows = (
            self.rows
            if split in (None, self.split)
            else training_rows(self.environment, split=split, **self._select)  # type: ignore[arg-type]
        )
        return [
            {
                "prompt": [
                    {"role": "system", "content": self.system_prompt},
                    {"role": "user", "content": r.instruction},
                ],
                **r.as_dict(),
            }
            for r in rows
        ]

    @property
    def train_dataset(self) -> Any:
        """A ``datasets.Dataset`` of the training split."""
        datasets = require("datasets", "train")
        return datasets.Dataset.from_list(self.dataset_rows())

    @property
    def eval_dataset(self) -> Any:
        """A ``datasets.Dataset`` of the other split (held out when training on ``train``)."""
        datasets = require("datasets", "train")
        other: Split = "held_out" if self.split == "train" else "train"
        return datasets.Dataset.from_list(self.dataset_rows(other))

    @property
    def environment_factory(self) -> Callable[[], MCPGymEnvironment]:
        """Zero-argument callable making a fresh environment instance."""
        return self.environment_class

    @property
    def reward_funcs(self) -> list[Callable[..., list[float | None]]]:
        """``mcpgym_reward`` and, with ``per_check``, one ``check_<name>`` per rubric check."""
        funcs: list[Callable[..., list[float | None]]] = [self._score_func()]
        if self.per_check:
            names: dict[str, None] = {}
            for fam in self.environment.families.values():
                for check in getattr(fam.rubric, "checks", ()):
                    names.setdefault(check.name, None)
            funcs += [self._check_func(n) for n in names]
        return funcs

    # -- rewards --------------------------------------------------------------------------

    def _finish(self, envs: Sequence[MCPGymEnvironment]) -> list[Rollout | None]:
        todo = [e for e in envs if not e._finished and e._episode is not None]
        if todo:
            done = self._backend.finish([e._episode for e in todo])  # type: ignore[misc]
            with self._lock:
                for e, r in zip(todo, done, strict=True):
                    e._rollout, e._finished = r, True
                    self.stats["rollouts"] += 1
                    self.stats["scored" if r is not None and r.scored else "dropped"] += 1
            if self.on_rollout is not None:
                for r in done:
                    self.on_rollout(r)
        return [e._rollout for e in envs]

    def _score_func(self) -> Callable[..., list[float | None]]:
        def mcpgym_reward(
            environments: Sequence[MCPGymEnvironment] | None = None, **kwargs: Any
        ) -> list[float | None]:
            """The grade's score per rollout; ``None`` for unscored rollouts (dropped)."""
            if environments is None:
                raise ValueError("mcpgym_reward needs GRPOTrainer(environment_factory=...)")
            rollouts = self._finish(environments)
            rewards = [r.score if r is not None and r.scored else None for r in rollouts]
            log_metric = kwargs.get("log_metric")
            if callable(log_metric):
                log_metric("mcpgym/dropped", float(sum(v is None for v in rewards)))
            return rewards

        return mcpgym_reward

    def _check_func(self, check: str) -> Callable[..., list[float | None]]:
        def reward(
            environments: Sequence[MCPGymEnvironment] | None = None, **kwargs: Any
        ) -> list[float | None]:
            if environments is None:
                raise ValueError("check rewards need GRPOTrainer(environment_factory=...)")
            out: list[float | None] = []
            for r in self._finish(environments):
                value = r.checks.get(check) if r is not None and r.scored else None
                out.append(None if value is None else float(value))
            return out

        reward.__name__ = reward.__qualname__ = f"check_{check.replace('-', '_')}"
        reward.__doc__ = f"1.0 when check `{check}` passed, 0.0 when it failed, else None."
        return reward

    def close(self) -> None:
        """Stop the servers and the background event loop."""
        self._backend.close()
