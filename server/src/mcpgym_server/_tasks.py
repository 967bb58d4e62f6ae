"""Task families, difficulty bands and task variants.

A task family is a kind of work with a deterministic generator
``(seed, band) -> TaskVariant``. The generator reads the immutable snapshot
(through `Generation.db`) and draws from a `random.Random` seeded by
``(family, band, seed)``; it never sees a sandbox.
"""

from __future__ import annotations

import hashlib
import random
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

Band = Literal["easy", "medium", "hard", "expert"]
"""Difficulty band, ordered from easiest to hardest."""

BANDS: tuple[Band, ...] = ("easy", "medium", "hard", "expert")


class SupportsDigest(Protocol):
    """What the server needs from a rubric: a stable content digest (hex sha256).

    The rubric types live in `mcpgym_grading`; the server only records digests.
    """

    def digest(self) -> str:
        """Hex sha256 of the rubric's canonical content."""
        ...


@dataclass(frozen=True)
class ToolCall:
    """One call of a reference solution: tool name and JSON arguments."""

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Plain-JSON form ``{"name": ..., "arguments": {...}}``."""
        return {"name": self.name, "arguments": dict(self.arguments)}


SetupStep = tuple[str, Sequence[Any] | Mapping[str, Any]]
"""One SQL statement and its parameters, applied to the sandbox at reset."""


@dataclass(frozen=True)
class VariantSpec:
    """What a generator returns.

    Attributes:
        instruction: the text the agent is given.
        setup: SQL statements applied to the fresh sandbox, in order.
        params: JSON-serialisable parameters of the variant; rubric checks refer
            to them (expected values, ids). Never shown to the agent.
        reference: the reference solution, the calls an expert would make.
        answer: the reference final answer passed to ``submit``, if any.
    """

    instruction: str
    setup: Sequence[SetupStep] = ()
    params: Mapping[str, Any] = field(default_factory=dict)
    reference: Sequence[ToolCall] = ()
    answer: str | None = None


@dataclass(frozen=True)
class TaskVariant:
    """One concrete task: a `VariantSpec` plus its identity.

    Attributes:
        env: environment name. family: task family name. band, seed: as generated.
        id: ``"{env}/{family}@{band}#{seed}"``.
    """

    env: str
    family: str
    band: Band
    seed: int
    instruction: str
    setup: tuple[SetupStep, ...]
    params: Mapping[str, Any]
    reference: tuple[ToolCall, ...]
    answer: str | None = None

    @property
    def id(self) -> str:
        """The variant id, ``helpdesk/refund-damaged-item@easy#7``."""
        return f"{self.env}/{self.family}@{self.band}#{self.seed}"


@dataclass
class Generation:
    """Input to a generator.

    Attributes:
        seed: the variant seed (int). band: the band asked for.
        rng: `random.Random` seeded from ``(family, band, seed)``; the only
            randomness a generator may use.
        db: a read-only view of the snapshot (rows as `sqlite3.Row`).
    """

    seed: int
    band: Band
    rng: random.Random
    db: sqlite3.Connection


GeneratorFn = Callable[[Generation], VariantSpec]


def generation_seed(family: str, band: str, seed: int) -> int:
    """Stable 64-bit seed for a generator's RNG, independent of ``PYTHONHASHSEED``."""
    digest = hashlib.sha256(f"{family}|{band}|{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True)
class TaskFamily:
    """A kind of work with a generator and a rubric.

    Attributes:
        name: family name, e.g. ``"refund-damaged-item"``.
        description: one line for humans (shown by ``mcpgym tasks``).
        bands: the bands the generator supports, easiest first.
        generator: ``Generation -> VariantSpec``.
        generator_version: bump whenever the generator's output changes.
        rubric: the family's rubric (an `mcpgym_grading.Rubric`); opaque here.
    """

    name: str
    description: str
    bands: tuple[Band, ...]
    generator: GeneratorFn
    generator_version: str
    rubric: SupportsDigest
