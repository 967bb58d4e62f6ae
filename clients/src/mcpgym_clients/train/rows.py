"""Training rows: the variants a trainer samples, split into train and held-out.

A row is one task variant (``helpdesk/refund-damaged-item@easy#7``) with its instruction.
Which split a variant belongs to is a property of the variant alone: a hash of its id
decides it, so the held-out split never overlaps the training split whatever seeds,
bands or tasks are asked for, and the same variant is in the same split on every machine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from mcpgym_clients.errors import ConfigurationError
from mcpgym_server import Environment, load_environment

Split = Literal["train", "held_out"]
"""Which side of the split: ``train`` rows to train on, ``held_out`` rows to measure."""

HELD_OUT_FRACTION = 0.1
"""Default share of variants kept out of training."""


@dataclass(frozen=True)
class TrainingRow:
    """One task variant to roll out.

    Attributes:
        variant_id: ``ENV/TASK@BAND#SEED``. env: the environment name.
        task, band, seed: what the environment server is asked for.
        instruction: the task text the agent is given (as the server gives it).
        split: ``train`` or ``held_out`` (see `split_of`).
    """

    variant_id: str
    env: str
    task: str
    band: str
    seed: int
    instruction: str
    split: Split

    def as_dict(self) -> dict[str, Any]:
        """The row as a plain dict (a dataset record)."""
        return asdict(self)


def split_of(variant_id: str, held_out: float = HELD_OUT_FRACTION) -> Split:
    """The split a variant belongs to: ``held_out`` for a ``held_out`` share of ids.

    The first 8 bytes of ``sha256(variant_id)`` as a fraction of 2**64 decide; a variant is
    held out when that fraction is below ``held_out``. Raising ``held_out`` only moves
    variants from ``train`` to ``held_out``, never the other way.

    Raises:
        ConfigurationError: ``held_out`` outside [0, 1).
    """
    if not 0 <= held_out < 1:
        raise ConfigurationError(f"held_out must be in [0, 1), got {held_out!r}")
    digest = hashlib.sha256(variant_id.encode()).digest()
    return "held_out" if int.from_bytes(digest[:8], "big") / 2**64 < held_out else "train"


def training_rows(
    env: Environment | str,
    *,
    split: Split = "train",
    tasks: Sequence[str] | None = None,
    bands: Sequence[str] | None = None,
    seeds: Iterable[int] = range(100),
    held_out: float = HELD_OUT_FRACTION,
) -> list[TrainingRow]:
    """The rows of one split: every (task, band, seed) asked for whose variant is in it.

    Args:
        env: the environment or its installed name.
        split: ``train`` or ``held_out``.
        tasks: task families (default: all). bands: bands (default: each family's own).
        seeds: the seeds to consider (a variant outside the split is skipped, so a split
            has about ``len(seeds) * share`` rows per task and band).
        held_out: the held-out share (see `split_of`).

    Returns:
        Rows ordered by task, band, seed.

    Raises:
        ConfigurationError: an unknown task or a band no family asked for has, or a bad
            ``held_out``.
    """
    environment = load_environment(env) if isinstance(env, str) else env
    names = list(tasks) if tasks is not None else list(environment.families)
    rows: list[TrainingRow] = []
    seed_list = list(seeds)
    for name in names:
        if name not in environment.families:
            valid = ", ".join(environment.families)
            raise ConfigurationError(f"unknown task {name!r}; valid tasks: {valid}")
        family = environment.families[name]
        wanted = [b for b in family.bands if bands is None or b in bands]
        if bands is not None and not wanted:
            raise ConfigurationError(
                f"task {name!r} has none of the bands {list(bands)}; it has {list(family.bands)}"
            )
        for band in wanted:
            for seed in seed_list:
                variant_id = f"{environment.name}/{name}@{band}#{seed}"
                if split_of(variant_id, held_out) != split:
                    continue
                variant = environment.variant(name, band, seed)
                rows.append(
                    TrainingRow(
                        variant_id=variant.id,
                        env=environment.name,
                        task=name,
                        band=band,
                        seed=seed,
                        instruction=variant.instruction,
                        split=split,
                    )
                )
    return rows
