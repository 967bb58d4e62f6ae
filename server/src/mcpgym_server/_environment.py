"""`Environment`: the declaration an environment package exports.

Example::

    env = Environment(
        name="helpdesk", version="1.0.0",
        snapshot=Snapshot("mcpgym_helpdesk", "data/snapshot.db", sha256="..."),
        clock_start=datetime(2026, 6, 15, 9, 0, tzinfo=UTC),
        instructions="You are a support agent ...",
    )

    @env.tool(kind="read")
    def get_order(sb: Sandbox, order_id: int) -> dict:
        '''Look up one order.

        Args:
            order_id: the order number.
        '''

    env.add_family(TaskFamily(...))
"""

from __future__ import annotations

import random
import sqlite3
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property, lru_cache
from typing import Any, TypeVar

from mcpgym_server._errors import (
    EnvironmentDefinitionError,
    UnknownBandError,
    UnknownTaskError,
)
from mcpgym_server._sandbox import Sandbox
from mcpgym_server._snapshot import Snapshot
from mcpgym_server._tasks import (
    BANDS,
    Band,
    Generation,
    TaskFamily,
    TaskVariant,
    ToolCall,
    generation_seed,
)
from mcpgym_server._tools import ToolKind, ToolSpec, build_tool_spec

F = TypeVar("F", bound=Callable[..., Any])

SUBMIT_TOOL = "submit"
"""Name of the framework tool that ends an episode (see `Environment.tools`)."""


def _submit(sb: Sandbox, answer: str | None = None) -> dict[str, Any]:
    """End the episode when the task is done. No further tool calls are accepted afterwards.

    Args:
        answer: optional final answer or summary for the requester.
    """
    raise AssertionError("handled by the runtime")  # pragma: no cover


@dataclass(frozen=True)
class Resource:
    """A static text resource served over MCP (for example the written policy).

    Attributes:
        uri: e.g. ``"helpdesk://policy"``. name: short name. description: one line.
        mime_type: e.g. ``"text/markdown"``. text: the content.
    """

    uri: str
    name: str
    description: str
    mime_type: str
    text: str


class Environment:
    """A versioned environment: tools, a snapshot, task families and rubrics.

    Args:
        name: environment id, e.g. ``"helpdesk"`` (lowercase, ``[a-z0-9-]``).
        version: semantic version string of the environment.
        snapshot: the starting state.
        clock_start: the instant the virtual clock starts at (timezone-aware).
        clock_step: how far the clock moves per tool call (default 30 s).
        instructions: server-level instructions sent to MCP clients.
        package: the Python package the environment ships in; its lock file
            (``mcpgym.lock``) and ``reference_runs/`` live there (default: the
            snapshot's package).

    Raises:
        EnvironmentDefinitionError: bad name, duplicate tool or family names.
    """

    def __init__(
        self,
        *,
        name: str,
        version: str,
        snapshot: Snapshot,
        clock_start: datetime,
        clock_step: timedelta = timedelta(seconds=30),
        instructions: str = "",
        package: str | None = None,
    ) -> None:
        if not name or not all(c.isalnum() or c == "-" for c in name) or name.lower() != name:
            raise EnvironmentDefinitionError(
                f"environment name {name!r} must be lowercase letters, digits and '-'"
            )
        if clock_start.tzinfo is None:
            raise EnvironmentDefinitionError("clock_start must be timezone-aware (use UTC)")
        self.name = name
        self.version = version
        self.snapshot = snapshot
        self.clock_start = clock_start
        self.clock_step = clock_step
        self.instructions = instructions
        self.package = package or snapshot.package
        self._tools: dict[str, ToolSpec] = {
            SUBMIT_TOOL: build_tool_spec(_submit, kind="write", name=SUBMIT_TOOL, framework=True)
        }
        self._families: dict[str, TaskFamily] = {}
        self._resources: dict[str, Resource] = {}
        self._generation_lock = threading.Lock()

    # -- declaration -------------------------------------------------------------------

    def tool(
        self, *, kind: ToolKind, name: str | None = None, title: str | None = None
    ) -> Callable[[F], F]:
        """Decorator declaring a tool ``fn(sb: Sandbox, **args) -> JSON``.

        Args:
            kind: ``"read"`` (never changes the sandbox) or ``"write"``.
            name: tool name (default: the function name).
            title: optional human-readable title.

        Raises:
            EnvironmentDefinitionError: on a duplicate name or a bad signature.
        """

        def register(fn: F) -> F:
            spec = build_tool_spec(fn, kind=kind, name=name, title=title)
            if spec.name in self._tools:
                raise EnvironmentDefinitionError(f"tool `{spec.name}` is declared twice")
            self._tools[spec.name] = spec
            return fn

        return register

    def add_family(self, family: TaskFamily) -> TaskFamily:
        """Register a task family.

        Raises:
            EnvironmentDefinitionError: duplicate name or a band outside `BANDS`.
        """
        if family.name in self._families:
            raise EnvironmentDefinitionError(f"task family `{family.name}` is declared twice")
        bad = [b for b in family.bands if b not in BANDS]
        if bad or not family.bands:
            raise EnvironmentDefinitionError(
                f"task family `{family.name}`: bands must be a non-empty subset of {BANDS}"
            )
        self._families[family.name] = family
        return family

    def add_resource(self, resource: Resource) -> Resource:
        """Register a static text resource (served to agents over MCP)."""
        self._resources[resource.uri] = resource
        return resource

    # -- lookup ------------------------------------------------------------------------

    @property
    def tools(self) -> Mapping[str, ToolSpec]:
        """All tools by name, including the framework's ``submit``."""
        return self._tools

    @property
    def families(self) -> Mapping[str, TaskFamily]:
        """Task families by name."""
        return self._families

    @property
    def resources(self) -> Mapping[str, Resource]:
        """Static resources by URI."""
        return self._resources

    def family(self, name: str) -> TaskFamily:
        """Look up a family.

        Raises:
            UnknownTaskError: naming the valid families.
        """
        try:
            return self._families[name]
        except KeyError:
            raise UnknownTaskError(name, list(self._families)) from None

    def variant(self, task: str, band: str, seed: int) -> TaskVariant:
        """Generate (and cache) the variant ``task@band#seed``.

        Generation is deterministic: the same arguments always give an equal variant.

        Raises:
            UnknownTaskError: no such family. UnknownBandError: band not offered.
            ValueError: seed is negative.
        """
        fam = self.family(task)
        if band not in fam.bands:
            raise UnknownBandError(band, list(fam.bands))
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        return self._variant(task, band, seed)

    @lru_cache(maxsize=4096)  # noqa: B019 - environments live for the process
    def _variant(self, task: str, band: Band, seed: int) -> TaskVariant:
        with self._generation_lock:  # one shared read-only connection; grader threads too
            return self._generate(task, band, seed)

    def _generate(self, task: str, band: Band, seed: int) -> TaskVariant:
        fam = self._families[task]
        gen = Generation(
            seed=seed,
            band=band,
            rng=random.Random(generation_seed(task, band, seed)),
            db=self._generation_db,
        )
        spec = fam.generator(gen)
        return TaskVariant(
            env=self.name,
            family=task,
            band=band,
            seed=seed,
            instruction=spec.instruction,
            setup=tuple(spec.setup),
            params=dict(spec.params),
            reference=tuple(
                c if isinstance(c, ToolCall) else ToolCall(**c)  # type: ignore[arg-type]
                for c in spec.reference
            ),
            answer=spec.answer,
        )

    @cached_property
    def _generation_db(self) -> sqlite3.Connection:
        return self.snapshot.open_copy(readonly=True)
